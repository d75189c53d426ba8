"""What the public may read about a repository that could not be read.

A failure's message (paths, server answers) is for the log; pages, feeds and stored
editions get one :class:`~digest.models.FailureReason` from a closed list, chosen here.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

from digest.errors import SourceError
from digest.models import FailureReason

# The HTTP libraries and the GitHub source are imported where a failure is looked at: the
# GitHub client imports this module, and a command that only renders loads neither.

#: How deep to follow the causes, contexts and wrapped reasons of an error.
_DEPTH = 20


def public_reason(error: BaseException) -> FailureReason:
    """Return the public reason for ``error``, raised while reading one repository.

    A :class:`SourceError` says it itself; otherwise the errors it wraps are read (the
    GitHub source raises its error with the library's as context), and anything not
    recognised is "could not be read".
    """
    if isinstance(error, SourceError):
        return error.reason
    chain = list(_chain(error))
    for check in (_wire, _http, _network, _answer):
        for seen in chain:
            reason = check(seen)
            if reason is not None:
                return reason
    return FailureReason.UNREADABLE


def _chain(error: BaseException) -> Iterator[BaseException]:
    """``error`` and what it wraps: causes, contexts, ``reason`` and exception arguments."""
    todo, seen = [error], set[int]()
    while todo and len(seen) < _DEPTH:
        current = todo.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        nested = [current.__cause__, current.__context__, getattr(current, "reason", None)]
        nested += [arg for arg in current.args if isinstance(arg, BaseException)]
        todo += [e for e in nested if isinstance(e, BaseException)]


def _wire(error: BaseException) -> FailureReason | None:
    from digest.sources.github.errors import NotFound, RateLimitStop, Renamed

    if isinstance(error, SourceError):
        return error.reason
    if isinstance(error, NotFound):
        return FailureReason.NOT_FOUND
    if isinstance(error, Renamed):
        return FailureReason.MOVED
    if isinstance(error, RateLimitStop):
        return FailureReason.RATE_LIMITED
    return None


def _http(error: BaseException) -> FailureReason | None:
    from github.GithubException import GithubException

    if not isinstance(error, GithubException):
        return None
    status = error.status
    message = str(error.data.get("message", "")) if isinstance(error.data, dict) else ""
    if status == 429 or (status == 403 and "rate limit" in message.lower()):
        return FailureReason.RATE_LIMITED
    if status in (401, 403):
        return FailureReason.ACCESS_DENIED
    if status in (404, 410):
        return FailureReason.NOT_FOUND
    if status >= 500:
        return FailureReason.SERVER_ERROR
    return FailureReason.UNREADABLE_ANSWER


def unreachable(error: BaseException) -> bool:
    """True when ``error`` (or what it wraps) is a name that does not resolve or a refused
    connection: no retry will get an answer soon, unlike a timeout or a reset.
    """
    import urllib3

    for seen in _chain(error):
        if isinstance(seen, socket.gaierror | ConnectionRefusedError):
            return True
        if isinstance(seen, urllib3.exceptions.NameResolutionError):
            return True
    return False


def _network(error: BaseException) -> FailureReason | None:
    import requests
    import urllib3

    # urllib3's connection errors are timeouts by class: test them first.
    unreachable = (
        socket.gaierror,
        ConnectionError,
        urllib3.exceptions.NewConnectionError,
        urllib3.exceptions.ProtocolError,
    )
    if isinstance(error, unreachable):
        return FailureReason.NETWORK_UNREACHABLE
    timeouts = (requests.Timeout, urllib3.exceptions.TimeoutError, TimeoutError)
    if isinstance(error, timeouts):
        return FailureReason.TIMED_OUT
    if isinstance(error, requests.ConnectionError):
        return FailureReason.NETWORK_UNREACHABLE
    return None


def _answer(error: BaseException) -> FailureReason | None:
    # ValueError covers json's JSONDecodeError and the validators' errors.
    unusable = (ValueError, KeyError, TypeError)
    if isinstance(error, (*unusable, AssertionError, RuntimeError)):
        return FailureReason.UNREADABLE_ANSWER
    return None
