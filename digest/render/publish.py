"""Publishing a build atomically: build into a copy of the site, then swap the copy in.

``site_dir`` is a symbolic link to the published build, ``.<name>.builds/<n>`` beside it.
A build starts as a hard-link copy of the published one (no page is copied, only linked),
renders into it (every write replaces a file by a rename, and stale pages are unlinked, so
the published build's files are never changed in place) and is published by replacing the
link with ``rename(2)``, which is atomic: a reader, a web server or a Pages upload sees the
old site or the new one, never a mix. A crash or a failed build leaves the published site
as it was; the next build deletes the unfinished copy. The build published before the
current one is kept for readers that resolved the link just before the swap; older ones
are deleted.

Builds are serialised by the caller (the CLI holds the data lock); a build deletes the
unfinished copies it finds.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import shutil
from pathlib import Path

from digest.errors import StorageError
from digest.store import remove_orphans
from digest.text import count

log = logging.getLogger("digest")
_STAGING = "staging-"


class StagedSite:
    """A copy of the site at ``site_dir`` to build into and publish, or throw away."""

    def __init__(self, site_dir: Path) -> None:
        self.site_dir = site_dir
        self.builds = site_dir.parent / f".{site_dir.name}.builds"
        self.path: Path | None = None

    def begin(self) -> Path:
        """Delete unfinished copies and return a new copy of the published site to build in."""
        self.builds.mkdir(parents=True, exist_ok=True)
        for leftover in self.builds.glob(f"{_STAGING}*"):
            log.info("site: deleting %s, left by a build that did not finish", leftover)
            _remove(leftover)
        staging = self.builds / f"{_STAGING}{os.getpid()}"
        for link in self.site_dir.parent.glob(f".{self.site_dir.name}.link-*"):
            link.unlink(missing_ok=True)  # A new link a killed build never swapped in.
        if self.site_dir.is_dir():
            try:
                shutil.copytree(self.site_dir, staging, copy_function=_link_or_copy)
            except shutil.Error as error:
                raise _copy_failed(staging, error) from None
            # Temporary files of a killed writer: gone from the copy, so never published.
            remove_orphans(staging)
        else:
            staging.mkdir()
        self.path = staging
        return staging

    def finish(self, *, changed: bool) -> None:
        """Publish the copy, or throw it away when nothing ``changed`` and the layout is current."""
        if self.path is None:
            raise RuntimeError("finish() before begin()")
        staging, self.path = self.path, None
        if not changed and self._published() is not None:
            _remove(staging)
            return
        build = self.builds / str(max(self._numbers(), default=0) + 1)
        staging.rename(build)
        self._point_at(build)
        # This build, and the one before it for readers that resolved the link just before.
        self._prune(keep={str(n) for n in sorted(self._numbers())[-2:]})

    def abandon(self) -> None:
        """Throw the copy away, leaving the published site as it was."""
        if self.path is not None:
            _remove(self.path)
            self.path = None

    def _published(self) -> Path | None:
        """The build ``site_dir`` links to, or None (no site yet, or a plain folder)."""
        if not self.site_dir.is_symlink():
            return None
        target = self.site_dir.parent / self.site_dir.readlink()
        return target if target.parent == self.builds else None

    def _numbers(self) -> list[int]:
        """The numbers of the builds in the builds folder."""
        return [int(p.name) for p in self.builds.iterdir() if p.name.isdigit()]

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
        """Delete the numbered builds whose names are not in ``keep``."""
        for path in self.builds.iterdir():
            if path.name.isdigit() and path.name not in keep:
                _remove(path)


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


def _remove(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
