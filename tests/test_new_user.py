"""What a new user trips over (issue 13): modes, one-line errors, plain public reasons."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

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
