"""Finding the stored digests and reading only the ones that changed since the last build."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from digest.config import SLUG
from digest.errors import WireError
from digest.models import Digest
from digest.render.manifest import DigestRecord
from digest.render.views import Entry, entry_of
from digest.store import Store, digest_adapter, first_problem


@dataclass(frozen=True)
class Scanned:
    """What the scan knows of one digest file."""

    record: DigestRecord
    #: The parsed digest when the file was new or changed (so it is read only once).
    digest: Digest | None = None
    #: The file is unreadable now; ``record`` is the last good version of it.
    stale: bool = False


class Scanner:
    """Stats digest files against the last build's records; collects records and problems."""

    def __init__(
        self,
        store: Store,
        previous: Mapping[str, DigestRecord],
        stats: Mapping[str, tuple[int, int, int]] | None = None,
    ) -> None:
        self.store = store
        self.previous = previous
        #: Stats of the data folder's files (``digests/<slug>/<day>.json``) taken once
        #: before the build (see :mod:`.stamp`); without them the files are listed here.
        self.stats = stats or {}
        self.records: dict[str, DigestRecord] = {}
        #: Each digest's file, as a plain string (one is made for every digest of the build).
        self.paths: dict[str, str] = {}
        self.problems: list[str] = []
        #: How many digest files were parsed.
        self.read = 0

    def files(self) -> dict[str, list[tuple[dt.date, str]]]:
        """Return the stored digest files by project slug, each list oldest first."""
        found: dict[str, list[tuple[dt.date, str]]] = {}
        for slug, day, path in sorted(self._digest_files()):
            if SLUG.match(slug):
                found.setdefault(slug, []).append((day, path))
            else:
                self.problems.append(f"{path}: folder {slug!r} is not a project slug; skipped")
        return found

    def _digest_files(self) -> Iterable[tuple[str, dt.date, str]]:
        if not self.stats:
            return ((slug, day, str(path)) for slug, day, path in self.store.digest_files())
        root = str(self.store.root)
        found = []
        for name in self.stats:
            part, _, rest = name.partition("/")
            slug, _, file = rest.partition("/")
            if part != "digests" or "/" in file or not file.endswith(".json"):
                continue
            try:
                day = dt.date.fromisoformat(file[:-5])
            except ValueError:
                continue
            # A string, not a Path: making 10,000 Paths costs a tenth of a second per build.
            found.append((slug, day, os.path.join(root, name)))  # noqa: PTH118
        return found

    def scan(self, slug: str, day: dt.date, path: str) -> Scanned | None:
        """Return what is known of the digest at ``path`` (``slug`` on ``day``).

        A file whose stamp (mtime, inode) and size match the last build is not opened;
        one whose bytes hash the same is not parsed. Returns None for a file that
        vanished, or is unreadable and was never read before (a problem is noted).
        """
        key = _key(slug, day)
        previous = self.previous.get(key)
        try:
            mtime_ns, size, inode = self.stats.get(f"digests/{key}.json") or _stat(path)
            stamp = mtime_ns ^ inode
            if previous and (previous.mtime_ns, previous.size) == (stamp, size):
                return self._keep(key, path, Scanned(previous))
            data = Path(path).read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            return self._broken(key, path, previous, f"{path}: cannot read: {error}")
        sha = hashlib.sha256(data).hexdigest()
        if previous and previous.entry.sha256 == sha:
            return self._keep(key, path, Scanned(DigestRecord(stamp, size, previous.entry)))
        try:
            digest = digest_adapter().validate_json(data)
        except ValidationError as error:
            where, msg = first_problem(error)
            return self._broken(key, path, previous, f"{path}: {where or 'file'}: {msg}")
        self.read += 1
        if (digest.project_slug, digest.date) != (slug, day):
            self.problems.append(
                f"{path}: says {digest.project_slug}/{digest.date}; shown as {key}"
            )
        record = DigestRecord(stamp, size, entry_of(digest, slug, day, sha))
        return self._keep(key, path, Scanned(record, digest))

    def load(self, entry: Entry) -> Digest | None:
        """Return the digest listed as ``entry``, read again; None (and a problem) on failure."""
        try:
            return self.store.read_digest(Path(self.paths[_key(entry.slug, entry.date)]))
        except WireError as error:
            self.problems.append(f"{error}; page not updated")
            return None

    def peek(self, entry: Entry) -> Digest | None:
        """Return the digest listed as ``entry``, read again; None when it cannot be read
        (no problem noted: the caller has a way round it)."""
        try:
            return self.store.read_digest(Path(self.paths[_key(entry.slug, entry.date)]))
        except (WireError, KeyError):
            return None

    def _keep(self, key: str, path: str, scanned: Scanned) -> Scanned:
        self.records[key] = scanned.record
        self.paths[key] = path
        return scanned

    def _broken(
        self, key: str, path: str, previous: DigestRecord | None, problem: str
    ) -> Scanned | None:
        if previous is None:
            self.problems.append(f"{problem}; edition skipped")
            return None
        # Keep publishing the last good version rather than break links to it.
        self.problems.append(f"{problem}; the last good version stays published")
        return self._keep(key, path, Scanned(previous, stale=True))


def _stat(path: str) -> tuple[int, int, int]:
    stat = Path(path).stat()
    return stat.st_mtime_ns, stat.st_size, stat.st_ino


def _key(slug: str, day: dt.date) -> str:
    """Return the key of the digest of ``slug`` on ``day`` (in records and the manifest)."""
    return f"{slug}/{day.isoformat()}"
