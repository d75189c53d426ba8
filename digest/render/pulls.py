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

from markupsafe import Markup, escape
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


class CitedBy(Struct, frozen=True):
    """An edition citing a change: its headline, project and day."""

    headline: str
    project: str
    date_label: str
    date_iso: str
    path: str


class PullPage(Struct, frozen=True):
    """A cited pull request's page: where it goes and what the site knows around it."""

    path: str
    repo: str
    number: int
    #: The day it was merged (its first citing edition's day).
    day: dt.date
    cited_by: tuple[CitedBy, ...]
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
        cited_by=tuple(
            CitedBy(e.headline, e.project, e.date_label, e.date_iso, e.path) for e in editions
        ),
        corrections=tuple(c for c in reported.get(key, ()) if c.date >= first.date),
    )


def breakable(path: str) -> Markup:
    """``path`` escaped, with a line-break opportunity after each ``/`` and ``_``,
    so a long name wraps there and not mid-word."""
    return Markup(_breakable(path))


def _breakable(path: str) -> str:
    """:func:`breakable` as text (escaping makes neither ``/`` nor ``_``)."""
    return str(escape(path)).replace("/", "/<wbr>").replace("_", "_<wbr>")


class FileRow(Struct, frozen=True):
    name: str
    additions: int | None
    deletions: int | None

    @property
    def shown(self) -> Markup:
        return breakable(self.name)


class Folder(Struct, frozen=True):
    """Files of one directory (two levels at most) with their line counts."""

    path: str
    files: tuple[FileRow, ...]
    additions: int
    deletions: int

    @property
    def shown(self) -> Markup:
        return breakable(self.path)


class ReviewView(Struct, frozen=True):
    """How a change was reviewed, as far as its source knows (git knows nothing of it)."""

    approved_by: tuple[str, ...]
    #: Who asked for changes (and did not approve afterwards).
    changes_requested_by: tuple[str, ...]
    #: Who only commented in a review.
    commented_by: tuple[str, ...]
    #: ``12 comments and 4 review comments from 5 people``, or ``""``.
    discussion: str
    #: The issues it closes, linked on the forge.
    closes: tuple[Link, ...]


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
    #: ``folders`` as the page lists them: a heading and a list of files each.
    file_list: Markup
    changed_files: int
    additions: int
    deletions: int
    #: None when the source does not know how it was reviewed (a git clone).
    review: ReviewView | None
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
    base = f"{_web_root(pull)}/issues/"
    folders = _folders(pull)
    return PullView(
        page=page,
        title=one_line(pull.title),
        heading=title_html(one_line(pull.title)),
        url=safe_url(pull.url),
        author=one_line(pull.author),
        merged_label=f"{long_date(merged.date())}, {merged:%H:%M} UTC",
        merged_iso=merged.isoformat(),
        tldr=tuple(one_line(sentence) for sentence in in_short),
        folders=folders,
        file_list=file_list(folders),
        changed_files=pull.changed_files or len(pull.files),
        additions=pull.additions,
        deletions=pull.deletions,
        review=review_view(pull, base),
        issues=tuple(Link(f"#{n}", f"{base}{n}") for n in pull.linked_issues),
        reverts=_link_text(pull.reverts.repo, pull.reverts.number) if pull.reverts else "",
        relands=_link_text(pull.relands.repo, pull.relands.number) if pull.relands else "",
    )


def review_view(pull: PullRequest, issues_base: str) -> ReviewView | None:
    """How ``pull`` was reviewed; None when its source does not say (no reviews and no
    comment counts: a git clone)."""
    if not pull.reviews and pull.comments is None and pull.review_comments is None:
        return None
    # Each reviewer's last word counts: a request for changes followed by an approval is
    # an approval.
    last: dict[str, str] = {}
    for review in pull.reviews:
        author = one_line(review.author)
        if review.state in ("APPROVED", "CHANGES_REQUESTED"):
            last[author] = review.state
        else:
            last.setdefault(author, review.state)
    approved = tuple(a for a, state in last.items() if state == "APPROVED")
    asked = tuple(a for a, state in last.items() if state == "CHANGES_REQUESTED")
    commented = tuple(
        a for a, state in last.items() if state not in ("APPROVED", "CHANGES_REQUESTED")
    )
    parts = []
    if pull.comments:
        parts.append(count(pull.comments, "comment"))
    if pull.review_comments:
        parts.append(count(pull.review_comments, "review comment"))
    discussion = " and ".join(parts)
    people = len(pull.participants)
    if discussion and people:
        discussion += f" from {count(people, 'person', 'people')}"
    elif not discussion and (pull.comments == 0 or pull.review_comments == 0):
        discussion = "no comments"
    return ReviewView(
        approved_by=approved,
        changes_requested_by=asked,
        commented_by=commented,
        discussion=discussion,
        closes=tuple(Link(f"#{n}", f"{issues_base}{n}") for n in pull.linked_issues),
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


#: The minus sign of a count of lines deleted (U+2212).
_MINUS = "\u2212"


def file_list(folders: Sequence[Folder]) -> Markup:
    """The files of ``folders`` as a page lists them: each folder's path and line counts
    as a heading, then its files with theirs (``binary`` when the source counted none).

    Made here rather than in the template: a change's page lists up to thousands of files,
    and a loop in Jinja2 costs several calls a file (most of a full build's template calls).
    """
    lines = []
    for folder in folders:
        lines.append(
            f'<h3 class="folder"><span class="path">{_breakable(folder.path)}</span> '
            f'<span class="meta">+{folder.additions}&nbsp;{_MINUS}{folder.deletions}</span></h3>'
        )
        lines.append('<ul class="file-list">')
        for row in folder.files:
            counts = (
                "binary"
                if row.additions is None
                else f"+{row.additions}&nbsp;{_MINUS}{row.deletions}"
            )
            lines.append(
                f'<li><span class="path">{_breakable(row.name)}</span> '
                f'<span class="meta">{counts}</span></li>'
            )
        lines.append("</ul>")
    return Markup("\n".join(lines))


def _order(correction: Correction) -> tuple[dt.date, str, str, str, str]:
    # To the end: two editions can report the same revert.
    c = correction
    return (c.date, c.kind, c.target, c.by_label, c.edition.path)
