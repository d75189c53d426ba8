"""The build stamp: decides that nothing changed from file stats alone, without rendering.

A build writes ``<n>.stamp.json`` beside the build it publishes, ``<n>`` in the site's
builds folder (see :mod:`.publish`), never into the site itself, which is published as it
is: a hash of every input of the site (the render code, the templates, the settings shown
on pages, and the SHA-256 of every stored digest and collected day, as the store's indexes
list them) and what the build reported. The next build hashes the inputs again, which opens
no digest; when the hash, and the number of files in the published site, are the same, the
site is current and the build stops there. This module imports
nothing heavier than the settings, so such a build does not load Jinja2 or Markdown.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
from msgspec import Struct, field

import digest
from digest.config import Settings
from digest.errors import WireError
from digest.text import count

if TYPE_CHECKING:
    from digest.store import Store

#: Where earlier versions kept the stamp: inside the site, so it was published. A build
#: deletes it (the manifest does not know it).
LEGACY_NAME = ".wire-stamp.json"
FORMAT = 2
_PACKAGE = Path(digest.__file__).resolve().parent
#: A bucket's index entries as its hash reads them.
_ENTRIES = msgspec.json.Encoder()


class RenderReport(Struct, frozen=True):
    """What a build did; ``written`` and ``deleted`` are site-relative paths."""

    pages_written: int
    #: Re-rendered because an input changed, but the bytes came out the same.
    pages_unchanged: int
    #: Not rendered at all: same key as last build and the file is present.
    pages_skipped: int
    pages_deleted: int
    editions: int
    #: Digest files parsed because they were new or changed.
    digests_read: int
    #: Digests that could not be used (skipped, not fatal), one line each.
    problems: tuple[str, ...] = ()
    written: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()

    def __str__(self) -> str:
        """One log line: counts only (``written`` may list thousands of paths)."""
        return (
            f"{count(self.editions, 'edition')}, {count(self.digests_read, 'digest')} read; "
            f"pages: {self.pages_written} written, {self.pages_unchanged} unchanged, "
            f"{self.pages_skipped} skipped, {self.pages_deleted} deleted; "
            f"{count(len(self.problems), 'problem')}"
        )


def shipped_templates() -> Path:
    """Return the folder of the shipped templates: inside the package (wheel) or the repo root."""
    for candidate in (_PACKAGE / "templates", _PACKAGE.parent / "templates"):
        if (candidate / "base.html").is_file():
            return candidate
    raise WireError(f"shipped templates not found next to {_PACKAGE}; reinstall the-wire")


def code_version() -> str:
    """Return a hash of the package version and its code.

    All of it, not only the renderer's: pages also show text the summarize stage's helpers
    shape (a pull request's summary), and a new version must never leave old pages behind.
    """
    h = hashlib.sha256(digest.__version__.encode())
    for name in sorted(_modules(_PACKAGE)):
        h.update(name.encode() + b"\0")
        # os.read: a fifth faster than a buffered file for a hundred files a build.
        module = os.open(os.path.join(_PACKAGE, name), os.O_RDONLY)  # noqa: PTH118
        try:
            while chunk := os.read(module, 1 << 20):
                h.update(chunk)
        finally:
            os.close(module)
        h.update(b"\0")
    return h.hexdigest()


def _modules(root: Path) -> list[str]:
    """The ``.py`` files under ``root``, by path relative to it (with ``/``)."""
    # os.walk and plain strings: this runs at the start of every build, the one with
    # nothing to do included.
    found = []
    for folder, folders, names in os.walk(root):
        if "__pycache__" in folders:  # compiled modules only: not looked into
            folders.remove("__pycache__")
        relative = os.path.relpath(folder, root).replace(os.sep, "/")
        prefix = "" if relative == "." else f"{relative}/"
        found += [prefix + name for name in names if name.endswith(".py")]
    return found


def fingerprint(settings: Settings, code: str) -> str:
    """Return a hash of everything besides digests that shapes pages.

    It covers the templates as the site resolves them (an override folder's templates
    shadow the shipped ones, which stay reachable as ``shipped/<name>``), the settings that
    appear on pages and the code (``code``, from :func:`code_version`): changing any of
    them re-renders every page.
    """
    h = hashlib.sha256(code.encode())
    for name, path in sorted(templates(settings).items()):
        h.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    shown = {
        "site": {
            name: getattr(settings.site, name)
            for name in settings.site.__struct_fields__
            if name != "templates"  # a folder, hashed above by what it holds
        },
        # The rules too: they say which action items a topic's desk carries.
        "topics": [
            [t.slug, t.name, t.description, t.labels, t.paths, t.title_prefixes]
            for t in settings.topics
        ],
        "projects": [
            [p.key, p.shown, p.description, [(r.name, r.display_name) for r in p.repos]]
            for p in settings.projects
        ],
    }
    h.update(json.dumps(shown, sort_keys=True).encode())
    return h.hexdigest()


def templates(settings: Settings) -> dict[str, Path]:
    """Every template name the site can load, and the file it resolves to."""
    shipped = shipped_templates()
    found = {f"shipped/{name}": path for name, path in _files(shipped)}
    found |= dict(_files(shipped))
    override = settings.site.templates
    if override is not None:
        if not override.is_dir():
            raise WireError(f"site.templates: {override} is not a folder")
        found |= dict(_files(override))
    return found


def _files(root: Path) -> Iterator[tuple[str, Path]]:
    """(name relative to ``root`` with ``/``, path) of the files under ``root``."""
    for folder, _, names in os.walk(root):
        for name in names:
            path = Path(folder, name)
            yield path.relative_to(root).as_posix(), path


#: A file's stat as the build uses it: (mtime in ns, size, inode).
Stat = tuple[int, int, int]


class Inputs(Struct, frozen=True):
    """The hash of every input of the site, and the store's indexes it was made from."""

    hash: str
    #: The store's indexes (see :mod:`digest.store`): by folder of records
    #: (``digests/<slug>``, ``collected/<owner>/<repo>``), each file's SHA-256 and size.
    indexes: dict[str, dict[str, tuple[str, int]]]
    #: The files of each folder and year (``digests/<slug>/<year>``,
    #: ``collected/<owner>/<repo>/<year>``) and the hash of their entries: a build looks
    #: only at the files of the buckets whose hash changed.
    buckets: dict[str, Bucket] = field(default_factory=dict)

    def stat(self, name: str) -> Stat | None:
        """The :data:`Stat` of the file ``name`` (``digests/<slug>/<day>.json``...) as
        the indexes give it, ``(first 60 bits of the SHA-256, size, 0)``; None when it is
        not indexed."""
        folder, _, file = name.rpartition("/")
        found = self.indexes.get(folder, {}).get(file)
        return None if found is None else (int(found[0][:15], 16), found[1], 0)


class Bucket(Struct, frozen=True):
    """The files of one folder and year, and the hash of their index entries."""

    hash: str
    #: The folder and the names of the files in it, sorted.
    folder: str
    files: tuple[str, ...]

    @property
    def names(self) -> list[str]:
        """The files' paths in the data folder, sorted."""
        return [f"{self.folder}/{file}" for file in self.files]


def inputs(store: Store, fingerprint_: str) -> Inputs:
    """Hash ``fingerprint_`` and every stored digest and collected day, as the store's
    indexes list them (see :mod:`digest.store`).

    No record is opened or stat'ed: the indexes give each file's SHA-256 and size, so any
    change made through the store changes the hash (and a copy of the data folder with new
    file times changes nothing). The build reuses the indexed hashes as each file's
    :data:`Stat` (see :meth:`Inputs.stat`).
    """
    h = hashlib.sha256(fingerprint_.encode())
    indexes: dict[str, dict[str, tuple[str, int]]] = {}
    buckets: dict[str, Bucket] = {}
    for part in ("digests", "collected"):
        for folder, entries in store.index(part):
            indexes[folder] = entries
            # By year: the file name's first four characters.
            for year, group in groupby(sorted(entries), key=itemgetter(slice(0, 4))):
                files = tuple(group)
                text = _ENTRIES.encode({file: entries[file] for file in files})
                found = Bucket(hashlib.sha256(text).hexdigest(), folder, files)
                buckets[f"{folder}/{year}"] = found
                h.update(f"{folder}/{year} {found.hash}\n".encode())
        h.update(b"\0")
    return Inputs(h.hexdigest(), indexes, buckets)


def beside(build: Path) -> Path:
    """The stamp of the numbered ``build`` in the builds folder: a file beside it."""
    return build.parent / f"{build.name}.stamp.json"


def published(site: Path) -> Path | None:
    """The stamp of the build ``site`` links to, or None when ``site`` is not a link to a
    numbered build in its builds folder (no site yet, or one the Wire did not publish)."""
    try:
        target = site.parent / site.readlink()
    except OSError:
        return None
    if target.parent != site.parent / f".{site.name}.builds" or not target.name.isdigit():
        return None
    return beside(target)


def current(settings: Settings, stamp: str) -> tuple[RenderReport, int] | None:
    """The report of the published build, and how many files its site held, when it was
    made from inputs hashing ``stamp``; else None. (Whether the site still holds them is
    the caller's to check.)
    """
    where = published(settings.site_dir)
    if where is None:
        return None
    try:
        raw = json.loads(where.read_bytes())
        if raw.get("format") != FORMAT or raw.get("inputs") != stamp:
            return None
        report = RenderReport(
            pages_written=0,
            pages_unchanged=0,
            pages_skipped=int(raw["pages"]),
            pages_deleted=0,
            editions=int(raw["editions"]),
            digests_read=0,
            problems=tuple(str(p) for p in raw["problems"]),
        )
        return report, int(raw["files"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save(where: Path, stamp: str, report: RenderReport, files: int) -> bool:
    """Write at ``where`` (see :func:`beside`) the stamp of a build made from inputs hashing
    ``stamp``, whose site holds ``files`` files.

    Returns False when the file already held exactly this stamp.
    """
    from digest.store import write_atomic

    record = {
        "format": FORMAT,
        "inputs": stamp,
        "pages": report.pages_written + report.pages_unchanged + report.pages_skipped,
        "editions": report.editions,
        "problems": list(report.problems),
        "files": files,
    }
    return write_atomic(where, (json.dumps(record, sort_keys=True) + "\n").encode())
