"""RSS 2.0 and JSON Feed 1.1 feeds of the same channels and items.

RSS is built with ElementTree so every text is escaped by the serialiser; JSON Feed with
``json`` (keys sorted). The output depends only on its input: ``lastBuildDate`` is the
newest item's date, never the wall clock, so the same editions give the same bytes.
"""

from __future__ import annotations

import datetime as dt
import json
import xml.etree.ElementTree as ET
from email.utils import format_datetime

from msgspec import Struct

from digest.render.urls import absolute as absolute_url
from digest.render.views import utc

ATOM = "http://www.w3.org/2005/Atom"
ET.register_namespace("atom", ATOM)


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
    """Return the RSS 2.0 document of ``channel`` with ``items`` in the given order."""
    root = ET.Element("rss", {"version": "2.0"})
    chan = ET.SubElement(root, "channel")
    _text(chan, "title", channel.title)
    _text(chan, "link", channel.link)
    _text(chan, "description", channel.description)
    _text(chan, "language", "en")
    ET.SubElement(
        chan,
        f"{{{ATOM}}}link",
        {"href": channel.self_url, "rel": "self", "type": "application/rss+xml"},
    )
    dates = [_rfc822(item.published) for item in items]
    if items:
        newest = max(utc(item.published) for item in items)
        _text(chan, "lastBuildDate", _rfc822(newest))
    for item, date in zip(items, dates, strict=True):
        node = ET.SubElement(chan, "item")
        _text(node, "title", item.title)
        _text(node, "link", item.link)
        permalink = "true" if item.guid == item.link else "false"
        ET.SubElement(node, "guid", {"isPermaLink": permalink}).text = item.guid
        _text(node, "pubDate", date)
        _text(node, "description", item.html)
        for category in item.categories:
            _text(node, "category", category)
    ET.indent(root)
    data: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"


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
    return (json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode()


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


def _text(parent: ET.Element, tag: str, text: str) -> None:
    ET.SubElement(parent, tag).text = text


def _rfc822(published: dt.datetime) -> str:
    return format_datetime(utc(published), usegmt=True)


def _escaped(text: str) -> str:
    """``text`` escaped for an XML element's content, as ElementTree escapes it."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
