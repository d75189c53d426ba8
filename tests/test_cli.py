"""The `digest` command end to end, on git repositories built in the test."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import feedparser
import html5lib
import pytest

from digest.cli import main
from tests.factories import executable_scripts
from tests.gitrepo import GitRepo, at

DAY = dt.date(2026, 3, 4)
NOW = {"WIRE_NOW": "2026-03-05T06:00:00Z"}
CONFIG = """\
site:
  title: Rocket Wire
  publisher: Rocket Desk
  base_url: https://news.example.org/
projects:
  - name: Rocket
    repos:
      - name: acme/rocket
        git: rocket
{extra}
topics:
  - name: Boosters
    title_prefixes: ["Booster stage:"]
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A folder with a rocket repository of three days and a config that reads it."""
    repo = GitRepo(tmp_path / "rocket")
    repo.commit("Initial import", at(DAY - dt.timedelta(days=1), 9), {"src/engine.py": "x = 1\n"})
    repo.commit(
        "Booster stage: Add throttle control (#101)",
        at(DAY, 9),
        {"stages/booster/throttle.py": "def throttle():\n    return 1\n" * 20},
        author="Grace Hopper",
    )
    repo.commit(
        "Booster stage: Add gimbal control (#102)\n\n### Summary\nThe booster can now steer "
        "its engines during ascent, which removes the need for fins.\n\n### Test plan\n"
        "Simulator.\n\ncc @alice\nDifferential Revision: D1234",
        at(DAY, 10),
        {"stages/booster/gimbal.py": "def gimbal():\n    return 2\n" * 30},
    )
    bad = repo.commit(
        "Fix <script>alert(1)</script> crash when fuel reads \u202eNaN (#103)",
        at(DAY, 11),
        {"src/engine.py": "x = 2\n"},
    )
    repo.commit(
        f'Revert "Fix <script>alert(1)</script> crash when fuel reads NaN (#103)" (#104)\n\n'
        f"This reverts commit {bad}.\n\nIt broke the launch simulator.",
        at(DAY, 15),
        {"src/engine.py": "x = 1\n"},
    )
    repo.commit("CI: cache wheels (#105)", at(DAY, 16), {".github/workflows/ci.yml": "on: push\n"})
    repo.commit(
        "Add telemetry dashboard (#106)", at(DAY + dt.timedelta(days=1), 1), {"src/t.py": "t = 1\n"}
    )
    (tmp_path / "digest.yaml").write_text(CONFIG.format(extra=""))
    return tmp_path


def run(folder: Path, *args: str) -> int:
    return main([*args, "--config", str(folder / "digest.yaml")], env=NOW)


def test_run_builds_the_edition_page_index_and_feed(site: Path) -> None:
    assert run(site, "run", "--date", "2026-03-04") == 0
    digest = json.loads((site / "data/digests/rocket/2026-03-04.json").read_text())
    assert not digest["headline"].isupper()  # stored in sentence case, set in capitals by CSS
    assert [r["number"] for r in digest["references"]][:1] == [102]
    assert {c["number"] for c in digest["changes"]} == {101, 102, 103, 104, 105}
    assert digest["topics"] == ["boosters"]
    assert digest["filed_at"] == "2026-03-05T06:00:00Z"

    page = (site / "site/rocket/2026-03-04.html").read_bytes()
    tree = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(page)
    assert "".join(tree.find(".//h1").itertext()).strip() == digest["headline"]
    assert not executable_scripts(tree)
    assert b"<script>alert" not in page and "\u202e".encode() not in page
    refs = {a.get("href") for a in tree.iter("a")}
    assert "https://github.com/acme/rocket/pull/102" in refs

    feed = feedparser.parse((site / "site/feed.xml").read_bytes())
    assert feed.bozo == 0
    assert [e.link for e in feed.entries] == ["https://news.example.org/rocket/2026-03-04.html"]
    assert (site / "site/index.html").exists() and (site / "site/topics/boosters.html").exists()


def test_rerun_is_byte_identical_and_reuses_collected_days(site: Path) -> None:
    assert run(site, "run", "--date", "2026-03-04") == 0
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file() and ".git" not in p.parts}
    shutil.rmtree(site / "rocket")  # the stored day is reused: the clone is not read again
    assert (
        main(
            ["run", "--config", str(site / "digest.yaml"), "--date", "2026-03-04"],
            env={"WIRE_NOW": "2026-03-06T07:00:00Z"},
        )
        == 0
    )
    after = {p: p.read_bytes() for p in site.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert after == {
        p: b for p, b in before.items() if "rocket/" not in str(p.relative_to(site))[:7]
    }


def test_range_with_a_quiet_day_says_so(site: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO")
    assert run(site, "run", "--since", "2026-03-01", "--until", "2026-03-04") == 0
    assert "rocket 2026-03-01: no merged changes; no edition" in caplog.text
    stored = sorted(p.name for p in (site / "data/digests/rocket").iterdir())
    assert stored == [".index", "2026-03-03.json", "2026-03-04.json"]


def test_stages_one_by_one(site: Path) -> None:
    assert run(site, "collect", "--date", "2026-03-04") == 0
    assert (site / "data/collected/acme/rocket/2026-03-04.json").exists()
    assert not (site / "data/digests").exists()
    assert run(site, "summarize", "--date", "2026-03-04") == 0
    assert not (site / "site").exists()
    assert run(site, "render") == 0
    assert (site / "site/rocket/2026-03-04.html").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("run", "--date", "2026-13-01"), "2026-13-01 is not a date: there is no month 13"),
        (("run", "--date", "26-03-01"), "not a date of the form YYYY-MM-DD"),
        (("run", "--date", "2027-01-01"), "is in the future"),
        (("run", "--since", "2026-03-04", "--until", "2026-03-01"), "is after --until"),
        (("run", "--date", "2026-03-04", "--since", "2026-03-01"), "either --date or --since"),
        (("run", "--project", "nope"), "no project 'nope'; configured: rocket"),
        (("run", "--writer", "poet"), "unknown writer 'poet'; available: extractive"),
    ],
)
def test_user_mistakes_are_one_line_and_exit_2(
    site: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    with pytest.raises(SystemExit) if "not a date" in message else _no_raise() as exited:
        status = run(site, *args)
    if exited is not None and isinstance(exited, pytest.ExceptionInfo):
        status = exited.value.code  # argparse's own exit for a malformed option value
    err = capsys.readouterr().err
    assert status == 2
    assert message in err and "Traceback" not in err
    assert not (site / "site").exists() and not (site / "data").exists()


def test_bad_config_writes_nothing(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (site / "digest.yaml").write_text(CONFIG.format(extra="    reops: []"))
    assert run(site, "run", "--date", "2026-03-04") == 2
    err = capsys.readouterr().err.strip()
    assert (
        err == f"digest: error: {site / 'digest.yaml'}: projects[0].reops: line 10: "
        "unknown key; did you mean 'repos'?"
    )
    assert not (site / "data").exists() and not (site / "site").exists()


def test_unreadable_repo_is_reported_and_the_rest_published(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (site / "digest.yaml").write_text(
        CONFIG.format(extra="      - name: acme/pad\n        git: missing-clone")
    )
    assert run(site, "run", "--date", "2026-03-04") == 1
    digest = json.loads((site / "data/digests/rocket/2026-03-04.json").read_text())
    assert [f["repo"] for f in digest["failed_repos"]] == ["acme/pad"]
    assert "acme/pad" in capsys.readouterr().err
    page = (site / "site/rocket/2026-03-04.html").read_text()
    assert "acme/pad" in page


def test_corrupt_stored_file_is_a_clear_error(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(site, "run", "--date", "2026-03-04") == 0
    stored = site / "data/collected/acme/rocket/2026-03-04.json"
    stored.write_text('{"repo": "acme/rocket", "pulls": "oops"}')
    assert run(site, "summarize", "--date", "2026-03-04") == 1
    err = capsys.readouterr().err
    assert "not a valid stored record" in err and str(stored) in err and "Traceback" not in err


class _no_raise:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False


def test_a_failed_refresh_keeps_what_was_collected(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(site, "run", "--date", "2026-03-04") == 0
    stored = site / "data/collected/acme/rocket/2026-03-04.json"
    before = (stored.read_bytes(), (site / "data/digests/rocket/2026-03-04.json").read_bytes())
    (site / "rocket").rename(site / "rocket-moved")  # the clone is gone: collecting fails
    capsys.readouterr()
    assert run(site, "run", "--date", "2026-03-04", "--refresh") == 0
    err = capsys.readouterr().err
    assert "re-collecting failed; kept the collection of 2026-03-05 06:00 UTC (5 changes" in err
    after = (stored.read_bytes(), (site / "data/digests/rocket/2026-03-04.json").read_bytes())
    assert after == before  # the collection and the edition are as they were


@pytest.mark.parametrize(
    "words",
    [
        ["render"],
        ["-v", "render", "--full", "-q"],
        ["--config", "run", "render"],  # a configuration file named like a command
        ["--conf=x.yaml", "doctor", "--site", "--index"],
        ["--debug", "run", "--since", "2026-01-01", "--project", "a", "--project", "b"],
        ["config"],
    ],
)
def test_the_parser_of_the_command_named_alone_parses_as_the_whole_one(words: list[str]) -> None:
    from digest.cli import _command_in, _parser

    only = _command_in(words)
    assert only is not None
    assert vars(_parser(only).parse_args(words)) == vars(_parser().parse_args(words))


@pytest.mark.parametrize("words", [[], ["--help"], ["-h", "render"], ["--version"], ["build"]])
def test_help_a_version_or_no_known_command_builds_every_parser(words: list[str]) -> None:
    from digest.cli import _command_in

    assert _command_in(words) is None
