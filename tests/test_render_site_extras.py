"""The action-items desk, JSON Feeds, topic feeds, sitemap, robots and structured data."""

from __future__ import annotations

import datetime as dt
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import feedparser
import msgspec.structs
import pytest

from digest.config import Settings
from digest.models import ActionItem, Urgency
from digest.render import render_site
from digest.render.urls import absolute
from digest.store import Store
from tests.factories import (
    edition_series,
    make_digest,
    make_settings,
    parse_page,
    save_all,
    text,
)
from tests.test_render import by_class

BASE = "https://news.example.org/wire/"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path, feed_items=5)


def build(settings: Settings) -> Any:
    return render_site(settings, Store(settings.data_dir))


def json_feed(settings: Settings, path: str) -> dict[str, Any]:
    """``path`` parsed as JSON Feed 1.1, checked against the spec's required members."""
    document: dict[str, Any] = json.loads((settings.site_dir / path).read_bytes())
    assert document["version"] == "https://jsonfeed.org/version/1.1"
    assert document["title"] and document["feed_url"] == BASE + path
    assert document["home_page_url"].startswith(BASE)
    for item in document["items"]:
        assert item["id"] and item["url"].startswith(BASE) and item["content_html"]
        dt.datetime.fromisoformat(item["date_published"])
    return document


def test_every_rss_feed_has_a_json_twin_with_the_same_items(settings: Settings) -> None:
    save_all(Store(settings.data_dir), edition_series(12))
    build(settings)
    for rss_path in ("feed.xml", "rockets/feed.xml", "topics/telemetry.xml"):
        rss = feedparser.parse((settings.site_dir / rss_path).read_bytes())
        assert rss.bozo == 0, rss.get("bozo_exception")
        twin = json_feed(settings, rss_path.removesuffix(".xml") + ".json")
        assert [i["id"] for i in twin["items"]] == [e.id for e in rss.entries]
        assert [i["title"] for i in twin["items"]] == [e.title for e in rss.entries]
    topic = feedparser.parse((settings.site_dir / "topics/telemetry.xml").read_bytes())
    assert topic.entries and all("Telemetry" in [t.term for t in e.tags] for e in topic.entries)


def test_pages_announce_their_feeds_in_both_formats(settings: Settings) -> None:
    save_all(Store(settings.data_dir), edition_series(4))
    build(settings)
    root = parse_page(settings.site_dir / "topics/telemetry.html")
    alternates = [
        (el.get("type"), el.get("href")) for el in root.iter("link") if el.get("rel") == "alternate"
    ]
    assert ("application/rss+xml", "../topics/telemetry.xml") in alternates
    assert ("application/feed+json", "../topics/telemetry.json") in alternates
    for _, href in alternates:
        assert (settings.site_dir / "topics" / href).resolve().is_file()


def _with_actions(digest: Any, *items: tuple[str, Urgency]) -> Any:
    actions = tuple(
        ActionItem(text=text, repo="acme/rocket", urgency=urgency, refs=(1,))
        for text, urgency in items
    )
    return msgspec.structs.replace(digest, action_items=actions)


def test_the_desk_gathers_thirty_days_by_urgency_then_repository(settings: Settings) -> None:
    store = Store(settings.data_dir)
    old = _with_actions(
        make_digest(date=dt.date(2026, 1, 1)), ("Update the old pump firmware", Urgency.IMMEDIATE)
    )
    recent = [
        _with_actions(
            make_digest(date=dt.date(2026, 2, day)),
            (f"Migrate off launch_v{day}", Urgency.IMMEDIATE),
            (f"Try the new gimbal mode {day}", Urgency.PLAN),
        )
        for day in (10, 20)
    ]
    save_all(store, [old, *recent])
    build(settings)
    root = parse_page(settings.site_dir / "actions.html")
    sections = [el for el in root.iter("section") if "desk-group" in el.get("class", "")]
    headings = [text(s.find("h2")) for s in sections]
    assert headings == ["Act now 2 items", "Plan 2 items"]
    rows = [li for li in sections[0].iter("li") if "desk-row" in li.get("class", "")]
    items = [text(by_class(li, "p", "desk-text")[0]) for li in rows]
    assert items == ["Migrate off launch_v20", "Migrate off launch_v10"]
    # One line each names the change it is about: its title and number.
    reference = make_digest().references[0]
    for li in rows:
        summary = li.find(".//summary")
        assert text(summary) == f"{reference.title} #{reference.number}"
        assert li.find(".//details/summary") is not None  # the rest folded under it
    links = [a.get("href") for a in sections[0].iter("a")]
    assert "rockets/2026-02-20.html" in links and "rockets/2026-02-20.html#ref-1" in links
    # A page per urgency, each with its own items only.
    plan = parse_page(settings.site_dir / "actions-plan.html")
    planned = [text(p) for p in by_class(plan, "p", "desk-text")]
    assert planned == ["Try the new gimbal mode 20", "Try the new gimbal mode 10"]
    tabs = [a for a in plan.iter("a") if a.get("aria-current") == "page"]
    assert [text(a) for a in tabs] == ["Plan 2"]
    assert (settings.site_dir / "rockets/actions.html").is_file()

    immediate = feedparser.parse((settings.site_dir / "actions/immediate.xml").read_bytes())
    assert immediate.bozo == 0
    assert [e.title for e in immediate.entries] == [
        "Migrate off launch_v20",
        "Migrate off launch_v10",
        "Update the old pump firmware",
    ]
    assert immediate.entries[0].id == f"{BASE}rockets/2026-02-20.html#action-1"
    assert (
        json_feed(settings, "actions/immediate.json")["items"][0]["id"] == immediate.entries[0].id
    )


def test_sitemap_and_robots_list_every_page(settings: Settings) -> None:
    save_all(Store(settings.data_dir), edition_series(6, start=dt.date(2025, 12, 30)))
    build(settings)
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    index = ET.fromstring((settings.site_dir / "sitemap.xml").read_bytes())
    assert index.tag == f"{{{ns['s']}}}sitemapindex"
    maps = [el.text or "" for el in index.iterfind("s:sitemap/s:loc", ns)]
    # Per year of editions, one of its listings and one per month; one of the pages that
    # span years.
    names = ("2026", "2026-01", "2025", "2025-12", "site")
    assert maps == [f"{BASE}sitemap/{name}.xml" for name in names]
    urls = []
    for loc in maps:
        tree = ET.fromstring((settings.site_dir / loc.removeprefix(BASE)).read_bytes())
        urls += tree.iterfind("s:url", ns)
    locs = [u.find("s:loc", ns).text for u in urls]
    pages = sorted(
        str(p.relative_to(settings.site_dir))
        for p in settings.site_dir.rglob("*.html")
        if p.name != "404.html"  # an error page is no page to index
    )
    # Each page once; index.html as its folder.
    assert sorted(locs) == sorted(absolute(BASE, p) for p in pages)
    dated = {u.find("s:loc", ns).text: u.find("s:lastmod", ns) for u in urls}
    assert dated[f"{BASE}rockets/2026-01-01.html"].text == "2026-01-01"
    assert dated[f"{BASE}ground/2025-12-30.html"].text == "2025-12-30"
    robots = (settings.site_dir / "robots.txt").read_text()
    assert f"Sitemap: {BASE}sitemap.xml" in robots.splitlines()


def test_editions_carry_news_article_and_faq_structured_data(settings: Settings) -> None:
    hostile = make_digest(dek="Pumps </script><script>alert(1)</script> & valves.")
    save_all(Store(settings.data_dir), [hostile])
    build(settings)
    root = parse_page(settings.site_dir / "rockets/2026-03-02.html")
    scripts = list(root.iter("script"))
    assert [s.get("type") for s in scripts] == ["application/ld+json"]
    assert "</script>" not in scripts[0].text and "<" not in scripts[0].text
    article, faq = json.loads(scripts[0].text)
    assert article["@type"] == "NewsArticle" and article["url"] == f"{BASE}rockets/2026-03-02.html"
    assert article["description"] == hostile.dek  # escaped in HTML, intact as data
    assert faq["@type"] == "FAQPage" and len(faq["mainEntity"]) == len(hostile.faq)
    meta = {m.get("property"): m.get("content") for m in root.iter("meta") if m.get("property")}
    assert meta["og:type"] == "article" and meta["og:url"] == article["url"]
