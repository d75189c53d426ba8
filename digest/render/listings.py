"""The pages that list editions (front page, archive, projects, topics) and the feeds' items.

All sorting and grouping happens here; each listing becomes a :class:`Listing` whose
context holds ready lists, so templates only print them. Listings never see the whole
archive: a site-wide page sees each collection's newest editions and its counts by month
(from an :class:`Archive`), and a year's page the editions of its months whose lines changed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from itertools import groupby
from typing import Protocol

import msgspec.structs
from msgspec import Struct

from digest.config import Settings
from digest.render import urls
from digest.render.views import Entry, Link, month_label


class CountLink(Struct, frozen=True):
    """A project or topic with how many editions it has."""

    name: str
    path: str
    count: int
    description: str = ""


class MonthGroup(Struct, frozen=True):
    label: str
    anchor: str
    entries: tuple[Entry, ...]


class YearLink(Struct, frozen=True):
    year: int
    path: str
    count: int
    months: tuple[CountLink, ...]


class Listing(Struct, frozen=True):
    """One listing page: where it goes, its template, its head and its ready context."""

    path: str
    template: str
    title: str
    description: str
    context: dict[str, object]
    feeds: tuple[Link, ...] = ()


class FeedPlan(Struct, frozen=True):
    """One feed: where it goes, its channel text and its entries, newest first."""

    path: str
    title: str
    link_path: str
    description: str
    entries: tuple[Entry, ...]


class Heading(Struct, frozen=True):
    """What a project, topic or archive page says about itself."""

    kind: str
    slug: str
    name: str
    description: str
    path: str
    repos: tuple[str, ...] = ()
    feeds: tuple[Link, ...] = ()

    @property
    def label(self) -> str:
        """What kind of page this is, as a reader would say it."""
        return {"project": "Project", "topic": "Topic"}.get(self.kind, "Archive")


class Archive(Protocol):
    """What listings ask of the stored editions (the build manifest answers)."""

    def newest(
        self, *, slug: str | None = None, topic: str | None = None, limit: int
    ) -> list[Entry]: ...

    def entries_where(
        self, where: str, params: tuple[object, ...] = (), limit: int | None = None
    ) -> list[Entry]: ...

    def month(self, month: str) -> list[Entry]: ...

    def months_shown(
        self, year: int, *, slug: str | None = None, topic: str | None = None
    ) -> list[tuple[str, str]]: ...

    def month_counts(self) -> Iterable[tuple[str, str, str, int]]: ...

    def topic_counts(self, slugs: Iterable[str] | None) -> dict[str, int]: ...

    def slug_counts(self) -> dict[str, int]: ...


class Collection(Struct, frozen=True):
    """A heading, its newest entries and its years (kept apart so page contexts stay small)."""

    heading: Heading
    #: Its newest entries, newest first: as many as its front page and feed show.
    recent: tuple[Entry, ...]
    #: Its years, newest first, each with its months' counts.
    years: tuple[YearLink, ...]
    #: How many editions it has.
    total: int

    def year_path(self, year: int) -> str:
        """Return the path of this collection's page of ``year``."""
        return year_path(self.heading, year)

    def own(self, entries: Iterable[Entry]) -> tuple[Entry, ...]:
        """Those of ``entries`` (newest first) that belong here, as this collection tells them."""
        heading = self.heading
        if heading.kind == "project":
            return tuple(e for e in entries if e.slug == heading.slug)
        if heading.kind == "topic":
            return tuple(_on_topic(e, heading.slug) for e in entries if heading.slug in e.topics)
        return tuple(entries)


def year_path(heading: Heading, year: int) -> str:
    """Return the path of the page of ``year`` of the collection headed ``heading``."""
    if heading.kind == "project":
        return urls.project_year_path(heading.slug, year)
    if heading.kind == "topic":
        return urls.topic_year_path(heading.slug, year)
    return urls.archive_year_path(year)


def site_feed(site_title: str) -> Link:
    """Return the link to the feed of every project."""
    return Link(f"{site_title} (all projects)", urls.FEED)


def project_feed(name: str, slug: str) -> Link:
    """Return the link to the feed of the project ``name`` (``slug``)."""
    return Link(f"{name} only", urls.project_feed_path(slug))


def collections(settings: Settings, archive: Archive) -> tuple[Collection, list[Collection]]:
    """The whole site's collection, then each project's and each topic's.

    Projects in config order, then any other project found in the digests; then the
    configured topics in config order.
    """
    depth = max(settings.site.recent, settings.site.feed_items)
    months: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for kind, name, month, number in archive.month_counts():
        months.setdefault((kind, name), []).append((month, number))
    everything = _collection(
        Heading("site", "", "All editions", "", urls.ARCHIVE),
        archive.newest(limit=depth),
        months.get(("site", ""), []),
    )
    headings = []
    configured = {p.key for p in settings.projects}
    for project in settings.projects:
        repos = tuple(r.name for r in project.repos)
        headings.append(_project(project.key, project.shown, project.description, repos))
    others = sorted(name for kind, name in months if kind == "slug" and name not in configured)
    for slug in others:
        # Named as its newest edition names it.
        headings.append(_project(slug, archive.newest(slug=slug, limit=1)[0].project, "", ()))
    found = [
        _collection(h, archive.newest(slug=h.slug, limit=depth), months.get(("slug", h.slug), []))
        for h in headings
    ]
    for topic in settings.topics:
        slug = topic.slug or ""
        feed = Link(f"{topic.name} only", urls.topic_feed_path(slug))
        heading = Heading(
            "topic", slug, topic.name, topic.description, urls.topic_path(slug), feeds=(feed,)
        )
        # On a topic's page, an edition is told by what it says about the topic.
        newest = [_on_topic(e, slug) for e in archive.newest(topic=slug, limit=depth)]
        found.append(_collection(heading, newest, months.get(("topic", slug), [])))
    return everything, found


def _project(slug: str, name: str, description: str, repos: tuple[str, ...]) -> Heading:
    feeds = (project_feed(name, slug),)
    return Heading("project", slug, name, description, urls.project_path(slug), repos, feeds)


def _collection(
    heading: Heading, newest: Sequence[Entry], months: Sequence[tuple[str, int]]
) -> Collection:
    """The collection headed ``heading`` with its ``newest`` entries and ``months``
    (``YYYY-MM``, editions), newest first."""
    years = []
    for year, group in groupby(months, key=lambda row: int(row[0][:4])):
        path = year_path(heading, year)
        counts = list(group)
        years.append(
            YearLink(
                year=year,
                path=path,
                count=sum(number for _, number in counts),
                months=tuple(
                    CountLink(month_label(year, int(m[5:7])), f"{path}#m-{m}", number)
                    for m, number in counts
                ),
            )
        )
    return Collection(heading, tuple(newest), tuple(years), sum(y.count for y in years))


def plan_listings(
    settings: Settings, archive: Archive, everything: Collection, found: Sequence[Collection]
) -> list[Listing]:
    """Return the listing pages that span years: front page, archive, collections' pages.

    ``everything`` and ``found`` are :func:`collections` of ``archive``.
    """
    site = settings.site
    all_feed = site_feed(site.title)
    pages = [_front(settings, archive, found), _archive(archive, everything, all_feed, site.title)]
    for collection in found:
        heading = collection.heading
        pages.append(
            Listing(
                path=heading.path,
                template="collection.html",
                title=f"{heading.name} · {site.title}",
                description=heading.description or f"Every edition about {heading.name}.",
                context={
                    "heading": heading,
                    "recent": collection.recent[: site.recent],
                    "years": collection.years,
                    "show_project": heading.kind != "project",
                },
                feeds=(*heading.feeds, all_feed),
            )
        )
    return pages


class MonthSection(Struct, frozen=True):
    """A month of a year page, known by what its lines show (``shown``); its lines are
    read only when that changed (see :func:`month_lines`)."""

    month: str
    shown: str


class YearListing(Struct, frozen=True):
    """A collection's page of one year: its months, each made on its own."""

    collection: Collection
    listing: Listing
    months: tuple[MonthSection, ...]


def plan_years(
    settings: Settings,
    year: int,
    archive: Archive,
    everything: Collection,
    found: Sequence[Collection],
) -> list[YearListing]:
    """Return the pages of ``year`` of every collection with editions that year."""
    site = settings.site
    all_feed = site_feed(site.title)
    pages = []
    for collection in (everything, *found):
        heading = collection.heading
        slug = heading.slug if heading.kind == "project" else None
        topic = heading.slug if heading.kind == "topic" else None
        months = tuple(
            MonthSection(*row) for row in archive.months_shown(year, slug=slug, topic=topic)
        )
        if not months:
            continue
        # Only the years themselves: their counts change daily and must not re-render old years.
        years = tuple(Link(str(y.year), y.path) for y in collection.years)
        listing = Listing(
            path=collection.year_path(year),
            template="year.html",
            title=f"{heading.name}, {year} · {site.title}",
            description=f"{heading.name}: every edition of {year}.",
            context={
                "heading": heading,
                "year": year,
                "months": months,
                "years": years,
                "show_project": heading.kind != "project",
            },
            feeds=(*heading.feeds, all_feed),
        )
        pages.append(YearListing(collection, listing, months))
    return pages


def month_lines(collection: Collection, archive: Archive, month: str) -> MonthGroup:
    """The editions of ``month`` (``YYYY-MM``) on ``collection``'s year page."""
    (group,) = _months(collection.own(archive.month(month)))
    return group


def plan_feeds(
    settings: Settings, everything: Collection, found: Sequence[Collection]
) -> list[FeedPlan]:
    """Return the site feed and one feed per project and per topic, newest entries first.

    Each feed is published as RSS at ``path`` and as JSON Feed beside it.
    """
    site = settings.site
    limit = site.feed_items
    feeds = [
        FeedPlan(urls.FEED, site.title, urls.INDEX, site.description, everything.recent[:limit])
    ]
    for collection in found:
        heading = collection.heading
        feeds.append(
            FeedPlan(
                path=heading.feeds[0].path,
                title=f"{site.title} · {heading.name}",
                link_path=heading.path,
                description=heading.description
                or f"Daily news of {heading.name} from {site.title}.",
                entries=collection.recent[:limit],
            )
        )
    return feeds


def _front(settings: Settings, archive: Archive, found: Sequence[Collection]) -> Listing:
    # The front page follows the configured projects; one taken out of the configuration
    # keeps its pages (links to them stay good) and its place in the archive.
    followed = sorted(p.key for p in settings.projects)
    limit = settings.site.recent
    if followed:
        where = "d.slug IN (SELECT value FROM json_each(?))"
        recent = archive.entries_where(where, (json.dumps(followed),), limit)
    else:
        recent = archive.newest(limit=limit)
    by_slug = archive.slug_counts()
    kind = "topic" if settings.topics else "project"
    if kind == "topic":
        by_topic = archive.topic_counts(followed or None)
        counted = [(c, by_topic.get(c.heading.slug, 0)) for c in found if c.heading.kind == kind]
    else:
        counted = [
            (c, by_slug.get(c.heading.slug, 0))
            for c in found
            if c.heading.kind == kind and c.heading.slug in followed
        ]
    counts = tuple(
        CountLink(c.heading.name, c.heading.path, number, c.heading.description)
        for c, number in counted
    )
    total = sum(n for slug, n in by_slug.items() if slug in followed or not followed)
    return Listing(
        path=urls.INDEX,
        template="index.html",
        title=settings.site.title,
        description=settings.site.description,
        context={
            "recent": tuple(recent),
            "counts_heading": "Topics" if settings.topics else "Projects",
            "counts": counts,
            "total": total,
        },
        feeds=(site_feed(settings.site.title),),
    )


def _archive(archive: Archive, everything: Collection, all_feed: Link, site_title: str) -> Listing:
    # The newest month in full: a reader looking back a few days finds them here.
    newest = everything.years[0].months[0] if everything.years else None
    latest: tuple[MonthGroup, ...] = ()
    if newest is not None:
        month = newest.path.rpartition("#m-")[2]
        latest = _months(archive.month(month))
    return Listing(
        path=urls.ARCHIVE,
        template="archive.html",
        title=f"Archive · {site_title}",
        description="Every edition, by year and month.",
        context={"years": everything.years, "total": everything.total, "latest": latest},
        feeds=(all_feed,),
    )


def _on_topic(entry: Entry, slug: str) -> Entry:
    """``entry`` headlined by what it says first about topic ``slug`` (if it says anything)."""
    lead = entry.lead_on(slug)
    if lead == entry.headline:
        return entry
    # The edition's dek is about its whole day, often another area: under the topic's
    # story it would mislead, so the story stands alone.
    return msgspec.structs.replace(entry, headline=lead, dek="")


def _months(entries: Sequence[Entry]) -> tuple[MonthGroup, ...]:
    groups = groupby(entries, key=lambda e: (e.date.year, e.date.month))
    return tuple(
        MonthGroup(month_label(year, month), f"m-{year}-{month:02d}", tuple(group))
        for (year, month), group in groups
    )
