"""Search a repository's merged pull requests through GitHub's REST API.

Used without a token (GitHub's GraphQL API needs one) and against servers without GraphQL.
It costs one request for the repository, one per 100 search results, and three per pull
request (the pull request, its files, its reviews), four for one a merge bot closed (its
events tell the commit that closed it). Participants are the author and the
reviewers only, and closing issues are read from the body's closing keywords.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from github.GithubException import UnknownObjectException
from github.NamedUser import NamedUser
from github.Repository import Repository
from requests.utils import parse_header_links

from digest.config import RepoSettings
from digest.models import FileChange, PullRequest, Review
from digest.sources.github.client import Client
from digest.sources.github.errors import NotFound, Renamed
from digest.sources.github.query import T, _Shape, shaped
from digest.sources.github.records import closing_references, pull_request


class Item(_Shape, frozen=True):
    """What a search result tells about an issue or pull request."""

    number: int
    closed_at: dt.datetime | None = None
    #: Present for pull requests only.
    pull_request: dict[str, Any] | None = None


class Event(_Shape, frozen=True):
    """One event of an issue's (or pull request's) history."""

    event: str
    #: For ``closed``: the commit that closed it (a merge bot's push), if a commit did.
    commit_id: str | None = None


class SearchPage(_Shape, frozen=True):
    total_count: int
    items: list[Item]


class RestSearch:
    """Finds the pull requests of ``repo`` that a search query matches, through REST."""

    kind = "REST"

    def __init__(self, client: Client, repo: RepoSettings) -> None:
        self.client = client
        self.repo = repo
        #: The merge bot closes pull requests, so the closing time is the merge time.
        self.label_mode = repo.merged_label is not None
        self._repository: Repository | None = None

    def check(self) -> Repository:
        """Return the repository; raise NotFound or Renamed unless it answers to its name."""
        try:
            found = self.client.github.get_repo(self.repo.name)
        except UnknownObjectException:
            raise NotFound(self.repo.name) from None
        # PyGithub follows GitHub's 301 for a renamed repository to its new name.
        if found.full_name.lower() != self.repo.name.lower():
            raise Renamed(found.full_name)
        self._repository = found
        return found

    def search(self, query: str, limit: int | None) -> list[PullRequest] | None:
        """Return the pull requests ``query`` finds, or None as soon as it finds over ``limit``.

        Search pages are read and checked here (PyGithub's lists take any answer for a page);
        the pull requests behind them are read through PyGithub. The repository is checked
        first unless :meth:`check` already was.
        """
        repository = self._repository if self._repository is not None else self.check()
        requester = self.client.github.requester
        url: str | None = "/search/issues"
        parameters: dict[str, Any] = {"q": query, "sort": "created", "order": "asc"}
        parameters["per_page"] = 100
        items: list[Item] = []
        while url:
            headers, data = requester.requestJsonAndCheck("GET", url, parameters=parameters)
            page = shaped(data, SearchPage)
            if limit is not None and page.total_count > limit:
                return None
            items += [item for item in page.items if item.pull_request is not None]
            url, parameters = _next(headers.get("link", "")), {}
        records = (self._record(repository, item) for item in items)
        return [found for found in records if found is not None]

    def describe_budget(self) -> str:
        """Return the rate-limit budget the last answer reported."""
        remaining, limit = self.client.github.requester.rate_limiting
        return f"REST budget {remaining:,} of {limit:,}" if limit >= 0 else "rate limit unknown"

    def _record(self, repository: Repository, item: Item) -> PullRequest | None:
        """Read the pull request behind the search result ``item``; None if it was not merged."""
        pull = repository.get_pull(item.number)
        merged_at = item.closed_at if self.label_mode else pull.merged_at
        if merged_at is None:
            return None
        author = _login(pull.user)
        reviews = tuple(
            Review(_login(r.user) or "", _is(r.state, str, "review state"))
            for r in pull.get_reviews()
        )
        files = tuple(
            FileChange(
                _is(f.filename, str, "file name"),
                _is(f.additions, int, "additions"),
                _is(f.deletions, int, "deletions"),
            )
            for f in pull.get_files()
        )
        body = pull.body or ""
        people = [author, *(r.author for r in reviews)]
        return pull_request(
            self.repo.name,
            number=_is(pull.number, int, "pull request number"),
            title=pull.title or "",
            body=body,
            url=pull.html_url or "",
            merged_at=_is(merged_at, dt.datetime, "merge time"),
            author=author,
            sha=pull.merge_commit_sha if pull.merged else self._closing_commit(item.number),
            labels=tuple(_is(label.name, str, "label") for label in pull.labels),
            files=files,
            additions=pull.additions or 0,
            deletions=pull.deletions or 0,
            changed_files=pull.changed_files or 0,
            reviews=reviews,
            comments=pull.comments,
            review_comments=pull.review_comments,
            participants=tuple(dict.fromkeys(p for p in people if p)),
            linked_issues=closing_references(body, self.repo.name),
        )

    def _closing_commit(self, number: int) -> str | None:
        """Return the commit that last closed pull request ``number`` (None: no commit did).

        A merge bot pushes the commit and closes the pull request "in" it, as GraphQL's
        ``ClosedEvent.closer`` tells; REST tells it in the ``closed`` event's ``commit_id``.
        """
        requester = self.client.github.requester
        url: str | None = f"/repos/{self.repo.name}/issues/{number}/events"
        parameters: dict[str, Any] = {"per_page": 100}
        closed: Event | None = None
        while url:
            headers, data = requester.requestJsonAndCheck("GET", url, parameters=parameters)
            if not isinstance(data, list):
                raise ValueError(f"the events of #{number} are not a list")
            for event in (shaped(e, Event) for e in data):
                closed = event if event.event == "closed" else closed
            url, parameters = _next(headers.get("link", "")), {}
        return closed.commit_id if closed is not None else None


def _is(value: object, kind: type[T], what: str) -> T:
    """Return ``value`` if it is a ``kind``; raise ValueError naming ``what`` if not.

    PyGithub objects answer None for a key missing from a malformed answer.
    """
    if not isinstance(value, kind):
        raise ValueError(f"{what} is {value!r}")
    return value


def _login(user: NamedUser | None) -> str | None:
    """Return the login of ``user`` (None: a deleted account)."""
    return _is(user.login, str, "login") if user is not None else None


def _next(link: str) -> str | None:
    """Return the ``rel="next"`` URL of a ``link`` header, if any."""
    return next(
        (part["url"] for part in parse_header_links(link) if part.get("rel") == "next"), None
    )
