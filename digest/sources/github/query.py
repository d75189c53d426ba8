"""The GraphQL queries of the GitHub source and the checked shapes of their answers.

One :data:`SEARCH` request returns up to 100 pull requests with everything the writer uses
(labels, files, reviews, comment counts, participants, closing issues, merge commit or, for a
pull request a merge bot closed, the commit that closed it),
the repository's canonical name (to tell a missing or renamed repository) and the rate-limit
budget. Only a pull request with more than 100 files needs more: one :data:`FILES` request
per further 100 files. Answers are validated by msgspec structs, so a malformed answer is
one clear error rather than a ``KeyError`` later.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Generic, TypeVar

import msgspec
from msgspec import Struct

from digest.models import FileChange, PullRequest, Review
from digest.sources.github.records import pull_request

PAGE = 100
_FILE = "pageInfo { hasNextPage endCursor } nodes { path additions deletions }"
_BUDGET = "rateLimit { limit remaining resetAt cost }"
_PULL = f"""
      id number title body url mergedAt closedAt
      author {{ login }}
      additions deletions changedFiles
      mergeCommit {{ oid }}
      labels(first: 50) {{ nodes {{ name }} }}
      files(first: {PAGE}) {{ {_FILE} }}
      reviews(first: 100) {{ nodes {{ author {{ login }} state comments {{ totalCount }} }} }}
      comments {{ totalCount }}
      participants(first: 100) {{ nodes {{ login }} }}
      closingIssuesReferences(first: 25) {{ nodes {{ number repository {{ nameWithOwner }} }} }}
      timelineItems(itemTypes: [CLOSED_EVENT], last: 1) @include(if: $closer) {{
        nodes {{ ... on ClosedEvent {{ closer {{ ... on Commit {{ oid }} }} }} }}
      }}"""

SEARCH = f"""query WireDay(
  $owner: String!, $name: String!, $query: String!, $after: String, $closer: Boolean = false
) {{
  {_BUDGET}
  repository(owner: $owner, name: $name) {{ nameWithOwner }}
  search(type: ISSUE, query: $query, first: {PAGE}, after: $after) {{
    issueCount
    pageInfo {{ hasNextPage endCursor }}
    nodes {{ ... on PullRequest {{{_PULL}
    }} }}
  }}
}}"""

FILES = f"""query WireFiles($id: ID!, $after: String) {{
  {_BUDGET}
  node(id: $id) {{ ... on PullRequest {{ files(first: {PAGE}, after: $after) {{ {_FILE} }} }} }}
}}"""

#: The smallest question: does GraphQL answer this token, and with what budget.
PROBE = f"query WireProbe {{ {_BUDGET} }}"

T = TypeVar("T")
S = TypeVar("S")


def shaped(answer: object, shape: type[S]) -> S:
    """``answer`` (decoded JSON) read as ``shape``, unknown fields ignored and numbers given
    as text accepted; raise ``msgspec.ValidationError``, saying where, when it is not."""
    return msgspec.convert(answer, shape, strict=False)


class _Shape(Struct, frozen=True):
    """Part of an answer: the fields the Wire reads (others are ignored), typed.

    Subclasses say ``frozen=True`` again for type checkers.
    """


class Nodes(_Shape, Generic[T], frozen=True):
    nodes: list[T | None]

    def present(self) -> list[T]:
        return [node for node in self.nodes if node is not None]


class Count(_Shape, frozen=True):
    totalCount: int


class Login(_Shape, frozen=True):
    login: str


class Name(_Shape, frozen=True):
    name: str


class PageInfo(_Shape, frozen=True):
    hasNextPage: bool
    endCursor: str | None = None


class File(_Shape, frozen=True):
    path: str
    additions: int
    deletions: int


class Files(Nodes[File], frozen=True):
    pageInfo: PageInfo


class ReviewNode(_Shape, frozen=True):
    author: Login | None
    state: str
    comments: Count


class Oid(_Shape, frozen=True):
    oid: str


class Repository(_Shape, frozen=True):
    nameWithOwner: str


class Issue(_Shape, frozen=True):
    number: int
    repository: Repository


class Closed(_Shape, frozen=True):
    #: ``{"oid": ...}`` when a commit closed it; ``{}`` for another closer (a pull request).
    closer: dict[str, Any] | None = None

    def commit(self) -> str | None:
        oid = (self.closer or {}).get("oid")
        return oid if isinstance(oid, str) else None


class Pull(_Shape, frozen=True):
    id: str
    number: int
    title: str
    body: str
    url: str
    mergedAt: dt.datetime | None
    closedAt: dt.datetime | None
    author: Login | None
    additions: int
    deletions: int
    changedFiles: int
    mergeCommit: Oid | None
    labels: Nodes[Name] | None
    files: Files | None
    reviews: Nodes[ReviewNode] | None
    comments: Count
    participants: Nodes[Login]
    closingIssuesReferences: Nodes[Issue] | None
    #: The last time it was closed; by a commit when a merge bot landed it (asked for
    #: only with ``merged_label``: a merged pull request has its merge commit).
    timelineItems: Nodes[Closed] | None = None

    def commit(self) -> str | None:
        """Return the merge commit, else the commit that closed it (a merge bot's), else None."""
        if self.mergeCommit is not None:
            return self.mergeCommit.oid
        closed = self.timelineItems.present() if self.timelineItems else []
        return closed[-1].commit() if closed else None


class Search(_Shape, frozen=True):
    issueCount: int
    pageInfo: PageInfo
    #: Items that are no pull request (or hidden from the token) come as ``{}``.
    nodes: list[dict[str, Any] | None]

    def pulls(self) -> list[Pull]:
        return [shaped(node, Pull) for node in self.nodes if node]


class Budget(_Shape, frozen=True):
    limit: int
    remaining: int
    resetAt: dt.datetime
    cost: int


class SearchData(_Shape, frozen=True, kw_only=True):
    rateLimit: Budget | None = None
    repository: Repository | None
    search: Search


class PullFiles(_Shape, frozen=True):
    files: Files | None = None


class FilesData(_Shape, frozen=True, kw_only=True):
    rateLimit: Budget | None = None
    node: PullFiles | None


def record(pull: Pull, repo: str, files: list[File], closed_is_merged: bool) -> PullRequest | None:
    """Return the record of ``pull`` of ``repo`` with all its ``files``.

    ``closed_is_merged``: the repository's merge bot closes pull requests, so the closing
    time is the merge time. None when ``pull`` has no such time (it was not merged).
    """
    merged_at = pull.closedAt if closed_is_merged else pull.mergedAt
    if merged_at is None:
        return None
    reviews = pull.reviews.present() if pull.reviews else []
    closes = pull.closingIssuesReferences.present() if pull.closingIssuesReferences else []
    return pull_request(
        repo,
        number=pull.number,
        title=pull.title,
        body=pull.body,
        url=pull.url,
        merged_at=merged_at,
        author=pull.author.login if pull.author else None,
        sha=pull.commit(),
        labels=[label.name for label in pull.labels.present()] if pull.labels else (),
        files=[FileChange(f.path, f.additions, f.deletions) for f in files],
        additions=pull.additions,
        deletions=pull.deletions,
        changed_files=pull.changedFiles,
        reviews=[Review(r.author.login if r.author else "", r.state) for r in reviews],
        comments=pull.comments.totalCount,
        review_comments=sum(r.comments.totalCount for r in reviews),
        participants=[user.login for user in pull.participants.present()],
        linked_issues=tuple(
            dict.fromkeys(
                i.number for i in closes if i.repository.nameWithOwner.lower() == repo.lower()
            )
        ),
    )
