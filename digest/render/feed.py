"""RSS 2.0 and JSON Feed 1.1 feeds of the same channels and items.

Both are written as ElementTree and ``json`` would write them (every text escaped, keys
sorted), by faster means. The output depends only on its input: ``lastBuildDate`` is the
newest item's date, never the wall clock, so the same editions give the same bytes.
"""

from __future__ import annotations

import datetime as dt

import msgspec
from msgspec import Struct

from digest.render.urls import absolute as absolute_url
from digest.render.views import utc

ATOM = "http://www.w3.org/2005/Atom"


class Channel(Struct, frozen=True):
    """A feed's own description; ``link`` and ``self_url`` are absolute."""

    title: str
    link: str
    description: str
    self_url: str


class Item(Struct, frozen=True):
    """One edition in a feed; ``html`` is its content, escaped on output."""

    title: str
    link: str
    published: dt.datetime
    html: str
    categories: tuple[str, ...] = ()
    #: A stable id; the link when empty (an edition's permalink is its id).
    id: str = ""
    #: When the item changed after it was published (a correction), if it did.
    modified: dt.datetime | None = None

    @property
    def guid(self) -> str:
        return self.id or self.link


def rss(channel: Channel, items: list[Item]) -> bytes:
    """Return the RSS 2.0 document of ``channel`` with ``items`` in the given order.

    Written as text, every text escaped: the bytes are those of ElementTree's indented
    serialisation, at a fraction of its cost (a feed carries 30 editions in full).
    """
    lines = [
        "<?xml version='1.0' encoding='utf-8'?>",
        f'<rss xmlns:atom="{ATOM}" version="2.0">',
        "  <channel>",
        _element(4, "title", channel.title),
        _element(4, "link", channel.link),
        _element(4, "description", channel.description),
        _element(4, "language", "en"),
        f'    <atom:link href="{_escaped_attribute(channel.self_url)}" rel="self"'
        ' type="application/rss+xml" />',
    ]
    if items:
        newest = max(utc(item.published) for item in items)
        lines.append(_element(4, "lastBuildDate", _rfc822(newest)))
    for item in items:
        permalink = "true" if item.guid == item.link else "false"
        lines += [
            "    <item>",
            _element(6, "title", item.title),
            _element(6, "link", item.link),
            _element(6, f'guid isPermaLink="{permalink}"', item.guid),
            _element(6, "pubDate", _rfc822(item.published)),
            _element(6, "description", item.html),
            *(_element(6, "category", category) for category in item.categories),
            "    </item>",
        ]
    lines += ["  </channel>", "</rss>"]
    return ("\n".join(lines) + "\n").encode()


def json_feed(channel: Channel, items: list[Item]) -> bytes:
    """Return the JSON Feed 1.1 document of ``channel`` with ``items`` in the given order.

    ``channel.self_url`` is the RSS feed's; the JSON feed's own URL is the same with
    ``.json`` instead of ``.xml``.
    """
    document = {
        "version": "https://jsonfeed.org/version/1.1",
        "title": channel.title,
        "home_page_url": channel.link,
        "feed_url": json_path(channel.self_url),
        "description": channel.description,
        "language": "en",
        "items": [_json_item(item) for item in items],
    }
    # msgspec's encoder, then its indenter: the bytes of json.dumps(indent=2, sort_keys=True,
    # ensure_ascii=False), several times faster on feeds of 30 editions in full.
    return msgspec.json.format(msgspec.json.encode(document, order="sorted"), indent=2) + b"\n"


def json_path(rss_path: str) -> str:
    """The JSON Feed twin of an RSS feed path or URL (``feed.xml`` -> ``feed.json``)."""
    return rss_path.removesuffix(".xml") + ".json"


def _json_item(item: Item) -> dict[str, object]:
    entry: dict[str, object] = {
        "id": item.guid,
        "url": item.link,
        "title": item.title,
        "content_html": item.html,
        "date_published": utc(item.published).isoformat(),
    }
    if item.modified is not None:
        entry["date_modified"] = utc(item.modified).isoformat()
    if item.categories:
        entry["tags"] = list(item.categories)
    return entry


SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"


def sitemap(base_url: str, paths: list[str], dated: dict[str, dt.date]) -> bytes:
    """Return the sitemap of the pages at ``paths`` (with ``lastmod`` where ``dated`` knows).

    Written as text, not through ElementTree: it lists a year's pages and is rewritten
    whenever one is added. The bytes are those ElementTree would give.
    """
    lines = ["<?xml version='1.0' encoding='utf-8'?>", f'<urlset xmlns="{SITEMAP}">']
    for path in paths:
        lines.append("  <url>")
        lines.append(f"    <loc>{_escaped(absolute_url(base_url, path))}</loc>")
        if path in dated:
            lines.append(f"    <lastmod>{dated[path].isoformat()}</lastmod>")
        lines.append("  </url>")
    lines.append("</urlset>")
    return ("\n".join(lines) + "\n").encode()


def sitemap_index(base_url: str, paths: list[str]) -> bytes:
    """Return the sitemap index listing the sitemaps at ``paths``.

    One sitemap per year keeps each well under the protocol's 50,000 addresses, and
    adding a day rewrites the small sitemap of its year, not one listing every page.
    """
    lines = ["<?xml version='1.0' encoding='utf-8'?>", f'<sitemapindex xmlns="{SITEMAP}">']
    for path in paths:
        lines.append("  <sitemap>")
        lines.append(f"    <loc>{_escaped(absolute_url(base_url, path))}</loc>")
        lines.append("  </sitemap>")
    lines.append("</sitemapindex>")
    return ("\n".join(lines) + "\n").encode()


def _element(indent: int, tag: str, text: str) -> str:
    """An element holding ``text``, written as ElementTree writes it (``<tag />`` if empty)."""
    name = tag.split(" ", 1)[0]
    if not text:
        return f"{' ' * indent}<{tag} />"
    return f"{' ' * indent}<{tag}>{_escaped(text)}</{name}>"


_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _rfc822(published: dt.datetime) -> str:
    """RFC 822 time in GMT, in English whatever the locale (``email.utils`` writes the same)."""
    moment = utc(published)
    day, month = _DAYS[moment.weekday()], _MONTHS[moment.month - 1]
    return f"{day}, {moment.day:02d} {month} {moment.year:04d} {moment:%H:%M:%S} GMT"


def _escaped(text: str) -> str:
    """``text`` escaped for an XML element's content, as ElementTree escapes it."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _escaped_attribute(text: str) -> str:
    """``text`` escaped for a double-quoted XML attribute, as ElementTree escapes it."""
    text = _escaped(text).replace('"', "&quot;")
    return text.replace("\r", "&#13;").replace("\n", "&#10;").replace("\t", "&#09;")
