"""Writing pages: skip the ones whose key is unchanged, render the rest, on both cores if many.

Pages are offered with a key hashing their inputs; a page whose key matches the last
build's and whose file is present (and was checked to hold what that build wrote, see
:mod:`.verify`) is skipped. The others are rendered when the build
calls :meth:`Output.finish`: in this process, or, for a large build, in forked worker
processes that each render and write a contiguous share of them. Every page is a pure
function of its inputs, so the bytes are the same either way.

Pages are written into a private copy of the site (see :mod:`.publish`) that nobody
reads until it is published, so a page is replaced by unlinking the old file (which may
be a hard link shared with the published build) and writing a new one: no temporary
file and no ``fsync`` per page; the copy is flushed to disk once, before it is published.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable, Mapping, MutableSet, Sequence
from pathlib import Path

from msgspec import Struct

from digest.errors import StorageError, WireError
from digest.render.urls import is_page_path

#: Pages to render below which worker processes are not worth starting.
PARALLEL_MIN = 400
#: Shares per worker: small enough to balance pages of uneven cost.
SHARES_PER_WORKER = 4
#: How a page's file is created: never over an existing file, not inherited by a child.
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)

Render = Callable[[], bytes | None]


class _Job(Struct, frozen=True):
    path: str
    key: str
    render: Render
    #: Whether a file was at ``path`` when the build started.
    present: bool


#: What became of one job: "written", "unchanged" or "vanished" (its input is gone), the
#: SHA-256 of the page's bytes ("" when vanished) and, for a file written, how it is seen
#: (``inode:ctime_ns:size``, see :mod:`.verify`; "" otherwise).
Outcome = tuple[str, str, str]


class Output:
    """Decides which pages of ``site_dir`` to render, renders them and tallies what it did."""

    def __init__(
        self,
        site_dir: Path,
        previous: Mapping[str, str],
        workers: int = 0,
        present: MutableSet[str] | None = None,
        recorded: Mapping[str, str] | None = None,
    ) -> None:
        """``previous`` are the last build's keys of the pages that may be offered and
        ``recorded`` the SHA-256 of their bytes; ``present`` the files under ``site_dir``
        (listed here when not given)."""
        self.site_dir = site_dir
        self.previous = previous
        self.recorded = recorded or {}
        self.workers = workers or usable_cores()
        #: Every page of this build and its key.
        self.keys: dict[str, str] = {}
        #: Pages known to be on disk as rendered from their key ("": to be rendered again).
        self.done: dict[str, str] = {}
        #: The SHA-256 of the bytes of each page of ``done``.
        self.sums: dict[str, str] = {}
        #: How each file this build wrote is seen (see :mod:`.verify`).
        self.seen: dict[str, str] = {}
        #: Pages this build rendered or tried to render.
        self.attempted: set[str] = set()
        self.written: list[str] = []
        self.unchanged = 0
        self.skipped = 0
        self._present = files_under(site_dir) if present is None else present
        self._jobs: list[_Job] = []

    def page(self, path: str, key: str, render: Render) -> None:
        """Have ``path`` rendered by ``render`` unless it is on disk with the same ``key``.

        ``render`` returns None when its input vanished; the page is then left as is
        and retried on the next build. Raises WireError when two pages claim ``path``.
        """
        self._claim(path, key)
        if self.previous.get(path) == key and path in self._present:
            self.skipped += 1
            self.done[path] = key
            self.sums[path] = self.recorded.get(path, "")
            return
        self._jobs.append(_Job(path, key, render, path in self._present))

    def gone(self, path: str) -> None:
        """Note that ``path`` was deleted since the build began: offered again, it is written."""
        self._present.discard(path)

    def keep(self, path: str) -> None:
        """Leave ``path`` as the last build made it (its input cannot be read now)."""
        key = self.previous.get(path, "")
        self._claim(path, key)
        if key:
            self.done[path] = key
            self.sums[path] = self.recorded.get(path, "")

    def _claim(self, path: str, key: str) -> None:
        """Register ``path`` as a page of this build; raise WireError if it is one already."""
        if path in self.keys:
            raise WireError(f"two pages of the site would be {path}; rename a project or topic")
        self.keys[path] = key

    def will_fork(self) -> bool:
        """Whether :meth:`finish` will render in worker processes (what they need is best
        made before, once, and inherited)."""
        return _forks(len(self._jobs), self.workers)

    def finish(self, *, strict: bool = True) -> None:
        """Render and write every page offered and not skipped, and tally what came of it.

        Re-raises the first failure after tallying the pages written before it. Without
        ``strict`` nothing more is rendered: the build is being abandoned.
        """
        jobs, self._jobs = self._jobs, []
        if not strict:
            return  # an abandoned build: what was not rendered yet is not worth rendering
        self.attempted.update(job.path for job in jobs)
        outcomes, failure = run_jobs(jobs, self.site_dir, self.workers)
        for job, (outcome, sha, seen) in zip(jobs, outcomes, strict=False):
            if outcome == "vanished":
                if job.present:  # left as the last build wrote it, to be rendered again
                    self.done[job.path] = ""
                    self.sums[job.path] = self.recorded.get(job.path, "")
                continue
            if outcome == "written":
                self.written.append(job.path)
                self.seen[job.path] = seen
            else:
                self.unchanged += 1
            self.done[job.path] = job.key
            self.sums[job.path] = sha
        if failure is not None:
            raise failure

    def remove_stale(self, which: Callable[[str], bool] | None = None) -> list[str]:
        """Delete the pages of the previous build that this build no longer makes (of
        those, only the ones ``which`` accepts, if given)."""
        removed = []
        root = self.site_dir.resolve()
        for path in sorted(set(self.previous) - set(self.keys)):
            if which is not None and not which(path):
                continue
            target = (self.site_dir / path).resolve()
            # The manifest is data on disk: never let it point outside the site, or at
            # anything but a page of the shape the Wire writes.
            if not target.is_relative_to(root) or target == root or not is_page_path(path):
                continue
            self._present.discard(path)  # before it goes: the set may look at the disk
            target.unlink(missing_ok=True)
            removed.append(path)
            for parent in target.parents:
                if parent == root or not parent.is_relative_to(root) or any(parent.iterdir()):
                    break
                parent.rmdir()
        return removed


def usable_cores() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def files_under(root: Path) -> set[str]:
    """The paths (``a/b.html``, relative to ``root``) of every file under ``root``."""
    found: set[str] = set()
    for folder, _, names in os.walk(root):
        prefix = os.path.relpath(folder, root)
        prefix = "" if prefix == "." else prefix.replace(os.sep, "/") + "/"
        found.update(prefix + name for name in names)
    return found


def write_page(target: Path | str, data: bytes, *, present: bool = True) -> str | None:
    """Make ``target`` hold ``data``; return None, touching nothing, when it already does,
    else how the file written is seen (``inode:ctime_ns:size``, see :mod:`.verify`).

    ``present=False`` says the file is known to be absent (it is not looked at). The old
    file is unlinked rather than overwritten: it may be a hard link shared with the
    published build. The new file honours the umask. Raises StorageError naming the path
    when it cannot be written.
    """
    name = os.fspath(target)
    if present:
        try:
            with open(name, "rb") as old:  # noqa: PTH123 (a page of thousands: no Path)
                if old.read() == data:
                    return None
            os.unlink(name)  # noqa: PTH108
        except OSError:
            pass
    try:
        # os.open and os.write: a page is written in one call, without a buffered file
        # object around it (a few microseconds of each of thousands of pages).
        try:
            fd = os.open(name, _CREATE, 0o666)
        except FileNotFoundError:
            Path(name).parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(name, _CREATE, 0o666)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            written = os.fstat(fd)
        finally:
            os.close(fd)
    except OSError as error:
        raise StorageError(Path(name), error) from None
    return f"{written.st_ino}:{written.st_ctime_ns}:{written.st_size}"


def run_jobs(
    jobs: Sequence[_Job], site_dir: Path, workers: int
) -> tuple[list[Outcome], BaseException | None]:
    """Render and write ``jobs`` under ``site_dir``; return each one's outcome, in order.

    Stops at the first failure and returns it with the outcomes of the jobs before it
    (of every share, when shared out). Shares the jobs out to ``workers`` forked processes
    when there are enough of them and forking is safe (no other thread in this process).
    """
    if not _forks(len(jobs), workers):
        return _run_share(jobs, site_dir)
    # Loaded here: a build with little to render never starts a worker.
    import gc
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # What the build made so far is only read by the workers: out of the collector's
    # sight, their reads do not copy its pages (the collector would write to every one).
    gc.freeze()

    global _SHARED, _PARENT
    _SHARED, _PARENT = (jobs, site_dir), os.getpid()
    shares = workers * SHARES_PER_WORKER
    bounds = [len(jobs) * i // shares for i in range(shares + 1)]
    outcomes: list[Outcome] = []
    failure: BaseException | None = None
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_die_with_parent) as pool:
            for done, error in pool.map(_run_range, bounds[:-1], bounds[1:]):
                if failure is None:
                    outcomes += done
                    failure = error
    finally:
        _SHARED = None
        gc.unfreeze()
    return outcomes, failure


def _forks(jobs: int, workers: int) -> bool:
    """Whether ``jobs`` pages are rendered by ``workers`` forked processes."""
    # Forking while another thread holds a lock would copy the lock held, forever.
    return workers >= 2 and jobs >= PARALLEL_MIN and threading.active_count() == 1


#: The jobs of the build being shared out, and the build's pid; a forked worker inherits them.
_SHARED: tuple[Sequence[_Job], Path] | None = None
_PARENT = 0
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In a worker: be killed when the build is (Linux), so no worker outlives a killed run."""
    import ctypes
    import signal

    # SIGTERM ends a worker as it ends any process: the build's own handler (the CLI makes
    # it stop a range as Ctrl-C does) is not for workers, which the build waits for.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return  # not Linux: a worker left behind ends with its share
    if os.getppid() != _PARENT:
        os._exit(1)  # the parent died before the line above


def _run_range(start: int, stop: int) -> tuple[list[Outcome], BaseException | None]:
    """In a worker: run the shared jobs ``start`` to ``stop``."""
    assert _SHARED is not None
    jobs, site_dir = _SHARED
    done, error = _run_share(jobs[start:stop], site_dir)
    return done, _picklable(error)


def _run_share(jobs: Sequence[_Job], site_dir: Path) -> tuple[list[Outcome], BaseException | None]:
    """Render ``jobs`` here and write each page as it is rendered.

    No writer threads: creating a file on this kind of machine costs CPU (system time)
    more than it waits, and threads beside a rendering thread took turns with it for the
    interpreter's lock at every read, write and hash of either (a full build of 1,000
    editions took 10-15% longer with four of them per process).
    """
    outcomes: list[Outcome] = []
    root = os.fspath(site_dir)
    for job in jobs:
        try:
            data = job.render()
            if data is None:
                outcomes.append(("vanished", "", ""))
                continue
            target = os.path.join(root, job.path)  # noqa: PTH118
            outcomes.append(_write(target, data, job.present))
        except Exception as error:  # handed to the caller, which re-raises it
            return outcomes, error
    return outcomes, None


def _write(target: str, data: bytes, present: bool) -> Outcome:
    """Write ``data`` at ``target`` (see :func:`write_page`); say how, with its SHA-256."""
    seen = write_page(target, data, present=present)
    sha = hashlib.sha256(data).hexdigest()
    return ("written", sha, seen) if seen is not None else ("unchanged", sha, "")


def _picklable(error: BaseException | None) -> BaseException | None:
    """``error`` if it can travel back from a worker, else a WireError saying what it was.

    A template error is described here, where its traceback still says the file and line.
    """
    if error is None:
        return None
    import pickle

    import jinja2

    from digest.render.templating import template_error

    if isinstance(error, jinja2.TemplateError):
        error = template_error(error)

    try:
        pickle.loads(pickle.dumps(error))
    except Exception:  # any failure to round-trip means: describe it instead
        return WireError(f"rendering failed: {type(error).__name__}: {error}")
    return error
