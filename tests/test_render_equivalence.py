"""An incremental build always makes the site a full build would, whatever changed.

Random sequences of changes to the data folder (days added, backfilled, rewritten and
deleted across month and year boundaries; changes cited by several editions; later
reverts; collected days appearing, changing and vanishing; files touched or broken) are
built incrementally, and after each change the site is compared, file by file, with a
fresh full build.
"""

from __future__ import annotations

import datetime as dt
import os
import random
from pathlib import Path

import pytest
from msgspec.structs import replace

from digest.config import Settings
from digest.models import FollowUp, PullRequest, RepoDay
from digest.render import render_site
from digest.store import Store
from tests.factories import make_digest, make_reference, make_settings, site_files

REPO = "acme/rockets"
#: Editions fall in these days: five months across a new year, so changes reach over
#: month and year boundaries.
DAYS = [dt.date(2025, 11, 20) + dt.timedelta(days=6 * i) for i in range(20)]
PROJECTS = [("rockets", "Rockets"), ("ground", "Ground Station"), ("side", "Side Project")]
TOPICS = ("valves", "telemetry")
#: Few change numbers, so editions share them: a change's page lists several citers.
NUMBERS = range(1, 13)


def _digest(rng: random.Random, slug: str, name: str, day: dt.date, version: int) -> object:
    numbers = rng.sample(NUMBERS, rng.randint(1, 3))
    references = tuple(
        make_reference(n, number=number, url=f"https://github.com/{REPO}/pull/{number}")
        for n, number in enumerate(numbers, start=1)
    )
    follow_ups = tuple(
        FollowUp("revert", REPO, number, 900 + number, f"https://github.com/{REPO}/pull/{900}")
        for number in rng.sample(NUMBERS, rng.choice((0, 0, 1)))
    )
    return make_digest(
        project=name,
        project_slug=slug,
        date=day,
        headline=f"{name} on {day.isoformat()}, version {version}",
        dek=f"What {name} merged, told for the {version} time.",
        body=" ".join(f"Change {number} landed [{n}]." for n, number in enumerate(numbers, 1)),
        references=references,
        action_items=(),
        follow_ups=follow_ups,
        topics=tuple(rng.sample(TOPICS, rng.randint(0, 2))),
        filed_at=dt.datetime.combine(day + dt.timedelta(days=1), dt.time(6), tzinfo=dt.UTC),
    )


def _collected(rng: random.Random, store: Store, day: dt.date) -> None:
    pulls = tuple(
        PullRequest(
            repo=REPO,
            number=number,
            title=f"Change {number}, as collected",
            body=f"Change {number} does one thing {rng.randint(1, 3)} ways.",
            url=f"https://github.com/{REPO}/pull/{number}",
            merged_at=dt.datetime.combine(day, dt.time(9), tzinfo=dt.UTC),
            author="Dana Example",
        )
        for number in sorted(rng.sample(NUMBERS, rng.randint(1, 8)))
    )
    store.save_repo_day(RepoDay(REPO, day, "git", pulls, dt.datetime(2026, 3, 3)))


def _change(rng: random.Random, settings: Settings, store: Store, version: int) -> str:
    """Make one random change to the data folder; return what it was (``... by hand``: the
    next build must be a full one, see digest.store)."""
    slug, name = rng.choice(PROJECTS)
    day = rng.choice(DAYS)
    path = store.digest_path(slug, day)
    what = rng.choice(
        (
            *("write", "write", "write", "delete", "collect", "uncollect", "touch", "break"),
            *("lose", "delete by hand", "uncollect by hand"),
        )
    )
    if what == "write":
        store.save_digest(_digest(rng, slug, name, day, version))
    elif what == "delete":
        store.delete_digest(slug, day)
    elif what == "delete by hand":
        path.unlink(missing_ok=True)
    elif what == "collect":
        _collected(rng, store, day)
    elif what == "uncollect":
        store.delete_repo_day(REPO, day)
    elif what == "uncollect by hand":
        store.repo_day_path(REPO, day).unlink(missing_ok=True)
    elif what == "touch" and path.exists():
        os.utime(path, ns=(version, version))
    elif what == "lose":  # a page deleted from the published site by hand
        pages = sorted(settings.site_dir.rglob("*.html"))
        pages[rng.randrange(len(pages))].unlink()
    elif what == "break" and path.exists():
        # Built broken (its last good version stays published), then written again: a
        # full build never saw the broken file, so the sites compare once it is fixed.
        path.write_text("{not json")
        render_site(settings, store, full=True)
        store.save_digest(_digest(rng, slug, name, day, version))
    return f"{what} {slug} {day}"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_incremental_builds_equal_full_builds(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    settings = make_settings(tmp_path)
    store = Store(settings.data_dir)
    for slug, name in PROJECTS:
        for day in rng.sample(DAYS, 6):
            store.save_digest(_digest(rng, slug, name, day, 0))
    for day in rng.sample(DAYS, 8):
        _collected(rng, store, day)
    render_site(settings, store)
    done = []
    for version in range(1, 13):
        done.append(_change(rng, settings, store, version))
        render_site(settings, store, full="by hand" in done[-1])
        fresh = replace(settings, site_dir=tmp_path / f"full-{version}")
        render_site(fresh, store)
        incremental, full = site_files(settings.site_dir), site_files(fresh.site_dir)
        differ = sorted(
            k for k in incremental.keys() | full.keys() if incremental.get(k) != full.get(k)
        )
        assert not differ, f"after {done}: {differ}"
