"""Full disks, unwritable folders, damaged files and kill -9: one line, the rest goes on.

Runs the ``digest`` command end to end on a git repository built in the test.
"""

from __future__ import annotations

import datetime as dt
import errno
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import feedparser
import html5lib
import pytest

from digest.cli import main
from digest.store import Store
from tests.gitrepo import GitRepo, at, git_env
from tests.readonly import read_only
from tests.test_cli import CONFIG

pytestmark = pytest.mark.reliability
FIRST = dt.date(2026, 3, 1)
DAYS = 6
NOW = {"WIRE_NOW": "2026-03-10T06:00:00Z"}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A repository with merges on each of DAYS days from FIRST, and a config reading it."""
    repo = GitRepo(tmp_path / "rocket")
    repo.commit("Initial import", at(FIRST - dt.timedelta(days=1), 9), {"src/a.py": "a = 0\n"})
    for n in range(DAYS):
        day = FIRST + dt.timedelta(days=n)
        repo.commit(
            f"Add stage {n} controller (#{100 + 2 * n})",
            at(day, 9),
            {f"src/stage{n}.py": "def go():\n    return 1\n" * (10 + n)},
        )
        repo.commit(
            f"Fix sizes[0] read in stage {n} (#{101 + 2 * n})",
            at(day, 14),
            {f"src/stage{n}.py": "def go():\n    return 2\n" * (10 + n)},
        )
    (tmp_path / "digest.yaml").write_text(CONFIG.format(extra=""))
    return tmp_path


def run(folder: Path, *args: str) -> int:
    return main([*args, "--config", str(folder / "digest.yaml")], env=NOW)


RANGE = ("--since", "2026-03-01", "--until", f"2026-03-0{DAYS}")


def _one_line_naming(err: str, path: Path) -> None:
    lines = [line for line in err.splitlines() if "error" in line]
    assert lines, err
    assert any(str(path) in line for line in lines), err
    assert "Traceback" not in err


def test_a_full_disk_on_one_day_stops_that_day_only(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if "digests/rocket/.2026-03-03.json" in str(Path(f"/proc/self/fd/{fd}").readlink()):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    assert run(folder, "run", *RANGE) == 1
    err = capsys.readouterr().err
    failed = folder / "data/digests/rocket/2026-03-03.json"
    _one_line_naming(err, failed)
    assert "No space left on device" in err
    assert not failed.exists()
    written = sorted(p.name for p in (folder / "data/digests/rocket").glob("2*"))
    assert written == [f"2026-03-0{n}.json" for n in range(1, DAYS + 1) if n != 3]
    assert Store(folder / "data").index_problems() == []  # the index lists what is there
    assert (folder / "site/rocket/2026-03-04.html").is_file()  # the site is still built
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert run(folder, "run", *RANGE) == 0  # space again: the next run completes


def test_a_file_in_the_way_of_a_folder_is_one_line_and_the_range_goes_on(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Unwritable even for root: a file where the project's folder of editions should be.
    blocker = folder / "data/digests/rocket"
    blocker.parent.mkdir(parents=True)
    blocker.write_text("not a folder")
    assert run(folder, "run", *RANGE) == 1
    err = capsys.readouterr().err
    _one_line_naming(err, blocker / "2026-03-01.json")
    assert err.count("cannot write") == DAYS  # every day tried, each failure one line
    assert (folder / "data/collected/acme/rocket/2026-03-06.json").is_file()


def test_a_read_only_site_folder_is_one_line(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with read_only(monkeypatch, folder):  # chmod would not stop root
        assert run(folder, "run", *RANGE) == 1
    err = capsys.readouterr().err
    assert err == f"digest: error: {folder / 'data/.wire.lock'}: cannot write: Permission denied\n"


def test_a_truncated_edition_does_not_stop_a_refresh(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(folder, "run", "--date", "2026-03-02") == 0
    edition = folder / "data/digests/rocket/2026-03-02.json"
    whole = edition.read_bytes()
    edition.write_bytes(whole[: len(whole) // 2])
    assert run(folder, "run", "--date", "2026-03-02", "--refresh") == 0
    assert "not a valid stored record" in capsys.readouterr().err  # warned, then replaced
    assert json.loads(edition.read_bytes())["headline"] == json.loads(whole)["headline"]


def test_orphaned_temporary_files_are_removed_at_the_start(folder: Path) -> None:
    assert run(folder, "run", "--date", "2026-03-02") == 0
    site = (folder / "site").resolve()
    orphans = [
        folder / "data/digests/rocket/.2026-03-02.json.k3j9x_2a.tmp",
        folder / "data/collected/acme/rocket/.2026-03-02.json.a8d7c6b5.tmp",
        site / "rocket/.2026-03-02.html.zz1y2x3w.tmp",
        site / ".index.html.q1w2e3r4.tmp",
    ]
    for orphan in orphans:
        orphan.write_text("half")
    keep = folder / "data/digests/rocket/notes.tmp"  # not a name the Wire gives: kept
    keep.write_text("mine")
    assert run(folder, "run", "--date", "2026-03-03") == 0
    assert not list((folder / "data").rglob(".*.tmp"))
    assert not list((folder / "site").resolve().rglob("*.tmp"))
    assert keep.exists()


KILL_TRIALS = 6


def test_kill_9_during_a_range_leaves_only_whole_files_and_the_next_run_completes(
    folder: Path,
) -> None:
    """kill -9 at seeded random moments of ``digest run --since/--until``; check every file."""
    command = [
        sys.executable,
        "-m",
        "digest.cli",
        "run",
        *RANGE,
        "--refresh",
        "--config",
        str(folder / "digest.yaml"),
    ]
    env = {**os.environ, **git_env(), **NOW}
    chance = random.Random(14)
    for _ in range(KILL_TRIALS):
        victim = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(chance.uniform(0.3, 2.5))
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=30)
        _every_file_parses(folder)
    finished = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    _every_file_parses(folder)
    assert not list((folder / "data").rglob("*.tmp"))
    assert not list((folder / "site").resolve().rglob("*.tmp"))
    pages = sorted(p.name for p in (folder / "site/rocket").glob("2026-*.html"))
    assert pages == [f"2026-03-0{n}.html" for n in range(1, DAYS + 1)]


def _every_file_parses(folder: Path) -> None:
    for path in (folder / "data").rglob("*.json"):
        json.loads(path.read_bytes())
    site = folder / "site"
    if not site.exists():
        return
    for path in site.resolve().rglob("*.html"):
        html5lib.HTMLParser(strict=True).parse(path.read_bytes())
    for path in site.resolve().rglob("*.xml"):
        assert not feedparser.parse(path.read_bytes()).bozo, path
