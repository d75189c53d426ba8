"""The GitHub source: one per run, reading every repository through one client.

See the package docstring for how a day's merges are found.
"""

from __future__ import annotations

import datetime as dt
import time
import weakref
from collections.abc import Callable
from typing import Any, Protocol

from msgspec import Struct

from digest.config import RepoSettings
from digest.errors import TRACEBACKS, WireError
from digest.models import PullRequest
from digest.sources.base import SourceContext, day_window
from digest.sources.github.client import Client, api_url, connect, find_token
from digest.sources.github.errors import (
    API_ERRORS,
    NotFound,
    QueryError,
    RateLimitStop,
    Renamed,
    Unavailable,
)
from digest.sources.github.graphql import GraphQLSearch
from digest.sources.github.hints import ModeHint, iso, landed, mode_hint, search_query
from digest.sources.github.query import Budget
from digest.sources.github.records import finish
from digest.sources.github.rest import RestSearch
from digest.text import count

#: Most results one search query can return.
SEARCH_LIMIT = 1000
#: How long after a day ends GitHub's search index may still miss some of its merges.
INDEX_LAG = dt.timedelta(hours=1)
_SECOND = dt.timedelta(seconds=1)
#: Everything that reading a repository may raise, turned into one WireError.
_FAILURES: tuple[type[BaseException], ...] = (
    NotFound,
    Renamed,
    RateLimitStop,
    QueryError,
    *API_ERRORS,
)


class _Search(Protocol):
    kind: str

    def search(self, query: str, limit: int | None) -> list[PullRequest] | None: ...

    def describe_budget(self) -> str: ...


class RateBudget(Struct, frozen=True):
    """What is left of one rate limit (``core``, ``search``, ``graphql``)."""

    resource: str
    remaining: int
    limit: int
    reset: dt.datetime


class GitHubSource:
    """Reads merged pull requests from the GitHub API; see the module docstring.

    One source serves a whole run: every repository is read through its one client, so
    what is learnt once (no GraphQL on this server, no token) is probed and said once.
    ``sleep`` is called for every wait (backoff, ``Retry-After``, rate-limit reset);
    ``backoff_factor`` scales urllib3's exponential backoff between retries.
    """

    def __init__(
        self,
        context: SourceContext,
        *,
        sleep: Callable[[float], None] = time.sleep,
        backoff_factor: float = 1.0,
    ) -> None:
        self.context = context
        self.sleep = sleep
        self.backoff_factor = backoff_factor
        self._client: Client | None = None

    def collect(self, repo: RepoSettings, day: dt.date) -> tuple[PullRequest, ...]:
        """Return the pull requests merged into ``repo`` on ``day`` (UTC), oldest first.

        Raises :class:`WireError` naming the repository when it cannot be read.
        """
        start, end = day_window(day)
        log = self.context.log
        if self.context.clock.now() < end + INDEX_LAG:
            log.warning(
                "%s %s: the day ended less than an hour ago and GitHub's search index lags; "
                "merges may be missing (a run an hour after the day's end collects it again)",
                repo.name,
                day,
            )
        client = self.client
        sent = client.meter.sent
        client.hooks.start(self.context.settings.github.deadline)
        if client.token is None and "anonymous" not in client.warned:
            client.warned.add("anonymous")
            log.warning(
                "no GITHUB_TOKEN (or GH_TOKEN): reading GitHub anonymously through REST, "
                "about 3 requests per pull request against a limit of 60 an hour; "
                "set GITHUB_TOKEN"
            )
        try:
            search, found = self._gather(client, repo, start, end)
            pulls = finish(repo.name, found, start, end)
            budget = search.describe_budget()
        except _FAILURES as error:
            raise self._failure(client, repo, error) from None
        if not pulls:
            self._hint(client, repo, start, end, f"on {day}")
        log.info(
            "%s %s: %s via %s for %s; %s",
            repo.name,
            day,
            count(client.meter.sent - sent, "GitHub request"),
            search.kind,
            count(len(pulls), "pull request"),
            budget,
        )
        return pulls

    def settings_used(self, repo: RepoSettings) -> dict[str, str]:
        """The settings a collection of ``repo`` depends on: the API root and ``merged_label``."""
        used = {"api_url": api_url(self.context.settings, self.context.env)}
        if repo.merged_label is not None:
            used["merged_label"] = repo.merged_label
        return used

    def check(self, repo: RepoSettings) -> None:
        """Raise :class:`WireError` unless ``repo`` answers to its name (one request)."""
        client = self.client
        try:
            RestSearch(client, repo).check()
        except _FAILURES as error:
            raise self._failure(client, repo, error) from None

    def check_mode(self, repo: RepoSettings, days: int = 7) -> tuple[int, ModeHint | None]:
        """Return how many pull requests landed in ``repo`` as configured in the ``days`` whole
        days before now, and, when none did, the fix the other kind of landing calls for.

        Raises :class:`WireError` naming the repository when it cannot be read.
        """
        end = day_window(self.context.clock.now().date())[0]
        start = end - dt.timedelta(days=days)
        client = self.client
        try:
            found = landed(client, repo, start, end)
            hint = (
                None if found else mode_hint(client, repo, start, end, f"in the last {days} days")
            )
        except _FAILURES as error:
            raise self._failure(client, repo, error) from None
        return found, hint

    def check_graphql(self) -> Budget | None:
        """Ask GraphQL one tiny question; return its budget, or None when the server has none.

        Raises :class:`WireError` when GraphQL is there but the question fails (a refused
        token, a server error). Without a token there is nothing to ask: None.
        """
        client = self.client
        if client.token is None:
            return None
        try:
            return GraphQLSearch.probe(client)
        except Unavailable:
            return None
        except _FAILURES as error:
            raise WireError(f"GitHub GraphQL: {client.explain(error)}") from None

    def rate_limits(self) -> tuple[RateBudget, ...]:
        """Return what is left of the ``core``, ``search`` and ``graphql`` rate limits."""
        client = self.client
        try:
            _, data = client.github.requester.requestJsonAndCheck("GET", "/rate_limit")
            resources: dict[str, Any] = data["resources"]
            return tuple(
                RateBudget(
                    name,
                    int(resources[name]["remaining"]),
                    int(resources[name]["limit"]),
                    dt.datetime.fromtimestamp(int(resources[name]["reset"]), dt.UTC),
                )
                for name in ("core", "search", "graphql")
                if isinstance(resources.get(name), dict)
            )
        except _FAILURES as error:
            raise WireError(f"GitHub rate limit: {client.explain(error)}") from None

    def token_variable(self) -> str | None:
        """Return the environment variable the token comes from (None: anonymous)."""
        found = find_token(self.context.env)
        return found[0] if found else None

    @property
    def client(self) -> Client:
        """The run's one client for the configured API root and the environment's token."""
        if self._client is None:
            self._client = connect(
                self.context.settings,
                self.context.env,
                sleep=self.sleep,
                backoff_factor=self.backoff_factor,
                log=self.context.log,
            )
            weakref.finalize(self, self._client.close)
        return self._client

    def _gather(
        self, client: Client, repo: RepoSettings, start: dt.datetime, end: dt.datetime
    ) -> tuple[_Search, list[PullRequest]]:
        """Return the search used and every pull request it found for ``[start, end)``."""
        if client.token is not None and client.graphql is not False:
            graphql = GraphQLSearch(client, repo)
            try:
                return graphql, self._window(graphql, repo, start, end)
            except Unavailable as missing:  # said once: the client remembers it for the run
                self.context.log.warning(
                    "GitHub: no GraphQL API at %s; reading every repository through REST "
                    "(about 3 requests per pull request)",
                    missing,
                )
        rest = RestSearch(client, repo)
        rest.check()
        return rest, self._window(rest, repo, start, end)

    def _window(
        self, search: _Search, repo: RepoSettings, start: dt.datetime, end: dt.datetime
    ) -> list[PullRequest]:
        """Return what ``search`` finds in ``[start, end)``, splitting it while over 1,000."""
        splittable = end - start > _SECOND
        found = search.search(search_query(repo, start, end), SEARCH_LIMIT if splittable else None)
        if found is not None:
            return found
        middle = start + dt.timedelta(seconds=(end - start) // _SECOND // 2)
        self.context.log.info(
            "%s: over %s merges from %s to %s; searching each half",
            repo.name,
            f"{SEARCH_LIMIT:,}",
            iso(start),
            iso(end),
        )
        return self._window(search, repo, start, middle) + self._window(search, repo, middle, end)

    def _hint(
        self, client: Client, repo: RepoSettings, start: dt.datetime, end: dt.datetime, when: str
    ) -> None:
        """Warn when ``repo``, empty ``when``, shows the other kind of landing (one request)."""
        try:
            hint = mode_hint(client, repo, start, end, when)
        except _FAILURES as error:  # only advice: its failure changes nothing collected
            self.context.log.debug("%s: no merge-mode check (%s)", repo.name, client.explain(error))
            return
        if hint is not None:
            self.context.log.warning("%s: %s; %s", repo.name, hint.detail, hint.fix)

    def _failure(self, client: Client, repo: RepoSettings, error: BaseException) -> WireError:
        """Return the one error the user sees for ``error`` while reading ``repo``."""
        if isinstance(error, NotFound):
            variable = client.token_variable
            who = f"the token in {variable}" if variable else "anonymous access"
            return WireError(
                f"{repo.name}: no such repository at {client.url} (or it is private and "
                f"{who} cannot see it); check its name in the configuration"
            )
        if isinstance(error, Renamed):
            return WireError(
                f"{repo.name}: the repository was renamed or moved to {error.name}; "
                f"put 'name: {error.name}' in the configuration"
            )
        TRACEBACKS.debug("%s: %s", repo.name, client.traceback(error))
        return WireError(f"{repo.name}: {client.explain(error)}")
