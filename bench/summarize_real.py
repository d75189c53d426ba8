"""Time the summarize stage on every real day in ../shared/data/merged-prs.

Usage: python bench/summarize_real.py

Prints, per repository, how many days were written, the time per edition (median and
slowest), and how many editions broke a rule (expected: none). Needs ../shared beside
the clone; says so and exits 0 when it is absent.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from digest.config import ProjectSettings, RepoSettings
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
