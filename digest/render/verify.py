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

The manifest comes from the same cache: this finds pages that differ from it, not a
manifest rewritten to match them.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
from collections.abc import Collection, Mapping, Sequence
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct

from digest.text import count

if TYPE_CHECKING:
    from digest.render.output import Output

log = logging.getLogger("digest")
#: Paths named in the log line, at most.
_NAMED = 5
#: Bytes read at a time: most pages in one read.
_CHUNK = 1 << 20


class Checked(Struct, frozen=True):
    """What :func:`check_site` found in the site (site-relative paths)."""

    #: The regular files left in the site.
    present: set[str]
    #: Of those, the ones the manifest does not vouch for.
    suspect: set[str]
    #: What was deleted at once: links and other files that are not regular files.
    removed: list[str]
    #: The files read and found holding their recorded bytes, and how they were seen
    #: (``inode:ctime_ns:size``), for the manifest.
    observed: dict[str, str] = {}


def check_site(
    site_dir: Path, recorded: Mapping[str, str], own: Collection[str], seen: Mapping[str, str]
) -> Checked:
    """Check the files of ``site_dir`` against ``recorded`` (path: SHA-256 of the bytes the
    last build wrote), reading those not ``seen`` so before; the build's ``own`` files
    (rewritten by every build) pass."""
    checked = Checked(set(), set(), [], {})
    _check_folder(str(site_dir), "", recorded, seen, own, checked)
    checked.removed.sort()
    return checked


def stat_of(stat: os.stat_result) -> str:
    """How a file is seen: ``inode:ctime_ns:size``."""
    return f"{stat.st_ino}:{stat.st_ctime_ns}:{stat.st_size}"


def intact(site_dir: Path, manifest: Path, own: Collection[str]) -> bool:
    """Whether every file of the published ``site_dir`` is a page as the ``manifest`` file
    records it, or one of the build's ``own`` files; reads, never changes, either."""
    try:
        uri = f"{manifest.resolve().as_uri()}?mode=ro"
        with closing(sqlite3.connect(uri, uri=True)) as db:
            db.execute("PRAGMA trusted_schema = OFF")
            recorded = dict(db.execute("SELECT path, sha256 FROM pages"))
            seen = dict(db.execute("SELECT path, stat FROM seen"))
        checked = Checked(set(), set(), [], {})
        _check_folder(str(site_dir), "", recorded, seen, own, checked, dry=True)
    except (OSError, sqlite3.Error, ValueError):
        return False
    return not checked.suspect and not checked.removed


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


def _check_folder(
    folder: str,
    prefix: str,
    recorded: Mapping[str, str],
    seen: Mapping[str, str],
    own: Collection[str],
    into: Checked,
    *,
    dry: bool = False,
) -> None:
    """Check the files under ``folder`` (``prefix`` in the site); unless ``dry``, delete
    what is not a regular file."""
    with os.scandir(folder) as scan:
        entries = list(scan)
    for entry in entries:
        path = prefix + entry.name
        if entry.is_dir(follow_symlinks=False):
            _check_folder(entry.path, f"{path}/", recorded, seen, own, into, dry=dry)
        elif entry.is_file(follow_symlinks=False):
            into.present.add(path)
            if path in own:
                continue
            sha = recorded.get(path)
            if not sha:
                into.suspect.add(path)
                continue
            now = stat_of(entry.stat(follow_symlinks=False))
            if seen.get(path) == now:
                continue  # the very file found holding these bytes before
            if _holds(entry.path, sha):
                into.observed[path] = now
            else:
                into.suspect.add(path)
        else:  # a link (to anywhere), a pipe, a socket...
            if not dry:
                Path(entry.path).unlink()
            into.removed.append(path)


def _holds(path: str, sha256: str | None) -> bool:
    """Whether the file at ``path`` holds bytes whose SHA-256 is ``sha256`` (hex)."""
    if not sha256:
        return False
    # One open and one read a page, no Path and no buffered file: this runs for every
    # file of the site (5,600 at 1,000 editions).
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        digest = hashlib.sha256()
        while chunk := os.read(fd, _CHUNK):
            digest.update(chunk)
    finally:
        os.close(fd)
    return digest.hexdigest() == sha256
