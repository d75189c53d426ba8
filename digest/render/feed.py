"""RSS 2.0 feeds, built with ElementTree so every text is escaped by the serialiser.

The output depends only on its input: ``lastBuildDate`` is the newest item's date,
never the wall clock, so the same editions give the same bytes.
"""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from email.utils import format_datetime

from digest.render.views import utc

ATOM = "http://www.w3.org/2005/Atom"
ET.register_namespace("atom", ATOM)


@dataclass(frozen=True)
class Channel:
    """A feed's own description; ``link`` and ``self_url`` are absolute."""

    title: str
    link: str
    description: str
    self_url: str


@dataclass(frozen=True)
class Item:
    """One edition in a feed; ``html`` is its content, escaped on output."""

    title: str
    link: str
    published: dt.datetime
    html: str
    categories: tuple[str, ...] = ()


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
        ET.SubElement(node, "guid", {"isPermaLink": "true"}).text = item.link
        _text(node, "pubDate", date)
        _text(node, "description", item.html)
        for category in item.categories:
            _text(node, "category", category)
    ET.indent(root)
    data: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"


def _text(parent: ET.Element, tag: str, text: str) -> None:
    ET.SubElement(parent, tag).text = text


def _rfc822(published: dt.datetime) -> str:
    return format_datetime(utc(published), usegmt=True)
