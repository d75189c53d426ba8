"""Which groups of pages a build plans again: the months and years an input change reaches.

Every page belongs to a group (see :mod:`.manifest`): the month of its edition or of its
cited change's first citer, the year of its listing, or the site-wide group, planned by
every build. A changed digest reaches its own month; the months of its neighbours (their
"previous/next" links); the months of every edition citing a change it cites (a change's
page lists its citers, and each citer links the page) or reports reverted (the citers
carry a correction). A changed collected day reaches its month and the months citing its
pull requests. A month reaches its year (the year's listings list its editions). A
collection gaining or losing a year reaches every group (each year page lists the years).
Pages missing from the site reach their group.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec
from msgspec import Struct

from digest.render import stamp
from digest.render.listings import Collection
from digest.render.manifest import SITE_WIDE, CollectedDay, Manifest, month_group, year_group
from digest.render.scan import Changes
from digest.render.verify import Checked


def collected_changes(
    manifest: Manifest, inputs: stamp.Inputs, data_dir: Path
) -> tuple[dict[str, CollectedDay], dict[str, CollectedDay], set[tuple[str, str]]]:
    """Compare the stats of the collected days in buckets that changed with the records.

    Returns those days as now known, the records to save, and the (repository,
    ``YYYY-MM-DD``) of each day new, gone or whose bytes changed. A day no page needed
    yet is not opened; one whose stat changed but bytes did not (a fresh checkout of the
    data folder) is no change.
    """
    now, changed = manifest.changed_buckets("collected", inputs.buckets)
    known = manifest.collected(changed)
    days: dict[str, CollectedDay] = {}
    save: dict[str, CollectedDay] = {}
    touched: set[tuple[str, str]] = set()
    for name in (n for bucket in changed if bucket in now for n in now[bucket].names):
        stat = inputs.stat(name)
        assert stat is not None, name  # the names come from the same indexes
        record = known.pop(name, None)
        if record is not None and (record.mtime_ns, record.size) == stat[:2]:
            days[name] = record
            continue
        if record is None or record.sha256 is None:
            day = CollectedDay(stat[0], stat[1], None, frozenset())
            if record is None:
                touched.add(_repo_day(name))
        else:
            day = looked_at(data_dir / name, stat, record)
            if day.sha256 != record.sha256:
                touched.add(_repo_day(name))
        days[name] = save[name] = day
    for name in known:  # gone
        touched.add(_repo_day(name))
        manifest.remove_collected(name)
    manifest.keep_buckets("collected", now)
    return days, save, touched


def looked_at(path: Path, stat: stamp.Stat, known: CollectedDay | None) -> CollectedDay:
    """The collected day at ``path`` (whose stat is ``stat``), last seen as ``known``.

    Opened only when its stat changed or it was never opened, and parsed only when its
    bytes changed too. One that cannot be read or parsed holds no pull request, and its
    hash is ``""``: when its stat changes, it is looked at again.
    """
    if known is not None and known.sha256 is not None and (known.mtime_ns, known.size) == stat[:2]:
        return known
    try:
        data = path.read_bytes()
        sha = hashlib.sha256(data).hexdigest()
        if known is not None and known.sha256 == sha:
            return CollectedDay(stat[0], stat[1], sha, known.numbers)
        return CollectedDay(stat[0], stat[1], sha, _numbers_in(data))
    except (OSError, ValueError, AttributeError, TypeError):
        return CollectedDay(stat[0], stat[1], "", frozenset())


class _Numbered(Struct):
    """A pull request of a collected day, of which only its number is read."""

    number: Any = None


class _Numbers(Struct):
    """A collected day, of which only its pull requests' numbers are read."""

    pulls: list[_Numbered] = []


_NUMBERS = msgspec.json.Decoder(_Numbers)


def _numbers_in(data: bytes) -> frozenset[int]:
    """The pull request numbers of a collected day's JSON ``data`` (read without validating).

    Read by msgspec, which skips the rest (a sixth of the time of parsing it all); a day it
    does not take (not the shape the Wire writes) is read by ``json`` as before.
    """
    try:
        pulls_ = _NUMBERS.decode(data).pulls
    except msgspec.DecodeError:
        found = json.loads(data).get("pulls", [])
        return frozenset(p["number"] for p in found if isinstance(p.get("number"), int))
    return frozenset(p.number for p in pulls_ if isinstance(p.number, int))


def _repo_day(name: str) -> tuple[str, str]:
    """(``owner/repo``, ``YYYY-MM-DD``) of the data path ``collected/owner/repo/day.json``."""
    folder, _, file = name.removeprefix("collected/").rpartition("/")
    return folder, file.removesuffix(".json")


def plan(
    manifest: Manifest,
    changes: Changes,
    days: Iterable[tuple[str, str]],
    collections: Iterable[Collection],
    known: set[int],
    checked: Checked,
) -> set[int]:
    """The groups whose pages this build plans again (the site-wide group is always planned).

    ``changes`` are the digests' and ``days`` the collected days' (see
    :func:`collected_changes`); ``collections`` the site's, as they are now; ``known``
    the groups with a page or an edition, and ``checked`` the files in the site: the
    groups of pages missing or not as the last build wrote them are planned.
    """
    navs = json.dumps(
        sorted((c.heading.kind, c.heading.slug, y.year) for c in collections for y in c.years)
    )
    if manifest.trusted and manifest.meta("navs") == navs:
        dirty = reached(manifest, changes, days)
        dirty |= manifest.missing(checked.present, checked.recorded, checked.suspect)
        dirty |= {year_group(group) for group in dirty if group != SITE_WIDE}
    else:  # made by other code or settings, or a collection gained or lost a year
        dirty = known
    manifest.set_meta("navs", navs)
    return (dirty & known) - {SITE_WIDE}


def reached(manifest: Manifest, changes: Changes, days: Iterable[tuple[str, str]]) -> set[int]:
    """The months the ``changes`` to digests and the changed collected ``days`` reach.

    The manifest already holds the digests as they are now.
    """
    touched = [*changes.old, *changes.new]
    months = {month_group(entry.date.isoformat()) for entry in touched}
    prs = {pr for entry in touched for pr in entry.cites}
    prs |= {target for entry in touched for _, target, *_ in entry.follow_ups}
    for repo, day in days:
        if _is_day(day):
            months.add(month_group(day))
        prs |= manifest.cited_on(day, repo)
    months |= manifest.months_citing(prs)
    for entry in touched:
        for neighbour in manifest.neighbours(entry.slug, entry.date.isoformat()):
            if neighbour is not None:
                months.add(month_group(neighbour))
    return months


def _is_day(name: str) -> bool:
    """Whether ``name`` (a collected file's stem) is a day, ``YYYY-MM-DD``."""
    return len(name) == 10 and name[:4].isdigit() and name[5:7].isdigit()
