"""A local stand-in for GitHub's REST and GraphQL APIs, served on 127.0.0.1 for tests.

Status codes, JSON shapes and headers (``x-ratelimit-*``, ``link``, ``retry-after``,
``content-type``) follow real answers recorded in ``../shared/github-api``; the data is
made up by each test: repositories, pull requests with their labels, files, reviews and
comments, and faults injected by request number. Every request is recorded and counted.

Only the parts of the APIs the GitHub source uses are here: ``POST /graphql`` (the day
search and the files of a pull request), ``GET /repos/{owner}/{repo}``,
``/repositories/{id}``, ``/search/issues``, ``/repos/.../pulls/{n}`` with ``/files`` and
``/reviews``, ``/repos/.../issues/{n}/events``, and ``/rate_limit``.
"""

from __future__ import annotations

import base64
import datetime as dt
import email.utils
import hashlib
import json
import re
import shlex
import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

WEB = "https://github.com"
DOCS = "https://docs.github.com/rest"
SEARCH_CAP = 1000
#: The status :meth:`FakeGitHub.answer` gives for "hang up without answering".
RESET = 0
SECONDARY = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
)
Json = Any


@dataclass
class FakePull:
    """A pull request of a fake repository; ``merged_at`` None means closed unmerged."""

    number: int
    title: str
    merged_at: dt.datetime | None
    body: str = ""
    author: str | None = "ada"
    labels: tuple[str, ...] = ()
    #: ``(path, additions, deletions)``.
    files: tuple[tuple[str, int, int], ...] = (("src/main.py", 3, 1),)
    #: ``(reviewer, state, review comments)``.
    reviews: tuple[tuple[str, str, int], ...] = ()
    comments: int = 0
    participants: tuple[str, ...] = ()
    #: Issues of the same repository the pull request closes.
    closes: tuple[int, ...] = ()
    closed_at: dt.datetime | None = None
    #: The commit that closed it: a merge bot pushed it and closed the pull request "in" it.
    closed_by: str | None = None

    @property
    def closed(self) -> dt.datetime:
        moment = self.closed_at or self.merged_at
        assert moment is not None, "a fake pull request needs merged_at or closed_at"
        return moment

    @property
    def sha(self) -> str:
        return hashlib.sha1(f"merge {self.number}".encode()).hexdigest()


@dataclass
class FakeRepo:
    name: str
    id: int
    pulls: list[FakePull] = field(default_factory=list)
    #: Hidden from everyone, as a private repository is from a token without access.
    private: bool = False
    #: Names it had before a rename; REST answers them with a 301, GraphQL resolves them.
    old_names: tuple[str, ...] = ()


@dataclass
class Fault:
    """What to answer instead of the normal answer (after ``delay`` seconds)."""

    #: None: answer normally, after the delay.
    status: int | None = 500
    body: Json = field(default_factory=lambda: {"message": "Server Error"})
    #: Bytes sent as the body instead of ``body`` (a truncated or broken answer).
    raw: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    #: Hang up at once, without an answer (the client sees a connection reset).
    reset: bool = False

    @classmethod
    def server_error(cls, status: int = 502) -> Fault:
        return cls(status, {"message": "Server Error"})

    @classmethod
    def secondary(cls, status: int = 403, retry_after: int | None = 60) -> Fault:
        headers = {"retry-after": str(retry_after)} if retry_after is not None else {}
        body = {"message": SECONDARY, "documentation_url": f"{DOCS}#secondary-rate-limits"}
        return cls(status, body, headers=headers)

    @classmethod
    def exhausted(cls, reset_in: int, status: int = 403) -> Fault:
        headers = {
            "x-ratelimit-remaining": "0",
            "x-ratelimit-reset": str(int(time.time()) + reset_in),
        }
        body = {"message": "API rate limit exceeded for user ID 1.", "documentation_url": DOCS}
        return cls(status, body, headers=headers)

    @classmethod
    def slow(cls, seconds: float) -> Fault:
        return cls(None, delay=seconds)

    @classmethod
    def hang_up(cls) -> Fault:
        return cls(None, reset=True)

    @classmethod
    def malformed(cls, raw: bytes = b'{"data": {"search": {"issueCount": 3, "nodes": [') -> Fault:
        return cls(200, raw=raw)


@dataclass(frozen=True)
class Seen:
    """One request the server received (numbered from 1)."""

    number: int
    method: str
    path: str
    query: dict[str, list[str]]
    authorization: str | None
    body: Json


class FakeGitHub:
    """The state and the answers of the fake API; ``url`` is its root."""

    def __init__(self) -> None:
        self.url = ""
        self.repos: dict[str, FakeRepo] = {}
        self.faults: dict[int, Fault] = {}
        self.seen: list[Seen] = []
        #: False: answer 404 to POST /graphql, like a server without GraphQL.
        self.graphql = True
        #: When set, any other token gets a 401.
        self.token: str | None = None
        self.used: dict[str, int] = {"core": 0, "search": 0, "graphql": 0}
        self.release = threading.Event()
        self._lock = threading.Lock()

    # Scenario.
    def add(self, name: str, *pulls: FakePull, **options: Any) -> FakeRepo:
        repo = FakeRepo(name, 1000 + len(self.repos), list(pulls), **options)
        self.repos[name.lower()] = repo
        return repo

    def count(self, prefix: str = "") -> int:
        """How many requests had a path starting with ``prefix``."""
        return sum(1 for seen in self.seen if seen.path.startswith(prefix))

    # Dispatch.
    def answer(
        self, method: str, target: str, authorization: str | None, body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        parts = urlsplit(target)
        query = parse_qs(parts.query)
        payload = json.loads(body) if body else None
        with self._lock:
            number = len(self.seen) + 1
            self.seen.append(Seen(number, method, parts.path, query, authorization, payload))
            fault = self.faults.get(number)
        resource = _resource(parts.path)
        if fault is not None and fault.delay:
            self.release.wait(fault.delay)
        if fault is not None and fault.reset:
            return RESET, {}, b""
        if fault is not None and fault.status is not None:
            data = fault.raw if fault.raw is not None else json.dumps(fault.body).encode()
            return fault.status, self._headers(resource, authorization) | fault.headers, data
        status, extra, data = self._route(method, parts.path, query, authorization, payload)
        return status, self._headers(resource, authorization) | extra, json.dumps(data).encode()

    def _route(
        self,
        method: str,
        path: str,
        query: dict[str, list[str]],
        authorization: str | None,
        payload: Json,
    ) -> tuple[int, dict[str, str], Json]:
        if self.token and authorization and authorization != f"token {self.token}":
            return 401, {}, {"message": "Bad credentials", "documentation_url": DOCS}
        if method == "POST" and path == "/graphql":
            return self._graphql(authorization, payload)
        if method != "GET":
            return 404, {}, _not_found()
        if path == "/rate_limit":
            return 200, {}, self._rate_limit(authorization)
        if path == "/search/issues":
            return self._search_issues(query)
        if match := re.fullmatch(r"/repositories/(\d+)", path):
            repo = next((r for r in self.repos.values() if r.id == int(match[1])), None)
            return (200, {}, self._repo_json(repo)) if repo else (404, {}, _not_found())
        if match := re.fullmatch(r"/repos/([^/]+/[^/]+)(/.*)?", path):
            return self._repo_route(match[1], match[2] or "", query)
        return 404, {}, _not_found()

    # REST.
    def _repo_route(
        self, name: str, rest: str, query: dict[str, list[str]]
    ) -> tuple[int, dict[str, str], Json]:
        repo = self._visible(name)
        if repo is None:
            moved = self._moved(name)
            if moved is not None and not rest:
                location = f"{self.url}/repositories/{moved.id}"
                body = {"message": "Moved Permanently", "url": location, "documentation_url": DOCS}
                return 301, {"location": location}, body
            return 404, {}, _not_found()
        if not rest:
            return 200, {}, self._repo_json(repo)
        match = re.fullmatch(r"/pulls/(\d+)(/files|/reviews)?", rest)
        events = re.fullmatch(r"/issues/(\d+)/events", rest)
        found = match or events
        pull = next((p for p in repo.pulls if found and p.number == int(found[1])), None)
        if pull is not None and events is not None:
            return self._paged(f"/repos/{repo.name}{rest}", query, self._events_json(repo, pull))
        if match is None or pull is None:
            return 404, {}, _not_found()
        if match[2] is None:
            return 200, {}, self._pull_json(repo, pull)
        items = (
            [self._file_json(repo, f) for f in pull.files]
            if match[2] == "/files"
            else [self._review_json(repo, pull, i, r) for i, r in enumerate(pull.reviews)]
        )
        return self._paged(f"/repos/{repo.name}{rest}", query, items)

    def _paged(
        self, path: str, query: dict[str, list[str]], items: list[Json]
    ) -> tuple[int, dict[str, str], Json]:
        per_page = min(100, int(query.get("per_page", ["30"])[0]))
        page = int(query.get("page", ["1"])[0])
        last = max(1, -(-len(items) // per_page))
        headers = self._links(path, {"per_page": str(per_page)}, page, last)
        return 200, headers, items[(page - 1) * per_page : page * per_page]

    def _links(self, path: str, params: dict[str, str], page: int, last: int) -> dict[str, str]:
        def link(n: int, rel: str) -> str:
            return f'<{self.url}{path}?{urlencode(params | {"page": str(n)})}>; rel="{rel}"'

        rels = []
        if page > 1:
            rels += [link(page - 1, "prev")]
        if page < last:
            rels += [link(page + 1, "next"), link(last, "last")]
        if page > 1:
            rels += [link(1, "first")]
        return {"link": ", ".join(rels)} if rels else {}

    def _search_issues(self, query: dict[str, list[str]]) -> tuple[int, dict[str, str], Json]:
        q = query.get("q", [""])[0]
        repo, matches = self._matches(q)
        if repo is None:
            return 422, {}, _unsearchable()
        per_page = min(100, int(query.get("per_page", ["30"])[0]))
        page = int(query.get("page", ["1"])[0])
        if (page - 1) * per_page >= SEARCH_CAP:
            message = "Only the first 1000 search results are available"
            return 422, {}, {"message": message, "documentation_url": DOCS}
        last = max(1, -(-min(len(matches), SEARCH_CAP) // per_page))
        params = {"q": q, "per_page": str(per_page)}
        for key in ("sort", "order"):
            if key in query:
                params[key] = query[key][0]
        chosen = matches[(page - 1) * per_page : page * per_page]
        body = {
            "total_count": len(matches),
            "incomplete_results": False,
            "items": [self._issue_json(repo, pull) for pull in chosen],
        }
        return 200, self._links("/search/issues", params, page, last), body

    # GraphQL.
    def _graphql(
        self, authorization: str | None, payload: Json
    ) -> tuple[int, dict[str, str], Json]:
        if not self.graphql:
            return 404, {}, _not_found()
        if authorization is None:
            body = {"message": "This endpoint requires you to be authenticated."}
            return 401, {}, body | {"documentation_url": f"{DOCS}/graphql"}
        query: str = payload["query"]
        variables: dict[str, Any] = payload.get("variables") or {}
        data: dict[str, Any] = {"rateLimit": self._graphql_budget()}
        if "search(" in query:
            return self._graphql_search(variables, data)
        if "node(" in query:
            data["node"] = self._files_page(variables["id"], variables.get("after"))
            return 200, {}, {"data": data}
        if re.fullmatch(r"query \w+ \{ rateLimit \{[\w ]+\} \}", query.strip()):
            return 200, {}, {"data": data}  # the budget alone: a probe of the token
        return 200, {}, {"errors": [{"message": "the fake does not know this query"}]}

    def _graphql_search(
        self, variables: dict[str, Any], data: dict[str, Any]
    ) -> tuple[int, dict[str, str], Json]:
        name = f"{variables['owner']}/{variables['name']}"
        repo = self._visible(name) or self._moved(name)
        data["repository"] = {"nameWithOwner": repo.name} if repo else None
        found, matches = self._matches(variables["query"])
        offset = _offset(variables.get("after"))
        end = min(offset + 100, min(len(matches), SEARCH_CAP))
        data["search"] = {
            "issueCount": len(matches),
            "pageInfo": {
                "hasNextPage": end < min(len(matches), SEARCH_CAP),
                "endCursor": _cursor(end),
            },
            "nodes": [
                self._pull_node(found, p, closer=bool(variables.get("closer")))
                for p in matches[offset:end]
            ]
            if found
            else [],
        }
        answer: dict[str, Any] = {"data": data}
        if repo is None:
            answer["errors"] = [
                {
                    "type": "NOT_FOUND",
                    "path": ["repository"],
                    "locations": [{"line": 3, "column": 3}],
                    "message": f"Could not resolve to a Repository with the name '{name}'.",
                }
            ]
        return 200, {}, answer

    def _files_page(self, node_id: str, after: str | None) -> Json:
        _, repo_id, number = node_id.split("_")
        repo = next(r for r in self.repos.values() if r.id == int(repo_id))
        pull = next(p for p in repo.pulls if p.number == int(number))
        return {"files": _files_connection(pull, _offset(after))}

    # Search.
    def _matches(self, q: str) -> tuple[FakeRepo | None, list[FakePull]]:
        """Return the repository a search names and its pull requests it matches, oldest first."""
        terms = shlex.split(q)
        qualifiers: dict[str, list[str]] = {}
        for term in terms:
            key, _, value = term.partition(":")
            qualifiers.setdefault(key, []).append(value)
        repo = self._visible(qualifiers.get("repo", [""])[0])
        if repo is None:
            return None, []
        pulls = list(repo.pulls)
        if "merged" in qualifiers.get("is", []):
            pulls = [p for p in pulls if p.merged_at is not None]
        if "unmerged" in qualifiers.get("is", []):  # closed without a merge (all are closed)
            pulls = [p for p in pulls if p.merged_at is None]
        for label in qualifiers.get("label", []):
            pulls = [p for p in pulls if label in p.labels]
        for key, moment in (("merged", "merged_at"), ("closed", "closed")):
            for span in qualifiers.get(key, []):
                low, high = (_parse_time(t) for t in span.split(".."))
                pulls = [p for p in pulls if (m := getattr(p, moment)) and low <= m <= high]
        return repo, sorted(pulls, key=lambda p: p.number)

    def _visible(self, name: str) -> FakeRepo | None:
        repo = self.repos.get(name.lower())
        return repo if repo is not None and not repo.private else None

    def _moved(self, name: str) -> FakeRepo | None:
        """Return the visible repository that used to be called ``name``."""
        for repo in self.repos.values():
            if not repo.private and name.lower() in (old.lower() for old in repo.old_names):
                return repo
        return None

    # JSON of objects.
    def _user(self, login: str | None) -> Json:
        if login is None:
            return None
        uid = int(hashlib.sha1(login.encode()).hexdigest()[:6], 16)
        return {
            "login": login,
            "id": uid,
            "node_id": f"U_{uid}",
            "avatar_url": f"https://avatars.githubusercontent.com/u/{uid}?v=4",
            "url": f"{self.url}/users/{quote(login)}",
            "html_url": f"{WEB}/{login}",
            "type": "User",
            "site_admin": False,
        }

    def _label(self, repo: FakeRepo, name: str) -> Json:
        lid = int(hashlib.sha1(name.encode()).hexdigest()[:6], 16)
        return {
            "id": lid,
            "node_id": f"LA_{lid}",
            "url": f"{self.url}/repos/{repo.name}/labels/{quote(name)}",
            "name": name,
            "color": "ededed",
            "default": False,
            "description": None,
        }

    def _repo_json(self, repo: FakeRepo) -> Json:
        owner, name = repo.name.split("/")
        return {
            "id": repo.id,
            "node_id": f"R_{repo.id}",
            "name": name,
            "full_name": repo.name,
            "private": False,
            "owner": self._user(owner),
            "html_url": f"{WEB}/{repo.name}",
            "url": f"{self.url}/repos/{repo.name}",
            "default_branch": "main",
        }

    def _issue_json(self, repo: FakeRepo, pull: FakePull) -> Json:
        api = f"{self.url}/repos/{repo.name}"
        return {
            "url": f"{api}/issues/{pull.number}",
            "repository_url": api,
            "html_url": f"{WEB}/{repo.name}/pull/{pull.number}",
            "id": repo.id * 100_000 + pull.number,
            "node_id": f"PR_{repo.id}_{pull.number}",
            "number": pull.number,
            "title": pull.title,
            "user": self._user(pull.author),
            "labels": [self._label(repo, label) for label in pull.labels],
            "state": "closed",
            "locked": False,
            "assignee": None,
            "assignees": [],
            "milestone": None,
            "comments": pull.comments,
            "created_at": _iso(pull.closed - dt.timedelta(days=1)),
            "updated_at": _iso(pull.closed),
            "closed_at": _iso(pull.closed),
            "author_association": "MEMBER",
            "draft": False,
            "pull_request": {
                "url": f"{api}/pulls/{pull.number}",
                "html_url": f"{WEB}/{repo.name}/pull/{pull.number}",
                "merged_at": _iso(pull.merged_at),
            },
            "body": pull.body,
            "state_reason": "completed",
            "score": 1.0,
        }

    def _pull_json(self, repo: FakeRepo, pull: FakePull) -> Json:
        api = f"{self.url}/repos/{repo.name}"
        merged = pull.merged_at is not None
        return {
            "url": f"{api}/pulls/{pull.number}",
            "id": repo.id * 100_000 + pull.number,
            "node_id": f"PR_{repo.id}_{pull.number}",
            "html_url": f"{WEB}/{repo.name}/pull/{pull.number}",
            "issue_url": f"{api}/issues/{pull.number}",
            "number": pull.number,
            "state": "closed",
            "locked": False,
            "title": pull.title,
            "user": self._user(pull.author),
            "body": pull.body or None,
            "labels": [self._label(repo, label) for label in pull.labels],
            "created_at": _iso(pull.closed - dt.timedelta(days=1)),
            "updated_at": _iso(pull.closed),
            "closed_at": _iso(pull.closed),
            "merged_at": _iso(pull.merged_at),
            # GitHub gives a test-merge sha even for a pull request closed unmerged.
            "merge_commit_sha": pull.sha,
            "merged": merged,
            "mergeable": None,
            "merged_by": self._user("merge-bot") if merged else None,
            "comments": pull.comments,
            "review_comments": sum(r[2] for r in pull.reviews),
            "commits": 1,
            "additions": sum(f[1] for f in pull.files),
            "deletions": sum(f[2] for f in pull.files),
            "changed_files": len(pull.files),
        }

    def _events_json(self, repo: FakeRepo, pull: FakePull) -> list[Json]:
        """The pull request's history: labelled (by the bot, as it lands it), then closed."""
        api = f"{self.url}/repos/{repo.name}"
        bot = self._user("merge-bot")
        history: list[Json] = [
            {"event": "labeled", "label": {"name": label, "color": "ededed"}}
            for label in pull.labels
        ]
        history.append(
            {
                "event": "closed",
                "commit_id": pull.closed_by or (pull.sha if pull.merged_at else None),
                "commit_url": f"{api}/commits/{pull.closed_by}" if pull.closed_by else None,
                "state_reason": None,
            }
        )
        return [
            {
                "id": pull.number * 1000 + n,
                "node_id": f"IE_{pull.number}_{n}",
                "url": f"{api}/issues/events/{pull.number * 1000 + n}",
                "actor": bot,
                "commit_id": None,
                "commit_url": None,
                "created_at": _iso(pull.closed),
                "performed_via_github_app": None,
            }
            | event
            for n, event in enumerate(history)
        ]

    def _file_json(self, repo: FakeRepo, change: tuple[str, int, int]) -> Json:
        path, additions, deletions = change
        blob = hashlib.sha1(path.encode()).hexdigest()
        return {
            "sha": blob,
            "filename": path,
            "status": "modified",
            "additions": additions,
            "deletions": deletions,
            "changes": additions + deletions,
            "blob_url": f"{WEB}/{repo.name}/blob/{blob}/{quote(path)}",
            "raw_url": f"{WEB}/{repo.name}/raw/{blob}/{quote(path)}",
            "contents_url": f"{self.url}/repos/{repo.name}/contents/{quote(path)}?ref={blob}",
            "patch": "@@ -1 +1 @@",
        }

    def _review_json(
        self, repo: FakeRepo, pull: FakePull, index: int, review: tuple[str, str, int]
    ) -> Json:
        login, state, _ = review
        rid = pull.number * 100 + index
        return {
            "id": rid,
            "node_id": f"PRR_{rid}",
            "user": self._user(login),
            "body": "",
            "state": state,
            "html_url": f"{WEB}/{repo.name}/pull/{pull.number}#pullrequestreview-{rid}",
            "pull_request_url": f"{self.url}/repos/{repo.name}/pulls/{pull.number}",
            "submitted_at": _iso(pull.closed - dt.timedelta(hours=1)),
            "commit_id": pull.sha,
            "author_association": "MEMBER",
        }

    def _pull_node(self, repo: FakeRepo, pull: FakePull, *, closer: bool) -> Json:
        node = {
            "id": f"PR_{repo.id}_{pull.number}",
            "number": pull.number,
            "title": pull.title,
            "body": pull.body,
            "url": f"{WEB}/{repo.name}/pull/{pull.number}",
            "mergedAt": _iso(pull.merged_at),
            "closedAt": _iso(pull.closed),
            "author": {"login": pull.author} if pull.author else None,
            "additions": sum(f[1] for f in pull.files),
            "deletions": sum(f[2] for f in pull.files),
            "changedFiles": len(pull.files),
            "mergeCommit": {"oid": pull.sha} if pull.merged_at else None,
            "labels": {"nodes": [{"name": label} for label in pull.labels]},
            "files": _files_connection(pull, 0),
            "reviews": {
                "nodes": [
                    {"author": {"login": who}, "state": state, "comments": {"totalCount": n}}
                    for who, state, n in pull.reviews
                ]
            },
            "comments": {"totalCount": pull.comments},
            "participants": {"nodes": [{"login": login} for login in pull.participants]},
            "closingIssuesReferences": {
                "nodes": [
                    {"number": n, "repository": {"nameWithOwner": repo.name}} for n in pull.closes
                ]
            },
        }
        if closer:  # asked for with @include(if: $closer)
            node["timelineItems"] = {
                "nodes": [{"closer": {"oid": pull.closed_by} if pull.closed_by else None}]
            }
        return node

    # Headers and budgets.
    def _limits(self, authorization: str | None) -> dict[str, int]:
        if authorization:
            return {"core": 5000, "search": 30, "graphql": 5000}
        return {"core": 60, "search": 10, "graphql": 0}

    def _headers(self, resource: str | None, authorization: str | None) -> dict[str, str]:
        headers = {
            "content-type": "application/json; charset=utf-8",
            "date": email.utils.formatdate(usegmt=True),
            "x-github-media-type": "github.v4; format=json"
            if resource == "graphql"
            else "github.v3; format=json",
            "x-github-api-version-selected": "2022-11-28",
            "x-github-request-id": f"FAKE:{len(self.seen):04X}",
        }
        if resource is None:
            return headers
        with self._lock:
            self.used[resource] += 1
            used = self.used[resource]
        limit = self._limits(authorization)[resource]
        return headers | {
            "x-ratelimit-limit": str(limit),
            "x-ratelimit-remaining": str(max(0, limit - used)),
            "x-ratelimit-reset": str(_reset()),
            "x-ratelimit-used": str(used),
            "x-ratelimit-resource": resource,
        }

    def _graphql_budget(self) -> Json:
        used = self.used["graphql"] + 1
        reset = dt.datetime.fromtimestamp(_reset(), dt.UTC)
        return {"limit": 5000, "remaining": 5000 - used, "resetAt": _iso(reset), "cost": 1}

    def _rate_limit(self, authorization: str | None) -> Json:
        resources = {
            name: {
                "limit": limit,
                "used": self.used[name],
                "remaining": max(0, limit - self.used[name]),
                "reset": _reset(),
            }
            for name, limit in self._limits(authorization).items()
        }
        return {"resources": resources, "rate": resources["core"]}


def _files_connection(pull: FakePull, offset: int) -> Json:
    chosen = pull.files[offset : offset + 100]
    return {
        "pageInfo": {
            "hasNextPage": offset + 100 < len(pull.files),
            "endCursor": _cursor(offset + 100),
        },
        "nodes": [{"path": p, "additions": a, "deletions": d} for p, a, d in chosen],
    }


def _resource(path: str) -> str | None:
    if path == "/rate_limit":
        return None  # GitHub does not count this one
    if path == "/graphql":
        return "graphql"
    return "search" if path.startswith("/search/") else "core"


def _cursor(offset: int) -> str:
    return base64.b64encode(f"cursor:{offset}".encode()).decode()


def _offset(cursor: str | None) -> int:
    return int(base64.b64decode(cursor).decode().split(":")[1]) if cursor else 0


def _iso(moment: dt.datetime | None) -> str | None:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if moment else None


def _parse_time(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _reset() -> int:
    return (int(time.time()) // 3600 + 1) * 3600


def _not_found() -> Json:
    return {"message": "Not Found", "documentation_url": DOCS, "status": "404"}


def _unsearchable() -> Json:
    return {
        "message": "Validation Failed",
        "errors": [
            {
                "message": "The listed users and repositories cannot be searched either because "
                "the resources do not exist or you do not have permission to view them.",
                "resource": "Search",
                "field": "q",
                "code": "invalid",
            }
        ],
        "documentation_url": f"{DOCS}/search/search#search-issues-and-pull-requests",
    }


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # One write per answer, sent at once: headers and body in separate small packets
    # would wait on delayed ACKs (40 ms a request).
    wbufsize = 1 << 16
    disable_nagle_algorithm = True
    server: _Server

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def _serve(self, method: str) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        status, headers, data = self.server.fake.answer(
            method, self.path, self.headers.get("Authorization"), body
        )
        if status == RESET:  # close with SO_LINGER 0: the peer gets a TCP reset, not an answer
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            return
        try:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            self.close_connection = True  # the client gave up (a timeout test)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, fake: FakeGitHub) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.fake = fake

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that hung up mid-answer; the tests look at what the client saw


@contextmanager
def serve() -> Iterator[FakeGitHub]:
    """Run a :class:`FakeGitHub` on a free port of 127.0.0.1 for the ``with`` block."""
    fake = FakeGitHub()
    server = _Server(fake)
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake.release.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
