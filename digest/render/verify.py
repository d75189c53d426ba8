"""Checking the copy a build starts from: what the last build wrote, as it wrote it.

The site and its builds folder may come from a cache restored by a CI job (README,
*Deploy*), which anything able to write that cache can change. So before a build keeps a
file, it compares its copy of the site with the manifest's record of every page, the
SHA-256 of its bytes. Links (to anywhere) and anything else that is not a regular file
are deleted at once. A file the manifest does not know, or whose bytes differ from the
record (a page added, or edited even with its modification time kept), is *suspect*: its
group of pages is planned as if the page were missing, the page is rendered again (and
written only if its bytes differ), and a suspect file the build does not make is deleted.
So the published site is what a full build would write.

A file is read and hashed unless it is the very file that was last found holding its
recorded bytes: the same inode, size and *change time* (``ctime``) as then. No program
can set a file's change time: writing, linking or unlinking it, or changing its mode or
times sets it to the moment it happened; and a file restored from an archive (a CI cache)
is a new inode with a new change time, so every restored file is read. The change time is
kept in nanoseconds (ext4, XFS, btrfs). So a build with nothing to do reads no page, and
adding a day reads the pages the last build wrote, not every page.

Every file is still looked at (its inode, change time and size: one ``lstat``), but not
looked up one by one: the files of each folder are split into *buckets* of about
:data:`_PER_BUCKET` by a hash of their names, and the manifest keeps, per folder, a *seal*
of each bucket: a hash of its files' names, inodes, change times and sizes, made when every
one of them was known to hold its recorded bytes and to be a page the manifest records. A
bucket whose files hash to its seal is those very files, untouched (a file edited in place
has a new change time, one added or deleted changes the names): its files pass without
their records being read. The files of the other buckets (those of the pages the last build
wrote, or of a folder changed by hand) are checked one by one, as above. A restored cache
matches no seal, so every file of it is checked and read.

A build trusts its own builds folder, without looking at its files, when that folder is
provably the one it left (see :class:`Vouched`): the manifest records, for each build the
last build left in it, the inode and change time of every folder of that build. A
folder's change time moves whenever an entry is added to it, deleted from it or renamed
in or out of it, and a restored or copied folder is a new inode with a new change time;
so a build whose folders are all seen as recorded holds the very files it held then, and
the copy made from it is checked by its folders alone (an ``lstat`` a folder: some 260
for the 21,000 files of 10,000 editions). What that does not see is a file edited in
place (its folder does not change): ``digest render --full`` checks every file as above
and writes such a page again, and ``digest doctor --site`` reads every published page
against the manifest (:func:`differences`).

The manifest comes from the same cache: this finds pages that differ from it, not a
manifest rewritten to match them.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import zlib
from collections.abc import Collection, Iterable, Iterator, Mapping, MutableSet, Sequence
from contextlib import closing
from pathlib import Path
from stat import S_ISDIR, S_ISREG
from typing import TYPE_CHECKING

import msgspec
from msgspec import Struct

from digest.render.publish import changes_record
from digest.text import count

if TYPE_CHECKING:
    from digest.render.output import Output

log = logging.getLogger("digest")
#: Paths named in the log line, at most.
_NAMED = 5
#: Bytes read at a time: most pages in one read.
_CHUNK = 1 << 20
#: Files a bucket holds, about (see the module's description).
_PER_BUCKET = 32
#: Hex digits kept of a bucket's seal.
_SEAL = 32
#: Paths looked up in the manifest per query.
_BATCH = 10_000
#: A bucket's files as its seal hashes them: {name: [inode, ctime_ns, size]}, sorted.
_SEALED = msgspec.json.Encoder(order="sorted")

#: How a file is seen: its inode, change time (ns) and size.
Seen = tuple[int, int, int]


class Present(MutableSet[str]):
    """The paths of the regular files found in a site (``a/b.html``), from its folders'
    ``listings`` (``a``: {``b.html``: ...}), less those found gone since (:meth:`discard`).

    Made from the listings when asked (a path, or all of them): the daily build asks
    about a few dozen of the 20,000 files of a site of 10,000 editions.
    """

    def __init__(self, listings: Mapping[str, Mapping[str, object]], count: int) -> None:
        self._listings = listings
        self._count = count
        self._gone: set[str] = set()
        self._added: set[str] = set()

    def __contains__(self, path: object) -> bool:
        if not isinstance(path, str) or path in self._gone:
            return False
        folder, _, name = path.rpartition("/")
        return name in self._listings.get(folder, ()) or path in self._added

    def __iter__(self) -> Iterator[str]:
        for folder, files in self._listings.items():
            prefix = f"{folder}/" if folder else ""
            yield from (p for p in (prefix + name for name in files) if p not in self._gone)
        yield from self._added

    def __len__(self) -> int:
        return self._count - len(self._gone) + len(self._added)

    def add(self, path: str) -> None:
        """Count the file at ``path`` as present (written since the check)."""
        if path not in self:
            if path in self._gone:
                self._gone.discard(path)
            else:
                self._added.add(path)

    def discard(self, path: str) -> None:
        """Count the file at ``path`` as gone (lost since the check)."""
        if path in self._added:
            self._added.discard(path)
        elif path in self:
            self._gone.add(path)


class Probed(MutableSet[str]):
    """The paths of the regular files of a site known to hold ``count`` files as its last
    build left them (see :class:`Vouched`), each looked at (one ``lstat``) when first asked
    about, less those found gone since (:meth:`discard`). A file is asked about before the
    build writes or deletes it (its page is offered first; one deleted is discarded
    first), so the answers are those of the site as the build found it."""

    def __init__(self, root: Path, count: int) -> None:
        self._root = root
        self._count = count
        self._known: dict[str, bool] = {}
        self._gone: set[str] = set()
        self._added: set[str] = set()

    def _there(self, path: str) -> bool:
        """Whether a regular file is at ``path`` (as the build found the site)."""
        found = self._known.get(path)
        if found is None:
            try:
                found = S_ISREG(os.lstat(self._root / path).st_mode)
            except (OSError, ValueError):
                found = False
            self._known[path] = found
        return found

    def __contains__(self, path: object) -> bool:
        if not isinstance(path, str) or path in self._gone:
            return False
        return path in self._added or self._there(path)

    def __iter__(self) -> Iterator[str]:
        # Asked only when the manifest's count of pages is not the site's: a listing.
        for folder, _, names in os.walk(self._root):
            relative = os.path.relpath(folder, self._root).replace(os.sep, "/")
            prefix = "" if relative == "." else f"{relative}/"
            for name in names:
                path = prefix + name
                if path not in self._gone and path not in self._added and self._there(path):
                    yield path
        yield from self._added

    def __len__(self) -> int:
        return self._count - len(self._gone) + len(self._added)

    def add(self, path: str) -> None:
        """Count the file at ``path`` as present (written since the check)."""
        if path not in self:
            if path in self._gone:
                self._gone.discard(path)
            else:
                self._added.add(path)

    def discard(self, path: str) -> None:
        """Count the file at ``path`` as gone (lost since the check)."""
        if path in self._added:
            self._added.discard(path)
        elif path in self:
            self._gone.add(path)


class Vouched(Struct, frozen=True):
    """A build as the build that left it saw it: how many files it held and how each of
    its folders was seen (``inode:ctime_ns``, by path in the build, ``""`` its root).

    Recorded in the manifest only when every file of the build was known to be a page the
    manifest records, holding its recorded bytes (checked, or written by that build).
    """

    files: int
    folders: dict[str, str]
    #: How the record beside it of the pages it changed (which the next build but one
    #: follows to catch it up, see :mod:`.publish`) was seen; "" when there was none.
    changes: str = ""


def vouch(build: Path, folders: Iterable[str], files: int) -> Vouched:
    """How ``build``, holding ``files`` files, is seen now: those of ``folders`` (paths in
    it: every folder it may hold) that are folders in it, and its root."""
    seen = {}
    for folder in sorted({"", *folders}):
        try:
            stat = os.lstat(build / folder if folder else build)
        except OSError:
            continue  # deleted by the build (left empty)
        if S_ISDIR(stat.st_mode):
            seen[folder] = f"{stat.st_ino}:{stat.st_ctime_ns}"
    return Vouched(files, seen, _seen(changes_record(build)))


def _seen(path: Path) -> str:
    """How the file at ``path`` is seen (``inode:ctime_ns``); "" when there is none."""
    try:
        stat = os.lstat(path)
    except OSError:
        return ""
    return f"{stat.st_ino}:{stat.st_ctime_ns}"


def as_left(build: Path, vouched: Vouched | None) -> bool:
    """Whether ``build`` is the very build ``vouched`` describes, as it was left: every
    folder the same inode with the same change time (so holding the same entries), and
    the record of what it changed the very file it was."""
    if vouched is None or "" not in vouched.folders:
        return False
    if _seen(changes_record(build)) != vouched.changes:
        return False
    for folder, seen in vouched.folders.items():
        try:
            stat = os.lstat(build / folder if folder else build)
        except OSError:
            return False
        if f"{stat.st_ino}:{stat.st_ctime_ns}" != seen or not S_ISDIR(stat.st_mode):
            return False
    return True


def parents(paths: Iterable[str]) -> set[str]:
    """The folders (``a``, ``a/b``...) that hold ``paths``, the root (``""``) included."""
    found = {""}
    for path in paths:
        folder = path.rpartition("/")[0]
        while folder and folder not in found:
            found.add(folder)
            folder = folder.rpartition("/")[0]
    return found


class Checked(Struct, frozen=True):
    """What :func:`check_site` found in the site (site-relative paths)."""

    #: The regular files left in the site.
    present: MutableSet[str]
    #: Of those, the ones the manifest does not vouch for.
    suspect: set[str]
    #: What was deleted at once: links and other files that are not regular files.
    removed: list[str]
    #: The files read and found holding their recorded bytes, and how they were seen
    #: (``inode:ctime_ns:size``), for the manifest.
    observed: dict[str, str] = {}
    #: How many of ``present`` the manifest records.
    recorded: int = 0
    #: Each folder's regular files as found (``""``: the site's root), and how each was
    #: seen; the same in their buckets, and each bucket's seal ("" where it did not hold).
    listings: dict[str, dict[str, Seen]] = {}
    buckets: dict[str, list[dict[str, Seen]]] = {}
    sealed: dict[str, list[str]] = {}
    #: Whether the copy was trusted as its last build left it (its files not looked at:
    #: ``listings`` and the seals are then unknown, and ``folders`` those it may hold).
    trusted: bool = False
    #: The folders of the copy (``""``: the site's root).
    folders: frozenset[str] = frozenset()


class _Found(Struct):
    """What a walk of the site found, as it goes (``listings`` kept only when ``keep``: a
    site checked and left as it is needs none)."""

    keep: bool
    files: int = 0
    removed: list[str] = []
    listings: dict[str, dict[str, Seen]] = {}
    buckets: dict[str, list[dict[str, Seen]]] = {}
    sealed: dict[str, list[str]] = {}
    #: The files of the buckets whose seal did not hold: (path, how it was seen).
    unvouched: list[tuple[str, str]] = []


def check_site(
    site_dir: Path,
    db: sqlite3.Connection,
    trusted: Vouched | None = None,
    folders: Iterable[str] = (),
) -> Checked:
    """Check the files of ``site_dir`` against the manifest ``db``'s records of the pages
    (their bytes' SHA-256, how they were last seen, the folders' seals), reading those not
    vouched for; delete the links and other files that are not regular files.

    A copy ``trusted`` to be the build it was made from as that build was left (see
    :class:`Vouched`; its folders among ``folders``) is not looked at: each of its files
    is a page the manifest records."""
    if trusted is not None:
        present = Probed(site_dir, trusted.files)
        return Checked(
            present, set(), [], recorded=trusted.files, trusted=True, folders=frozenset(folders)
        )
    return _check(site_dir, db, _Found(keep=True), dry=False)


def intact(build: Path, manifest: Path, files: int, *, trust: bool = True) -> bool:
    """Whether the published ``build`` holds ``files`` files, each a page as the
    ``manifest`` file records it; reads, never changes, either. With ``trust``, a build
    whose folders are all as the build that made it left them (see :class:`Vouched`) is
    taken to hold them without its files being looked at."""
    try:
        uri = f"{manifest.resolve().as_uri()}?mode=ro"
        with closing(sqlite3.connect(uri, uri=True)) as db:
            db.execute("PRAGMA trusted_schema = OFF")
            if trust:
                vouched = recorded_builds(db).get(build.name)
                if vouched is not None and vouched.files == files and as_left(build, vouched):
                    return True
            found = _Found(keep=False)
            checked = _check(build, db, found, dry=True)
    except (OSError, sqlite3.Error, ValueError):
        return False
    return found.files == files and not checked.suspect and not checked.removed


#: Where the manifest keeps the builds of the builds folder as they were left.
BUILDS_META = "builds as left"
_BUILDS = msgspec.json.Decoder(dict[str, Vouched])


def recorded_builds(db: sqlite3.Connection) -> dict[str, Vouched]:
    """The builds of the builds folder as the manifest ``db`` says they were left, by
    name; none when it says nothing (or nothing it can read)."""
    try:
        row = db.execute("SELECT value FROM meta WHERE name = ?", (BUILDS_META,)).fetchone()
    except sqlite3.Error:
        return {}
    if row is None:
        return {}
    try:
        return _BUILDS.decode(row[0])
    except (msgspec.DecodeError, TypeError):
        return {}


class Differences(Struct, frozen=True):
    """How a published build differs from the pages the manifest records (site paths)."""

    #: The files read.
    files: int
    #: Pages whose bytes are not those recorded (edited in place, say).
    changed: list[str]
    #: Files the manifest does not record, links and whatever is not a regular file.
    unknown: list[str]
    #: Pages recorded and not there.
    missing: list[str]

    def __bool__(self) -> bool:
        return bool(self.changed or self.unknown or self.missing)


def differences(build: Path, manifest: Path) -> Differences:
    """Read every file of the published ``build`` against the SHA-256 the ``manifest``
    file records for its page (``digest doctor --site``); change neither. Raises OSError
    or sqlite3.Error when either cannot be read."""
    uri = f"{manifest.resolve().as_uri()}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True)) as db:
        db.execute("PRAGMA trusted_schema = OFF")
        pages = dict(db.execute("SELECT path, sha256 FROM pages"))
    changed: list[str] = []
    unknown: list[str] = []
    read: set[str] = set()
    for path, regular in _everything(build, ""):
        if not regular or path not in pages:
            unknown.append(path)
            continue
        read.add(path)
        if not _holds(str(build / path), pages[path]):
            changed.append(path)
    missing = sorted(pages.keys() - read)
    return Differences(len(read), sorted(changed), sorted(unknown), missing)


def _everything(folder: Path, prefix: str) -> Iterator[tuple[str, bool]]:
    """Every entry under ``folder`` but its folders (``prefix`` its path in the site), and
    whether it is a regular file; links are not followed."""
    with os.scandir(folder) as scan:
        entries = sorted(scan, key=lambda entry: entry.name)
    for entry in entries:
        path = prefix + entry.name
        if entry.is_dir(follow_symlinks=False):
            yield from _everything(Path(entry.path), f"{path}/")
        else:
            yield path, entry.is_file(follow_symlinks=False)


def _said(seen: Seen) -> str:
    """How a file seen as ``seen`` is recorded: ``inode:ctime_ns:size``."""
    return f"{seen[0]}:{seen[1]}:{seen[2]}"


def confirmed(
    checked: Checked, done: Mapping[str, str], written: Collection[str]
) -> dict[str, str]:
    """The files suspect when the build began (``checked``) that it rendered again and
    found holding the bytes it makes, so left as they were (``done`` with a key, not
    ``written``), and how each was seen."""
    found = {}
    for path in checked.suspect:
        if done.get(path) and path not in written:
            folder, _, name = path.rpartition("/")
            found[path] = _said(checked.listings[folder][name])
    return found


def seals(
    checked: Checked,
    written: Mapping[str, str],
    deleted: Collection[str],
    doubtful: Collection[str],
) -> dict[str, list[str]]:
    """The seals of the folders a build changed or found changed, as the site it started
    from (``checked``) is left by it: with the files ``written`` (and how each is seen)
    and without those ``deleted``; a bucket holding a ``doubtful`` file (one not known to
    hold its recorded bytes, or not recorded) gets no seal (``""``). A folder left without
    files (or gone) gets an empty list."""
    # By folder: the names written (how each is seen now), deleted (None) or doubtful.
    changes: dict[str, dict[str, Seen | None]] = {}
    doubted: dict[str, set[str]] = {}
    for path in (*deleted, *checked.removed):
        folder, _, name = path.rpartition("/")
        changes.setdefault(folder, {})[name] = None
    for path, seen in written.items():
        folder, _, name = path.rpartition("/")
        inode, ctime, size = map(int, seen.split(":"))
        changes.setdefault(folder, {})[name] = (inode, ctime, size)
    for path in doubtful:
        folder, _, name = path.rpartition("/")
        doubted.setdefault(folder, set()).add(name)
    failed = {folder for folder, found in checked.sealed.items() if "" in found}
    return {
        folder: _resealed(checked, folder, changes.get(folder, {}), doubted.get(folder, set()))
        for folder in sorted(failed | changes.keys() | doubted.keys())
    }


def _resealed(
    checked: Checked, folder: str, changes: Mapping[str, Seen | None], doubted: Collection[str]
) -> list[str]:
    """The seals of ``folder``'s buckets as found by the check, once ``changes`` are made
    to its files (a name: how it is seen now, or None when deleted); a bucket with a
    ``doubted`` name gets none (""). Only the buckets that changed, or whose seal did not
    hold, are sealed again, unless the folder now has another number of buckets."""
    found = checked.buckets.get(folder, [])
    files = dict(checked.listings.get(folder, {}))
    for name, seen in changes.items():
        if seen is None:
            files.pop(name, None)
        else:
            files[name] = seen
    size = _size(len(files))
    if size != len(found):
        return [
            "" if any(name in doubted for name in bucket) else _seal(bucket)
            for bucket in _buckets(files)
        ]
    seals = list(checked.sealed[folder]) if size else []
    dirty = {i for i, seal in enumerate(seals) if not seal}
    dirty |= {_index(name, size) for name in (*changes, *doubted)} if size else set()
    for index in dirty:
        bucket = {name: files[name] for name in found[index] if name in files}
        bucket |= {n: files[n] for n in changes if n in files and _index(n, size) == index}
        seals[index] = "" if any(name in doubted for name in bucket) else _seal(bucket)
    return seals


def clear(site_dir: Path, checked: Checked, out: Output, deleted: Sequence[str]) -> list[str]:
    """Delete the suspect files that the build ``out`` did not make again (and did not
    delete already: ``deleted``); return their paths and those of the links deleted
    before the build and not made again, sorted."""
    gone = set(deleted)
    cleared = [path for path in checked.removed if path not in out.done]
    for path in sorted(checked.suspect):
        if out.done.get(path) or path in gone:
            continue  # made again by this build, or deleted as stale
        target = site_dir / path
        out.gone(path)
        target.unlink(missing_ok=True)
        for parent in target.parents:
            if parent == site_dir or any(parent.iterdir()):
                break
            parent.rmdir()
        out.done.pop(path, None)
        out.sums.pop(path, None)
        cleared.append(path)
    return sorted(cleared)


def tell(checked: Checked, written: Collection[str], deleted: Collection[str]) -> None:
    """Warn, naming a few, of the files that were not what this build makes: the links
    deleted, and the suspect files written again or deleted."""
    differed = sorted(
        {*checked.removed, *(p for p in (*written, *deleted) if p in checked.suspect)}
    )
    if not differed:
        return
    more = len(differed) - _NAMED
    log.warning(
        "site: %s of the last build differed from what it wrote (changed, added or a link); "
        "rendered again or deleted: %s%s",
        count(len(differed), "file"),
        ", ".join(differed[:_NAMED]),
        f" and {more} more" if more > 0 else "",
    )


def _check(site_dir: Path, db: sqlite3.Connection, found: _Found, *, dry: bool) -> Checked:
    """Check ``site_dir`` against the manifest ``db``, noting what it finds in ``found``;
    unless ``dry``, delete what is not a regular file."""
    rows = db.execute("SELECT folder, seals FROM sealed")
    sealed = {folder: json.loads(text) for folder, text in rows}
    fd = os.open(site_dir, os.O_RDONLY | os.O_DIRECTORY)
    try:
        _walk(fd, "", sealed, found, dry=dry)
    finally:
        os.close(fd)
    records = _records(db, [path for path, _ in found.unvouched])
    suspect: set[str] = set()
    observed: dict[str, str] = {}
    for path, now in found.unvouched:
        sha, seen = records.get(path, ("", ""))
        if not sha:
            suspect.add(path)
        elif seen != now:  # else the very file found holding these bytes before
            if _holds(str(site_dir / path), sha):
                observed[path] = now
            else:
                suspect.add(path)
    found.removed.sort()
    # Every file of a sealed bucket is a page the manifest records.
    recorded = found.files - len(found.unvouched) + len(records)
    return Checked(
        Present(found.listings, found.files),
        suspect,
        found.removed,
        observed,
        recorded,
        found.listings,
        found.buckets,
        found.sealed,
        folders=frozenset(found.listings),
    )


def _walk(
    fd: int, folder: str, sealed: Mapping[str, Sequence[str]], found: _Found, *, dry: bool
) -> None:
    """Look at the files of the folder open as ``fd`` (``folder`` in the site) and those of
    its folders; unless ``dry``, delete what is not a regular file."""
    prefix = f"{folder}/" if folder else ""
    with os.scandir(fd) as scan:
        entries = list(scan)
    files: dict[str, Seen] = {}
    for entry in entries:
        name = entry.name
        if entry.is_dir(follow_symlinks=False):
            inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            try:
                _walk(inner, prefix + name, sealed, found, dry=dry)
            finally:
                os.close(inner)
            continue
        if entry.is_file(follow_symlinks=False):
            # One lstat (relative to the folder, not a whole path) a file: this runs for
            # every file of the site (20,000 at 10,000 editions).
            stat = entry.stat(follow_symlinks=False)
            if S_ISREG(stat.st_mode):
                files[name] = (stat.st_ino, stat.st_ctime_ns, stat.st_size)
                continue
        # A link (to anywhere), a pipe, a socket...
        if not dry:
            os.unlink(name, dir_fd=fd)
        found.removed.append(prefix + name)
    found.files += len(files)
    buckets = _buckets(files)
    expected = sealed.get(folder, ())
    seals = [_seal(bucket) for bucket in buckets]
    if len(expected) != len(seals):
        expected = [""] * len(seals)
    for bucket, seal, held in zip(buckets, seals, expected, strict=True):
        if seal != held:
            found.unvouched += [(prefix + name, _said(seen)) for name, seen in bucket.items()]
    if found.keep:
        found.listings[folder] = files
        found.buckets[folder] = buckets
        found.sealed[folder] = [s if s == e else "" for s, e in zip(seals, expected, strict=True)]


def _size(count: int) -> int:
    """How many buckets ``count`` files are split in: about :data:`_PER_BUCKET` each, a
    power of two of them (so that a file added or deleted seldom changes how many); none
    when there is no file."""
    return 1 << (max(1, count // _PER_BUCKET).bit_length() - 1) if count else 0


def _index(name: str, size: int) -> int:
    """The bucket, of ``size``, of the file ``name``."""
    return zlib.crc32(name.encode()) & (size - 1) if size > 1 else 0


def _buckets(files: dict[str, Seen]) -> list[dict[str, Seen]]:
    """``files`` in their buckets (see :func:`_size`)."""
    size = _size(len(files))
    if size <= 1:
        return [files] if files else []
    buckets: list[dict[str, Seen]] = [{} for _ in range(size)]
    for name, seen in files.items():
        buckets[zlib.crc32(name.encode()) & (size - 1)][name] = seen
    return buckets


def _seal(bucket: Mapping[str, Seen]) -> str:
    """The seal of ``bucket``: a hash of its files' names and how each is seen."""
    return hashlib.sha256(_SEALED.encode(bucket)).hexdigest()[:_SEAL]


def _records(db: sqlite3.Connection, paths: Sequence[str]) -> dict[str, tuple[str, str]]:
    """The recorded SHA-256 of the pages at ``paths`` and how each was last seen holding
    those bytes ("" when not known), by path; pages not recorded are left out."""
    found: dict[str, tuple[str, str]] = {}
    for start in range(0, len(paths), _BATCH):
        rows = db.execute(
            "SELECT p.path, p.sha256, coalesce(s.stat, '') FROM pages p "
            "LEFT JOIN seen s ON s.path = p.path "
            "WHERE p.path IN (SELECT value FROM json_each(?))",
            (json.dumps(paths[start : start + _BATCH]),),
        )
        found.update((path, (sha, seen)) for path, sha, seen in rows)
    return found


def _holds(path: str, sha256: str | None) -> bool:
    """Whether the file at ``path`` holds bytes whose SHA-256 is ``sha256`` (hex)."""
    if not sha256:
        return False
    # One open and one read a page, no Path and no buffered file: this runs for every
    # file the check reads (every page of a restored site).
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        digest = hashlib.sha256()
        while chunk := os.read(fd, _CHUNK):
            digest.update(chunk)
    finally:
        os.close(fd)
    return digest.hexdigest() == sha256
