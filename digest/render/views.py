"""What templates see: ready-made, neutralised view records built from digests.

Templates only print these; every decision (ordering, escaping, which links are safe)
is taken here, in Python.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from digest.models import Digest, Urgency
from digest.render.markup import MarkupRenderer, safe_url
from digest.render.urls import edition_path, project_path, topic_path
from digest.text import one_line

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
URGENCY_ORDER = {Urgency.IMMEDIATE: 0, Urgency.PLAN: 1, Urgency.MONITOR: 2}
URGENCY_LABEL = {Urgency.IMMEDIATE: "Act now", Urgency.PLAN: "Plan", Urgency.MONITOR: "Monitor"}


def long_date(day: dt.date) -> str:
    """Return ``day`` as ``1 July 2026`` (fixed English names: no locale dependence)."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def month_label(year: int, month: int) -> str:
    """Return ``July 2026`` for (2026, 7)."""
    return f"{MONTHS[month - 1]} {year}"


def utc(instant: dt.datetime) -> dt.datetime:
    """Return ``instant`` in UTC, reading a naive datetime as UTC."""
    if instant.tzinfo is None:
        return instant.replace(tzinfo=dt.UTC)
    return instant.astimezone(dt.UTC)


@dataclass(frozen=True)
class Entry:
    """What listings and feeds know about one edition; kept in the build manifest."""

    slug: str
    date: dt.date
    project: str
    headline: str
    dek: str
    topics: tuple[str, ...]
    change_count: int
    filed_at: dt.datetime | None
    #: SHA-256 of the digest file.
    sha256: str

    def __repr__(self) -> str:
        return self._shown

    @functools.cached_property
    def _shown(self) -> str:
        # Listing page keys hash the repr of their context, so this must name every field
        # a listing shows. It leaves out the body's hash and the filing time so that a
        # new body does not re-render every listing (edition and feed keys add them),
        # and it is hand-written and cached because each build makes ~40,000 of them.
        return (
            f"Entry({self.slug!r},{self.date.isoformat()},{self.project!r},"
            f"{self.headline!r},{self.dek!r},{self.topics!r},{self.change_count})"
        )

    @property
    def path(self) -> str:
        """The edition page's path in the site."""
        return edition_path(self.slug, self.date)

    @property
    def project_path(self) -> str:
        """The project's front page path in the site."""
        return project_path(self.slug)

    @property
    def date_label(self) -> str:
        return long_date(self.date)

    @property
    def date_iso(self) -> str:
        return self.date.isoformat()

    @property
    def published(self) -> dt.datetime:
        """When the edition was filed, or the end of its day (UTC) when unknown."""
        if self.filed_at is not None:
            return utc(self.filed_at)
        return dt.datetime.combine(self.date + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)

    def to_json(self) -> dict[str, Any]:
        """Return the entry as a JSON-ready mapping (inverse of :meth:`from_json`)."""
        return {
            "slug": self.slug,
            "date": self.date.isoformat(),
            "project": self.project,
            "headline": self.headline,
            "dek": self.dek,
            "topics": list(self.topics),
            "change_count": self.change_count,
            "filed_at": self.filed_at.isoformat() if self.filed_at else None,
            "sha256": self.sha256,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Entry:
        """Rebuild an entry from :meth:`to_json` output; raise KeyError/ValueError/TypeError."""
        filed = raw["filed_at"]
        return cls(
            slug=str(raw["slug"]),
            date=dt.date.fromisoformat(raw["date"]),
            project=str(raw["project"]),
            headline=str(raw["headline"]),
            dek=str(raw["dek"]),
            topics=tuple(str(t) for t in raw["topics"]),
            change_count=int(raw["change_count"]),
            filed_at=dt.datetime.fromisoformat(filed) if filed else None,
            sha256=str(raw["sha256"]),
        )


def entry_of(digest: Digest, slug: str, day: dt.date, sha256: str) -> Entry:
    """Return the listing entry of ``digest``, stored at ``slug``/``day`` with hash ``sha256``."""
    return Entry(
        slug=slug,
        date=day,
        project=one_line(digest.project) or slug,
        headline=one_line(digest.headline) or f"{one_line(digest.project)}, {long_date(day)}",
        dek=one_line(digest.dek),
        topics=tuple(one_line(t) for t in digest.topics),
        change_count=digest.change_count,
        filed_at=digest.filed_at,
        sha256=sha256,
    )


@dataclass(frozen=True)
class Link:
    """A labelled relative link (path from the site root)."""

    label: str
    path: str


@dataclass(frozen=True)
class ActionView:
    text: Markup
    repo: str
    urgency: str
    label: str
    refs: tuple[int, ...]


@dataclass(frozen=True)
class ReferenceView:
    n: int
    title: str
    #: None when the stored URL is not http(s): the title is then shown unlinked.
    url: str | None
    repo: str
    number: int | None


@dataclass(frozen=True)
class FaqView:
    question: str
    answer: Markup


@dataclass(frozen=True)
class ChangeView:
    kind: str
    title: str
    url: str | None
    repo: str
    number: int | None
    files_complete: bool = True


@dataclass(frozen=True)
class FailureView:
    repo: str
    reason: str


@dataclass(frozen=True)
class EditionView:
    """One edition, ready to print; ``cite_base`` prefixes every ``#ref-n`` link."""

    entry: Entry
    filed_label: str
    filed_iso: str
    body: Markup
    actions: tuple[ActionView, ...]
    references: tuple[ReferenceView, ...]
    faq: tuple[FaqView, ...]
    changes: tuple[ChangeView, ...]
    failures: tuple[FailureView, ...]
    repos: tuple[str, ...]
    topics: tuple[Link, ...]
    writer: str
    writer_note: str
    cite_base: str


def edition_view(
    digest: Digest,
    entry: Entry,
    markup: MarkupRenderer,
    *,
    topics: Mapping[str, str],
    cite_base: str = "",
) -> EditionView:
    """Return the view of ``digest`` (listed as ``entry``) with every text made safe.

    ``topics`` maps configured topic slugs to names (others are not shown); citation
    links point at ``cite_base#ref-n``, so a feed can pass the absolute permalink.
    """
    known = {ref.n for ref in digest.references}
    filed = utc(digest.filed_at) if digest.filed_at else None
    actions = sorted(digest.action_items, key=lambda item: URGENCY_ORDER[item.urgency])
    return EditionView(
        entry=entry,
        filed_label=(
            f"{long_date(filed.date())}, {filed:%H:%M} UTC" if filed else long_date(entry.date)
        ),
        filed_iso=filed.isoformat() if filed else entry.date.isoformat(),
        body=markup.block(digest.body, known, cite_base),
        actions=tuple(
            ActionView(
                text=markup.inline(item.text, known, cite_base),
                repo=one_line(item.repo),
                urgency=item.urgency.value,
                label=URGENCY_LABEL[item.urgency],
                refs=tuple(n for n in item.refs if n in known),
            )
            for item in actions
        ),
        references=tuple(
            ReferenceView(
                n=ref.n,
                title=one_line(ref.title),
                url=safe_url(ref.url),
                repo=one_line(ref.repo),
                number=ref.number,
            )
            for ref in sorted(digest.references, key=lambda ref: ref.n)
        ),
        faq=tuple(
            FaqView(question=one_line(f.question), answer=markup.block(f.answer, known, cite_base))
            for f in digest.faq
        ),
        changes=tuple(
            ChangeView(
                kind=one_line(c.kind),
                title=one_line(c.title),
                url=safe_url(c.url),
                repo=one_line(c.repo),
                number=c.number,
                files_complete=c.files_complete,
            )
            for c in digest.changes
        ),
        failures=tuple(
            FailureView(repo=one_line(f.repo), reason=one_line(f.reason))
            for f in digest.failed_repos
        ),
        repos=tuple(one_line(r) for r in digest.repos),
        topics=tuple(Link(topics[t], topic_path(t)) for t in entry.topics if t in topics),
        writer=one_line(digest.writer),
        writer_note=one_line(digest.writer_note),
        cite_base=cite_base,
    )
