"""Time the site build on a large synthetic archive: full, no change, one day added.

Usage: python bench/render_archive.py [--editions 1000 10000] [--projects 4] [--keep DIR]

For each archive size, generates made-up digests into a temporary folder (not timed),
then prints how long a full build and a rebuild with no change take; then adds a day to
each archive in turn, five times, and prints the median rebuild of each (in this process:
no start-up) and how adding a day grows with the archive.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import msgspec

from digest.config import Settings, parse_settings
from digest.models import ActionItem, ChangeSummary, Digest, FaqEntry, Reference, Urgency
from digest.render import render_site
from digest.render.manifest import NAME
from digest.render.publish import StagedSite
from digest.store import Store, dumps

TOPICS = ("compiler", "runtime", "ci", "docs", "quantization")
KINDS = ("feature", "fix", "perf", "ci", "docs", "revert")


def synthetic(slug: str, day: dt.date, i: int) -> Digest:
    """Return a made-up edition of typical size (8 references, 30 changes, 3 actions)."""
    repo = f"example/{slug}"
    refs = tuple(
        Reference(
            n,
            repo,
            10_000 + i * 10 + n,
            f"Change {n} of edition {i}: tidy the scheduler",
            f"https://github.com/{repo}/pull/{10_000 + i * 10 + n}",
        )
        for n in range(1, 9)
    )
    paragraph = (
        "The scheduler now batches small kernels before dispatch [1]. Memory planning reuses "
        "buffers across graph partitions [2][3], and the test matrix drops two redundant "
        "configurations [4]. "
    )
    return Digest(
        project=slug.title(),
        project_slug=slug,
        date=day,
        headline=f"{slug.title()} edition {i}: scheduler batching lands, planner reuses buffers",
        dek="Kernels are batched before dispatch and the memory planner stops copying buffers.",
        body="\n\n".join([paragraph * 2, paragraph, "Also: **faster** builds with `ccache` [5]."]),
        action_items=tuple(
            ActionItem(f"Check the scheduler change on your models ({u})", repo, u, (1, 2))
            for u in Urgency
        ),
        references=refs,
        faq=tuple(
            FaqEntry(f"Question {q}?", f"An answer citing a change [{q}].") for q in (1, 2, 3)
        ),
        repos=(repo,),
        topics=(TOPICS[i % len(TOPICS)], TOPICS[(i * 7) % len(TOPICS)]),
        changes=tuple(
            ChangeSummary(
                repo,
                20_000 + c,
                f"Change title number {c} of the day",
                f"https://github.com/{repo}/pull/{20_000 + c}",
                KINDS[c % len(KINDS)],
            )
            for c in range(30)
        ),
        filed_at=dt.datetime.combine(day + dt.timedelta(days=1), dt.time(6), tzinfo=dt.UTC),
    )


def settings_for(root: Path, projects: list[str]) -> Settings:
    return parse_settings(
        {
            "data_dir": str(root / "data"),
            "site_dir": str(root / "site"),
            "topics": [{"name": t.title(), "slug": t, "paths": [f"{t}/"]} for t in TOPICS],
            "projects": [
                {"name": p.title(), "slug": p, "repos": [{"name": f"example/{p}"}]}
                for p in projects
            ],
        }
    )


def generate(store: Store, editions: int, projects: list[str], start: dt.date) -> dt.date:
    """Write ``editions`` digests round-robin over ``projects``; return the last date."""
    day = start
    for i in range(editions):
        slug = projects[i % len(projects)]
        day = start + dt.timedelta(days=i // len(projects))
        path = store.digest_path(slug, day)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Plain writes: the fsync of Store.save_digest would dominate set-up time.
        path.write_bytes(dumps(msgspec.to_builtins(synthetic(slug, day, i))))
    store.reindex()  # the folders' indexes, as saving each digest would have left them
    return day


def timed(label: str, settings: Settings, store: Store) -> float:
    """Build the site, print how long it took and what it did; return the seconds."""
    started = time.perf_counter()
    report = render_site(settings, store)
    seconds = time.perf_counter() - started
    print(f"{label:<30} {seconds:8.2f} s   {report}")
    return seconds


def staging(site_dir: Path, pages: int) -> None:
    """Print what atomic publishing alone costs: the hard-link copy, then swap and prune."""
    staged = StagedSite(site_dir)
    started = time.perf_counter()
    staged.begin()
    copied = time.perf_counter()
    staged.finish(changed=True)
    done = time.perf_counter()
    print(
        f"publishing alone: hard-link copy of {pages} pages {copied - started:.2f} s, "
        f"swap and delete the build before last {done - copied:.2f} s"
    )


#: Days added to each archive, taking turns: the machine's speed drifts from minute to
#: minute, and archives measured one after the other would compare two different machines.
ROUNDS = 5


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--editions", type=int, nargs="+", default=[1_000, 10_000], help="archive sizes to build"
    )
    parser.add_argument("--projects", type=int, default=4)
    parser.add_argument("--keep", type=Path, help="build here and keep the result")
    args = parser.parse_args(argv)
    projects = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"][: args.projects]
    with contextlib.ExitStack() as stack:
        archives = {}
        for editions in args.editions:
            print(f"--- {editions} editions")
            root = args.keep / str(editions) if args.keep else None
            if root is None:
                root = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="wire-bench-")))
            archives[editions] = Archive(editions, projects, root)
        print(f"--- one day added to each archive in turn, {ROUNDS} times")
        added: dict[int, list[float]] = {editions: [] for editions in archives}
        for _ in range(ROUNDS):
            for editions, archive in archives.items():
                added[editions].append(archive.add_day())
        medians = {editions: statistics.median(times) for editions, times in added.items()}
        for editions, seconds in medians.items():
            runs = " ".join(f"{t:.2f}" for t in added[editions])
            print(f"add one day to {editions:>6} editions: median {seconds:.2f} s ({runs})")
        for archive in archives.values():
            archive.summary()
    if len(medians) > 1:
        small, large = min(medians), max(medians)
        print(
            f"add one day: {medians[small]:.2f} s on {small} editions, {medians[large]:.2f} s on "
            f"{large}: {medians[large] / medians[small]:.2f}x (target <= 1.2x)"
        )
    return 0


class Archive:
    """An archive of made-up digests in ``root``, built in full once (timed)."""

    def __init__(self, editions: int, projects: list[str], root: Path) -> None:
        self.editions = editions
        self.projects = projects
        self.settings = settings_for(root, projects)
        self.store = Store(self.settings.data_dir)
        started = time.perf_counter()
        self.last = generate(self.store, editions, projects, dt.date(2019, 1, 1))
        print(
            f"generated {editions} digests in {time.perf_counter() - started:.1f} s "
            f"({len(projects)} projects, until {self.last})"
        )
        timed("full build", self.settings, self.store)
        timed("no-change rebuild", self.settings, self.store)
        # The first day after a full build copies the whole site (there is no build before
        # last to recycle yet); every later day is the daily case.
        self.added = 0
        self.add_day("first day added")

    def add_day(self, label: str = "add-one-day rebuild") -> float:
        """Store one more made-up day; return how long the build took."""
        k = self.added
        self.added += 1
        day = self.last + dt.timedelta(days=1 + k // len(self.projects))
        digest = synthetic(self.projects[k % len(self.projects)], day, self.editions + k)
        self.store.save_digest(digest)
        return timed(f"{label} ({self.editions})", self.settings, self.store)

    def summary(self) -> None:
        """Print a no-change rebuild, what publishing alone costs and the archive's size."""
        timed(f"no-change rebuild ({self.editions})", self.settings, self.store)
        site = self.settings.site_dir
        pages = sum(1 for _ in site.rglob("*.html"))
        staging(site, pages)
        manifest = (StagedSite(site).builds / NAME).stat().st_size
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(
            f"{pages} HTML pages; manifest {manifest / 1e6:.1f} MB; peak memory so far: this "
            f"process {peak:.0f} MB, the largest worker {workers:.0f} MB"
        )


if __name__ == "__main__":
    sys.exit(main())
