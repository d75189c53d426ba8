"""Time the site build on a large synthetic archive: full, no change, one day added.

Usage: python bench/render_archive.py [--editions 1000 10000] [--projects 4] [--keep DIR]

For each archive size, generates made-up digests into a temporary folder (not timed),
then prints how long a full build, a rebuild with no change, and a rebuild after adding
one day take (in this process: no start-up); last, how add-one grows with the archive.
"""

from __future__ import annotations

import argparse
import datetime as dt
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from pydantic import TypeAdapter

from digest.config import Settings
from digest.models import ActionItem, ChangeSummary, Digest, FaqEntry, Reference, Urgency
from digest.render import render_site
from digest.render.manifest import NAME
from digest.render.publish import StagedSite
from digest.store import Store, dumps

TOPICS = ("compiler", "runtime", "ci", "docs", "quantization")
KINDS = ("feature", "fix", "perf", "ci", "docs", "revert")
ADAPTER = TypeAdapter(Digest)


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
    return Settings.model_validate(
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
        path.write_bytes(dumps(ADAPTER.dump_python(synthetic(slug, day, i), mode="json")))
    return day


def timed(label: str, settings: Settings, store: Store) -> float:
    """Build the site, print how long it took and what it did; return the seconds."""
    started = time.perf_counter()
    report = render_site(settings, store)
    seconds = time.perf_counter() - started
    print(f"{label:<22} {seconds:8.2f} s   {report}")
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--editions", type=int, nargs="+", default=[1_000, 10_000], help="archive sizes to build"
    )
    parser.add_argument("--projects", type=int, default=4)
    parser.add_argument("--keep", type=Path, help="build here and keep the result")
    args = parser.parse_args(argv)
    projects = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"][: args.projects]
    added: dict[int, float] = {}
    for editions in args.editions:
        print(f"--- {editions} editions")
        added[editions] = archive(editions, projects, args.keep)
    if len(added) > 1:
        small, large = min(added), max(added)
        print(
            f"add one day: {added[small]:.2f} s on {small} editions, {added[large]:.2f} s on "
            f"{large}: {added[large] / added[small]:.2f}x (target <= 1.5x)"
        )
    return 0


def archive(editions: int, projects: list[str], keep: Path | None) -> float:
    """Build an archive of ``editions`` made-up digests; return the add-one-day seconds."""
    with tempfile.TemporaryDirectory(prefix="wire-bench-") as tmp:
        root = keep / str(editions) if keep else Path(tmp)
        settings = settings_for(root, projects)
        store = Store(settings.data_dir)
        started = time.perf_counter()
        last = generate(store, editions, projects, dt.date(2019, 1, 1))
        print(
            f"generated {editions} digests in {time.perf_counter() - started:.1f} s "
            f"({len(projects)} projects, until {last})"
        )
        timed("full build", settings, store)
        timed("no-change rebuild", settings, store)
        # The first day after a full build copies the whole site (there is no build before
        # last to recycle yet); every later day is the daily case.
        next_day = last + dt.timedelta(days=1)
        store.save_digest(synthetic(projects[0], next_day, editions))
        timed("first day added", settings, store)
        # The median of three: one build is at the mercy of the machine's other work.
        added = []
        for k in range(1, 4):
            day = next_day + dt.timedelta(days=k // len(projects))
            store.save_digest(synthetic(projects[k % len(projects)], day, editions + k))
            added.append(timed("add-one-day rebuild", settings, store))
        seconds = statistics.median(added)
        print(f"add-one-day median     {seconds:8.2f} s")
        timed("no-change rebuild", settings, store)
        pages = sum(1 for _ in settings.site_dir.rglob("*.html"))
        staging(settings.site_dir, pages)
        manifest = (StagedSite(settings.site_dir).builds / NAME).stat().st_size
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{pages} HTML pages; manifest {manifest / 1e6:.1f} MB; peak memory {peak:.0f} MB")
    return seconds


if __name__ == "__main__":
    sys.exit(main())
