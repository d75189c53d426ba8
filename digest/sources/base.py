"""The interface every source implements."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Mapping
from typing import Protocol

from msgspec import Struct, field

from digest.clock import Clock
from digest.config import RepoSettings, Settings
from digest.models import PullRequest


class SourceContext(Struct, frozen=True):
    """What a source factory may use to build a source."""

    settings: Settings
    clock: Clock
    #: Environment variables (tokens, API URLs); injected so tests can pin them.
    env: Mapping[str, str] = field(default_factory=dict)
    log: logging.Logger = field(default_factory=lambda: logging.getLogger("digest.sources"))


class Source(Protocol):
    """Collects the changes that landed in one repository during one UTC day.

    A source may also answer, for a repository: ``settings_used(repo) -> dict[str, str]``,
    the settings a collection depends on (stored with it: when they change, the day is
    collected again); ``last_change(repo) -> datetime``, when it last changed (a clone
    not fetched); ``history_start(repo) -> datetime | None``, where its history starts
    (a shallow clone). The pipeline asks only sources that have them.
    """

    def collect(self, repo: RepoSettings, day: dt.date) -> tuple[PullRequest, ...]:
        """Return every change merged into ``repo.branch`` on ``day`` (UTC), oldest first.

        Raises :class:`digest.errors.WireError` when the repository cannot be read.
        """
        ...


SourceFactory = Callable[[SourceContext], Source]


def day_window(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """Return the half-open UTC interval ``[start, end)`` covering ``day``."""
    start = dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)
    return start, start + dt.timedelta(days=1)
