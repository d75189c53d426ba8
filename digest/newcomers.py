"""New contributors: authors whose first merged pull request in a repository a day reports.

What the Wire knows is its own collected history in ``data_dir``, so a newcomer is an author
with no merged change in any earlier collected day of that repository, and the edition says
how far back that history goes. An index per repository (``authors/<owner>/<repo>.json``:
each collected day's authors, with the collected file's SHA-256 from the store's index of
the folder) keeps this cheap: only collected days that are new or changed since the last
run are read, and a run keeps the index in memory from one day to the next.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

import msgspec
from msgspec import Struct

from digest.models import Newcomer, PullRequest
from digest.store import folder_index, write_atomic
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
        # Collected days are named YYYY-MM-DD: their names sort as their dates.
        before = day.isoformat()
        earlier = {d: a for d, a in _history(data_dir, repo).items() if d < before}
        if not earlier:
            continue
        first = dt.date.fromisoformat(min(earlier))
        since = first if since is None else min(since, first)
        known: set[str] = set().union(*earlier.values())
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


class _Pulls(Struct):
    pulls: list[_Author] = []


class _Author(Struct):
    author: str = ""


class _Known(Struct):
    #: The SHA-256 of the collected file the authors were read from.
    stamp: str | list[int]
    authors: list[str]


_collected_decoder = msgspec.json.Decoder(_Pulls)
_index_decoder = msgspec.json.Decoder(dict[str, _Known])
#: The authors indexes read or written by this process, by path: a range reads each once.
_memo: dict[Path, dict[str, _Known]] = {}


def _history(data_dir: Path, repo: str) -> dict[str, list[str]]:
    """Each collected day of ``repo`` (``YYYY-MM-DD``) and its authors, read through the
    index."""
    owner, name = repo.split("/", 1)
    folder = data_dir / "collected" / owner / name
    index_path = data_dir / "authors" / owner / f"{name}.json"
    index = _memo.get(index_path)
    if index is None:
        try:
            index = _index_decoder.decode(index_path.read_bytes())
        except (OSError, msgspec.DecodeError):
            index = {}
    days: dict[str, _Known] = {}
    changed = False
    for file_name, (sha, _) in sorted(folder_index(folder).items() if folder.is_dir() else ()):
        stem = file_name.removesuffix(".json")
        known = index.get(stem)
        if known is not None and known.stamp == sha:
            days[stem] = known
            continue
        try:
            dt.date.fromisoformat(stem)
            raw = _collected_decoder.decode((folder / file_name).read_bytes())
        except (OSError, ValueError, msgspec.DecodeError):
            continue
        days[stem] = _Known(sha, sorted({one_line(p.author) for p in raw.pulls}))
        changed = True
    if changed or days.keys() != index.keys():
        # A cache made again from the collected days: written without an fsync.
        write_atomic(index_path, msgspec.json.encode(days, order="sorted") + b"\n", sync=False)
    _memo[index_path] = days
    return {d: v.authors for d, v in days.items()}
