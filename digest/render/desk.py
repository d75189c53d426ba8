"""The action-items desk: every action item of the last 30 days in one place, and its feed.

A team lead reads one page instead of one per day: one line per item naming the change it
is about (its title and number), the item's words and its sources folded under it, grouped
by urgency (act now, plan, monitor), then by repository, newest edition first. Each desk
(the site's, a project's, a topic's) has a page per urgency beside the page of all of them,
and a filter by repository that works without JavaScript (the ``:target`` of a link, see
``actions.html``). The ``immediate`` items also make a feed (RSS and JSON Feed). The window
ends at the newest edition, never at the wall clock, so a rebuild gives the same page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from markupsafe import Markup
from msgspec import Struct

from digest.models import Urgency
from digest.render.markup import MarkupRenderer, safe_url, title_html
from digest.render.views import URGENCY_LABEL, URGENCY_ORDER, EditionActions, Entry, Link
from digest.text import one_line

#: How many days of editions the desk gathers, counted back from the newest edition.
DESK_DAYS = 30
#: The urgencies in the order desks show them.
URGENCIES = tuple(sorted(URGENCY_ORDER, key=URGENCY_ORDER.__getitem__))


class DeskRow(Struct, frozen=True):
    """One action item: the change it is about in one line, the rest folded under it."""

    urgency: str
    #: The change it is about: its title, `code` shown as code (or the item's words when
    #: it cites none).
    change: Markup
    #: ``#N`` of that change, or ``""``.
    number: str
    text: Markup
    repo: str
    #: The ``repo-…`` class the repository filter hides rows by.
    repo_key: str
    #: The edition it comes from, by its headline; and its date.
    edition: Link
    date_label: str
    date_iso: str
    project: str
    #: ``[n]`` links to the edition's references (site-relative paths with an anchor).
    refs: tuple[Link, ...]
    #: The change on its forge (GitHub), when its URL is safe.
    url: str | None


class RepoGroup(Struct, frozen=True):
    repo: str
    key: str
    rows: tuple[DeskRow, ...]


class UrgencyGroup(Struct, frozen=True):
    urgency: str
    label: str
    count: int
    repos: tuple[RepoGroup, ...]


class RepoFilter(Struct, frozen=True):
    """A repository of the desk, the anchor that shows it alone, and how many items it has."""

    repo: str
    key: str
    count: int


class Tab(Struct, frozen=True):
    """A link to one page of the desk (all items, or one urgency)."""

    label: str
    path: str
    count: int
    current: bool


def repo_key(repo: str) -> str:
    """A repository's name as a class and anchor (``pytorch/ao`` -> ``pytorch-ao``)."""
    return re.sub(r"[^a-z0-9]+", "-", repo.lower()).strip("-") or "repo"


def desk_rows(
    editions: Sequence[tuple[Entry, EditionActions]],
    markup: MarkupRenderer,
    root: str,
    topic: str | None = None,
) -> list[DeskRow]:
    """The rows of the action items of ``editions`` (newest first), of ``topic`` if given.

    ``root`` leads from the desk page back to the site root: the item's words link their
    citations to the edition page's references.
    """
    rows = []
    for entry, actions in editions:
        known = actions.known
        base = root + entry.path
        for index, item in enumerate(actions.items):
            if topic is not None and topic not in actions.topics_of(index):
                continue
            cited = [c for n in item.refs if n in known and (c := actions.change(n)) is not None]
            named = next((c for c in cited if c.number is not None), cited[0] if cited else None)
            repo = one_line(named.repo if named else item.repo) or one_line(item.repo)
            rows.append(
                DeskRow(
                    urgency=item.urgency.value,
                    change=title_html(named.title if named else one_line(item.text)),
                    number=f"#{named.number}" if named and named.number is not None else "",
                    text=markup.inline(item.text, known, base),
                    repo=repo,
                    repo_key=repo_key(repo),
                    edition=Link(entry.headline, entry.path),
                    date_label=entry.date_label,
                    date_iso=entry.date_iso,
                    project=entry.project,
                    refs=tuple(
                        Link(f"[{n}]", f"{entry.path}#ref-{n}") for n in item.refs if n in known
                    ),
                    url=safe_url(named.url) if named else None,
                )
            )
    return rows


def desk_groups(rows: Sequence[DeskRow]) -> tuple[UrgencyGroup, ...]:
    """``rows`` (newest first) grouped by urgency, then repository (by name)."""
    found: dict[str, dict[str, list[DeskRow]]] = {}
    for row in rows:
        found.setdefault(row.urgency, {}).setdefault(row.repo, []).append(row)
    return tuple(
        UrgencyGroup(
            urgency=urgency.value,
            label=URGENCY_LABEL[urgency],
            count=sum(len(group) for group in found[urgency.value].values()),
            repos=tuple(
                RepoGroup(repo, repo_key(repo), tuple(group))
                for repo, group in sorted(found[urgency.value].items())
            ),
        )
        for urgency in URGENCIES
        if urgency.value in found
    )


def repo_filters(rows: Sequence[DeskRow]) -> tuple[RepoFilter, ...]:
    """The repositories of ``rows``, by name, with their counts."""
    counts: dict[tuple[str, str], int] = {}
    for row in rows:
        counts[row.repo, row.repo_key] = counts.get((row.repo, row.repo_key), 0) + 1
    return tuple(RepoFilter(repo, key, n) for (repo, key), n in sorted(counts.items()))


class Alert(Struct, frozen=True):
    """One ``immediate`` action item as a feed item."""

    entry: Entry
    index: int
    text: str
    repo: str


def immediate_items(
    editions: Sequence[tuple[Entry, EditionActions]], limit: int, topic: str | None = None
) -> list[Alert]:
    """The ``immediate`` action items of ``editions`` (newest first), at most ``limit``;
    of ``topic`` only, if given."""
    alerts = []
    for entry, actions in editions:
        for index, item in enumerate(actions.items, start=1):
            if topic is not None and topic not in actions.topics_of(index - 1):
                continue
            if item.urgency is Urgency.IMMEDIATE:
                alerts.append(Alert(entry, index, one_line(item.text), one_line(item.repo)))
    return alerts[:limit]
