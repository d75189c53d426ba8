"""The pages that list editions (front page, archive, projects, topics) and the feeds' items.

All sorting and grouping happens here; each listing becomes a :class:`Listing` whose
context holds ready lists, so templates only print them.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby

from digest.config import Settings
from digest.render import urls
from digest.render.views import Entry, Link, month_label


@dataclass(frozen=True)
class CountLink:
    """A project or topic with how many editions it has."""

    name: str
    path: str
    count: int
    description: str = ""


@dataclass(frozen=True)
class MonthGroup:
    label: str
    anchor: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class YearLink:
    year: int
    path: str
    count: int
    months: tuple[CountLink, ...]


#: Entries grouped by year, in the order of the entries.
_YearGroups = list[tuple[int, tuple[Entry, ...]]]


@dataclass(frozen=True)
class Listing:
    """One listing page: where it goes, its template, its head and its ready context."""

    path: str
    template: str
    title: str
    description: str
    context: dict[str, object]
    feeds: tuple[Link, ...] = ()


@dataclass(frozen=True)
class FeedPlan:
    """One feed: where it goes, its channel text and its entries, newest first."""

    path: str
    title: str
    link_path: str
    description: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Heading:
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


@dataclass(frozen=True)
class Collection:
    """A heading and its entries, newest first (kept apart so page contexts stay small)."""

    heading: Heading
    entries: tuple[Entry, ...]

    def year_path(self, year: int) -> str:
        """Return the path of this collection's page of ``year``."""
        heading = self.heading
        if heading.kind == "project":
            return urls.project_year_path(heading.slug, year)
        if heading.kind == "topic":
            return urls.topic_year_path(heading.slug, year)
        return urls.archive_year_path(year)


def newest_first(entries: Iterable[Entry]) -> list[Entry]:
    """Return ``entries`` sorted newest first; ties (same date and time) by project slug."""
    by_slug = sorted(entries, key=lambda e: e.slug)
    return sorted(by_slug, key=lambda e: (e.date, e.published), reverse=True)


def site_feed(site_title: str) -> Link:
    """Return the link to the feed of every project."""
    return Link(f"{site_title} (all projects)", urls.FEED)


def project_feed(name: str, slug: str) -> Link:
    """Return the link to the feed of the project ``name`` (``slug``)."""
    return Link(f"{name} only", urls.project_feed_path(slug))


def plan_listings(
    settings: Settings, entries: Sequence[Entry], collections: Sequence[Collection]
) -> list[Listing]:
    """Return every listing page of the site for ``entries`` (sorted newest first).

    ``collections`` are :func:`project_collections` then :func:`topic_collections` of the
    same ``entries``.
    """
    site = settings.site
    all_feed = site_feed(site.title)
    everything = Collection(Heading("site", "", "All editions", "", urls.ARCHIVE), tuple(entries))
    by_year = _by_year(everything.entries)
    links = _year_links(everything, by_year)
    pages = [
        _front(settings, entries, collections),
        _archive(everything, links, all_feed, site.title),
    ]
    pages += _years(everything, by_year, links, (all_feed,), site.title, show_project=True)
    for collection in collections:
        heading = collection.heading
        feeds = (*heading.feeds, all_feed)
        by_year = _by_year(collection.entries)
        links = _year_links(collection, by_year)
        pages.append(
            Listing(
                path=heading.path,
                template="collection.html",
                title=f"{heading.name} · {site.title}",
                description=heading.description or f"Every edition about {heading.name}.",
                context={
                    "heading": heading,
                    "recent": collection.entries[: site.recent],
                    "years": links,
                    "show_project": heading.kind != "project",
                },
                feeds=feeds,
            )
        )
        pages += _years(
            collection, by_year, links, feeds, site.title, show_project=heading.kind != "project"
        )
    return pages


def plan_feeds(
    settings: Settings, entries: Sequence[Entry], collections: Sequence[Collection]
) -> list[FeedPlan]:
    """Return the site feed and one feed per project and per topic, newest entries first.

    ``collections`` are :func:`project_collections` then :func:`topic_collections` of the
    same ``entries``. Each feed is published as RSS at ``path`` and as JSON Feed beside it.
    """
    site = settings.site
    limit = site.feed_items
    feeds = [FeedPlan(urls.FEED, site.title, urls.INDEX, site.description, tuple(entries[:limit]))]
    for project in collections:
        heading = project.heading
        feeds.append(
            FeedPlan(
                path=heading.feeds[0].path,
                title=f"{site.title} · {heading.name}",
                link_path=heading.path,
                description=heading.description
                or f"Daily news of {heading.name} from {site.title}.",
                entries=project.entries[:limit],
            )
        )
    return feeds


def _front(
    settings: Settings, entries: Sequence[Entry], collections: Sequence[Collection]
) -> Listing:
    # The front page follows the configured projects; one taken out of the configuration
    # keeps its pages (links to them stay good) and its place in the archive.
    followed = {p.key for p in settings.projects}
    entries = [e for e in entries if e.slug in followed] if followed else list(entries)
    kind = "topic" if settings.topics else "project"
    counts = tuple(
        CountLink(
            c.heading.name,
            c.heading.path,
            sum(1 for e in c.entries if e.slug in followed or not followed),
            c.heading.description,
        )
        for c in collections
        if c.heading.kind == kind and (kind == "topic" or c.heading.slug in followed)
    )
    return Listing(
        path=urls.INDEX,
        template="index.html",
        title=settings.site.title,
        description=settings.site.description,
        context={
            "recent": tuple(entries[: settings.site.recent]),
            "counts_heading": "Topics" if settings.topics else "Projects",
            "counts": counts,
            "total": len(entries),
        },
        feeds=(site_feed(settings.site.title),),
    )


def _archive(
    everything: Collection, years: tuple[YearLink, ...], all_feed: Link, site_title: str
) -> Listing:
    return Listing(
        path=urls.ARCHIVE,
        template="archive.html",
        title=f"Archive · {site_title}",
        description="Every edition, by year and month.",
        context={
            "years": years,
            "total": len(everything.entries),
            # The newest month in full: a reader looking back a few days finds them here.
            "latest": _months(everything.entries)[:1],
        },
        feeds=(all_feed,),
    )


def project_collections(settings: Settings, entries: Sequence[Entry]) -> list[Collection]:
    """Configured projects in config order, then any other project found in the digests."""
    by_slug: dict[str, list[Entry]] = {}
    for entry in entries:
        by_slug.setdefault(entry.slug, []).append(entry)
    found = []
    for project in settings.projects:
        own = tuple(by_slug.pop(project.key, ()))
        repos = tuple(r.name for r in project.repos)
        found.append((project.key, project.shown, project.description, own, repos))
    for slug in sorted(by_slug):
        found.append((slug, by_slug[slug][0].project, "", tuple(by_slug[slug]), ()))
    return [
        Collection(
            Heading(
                "project",
                slug,
                name,
                description,
                urls.project_path(slug),
                repos,
                feeds=(project_feed(name, slug),),
            ),
            own,
        )
        for slug, name, description, own, repos in found
    ]


def topic_collections(settings: Settings, entries: Sequence[Entry]) -> list[Collection]:
    """Configured topics in config order, each with the editions that touch it."""
    collections = []
    for topic in settings.topics:
        slug = topic.slug or ""
        # On a topic's page, an edition is told by what it says about the topic.
        own = tuple(_on_topic(e, slug) for e in entries if slug in e.topics)
        feed = Link(f"{topic.name} only", urls.topic_feed_path(slug))
        heading = Heading(
            "topic", slug, topic.name, topic.description, urls.topic_path(slug), feeds=(feed,)
        )
        collections.append(Collection(heading, own))
    return collections


def _on_topic(entry: Entry, slug: str) -> Entry:
    """``entry`` headlined by what it says first about topic ``slug`` (if it says anything)."""
    lead = entry.lead_on(slug)
    if lead == entry.headline:
        return entry
    # A dek that already tells the lead would say it twice.
    repeats = lead.rstrip(".").lower() in entry.dek.lower()
    return dataclasses.replace(entry, headline=lead, dek="" if repeats else entry.dek)


def _by_year(entries: Sequence[Entry]) -> _YearGroups:
    return [(year, tuple(group)) for year, group in groupby(entries, key=lambda e: e.date.year)]


def _months(entries: Sequence[Entry]) -> tuple[MonthGroup, ...]:
    groups = groupby(entries, key=lambda e: (e.date.year, e.date.month))
    return tuple(
        MonthGroup(month_label(year, month), f"m-{year}-{month:02d}", tuple(group))
        for (year, month), group in groups
    )


def _year_links(collection: Collection, by_year: _YearGroups) -> tuple[YearLink, ...]:
    links = []
    for year, entries in by_year:
        path = collection.year_path(year)
        months = Counter((e.date.month, e.date.year) for e in entries)
        links.append(
            YearLink(
                year=year,
                path=path,
                count=len(entries),
                months=tuple(
                    CountLink(month_label(y, m), f"{path}#m-{y}-{m:02d}", count)
                    for (m, y), count in months.items()
                ),
            )
        )
    return tuple(links)


def _years(
    collection: Collection,
    by_year: _YearGroups,
    links: tuple[YearLink, ...],
    feeds: tuple[Link, ...],
    site_title: str,
    *,
    show_project: bool,
) -> list[Listing]:
    """Return the year pages of ``collection``; ``by_year`` and ``links`` are of its entries."""
    # Only the years themselves: their counts change daily and must not re-render old years.
    years = tuple(Link(str(y.year), y.path) for y in links)
    return [
        Listing(
            path=collection.year_path(year),
            template="year.html",
            title=f"{collection.heading.name}, {year} · {site_title}",
            description=f"{collection.heading.name}: every edition of {year}.",
            context={
                "heading": collection.heading,
                "year": year,
                "months": _months(entries),
                "years": years,
                "show_project": show_project,
            },
            feeds=feeds,
        )
        for year, entries in by_year
    ]
