"""A folder of rendered fragments kept between builds, so a small build does not redo them.

A feed carries the newest editions in full; when one edition is added, the others are
the same as last time. Each fragment is stored under a key hashing everything it was
made from, so a stale fragment is never found, only left behind: fragments unused for
:data:`MAX_AGE` are deleted, by a sweep at most once every :data:`SWEEP_EVERY` (a sweep
reads the time of every fragment, thousands of them). The folder is a cache: losing it
only costs time.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from pathlib import Path

#: Fragments not used for this long are deleted (seconds).
MAX_AGE = 14 * 24 * 3600
#: The folder is swept for such fragments at most this often (seconds).
SWEEP_EVERY = 24 * 3600
#: Beside the fragments: its modification time is that of the last sweep.
_SWEPT = ".swept"


class Fragments:
    """Text fragments in ``folder`` by key; every failure to read or write is a miss."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @staticmethod
    def key(*parts: object) -> str:
        """The key of a fragment made from ``parts``."""
        return hashlib.sha256("\0".join(map(repr, parts)).encode()).hexdigest()

    def get(self, key: str) -> str | None:
        """The fragment stored under ``key`` (marked as used), or None."""
        path = self.folder / key
        try:
            text = path.read_text(encoding="utf-8")
            os.utime(path)
        except (OSError, UnicodeDecodeError):
            return None
        return text

    def put(self, key: str, text: str) -> None:
        """Store ``text`` under ``key`` (a rename, so a reader never sees half of it)."""
        path = self.folder / key
        temporary = self.folder / f".{key}.{os.getpid()}"
        with contextlib.suppress(OSError):
            self.folder.mkdir(parents=True, exist_ok=True)
            temporary.write_text(text, encoding="utf-8")
            temporary.replace(path)

    def prune(self, now: float | None = None) -> int:
        """Delete the fragments unused for :data:`MAX_AGE`; return how many.

        Does nothing, cheaply, when the last sweep is less than :data:`SWEEP_EVERY` old.
        """
        now = time.time() if now is None else now
        swept = self.folder / _SWEPT
        with contextlib.suppress(OSError):
            if 0 <= now - swept.stat().st_mtime < SWEEP_EVERY:
                return 0
        deleted = 0
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return 0
        for entry in entries:
            with contextlib.suppress(OSError):
                if entry.name != _SWEPT and entry.stat().st_mtime < now - MAX_AGE:
                    Path(entry.path).unlink()
                    deleted += 1
        with contextlib.suppress(OSError):
            swept.touch()
            os.utime(swept, (now, now))
        return deleted
