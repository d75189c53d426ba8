"""The only stage that writes pipeline data: collected days and digests as JSON files.

Layout under ``data_dir``::

    collected/<owner>/<repo>/<YYYY-MM-DD>.json   one RepoDay
    digests/<project-slug>/<YYYY-MM-DD>.json     one Digest

Files are written atomically (temporary file, fsync, rename) and deterministically
(sorted keys, fixed indentation), so the same input always gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from secrets import token_hex
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from digest.errors import StorageError, WireError
from digest.models import Digest, RepoDay

T = TypeVar("T")
#: How a temporary file of :func:`write_atomic` ends; ``.<name>.<8 random chars>.tmp``.
TMP_SUFFIX = ".tmp"
_ORPHAN = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")


# Made on first use: each costs milliseconds of every start-up, and a build with
# nothing to do needs neither.
@functools.cache
def digest_adapter() -> TypeAdapter[Digest]:
    """What parses and dumps digests (also used by the site's scan)."""
    return TypeAdapter(Digest)


@functools.cache
def _repo_day_adapter() -> TypeAdapter[RepoDay]:
    return TypeAdapter(RepoDay)


def write_atomic(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` via a temporary file and a rename.

    Returns False, writing nothing, when the file already holds exactly ``data``
    (so unchanged outputs keep their modification time). Raises StorageError, naming
    the path, when the folder cannot be made or the file cannot be written (no
    permission, a full disk); no temporary file is left behind.
    """
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _create_temporary(path)
    except OSError as error:
        raise StorageError(path, error) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        tmp.replace(path)
    except BaseException as error:
        tmp.unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise StorageError(path, error) from None
        raise
    return True


def _create_temporary(path: Path) -> tuple[int, Path]:
    """Create a new empty temporary file beside ``path``; return its descriptor and path.

    Unlike ``tempfile.mkstemp`` (always 0600) the file is created 0666 less the umask, as
    any other file: a web server running as another user must be able to read the site.
    """
    for _ in range(100):
        tmp = path.parent / f".{path.name}.{token_hex(4)}{TMP_SUFFIX}"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


def remove_orphans(root: Path) -> list[Path]:
    """Delete the temporary files (``.<name>.<random>.tmp``) a killed writer left under ``root``.

    Only files named as :func:`write_atomic` names them are touched; returns those deleted.
    Call it while holding the data lock, so no other writer's file is taken for an orphan.
    """
    removed: list[Path] = []
    if not root.is_dir():
        return removed
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            if _ORPHAN.fullmatch(name):
                orphan = Path(dirpath) / name
                try:
                    orphan.unlink()
                except FileNotFoundError:
                    continue
                except OSError as error:
                    raise StorageError(orphan, error) from None
                removed.append(orphan)
    return removed


def first_problem(error: ValidationError) -> tuple[str, str]:
    """Return where (dotted location, empty for the whole input) and what the first error is."""
    problem = error.errors()[0]
    return ".".join(str(p) for p in problem["loc"]), problem["msg"]


def dumps(value: Any) -> bytes:
    """Serialise a JSON-ready value deterministically (sorted keys, UTF-8, newline at end)."""
    return (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


class Store:
    """Reads and writes the pipeline's JSON files under one data folder."""

    def __init__(self, data_dir: Path) -> None:
        self.root = data_dir

    # Collected repo-days.
    def repo_day_path(self, repo: str, day: dt.date) -> Path:
        owner, name = repo.split("/", 1)
        return self.root / "collected" / owner / name / f"{day.isoformat()}.json"

    def save_repo_day(self, repo_day: RepoDay) -> Path:
        path = self.repo_day_path(repo_day.repo, repo_day.date)
        write_atomic(path, dumps(_repo_day_adapter().dump_python(repo_day, mode="json")))
        return path

    def load_repo_day(self, repo: str, day: dt.date) -> RepoDay | None:
        return self._load(self.repo_day_path(repo, day), _repo_day_adapter())

    # Digests.
    def digest_path(self, project_slug: str, day: dt.date) -> Path:
        return self.root / "digests" / project_slug / f"{day.isoformat()}.json"

    def save_digest(self, digest: Digest) -> Path:
        path = self.digest_path(digest.project_slug, digest.date)
        write_atomic(path, dumps(digest_adapter().dump_python(digest, mode="json")))
        return path

    def load_digest(self, project_slug: str, day: dt.date) -> Digest | None:
        return self._load(self.digest_path(project_slug, day), digest_adapter())

    def digest_files(self) -> Iterator[tuple[str, dt.date, Path]]:
        """Yield (project slug, date, path) of every stored digest, in no particular order."""
        base = self.root / "digests"
        if not base.is_dir():
            return
        for project_dir in base.iterdir():
            if not project_dir.is_dir():
                continue
            for path in project_dir.glob("*.json"):
                try:
                    day = dt.date.fromisoformat(path.stem)
                except ValueError:
                    continue
                yield project_dir.name, day, path

    @staticmethod
    def read_digest(path: Path) -> Digest:
        """Parse the digest file at ``path``; raise WireError when it is not one."""
        digest = Store._load(path, digest_adapter())
        if digest is None:
            raise WireError(f"{path}: digest file disappeared while reading")
        return digest

    @staticmethod
    def _load(path: Path, adapter: TypeAdapter[T]) -> T | None:
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise WireError(f"{path}: cannot read: {error.strerror or error}") from None
        try:
            return adapter.validate_json(raw)
        except ValidationError as error:
            where, msg = first_problem(error)
            raise WireError(
                f"{path}: not a valid stored record ({where}: {msg}); "
                "delete it or re-run with --refresh"
            ) from None
