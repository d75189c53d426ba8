"""The action-items desk: every action item of the last 30 days in one place, and its feed.

A team lead reads one page instead of one per day: items grouped by urgency (act now,
plan, monitor), then by repository, newest edition first, each linked to its edition and
the references it cites. The ``immediate`` items also make a feed (RSS and JSON Feed). The
window ends at the newest edition, never at the wall clock, so a rebuild gives the same page.
"""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup
from msgspec import Struct

from digest.models import Urgency
from digest.render.markup import MarkupRenderer
from digest.render.views import URGENCY_LABEL, URGENCY_ORDER, EditionActions, Entry, Link
from digest.text import one_line

#: How many days of editions the desk gathers, counted back from the newest edition.
DESK_DAYS = 30


class DeskRow(Struct, frozen=True):
    """One action item, with where it comes from."""

    text: Markup
    project: str
    edition: Link
    #: ``[n]`` links to the edition's references (site-relative paths with an anchor).
    refs: tuple[Link, ...]


class RepoGroup(Struct, frozen=True):
    repo: str
    rows: tuple[DeskRow, ...]


class UrgencyGroup(Struct, frozen=True):
    urgency: str
    label: str
    count: int
    repos: tuple[RepoGroup, ...]


def desk_groups(
    editions: Sequence[tuple[Entry, EditionActions]], markup: MarkupRenderer, root: str
) -> tuple[UrgencyGroup, ...]:
    """Group the action items of ``editions`` (newest first) by urgency, then repository.

    ``root`` leads from the desk page back to the site root: citations link to the
    edition page's references.
    """
    rows: dict[Urgency, dict[str, list[DeskRow]]] = {}
    for entry, actions in editions:
        known = actions.known
        base = root + entry.path
        for item in actions.items:
            row = DeskRow(
                text=markup.inline(item.text, known, base),
                project=entry.project,
                edition=Link(entry.date_label, entry.path),
                refs=tuple(
                    Link(f"[{n}]", f"{entry.path}#ref-{n}") for n in item.refs if n in known
                ),
            )
            rows.setdefault(item.urgency, {}).setdefault(one_line(item.repo), []).append(row)
    return tuple(
        UrgencyGroup(
            urgency=urgency.value,
            label=URGENCY_LABEL[urgency],
            count=sum(len(group) for group in rows[urgency].values()),
            repos=tuple(
                RepoGroup(repo, tuple(group)) for repo, group in sorted(rows[urgency].items())
            ),
        )
        for urgency in sorted(rows, key=URGENCY_ORDER.__getitem__)
    )


class Alert(Struct, frozen=True):
    """One ``immediate`` action item as a feed item."""

    entry: Entry
    index: int
    text: str
    repo: str


def immediate_items(editions: Sequence[tuple[Entry, EditionActions]], limit: int) -> list[Alert]:
    """The ``immediate`` action items of ``editions`` (newest first), at most ``limit``."""
    alerts = []
    for entry, actions in editions:
        for index, item in enumerate(actions.items, start=1):
            if item.urgency is Urgency.IMMEDIATE:
                alerts.append(Alert(entry, index, one_line(item.text), one_line(item.repo)))
    return alerts[:limit]
