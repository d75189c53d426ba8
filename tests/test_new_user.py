"""What a new user trips over (issue 13): modes, one-line errors, plain public reasons."""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import socket
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import html5lib
import msgspec
import pytest

from digest.cli import main
from digest.models import Digest, FailureReason, RepoFailure
from digest.render import publish, stamp
from digest.store import parse_record
from tests.factories import make_digest
from tests.fake_github import FakeGitHub, Fault
from tests.gitrepo import git_env
from tests.readonly import read_only
from tests.test_cli import run, site  # noqa: F401  (the fixture)
from tests.test_github_cli import api, digest, write_config  # noqa: F401  (a fixture)


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
    published = stamp.published(site / "site")
    assert published is not None
    published.unlink()  # the site is built again
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


def test_a_template_failing_in_a_render_worker_is_the_same_one_line(
    site: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from digest.render import output

    monkeypatch.setattr(output, "PARALLEL_MIN", 1)  # every build shared out to workers
    monkeypatch.setattr(output, "usable_cores", lambda: 2)
    (site / "tpl").mkdir()
    (site / "tpl/edition.html").write_text(TEMPLATE + "{{ nope.x }}\n{% endblock %}\n")
    config = site / "digest.yaml"
    config.write_text(config.read_text().replace("site:\n", "site:\n  templates: tpl\n", 1))
    assert run(site, "run", "--date", "2026-03-04") == 2
    err = capsys.readouterr().err
    errors = [e for e in err.splitlines() if e.startswith("digest: error:")]
    where = f"digest: error: template {site / 'tpl/edition.html'}, line 3: "
    assert len(errors) == 1 and errors[0].startswith(where), errors
    assert "'nope' is undefined" in errors[0] and "Traceback" not in err


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


def test_no_path_or_server_message_reaches_a_page_feed_or_edition(
    tmp_path: Path,
    api: FakeGitHub,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "notrepo").mkdir()
    extra = (
        "      - name: acme/helion\n        git: clones/helion-missing\n"
        "      - name: acme/plain\n        git: notrepo\n"
    )
    config = write_config(tmp_path, retries=0, extra=extra)
    leak = "disk /srv/gh-7/shard.db on db-7.internal"
    api.faults = {2: Fault(500, {"message": leak})}  # acme/ground's only request
    assert digest(config, api, "run", "--date", "2026-03-04") == 1
    err = capsys.readouterr().err
    assert leak in err and str(tmp_path / "clones/helion-missing") in err  # the log has it all

    edition = json.loads((tmp_path / "data/digests/rocket/2026-03-04.json").read_text())
    assert {(f["repo"], f["reason"]) for f in edition["failed_repos"]} == {
        ("acme/ground", "server error"),
        ("acme/helion", "repository not found"),
        ("acme/plain", "not a git repository"),
    }
    public = [tmp_path / "data/digests", (tmp_path / "site").resolve()]
    files = [p for root in public for p in root.rglob("*") if p.is_file()]
    assert len(files) > 20
    for path in files:  # the manifest too, which is binary
        data = path.read_bytes()
        assert str(tmp_path).encode() not in data, path
        assert b"/srv/" not in data and b"db-7" not in data, path
    page = html5lib.parse(
        (tmp_path / "site/rocket/2026-03-04.html").read_bytes(), namespaceHTMLElements=False
    )
    notice = " ".join(
        "".join(li.itertext()) for li in page.iter("li") if "acme/helion" in "".join(li.itertext())
    )
    assert notice == "acme/helion: repository not found"


def test_reasons_stored_by_earlier_versions_are_read_as_a_generic_one() -> None:
    stored = msgspec.to_builtins(make_digest())
    stored["failed_repos"] = [
        {"repo": "acme/helion", "reason": "no such folder /home/me/clones/helion"},
        {"repo": "acme/rocket", "reason": "not collected (2026-03-03)"},
    ]
    read = parse_record(json.dumps(stored).encode(), Digest)
    assert read.failed_repos == (
        RepoFailure("acme/helion", FailureReason.UNREADABLE),
        RepoFailure("acme/rocket", FailureReason.NOT_COLLECTED),
    )


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("2026-02-30", "2026-02-30 is not a date: February has 28 days in 2026"),
        ("2028-02-30", "2028-02-30 is not a date: February has 29 days in 2028"),
        ("2026-04-31", "2026-04-31 is not a date: April has 30 days in 2026"),
        ("2026-13-01", "2026-13-01 is not a date: there is no month 13"),
        ("2026-3-4", "'2026-3-4' is not a date of the form YYYY-MM-DD"),
    ],
)
def test_a_day_that_does_not_exist_is_named_as_such(
    site: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    given: str,
    says: str,
) -> None:
    with pytest.raises(SystemExit) as stop:
        run(site, "run", "--date", given)
    assert stop.value.code == 2
    assert capsys.readouterr().err.strip().endswith(f"argument --date: {says}")


def test_summarize_before_collect_says_to_collect_first(
    site: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(site, "summarize", "--date", "2026-03-04") == 1
    assert capsys.readouterr().err.strip() == (
        "digest: error: rocket 2026-03-04: nothing collected yet for that day; "
        "run `digest collect` first (or `digest run`)"
    )


@pytest.mark.parametrize("before", [True, False])
def test_global_options_go_before_or_after_the_command(
    site: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    before: bool,
) -> None:
    options = ["-q", "--config", str(site / "digest.yaml")]
    args = [*options, "config"] if before else ["config", *options]
    assert main(args, env={}) == 0
    assert json.loads(capsys.readouterr().out)["config"] == str(site / "digest.yaml")
    assert logging.getLogger("digest").level == logging.WARNING


def test_counts_in_the_output_agree_with_their_nouns(
    site: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level("DEBUG", logger="digest")
    assert run(site, "run", "--date", "2026-03-04") == 0
    assert run(site, "run", "--date", "2026-03-04", "-v") == 0
    said = "\n".join(r.getMessage() for r in caplog.records)
    assert "1 edition, 1 digest read" in said and "0 problems" in said
    assert "reusing 5 stored changes" in said
    assert not re.search(r"\b1 [a-z ]*?(editions|digests|changes|problems)\b", said), said


def _closed_port() -> str:
    with socket.socket() as probe:  # a port on 127.0.0.1 that nobody listens on
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


def _no_dns(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make every name lookup fail as it does offline; return the names asked for."""
    asked: list[str] = []

    def fail(host: str, *args: object, **kwargs: object) -> list[object]:
        asked.append(host)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", fail)
    return asked


@pytest.mark.parametrize("offline", ["dns", "refused"])
def test_an_unreachable_github_stops_the_run_at_once_with_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    offline: str,
) -> None:
    config = write_config(tmp_path, retries=5)
    url = _closed_port()
    if offline == "dns":
        asked = _no_dns(monkeypatch)
        url = "http://api.github.test"
    status = digest(config, url, "run", "--since", "2026-03-01", "--until", "2026-03-04")
    assert status == 1
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("digest: error:")]
    assert len(errors) == 1 and "network unreachable" in errors[0], err
    assert errors[0].endswith("check the network, then run again")
    assert "trying again" not in err and "waiting" not in err  # no retries, no backoff
    if offline == "dns":
        assert asked == ["api.github.test"]  # one lookup for the whole run


def test_doctor_says_the_network_is_unreachable_when_names_do_not_resolve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _no_dns(monkeypatch)
    config = write_config(tmp_path)
    assert digest(config, "http://api.github.test", "doctor") == 1
    out = capsys.readouterr().out
    assert "FAIL  GitHub API, GitHub GraphQL, acme/rocket, acme/ground (4 times): network " in out
    assert "fix: check the network or proxy" in out and "check the name" not in out


def test_a_stale_clone_is_one_warning_per_run(
    site: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The clone's last commit is on 2026-03-05 at 01:00 UTC.
    config = str(site / "digest.yaml")
    env = {"WIRE_NOW": "2026-03-09T06:00:00Z"}
    assert (
        main(["run", "--config", config, "--since", "2026-03-04", "--until", "2026-03-08"], env)
        == 0
    )
    err = capsys.readouterr().err
    stale = [line for line in err.splitlines() if "last changed" in line]
    assert stale == [
        "digest: acme/rocket: its branch was last changed on 2026-03-05 01:00 UTC, so 2026-03-07 "
        "to 2026-03-08 (2 days) will have no merged changes; update the clone (git fetch) if "
        "that is not right"
    ]
    assert main(["run", "--config", config, "--date", "2026-03-06"], env) == 0
    assert "last changed" not in capsys.readouterr().err  # within a day of the last commit


def test_doctor_warns_of_a_stale_clone(
    site: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = str(site / "digest.yaml")
    assert main(["doctor", "--config", config], {"WIRE_NOW": "2026-03-07T06:00:00Z"}) == 0
    assert "ok    acme/rocket: clone" in capsys.readouterr().out
    assert main(["doctor", "--config", config], {"WIRE_NOW": "2026-03-08T06:00:00Z"}) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("warn  acme/rocket: clone ") and out[1].endswith(
        "last changed 2026-03-05 01:00 UTC: stale for yesterday"
    )
    assert (
        out[2]
        == f"      fix: update the clone (git -C {site / 'rocket'} fetch) if the branch moved since"
    )


def test_display_names_and_a_repository_url_reach_the_pages(
    site: Path,  # noqa: F811
) -> None:
    config = site / "digest.yaml"
    text = config.read_text().replace(
        "  - name: Rocket\n    repos:\n      - name: acme/rocket\n",
        "  - name: Rocket\n    display_name: RocketWorks\n    repos:\n      - name: acme/rocket\n"
        "        display_name: rocketry\n        url: https://git.example.org/acme/rocket/\n",
    )
    config.write_text(text)
    assert run(site, "run", "--date", "2026-03-04") == 0
    edition = json.loads((site / "data/digests/rocket/2026-03-04.json").read_text())
    assert edition["project"] == "RocketWorks"
    assert edition["repo_names"] == [{"repo": "acme/rocket", "display_name": "rocketry"}]
    assert {c["url"] for c in edition["changes"]} == {
        f"https://git.example.org/acme/rocket/pull/{n}" for n in (101, 102, 103, 104, 105)
    }
    page = html5lib.parse(
        (site / "site/rocket/2026-03-04.html").read_bytes(), namespaceHTMLElements=False
    )
    shown = {"".join(s.itertext()) for s in page.iter("span") if s.get("class") == "repo"}
    assert shown == {"rocketry"}
    assert "RocketWorks" in "".join(page.find(".//title").itertext())


@pytest.mark.parametrize("url", ["git.example.org/acme/rocket", "ftp://x.example/r", "https://"])
def test_a_repository_url_must_be_a_web_address(
    site: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    url: str,
) -> None:
    config = site / "digest.yaml"
    config.write_text(
        config.read_text().replace(
            "        git: rocket\n", f"        git: rocket\n        url: {url}\n"
        )
    )
    assert run(site, "config") == 2
    assert "is not an http(s) URL" in capsys.readouterr().err


def test_the_demo_spans_several_days_without_a_clone_of_the_wire(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    subprocess.run([root / "scripts/demo", tmp_path / "demo-repo"], check=True, env=git_env())
    demo = (root / "data/demo.yaml").read_text()
    assert "site_dir: ../site/demo" in demo
    (tmp_path / "demo.yaml").write_text(demo.replace("../site/demo", "site"))  # not outside
    args = ["run", "--config", str(tmp_path / "demo.yaml"), "--since", "2026-03-02"]
    assert main([*args, "--until", "2026-03-06"], env={"WIRE_NOW": "2026-11-01T00:00:00Z"}) == 0
    editions = sorted((tmp_path / "demo/digests/rocket").glob("*.json"))
    assert [p.stem for p in editions] == [f"2026-03-0{d}" for d in range(2, 7)]
    for path in editions:
        edition = json.loads(path.read_text())
        assert edition["project"] == "RocketWorks"
        assert all(
            c["url"].startswith("https://example.org/acme/rocket/") for c in edition["changes"]
        )
