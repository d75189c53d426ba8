"""What the sources say before a run collects: clones not fetched, histories cut short.

Asked once per repository of a run, before its days; the CLI turns each finding into one
warning naming the days it concerns. Only sources that can tell are asked (a git clone).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from digest.config import ProjectSettings, RepoSettings
from digest.errors import WireError
from digest.sources.base import SourceContext, day_window

if TYPE_CHECKING:
    from digest.pipeline import Runtime


class Stale(Struct, frozen=True):
    """A repository whose source stops before some of the days asked for."""

    repo: str
    #: When the source last changed (a clone's branch tip).
    last_change: dt.datetime
    #: The days asked for that start more than a day after ``last_change``.
    days: tuple[dt.date, ...]


def stale_sources(
    rt: Runtime, projects: Sequence[ProjectSettings], days: Sequence[dt.date]
) -> list[Stale]:
    """Return the repositories of ``projects`` whose source ends over a day before some of ``days``.

    Only sources that know when they last changed (a git clone) are asked; one that cannot
    be read is left to collect to report.
    """
    found: list[Stale] = []
    for repo, when in _ask_sources(rt, projects, "last_change"):
        late = tuple(day for day in days if day > when.date() + dt.timedelta(days=1))
        if late:
            found.append(Stale(repo.name, when, late))
    return found


class Shallow(Struct, frozen=True):
    """A repository whose source's history starts after some of the days asked for."""

    repo: str
    #: Where the history starts (a shallow clone's cut on the branch).
    history_start: dt.datetime
    #: The days asked for that start at or before ``history_start``: they cannot be read.
    days: tuple[dt.date, ...]
    #: Where the clone is, for the fix (``git -C <path> fetch --unshallow``).
    location: str


def shallow_sources(
    rt: Runtime, projects: Sequence[ProjectSettings], days: Sequence[dt.date]
) -> list[Shallow]:
    """Return the repositories of ``projects`` whose history does not reach some of ``days``.

    Only sources that know where their history starts (a shallow git clone) are asked.
    """
    found: list[Shallow] = []
    for repo, start in _ask_sources(rt, projects, "history_start"):
        if start is None:
            continue
        lost = tuple(day for day in days if day_window(day)[0] <= start)
        if lost:
            found.append(Shallow(repo.name, start, lost, str(repo.git or repo.name)))
    return found


def _ask_sources(
    rt: Runtime, projects: Sequence[ProjectSettings], question: str
) -> Iterator[tuple[RepoSettings, Any]]:
    """Yield each repository of ``projects`` (once) whose source answers ``question``, and
    the answer; a source without that method, or that cannot read the repository, is skipped.
    """
    seen: set[str] = set()
    context = SourceContext(settings=rt.settings, clock=rt.clock, env=rt.env)
    for repo in (repo for project in projects for repo in project.repos):
        if repo.name in seen:
            continue
        seen.add(repo.name)
        ask = getattr(rt.registry.source(repo.source or "")(context), question, None)
        if ask is None:
            continue
        try:
            answer = ask(repo)
        except WireError:
            continue
        yield repo, answer
