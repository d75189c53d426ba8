"""What the daily workflow costs: time and GitHub requests of scripts/daily, day after day.

Usage: python bench/daily_cost.py [--repos 5] [--pulls 60] [--days 3] [--install]

Starts the test suite's fake GitHub API on 127.0.0.1 with --repos repositories merging
--pulls pull requests a day, makes a fork (a bare origin holding digest.yaml) and runs
scripts/daily once per day on a fresh clone, as the scheduled workflow does: the state is
restored from the data branch and saved back. Then a re-run of the last day shows what a
repeated run costs. Prints per run the wall time, the requests the server counted (and the
budget the run summary reports), and the data branch's size. With --install, also times
what the workflow's setup does: a fresh virtual environment and `pip install .`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fake_github import FakeGitHub, FakePull, serve  # noqa: E402
from tests.gitrepo import GitRepo, at, git_env, run_git  # noqa: E402

START = dt.date(2026, 3, 2)
AREAS = ("Arm backend", "Vulkan", "CI", "Docs", "Quantization", "Export")


def populate(fake: FakeGitHub, repos: int, pulls: int, days: int) -> list[str]:
    """Give ``repos`` fake repositories ``pulls`` merged pull requests on each of ``days``."""
    names = [f"example/repo{n}" for n in range(repos)]
    for r, name in enumerate(names):
        made = [
            FakePull(
                number=10_000 * (r + 1) + d * 1000 + p,
                title=f"{AREAS[p % len(AREAS)]}: change {p} of day {d}",
                merged_at=at(START + dt.timedelta(days=d), 1 + p % 22, p % 60),
                body=f"This change {p} improves the {AREAS[p % len(AREAS)]} path.",
                files=((f"src/{AREAS[p % len(AREAS)].lower()}/f{p}.py", 10 + p, p % 7),),
            )
            for d in range(days)
            for p in range(pulls)
        ]
        fake.add(name, *made)
    return names


def fork(tmp: Path, names: list[str]) -> Path:
    """Return a bare origin whose main branch holds a digest.yaml following ``names``."""
    repos = "".join(f"      - name: {name}\n" for name in names)
    config = (
        "site: {title: Cost Wire, base_url: 'https://wire.example.org/'}\n"
        f"projects:\n  - name: Example\n    repos:\n{repos}"
    )
    source = GitRepo(tmp / "fork-source")
    source.commit("Configure", at(START), {"digest.yaml": config})
    return source.bare_clone(tmp / "origin.git")


def daily(origin: Path, where: Path, day: dt.date, env: dict[str, str]) -> tuple[float, str]:
    """Clone ``origin`` into ``where``, run scripts/daily for ``day``; return (seconds, stdout)."""
    run_git(origin.parent, "clone", "-q", str(origin), str(where))
    now = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(1, 37)).isoformat() + "Z"
    started = time.perf_counter()
    done = subprocess.run(
        ["bash", str(ROOT / "scripts/daily"), "--date", day.isoformat()],
        cwd=where,
        env=env | {"WIRE_NOW": now},
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"scripts/daily failed ({done.returncode}):\n{done.stderr}")
    return elapsed, done.stdout


def branch_size(origin: Path) -> str:
    """The data branch's files' size, and the origin's size packed as git stores it."""
    listing = run_git(origin, "ls-tree", "-r", "-l", "wire-data")
    files = sum(int(line.split()[3]) for line in listing.splitlines())
    run_git(origin, "gc", "-q")
    stats = dict(line.split(": ") for line in run_git(origin, "count-objects", "-v").splitlines())
    return f"{files / 1e3:.0f} kB of files, {int(stats['size-pack']):,} KiB packed"


def install_time(tmp: Path) -> float:
    """Seconds to make a virtual environment and `pip install .` (pip's cache as it is)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(tmp / "venv")], check=True)
    subprocess.run(
        [str(tmp / "venv/bin/pip"), "install", "--quiet", str(ROOT)],
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repos", type=int, default=5)
    parser.add_argument("--pulls", type=int, default=60, help="merged per repository per day")
    parser.add_argument("--days", type=int, default=3)
    parser.add_argument("--install", action="store_true", help="also time pip install .")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="wire-cost-") as name, serve() as fake:
        tmp = Path(name)
        if args.install:
            print(f"setup: venv + pip install . took {install_time(tmp):.1f} s")
        names = populate(fake, args.repos, args.pulls, args.days)
        origin = fork(tmp, names)
        env = git_env() | {
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            "GITHUB_API_URL": fake.url,
            "GITHUB_TOKEN": "ghp_FAKE0bench0token",
            "WIRE_DATA_BRANCH": "wire-data",
        }
        print(f"{args.repos} repositories, {args.pulls} merged pull requests each a day")
        runs = [START + dt.timedelta(days=d) for d in range(args.days)] + [
            START + dt.timedelta(days=args.days - 1)
        ]
        for n, day in enumerate(runs):
            before = fake.count()
            elapsed, stdout = daily(origin, tmp / f"runner-{n}", day, env)
            graphql = fake.count("/graphql")
            used = re.search(r"graphql [\d,]+ of [\d,]+ left \((\d+) used", stdout)
            what = "re-run of" if n == len(runs) - 1 else "run for"
            print(
                f"{what} {day}: {elapsed:.1f} s; {fake.count() - before} requests to the API "
                f"({graphql} GraphQL so far; the summary says {used[1] if used else '?'} used); "
                f"data branch {branch_size(origin)}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
