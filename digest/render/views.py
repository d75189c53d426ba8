"""What templates see: ready-made, neutralised view records built from digests.

Templates only print these; every decision (ordering, escaping, which links are safe)
is taken here, in Python.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Mapping
from typing import Any

import msgspec
from markupsafe import Markup
from msgspec import Struct

from digest.models import ActionItem, Digest, Urgency
from digest.render.markup import MarkupRenderer, safe_url, title_html
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


class Entry(Struct, frozen=True, dict=True):
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
    #: The changes it cites, as ``owner/repo#N``.
    cites: tuple[str, ...] = ()
    #: What its day reverted or re-landed: (kind, ``owner/repo#N``, by number, by URL).
    follow_ups: tuple[tuple[str, str, int | None, str], ...] = ()
    #: What it says first about each topic: (topic slug, plain sentence).
    topic_leads: tuple[tuple[str, str], ...] = ()

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
            f"{self.headline!r},{self.dek!r},{self.topics!r},{self.change_count},"
            f"{self.topic_leads!r})"
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
        """The edition's date in feeds: the end of the UTC day it covers.

        Not the filing time: a range written in one run, or a day written again, would
        date old news to the run and reorder every reader's feed.
        """
        return dt.datetime.combine(self.date + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)

    def lead_on(self, topic: str) -> str:
        """What this edition says first about ``topic``; its headline when it says nothing."""
        return next((text for slug, text in self.topic_leads if slug == topic), self.headline)

    def to_json(self) -> dict[str, Any]:
        """Return the entry as a JSON-ready mapping (inverse of :meth:`from_json`).

        Made once per entry: an entry read from the manifest keeps the mapping it was
        read from, so saving the manifest again does not rebuild thousands of them.
        """
        return self._json

    @functools.cached_property
    def _json(self) -> dict[str, Any]:
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
            "cites": list(self.cites),
            "follow_ups": [list(f) for f in self.follow_ups],
            "topic_leads": [list(lead) for lead in self.topic_leads],
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Entry:
        """Rebuild an entry from :meth:`to_json` output; raise KeyError/ValueError/TypeError."""
        filed = raw["filed_at"]
        entry = cls(
            slug=str(raw["slug"]),
            date=dt.date.fromisoformat(raw["date"]),
            project=str(raw["project"]),
            headline=str(raw["headline"]),
            dek=str(raw["dek"]),
            topics=tuple(map(str, raw["topics"])),
            change_count=int(raw["change_count"]),
            filed_at=dt.datetime.fromisoformat(filed) if filed else None,
            sha256=str(raw["sha256"]),
            cites=tuple(map(str, raw.get("cites", ()))),
            follow_ups=tuple(
                (str(k), str(t), None if n is None else int(n), str(u))
                for k, t, n, u in raw.get("follow_ups", ())
            ),
            topic_leads=tuple((str(t), str(text)) for t, text in raw.get("topic_leads", ())),
        )
        if raw.keys() == _JSON_KEYS:  # as it was written: saved again as it is
            entry.__dict__["_json"] = raw
        return entry


_JSON_KEYS = {
    "slug",
    "date",
    "project",
    "headline",
    "dek",
    "topics",
    "change_count",
    "filed_at",
    "sha256",
    "cites",
    "follow_ups",
    "topic_leads",
}


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
        cites=tuple(pull_key(r.repo, r.number) for r in digest.references if r.number is not None),
        follow_ups=tuple(
            (f.kind, pull_key(f.repo, f.number), f.by_number, f.by_url) for f in digest.follow_ups
        ),
        topic_leads=tuple((one_line(t.topic), one_line(t.text)) for t in digest.topic_leads),
    )


class CitedChange(Struct, frozen=True):
    """A change an action item cites, as the desks name it (one line: title and number)."""

    n: int
    #: The repository as pages write it (its display name when it has one).
    repo: str
    number: int | None
    title: str
    url: str


class EditionActions(Struct, frozen=True):
    """An edition's action items as the desks read them; kept in the build manifest, so a
    desk is made without parsing the digests of its 30 days."""

    items: tuple[ActionItem, ...]
    #: The numbers of the edition's references (a citation of another number is dropped).
    known: frozenset[int]
    #: The references the items cite, in reference order (the desks name the change).
    cited: tuple[CitedChange, ...] = ()
    #: For each item, the slugs of the configured topics its cited changes belong to.
    topics: tuple[tuple[str, ...], ...] = ()

    @classmethod
    def of(cls, digest: Digest, topics: tuple[tuple[str, ...], ...] = ()) -> EditionActions:
        """The action items of ``digest``; ``topics`` gives each item's topics."""
        wanted = {n for item in digest.action_items for n in item.refs}
        cited = tuple(
            CitedChange(
                ref.n, one_line(digest.shown(ref.repo)), ref.number, one_line(ref.title), ref.url
            )
            for ref in sorted(digest.references, key=lambda ref: ref.n)
            if ref.n in wanted
        )
        return cls(
            digest.action_items, frozenset(ref.n for ref in digest.references), cited, topics
        )

    def topics_of(self, index: int) -> tuple[str, ...]:
        """The topics of the item at ``index`` (none known: ``()``)."""
        return self.topics[index] if index < len(self.topics) else ()

    def change(self, n: int) -> CitedChange | None:
        """The cited change numbered ``n``, if the items cite it."""
        return next((c for c in self.cited if c.n == n), None)

    def to_json(self) -> list[Any]:
        """Return them as JSON-ready data (inverse of :meth:`from_json`)."""
        items = [[i.text, i.repo, i.urgency.value, list(i.refs)] for i in self.items]
        cited = [[c.n, c.repo, c.number, c.title, c.url] for c in self.cited]
        return [items, sorted(self.known), cited, [list(t) for t in self.topics]]

    @classmethod
    def from_json(cls, raw: Any) -> EditionActions:
        """Rebuild them from :meth:`to_json` output; raise KeyError/ValueError/TypeError."""
        items, known, *more = raw
        cited, topics = [*more, [], []][:2]
        return cls(
            tuple(
                ActionItem(str(text), str(repo), Urgency(urgency), tuple(map(int, refs)))
                for text, repo, urgency, refs in items
            ),
            frozenset(map(int, known)),
            tuple(
                CitedChange(
                    int(n), str(repo), None if number is None else int(number), str(t), str(u)
                )
                for n, repo, number, t, u in cited
            ),
            tuple(tuple(map(str, t)) for t in topics),
        )


def pull_key(repo: str, number: int) -> str:
    """``owner/repo#N``: how a pull request is named across editions."""
    return f"{one_line(repo)}#{number}"


class Link(Struct, frozen=True):
    """A labelled relative link (path from the site root)."""

    label: str
    path: str

    @property
    def json_path(self) -> str:
        """For a link to an RSS feed (``.xml``), its JSON Feed twin; else ``""``."""
        return self.path.removesuffix(".xml") + ".json" if self.path.endswith(".xml") else ""


class ActionView(Struct, frozen=True):
    text: Markup
    repo: str
    urgency: str
    label: str
    refs: tuple[int, ...]


class ReferenceView(Struct, frozen=True):
    n: int
    title: Markup
    #: None when the stored URL is not http(s): the title is then shown unlinked.
    url: str | None
    repo: str
    number: int | None
    #: The site's own page of the change (site-relative), when it has one.
    page: str | None = None


class FaqView(Struct, frozen=True):
    question: str
    answer: Markup


class ChangeView(Struct, frozen=True):
    kind: str
    title: Markup
    url: str | None
    repo: str
    number: int | None
    files_complete: bool = True


class FailureView(Struct, frozen=True):
    repo: str
    reason: str


class NewcomerView(Struct, frozen=True):
    author: str
    repo: str
    number: int | None
    url: str | None


class EditionView(Struct, frozen=True):
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
    newcomers: tuple[NewcomerView, ...] = ()
    #: How far back the newcomers are measured, as ``1 June 2026``.
    history_since: str = ""
    #: Whether the story opens with a plain word a drop cap can set (not ``CuTe`` or code).
    drop_cap: bool = False


def edition_view(
    digest: Digest,
    entry: Entry,
    markup: MarkupRenderer,
    *,
    topics: Mapping[str, str],
    cite_base: str = "",
    pull_pages: Mapping[str, str] | None = None,
) -> EditionView:
    """Return the view of ``digest`` (listed as ``entry``) with every text made safe.

    ``topics`` maps configured topic slugs to names (others are not shown); citation
    links point at ``cite_base#ref-n``, so a feed can pass the absolute permalink;
    ``pull_pages`` maps ``owner/repo#N`` to the site's page of that change.
    """
    pages = pull_pages or {}
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
                repo=one_line(digest.shown(item.repo)),
                urgency=item.urgency.value,
                label=URGENCY_LABEL[item.urgency],
                refs=tuple(n for n in item.refs if n in known),
            )
            for item in actions
        ),
        references=tuple(
            ReferenceView(
                n=ref.n,
                title=title_html(one_line(ref.title)),
                url=safe_url(ref.url),
                repo=one_line(digest.shown(ref.repo)),
                number=ref.number,
                page=pages.get(pull_key(ref.repo, ref.number)) if ref.number is not None else None,
            )
            for ref in sorted(digest.references, key=lambda ref: ref.n)
        ),
        faq=tuple(
            FaqView(question=one_line(f.question), answer=markup.inline(f.answer, known, cite_base))
            for f in digest.faq
        ),
        changes=tuple(
            ChangeView(
                kind=one_line(c.kind),
                title=title_html(one_line(c.title)),
                url=safe_url(c.url),
                repo=one_line(digest.shown(c.repo)),
                number=c.number,
                files_complete=c.files_complete,
            )
            for c in digest.changes
        ),
        failures=tuple(
            FailureView(repo=one_line(digest.shown(f.repo)), reason=one_line(f.reason))
            for f in digest.failed_repos
        ),
        repos=tuple(one_line(digest.shown(r)) for r in digest.repos),
        topics=tuple(Link(topics[t], topic_path(t)) for t in entry.topics if t in topics),
        writer=one_line(digest.writer),
        writer_note=one_line(digest.writer_note),
        cite_base=cite_base,
        newcomers=tuple(
            NewcomerView(
                one_line(n.author), one_line(digest.shown(n.repo)), n.number, safe_url(n.url)
            )
            for n in digest.newcomers
        ),
        history_since=long_date(digest.history_since) if digest.history_since else "",
        drop_cap=plain_opening(digest.body),
    )


#: A word a drop cap may set: a capital then lower-case letters only, then a space or a
#: stop ("The", "Arm"; not "CuTe", "PyTorch", "`torch.compile`", "2.6x" or "[1]").
_PLAIN_OPENING = re.compile(r"[A-Z][a-z]*[\s,;:.!?]")


def plain_opening(body: str) -> bool:
    """Whether the Markdown ``body`` opens with a plain word (see :data:`_PLAIN_OPENING`)."""
    return bool(_PLAIN_OPENING.match(body.lstrip()))


def structured_data(view: EditionView, canonical: str, publisher: str) -> Markup:
    """schema.org ``NewsArticle`` and ``FAQPage`` of the edition, as JSON-LD safe in HTML.

    Only plain texts go in (headline, dek, questions, answers without markup); ``<``, ``>``
    and ``&`` are written as JSON escapes so nothing in them can close the script element.
    """
    entry = view.entry
    organisation = {"@type": "Organization", "name": publisher}
    article = {
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "headline": entry.headline[:110],
        "description": entry.dek,
        "datePublished": view.filed_iso,
        "url": canonical,
        "mainEntityOfPage": canonical,
        "author": organisation,
        "publisher": organisation,
        "about": entry.project,
    }
    faq = {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "mainEntity": [
            {
                "@type": "Question",
                "name": item.question,
                "acceptedAnswer": {"@type": "Answer", "text": striptags(item.answer)},
            }
            for item in view.faq
        ],
    }
    # msgspec, then its indenter: the bytes of json.dumps(ensure_ascii=False, indent=1)
    # (no floats here), several times faster than json's pure-Python indenting encoder.
    document = [article, faq] if view.faq else [article]
    text = msgspec.json.format(msgspec.json.encode(document), indent=1).decode()
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(char, escaped)
    return Markup(text)


def striptags(html: Markup) -> str:
    """The text of ``html`` (a sanitised fragment) without its tags."""
    return Markup(html).striptags()
