"""Writing pages: skip the ones whose key is unchanged, write the rest off the main thread.

Rendering is CPU work and writing (temporary file, fsync, rename) is mostly waiting, so
writes go to a few threads while the next page renders.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from digest.errors import WireError
from digest.store import write_atomic

WRITERS = 4
#: Rendered pages waiting to be written, at most (bounds memory on a full build).
BACKLOG = 64


class Output:
    """Writes the pages whose key changed into ``site_dir`` and tallies what it did."""

    def __init__(self, site_dir: Path, previous: Mapping[str, str]) -> None:
        self.site_dir = site_dir
        self.previous = previous
        #: Every page of this build and its key.
        self.keys: dict[str, str] = {}
        #: Pages known to be on disk as rendered from their key.
        self.done: dict[str, str] = {}
        #: Pages this build rendered or tried to render.
        self.attempted: set[str] = set()
        self.written: list[str] = []
        self.unchanged = 0
        self.skipped = 0
        self._pool = ThreadPoolExecutor(WRITERS, thread_name_prefix="wire-write")
        self._room = threading.BoundedSemaphore(BACKLOG)
        self._pending: list[tuple[str, str, Future[bool]]] = []

    def page(self, path: str, key: str, render: Callable[[], bytes | None]) -> None:
        """Render and write ``path`` unless it is on disk with the same ``key``.

        ``render`` returns None when its input vanished; the page is then left as is
        and retried on the next build. Raises WireError when two pages claim ``path``.
        """
        self._claim(path, key)
        target = self.site_dir / path
        if self.previous.get(path) == key and target.is_file():
            self.skipped += 1
            self.done[path] = key
            return
        self.attempted.add(path)
        data = render()
        if data is None:
            return
        self._room.acquire()
        future = self._pool.submit(write_atomic, target, data)
        future.add_done_callback(lambda _: self._room.release())
        self._pending.append((path, key, future))

    def keep(self, path: str) -> None:
        """Leave ``path`` as the last build made it (its input cannot be read now)."""
        key = self.previous.get(path, "")
        self._claim(path, key)
        if key:
            self.done[path] = key

    def _claim(self, path: str, key: str) -> None:
        """Register ``path`` as a page of this build; raise WireError if it is one already."""
        if path in self.keys:
            raise WireError(f"two pages of the site would be {path}; rename a project or topic")
        self.keys[path] = key

    def finish(self, *, strict: bool = True) -> None:
        """Wait for every write and tally it; re-raise the first failure when ``strict``."""
        self._pool.shutdown(wait=True)
        failure: BaseException | None = None
        for path, key, future in self._pending:
            error = future.exception()
            if error is not None:
                failure = failure or error
                continue
            if future.result():
                self.written.append(path)
            else:
                self.unchanged += 1
            self.done[path] = key
        self._pending.clear()
        if strict and failure is not None:
            raise failure

    def remove_stale(self) -> list[str]:
        """Delete the pages of the previous build that this build no longer makes."""
        removed = []
        root = self.site_dir.resolve()
        for path in sorted(set(self.previous) - set(self.keys)):
            target = (self.site_dir / path).resolve()
            # The manifest is data on disk: never let it point outside the site, or at
            # anything but a page of the shape the Wire writes.
            if not target.is_relative_to(root) or target == root or not is_page_path(path):
                continue
            target.unlink(missing_ok=True)
            removed.append(path)
            for parent in target.parents:
                if parent == root or not parent.is_relative_to(root) or any(parent.iterdir()):
                    break
                parent.rmdir()
        return removed


# Pull-request pages take the repository's name (``pr/Org-repo.js-12.html``) and feeds have
# JSON twins; segments never start with a dot. The one text file is robots.txt.
_PAGE = re.compile(
    r"(?:[A-Za-z0-9][A-Za-z0-9._-]*/){0,2}[A-Za-z0-9][A-Za-z0-9._-]*\.(?:html|xml|css|json)"
    r"|robots\.txt"
)


def is_page_path(path: str) -> bool:
    """True when ``path`` has the shape of a page the Wire writes (``slug/2026-07-01.html``).

    No hidden names, no ``..``, no absolute path, at most two folders; ``.html``, ``.xml``,
    ``.css`` or ``.json``; or ``robots.txt``.
    """
    return bool(_PAGE.fullmatch(path))
