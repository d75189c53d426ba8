"""The RSS feeds: valid, absolute, stable, escaped, ordered, limited, wall-clock free."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import feedparser
import html5lib
import pytest
from msgspec.structs import replace

from digest.config import Settings
from digest.render import render_site
from digest.store import Store
from tests.factories import edition_series, make_digest, make_settings, save_all

BASE = "https://news.example.org/wire/"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path, feed_items=5)


def build(settings: Settings) -> None:
    render_site(settings, Store(settings.data_dir))


def feed(settings: Settings, path: str = "feed.xml") -> Any:
    parsed = feedparser.parse((settings.site_dir / path).read_bytes())
    assert parsed.bozo == 0, parsed.get("bozo_exception")
    return parsed


def test_site_feed(settings: Settings) -> None:
    digests = edition_series(12)
    save_all(Store(settings.data_dir), digests)
    build(settings)
    parsed = feed(settings)
    assert parsed.version == "rss20"
    assert parsed.feed.title == "The Test Wire"
    assert parsed.feed.link == BASE
    assert parsed.feed.language == "en"
    newest = sorted(digests, key=lambda d: (d.date, d.filed_at), reverse=True)[:5]
    assert [e.title for e in parsed.entries] == [d.headline for d in newest]
    links = [e.link for e in parsed.entries]
    assert links[0] == f"{BASE}ground/2026-01-06.html"
    assert all(link.startswith(BASE) for link in links)
    assert [e.id for e in parsed.entries] == links
    guids = ET.fromstring((settings.site_dir / "feed.xml").read_bytes()).iter("guid")
    assert [(g.text, g.get("isPermaLink")) for g in guids] == [(link, "true") for link in links]
    published = [e.published_parsed for e in parsed.entries]
    assert published == sorted(published, reverse=True)
    assert parsed.feed.updated == parsed.entries[0].published
    assert [t.term for t in parsed.entries[0].tags] == ["Telemetry"]


def test_project_feed_has_only_its_project(settings: Settings) -> None:
    save_all(Store(settings.data_dir), edition_series(12))
    build(settings)
    parsed = feed(settings, "ground/feed.xml")
    assert parsed.feed.title == "The Test Wire · Ground Station"
    assert parsed.feed.link == f"{BASE}ground/"
    assert len(parsed.entries) == 5
    assert all(e.link.startswith(f"{BASE}ground/") for e in parsed.entries)


def test_feed_content_is_the_escaped_edition(settings: Settings) -> None:
    store = Store(settings.data_dir)
    store.save_digest(
        make_digest(body="Hello <script>alert(1)</script> & valves [1].", filed_at=None)
    )
    build(settings)
    raw = (settings.site_dir / "feed.xml").read_bytes()
    item = ET.fromstring(raw).find("channel/item")
    assert item is not None
    assert item.findtext("pubDate") == "Tue, 03 Mar 2026 00:00:00 GMT"
    html = item.findtext("description") or ""
    assert "&lt;p&gt;" in raw.decode()  # escaped by ElementTree, not CDATA or raw
    fragment = html5lib.parseFragment(html, namespaceHTMLElements=False)
    assert fragment.find(".//script") is None
    assert "Hello <script>alert(1)</script> & valves" in "".join(fragment.itertext())
    cites = [a.get("href") for a in fragment.iter("a") if a.get("class") == "cite"]
    assert cites and all(c.startswith(f"{BASE}rockets/2026-03-02.html#ref-") for c in cites)
    assert [r.get("id") for r in fragment.iter("li") if r.get("id")] == ["ref-1", "ref-2", "ref-3"]
    entry = feed(settings).entries[0]
    assert "Hello" in entry.summary


def test_feed_is_stable_and_wall_clock_free(settings: Settings, tmp_path: Path) -> None:
    store = Store(settings.data_dir)
    store.save_digest(make_digest(filed_at=dt.datetime(2026, 3, 3, 5, 0, tzinfo=dt.UTC)))
    build(settings)
    first = (settings.site_dir / "feed.xml").read_bytes()
    other = replace(settings, site_dir=tmp_path / "again")
    build(other)
    assert (other.site_dir / "feed.xml").read_bytes() == first
    root = ET.fromstring(first)
    # The edition of 2 March is dated by the end of that day, not by when it was filed.
    assert root.findtext("channel/lastBuildDate") == "Tue, 03 Mar 2026 00:00:00 GMT"
    self_link = root.find("channel/{http://www.w3.org/2005/Atom}link")
    assert self_link is not None and self_link.get("href") == f"{BASE}feed.xml"


def test_feed_dates_are_edition_dates_whenever_they_were_written(
    settings: Settings, tmp_path: Path
) -> None:
    store = Store(settings.data_dir)
    # Two days written in one run of a range, months after: the feed dates the news.
    for day in (dt.date(2026, 3, 1), dt.date(2026, 3, 2)):
        filed = dt.datetime(2026, 9, 30, 6, 0, tzinfo=dt.UTC)
        store.save_digest(make_digest(date=day, headline=f"NEWS OF {day}", filed_at=filed))
    build(settings)
    parsed = feed(settings)
    dates = {e.title: dt.datetime(*e.published_parsed[:6]) for e in parsed.entries}
    assert dates == {
        "NEWS OF 2026-03-02": dt.datetime(2026, 3, 3),
        "NEWS OF 2026-03-01": dt.datetime(2026, 3, 2),
    }
    assert [e.title for e in parsed.entries] == ["NEWS OF 2026-03-02", "NEWS OF 2026-03-01"]
    # Written again later (a refresh): the same dates, so readers see nothing new.
    again = make_digest(date=dt.date(2026, 3, 2), headline="NEWS OF 2026-03-02")
    store.save_digest(replace(again, filed_at=dt.datetime(2026, 11, 1, tzinfo=dt.UTC)))
    build(settings)
    assert {e.title: dt.datetime(*e.published_parsed[:6]) for e in feed(settings).entries} == dates


def test_empty_site_has_valid_feed(settings: Settings) -> None:
    build(settings)
    parsed = feed(settings)
    assert parsed.entries == []
