"""Turn what the GitHub API said about a day's pull requests into :class:`PullRequest` records.

Both ways of asking (GraphQL and REST) build their records with :func:`pull_request`;
:func:`finish` then puts titles and bodies through the same message parser as git commits,
so reverts and re-lands are linked exactly as the git source links them.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Iterable

import msgspec.structs

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


def pull_request(
    repo: str,
    *,
    number: int,
    title: str,
    body: str,
    url: str,
    merged_at: dt.datetime,
    author: str | None,
    sha: str | None,
    labels: Iterable[str] = (),
    files: Iterable[FileChange] = (),
    additions: int = 0,
    deletions: int = 0,
    changed_files: int = 0,
    reviews: Iterable[Review] = (),
    comments: int | None = None,
    review_comments: int | None = None,
    participants: Iterable[str] = (),
    linked_issues: tuple[int, ...] = (),
) -> PullRequest:
    """Return the record of pull request ``number`` of ``repo`` as the API described it.

    Every string is made one clean line (paths neutralised), a deleted author becomes
    ``ghost``, a list of files shorter than ``changed_files`` is flagged; ``title`` and
    ``body`` are still the API's, until :func:`finish` parses them.
    """
    changes = tuple(FileChange(neutralise(f.path), f.additions, f.deletions) for f in files)
    return PullRequest(
        repo=repo,
        number=number,
        title=title,
        body=body,
        url=_web_url(url, repo, number),
        merged_at=merged_at.astimezone(dt.UTC),
        author=one_line(author or "") or GHOST,
        sha=sha,
        labels=tuple(one_line(label) for label in labels),
        files=changes,
        additions=additions,
        deletions=deletions,
        changed_files=changed_files,
        files_complete=_files_complete(repo, number, len(changes), changed_files),
        reviews=tuple(Review(one_line(r.author) or GHOST, r.state.upper()) for r in reviews),
        comments=comments,
        review_comments=review_comments,
        participants=tuple(one_line(login) for login in participants),
        linked_issues=linked_issues,
    )


def finish(
    repo: str, pulls: Iterable[PullRequest], start: dt.datetime, end: dt.datetime
) -> tuple[PullRequest, ...]:
    """Return the ``pulls`` merged in ``[start, end)``, oldest first, messages parsed and
    reverts and re-lands linked as the git source links them.

    A pull request found twice (search pages shift while they are read) is kept once.
    """
    unique = {pull.number: pull for pull in pulls if start <= pull.merged_at < end}
    ordered = sorted(unique.values(), key=lambda pull: (pull.merged_at, pull.number))
    # The "(#N)" suffix makes the parser read the number as a squash commit's own.
    messages = [
        parse_message(p.sha or "", f"{one_line(p.title)} (#{p.number})\n\n{p.body}", repo)
        for p in ordered
    ]
    linker = Linker(repo, messages, {})
    links = [linker.links(message) for message in messages]
    return tuple(
        msgspec.structs.replace(pull, title=m.title, body=m.body, reverts=reverts, relands=relands)
        for pull, m, (reverts, relands) in zip(ordered, messages, links, strict=True)
    )


def closing_references(body: str, repo: str) -> tuple[int, ...]:
    """Return the issues of ``repo`` that ``body`` closes with GitHub's keywords, in order."""
    numbers: list[int] = []
    for match in _CLOSES.finditer(body):
        named = match[1] or match[2]
        if named is None or named.lower() == repo.lower():
            numbers.append(int(match[3]))
    return tuple(dict.fromkeys(numbers))


def _files_complete(repo: str, number: int, read: int, changed: int) -> bool:
    """True when ``read`` files are all ``changed`` ones of pull ``number``; warns when short."""
    if read >= changed:
        return True
    log.warning(
        "%s#%d: only %d of its %d changed files could be read; stored with files_complete: false",
        repo,
        number,
        read,
        changed,
    )
    return False


def _web_url(url: str, repo: str, number: int) -> str:
    """Return the API's web ``url`` of pull ``number`` if it is one, else github.com's."""
    if re.fullmatch(r"https?://[^\s\"'<>]+", url):
        return url
    return f"https://github.com/{repo}/pull/{number}"
