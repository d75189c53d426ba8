"""Run ``digest run`` over every day of every clone under a folder and print the days lost.

Usage: python bench/days_lost.py MIRRORS [--since 2025-09-01] [--until 2026-11-20]

``MIRRORS`` holds clones laid out as the search tool's fetch lays them out
(``<owner>+<name>/repo``). Each clone is one project of a configuration written to a
temporary folder; the run reads each repository's range with one ``git log`` (as a backfill
does), writes every edition and the site, and says which project-days it could not write.
``bench/evaluate.py --mirrors`` grades the last days of each clone one by one; this reads
their whole history, where a rule that never fires in the last 60 days may still lose a day.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DIGEST = Path(sys.executable).with_name("digest")


def _branch(git: Path) -> str:
    """The branch a clone has checked out."""
    return subprocess.run(
        ["git", "-C", str(git), "symbolic-ref", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def _config(mirrors: Path) -> tuple[str, int]:
    """A configuration with one project per clone under ``mirrors``, and how many."""
    lines = [
        "site:\n  title: The Wire\n  publisher: The Wire\n  base_url: https://wire.example.org/\n",
        "  description: Every day of every clone.\n  search: false\n",
        "data_dir: data\nsite_dir: site\nwriter: extractive\nprojects:\n",
    ]
    clones = sorted(mirrors.glob("*+*/repo"))
    for git in clones:
        name = git.parent.name.replace("+", "/", 1)
        lines.append(
            f"  - name: {name.split('/')[1]}\n    repos:\n      - name: {name}\n"
            f"        git: {git}\n        branch: {_branch(git)}\n"
        )
    return "".join(lines), len(clones)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mirrors", type=Path)
    parser.add_argument("--since", type=dt.date.fromisoformat, default=dt.date(2025, 9, 1))
    parser.add_argument("--until", type=dt.date.fromisoformat, default=dt.date.today())
    args = parser.parse_args()
    config, clones = _config(args.mirrors)
    if not clones:
        print(f"skipped: no clones under {args.mirrors}")
        return 0
    with tempfile.TemporaryDirectory(prefix="wire-days-lost-") as work:
        path = Path(work) / "wire.yaml"
        path.write_text(config)
        command = [str(DIGEST), "run", "--config", str(path)]
        command += ["--since", str(args.since), "--until", str(args.until)]
        start = time.perf_counter()
        run = subprocess.run(command, capture_output=True, text=True, check=False)
        took = time.perf_counter() - start
    log = run.stderr + run.stdout
    read = len(re.findall(r": collected \d+ changes?", log))
    lost = re.findall(r"error: (\S+ \d{4}-\d\d-\d\d): .*", log)
    site = re.search(r"site: (\d+) editions", log)
    mended = len(re.findall(r"^digest: \S+ \S+: (?:left out|said plainly|gave up) ", log, re.M))
    print(f"{clones} clones, {args.since} to {args.until}: exit {run.returncode} in {took:.1f} s")
    print(f"repository-days read: {read}; editions written: {site[1] if site else 0}")
    print(f"days lost: {len(lost)}; editions mended (a part left out or said plainly): {mended}")
    for line in re.findall(r"error: .*", log):
        print(f"  {line}")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
