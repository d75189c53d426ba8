"""Finding the stored digests and reading only the ones that changed since the last build."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from pathlib import Path

from msgspec import Struct, field

from digest.config import SLUG
from digest.errors import WireError
from digest.models import Digest
from digest.render import stamp
from digest.render.manifest import Manifest, Record
from digest.render.topical import Tagger
from digest.render.views import EditionActions, Entry, entry_of
from digest.store import Store, UnreadableRecord, parse_record


class Changes(Struct):
    """The digests a scan found new, changed or gone: their entries before and after."""

    #: As the manifest recorded them (changed or gone ones).
    old: list[Entry] = field(default_factory=list)
    #: As they are now (new or changed ones).
    new: list[Entry] = field(default_factory=list)
    #: The new or changed digests, parsed, by edition path (so each is read only once).
    parsed: dict[str, Digest] = field(default_factory=dict)


class Scanner:
    """Stats digest files against the manifest's records and brings the records up to date.

    Collects what changed, the problems found and each digest's file.
    """

    def __init__(
        self,
        store: Store,
        manifest: Manifest,
        inputs: stamp.Inputs,
        tag: Tagger | None = None,
    ) -> None:
        self.store = store
        #: Gives each action item of a parsed edition its topics (see :mod:`.topical`).
        self.tag = tag
        self.manifest = manifest
        #: The data folder's files as the store's indexes list them, and by folder and
        #: year (see :mod:`.stamp`).
        self.inputs = inputs
        self.buckets = inputs.buckets
        #: Digests unreadable now whose last good version stays published.
        self.stale: set[str] = set()
        self.problems: list[str] = []
        #: How many digest files were parsed.
        self.read = 0

    def scan(self) -> Changes:
        """Look at every digest file; record the new and changed ones, forget the gone ones.

        A file whose stamp (mtime, inode) and size match its record is not opened; one
        whose bytes hash the same is not parsed.
        """
        # The daily case: one or two buckets of hundreds changed; the others are not looked at.
        now, changed = self.manifest.changed_buckets("digests", self.buckets)
        records = self.manifest.records(changed)
        changes = Changes()
        candidates = []
        for bucket in changed:
            for name in now[bucket].names if bucket in now else ():
                mtime_ns, size, inode = self._stat(name)
                key = name[8:-5]
                known = records.pop(key, None)
                if known != (mtime_ns ^ inode, size):
                    candidates.append((bucket, key, name, known))
        gone = set(records)
        troubled = set()
        for bucket, key, name, known in sorted(candidates):
            problems = len(self.problems)
            where = self._where(name)
            if where is not None:
                slug, day = where
                path = os.path.join(self.store.root, name)  # noqa: PTH118
                if not self._scan(key, slug, day, path, known, changes) and known is not None:
                    gone.add(key)
            if len(self.problems) > problems:
                troubled.add(bucket)  # looked at again by every build, to say so again
        kept = {name: b for name, b in now.items() if name not in troubled}
        self.manifest.keep_buckets("digests", kept)
        changes.old += self.manifest.entries(sorted(gone)).values()
        for key in sorted(gone):
            self.manifest.remove(key)
        return changes

    def _stat(self, name: str) -> stamp.Stat:
        """The stat of the indexed file ``name``."""
        found = self.inputs.stat(name)
        assert found is not None, name  # the names come from the same indexes
        return found

    def _where(self, name: str) -> tuple[str, dt.date] | None:
        """The project slug and day of the data file ``name`` (``digests/<slug>/<day>.json``);
        None when it is not a digest (a problem is noted for a folder that is no slug)."""
        slug, _, file = name.removeprefix("digests/").partition("/")
        if "/" in file or not file.endswith(".json"):
            return None
        try:
            day = dt.date.fromisoformat(file[:-5])
        except ValueError:
            return None
        if not SLUG.match(slug):
            path = os.path.join(self.store.root, name)  # noqa: PTH118
            self.problems.append(f"{path}: folder {slug!r} is not a project slug; skipped")
            return None
        return slug, day

    def _scan(
        self,
        key: str,
        slug: str,
        day: dt.date,
        path: str,
        previous: Record | None,
        changes: Changes,
    ) -> bool:
        """Bring the record of the digest at ``path`` (``slug`` on ``day``) up to date.

        Returns False for a file that vanished, or is unreadable and was never read
        before (a problem is noted).
        """
        mtime_ns, size, inode = self._stat(f"digests/{key}.json")
        record = (mtime_ns ^ inode, size)
        try:
            data = Path(path).read_bytes()
        except FileNotFoundError:
            return False
        except OSError as error:
            return self._broken(key, previous, f"{path}: cannot read: {error}")
        sha = hashlib.sha256(data).hexdigest()
        if previous and self.manifest.sha256(key) == sha:
            self.manifest.restamp(key, record)
            return True
        try:
            digest = parse_record(data, Digest)
        except UnreadableRecord as error:
            return self._broken(key, previous, f"{path}: {error}")
        self.read += 1
        if (digest.project_slug, digest.date) != (slug, day):
            self.problems.append(
                f"{path}: says {digest.project_slug}/{digest.date}; shown as {key}"
            )
        if previous:
            changes.old += self.manifest.entries([key]).values()
        entry = entry_of(digest, slug, day, sha)
        topics = self.tag(digest) if self.tag is not None else ()
        self.manifest.put(key, record, entry, EditionActions.of(digest, topics))
        changes.new.append(entry)
        changes.parsed[entry.path] = digest
        return True

    def load(self, entry: Entry) -> Digest | None:
        """Return the digest listed as ``entry``, read again; None (and a problem) on failure."""
        return self.peek(entry, problems=self.problems)

    def peek(self, entry: Entry, problems: list[str] | None = None) -> Digest | None:
        """Return the digest listed as ``entry``, read again; None when it cannot be read
        (noted in ``problems`` when given: else the caller has a way round it)."""
        try:
            return self.store.read_digest(self.store.digest_path(entry.slug, entry.date))
        except WireError as error:
            if problems is not None:
                problems.append(f"{error}; page not updated")
            return None

    def _broken(self, key: str, previous: Record | None, problem: str) -> bool:
        if previous is None:
            self.problems.append(f"{problem}; edition skipped")
            return False
        # Keep publishing the last good version rather than break links to it.
        self.problems.append(f"{problem}; the last good version stays published")
        self.stale.add(key)
        return True
