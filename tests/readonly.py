"""Make folders read-only for the code under test, even when the tests run as root.

Root writes into folders whose mode forbids it, so a test cannot rely on ``chmod``: this
makes the calls that create, replace or delete a file under the given folders fail with
EACCES, as the kernel would for a user without write permission there.
"""

from __future__ import annotations

import builtins
import errno
import io
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest


def _inside(path: object, roots: tuple[Path, ...]) -> bool:
    if isinstance(path, int):
        return False
    full = Path(os.fspath(path)).absolute()  # type: ignore[arg-type]
    return any(full == root or root in full.parents for root in roots)


def _denied(path: object) -> PermissionError:
    return PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))  # type: ignore[arg-type]


@contextmanager
def read_only(monkeypatch: pytest.MonkeyPatch, *folders: Path) -> Iterator[None]:
    """Within the block, nothing can be created, replaced or deleted under ``folders``."""
    roots = tuple(folder.absolute() for folder in folders)

    def guard(real: Callable[..., Any], *, writes: Callable[..., bool]) -> Callable[..., Any]:
        def checked(*args: Any, **kwargs: Any) -> Any:
            if writes(*args, **kwargs):
                raise _denied(args[0])
            return real(*args, **kwargs)

        return checked

    def any_path(*args: Any, **_: Any) -> bool:
        return any(_inside(arg, roots) for arg in args[:2] if isinstance(arg, str | os.PathLike))

    def new_name(_source: object, target: object, *_: Any, **__: Any) -> bool:
        return _inside(target, roots)

    def opens_for_writing(path: object, flags: int = 0, *_: Any, **__: Any) -> bool:
        return bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)) and _inside(path, roots)

    def open_mode(path: object, mode: str = "r", *_: Any, **__: Any) -> bool:
        return any(c in mode for c in "wax+") and _inside(path, roots)

    with monkeypatch.context() as patch:
        patch.setattr(os, "open", guard(os.open, writes=opens_for_writing))
        for name in ("mkdir", "rename", "replace", "unlink", "remove", "rmdir"):
            patch.setattr(os, name, guard(getattr(os, name), writes=any_path))
        for name in ("symlink", "link"):  # Only the new name is written.
            patch.setattr(os, name, guard(getattr(os, name), writes=new_name))
        patch.setattr(builtins, "open", guard(builtins.open, writes=open_mode))
        patch.setattr(io, "open", guard(io.open, writes=open_mode))
        yield
