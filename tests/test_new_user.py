"""What a new user trips over (issue 13): modes, one-line errors, plain public reasons."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from digest.render import publish
from tests.readonly import read_only
from tests.test_cli import run, site  # noqa: F401  (the fixture)


@pytest.fixture
def umask() -> Iterator[None]:
    """Restore the process umask a test sets."""
    old = os.umask(0o022)
    os.umask(old)
    yield
    os.umask(old)


def _modes(root: Path) -> dict[str, set[int]]:
    """The permission bits of every file and folder under ``root`` (links followed once)."""
    found: dict[str, set[int]] = {"file": set(), "dir": set()}
    for folder, dirs, files in os.walk(root, followlinks=True):
        for name in dirs:
            found["dir"].add(stat.S_IMODE((Path(folder) / name).stat().st_mode))
        for name in files:
            found["file"].add(stat.S_IMODE((Path(folder) / name).stat().st_mode))
    return found


@pytest.mark.parametrize(
    ("mask", "file_mode", "dir_mode"), [(0o022, 0o644, 0o755), (0o027, 0o640, 0o750)]
)
def test_written_files_honour_the_umask(
    site: Path,  # noqa: F811
    umask: None,
    mask: int,
    file_mode: int,
    dir_mode: int,
) -> None:
    os.umask(mask)
    assert run(site, "run", "--date", "2026-03-04") == 0
    for root in (site / "data", site / "site"):
        modes = _modes(root)
        assert modes["file"] == {file_mode}, root
        assert modes["dir"] == {dir_mode}, root


@pytest.mark.parametrize("where", ["", "site", "data", "data/digests", ".site.builds"])
def test_a_read_only_folder_is_one_line(
    site: Path,  # noqa: F811
    where: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(site, "run", "--date", "2026-03-04") == 0
    (site / "data/digests/rocket/2026-03-04.json").unlink()
    (site / "site").resolve().joinpath("index.html").unlink()
    capsys.readouterr()
    with read_only(monkeypatch, site / where):
        status = run(site, "run", "--date", "2026-03-04")
    err = capsys.readouterr().err
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("digest: error:")]
    assert status != 0 and len(errors) == 1, err
    assert "cannot write" in errors[0] and len(errors[0]) < 300, errors


def test_the_copy_of_a_site_that_cannot_be_linked_or_copied_is_one_line(
    site: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(site, "run", "--date", "2026-03-04") == 0
    capsys.readouterr()

    def refuse(source: str, target: str) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", target)

    # The copy's folders can be made, its files cannot: copytree gathers every failure.
    monkeypatch.setattr(publish, "_link_or_copy", refuse)
    assert run(site, "render") == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "other files" in err, err


TEMPLATE = '{% extends "shipped/base.html" %}\n{% block main %}\n'


@pytest.mark.parametrize(
    ("body", "line", "says"),
    [
        ("{{ nope.x }}", 3, "'nope' is undefined"),
        ("{% if %}", 3, "Expected an expression"),
        ('{% include "missing.html" %}', 3, "no template 'missing.html'"),
    ],
)
def test_a_broken_override_template_is_one_line(
    site: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    body: str,
    line: int,
    says: str,
) -> None:
    (site / "tpl").mkdir()
    (site / "tpl/index.html").write_text(TEMPLATE + body + "\n{% endblock %}\n")
    config = site / "digest.yaml"
    config.write_text(config.read_text().replace("site:\n", "site:\n  templates: tpl\n", 1))
    assert run(site, "run", "--date", "2026-03-04") == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    errors = [e for e in err.splitlines() if e.startswith("digest: error:")]
    where = f"digest: error: template {site / 'tpl/index.html'}, line {line}: "
    assert len(errors) == 1 and errors[0].startswith(where), errors
    assert says in errors[0]


def test_a_missing_template_folder_stops_before_anything_is_written(
    site: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = site / "digest.yaml"
    config.write_text(config.read_text().replace("site:\n", "site:\n  templates: tpl\n", 1))
    assert run(site, "run", "--date", "2026-03-04") == 2
    err = capsys.readouterr().err.strip()
    assert err == f"digest: error: {config}: site.templates: no such folder: {site / 'tpl'}"
    assert not (site / "data").exists() and not (site / "site").exists()
