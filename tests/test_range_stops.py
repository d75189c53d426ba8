"""A range that stops before its end still builds the site from what it stored, and says so.

A backfill killed by Ctrl-C or SIGTERM, or ended by a day that fails, leaves the site with
the editions of the days done (issue 27), a line saying how far it got, and an exit status
that is not 0. Each test runs `digest` on a git repository built in the test.
"""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from digest import pipeline
from digest.cli import main
from digest.errors import NetworkUnreachable
from tests.gitrepo import GitRepo, at

FIRST = dt.date(2026, 3, 2)
DAYS = [FIRST + dt.timedelta(days=n) for n in range(4)]  # 2026-03-02 to 2026-03-05
NOW = {"WIRE_NOW": "2026-03-07T06:00:00Z"}
CONFIG = """\
site:
  title: Rocket Wire
  base_url: https://news.example.org/
projects:
  - name: Rocket
    repos:
      - name: acme/rocket
        git: rocket
"""
RANGE = ("--since", str(DAYS[0]), "--until", str(DAYS[-1]))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A rocket repository with a merge on each of four days, and a config that reads it."""
    repo = GitRepo(tmp_path / "rocket")
    repo.commit("Initial import", at(FIRST - dt.timedelta(days=1), 9), {"README.md": "rocket\n"})
    for n, day in enumerate(DAYS, start=1):
        repo.commit(f"Engine: add stage {n} (#{100 + n})", at(day, 10), {f"engine/{n}.py": "x\n"})
    (tmp_path / "digest.yaml").write_text(CONFIG)
    return tmp_path


def digest(folder: Path, *args: str) -> int:
    return main([*args, "--config", str(folder / "digest.yaml")], env=NOW)


def pages(folder: Path) -> list[str]:
    """The edition pages of the built site."""
    return sorted(p.name for p in (folder / "site/rocket").glob("2026-*.html"))


def test_a_day_that_fails_mid_range_leaves_a_site_of_the_others(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # What an earlier run stored for the third day is damaged: that day fails, the rest go on.
    stored = folder / "data/collected/acme/rocket/2026-03-04.json"
    stored.parent.mkdir(parents=True)
    stored.write_text('{"repo": "acme/rocket", "pulls": "oops"}')

    assert digest(folder, "run", *RANGE) == 1
    assert pages(folder) == ["2026-03-02.html", "2026-03-03.html", "2026-03-05.html"]
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        "digest: rendered 3 of 4 days; failed: 2026-03-04 (the errors are above)"
    )
    assert err.count("not a valid stored record") == 1
    assert "Traceback" not in err


def test_a_range_that_cannot_go_on_renders_the_days_before_it(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    collect = pipeline.collect

    def offline_from_the_third_day(
        rt: pipeline.Runtime, project: object, day: dt.date, refresh: bool = False
    ) -> pipeline.Collected:
        if day >= DAYS[2]:
            raise NetworkUnreachable(
                "github.com: cannot connect; check the network, then run again"
            )
        return collect(rt, project, day, refresh)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "collect", offline_from_the_third_day)
    assert digest(folder, "run", *RANGE) == 1
    assert pages(folder) == ["2026-03-02.html", "2026-03-03.html"]
    err = capsys.readouterr().err.splitlines()
    assert err[-2:] == [
        "digest: rendered 2 of 4 days; stopped at 2026-03-04; "
        "run the same command again to finish the range",
        "digest: error: github.com: cannot connect; check the network, then run again",
    ]


def test_ctrl_c_in_a_range_renders_the_days_done(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    summarize = pipeline.summarize

    def interrupted_on_the_third_day(*args: object) -> object:
        if args[2] == DAYS[2]:
            raise KeyboardInterrupt
        return summarize(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "summarize", interrupted_on_the_third_day)
    summary = folder / "summary.md"
    assert digest(folder, "run", *RANGE, "--summary", str(summary)) == 130
    assert pages(folder) == ["2026-03-02.html", "2026-03-03.html"]
    err = capsys.readouterr().err
    assert "digest: interrupted; building the site from the editions stored so far" in err
    assert (
        "digest: rendered 2 of 4 days; stopped at 2026-03-04: interrupted; "
        "run the same command again to finish the range"
    ) in err
    said = summary.read_text()
    assert "Stopped at 2026-03-04: interrupted" in said and "Exit status 130" in said

    # The same command again finishes the range.
    monkeypatch.setattr(pipeline, "summarize", summarize)
    assert digest(folder, "run", *RANGE) == 0
    assert pages(folder) == [f"{day}.html" for day in DAYS]


def test_an_interrupted_collect_says_how_far_it_got(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    collect = pipeline.collect

    def interrupted(
        rt: pipeline.Runtime, project: object, day: dt.date, refresh: bool = False
    ) -> object:
        if day == DAYS[1]:
            raise KeyboardInterrupt
        return collect(rt, project, day, refresh)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "collect", interrupted)
    assert digest(folder, "collect", *RANGE) == 130
    err = capsys.readouterr().err
    assert "digest: collected 1 of 4 days; stopped at 2026-03-03: interrupted" in err
    assert "digest: interrupted; files already written are complete" in err


# Run by a separate Python: `digest run` whose third day waits (as a slow source would)
# after saying so in a file, until a signal stops it.
_SLOW_RANGE = """
import signal, sys, time
from pathlib import Path
from digest import cli, pipeline

signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started ignoring it
collect = pipeline.collect

def slow(rt, project, day, refresh=False):
    if str(day) == sys.argv[2]:
        Path(sys.argv[1]).write_text("waiting")
        time.sleep(120)
    return collect(rt, project, day, refresh)

pipeline.collect = slow
sys.exit(cli.main(sys.argv[3:]))
"""


@pytest.mark.parametrize(
    ("sent", "status", "said"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated (SIGTERM)")],
)
def test_a_signal_stops_a_range_and_the_site_has_the_days_done(
    folder: Path, sent: signal.Signals, status: int, said: str
) -> None:
    waiting = folder / "waiting"
    command = [sys.executable, "-c", textwrap.dedent(_SLOW_RANGE), str(waiting), str(DAYS[2])]
    command += ["run", "--config", str(folder / "digest.yaml"), *RANGE]
    with subprocess.Popen(
        command,
        env=os.environ | NOW,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as running:
        deadline = time.monotonic() + 60
        while not waiting.exists():
            assert running.poll() is None, running.communicate()
            assert time.monotonic() < deadline, "the range never reached its third day"
            time.sleep(0.05)
        running.send_signal(sent)
        _, err = running.communicate(timeout=60)
    assert running.returncode == status, err
    assert pages(folder) == ["2026-03-02.html", "2026-03-03.html"]
    assert f"digest: rendered 2 of 4 days; stopped at 2026-03-04: {said}; " in err
    assert "Traceback" not in err
