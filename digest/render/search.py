"""The search index: Pagefind over the editions and the pull-request pages.

Pagefind (PyPI ``pagefind[bin]`` ships its binary) reads the built pages and writes a static
index, ``pagefind/``, that the search page's script queries in the browser; nothing runs
on a server. Only the parts of pages marked ``data-pagefind-body`` are indexed: the
editions' and pull-request pages' articles.

Pagefind cannot add pages to an index it wrote: each run reads every page again. So the
index is keyed by the SHA-256 of every indexed page's bytes (the manifest holds them): a
build that changed no edition or pull-request page keeps the index as it is, without
running Pagefind; one that changed any runs it over the whole site. Its files go through
the build's :class:`Output` like every page: recorded in the manifest with their hashes,
checked when a build starts from a restored copy, and deleted when no longer made.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from msgspec import Struct

from digest.errors import WireError
from digest.render import urls

log = logging.getLogger("digest")
#: Edition pages (``rockets/2026-07-01.html``) and pull-request pages (``rockets/pr/…``).
_INDEXED = re.compile(r"[a-z0-9-]+/(?:\d{4}-\d{2}-\d{2}|pr/[^/]+)\.html")
#: Seconds Pagefind may take (about 15 s for 6,000 pages on a busy 2-core machine).
TIMEOUT = 600


class SearchPlan(Struct, frozen=True):
    """What the build does with the index: its key, and the files of the last index."""

    key: str
    #: The last build's index files and their keys.
    previous: dict[str, str]

    @property
    def unchanged(self) -> bool:
        return bool(self.previous) and all(k == self.key for k in self.previous.values())


def of_index(path: str) -> bool:
    """Whether ``path`` is a file of the search index."""
    return path.startswith(f"{urls.SEARCH_INDEX}/")


def indexed(path: str) -> bool:
    """Whether the page at ``path`` is one the index covers."""
    return bool(_INDEXED.fullmatch(path))


def executable() -> str | None:
    """The Pagefind binary: the one ``pagefind[bin]`` installed, else one on PATH."""
    try:
        import pagefind_bin  # type: ignore[import-untyped]

        return str(pagefind_bin.get_executable())
    except (ImportError, FileNotFoundError):
        return shutil.which("pagefind")


def version(binary: str) -> str:
    """What ``binary --version`` says (part of the index's key)."""
    try:
        done = subprocess.run(
            [binary, "--version"], capture_output=True, text=True, timeout=60, check=True
        )
    except (OSError, subprocess.SubprocessError) as error:
        raise WireError(f"search index: cannot run {binary}: {error}") from None
    return done.stdout.strip()


def plan(binary: str, pages: Iterable[tuple[str, str]], previous: Mapping[str, str]) -> SearchPlan:
    """The plan for an index of ``pages`` ((path, SHA-256) of every page of the site, as it
    will be), given the last build's page keys ``previous``."""
    h = hashlib.sha256(version(binary).encode())
    for path, sha in sorted(pages):
        if indexed(path):
            h.update(f"{path}\0{sha}\0".encode())
    old = {p: k for p, k in previous.items() if of_index(p)}
    return SearchPlan(h.hexdigest(), old)


def build_index(binary: str, site_dir: Path) -> dict[str, bytes]:
    """Run Pagefind over ``site_dir``; return the index's files (site-relative path: bytes)."""
    with tempfile.TemporaryDirectory(prefix=".pagefind-", dir=site_dir.parent) as tmp:
        out = Path(tmp) / urls.SEARCH_INDEX
        command = [binary, "--site", str(site_dir), "--output-path", str(out), "--silent"]
        env = {**os.environ, "PAGEFIND_SOURCE": str(site_dir)}
        try:
            subprocess.run(
                command, capture_output=True, text=True, timeout=TIMEOUT, check=True, env=env
            )
        except subprocess.CalledProcessError as error:
            detail = (error.stderr or error.stdout or "").strip().splitlines()[-1:]
            raise WireError(f"search index: Pagefind failed: {' '.join(detail)}") from None
        except (OSError, subprocess.SubprocessError) as error:
            raise WireError(f"search index: cannot run Pagefind: {error}") from None
        files = {}
        for path in sorted(out.rglob("*")):
            if path.is_file():
                name = f"{urls.SEARCH_INDEX}/{path.relative_to(out).as_posix()}"
                if urls.is_page_path(name):
                    files[name] = path.read_bytes()
                else:
                    log.debug("search index: %s left out (not a shape the site publishes)", name)
        return files
