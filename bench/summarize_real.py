"""Time the summarize stage on every real day in ../shared/data/merged-prs.

Usage: python bench/summarize_real.py

Prints, per repository, how many days were written, the time per edition (median and
slowest), and how many editions broke a rule (expected: none); then the time for a
150-change day made of the four repositories' busiest days (classification and writing,
median of 20 runs). Needs ../shared beside the clone; says so and exits 0 when it is absent.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from digest.config import ProjectSettings, RepoSettings
from digest.models import PullRequest
from digest.summarize.checks import problems
from digest.summarize.extractive import ExtractiveWriter
from digest.summarize.select import make_brief
from tests.realdata import MERGED_PRS, load_days


def main() -> int:
    if not MERGED_PRS.is_dir():
        print(f"skipped: {MERGED_PRS} is absent")
        return 0
    writer = ExtractiveWriter()
    for path in sorted(MERGED_PRS.glob("*.jsonl")):
        days = load_days(path.stem)
        timings: list[float] = []
        broken = 0
        biggest = 0
        for day, pulls in sorted(days.items()):
            project = ProjectSettings(name="PyTorch", repos=(RepoSettings(name=pulls[0].repo),))
            start = time.perf_counter()
            digest = writer.write(make_brief(project, day, pulls))
            timings.append(time.perf_counter() - start)
            broken += bool(problems(digest, pulls))
            biggest = max(biggest, len(pulls))
        print(
            f"{path.stem:22} {len(days):4} editions"
            f"  median {statistics.median(timings) * 1e3:6.2f} ms"
            f"  slowest {max(timings) * 1e3:7.2f} ms (busiest day {biggest} changes)"
            f"  total {sum(timings):5.2f} s  rule breaks {broken}"
        )
    _busy_day(writer)
    return 0


def _busy_day(writer: ExtractiveWriter, size: int = 150) -> None:
    """Time one edition of ``size`` changes taken from each repository's busiest days."""
    pulls: list[PullRequest] = []
    repos: list[str] = []
    for path in sorted(MERGED_PRS.glob("*.jsonl")):
        days = load_days(path.stem)
        for day in sorted(days, key=lambda d: (-len(days[d]), d))[:2]:
            pulls += days[day]
        repos.append(f"pytorch/{path.stem[8:]}")
    pulls = pulls[:size]
    project = ProjectSettings(name="PyTorch", repos=tuple(RepoSettings(name=r) for r in repos))
    timings = []
    for _ in range(20):
        start = time.perf_counter()
        writer.write(make_brief(project, pulls[0].merged_at.date(), pulls))
        timings.append(time.perf_counter() - start)
    print(
        f"a {len(pulls)}-change day ({len(repos)} repositories): median "
        f"{statistics.median(timings) * 1e3:.1f} ms, slowest {max(timings) * 1e3:.1f} ms"
    )


if __name__ == "__main__":
    sys.exit(main())
