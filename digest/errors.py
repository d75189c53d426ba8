"""The one error type for problems a user can fix."""

from __future__ import annotations


class WireError(Exception):
    """A user-facing problem: bad configuration, a bad date, an unreadable repository.

    The CLI prints ``str(error)`` as one line and exits with ``exit_code``; nothing
    else in the package prints or exits.
    """

    exit_code = 1


class ConfigError(WireError):
    """The configuration file is unreadable or invalid."""

    exit_code = 2

    def __init__(self, path: object, message: str, key: str | None = None) -> None:
        self.path = str(path)
        self.key = key
        self.detail = message
        where = f"{self.path}: {key}: " if key else f"{self.path}: "
        super().__init__(where + message)


class UsageError(WireError):
    """A command-line argument is wrong (a malformed date, an unknown project)."""

    exit_code = 2


class StorageError(WireError):
    """A file or folder could not be written: no permission, a full disk, a file in the way."""

    exit_code = 1

    def __init__(self, path: object, error: OSError | str) -> None:
        self.path = str(path)
        self.reason = error if isinstance(error, str) else error.strerror or type(error).__name__
        super().__init__(f"{self.path}: cannot write: {self.reason}")

    def __reduce__(self) -> tuple[type[StorageError], tuple[str, str]]:
        """Pickle by path and reason (a render worker sends it back to the build)."""
        return StorageError, (self.path, self.reason)
