"""The feed writers give the bytes ElementTree and json would, on any text."""

from __future__ import annotations

import datetime as dt
import json
import random
import xml.etree.ElementTree as ET
from email.utils import format_datetime

import feedparser
import pytest

from digest.render.feed import ATOM, Channel, Item, json_feed, rss

# Markup, quotes, line breaks, escapes, separators, astral and invisible characters.
PIECES = ["a", "B", " ", "&", "<", ">", '"', "'", "\n", "\r", "\t", "\\", "/", "é", "\u2028",
          "😀", "\x1f", "\x7f", "\x85", "]]>", "&amp;", "\ufeff", "\u00a0", ""]  # fmt: skip


def _rfc822(moment: dt.datetime) -> str:
    return format_datetime(moment.astimezone(dt.UTC), usegmt=True)


def rss_by_elementtree(channel: Channel, items: list[Item]) -> bytes:
    """The reference: the same document built and indented by ElementTree."""
    ET.register_namespace("atom", ATOM)
    root = ET.Element("rss", {"version": "2.0"})
    chan = ET.SubElement(root, "channel")
    for tag, text in (("title", channel.title), ("link", channel.link)):
        ET.SubElement(chan, tag).text = text
    ET.SubElement(chan, "description").text = channel.description
    ET.SubElement(chan, "language").text = "en"
    link = {"href": channel.self_url, "rel": "self", "type": "application/rss+xml"}
    ET.SubElement(chan, f"{{{ATOM}}}link", link)
    if items:
        ET.SubElement(chan, "lastBuildDate").text = _rfc822(max(i.published for i in items))
    for item in items:
        node = ET.SubElement(chan, "item")
        ET.SubElement(node, "title").text = item.title
        ET.SubElement(node, "link").text = item.link
        permalink = "true" if item.guid == item.link else "false"
        ET.SubElement(node, "guid", {"isPermaLink": permalink}).text = item.guid
        ET.SubElement(node, "pubDate").text = _rfc822(item.published)
        ET.SubElement(node, "description").text = item.html
        for category in item.categories:
            ET.SubElement(node, "category").text = category
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def json_by_json(channel: Channel, items: list[Item]) -> bytes:
    """The reference: ``json.dumps`` of the document ``json_feed`` writes."""
    document = json.loads(json_feed(channel, items))
    return (json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode()


@pytest.mark.parametrize("seed", range(8))
def test_feeds_match_elementtree_and_json_byte_for_byte(seed: int) -> None:
    rng = random.Random(seed)

    def text(longest: int = 12) -> str:
        return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, longest)))

    for _ in range(100):
        channel = Channel(title=text(), link=text(), description=text(), self_url=text())
        items = [
            Item(
                title=text(),
                link=text(),
                published=dt.datetime(
                    2026, 1, rng.randint(1, 28), rng.randint(0, 23), tzinfo=dt.UTC
                ),
                html=text(60),
                categories=tuple(text() for _ in range(rng.randint(0, 3))),
                id=rng.choice(["", text()]),
                modified=rng.choice([None, dt.datetime(2026, 2, 1, tzinfo=dt.UTC)]),
            )
            for _ in range(rng.randint(0, 4))
        ]
        assert rss(channel, items) == rss_by_elementtree(channel, items)
        assert json_feed(channel, items) == json_by_json(channel, items)


def test_hostile_text_is_escaped_not_markup() -> None:
    said = 'A </title><script>alert("x")</script> & "quotes"'
    channel = Channel(
        title=said, link="https://x.example/", description="", self_url='https://x.example/"f"'
    )
    item = Item(
        title=said,
        link="https://x.example/1",
        published=dt.datetime(2026, 1, 2, tzinfo=dt.UTC),
        html=said,
    )
    parsed = feedparser.parse(rss(channel, [item]))
    assert parsed.bozo == 0
    assert parsed.feed.title == said
    assert parsed.entries[0].title == said
    document = ET.fromstring(rss(channel, [item]))
    assert document.findtext("channel/item/description") == said  # text, not elements
    assert [element.tag for element in document.iter("script")] == []
