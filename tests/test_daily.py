"""scripts/daily, the workflow's build, run locally; and a build killed half-way."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import pytest

from digest.render.publish import StagedSite
from digest.store import Store
from tests.factories import edition_series, make_digest, make_settings, save_all, site_files
from tests.gitrepo import GitRepo, at, git_env, run_git

ROOT = Path(__file__).resolve().parent.parent
DAILY = ROOT / "scripts" / "daily"
DAY = dt.date(2026, 3, 4)
CONFIG = """\
site:
  title: Daily Wire
  base_url: https://news.example.org/
projects:
  - name: Rocket
    repos:
      - name: acme/rocket
        git: {clone}
"""


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    """A bare repository standing for the fork on GitHub, holding digest.yaml on main."""
    rocket = GitRepo(tmp_path / "rocket")
    rocket.commit("Initial import", at(DAY - dt.timedelta(days=2)), {"a.py": "a = 1\n"})
    rocket.commit("Add the gimbal (#1)", at(DAY - dt.timedelta(days=1), 9), {"g.py": "g\n" * 9})
    rocket.commit("Fix the valve (#2)", at(DAY, 10), {"v.py": "v = 1\n"})
    rocket.commit("Speed up telemetry (#3)", at(DAY, 11), {"t.py": "t = 1\n"})
    fork = GitRepo(tmp_path / "fork-source")
    fork.commit("Configure", at(DAY), {"digest.yaml": CONFIG.format(clone=rocket.path)})
    return fork.bare_clone(tmp_path / "origin.git")


def checkout(origin: Path, where: Path) -> Path:
    """Clone ``origin`` into ``where``, as actions/checkout does on a fresh runner."""
    run_git(origin.parent, "clone", "-q", str(origin), str(where))
    return where


def daily(
    cwd: Path, now: str, *args: str, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run scripts/daily in ``cwd`` with the clock at ``now``; digest from this interpreter.

    ``env`` adds to (or overrides) the environment it runs with.
    """
    env = (
        git_env()
        | {
            "WIRE_NOW": now,
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            "WIRE_DATA_BRANCH": "wire-data",
        }
        | dict(env or {})
    )
    env.pop("GITHUB_STEP_SUMMARY", None)
    env.pop("GITHUB_OUTPUT", None)
    return subprocess.run(
        ["bash", str(DAILY), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def reuse_counts(summary: str) -> tuple[int, int, int]:
    """Return (read, reused, left out) repository-days from a run summary."""
    found = re.search(r"repository-days: (\d+) read .*?, (\d+) reused .*?, (\d+) left out", summary)
    assert found, summary
    return int(found[1]), int(found[2]), int(found[3])


def pages(site: Path) -> dict[str, bytes]:
    """The published files (not the build's bookkeeping: it records local file times)."""
    return site_files(site)


def test_a_second_run_on_a_fresh_runner_reuses_the_state_and_writes_the_same_site(
    origin: Path, tmp_path: Path
) -> None:
    first = checkout(origin, tmp_path / "runner-1")
    done = daily(first, "2026-03-05T06:00:00Z", "--since", "2026-03-02", "--until", "2026-03-04")
    assert done.returncode == 0, done.stderr
    assert reuse_counts(done.stdout) == (3, 0, 0)
    assert "data_dir saved to origin/wire-data" in done.stdout
    saved = run_git(origin, "rev-parse", "wire-data").strip()
    files = run_git(origin, "ls-tree", "-r", "--name-only", "wire-data").split()
    assert "digests/rocket/2026-03-04.json" in files
    assert "collected/acme/rocket/2026-03-03.json" in files
    assert not any(name.endswith(".lock") for name in files)

    # The clone the source reads is gone: only the saved state can give the second run its days.
    (tmp_path / "rocket").rename(tmp_path / "rocket-gone")
    second = checkout(origin, tmp_path / "runner-2")
    done = daily(second, "2026-03-06T06:00:00Z", "--since", "2026-03-02", "--until", "2026-03-04")
    assert done.returncode == 0, done.stderr
    assert "data_dir restored from origin/wire-data" in done.stdout
    assert reuse_counts(done.stdout) == (0, 3, 0)
    assert "nothing to save" in done.stdout
    assert run_git(origin, "rev-parse", "wire-data").strip() == saved
    assert pages(second / "site") == pages(first / "site")
    assert len(pages(second / "site")) > 10

    # Run again on the same runner: the restore rewrites no file, so nothing is published.
    published = (second / "site").readlink()
    done = daily(second, "2026-03-06T06:00:00Z", "--since", "2026-03-02", "--until", "2026-03-04")
    assert done.returncode == 0, done.stderr
    assert "pages 0 written" in done.stdout
    assert (second / "site").readlink() == published


def test_a_fresh_runner_given_the_cached_site_renders_no_page_again(
    origin: Path, tmp_path: Path
) -> None:
    first = checkout(origin, tmp_path / "runner-1")
    done = daily(first, "2026-03-05T06:00:00Z", "--since", "2026-03-02", "--until", "2026-03-04")
    assert done.returncode == 0, done.stderr
    where = daily(first, "2026-03-05T06:00:00Z", "where")
    found = dict(line.split("=", 1) for line in where.stdout.splitlines())
    site, builds = Path(found["site_dir"]), Path(found["site_builds"])
    assert site == first / "site" and builds == first / ".site.builds" and site.is_symlink()

    # What actions/cache does with the two paths: a tar (links kept), unpacked on the next
    # runner, whose checkout and restored data_dir give every file a new time.
    second = checkout(origin, tmp_path / "runner-2")
    packed = subprocess.run(
        ["tar", "-C", str(first), "-cf", "-", site.name, builds.name], capture_output=True
    )
    subprocess.run(["tar", "-C", str(second), "-xf", "-"], input=packed.stdout, check=True)
    done = daily(second, "2026-03-06T06:00:00Z", "--since", "2026-03-02", "--until", "2026-03-04")
    assert done.returncode == 0, done.stderr
    assert "data_dir restored from origin/wire-data" in done.stdout
    assert "pages 0 written, 0 unchanged" in done.stdout  # not one page rendered again
    assert pages(second / "site") == pages(first / "site")


def test_a_repository_left_out_still_builds_and_saves_then_exits_1(
    origin: Path, tmp_path: Path
) -> None:
    runner = checkout(origin, tmp_path / "runner")
    (tmp_path / "rocket").rename(tmp_path / "rocket-gone")
    done = daily(runner, "2026-03-05T06:00:00Z", "--date", "2026-03-04")
    assert done.returncode == 1
    assert reuse_counts(done.stdout) == (0, 0, 1)
    assert "**acme/rocket** on 2026-03-04" in done.stdout
    assert (runner / "site/index.html").is_file()


def test_a_bad_option_exits_2_and_saves_nothing(origin: Path, tmp_path: Path) -> None:
    runner = checkout(origin, tmp_path / "runner")
    done = daily(runner, "2026-03-05T06:00:00Z", "--date", "2026-13-40")
    assert done.returncode == 2
    assert "is not a date" in done.stderr
    assert run_git(origin, "branch", "--list", "wire-data") == ""


def test_a_build_killed_half_way_leaves_the_last_site_and_the_next_run_completes(
    tmp_path: Path,
) -> None:
    settings = make_settings(tmp_path)
    save_all(Store(settings.data_dir), edition_series(1200))
    config = tmp_path / "digest.yaml"
    config.write_text(
        "site: {title: Before, base_url: 'https://n.example.org/'}\n"
        "projects: [{name: Rockets, slug: rockets, repos: [{name: acme/rockets}]},"
        " {name: Ground Station, slug: ground, repos: [{name: acme/antenna}]}]\n"
    )
    render = [sys.executable, "-m", "digest.cli", "render", "--config", str(config)]
    subprocess.run(render, check=True, capture_output=True, timeout=300)
    site = tmp_path / "site"
    before, published = pages(site), site.readlink()

    # A new title re-renders every page: a long build to kill.
    config.write_text(config.read_text().replace("Before", "After"))
    Store(settings.data_dir).save_digest(make_digest(date=dt.date(2027, 1, 1), headline="NEW"))
    build = subprocess.Popen(render, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    staging = StagedSite(site).builds / f"staging-{build.pid}"
    deadline = time.monotonic() + 60
    while not any(b"After" in read(p) for p in staging.glob("rockets/2026-01-0*.html")):
        assert build.poll() is None, "the build finished before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.01)
    build.send_signal(signal.SIGKILL)
    assert build.wait(timeout=30) == -signal.SIGKILL
    assert site.readlink() == published
    assert pages(site) == before  # nothing of the killed build shows
    assert staging.is_dir()  # its half-written copy is left behind

    done = subprocess.run(render, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert not staging.exists()
    after = pages(site)
    assert b"After" in after["index.html"] and b"Before" not in after["index.html"]
    assert "rockets/2027-01-01.html" in after


def read(path: Path) -> bytes:
    """``path``'s bytes, or none when a build replaced it just now (staging is private)."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b""


def test_the_scale_out_steps_write_shards_in_parallel_and_publish_them_once(
    tmp_path: Path,
) -> None:
    for name in ("rocket", "ground"):
        repo = GitRepo(tmp_path / name)
        repo.commit(f"Add the {name} pad (#1)", at(DAY, 9), {f"{name}.py": "x = 1\n"})
    config = CONFIG.format(clone=tmp_path / "rocket") + (
        f"  - name: Ground\n    repos:\n      - name: acme/ground\n"
        f"        git: {tmp_path / 'ground'}\n"
    )
    fork = GitRepo(tmp_path / "fork-source")
    fork.commit("Configure", at(DAY), {"digest.yaml": config})
    origin = fork.bare_clone(tmp_path / "origin.git")
    now = "2026-03-05T06:00:00Z"

    shards = []
    for project in ("rocket", "ground"):  # one job per project, on its own runner
        runner = checkout(origin, tmp_path / f"collect-{project}")
        assert daily(runner, now, "restore").returncode == 0
        done = daily(runner, now, "write", "--project", project, "--date", str(DAY))
        assert done.returncode == 0, done.stderr
        assert not (runner / "site").exists()  # writing renders nothing
        shard = tmp_path / f"shard-{project}"
        done = daily(runner, now, "shard", "--project", project, "--into", str(shard))
        assert done.returncode == 0, done.stderr
        shards.append(shard)
    assert sorted(p.relative_to(shards[0]).as_posix() for p in shards[0].rglob("*.json")) == [
        "collected/acme/rocket/2026-03-04.json",
        "digests/rocket/2026-03-04.json",
    ]

    publisher = checkout(origin, tmp_path / "publish")
    assert daily(publisher, now, "restore").returncode == 0
    for shard in shards:  # what download-artifact with merge-multiple does
        shutil.copytree(shard, publisher / "data", dirs_exist_ok=True)
    done = daily(publisher, now, "publish")
    assert done.returncode == 0, done.stderr
    assert {"rocket/2026-03-04.html", "ground/2026-03-04.html"} <= set(pages(publisher / "site"))
    saved = run_git(origin, "ls-tree", "-r", "--name-only", "wire-data").split()
    assert saved == [
        "collected/acme/ground/.index",
        "collected/acme/ground/2026-03-04.json",
        "collected/acme/rocket/.index",
        "collected/acme/rocket/2026-03-04.json",
        "digests/ground/.index",
        "digests/ground/2026-03-04.json",
        "digests/rocket/.index",
        "digests/rocket/2026-03-04.json",
    ]
