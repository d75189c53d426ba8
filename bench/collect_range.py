"""Time the git source over a range of days of one clone, as a ranged `digest collect` reads it.

Usage: python bench/collect_range.py CLONE OWNER/NAME [--branch main] [--days 30] [--per-day]
       [--check]

Collects the last ``--days`` days before the clone's newest commit, one day after another
with one source told the range first (as a ranged run does: one read of the whole range),
and prints the time in all, per day, and the git processes started (the issue 28 target:
30 days of a busy repository in 2 s or less). ``--per-day`` does not tell the source the
range (each day read with its own git log, as before issue 28); ``--check`` also collects
each day with a source of its own and compares the records byte for byte.
"""

from __future__ import annotations

import argparse
import datetime as dt
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec

from digest.clock import SystemClock
from digest.config import ProjectSettings, RepoSettings, Settings
from digest.sources.base import SourceContext
from digest.sources.git import GitSource


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("clone", type=Path)
    parser.add_argument("repo")
    parser.add_argument("--branch", default="main")
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument(
        "--check",
        action="store_true",
        help="also collect each day with a source of its own and compare",
    )
    parser.add_argument(
        "--per-day", action="store_true", help="do not tell the source the range (as before)"
    )
    args = parser.parse_args()
    repo = RepoSettings(name=args.repo, git=args.clone, branch=args.branch)
    settings = Settings(projects=(ProjectSettings(name="x", repos=(repo,)),))
    source = GitSource(SourceContext(settings=settings, clock=SystemClock()))
    last = source.last_change(repo).date()
    days = [last - dt.timedelta(days=n) for n in range(args.days, 0, -1)]
    calls = 0
    real = subprocess.run

    def counted(*a, **k):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        return real(*a, **k)

    started = time.perf_counter()
    with mock.patch("subprocess.run", counted):
        if not args.per_day:
            source.expect(repo, days)
        collected = [source.collect(repo, day) for day in days]
    spent = time.perf_counter() - started
    changes = sum(len(pulls) for pulls in collected)
    if args.check:
        alone = [
            GitSource(SourceContext(settings=settings, clock=SystemClock())).collect(repo, day)
            for day in days
        ]
        same = msgspec.json.encode(alone) == msgspec.json.encode(collected)
        print(f"byte for byte the records of a source per day: {same}")
    print(
        f"{args.repo}: {len(days)} days, {changes} changes in {spent:.2f} s "
        f"({spent / len(days) * 1000:.0f} ms a day), {calls} git processes"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
