"""Publishing a build atomically: build into a copy of the site, then swap the copy in.

``site_dir`` is a symbolic link to the published build, ``.<name>.builds/<n>`` beside it.
A build starts as a hard-link copy of the published one (no page is copied, only linked),
renders into it (every write replaces a file by a rename, and stale pages are unlinked, so
the published build's files are never changed in place) and is published by replacing the
link with ``rename(2)``, which is atomic: a reader, a web server or a Pages upload sees the
old site or the new one, never a mix. A crash or a failed build leaves the published site
as it was; the next build deletes the unfinished copy. The build published before the
current one is kept for readers that resolved the link just before the swap; older ones
are deleted. Each build records the pages it changed, so the next build starts from the
build before last caught up with them, rather than from a copy of every page.

Builds are serialised by the caller (the CLI holds the site lock, see :mod:`digest.lock`);
a build deletes the unfinished copies it finds. What it copies may come from a restored
cache: the build checks every file before keeping any (see :mod:`.verify`), and never
follows a link found there: the Wire makes one link, ``site_dir`` to a numbered build, so
a builds folder, a build or a folder in a build that is a link is not the Wire's (it could
lead the build to write or delete outside the site). The copy is trusted without its files
being looked at only when the build before last and the published one are both, folder by
folder, the very builds the manifest says were left there (see :mod:`.verify`).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from digest.errors import StorageError
from digest.render.urls import is_page_path
from digest.store import remove_orphans
from digest.text import count

if TYPE_CHECKING:
    from digest.render.verify import Vouched

log = logging.getLogger("digest")
_STAGING = "staging-"
#: The build manifest's file in the builds folder (see :mod:`.manifest`).
MANIFEST = "manifest.sqlite"
#: Beside build ``<n>``: what it changed in the copy it started from (see ``finish``).
_CHANGES = "{}.changes.json"
#: Beside build ``<n>``: its stamp (see :mod:`.stamp`).
_STAMP = "{}.stamp.json"
#: The files earlier versions kept in a build besides its pages: the stamp and the manifest.
_BOOKKEEPING = (".wire-stamp.json", ".wire-manifest.json")


class StagedSite:
    """A copy of the site at ``site_dir`` to build into and publish, or throw away."""

    def __init__(self, site_dir: Path) -> None:
        self.site_dir = site_dir
        self.builds = site_dir.parent / f".{site_dir.name}.builds"
        self.manifest = self.builds / MANIFEST
        #: What builds keep to go faster (fragments); never published, and outside the
        #: builds folder, which a CI job saves and restores (README, *Deploy*): a restored
        #: fragment would go into pages unchecked.
        self.cache = site_dir.parent / f".{site_dir.name}.cache"
        self.path: Path | None = None
        #: The build the copy was made from (None: made from nothing or a plain folder).
        self.origin: str | None = None
        #: The build before last, when the copy is it caught up (see :func:`_catch_up`).
        self.recycled: str | None = None
        #: The published build as it was left, when the copy is trusted to hold what it
        #: holds without its files being looked at (see :meth:`begin`); and the folders
        #: the copy may hold then.
        self.trusted: Vouched | None = None
        self.folders: frozenset[str] = frozenset()
        #: Whether the published build is as the last build left it when the copy is made
        #: (None: the manifest does not say how it was left).
        self.published_as_left: bool | None = None

    def prepare(self) -> None:
        """Make the builds folder one the Wire can use (a folder, not a link) and delete
        the copies that killed builds left in it."""
        if self.builds.is_symlink():
            self.builds.unlink()  # not the Wire's: start afresh
        self.builds.mkdir(parents=True, exist_ok=True)
        self.discard_leftovers()

    def begin(self, left: Mapping[str, Vouched] | None = None, *, trust: bool = True) -> Path:
        """Delete unfinished copies and return a new copy of the published site to build in.

        ``left`` says, by name, how the builds of the builds folder were left (see
        :mod:`.verify`): with ``trust``, when the build before last and the published one
        are both as left, the copy (the first caught up with the second) is trusted.
        """
        from digest.render.verify import as_left

        self.prepare()
        staging = self.builds / f"{_STAGING}{os.getpid()}"
        published = self._published()
        spare = self._spare(published)
        self.origin = published.name if published is not None else None
        self.recycled = None
        self.trusted = None
        self.folders = frozenset()
        left = left or {}
        # Looked at before the spare is renamed and caught up (which changes its folders).
        now = left.get(published.name) if published is not None else None
        self.published_as_left = None
        if published is not None and now is not None:
            self.published_as_left = as_left(published, now)
        trusted, folders = None, frozenset[str]()
        if spare is not None and now is not None and self.published_as_left and trust:
            before = left.get(spare.name)
            if as_left(spare, before) and before is not None:
                trusted, folders = now, frozenset({*now.folders, *before.folders})
        if published is not None and spare is not None and _catch_up(spare, published, staging):
            self.recycled = spare.name
            self.trusted, self.folders = trusted, folders
        elif published is not None or (self.site_dir.is_dir() and not self.site_dir.is_symlink()):
            try:
                # Links are copied as links, never followed (the check deletes them).
                source = published or self.site_dir
                shutil.copytree(source, staging, symlinks=True, copy_function=_link_or_copy)
            except shutil.Error as error:
                raise _copy_failed(staging, error) from None
            # Temporary files of a killed writer: gone from the copy, so never published.
            remove_orphans(staging)
        else:
            staging.mkdir()
        self.path = staging
        return staging

    def _spare(self, published: Path | None) -> Path | None:
        """The build published before ``published``: recycled as the next copy."""
        if published is None or not published.name.isdigit():
            return None
        older = [n for n in self._numbers() if n < int(published.name)]
        return self.builds / str(max(older)) if older else None

    def discard_leftovers(self) -> None:
        """Delete the copies and links that killed builds left behind, and any link in the
        builds folder (the Wire makes none there)."""
        if not self.builds.is_dir() or self.builds.is_symlink():
            return
        for entry in self.builds.iterdir():
            if entry.is_symlink():
                entry.unlink()
            elif entry.name.startswith(_STAGING):
                log.info("site: deleting %s, left by a build that did not finish", entry)
                _remove(entry)
        for link in self.site_dir.parent.glob(f".{self.site_dir.name}.link-*"):
            link.unlink(missing_ok=True)  # A new link a killed build never swapped in.
        # Where earlier versions kept compiled templates and fragments: never read now.
        _remove(self.builds / "cache")

    def finish(self, *, changed: bool, paths: Sequence[str] = ()) -> Path | None:
        """Publish the copy, or, when nothing ``changed`` and the layout is current, put it
        back as the build before last (when it was that build, caught up) or throw it away;
        return where the copy is now (None: thrown away).

        ``paths`` are the pages the build wrote or deleted in the copy: recorded with the
        build, they let the next build but one catch this build's copy up (see
        :func:`_catch_up`) without comparing every page.
        """
        if self.path is None:
            raise RuntimeError("finish() before begin()")
        staging, self.path = self.path, None
        if not changed and self._published() is not None:
            # The build before last, caught up: put back rather than deleted, which would
            # unlink every page it shares with the published build and so change their
            # change times (the next check would read every page, see .verify).
            if self.recycled is not None and _renamed(staging, self.builds / self.recycled):
                return self.builds / self.recycled
            _remove(staging)
            return None
        build = self.next_build()
        # Beside the build, not in it: it is not part of the site. Without it (a crash just
        # after the rename) the next build but one copies every page instead.
        record = {"from": self.origin, "changed": sorted(paths)}
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        changes_record(build).write_text(text, encoding="utf-8")
        # Pages are written without an fsync each (see .output): one flush makes the whole
        # build durable before the link points at it.
        os.sync()
        staging.rename(build)
        self._point_at(build)
        # This build, and the one before it for readers that resolved the link just before.
        self._prune(keep={str(n) for n in sorted(self._numbers())[-2:]})
        return build

    def kept(self) -> list[str]:
        """The names of the numbered builds in the builds folder."""
        return [str(n) for n in sorted(self._numbers())]

    def abandon(self) -> None:
        """Throw the copy away, leaving the published site as it was."""
        if self.path is not None:
            _remove(self.path)
            self.path = None

    def next_build(self) -> Path:
        """Where :meth:`finish` will publish the copy, when it publishes it."""
        return self.builds / str(max(self._numbers(), default=0) + 1)

    def published(self) -> Path | None:
        """The build ``site_dir`` links to, or None (see :meth:`_published`)."""
        return self._published()

    def _published(self) -> Path | None:
        """The build ``site_dir`` links to, or None (no site yet, a plain folder, or a link
        to anything but a numbered build in the builds folder)."""
        if not self.site_dir.is_symlink():
            return None
        target = self.site_dir.parent / self.site_dir.readlink()
        if target.parent != self.builds or not target.name.isdigit() or target.is_symlink():
            return None
        return target if target.is_dir() else None

    def _numbers(self) -> list[int]:
        """The numbers of the builds in the builds folder (folders, not links)."""
        return [
            int(p.name)
            for p in self.builds.iterdir()
            if p.name.isdigit() and not p.is_symlink() and p.is_dir()
        ]

    def _point_at(self, build: Path) -> None:
        """Make ``site_dir`` a link to ``build`` in one rename."""
        link = self.site_dir.parent / f".{self.site_dir.name}.link-{os.getpid()}"
        link.unlink(missing_ok=True)
        link.symlink_to(build.relative_to(self.site_dir.parent), target_is_directory=True)
        if self.site_dir.is_dir() and not self.site_dir.is_symlink():
            # A site built before builds were staged: moved aside once (not atomic); it
            # becomes build 0, kept as the previous build until the next one.
            self.site_dir.rename(self.builds / "0")
        link.replace(self.site_dir)

    def _prune(self, keep: set[str]) -> None:
        """Delete the numbered builds whose names are not in ``keep``, and their records."""
        for path in self.builds.iterdir():
            number = path.name.removesuffix(_CHANGES.format("")).removesuffix(_STAMP.format(""))
            if number.isdigit() and number not in keep:
                _remove(path) if path.is_dir() else path.unlink(missing_ok=True)


def changes_record(build: Path) -> Path:
    """The record beside ``build`` of the pages it changed in the copy it was made from."""
    return build.parent / _CHANGES.format(build.name)


def _catch_up(spare: Path, published: Path, staging: Path) -> bool:
    """Turn the build before last, ``spare``, into a copy of ``published`` at ``staging``.

    ``published`` was made from a copy of ``spare`` and its record beside it lists the pages
    it changed (see :meth:`StagedSite.finish`): those, and the bookkeeping files, become links to
    the published files. Far cheaper than copying every page of a large site. Returns
    False, changing nothing, when the record is missing, unreadable or says ``published``
    was made from another build; a spare left half caught up by a killed build is a
    leftover copy, deleted by the next.
    """
    where = changes_record(published)
    try:
        if where.is_symlink() or not where.is_file():
            return False  # not the Wire's record (a link to a device would never end)
        record = json.loads(where.read_bytes())
        changed = [str(path) for path in record["changed"]]
        origin = record["from"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    if origin != spare.name:
        return False
    spare.rename(staging)
    for path in sorted({*changed, *_BOOKKEEPING}):
        if not is_page_path(path) and path not in _BOOKKEEPING:
            continue  # the record is data on disk: never follow it outside the site
        if _through_link(staging, path) or _through_link(published, path):
            continue  # a folder is a link: left to the check, which deletes it
        target = staging / path
        target.unlink(missing_ok=True)
        source = published / path
        if source.is_file() and not source.is_symlink():
            target.parent.mkdir(parents=True, exist_ok=True)
            _link_or_copy(str(source), str(target))
    return True


def _through_link(root: Path, path: str) -> bool:
    """Whether a folder on the way from ``root`` to ``root / path`` is a link."""
    folder = (root / path).parent
    while folder != root:
        if folder.is_symlink():
            return True
        folder = folder.parent
    return False


def _link_or_copy(source: str, target: str) -> None:
    """Hard-link ``source`` at ``target``; copy it where the file system has no hard links."""
    try:
        os.link(source, target)
    except OSError as error:
        if error.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP):
            raise
        shutil.copy2(source, target)


def _copy_failed(staging: Path, error: shutil.Error) -> StorageError:
    """The one-line error for a copy of the site that failed on one file or many."""
    failures = error.args[0] if error.args and isinstance(error.args[0], list) else []
    if not failures:
        return StorageError(staging, error)
    _source, target, why = failures[0]
    # ``why`` is str(OSError): "[Errno 13] Permission denied: '/path'"; keep the reason only.
    reason = re.sub(r"^\[Errno \d+\] ([^:]+).*$", r"\1", str(why))
    if len(failures) > 1:
        reason += f" (and {count(len(failures) - 1, 'other file')})"
    return StorageError(target, error, reason)


def _renamed(path: Path, target: Path) -> bool:
    """Rename ``path`` to ``target``; False, leaving both as they were, when it cannot."""
    try:
        path.rename(target)
    except OSError:
        return False
    return True


def _remove(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
