"""The pages a reader finds the site by: subscribe, search and "not found"; and what the
front page, the projects' and the topics' pages show beside their editions (their desk's
items, the feeds, when the site was last updated).

Everything here is decided in Python from the collections and the desks; the templates
only print it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import msgspec.structs
from msgspec import Struct

from digest.config import Settings
from digest.render import manifest, urls
from digest.render.desks import ON_FRONT_PAGE, ON_TOPIC_PAGE, Desks
from digest.render.listings import Collection, Listing, site_feed
from digest.render.output import Output
from digest.render.views import Link, long_date, utc

if TYPE_CHECKING:
    from digest.render.site import _Build


class FeedLine(Struct, frozen=True):
    """One feed on the subscribe page: what it carries, as RSS and as JSON Feed."""

    name: str
    carries: str
    #: The RSS feed and its JSON Feed twin.
    path: str
    json_path: str
    #: The page a reader sees the same items on.
    page: Link


class FeedSection(Struct, frozen=True):
    heading: str
    anchor: str
    intro: str
    feeds: tuple[FeedLine, ...]


def feed_sections(
    settings: Settings, found: Sequence[Collection], desks: Desks
) -> tuple[FeedSection, ...]:
    """Every feed of the site, by kind: the whole site, projects, topics, act-now items."""
    site = settings.site
    n = site.feed_items
    whole = site_feed(site.title)
    sections = [
        FeedSection(
            "Every edition",
            "all",
            "One item a day per project: the edition's headline, its story and its action items.",
            (
                FeedLine(
                    whole.label,
                    f"Every project's editions, the newest {n}.",
                    whole.path,
                    whole.json_path,
                    Link("Front page", urls.INDEX),
                ),
            ),
        )
    ]
    lines: dict[str, list[FeedLine]] = {"project": [], "topic": []}
    for c in found:
        h = c.heading
        if h.kind not in lines or not h.feeds:
            continue
        feed = h.feeds[0]
        carries = (
            f"The editions of {h.name}, the newest {n}."
            if h.kind == "project"
            else f"The editions that touch {h.name}, the newest {n}, each titled by what it "
            f"says first about {h.name}."
        )
        lines[h.kind].append(
            FeedLine(h.name, carries, feed.path, feed.json_path, Link(h.name, h.path))
        )
    if lines["project"]:
        sections.append(
            FeedSection("By project", "projects", "One feed per project.", tuple(lines["project"]))
        )
    if lines["topic"]:
        sections.append(
            FeedSection(
                "By topic",
                "topics",
                "Only the editions about one subject, across projects.",
                tuple(lines["topic"]),
            )
        )
    alerts = [
        FeedLine(
            plan.name,
            f"Each action item marked act now in {plan.name}'s editions, one item per action, "
            f"the newest {n}.",
            plan.feed.path,
            plan.feed.json_path,
            Link(f"{plan.name} desk", plan.path),
        )
        for plan in desks.plans
    ]
    sections.append(
        FeedSection(
            "Act-now items",
            "act-now",
            "Only what needs doing now (a breaking change, a removal, a security fix), "
            "not the day's news.",
            tuple(alerts),
        )
    )
    return tuple(sections)


class Updated(Struct, frozen=True):
    """When the site last changed, as the newest edition says (never the wall clock)."""

    label: str
    iso: str
    #: The newest day covered.
    through: str


def updated(collection: Collection) -> Updated | None:
    """The "updated" line of the front page, from the newest editions' filing times."""
    if not collection.recent:
        return None
    newest = max(e.date for e in collection.recent)
    filed = [utc(e.filed_at) for e in collection.recent if e.filed_at is not None]
    if filed:
        when = max(filed)
        return Updated(
            f"{long_date(when.date())}, {when:%H:%M} UTC", when.isoformat(), long_date(newest)
        )
    end = dt.datetime.combine(newest + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    return Updated(long_date(newest), end.isoformat(), long_date(newest))


def augment(listing: Listing, desks: Desks, everything: Collection, settings: Settings) -> Listing:
    """``listing`` with what it shows beside its editions: its desk, the feeds, the
    "updated" line (front page)."""
    path = listing.path
    root = urls.root_of(path)
    extra: dict[str, object] = {}
    if path == urls.INDEX:
        plan = desks.by_path("")
        extra = {
            "desk": desks.summary(plan, root, ON_FRONT_PAGE, urgent_only=True) if plan else None,
            "updated": updated(everything),
            "subscribe": (
                site_feed(settings.site.title),
                plan.feed if plan else None,
            ),
        }
    elif listing.template == "collection.html":
        heading = listing.context["heading"]
        folder = f"{getattr(heading, 'slug', '')}/"
        if getattr(heading, "kind", "") == "topic":
            folder = f"topics/{folder}"
        plan = desks.by_path(folder)
        topic = getattr(heading, "kind", "") == "topic"
        extra = {
            "desk": desks.summary(plan, root, ON_TOPIC_PAGE if topic else 0, urgent_only=False)
            if plan
            else None
        }
    else:
        return listing
    return msgspec.structs.replace(listing, context={**listing.context, **extra})


def offer(build: _Build, out: Output, found: Sequence[Collection], desks: Desks) -> None:
    """Offer the subscribe, search and "not found" pages."""
    settings = build.settings
    site = settings.site
    group = manifest.SITE_WIDE
    sections = feed_sections(settings, found, desks)
    info = build.info(
        urls.SUBSCRIBE,
        f"Subscribe · {site.title}",
        "Every feed of the site, RSS and JSON Feed, and what each carries.",
        (site_feed(site.title),),
    )
    key = build.key("subscribe", info, sections)
    build.offer(
        out,
        group,
        urls.SUBSCRIBE,
        key,
        lambda: build.page("subscribe.html", info, sections=sections),
    )
    search_info = build.info(
        urls.SEARCH,
        f"Search · {site.title}",
        "Search every edition and every change the site has a page for.",
        (site_feed(site.title),),
    )
    # The search index's bundles, newest first: a month's, for every month with an edition.
    bundles = sorted(
        (manifest.group_name(g) for g in build.state.groups_of_editions() if g % 100),
        reverse=True,
    )
    build.offer(
        out,
        group,
        urls.SEARCH,
        build.key("search", search_info, bundles),
        lambda: build.page("search.html", search_info, bundles=bundles),
    )
    # Served for any missing address, at any depth: its links start at the site's path.
    base_path = urlsplit(site.base_url).path or "/"
    missing = msgspec.structs.replace(
        build.info(
            urls.NOT_FOUND,
            f"Page not found · {site.title}",
            "There is no page at this address.",
            (site_feed(site.title),),
        ),
        root=base_path,
    )
    build.offer(
        out,
        group,
        urls.NOT_FOUND,
        build.key("404", missing),
        lambda: build.page("404.html", missing),
    )
