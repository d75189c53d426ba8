"""PyGithub set up for the Wire: token, API root, retries, request counting.

Retries live in urllib3 (:class:`PatientRetry`, a :class:`urllib3.util.Retry`), so every
request PyGithub sends, REST or GraphQL, gets the same treatment: 5xx answers and
connection errors are retried with exponential backoff, ``Retry-After`` is honoured, and
GitHub's rate limits (403/429) are waited out when the wait is short enough, through a
``sleep`` function the caller supplies (tests pass one that only records).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import math
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from github import Auth, Github
from github.GithubException import GithubException
from github.Requester import Requester
from urllib3.connectionpool import ConnectionPool
from urllib3.exceptions import MaxRetryError
from urllib3.response import BaseHTTPResponse
from urllib3.util import Retry

from digest.config import Settings
from digest.errors import WireError
from digest.failures import unreachable
from digest.secrets import Redactor, check_secrets, redact
from digest.sources.github.errors import RATE_LIMITED, RateLimitStop, explain
from digest.text import one_line

DEFAULT_API_URL = "https://api.github.com"
#: Environment variables a token is read from, first found wins.
TOKEN_VARIABLES = ("GITHUB_TOKEN", "GH_TOKEN")
#: GitHub's advice for a secondary limit without ``Retry-After``: wait at least a minute.
SECONDARY_WAIT = 60.0
_USER_AGENT = "the-wire (PyGithub)"


def find_token(env: Mapping[str, str]) -> tuple[str, str] | None:
    """Return ``(variable name, token)`` from the first of :data:`TOKEN_VARIABLES` in ``env``."""
    for name in TOKEN_VARIABLES:
        token = env.get(name, "").strip()
        if token:
            return name, token
    return None


def api_url(settings: Settings, env: Mapping[str, str]) -> str:
    """Return the API root: ``github.api_url``, else ``GITHUB_API_URL``, else GitHub's."""
    url = (settings.github.api_url or env.get("GITHUB_API_URL") or DEFAULT_API_URL).strip()
    if not url.startswith(("https://", "http://")):
        raise WireError(f"the GitHub API URL {url!r} must start with https:// or http://")
    return url.rstrip("/")


class Meter(Auth.Auth):
    """PyGithub's authentication hook: adds the token (if any) and counts the requests sent.

    PyGithub calls :meth:`authentication` once per request it builds, REST or GraphQL;
    retries made inside urllib3 are counted by :class:`PatientRetry` in :attr:`retries`.
    """

    def __init__(self, token: str | None) -> None:
        self._token = token
        self.requests = 0
        self.retries = 0

    @property
    def token_type(self) -> str:
        return "token"

    @property
    def token(self) -> str:
        return self._token or ""

    @property
    def _masked_token(self) -> str:
        return "token (removed)"

    def authentication(self, headers: dict[str, str]) -> None:
        """Count one request; add the ``Authorization`` header to ``headers`` if we have a token."""
        self.requests += 1
        if self._token:
            super().authentication(headers)

    @property
    def sent(self) -> int:
        """Every HTTP request made so far, retries included."""
        return self.requests + self.retries


@dataclass
class Hooks:
    """What every copy of a :class:`PatientRetry` shares: how to wait, how long, who counts."""

    sleep: Callable[[float], None] = time.sleep
    #: Longest wait a rate limit or ``Retry-After`` may impose before we give up.
    max_wait: float = 300.0
    meter: Meter | None = None
    log: logging.Logger = field(default_factory=lambda: logging.getLogger("digest.sources"))
    #: ``time.monotonic()`` by which the current repository must be done; None: no limit.
    deadline: float | None = None
    #: Seconds the deadline allows, for messages.
    allowed: float = 0.0

    def start(self, seconds: float) -> None:
        """Give the repository about to be read ``seconds`` in all."""
        self.deadline, self.allowed = time.monotonic() + seconds, seconds

    def wait(self, seconds: float, why: str) -> None:
        """Sleep ``seconds`` for ``why``, saying so (and until when) if over 5 s.

        Raises :class:`RateLimitStop` when the wait would run past the repository's deadline.
        """
        if self.deadline is not None and time.monotonic() + seconds > self.deadline:
            raise RateLimitStop(
                f"gave up: waiting {_duration(seconds)} more ({why}) would pass the "
                f"{self.allowed:.0f} s allowed per repository (github.deadline)"
            )
        if seconds > VISIBLE_WAIT:
            until = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=seconds)
            self.log.warning(
                "GitHub: waiting %s for %s, until %s",
                _duration(seconds),
                why,
                until.strftime("%H:%M:%S UTC"),
            )
        if seconds > 0:
            self.sleep(seconds)


class PatientRetry(Retry):
    """urllib3's ``Retry`` taught GitHub's rate limits, waiting through ``hooks.sleep``.

    A 403 or 429 is retried only when it is a rate limit: with ``Retry-After`` (waited as
    given), with ``x-ratelimit-remaining: 0`` (waited until ``x-ratelimit-reset``), or with
    a secondary-limit message (a minute, doubling). Any other 403 is not retried. A wait
    longer than ``hooks.max_wait`` raises :class:`RateLimitStop` instead.
    """

    def __init__(self, *, hooks: Hooks | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.hooks = hooks or Hooks()
        #: The wait the last answer asked for and why; None means the usual backoff.
        self.planned: tuple[float, str] | None = None

    def new(self, **kw: Any) -> Self:
        kw.setdefault("hooks", self.hooks)
        return super().new(**kw)

    def increment(
        self,
        method: str | None = None,
        url: str | None = None,
        response: BaseHTTPResponse | None = None,
        error: Exception | None = None,
        _pool: ConnectionPool | None = None,
        _stacktrace: Any = None,
    ) -> Self:
        """Return the next retry state after ``response`` or ``error``, or raise to stop."""
        if error is not None and unreachable(error):
            # A name that does not resolve or a refused connection: retrying with backoff
            # only makes an offline run wait minutes before saying so.
            raise MaxRetryError(_pool, url or "", error) from error  # type: ignore[arg-type]
        wait = self._wait_for(response) if response is not None else None
        try:
            retry = super().increment(method, url, response, error, _pool, _stacktrace)
        except MaxRetryError:
            if response is not None and response.status in RATE_LIMITED:
                # Its body was read to classify it; PyGithub would find it empty.
                raise _exception(response) from None
            raise
        retry.planned = wait
        if error is not None:  # A timeout may have been a long silence: say what happens next.
            self.hooks.log.warning(
                "GitHub: no answer (%s); trying again (retries left after this one: %s)",
                type(error).__name__,
                retry.total,
            )
        if self.hooks.meter is not None:
            self.hooks.meter.retries += 1
        return retry

    def sleep(self, response: BaseHTTPResponse | None = None) -> None:
        """Wait what the last answer asked for, else the exponential backoff."""
        if self.planned is None:
            wait, why = self.get_backoff_time(), f"retry {len(self.history)} after {self._last()}"
        else:
            wait, why = self.planned
        self.hooks.wait(wait, why)

    def _last(self) -> str:
        """Say what went wrong with the last attempt (a status or an error's kind)."""
        if not self.history:
            return "a failure"
        last = self.history[-1]
        if last.status is not None:
            return f"HTTP {last.status}"
        return type(last.error).__name__ if last.error is not None else "a failure"

    def _wait_for(self, response: BaseHTTPResponse) -> tuple[float, str] | None:
        """Return the wait ``response`` asks for and why (None: the usual backoff).

        Raises :class:`RateLimitStop` for a wait that is too long, and PyGithub's exception
        for a 403 or 429 that is no rate limit.
        """
        headers = response.headers
        after = headers.get("Retry-After")
        if response.status not in RATE_LIMITED:
            return self._allowed(self.parse_retry_after(after), "Retry-After") if after else None
        if after is not None:
            return self._allowed(self.parse_retry_after(after), "rate limited, Retry-After")
        reset = headers.get("x-ratelimit-reset", "")
        wait = reset_wait(reset) if headers.get("x-ratelimit-remaining") == "0" else None
        if wait is not None:
            return self._allowed(wait, f"rate limit exhausted until {_clock(int(reset))}")
        if Requester.isRateLimitError(_message(response)):
            return self._allowed(SECONDARY_WAIT * 2 ** len(self.history), "secondary rate limit")
        raise _exception(response)

    def _allowed(self, wait: float, why: str) -> tuple[float, str]:
        """Return ``(wait, why)`` if ``wait`` is within ``hooks.max_wait``, else raise."""
        if wait > self.hooks.max_wait:
            raise RateLimitStop(
                f"GitHub asks to wait {_duration(wait)} ({why}), longer than "
                f"github.max_reset_wait ({self.hooks.max_wait:.0f} s); try again later"
            )
        return wait, why


def reset_wait(reset: str) -> float | None:
    """Return the seconds to wait for the rate-limit reset at epoch ``reset`` (None: no epoch)."""
    if not reset.isdigit():
        return None
    return max(0.0, int(reset) - time.time()) + 1  # the reset second is not exact


def _message(response: BaseHTTPResponse) -> str:
    """Return the ``message`` of a JSON error body (read and kept by urllib3), else ''."""
    try:
        body = json.loads(response.data or b"{}")
    except ValueError:
        return ""
    return str(body.get("message") or "") if isinstance(body, dict) else ""


def _exception(response: BaseHTTPResponse) -> GithubException:
    """Return PyGithub's exception for the error ``response`` (whose body urllib3 read)."""
    try:
        body = json.loads(response.data or b"{}")
    except ValueError:
        body = {"message": response.data.decode("utf-8", "replace")[:300]}
    headers = {k.lower(): v for k, v in response.headers.items()}
    return Requester.createException(response.status, headers, body)


def _clock(epoch: int) -> str:
    return dt.datetime.fromtimestamp(epoch, dt.UTC).strftime("%H:%M UTC")


#: Waits longer than this are logged with what they wait for and until when.
VISIBLE_WAIT = 5.0


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"


@dataclass
class Client:
    """A PyGithub connection and what the Wire needs to know about it."""

    github: Github
    meter: Meter
    hooks: Hooks
    #: The variable the token came from; None when anonymous.
    token_variable: str | None
    token: str | None = field(repr=False)  # never in a log line or a traceback
    url: str
    timeout: float
    #: Whether the server has a GraphQL API: None until the first GraphQL request tells.
    graphql: bool | None = None
    #: Warnings already given on this run (each is said once per run, not per repository).
    warned: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._redact = Redactor([self.token]) if self.token else None  # PyGithub logs at DEBUG
        if self._redact is not None:
            logging.getLogger("github").addFilter(self._redact)
            logging.getLogger("github.Requester").addFilter(self._redact)

    def close(self) -> None:
        self.github.close()
        if self._redact is not None:
            logging.getLogger("github").removeFilter(self._redact)
            logging.getLogger("github.Requester").removeFilter(self._redact)

    def redact(self, text: str) -> str:
        """Return ``text`` with the token, in any spelling a library or server used, replaced."""
        return self._redact.redact(redact(text)) if self._redact is not None else redact(text)

    def explain(self, error: BaseException) -> str:
        """Return one line saying what went wrong in ``error``, for a user, without the token."""
        return self.redact(one_line(explain(error, self.url, self.timeout)))[:500]

    def traceback(self, error: BaseException) -> str:
        """Return the traceback of ``error``, without the token, for a debug log."""
        return self.redact("".join(traceback.format_exception(error)))


def connect(
    settings: Settings,
    env: Mapping[str, str],
    *,
    sleep: Callable[[float], None] = time.sleep,
    backoff_factor: float = 1.0,
    log: logging.Logger | None = None,
) -> Client:
    """Return a :class:`Client` for the API root and token of ``settings`` and ``env``."""
    check_secrets(env)
    found = find_token(env)
    variable, token = found if found else (None, None)
    meter = Meter(token)
    log = log or logging.getLogger("digest.sources")
    hooks = Hooks(sleep, settings.github.max_reset_wait, meter, log)
    retry = PatientRetry(
        hooks=hooks,
        total=settings.github.retries,
        backoff_factor=backoff_factor,
        status_forcelist=[*range(500, 600), *RATE_LIMITED],
        allowed_methods=frozenset({"GET", "POST"}),  # GraphQL queries are POSTs and safe to repeat
        raise_on_status=False,
        respect_retry_after_header=True,
    )
    url = api_url(settings, env)
    timeout = max(1, math.ceil(settings.github.timeout))  # PyGithub insists on whole seconds
    github = Github(
        auth=meter,
        base_url=url,
        timeout=timeout,
        user_agent=_USER_AGENT,
        per_page=100,
        retry=retry,
        seconds_between_requests=None,
        seconds_between_writes=None,
    )
    return Client(github, meter, hooks, variable, token, url, timeout)
