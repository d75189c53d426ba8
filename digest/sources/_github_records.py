"""Turn what the GitHub API said about a day's pull requests into :class:`PullRequest` records.

Both ways of asking (GraphQL and REST) produce :class:`RawPull` values; titles and bodies
then go through the same message parser as git commits, so reverts and re-lands are
linked exactly as the git source links them.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass

from digest.models import FileChange, PullRequest, Review
from digest.sources._gitlog import parse_message
from digest.sources._links import Linker
from digest.text import neutralise, one_line

log = logging.getLogger("digest.sources")

#: GitHub's name for the account of a deleted user.
GHOST = "ghost"
#: GitHub's closing keywords (``Fixes #12``, ``closes owner/repo#3``, ``resolved <issue URL>``).
_CLOSES = re.compile(
    r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b:?[ \t]+"
    r"(?:([\w.-]+/[\w.-]+)?#|https?://[^/\s]+/([\w.-]+/[\w.-]+)/issues/)([0-9]{1,9})\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class RawPull:
    """One merged pull request as the API described it, before links are resolved."""

    number: int
    title: str
    body: str
    #: The pull request's web page as the API gave it.
    url: str
    #: When it was merged (or, for label-merged repositories, closed).
    merged_at: dt.datetime
    author: str | None
    #: The merge commit; None when GitHub made none (a PR closed by a merge bot).
    sha: str | None
    labels: tuple[str, ...] = ()
    files: tuple[FileChange, ...] = ()
    additions: int = 0
    deletions: int = 0
    changed_files: int = 0
    reviews: tuple[Review, ...] = ()
    comments: int | None = None
    review_comments: int | None = None
    participants: tuple[str, ...] = ()
    linked_issues: tuple[int, ...] = ()


def build_pulls(
    repo: str, raws: Iterable[RawPull], start: dt.datetime, end: dt.datetime
) -> tuple[PullRequest, ...]:
    """Return the records of ``raws`` merged in ``[start, end)``, oldest first, links resolved.

    A pull request found twice (search pages shift while they are read) is kept once.
    """
    unique = {raw.number: raw for raw in raws if start <= raw.merged_at < end}
    ordered = sorted(unique.values(), key=lambda raw: (raw.merged_at, raw.number))
    # The "(#N)" suffix makes the parser read the number as a squash commit's own.
    messages = [
        parse_message(raw.sha or "", f"{one_line(raw.title)} (#{raw.number})\n\n{raw.body}", repo)
        for raw in ordered
    ]
    linker = Linker(repo, messages, {})
    links = [linker.links(message) for message in messages]
    return tuple(
        PullRequest(
            repo=repo,
            number=raw.number,
            title=message.title,
            body=message.body,
            url=_web_url(raw.url, repo, raw.number),
            merged_at=raw.merged_at.astimezone(dt.UTC),
            author=one_line(raw.author or "") or GHOST,
            sha=raw.sha,
            labels=tuple(one_line(label) for label in raw.labels),
            files=tuple(
                FileChange(neutralise(f.path), f.additions, f.deletions) for f in raw.files
            ),
            additions=raw.additions,
            deletions=raw.deletions,
            changed_files=raw.changed_files,
            files_complete=_files_complete(raw, repo),
            reviews=tuple(
                Review(one_line(r.author) or GHOST, r.state.upper()) for r in raw.reviews
            ),
            comments=raw.comments,
            review_comments=raw.review_comments,
            participants=tuple(one_line(login) for login in raw.participants),
            linked_issues=raw.linked_issues,
            reverts=reverts,
            relands=relands,
        )
        for raw, message, (reverts, relands) in zip(ordered, messages, links, strict=True)
    )


def closing_references(body: str, repo: str) -> tuple[int, ...]:
    """Return the issues of ``repo`` that ``body`` closes with GitHub's keywords, in order."""
    numbers: list[int] = []
    for match in _CLOSES.finditer(body):
        named = match[1] or match[2]
        if named is None or named.lower() == repo.lower():
            numbers.append(int(match[3]))
    return tuple(dict.fromkeys(numbers))


def _files_complete(raw: RawPull, repo: str) -> bool:
    """True when ``raw`` lists as many files as it says it changed; warns once when short."""
    if len(raw.files) >= raw.changed_files:
        return True
    log.warning(
        "%s#%d: only %d of its %d changed files could be read; stored with files_complete: false",
        repo,
        raw.number,
        len(raw.files),
        raw.changed_files,
    )
    return False


def _web_url(url: str, repo: str, number: int) -> str:
    """Return the API's web ``url`` of pull ``number`` if it is one, else github.com's."""
    if re.fullmatch(r"https?://[^\s\"'<>]+", url):
        return url
    return f"https://github.com/{repo}/pull/{number}"
