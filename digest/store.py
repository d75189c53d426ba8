"""The only stage that writes pipeline data: collected days and digests as JSON files.

Layout under ``data_dir``::

    collected/<owner>/<repo>/<YYYY-MM-DD>.json   one RepoDay
    collected/<owner>/<repo>/.index              the folder's index
    digests/<project-slug>/<YYYY-MM-DD>.json     one Digest
    digests/<project-slug>/.index                the folder's index

Files are written atomically (temporary file, fsync, rename) and deterministically
(sorted keys, fixed indentation), so the same input always gives the same bytes.

Each folder of records has an index: every record's file name, the SHA-256 of its bytes
and its size. Saving (or deleting) a record updates its folder's index in the same step,
right after the record, so the site build reads the indexes instead of looking at every
file (see :mod:`digest.render.stamp`). A file edited, added or deleted by hand is not in
the index until :meth:`Store.reindex` (``digest render --full``) reads the files again;
``digest doctor --index`` finds such files. A folder without an index (written by an
earlier version) is indexed from its files when first read.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from digest import decoding
from digest.errors import StorageError, WireError
from digest.models import Digest, FailureReason, RepoDay

T = TypeVar("T")
#: How a temporary file of :func:`write_atomic` ends; ``.<name>.<8 random chars>.tmp``.
TMP_SUFFIX = ".tmp"
_ORPHAN = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")


class RepoDayStamp(msgspec.Struct, frozen=True):
    """What a stored :class:`RepoDay` says of its collection, read without its changes."""

    repo: str
    date: dt.date
    source: str
    collected_at: dt.datetime
    settings: dict[str, str] | None = None


class UnreadableRecord(ValueError):
    """Bytes that are not a stored record of the kind asked for; the message says where
    the first problem is (``references[0].n: Expected `int`, got `str```) and what."""


def parse_record(data: bytes, kind: type[T]) -> T:
    """Parse JSON ``data`` into a ``kind`` record (a Digest, a RepoDay).

    Reads what earlier versions stored too. Raises UnreadableRecord, saying where the
    first problem is, when ``data`` is not JSON or not of ``kind``'s shape.
    """
    try:
        return _decoder(kind).decode(data)
    except msgspec.DecodeError as error:
        first = error
    try:  # the slow way, for records stored by earlier versions
        return msgspec.convert(_upgraded(msgspec.json.decode(data)), kind)
    except msgspec.DecodeError:
        raise UnreadableRecord(decoding.described(first, "file")) from None


_decoders: dict[type[Any], msgspec.json.Decoder[Any]] = {}


def _decoder(kind: type[T]) -> msgspec.json.Decoder[T]:
    """The decoder of ``kind`` records, made once (each costs a millisecond or so)."""
    if kind not in _decoders:
        _decoders[kind] = msgspec.json.Decoder(kind)
    return _decoders[kind]


def _upgraded(record: Any) -> Any:
    """``record`` as this version stores it: free-text failure reasons become generic ones."""
    if isinstance(record, dict) and isinstance(record.get("failed_repos"), list):
        failures = [
            {**failure, "reason": _known_reason(failure.get("reason"))}
            if isinstance(failure, dict)
            else failure
            for failure in record["failed_repos"]
        ]
        return {**record, "failed_repos": failures}
    return record


def _known_reason(value: object) -> object:
    """A stored reason; earlier versions stored free text, which becomes a generic one."""
    if isinstance(value, str) and value not in FailureReason._value2member_map_:
        if value.startswith("not collected"):
            return FailureReason.NOT_COLLECTED.value
        return FailureReason.UNREADABLE.value
    return value


def write_atomic(path: Path, data: bytes, *, sync: bool = True) -> bool:
    """Write ``data`` to ``path`` via a temporary file and a rename (after an ``fsync``
    unless not ``sync``: for what can be made again, such as an index or a cache).

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
            if sync:
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
        tmp = path.parent / f".{path.name}.{os.urandom(4).hex()}{TMP_SUFFIX}"
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
            # The suffix first: a data folder holds thousands of files, every run.
            if name.endswith(TMP_SUFFIX) and _ORPHAN.fullmatch(name):
                orphan = Path(dirpath) / name
                try:
                    orphan.unlink()
                except FileNotFoundError:
                    continue
                except OSError as error:
                    raise StorageError(orphan, error) from None
                removed.append(orphan)
    return removed


#: The index of a folder of records (see the module docstring).
INDEX = ".index"
_INDEX_FORMAT = 1
#: A record's file as indexed: the SHA-256 (hex) of its bytes and its size.
Indexed = tuple[str, int]
#: The folders of records under ``data_dir``, and how deep they sit.
PARTS = {"digests": 1, "collected": 2}


class _IndexFile(msgspec.Struct, frozen=True):
    format: int
    files: dict[str, tuple[str, int]]


_index_decoder = msgspec.json.Decoder(_IndexFile)


def _indexed(data: bytes) -> Indexed:
    return hashlib.sha256(data).hexdigest(), len(data)


def _is_record(name: str) -> bool:
    """Whether the file ``name`` of a folder of records is a record (not an index or a
    temporary file)."""
    return name.endswith(".json") and not name.startswith(".")


def dumps(value: Any) -> bytes:
    """Serialise a JSON-ready value deterministically (sorted keys, UTF-8, newline at end)."""
    return (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


def encode_record(record: msgspec.Struct) -> bytes:
    """The bytes a record (a Digest, a RepoDay) is stored as: those of :func:`dumps` of
    its builtins (records hold no floats, whose exponents the two write differently),
    made by msgspec, ten times faster than ``json`` with an indent."""
    return msgspec.json.format(msgspec.json.encode(record, order="sorted"), indent=2) + b"\n"


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
        self._save(path, encode_record(repo_day))
        return path

    def delete_repo_day(self, repo: str, day: dt.date) -> bool:
        """Delete the collected ``day`` of ``repo`` (and its index entry); False if absent."""
        return self._delete(self.repo_day_path(repo, day))

    def load_repo_day(self, repo: str, day: dt.date) -> RepoDay | None:
        return self._load(self.repo_day_path(repo, day), RepoDay)

    def load_repo_day_stamp(self, repo: str, day: dt.date) -> RepoDayStamp | None:
        """When and how ``repo``'s ``day`` was collected, without decoding its changes."""
        return self._load(self.repo_day_path(repo, day), RepoDayStamp)

    # Digests.
    def digest_path(self, project_slug: str, day: dt.date) -> Path:
        return self.root / "digests" / project_slug / f"{day.isoformat()}.json"

    def save_digest(self, digest: Digest) -> Path:
        path = self.digest_path(digest.project_slug, digest.date)
        self._save(path, encode_record(digest))
        return path

    def delete_digest(self, project_slug: str, day: dt.date) -> bool:
        """Delete the digest of ``project_slug`` on ``day`` (and its index entry); False if
        there was none."""
        return self._delete(self.digest_path(project_slug, day))

    # The indexes of the folders of records.
    def _save(self, path: Path, data: bytes) -> None:
        """Write the record ``data`` at ``path``, then its folder's index entry.

        The entry is brought up to date even when the file held the bytes already (a run
        killed between the two writes left it stale).
        """
        write_atomic(path, data)
        self._update_index(path.parent, {path.name: _indexed(data)})

    def _delete(self, path: Path) -> bool:
        try:
            path.unlink()
        except FileNotFoundError:
            found = False
        except OSError as error:
            raise StorageError(path, error) from None
        else:
            found = True
        if path.parent.is_dir():
            self._update_index(path.parent, {path.name: None})
        return found

    def _update_index(self, folder: Path, changes: Mapping[str, Indexed | None]) -> None:
        entries = read_index(folder)
        if entries is None:  # none yet (or unreadable): made from the files, these included
            _write_index(folder, index_files(folder))
            return
        updated = dict(entries)
        for name, entry in changes.items():
            if entry is None:
                updated.pop(name, None)
            else:
                updated[name] = entry
        if updated != entries:
            _write_index(folder, updated)

    def record_folders(self, part: str) -> list[Path]:
        """The folders of records of ``part`` (``digests``: one per project; ``collected``:
        one per repository), sorted."""
        folders = [self.root / part]
        for _ in range(PARTS[part]):
            deeper = []
            for folder in folders:
                try:
                    entries = list(os.scandir(folder))
                except (FileNotFoundError, NotADirectoryError):
                    continue
                deeper += [Path(e.path) for e in entries if e.is_dir(follow_symlinks=False)]
            folders = deeper
        return sorted(folders)

    def index(self, part: str) -> Iterator[tuple[str, dict[str, Indexed]]]:
        """Yield each folder of records of ``part`` (``digests/<slug>``,
        ``collected/<owner>/<repo>``) and its index: ``{file name: (SHA-256, size)}``.

        A folder without a readable index is indexed from its files (and the index
        written, when the folder can be written).
        """
        for folder in self.record_folders(part):
            yield folder.relative_to(self.root).as_posix(), folder_index(folder)

    def reindex(self) -> list[str]:
        """Index every folder of records from its files again (after edits by hand).

        Returns the folders whose index changed (``digests/<slug>``...), sorted.
        """
        changed = []
        for part in PARTS:
            for folder in self.record_folders(part):
                entries = index_files(folder)
                if read_index(folder) != entries:
                    _write_index(folder, entries)
                    changed.append(folder.relative_to(self.root).as_posix())
        return changed

    def index_problems(self) -> list[str]:
        """What differs between the indexes and the files: one line per folder of records
        whose files are not as indexed (reads and hashes every file)."""
        problems = []
        for part in PARTS:
            for folder in self.record_folders(part):
                indexed, found = read_index(folder), index_files(folder)
                where = folder.relative_to(self.root).as_posix()
                if indexed is None:
                    problems.append(f"{where}: no index")
                    continue
                differ = sorted(
                    n for n in indexed.keys() | found.keys() if indexed.get(n) != found.get(n)
                )
                if differ:
                    more = f" and {len(differ) - 3} more" if len(differ) > 3 else ""
                    problems.append(
                        f"{where}: {len(differ)} file{'s' if len(differ) > 1 else ''} not as "
                        f"indexed ({', '.join(differ[:3])}{more})"
                    )
        return problems

    def load_digest(self, project_slug: str, day: dt.date) -> Digest | None:
        return self._load(self.digest_path(project_slug, day), Digest)

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
        digest = Store._load(path, Digest)
        if digest is None:
            raise WireError(f"{path}: digest file disappeared while reading")
        return digest

    @staticmethod
    def _load(path: Path, kind: type[T]) -> T | None:
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise WireError(f"{path}: cannot read: {error.strerror or error}") from None
        try:
            return parse_record(raw, kind)
        except UnreadableRecord as error:
            raise WireError(
                f"{path}: not a valid stored record ({error}); delete it or re-run with --refresh"
            ) from None


def read_index(folder: Path) -> dict[str, Indexed] | None:
    """The index of the folder of records ``folder``; None when it has none (or it is not
    readable)."""
    try:
        found = _index_decoder.decode((folder / INDEX).read_bytes())
    except (OSError, msgspec.DecodeError):
        return None
    if found.format != _INDEX_FORMAT:
        return None
    return found.files


def index_files(folder: Path) -> dict[str, Indexed]:
    """The index of ``folder`` made from its files: every record read and hashed."""
    entries: dict[str, Indexed] = {}
    try:
        names = [e.name for e in os.scandir(folder) if e.is_file(follow_symlinks=False)]
    except (FileNotFoundError, NotADirectoryError):
        return entries
    for name in sorted(names):
        if _is_record(name):
            try:
                entries[name] = _indexed((folder / name).read_bytes())
            except FileNotFoundError:
                continue
            except OSError as error:
                raise StorageError(folder / name, error) from None
    return entries


def _write_index(folder: Path, entries: Mapping[str, Indexed]) -> None:
    record = {"format": _INDEX_FORMAT, "files": {n: list(entries[n]) for n in sorted(entries)}}
    data = json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n"
    # No fsync: an index is made again from the files when it cannot be read.
    write_atomic(folder / INDEX, data.encode(), sync=False)


def folder_index(folder: Path) -> dict[str, Indexed]:
    """The index of the folder of records ``folder``, made from its files (and written,
    when the folder can be written) when it has none."""
    entries = read_index(folder)
    if entries is None:
        entries = index_files(folder)
        # A read-only data folder: the index is made again next time.
        with contextlib.suppress(StorageError):
            _write_index(folder, entries)
    return entries
