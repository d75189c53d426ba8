"""The build manifest: what the last build read and wrote, so the next one can do less.

It records, per digest file, its (mtime_ns, size, sha256) and listing entry, and per
output page the key (a hash of the page's inputs) it was rendered from. A missing,
corrupt or foreign manifest reads as empty, which means a full build.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from digest.render.stamp import MANIFEST
from digest.render.views import Entry
from digest.store import write_atomic

NAME = MANIFEST
FORMAT = 2


@dataclass(frozen=True)
class DigestRecord:
    """One digest file as last seen: its stat, its hash and its listing entry."""

    mtime_ns: int
    size: int
    entry: Entry


@dataclass(frozen=True)
class CollectedDay:
    """A collected repository-day file as last seen, and the pull requests it holds."""

    mtime_ns: int
    size: int
    #: Of the file's bytes: a copy of the data folder (a fresh checkout) changes every
    #: file's mtime, not what a page of its pull requests shows.
    sha256: str
    numbers: frozenset[int]


@dataclass
class Manifest:
    """Digest records keyed by ``slug/YYYY-MM-DD`` and page keys keyed by site path."""

    #: Hash of the render code; records made by other code are not trusted.
    code: str
    digests: dict[str, DigestRecord] = field(default_factory=dict)
    pages: dict[str, str] = field(default_factory=dict)
    #: Collected repository-days by data path, so a build parses only the ones that
    #: changed to know which pull requests have pages.
    collected: dict[str, CollectedDay] = field(default_factory=dict)


def read(site_dir: Path) -> Any:
    """The manifest in ``site_dir`` as parsed JSON; None when absent or not JSON."""
    try:
        return json.loads((site_dir / NAME).read_bytes())
    except (OSError, ValueError):
        return None


def load(site_dir: Path, code: str, raw: Any = None) -> Manifest:
    """Return the manifest in ``site_dir``; empty when absent or unreadable.

    ``raw`` is the manifest already parsed (see :func:`read`), so it is not read twice.
    Page keys are kept whatever the code (they drive deleting stale pages, and a key
    never matches across code changes); digest records only when ``code`` matches.
    """
    if raw is None:
        raw = read(site_dir)
    try:
        pages = _pages(raw["pages"])
    except (KeyError, TypeError):
        return Manifest(code)
    manifest = Manifest(code, pages=pages)
    if raw.get("format") != FORMAT or raw.get("code") != code:
        return manifest
    try:
        manifest.digests = {
            str(key): DigestRecord(int(r["mtime_ns"]), int(r["size"]), Entry.from_json(r["entry"]))
            for key, r in raw["digests"].items()
        }
    except (AttributeError, ValueError, KeyError, TypeError):
        manifest.digests = {}
    try:
        manifest.collected = {
            str(path): CollectedDay(int(m), int(size), str(sha), frozenset(map(int, numbers)))
            for path, (m, size, sha, numbers) in raw.get("collected", {}).items()
        }
    except (AttributeError, ValueError, TypeError):
        manifest.collected = {}
    return manifest


def _pages(raw: Any) -> dict[str, str]:
    if not isinstance(raw, dict):
        raise TypeError("pages is not a mapping")
    return {str(path): str(key) for path, key in raw.items()}


def save(site_dir: Path, manifest: Manifest) -> bool:
    """Write ``manifest`` into ``site_dir`` atomically and deterministically.

    Returns False when the file already held exactly these bytes.
    """
    data = {
        "format": FORMAT,
        "code": manifest.code,
        "digests": {
            key: {"mtime_ns": r.mtime_ns, "size": r.size, "entry": r.entry.to_json()}
            for key, r in manifest.digests.items()
        },
        "pages": manifest.pages,
        "collected": {
            path: [day.mtime_ns, day.size, day.sha256, sorted(day.numbers)]
            for path, day in manifest.collected.items()
        },
    }
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return write_atomic(site_dir / NAME, (text + "\n").encode())


def merged(old: Mapping[str, str], new: Mapping[str, str], attempted: set[str]) -> dict[str, str]:
    """Return page keys after an interrupted build: ``new`` wins, attempted pages drop out."""
    kept = {path: key for path, key in old.items() if path not in attempted}
    return kept | dict(new)
