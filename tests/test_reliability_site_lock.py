"""Two configurations sharing one ``site_dir`` (with data folders of their own) never build
it at the same time: the site has a lock of its own, taken after the data lock."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo, at, git_env

pytestmark = pytest.mark.reliability
DAY = dt.date(2026, 3, 4)
ENV = git_env() | {"WIRE_NOW": "2026-03-05T06:00:00Z"}
CONFIG = """\
site:
  title: {name} Wire
  base_url: https://news.example.org/
data_dir: data-{name}
site_dir: site
projects:
  - name: {name}
    repos:
      - name: acme/rocket
        git: rocket
"""
#: Holds the lock on the site of argv[1]'s config until the file "release" appears.
HOLDER = """\
import datetime as dt, pathlib, sys, time
from digest.config import load_settings
from digest.lock import site_lock
config = pathlib.Path(sys.argv[1])
site = load_settings(config).site_dir
with site_lock(site, wait=0, command="render", now=lambda: dt.datetime.now(dt.UTC)):
    (config.parent / "held").touch()
    while not (config.parent / "release").exists():
        time.sleep(0.05)
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A repository with a day of merges and two configurations, ``a.yaml`` and ``b.yaml``,
    with their own data folders and one site."""
    repo = GitRepo(tmp_path / "rocket")
    repo.commit("Initial import", at(DAY - dt.timedelta(days=1)), {"a.py": "a = 1\n"})
    repo.commit("Add the gimbal (#1)", at(DAY, 9), {"gimbal.py": "g = 1\n" * 20})
    repo.commit("Fix the valve (#2)", at(DAY, 10), {"valve.py": "v = 1\n"})
    for name in ("a", "b"):
        (tmp_path / f"{name}.yaml").write_text(CONFIG.format(name=name))
    return tmp_path


def digest(folder: Path, config: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``digest ARGS`` with ``folder``'s configuration ``config``."""
    return subprocess.run(
        [sys.executable, "-m", "digest.cli", *args, "--config", str(folder / config)],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def hold_site(folder: Path, config: str) -> subprocess.Popen[bytes]:
    """Start a process holding the site lock of ``config``; return once it holds it."""
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder / config)], env=ENV)
    deadline = time.monotonic() + 30
    while not (folder / "held").exists():
        assert holder.poll() is None, "the holder exited before taking the lock"
        assert time.monotonic() < deadline, "the holder never took the lock"
        time.sleep(0.05)
    return holder


def test_a_build_of_a_shared_site_waits_for_the_other_configuration(folder: Path) -> None:
    assert digest(folder, "a.yaml", "run", "--date", str(DAY)).returncode == 0
    published = (folder / "site").resolve()
    holder = hold_site(folder, "a.yaml")
    try:
        done = digest(folder, "b.yaml", "run", "--date", str(DAY), "--wait", "0")
        collected = digest(folder, "b.yaml", "collect", "--date", str(DAY), "--wait", "0")
    finally:
        (folder / "release").touch()
        holder.wait(timeout=30)
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if line.startswith("digest: error: ")]
    assert len(errors) == 1, done.stderr
    assert done.stderr.splitlines()[-1] == errors[0]
    site = folder / "site"
    assert errors[0].startswith(f"digest: error: {site} is in use by another digest run (pid ")
    assert f"pid {holder.pid} on " in errors[0] and "`digest render`" in errors[0]
    assert errors[0].endswith("waited 0 s; try again later or give --wait SECONDS")
    # b's edition was written (its data lock is its own); the site was left as a built it.
    assert (folder / "data-b/digests/b/2026-03-04.json").is_file()
    assert (folder / "site").resolve() == published
    assert not (folder / "site/b").exists()
    # Commands that do not build the site do not wait for it.
    assert collected.returncode == 0, collected.stderr
    # Once the site is free, b builds it.
    again = digest(folder, "b.yaml", "render", "--wait", "0")
    assert again.returncode == 0, again.stderr
    assert (folder / "site/b/2026-03-04.html").is_file()


def test_the_site_lock_lives_beside_the_site_not_in_what_is_saved(folder: Path) -> None:
    """The workflow saves the site and its builds folder: a lock there would be restored."""
    assert digest(folder, "a.yaml", "render").returncode == 0
    lock = folder / ".site.lock"
    assert lock.is_file() and lock.read_text() == ""  # released cleanly
    saved = [folder / "site", folder / ".site.builds"]
    assert not [p for root in saved for p in root.resolve().rglob("*.lock")]
