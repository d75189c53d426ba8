"""What can go wrong talking to GitHub, and how to say it to a user in one line."""

from __future__ import annotations

import json

import msgspec
import requests
import urllib3
from github.GithubException import BadAttributeException, GithubException
from urllib3.exceptions import MaxRetryError, ReadTimeoutError

from digest import decoding

#: The statuses GitHub answers a rate limit with.
RATE_LIMITED = (403, 429)

#: What PyGithub, requests, urllib3 and the response parsers raise on a failed or odd answer.
API_ERRORS: tuple[type[BaseException], ...] = (
    GithubException,
    BadAttributeException,
    requests.RequestException,
    urllib3.exceptions.HTTPError,
    ValueError,  # also json.JSONDecodeError and msgspec's ValidationError
    KeyError,
    TypeError,
    AttributeError,
    # PyGithub asserts that URLs in answers point at the configured host, and raises
    # RuntimeError for a redirect elsewhere: both are answers we cannot use.
    AssertionError,
    RuntimeError,
)


class RateLimitStop(Exception):
    """GitHub asked for a longer wait than ``github.max_reset_wait`` allows."""


class Unavailable(Exception):
    """The server has no GraphQL endpoint (it answered 404 to ``POST /graphql``)."""


class NotFound(Exception):
    """The repository does not exist, or the token (or anonymous access) cannot see it."""


class Renamed(Exception):
    """The repository answers under another name now (renamed or transferred)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class QueryError(Exception):
    """GitHub's GraphQL API answered with errors instead of data."""


def explain(error: BaseException, url: str, timeout: float) -> str:
    """Word ``error`` (one of :data:`API_ERRORS` or :class:`RateLimitStop`) for a user."""
    if isinstance(error, RateLimitStop):
        return str(error)
    if isinstance(error, QueryError):
        return f"GitHub's GraphQL API answered with an error: {error}"
    if isinstance(error, GithubException):
        return _explain_status(error)
    if _timed_out(error):
        return f"GitHub did not answer within {timeout:.0f} s (github.timeout) at {url}"
    if isinstance(error, requests.ConnectionError | urllib3.exceptions.HTTPError):
        if _refused_or_unresolved(error):
            return f"network unreachable: cannot reach GitHub at {url} ({_root(error)})"
        return f"cannot reach GitHub at {url}: {_root(error)}"
    if isinstance(error, requests.RequestException):
        return f"the request to GitHub at {url} failed: {_root(error)}"
    if isinstance(error, msgspec.ValidationError):
        return f"GitHub's answer has an unexpected shape ({decoding.described(error, '')})"
    if isinstance(error, json.JSONDecodeError):
        # json's messages may end in "at" ("Unterminated string starting at"): say it once.
        return (
            f"GitHub's answer is not valid JSON ({error.msg.removesuffix(' at')} "
            f"at character {error.pos})"
        )
    if isinstance(error, AssertionError | RuntimeError):
        return f"GitHub's answer points somewhere other than {url} ({error})"
    return f"GitHub's answer has an unexpected shape ({type(error).__name__}: {error})"


def _explain_status(error: GithubException) -> str:
    status = error.status
    message = error.message or (error.data.get("message") if isinstance(error.data, dict) else "")
    said = f": {message}" if message else ""
    if status == 401:
        return f"GitHub refused the token (401{said}); set a valid GITHUB_TOKEN"
    if status in RATE_LIMITED:
        return f"GitHub refused the request ({status}{said})"
    if status >= 500:
        return f"GitHub kept failing ({status}{said}) after the retries in github.retries"
    return f"GitHub answered {status}{said}"


def _refused_or_unresolved(error: BaseException) -> bool:
    from digest.failures import unreachable  # digest.failures reads this module's errors

    return unreachable(error)


def _timed_out(error: BaseException) -> bool:
    """Tell whether ``error`` or one of its causes is a timeout."""
    seen: BaseException | None = error
    for _ in range(10):  # requests wraps urllib3's errors a few levels deep
        if seen is None:
            break
        if isinstance(seen, requests.Timeout | ReadTimeoutError | TimeoutError):
            return True
        if isinstance(seen, MaxRetryError) and isinstance(seen.reason, ReadTimeoutError):
            return True
        nested = seen.args[0] if seen.args and isinstance(seen.args[0], BaseException) else None
        seen = nested or seen.__cause__ or seen.__context__
    return False


def _root(error: BaseException) -> str:
    """Return the innermost message of a chain of wrapped errors, without the URL noise."""
    reason = getattr(error.args[0], "reason", None) if error.args else None
    return str(reason or error)
