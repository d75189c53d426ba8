"""Time comes from here, so tests and re-runs can pin it."""

from __future__ import annotations

import datetime as dt
from typing import Protocol


class Clock(Protocol):
    def now(self) -> dt.datetime:
        """The current time, timezone-aware, in UTC."""
        ...


class SystemClock:
    def now(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC)


class FixedClock:
    """A clock stuck at one instant (tests, and ``WIRE_NOW`` for reproducible builds)."""

    def __init__(self, instant: dt.datetime) -> None:
        if instant.tzinfo is None:
            instant = instant.replace(tzinfo=dt.UTC)
        self._instant = instant.astimezone(dt.UTC)

    def now(self) -> dt.datetime:
        return self._instant
