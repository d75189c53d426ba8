"""One writer at a time: exclusive locks on ``data_dir`` and ``site_dir`` for the commands
that write.

A lock is ``flock(2)`` on a file: ``<data_dir>/.wire.lock`` for the data folder, and
``.<site>.lock`` beside ``site_dir`` for the site (``site_dir`` itself is a link each build
moves, and the builds folder beside it is saved and restored by caches). Two configurations
may share a ``site_dir`` with different data folders, so a command takes the data lock, and
the site lock while it builds the site: always in that order, so two runs never wait on
each other in a circle.

The kernel drops a lock when its holder exits or is killed, so a lock can never be left
stale; the holder's record in the file (pid, host, command, start time) names who holds it
while it is held, and a record left behind by a killed holder tells the next run that it is
taking over. (``filelock`` was not used: it truncates the lock file on every attempt, which
would erase the holder's record.)
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import json
import logging
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from digest.errors import StorageError, WireError

log = logging.getLogger("digest")
NAME = ".wire.lock"
#: How often a waiting run tries the lock again (seconds).
POLL = 0.2


class LockBusy(WireError):
    """Another process holds the lock and did not let go within the wait."""

    exit_code = 2


@contextmanager
def data_lock(
    data_dir: Path,
    *,
    wait: float,
    command: str,
    now: Callable[[], dt.datetime],
    sleep: Callable[[float], None] = time.sleep,
) -> Iterator[None]:
    """Hold the lock on ``data_dir`` (created if missing) for the ``with`` block.

    Waits up to ``wait`` seconds for another holder, then raises :class:`LockBusy`
    naming it. ``command`` and ``now()`` go into the holder's record.
    """
    with _lock(data_dir, data_dir / NAME, wait=wait, command=command, now=now, sleep=sleep):
        yield


def site_lock_path(site_dir: Path) -> Path:
    """The lock file of ``site_dir``: beside it, outside what a cache saves or a build publishes."""
    return site_dir.parent / f".{site_dir.name}.lock"


@contextmanager
def site_lock(
    site_dir: Path,
    *,
    wait: float,
    command: str,
    now: Callable[[], dt.datetime],
    sleep: Callable[[float], None] = time.sleep,
) -> Iterator[None]:
    """Hold the lock on ``site_dir`` for the ``with`` block, as :func:`data_lock` does.

    Take it after the data lock, never before (see the module's docstring).
    """
    path = site_lock_path(site_dir)
    with _lock(site_dir, path, wait=wait, command=command, now=now, sleep=sleep):
        yield


@contextmanager
def _lock(
    folder: Path,
    path: Path,
    *,
    wait: float,
    command: str,
    now: Callable[[], dt.datetime],
    sleep: Callable[[float], None],
) -> Iterator[None]:
    """Hold the lock file ``path`` that guards ``folder`` (named in messages)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise StorageError(path, error) from None
    _held.add(fd)
    try:
        _acquire(fd, folder, wait, sleep)
        left = _read(fd)
        if left:
            log.warning("%s: took over the lock of a run that did not finish (%s)", folder, left)
        holder = {
            "pid": os.getpid(),
            "host": os.uname().nodename,  # socket.gethostname(), without importing socket
            "command": command,
            "since": now().astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        }
        _write(fd, json.dumps(holder, sort_keys=True).encode())
        try:
            yield
        finally:
            # An empty file means "released cleanly"; the kernel releases the lock itself.
            _write(fd, b"")
    finally:
        _held.discard(fd)
        os.close(fd)


#: Descriptors of the locks this process holds.
_held: set[int] = set()


def _close_in_child() -> None:
    """A forked child (a render worker) never keeps the lock alive after its parent."""
    for fd in _held:
        with contextlib.suppress(OSError):
            os.close(fd)
    _held.clear()


os.register_at_fork(after_in_child=_close_in_child)


def _acquire(fd: int, folder: Path, wait: float, sleep: Callable[[float], None]) -> None:
    """Take the exclusive lock on ``fd``, which guards ``folder``, trying for ``wait``
    seconds; raise LockBusy naming ``folder`` and the holder if it is held."""
    deadline = time.monotonic() + max(wait, 0.0)
    announced = False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        holder = _read(fd) or "a process that has not written its record yet"
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise LockBusy(
                f"{folder} is in use by another digest run ({holder}); "
                f"waited {wait:g} s; try again later or give --wait SECONDS"
            )
        if not announced:
            log.info("%s is in use (%s); waiting up to %g s", folder, holder, wait)
            announced = True
        sleep(min(POLL, remaining))


def _read(fd: int) -> str:
    """Return the holder's record in the lock file, as one line ('' when none)."""
    raw = os.pread(fd, 4096, 0)
    try:
        record = json.loads(raw)
        return (
            f"pid {record['pid']} on {record['host']}, `digest {record['command']}` "
            f"since {record['since']}"
        )
    except (ValueError, KeyError, TypeError):
        return raw.decode(errors="replace").strip()[:200]


def _write(fd: int, data: bytes) -> None:
    """Make ``data`` the lock file's record.

    Not flushed to the disk (``fsync``): the record is read by other processes, which see
    it at once through the kernel's cache, and it outlives a holder that is killed. Only
    the crash of the whole system can lose it, and then only the warning that the next
    run takes over (nothing the lock guards: records are written atomically, and the
    temporary files a run left are deleted whatever the record says). Two flushes a lock
    were about 1.4 ms of a build with nothing to do, and more on a busy disk.
    """
    os.ftruncate(fd, 0)
    os.pwrite(fd, data, 0)
