"""New contributors: authors whose first merged pull request in a repository a day reports.

What the Wire knows is its own collected history in ``data_dir``, so a newcomer is an author
with no merged change in any earlier collected day of that repository, and the edition says
how far back that history goes. An index per repository (``authors/<owner>/<repo>.json``:
each collected day's authors, with the collected file's stamp) keeps this cheap: only
collected days that are new or changed since the last run are read.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from digest.models import Newcomer, PullRequest
from digest.store import dumps, write_atomic
from digest.text import one_line

#: Authors that are bots or merge accounts, never newcomers.
_BOTS = ("[bot]", "dependabot", "renovate", "github-actions", "pytorchbot", "facebook-github-bot")


def newcomers(
    data_dir: Path, day: dt.date, pulls: Sequence[PullRequest]
) -> tuple[tuple[Newcomer, ...], dt.date | None]:
    """The authors of ``pulls`` (merged on ``day``) seen in no earlier collected day.

    Returns them (in the order of ``pulls``, one per author and repository) and the first
    collected day of history they are measured against, or ``((), None)`` when no
    earlier day of any of the repositories was collected.
    """
    found: list[Newcomer] = []
    since: dt.date | None = None
    for repo in sorted({pull.repo for pull in pulls}):
        history = _history(data_dir, repo)
        earlier = {d: authors for d, authors in history.items() if d < day}
        if not earlier:
            continue
        first = min(earlier)
        since = first if since is None else min(since, first)
        known = set().union(*earlier.values())
        for pull in pulls:
            author = one_line(pull.author)
            if pull.repo != repo or not author or author in known or _bot(author):
                continue
            known.add(author)
            found.append(Newcomer(repo, author, pull.number, pull.url))
    return tuple(found), since


def _bot(author: str) -> bool:
    lowered = author.lower()
    return any(marker in lowered for marker in _BOTS)


def _history(data_dir: Path, repo: str) -> dict[dt.date, set[str]]:
    """Each collected day of ``repo`` and its authors, read through the index."""
    owner, name = repo.split("/", 1)
    folder = data_dir / "collected" / owner / name
    index_path = data_dir / "authors" / owner / f"{name}.json"
    try:
        index: dict[str, Any] = json.loads(index_path.read_bytes())
    except (OSError, ValueError):
        index = {}
    days: dict[str, Any] = {}
    changed = False
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        try:
            stat = path.stat()
            dt.date.fromisoformat(path.stem)
        except (OSError, ValueError):
            continue
        stamp = [stat.st_mtime_ns, stat.st_size]
        known = index.get(path.stem)
        if isinstance(known, dict) and known.get("stamp") == stamp:
            days[path.stem] = known
            continue
        try:
            raw = json.loads(path.read_bytes())
            authors = sorted({one_line(str(p.get("author", ""))) for p in raw.get("pulls", [])})
        except (OSError, ValueError, AttributeError):
            continue
        days[path.stem] = {"stamp": stamp, "authors": authors}
        changed = True
    if changed or set(days) != set(index):
        write_atomic(index_path, dumps(days))
    return {dt.date.fromisoformat(d): set(v["authors"]) for d, v in days.items()}
