"""Time `digest run --since … --until …` end to end over the whole history of four repositories.

Usage: python bench/run_range.py [--mirrors DIR] [--layout one|each] [--since D] [--until D]
       [--profile FILE] [--keep DIR]

Reads the four repositories of ``../shared/data/merged-prs`` (pytorch/executorch, ao, helion
and torchtitan) from bare clones of the real repositories, ``<mirrors>/pytorch+<name>/repo``
(default ``/work/.mirror``), not from the JSONL (which is git's record of the same commits):
the git source is then timed on real history, numstat and all. The range defaults to the
JSONL's, from its first merge to its last (about 18 months); only those two dates are read
from it. The clones are used as they are, read only.

One ``digest run`` in a fresh process (start-up included), extractive writer, site built:
``--layout one`` (default) follows the four repositories as one project, as ``digest.yaml``
does; ``--layout each`` as one project each. Prints the wall time and where it goes:
collect (the git source and storing the collected days), summarize (writing and storing the
editions), render (the site) and the rest (start-up, planning, the run's advice). The stage
times come from timers wrapped around the pipeline's functions in that process (a few
microseconds each). ``--profile FILE`` also runs it under cProfile, writes the profile and
prints its top functions (the times are then longer).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

import yaml  # noqa: E402

from tests.realdata import MERGED_PRS  # noqa: E402

REPOS = ("executorch", "ao", "helion", "torchtitan")
DISPLAY = {"executorch": "ExecuTorch", "ao": "torchao"}
TOPICS = [
    {"name": "Arm", "title_prefixes": ["Arm backend:"], "paths": ["backends/arm/"]},
    {"name": "Qualcomm", "title_prefixes": ["Qualcomm AI Engine Direct"]},
    {"name": "Vulkan", "title_prefixes": ["[ET-VK]"], "paths": ["backends/vulkan/"]},
    {"name": "Quantization", "paths": ["torchao/quantization/"]},
    {"name": "Autotuner", "paths": ["helion/autotuner/"]},
    {"name": "CI", "paths": [".github/", ".ci/"]},
]

#: Run in the timed process: wraps the stages with timers, runs the CLI, prints the timers.
RUNNER = """
import sys, time, json
started = time.perf_counter()
from digest import cli, pipeline
spent = {"collect": 0.0, "summarize": 0.0, "render": 0.0}
def timed(stage, function):
    def wrapper(*args, **kwargs):
        begun = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[stage] += time.perf_counter() - begun
    return wrapper
pipeline.expect = timed("collect", pipeline.expect)
pipeline.collect = timed("collect", pipeline.collect)
pipeline.summarize = timed("summarize", pipeline.summarize)
pipeline.render = timed("render", pipeline.render)
try:
    status = cli.main(sys.argv[2:])
finally:
    spent["total"] = time.perf_counter() - started
    with open(sys.argv[1], "w") as out:
        json.dump(spent, out)
sys.exit(status)
"""


def span() -> tuple[dt.date, dt.date]:
    """The first and last day merged in the shared data (its first and last lines only)."""
    first, last = [], []
    for name in REPOS:
        lines = (MERGED_PRS / f"pytorch-{name}.jsonl").read_bytes().splitlines()
        first.append(json.loads(lines[0])["merged_at"][:10])
        last.append(json.loads(lines[-1])["merged_at"][:10])
    return dt.date.fromisoformat(min(first)), dt.date.fromisoformat(max(last))


def write_config(root: Path, mirrors: Path, layout: str) -> Path:
    repos = [
        {"name": f"pytorch/{name}", "git": str(mirrors / f"pytorch+{name}" / "repo")}
        | ({"display_name": DISPLAY[name]} if name in DISPLAY else {})
        for name in REPOS
    ]
    projects = (
        [{"name": "PyTorch", "repos": repos}]
        if layout == "one"
        else [{"name": r["name"].split("/")[1], "repos": [r]} for r in repos]
    )
    raw = {
        "site": {"title": "Bench Wire", "base_url": "https://bench.example.invalid/"},
        "data_dir": str(root / "data"),
        "site_dir": str(root / "site"),
        "writer": "extractive",
        "topics": TOPICS,
        "projects": projects,
    }
    config = root / "wire.yaml"
    config.write_text(yaml.safe_dump(raw), encoding="utf-8")
    return config


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--layout", choices=("one", "each"), default="one")
    parser.add_argument("--since", type=dt.date.fromisoformat)
    parser.add_argument("--until", type=dt.date.fromisoformat)
    parser.add_argument("--profile", type=Path, help="also run under cProfile, written here")
    parser.add_argument("--keep", type=Path, help="work here and keep the data and site")
    args = parser.parse_args()
    if not MERGED_PRS.is_dir():
        print(f"skipped: {MERGED_PRS} is absent")
        return 0
    missing = [n for n in REPOS if not (args.mirrors / f"pytorch+{n}" / "repo").is_dir()]
    if missing:
        print(f"skipped: no clone of {', '.join(missing)} under {args.mirrors}")
        return 0
    first, last = span()
    since, until = args.since or first, args.until or last
    days = (until - since).days + 1
    with tempfile.TemporaryDirectory(prefix="wire-bench-range-") as tmp:
        root = args.keep or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        env = os.environ | {
            # Two days after the range: every day settled, none in the future.
            "WIRE_NOW": f"{until + dt.timedelta(days=2)}T06:00:00Z"
        }
        figures = []
        for profiled in (False, True) if args.profile else (False,):
            config = write_config(root, args.mirrors.resolve(), args.layout)
            for leftover in ("data", "site", ".site.builds", ".site.cache"):
                target = root / leftover
                if target.is_symlink() or target.is_file():
                    target.unlink()
                elif target.is_dir():
                    shutil.rmtree(target)
            timers = root / "timers.json"
            profile = ["-m", "cProfile", "-o", str(args.profile)] if profiled else []
            command = [sys.executable, *profile, "-c", RUNNER] if not profiled else None
            if profiled:  # cProfile runs a file, not -c
                runner = root / "runner.py"
                runner.write_text(RUNNER, encoding="utf-8")
                command = [sys.executable, *profile, str(runner)]
            assert command is not None
            run_args = ["run", "--config", str(config), "--since", str(since)]
            run_args += ["--until", str(until), "-qq"]
            started = time.perf_counter()
            done = subprocess.run([*command, str(timers), *run_args], env=env, cwd=HERE)
            wall = time.perf_counter() - started
            spent = json.loads(timers.read_text())
            editions = sum(1 for _ in (root / "data" / "digests").rglob("*.json"))
            pages = sum(1 for p in (root / "site").resolve().rglob("*.html"))
            figures.append((profiled, done.returncode, wall, spent, editions, pages))
        for profiled, status, wall, spent, editions, pages in figures:
            rest = spent["total"] - spent["collect"] - spent["summarize"] - spent["render"]
            said = " (under cProfile)" if profiled else ""
            print(
                f"digest run{said}, {len(REPOS)} repositories ({args.layout} project"
                f"{'s' if args.layout == 'each' else ''}), {since} to {until} ({days} days): "
                f"exit {status}, {wall:.1f} s wall, {editions} editions, {pages} pages"
            )
            for stage in ("collect", "summarize", "render"):
                print(f"  {stage:10} {spent[stage]:7.1f} s")
            print(f"  {'rest':10} {rest:7.1f} s (start-up, advice, planning, exit)")
        if args.profile:
            import pstats

            print(f"\nprofile written to {args.profile}; top 25 by own time:")
            pstats.Stats(str(args.profile)).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
