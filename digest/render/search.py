"""The search index: Pagefind over the editions and the pull-request pages, one bundle a month.

Pagefind (PyPI ``pagefind[bin]`` ships its binary) reads the built pages and writes a static
index that the search page's script queries in the browser; nothing runs on a server. Only
the parts of pages marked ``data-pagefind-body`` are indexed: the editions' and
pull-request pages' articles.

Pagefind cannot add pages to an index it wrote: each run reads every page again. So the
index is split into independent *bundles*, one per calendar month, each built by its own
Pagefind run into its own folder (``pagefind/2026-08/``) over that month's pages only: its
editions and the pages of the changes they cite first. A pull-request page belongs to the
month of its first citing edition, which is also the day its page is read from (the
collected day that merged it): a change is merged once, so the page never moves to another
bundle once written; a later citer changes its bytes, and so its month's bundle, only.

Each bundle is keyed by the SHA-256 of its own pages' bytes (the manifest holds them) and of
Pagefind's version: a build remakes only the bundles whose pages changed, so adding a day
runs Pagefind over one month's pages however long the archive. The search page loads the
newest bundle as its main index and merges the others in the browser (Pagefind's
``mergeIndex``); merged indexes use the main one's code and WebAssembly, so only the newest
bundle carries them (:data:`RUNTIME`): the others hold their index data alone.

The files go through the build's :class:`Output` like every page: recorded in the manifest
with their hashes, in the group of their month (see :mod:`.manifest`), checked when a build
starts from a restored copy, and deleted when no longer made (a month whose editions are all
gone, the code of a bundle no longer newest). So a build looks only at the bundles of the
months it plans: those its changes reach, and (see :func:`replanned`) the newest month and
the one before when the newest changes, every month when Pagefind's version does.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import subprocess
import tempfile
from collections import defaultdict
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from msgspec import Struct

from digest.errors import WireError
from digest.render import urls
from digest.render.manifest import SITE_WIDE, Manifest, group_name, month_group

log = logging.getLogger("digest")
#: Edition pages (``rockets/2026-07-01.html``) and pull-request pages (``rockets/pr/…``).
_INDEXED = re.compile(r"[a-z0-9-]+/(?:\d{4}-\d{2}-\d{2}|pr/[^/]+)\.html")
#: A bundle's folder under :data:`urls.SEARCH_INDEX`: its month.
_MONTH = re.compile(r"\d{4}-\d{2}")
#: What the search page's browser needs besides the index: Pagefind's code, its default
#: UI and its WebAssembly. Kept in the newest bundle only.
RUNTIME = re.compile(r"pagefind(?:-worker|-ui)?\.(?:js|css)|wasm\.[a-z_-]+\.pagefind")
#: The index data of a bundle (what ``mergeIndex`` reads).
_DATA = re.compile(r"pagefind-entry\.json|pagefind\.[^/]+\.pf_meta|(?:index|fragment|filter)/.+")
#: Seconds one Pagefind run may take (a month of about 170 pages takes well under one).
TIMEOUT = 600
#: What the manifest records of the index: the version of Pagefind that made it ("" for no
#: index) and its newest month.
_VERSION, _NEWEST = "search version", "search newest"


class Bundle(Struct, frozen=True):
    """The index of one month's pages."""

    #: ``YYYY-MM``.
    month: str
    #: The SHA-256 of Pagefind's version and of the month's pages (paths and bytes).
    key: str
    #: The site paths of its pages, sorted.
    pages: tuple[str, ...]

    @property
    def folder(self) -> str:
        return folder(self.month)


class SearchPlan(Struct, frozen=True):
    """The bundles of the months planned (oldest first), and the files of the last build's
    index in those months."""

    bundles: tuple[Bundle, ...]
    #: The last build's index files and their keys ("" when not to be trusted).
    previous: dict[str, str]
    #: The newest month of the whole index (``YYYY-MM``): its bundle carries the code.
    newest: str
    #: The bundles to make again (see :meth:`to_build`).
    todo: tuple[Bundle, ...] = ()
    #: The paths of ``previous`` by bundle folder, sorted.
    by_folder: dict[str, tuple[str, ...]] = {}

    def kept(self, bundle: Bundle) -> list[str] | None:
        """The files of ``bundle`` as the last build made them, if they can be kept as they
        are (every one from its key, the newest bundle's with Pagefind's code); else None."""
        files = self.files(bundle)
        data = [p for p in files if not RUNTIME.fullmatch(p.removeprefix(bundle.folder + "/"))]
        runtime = sorted(set(files) - set(data))
        if not data or any(self.previous[p] != bundle.key for p in data):
            return None
        if bundle.month != self.newest:
            return data  # its code is no longer wanted: deleted as stale
        if not runtime or any(self.previous[p] != bundle.key for p in runtime):
            return None  # the newest bundle without its code: made again
        return files

    def files(self, bundle: Bundle) -> list[str]:
        """The last build's files of ``bundle``, sorted."""
        return list(self.by_folder.get(bundle.folder, ()))

    def to_build(
        self, present: AbstractSet[str], doubted: AbstractSet[str] = frozenset()
    ) -> tuple[Bundle, ...]:
        """The bundles to make again: not kept, or with a file not in ``present`` or one
        ``doubted``."""
        found = []
        for bundle in self.bundles:
            kept = self.kept(bundle)
            if kept is None or not present >= set(kept) or not doubted.isdisjoint(kept):
                found.append(bundle)
        return tuple(found)


def folder(month: str) -> str:
    """The folder of the bundle of ``month`` (``pagefind/2026-08``)."""
    return f"{urls.SEARCH_INDEX}/{month}"


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
    """What ``binary --version`` says (part of each bundle's key)."""
    try:
        done = subprocess.run(
            [binary, "--version"], capture_output=True, text=True, timeout=60, check=True
        )
    except (OSError, subprocess.SubprocessError) as error:
        raise WireError(f"search index: cannot run {binary}: {error}") from None
    return done.stdout.strip()


def replanned(state: Manifest, made: str, newest: str, known: set[int]) -> set[int]:
    """The groups of ``known`` (those with a page or an edition) whose bundles a build must
    look at besides those its changes reach, for an index made by Pagefind ``made`` ("" for
    no index) whose newest month is ``newest``: every group when the last index was made by
    another version (or it is turned on or off), else the old and new newest months when
    the newest changed (the code moves from one bundle to the other)."""
    if state.meta(_VERSION) != made:
        return known - {SITE_WIDE}
    old = state.meta(_NEWEST) or ""
    if not made or old == newest:
        return set()
    return {month_group(month) for month in (old, newest) if _MONTH.fullmatch(month)} & known


def record(state: Manifest, made: str, newest: str) -> None:
    """Record in ``state`` that the index is made by Pagefind ``made`` ("" for none), and
    its newest month."""
    state.set_meta(_VERSION, made)
    state.set_meta(_NEWEST, newest if made else "")


def newest_month(groups: Iterable[int]) -> str:
    """The newest month (``YYYY-MM``) of the month groups among ``groups``; "" for none."""
    months = [group for group in groups if group % 100]
    return group_name(max(months)) if months else ""


def plan(
    made: str, newest: str, pages: Iterable[tuple[str, str, str]], previous: Mapping[str, str]
) -> SearchPlan:
    """The plan for the bundles of ``pages`` ((path, SHA-256, ``YYYY-MM`` of its group) of
    every page of the months planned, as they will be) made by Pagefind ``made``, given the
    last build's page keys ``previous`` and the newest month of the whole index."""
    by_month: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for path, sha, month in pages:
        if indexed(path) and _MONTH.fullmatch(month):
            by_month[month].append((path, sha))
    bundles = []
    for month, found in sorted(by_month.items()):
        h = hashlib.sha256(f"{made}\0{month}\0".encode())
        for path, sha in sorted(found):
            h.update(f"{path}\0{sha}\0".encode())
        bundles.append(Bundle(month, h.hexdigest(), tuple(sorted(p for p, _ in found))))
    old = {p: k for p, k in previous.items() if of_index(p)}
    by_folder: dict[str, list[str]] = defaultdict(list)
    for path in sorted(old):
        by_folder["/".join(path.split("/")[:2])].append(path)
    grouped = {name: tuple(paths) for name, paths in by_folder.items()}
    return SearchPlan(tuple(bundles), old, newest, by_folder=grouped)


def build_bundles(
    binary: str, site_dir: Path, bundles: Iterable[Bundle], newest: str, workers: int = 1
) -> dict[str, bytes]:
    """Run Pagefind once per bundle of ``bundles`` over its pages in ``site_dir``, ``workers``
    runs at a time; return their files (site-relative path: bytes), Pagefind's code only in
    the ``newest`` month's."""
    todo = list(bundles)
    if not todo:
        return {}
    with ThreadPoolExecutor(max(1, min(workers, len(todo)))) as pool:
        built = pool.map(lambda b: build_bundle(binary, site_dir, b, b.month == newest), todo)
        return {path: data for files in built for path, data in files.items()}


def build_bundle(binary: str, site_dir: Path, bundle: Bundle, runtime: bool) -> dict[str, bytes]:
    """Run Pagefind over the pages of ``bundle`` in ``site_dir``; return the bundle's files
    (site-relative path: bytes), with Pagefind's code when ``runtime``."""
    with tempfile.TemporaryDirectory(prefix=".pagefind-", dir=site_dir.parent) as tmp:
        # Pagefind reads a folder: one holding only this month's pages, at their paths
        # (so their URLs), linked rather than copied. A symbolic link, not a hard one: a hard
        # link changes the page's inode (its change time), and the next build's check of
        # the site would read every page again (see verify.check_site).
        source = Path(tmp) / "site"
        for page in bundle.pages:
            target = source / page
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                if not (site_dir / page).is_file():
                    raise FileNotFoundError(page)
                target.symlink_to((site_dir / page).resolve())
            except FileNotFoundError:
                log.warning(
                    "search index: %s is missing; %s is made without it", page, bundle.month
                )
            except OSError:
                shutil.copyfile(site_dir / page, target)
        out = Path(tmp) / "out"
        command = [binary, "--site", str(source), "--output-path", str(out), "--silent"]
        env = {**os.environ, "PAGEFIND_SOURCE": str(source)}
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
            if not path.is_file():
                continue
            inside = path.relative_to(out).as_posix()
            name = f"{bundle.folder}/{inside}"
            wanted = _DATA.fullmatch(inside) or (runtime and RUNTIME.fullmatch(inside))
            if wanted and urls.is_page_path(name):
                files[name] = path.read_bytes()
            else:
                log.debug("search index: %s left out", name)
        return files
