"""Corrections and pull-request pages: what happened to a cited change after its edition.

When a later day reverts a pull request that an earlier edition cited, the earlier
edition carries a dated correction linking the revert and the edition that reported it;
a later re-land links back the same way. Every cited pull request gets a page of its own
(``<project>/pr/<owner>-<repo>-<N>.html``): what it changed, file by file, the numbers,
what it reverts or re-lands, what later reverted it, and the editions that cited it.
All of it is computed from the listing entries, so an incremental build re-renders
exactly the corrected editions and the pages of the changes concerned.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence

from markupsafe import Markup
from msgspec import Struct

from digest.models import PullRequest
from digest.render.markup import safe_url, title_html
from digest.render.views import Entry, Link, long_date
from digest.text import count, one_line


class Correction(Struct, frozen=True):
    """A later day's revert or re-land of a change an edition cited."""

    #: ``revert`` or ``reland``.
    kind: str
    date: dt.date
    #: ``owner/repo#N`` of the cited change.
    target: str
    #: ``#N`` of the change that reverted or re-landed it (or ``a direct push``).
    by_label: str
    by_url: str | None
    #: The edition that reported the revert or re-land.
    edition: Link

    @property
    def date_label(self) -> str:
        return long_date(self.date)


class PullPage(Struct, frozen=True):
    """A cited pull request's page: where it goes and what the site knows around it."""

    path: str
    repo: str
    number: int
    #: The day it was merged (its first citing edition's day).
    day: dt.date
    cited_by: tuple[Link, ...]
    corrections: tuple[Correction, ...]


def pull_path(slug: str, key: str) -> str:
    """The page of the change ``owner/repo#N`` under project ``slug``."""
    repo, _, number = key.partition("#")
    return f"{slug}/pr/{repo.replace('/', '-')}-{number}.html"


def find_corrections(entries: Sequence[Entry]) -> dict[str, tuple[Correction, ...]]:
    """For each cited change, the reverts and re-lands that later days reported."""
    reported: dict[str, list[Correction]] = defaultdict(list)
    for entry in entries:
        for kind, target, by_number, by_url in entry.follow_ups:
            label = f"#{by_number}" if by_number is not None else "a direct push"
            link = Link(f"{entry.project}, {entry.date_label}", entry.path)
            reported[target].append(
                Correction(kind, entry.date, target, label, safe_url(by_url), link)
            )
    return {key: tuple(sorted(found, key=_order)) for key, found in reported.items()}


def edition_corrections(
    entry: Entry, reported: dict[str, tuple[Correction, ...]]
) -> tuple[Correction, ...]:
    """The corrections of ``entry``: later reverts and re-lands of the changes it cites."""
    found = [c for key in entry.cites for c in reported.get(key, ()) if c.date > entry.date]
    return tuple(sorted(set(found), key=_order))


def citations(entries: Sequence[Entry]) -> dict[str, list[Entry]]:
    """The editions citing each change (``owner/repo#N``), oldest first."""
    citing: dict[str, list[Entry]] = defaultdict(list)
    for entry in sorted(entries, key=lambda e: (e.date, e.slug)):
        for key in entry.cites:
            citing[key].append(entry)
    return citing


def pull_page(
    key: str, editions: Sequence[Entry], reported: dict[str, tuple[Correction, ...]]
) -> PullPage:
    """The page of change ``key``, cited by ``editions`` (oldest first), under the first."""
    first = editions[0]
    repo, _, number = key.partition("#")
    return PullPage(
        path=pull_path(first.slug, key),
        repo=repo,
        number=int(number),
        day=first.date,
        cited_by=tuple(Link(f"{e.project}, {e.date_label}", e.path) for e in editions),
        corrections=tuple(c for c in reported.get(key, ()) if c.date >= first.date),
    )


class FileRow(Struct, frozen=True):
    name: str
    additions: int | None
    deletions: int | None


class Folder(Struct, frozen=True):
    """Files of one directory (two levels at most) with their line counts."""

    path: str
    files: tuple[FileRow, ...]
    additions: int
    deletions: int


class PullView(Struct, frozen=True):
    """A pull request's page, ready to print (every text neutralised)."""

    page: PullPage
    title: str
    #: The title as the page's heading: `code` spans shown as code.
    heading: Markup
    url: str | None
    author: str
    merged_label: str
    merged_iso: str
    tldr: tuple[str, ...]
    folders: tuple[Folder, ...]
    changed_files: int
    additions: int
    deletions: int
    stats: tuple[str, ...]
    issues: tuple[Link, ...]
    reverts: str
    relands: str


def _web_root(pull: PullRequest) -> str:
    """Where ``pull``'s repository is browsed: its URL less ``/pull/N`` or ``/commit/<sha>``."""
    root, kind, _ = pull.url.rsplit("/", 2) if pull.url.count("/") >= 4 else ("", "", "")
    return root if kind in ("pull", "commit") else f"https://github.com/{pull.repo}"


def pull_view(pull: PullRequest, page: PullPage, in_short: tuple[str, ...] | None) -> PullView:
    """Return the view of ``pull`` for ``page``, opening with the ``in_short`` sentences.

    ``in_short`` comes from the citing edition's reference; None (an edition written before
    references carried it) has it worked out from the description here.
    """
    if in_short is None:
        # Loaded only for such old editions: rendering needs none of the summarize stage.
        from digest.summarize.clean import in_short as work_out

        in_short = work_out(pull.body, pull.title)
    merged = pull.merged_at.astimezone(dt.UTC)
    stats = []
    if pull.reviews:
        approvals = sum(1 for r in pull.reviews if r.state == "APPROVED")
        stats.append(f"{count(len(pull.reviews), 'review')} ({approvals} approving)")
    if pull.comments is not None:
        stats.append(count(pull.comments, "comment"))
    if pull.review_comments is not None:
        stats.append(count(pull.review_comments, "review comment"))
    if pull.participants:
        stats.append(count(len(pull.participants), "participant"))
    base = f"{_web_root(pull)}/issues/"
    return PullView(
        page=page,
        title=one_line(pull.title),
        heading=title_html(one_line(pull.title)),
        url=safe_url(pull.url),
        author=one_line(pull.author),
        merged_label=f"{long_date(merged.date())}, {merged:%H:%M} UTC",
        merged_iso=merged.isoformat(),
        tldr=tuple(one_line(sentence) for sentence in in_short),
        folders=_folders(pull),
        changed_files=pull.changed_files or len(pull.files),
        additions=pull.additions,
        deletions=pull.deletions,
        stats=tuple(stats),
        issues=tuple(Link(f"#{n}", f"{base}{n}") for n in pull.linked_issues),
        reverts=_link_text(pull.reverts.repo, pull.reverts.number) if pull.reverts else "",
        relands=_link_text(pull.relands.repo, pull.relands.number) if pull.relands else "",
    )


def _link_text(repo: str, number: int | None) -> str:
    return f"{one_line(repo)} #{number}" if number is not None else "a change reverted earlier"


def _folders(pull: PullRequest) -> tuple[Folder, ...]:
    groups: dict[str, list[FileRow]] = defaultdict(list)
    for change in pull.files:
        parts = one_line(change.path).split("/")
        folder = "/".join(parts[:-1][:2]) or "(top level)"
        name = "/".join(parts[len(folder.split("/")) :]) if folder != "(top level)" else parts[-1]
        groups[folder].append(FileRow(name, change.additions, change.deletions))
    return tuple(
        Folder(
            path=folder,
            files=tuple(sorted(rows, key=lambda r: r.name)),
            additions=sum(r.additions or 0 for r in rows),
            deletions=sum(r.deletions or 0 for r in rows),
        )
        for folder, rows in sorted(groups.items())
    )


def _order(correction: Correction) -> tuple[dt.date, str, str, str, str]:
    # To the end: two editions can report the same revert.
    c = correction
    return (c.date, c.kind, c.target, c.by_label, c.edition.path)
