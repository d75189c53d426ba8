"""The one error type for problems a user can fix, and where their tracebacks go."""

from __future__ import annotations

import logging

from digest.models import FailureReason

#: The tracebacks of handled errors, for a developer: the CLI shows them with ``--debug``
#: only (``-v`` shows more lines, never a traceback).
TRACEBACKS = logging.getLogger("digest.traceback")


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

    def __init__(self, path: object, error: OSError | str, reason: str = "") -> None:
        self.path = str(path)
        if not reason:
            reason = error if isinstance(error, str) else error.strerror or type(error).__name__
        self.reason = reason
        super().__init__(f"{self.path}: cannot write: {reason}")

    def __reduce__(self) -> tuple[type[StorageError], tuple[str, str]]:
        """Pickle by path and reason (a render worker sends it back to the build)."""
        return StorageError, (self.path, self.reason)


class TemplateError(WireError):
    """A template of the site (an override in ``site.templates``) cannot be compiled or rendered."""

    exit_code = 2

    def __init__(self, template: str, line: int | None, message: str) -> None:
        self.template = template
        self.line = line
        self.detail = message
        where = f"{template}, line {line}" if line else template
        super().__init__(f"template {where}: {message}")

    def __reduce__(self) -> tuple[type[TemplateError], tuple[str, int | None, str]]:
        """Pickle by its parts (a render worker sends it back to the build)."""
        return TemplateError, (self.template, self.line, self.detail)


class SourceError(WireError):
    """A repository cannot be read; ``reason`` is what the public page may say about it."""

    def __init__(self, message: str, reason: FailureReason) -> None:
        super().__init__(message)
        self.reason = reason


class NetworkUnreachable(SourceError):
    """The source's host does not resolve or refuses connections: the run stops here.

    Every other repository on that host would fail the same way, each after its own wait.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message, FailureReason.NETWORK_UNREACHABLE)
