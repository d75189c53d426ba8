"""Search a repository's merged pull requests through GitHub's GraphQL API (needs a token).

One request per 100 pull requests, plus one per further 100 files of a pull request with
more than 100; the rate-limit budget comes with every answer.
"""

from __future__ import annotations

from typing import Any

from github.GithubException import GithubException

from digest.config import RepoSettings
from digest.models import PullRequest
from digest.sources.github.client import Client, reset_wait
from digest.sources.github.errors import (
    NotFound,
    QueryError,
    RateLimitStop,
    Renamed,
    Unavailable,
)
from digest.sources.github.query import (
    FILES,
    PROBE,
    SEARCH,
    Budget,
    File,
    FilesData,
    Pull,
    SearchData,
    record,
    shaped,
)


class GraphQLSearch:
    """Finds the pull requests of ``repo`` that a search query matches, through GraphQL."""

    kind = "GraphQL"

    def __init__(self, client: Client, repo: RepoSettings) -> None:
        self.client = client
        self.repo = repo
        #: The merge bot closes pull requests, so the closing time is the merge time.
        self.label_mode = repo.merged_label is not None
        self.budget: Budget | None = None

    def search(self, query: str, limit: int | None) -> list[PullRequest] | None:
        """Return the pull requests ``query`` finds, or None as soon as it finds over ``limit``.

        Raises :class:`NotFound` or :class:`Renamed` when the repository is not there.
        """
        owner, name = self.repo.name.split("/", 1)
        # Sorted by creation time, which never changes, so pages do not shift.
        variables: dict[str, Any] = {"owner": owner, "name": name, "closer": self.label_mode}
        variables["query"] = f"{query} sort:created-asc"
        pulls: list[Pull] = []
        while True:
            data = shaped(self._post(SEARCH, variables), SearchData)
            self._check_repository(data)
            if limit is not None and data.search.issueCount > limit:
                return None
            pulls += data.search.pulls()
            cursor = data.search.pageInfo.endCursor
            if not data.search.pageInfo.hasNextPage or not cursor:
                break
            variables["after"] = cursor
        records = (record(p, self.repo.name, self._files(p), self.label_mode) for p in pulls)
        return [found for found in records if found is not None]

    @classmethod
    def probe(cls, client: Client) -> Budget:
        """Ask GraphQL for its rate limit only (costs nothing); return it.

        Raises :class:`Unavailable` when the server has no GraphQL API.
        """
        search = cls(client, RepoSettings(name="probe/probe"))
        return shaped(search._post(PROBE, {})["rateLimit"], Budget)

    def describe_budget(self) -> str:
        """Return the GraphQL rate-limit budget the last answer reported."""
        if self.budget is None:
            return "rate limit unknown"
        reset = self.budget.resetAt.strftime("%H:%M UTC")
        return f"GraphQL budget {self.budget.remaining:,} of {self.budget.limit:,}, resets {reset}"

    def _check_repository(self, data: SearchData) -> None:
        if data.repository is None:
            raise NotFound(self.repo.name)
        if data.repository.nameWithOwner.lower() != self.repo.name.lower():
            raise Renamed(data.repository.nameWithOwner)

    def _files(self, pull: Pull) -> list[File]:
        """Return every file of ``pull`` it can read: the first page it came with, then the rest.

        A further page that fails or comes back empty is asked for once more, then the whole
        list through REST; a list still short is flagged when the record is built.
        """
        if pull.files is None:
            return []
        files = list(pull.files.present())
        page = pull.files.pageInfo
        retried = False
        while page.hasNextPage and page.endCursor:
            try:
                more = shaped(
                    self._post(FILES, {"id": pull.id, "after": page.endCursor}), FilesData
                )
            except _PAGE_FAILURES as error:
                more, problem = None, _one_line(error)
            else:
                problem = "an empty answer"
            if more is None or more.node is None or more.node.files is None:
                if retried:
                    self.client.hooks.log.warning(
                        "%s#%d: files after the first %d could not be read through GraphQL "
                        "(%s); trying REST",
                        self.repo.name,
                        pull.number,
                        len(files),
                        self.client.redact(problem),
                    )
                    return max(files, self._rest_files(pull.number), key=len)
                retried = True
                continue
            files += more.node.files.present()
            page = more.node.files.pageInfo
        return files

    def _rest_files(self, number: int) -> list[File]:
        """Return the files of pull request ``number`` as REST lists them; [] if that fails."""
        try:
            repository = self.client.github.get_repo(self.repo.name)
            return [
                File(path=f.filename, additions=f.additions, deletions=f.deletions)
                for f in repository.get_pull(number).get_files()
            ]
        except _PAGE_FAILURES as error:
            self.client.hooks.log.warning(
                "%s#%d: REST could not list its files either (%s)",
                self.repo.name,
                number,
                self.client.explain(error),
            )
            return []

    def _post(self, query: str, variables: dict[str, Any]) -> dict[str, Any]:
        """Send one GraphQL ``query``; return its ``data``, waiting once for a short rate limit.

        Raises :class:`Unavailable` when the first request finds no GraphQL endpoint.
        """
        requester = self.client.github.requester
        body = {"query": query, "variables": variables}
        for attempt in range(2):
            try:
                headers, answer = requester.requestJsonAndCheck(
                    "POST", requester.graphql_url, input=body
                )
            except GithubException as error:
                if error.status == 404 and self.client.graphql is None:
                    self.client.graphql = False
                    raise Unavailable(requester.graphql_url) from error
                raise
            self.client.graphql = True
            if not isinstance(answer, dict):
                raise ValueError("the GraphQL answer is not a JSON object")
            errors = answer.get("errors") or []
            if attempt == 0 and _rate_limited(errors):
                self._wait_for_reset(headers)
                continue
            data = answer.get("data")
            if errors:
                self._judge(errors, data)
            if not isinstance(data, dict):
                raise ValueError("the GraphQL answer has no data")
            if isinstance(data.get("rateLimit"), dict):
                self.budget = shaped(data["rateLimit"], Budget)
            return data
        raise QueryError("still rate limited after waiting for the reset")

    def _judge(self, errors: list[Any], data: Any) -> None:
        """Raise for the GraphQL ``errors`` of an answer, unless ``data`` came with them.

        GitHub answers a field it may not show (a private issue a pull request closes)
        with an error and a null, next to everything else: that is worth a warning only.
        """
        found = [error for error in errors if isinstance(error, dict)]
        messages = "; ".join(str(e.get("message", e)) for e in found or errors)[:300]
        for error in found:
            if error.get("type") == "NOT_FOUND" and (error.get("path") or [])[:1] == ["repository"]:
                raise NotFound(self.repo.name)
        useful = isinstance(data, dict) and any(v for k, v in data.items() if k != "rateLimit")
        if _rate_limited(errors) or not useful:
            raise QueryError(messages)
        self.client.hooks.log.warning(
            "%s: GitHub's GraphQL answer came with errors (%s); using the rest of it",
            self.repo.name,
            messages,
        )

    def _wait_for_reset(self, headers: dict[str, Any]) -> None:
        """Sleep until the rate limit that ``headers`` describe resets, if that is soon enough."""
        wait = reset_wait(str(headers.get("x-ratelimit-reset", "")))
        if wait is None:
            wait = 60.0
        hooks = self.client.hooks
        if wait > hooks.max_wait:
            raise RateLimitStop(
                f"GitHub's GraphQL rate limit is exhausted for {wait / 60:.0f} min, longer than "
                f"github.max_reset_wait ({hooks.max_wait:.0f} s); try again later"
            )
        hooks.wait(wait, "the exhausted GraphQL rate limit to reset")


#: What one request for a page may fail with, short of a rate limit that stops the repository.
_PAGE_FAILURES = (GithubException, QueryError, ValueError, OSError)


def _one_line(error: BaseException) -> str:
    return " ".join(f"{type(error).__name__}: {error}".split())[:200]


def _rate_limited(errors: list[Any]) -> bool:
    return any(isinstance(e, dict) and e.get("type") == "RATE_LIMITED" for e in errors)
