"""One writer at a time: concurrent `digest` processes on the same data_dir never interleave."""

from __future__ import annotations

import datetime as dt
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo, at, git_env

DAY = dt.date(2026, 3, 4)
ENV = git_env() | {"WIRE_NOW": "2026-03-05T06:00:00Z"}
CONFIG = """\
site:
  title: Lock Wire
  base_url: https://news.example.org/
projects:
  - name: Rocket
    repos:
      - name: acme/rocket
        git: rocket
"""
#: Holds the lock on data/ until the file "release" appears, then notes when it let go.
HOLDER = """\
import datetime as dt, os, pathlib, signal, sys, time
from digest.lock import data_lock
folder = pathlib.Path(sys.argv[1])
with data_lock(folder / "data", wait=0, command="run", now=lambda: dt.datetime.now(dt.UTC)):
    (folder / "held").touch()
    while not (folder / "release").exists():
        time.sleep(0.05)
    if sys.argv[2] == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    released = time.time_ns()
(folder / "released").write_text(str(released))
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    repo = GitRepo(tmp_path / "rocket")
    repo.commit("Initial import", at(DAY - dt.timedelta(days=1)), {"a.py": "a = 1\n"})
    repo.commit("Add the gimbal (#1)", at(DAY, 9), {"gimbal.py": "g = 1\n" * 20})
    repo.commit("Fix the valve (#2)", at(DAY, 10), {"valve.py": "v = 1\n"})
    (tmp_path / "digest.yaml").write_text(CONFIG)
    return tmp_path


def hold(folder: Path, how: str = "release") -> subprocess.Popen[bytes]:
    """Start a process holding the lock on ``folder/data``; return once it holds it."""
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder), how], env=ENV)
    deadline = time.monotonic() + 30
    while not (folder / "held").exists():
        assert holder.poll() is None, "the holder exited before taking the lock"
        assert time.monotonic() < deadline, "the holder never took the lock"
        time.sleep(0.05)
    return holder


def command(folder: Path, *args: str) -> list[str]:
    """The command line of `digest run` for the day on ``folder``'s configuration."""
    config = ["--config", str(folder / "digest.yaml")]
    return [sys.executable, "-m", "digest.cli", "run", "--date", str(DAY), *args, *config]


def digest(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command(folder, *args),
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_second_run_exits_2_with_one_line_and_writes_nothing(folder: Path) -> None:
    holder = hold(folder)
    try:
        done = digest(folder, "--wait", "0")
    finally:
        (folder / "release").touch()
        holder.wait(timeout=30)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("digest: error: ")
    assert f"pid {holder.pid}" in lines[0]
    assert "`digest run`" in lines[0]
    assert not (folder / "data/digests").exists()
    assert not (folder / "site").exists()


def _read_until(process: subprocess.Popen[str], text: str, seconds: float) -> str:
    """Read ``process``'s stderr line by line until a line holds ``text``; return what was read."""
    assert process.stderr is not None
    deadline = time.monotonic() + seconds
    read = ""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stderr], [], [], 0.2)
        if ready:
            line = process.stderr.readline()
            read += line
            if text in line or not line:
                return read
    raise AssertionError(f"no {text!r} within {seconds} s: {read!r}")


def test_a_second_run_waits_for_the_first_and_starts_after_it(folder: Path) -> None:
    holder = hold(folder)
    waiting = subprocess.Popen(
        command(folder, "--wait", "60"),
        env=ENV,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Release only once the second run says it waits: under load it may take seconds to start.
    said = _read_until(waiting, "waiting up to 60 s", seconds=60)
    assert waiting.poll() is None  # still waiting
    (folder / "release").touch()
    _, rest = waiting.communicate(timeout=120)
    stderr = said + rest
    holder.wait(timeout=30)
    assert waiting.returncode == 0, stderr
    assert "waiting up to 60 s" in stderr
    released = int((folder / "released").read_text())
    written = [p.stat().st_mtime_ns for p in (folder / "data").rglob("*.json")]
    assert written
    assert min(written) >= released  # nothing was written while the first run held the lock


def test_the_lock_of_a_killed_run_is_taken_over(folder: Path) -> None:
    holder = hold(folder, how="kill")
    (folder / "release").touch()
    assert holder.wait(timeout=30) == -signal.SIGKILL
    assert (folder / "data/.wire.lock").read_text()  # the dead holder's record is still there
    done = digest(folder, "--wait", "0")
    assert done.returncode == 0, done.stderr
    assert f"took over the lock of a run that did not finish (pid {holder.pid}" in done.stderr
    assert (folder / "data/digests/rocket/2026-03-04.json").is_file()
    assert (folder / "data/.wire.lock").read_text() == ""  # released cleanly this time


def test_commands_that_only_read_take_no_lock(folder: Path) -> None:
    holder = hold(folder)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "digest.cli", "config", "--config", str(folder / "digest.yaml")],
            env=ENV,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        (folder / "release").touch()
        holder.wait(timeout=30)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["data_dir"] == os.fspath((folder / "data").resolve())
