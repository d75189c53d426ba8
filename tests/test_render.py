"""The rendered site: page structure, links, hostile text, index, archive, determinism."""

from __future__ import annotations

import datetime as dt
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import pytest
from msgspec.structs import replace

from digest.config import Settings
from digest.errors import WireError
from digest.models import ActionItem, ChangeSummary, FaqEntry, Urgency
from digest.render import RenderReport, render_site
from digest.store import Store
from tests.factories import (
    edition_series,
    executable_scripts,
    failure,
    make_digest,
    make_reference,
    make_settings,
    parse_page,
    save_all,
    site_files,
    text,
)

HOSTILE = "<script>alert('x')</script>"
BIDI = "\u202e\u2066"


def build(settings: Settings, *, full: bool = False) -> RenderReport:
    """Build the site; ``full`` after the data folder was changed by hand."""
    return render_site(settings, Store(settings.data_dir), full=full)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
def store(settings: Settings) -> Store:
    return Store(settings.data_dir)


def page(settings: Settings, path: str) -> Any:
    return parse_page(settings.site_dir / path)


def by_class(root: Any, tag: str, cls: str) -> list[Any]:
    return [el for el in root.iter(tag) if cls in el.get("class", "").split()]


def html_pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_edition_page(settings: Settings, store: Store) -> None:
    store.save_digest(
        make_digest(failed_repos=(failure(),), writer_note="the server could not be reached")
    )
    build(settings)
    root = page(settings, "rockets/2026-03-02.html")

    assert root.get("lang") == "en"
    assert root.find("head/meta[@charset]").get("charset") == "utf-8"
    assert root.find("head/meta[@name='viewport']") is not None
    assert text(root.find("head/title")).startswith("Valve controller rewrite lands")
    assert root.find("head/meta[@name='description']").get("content").startswith("The fuel")
    canonical = root.find("head/link[@rel='canonical']").get("href")
    assert canonical == "https://news.example.org/wire/rockets/2026-03-02.html"
    feeds = [
        (el.get("type"), el.get("href")) for el in root.iter("link") if el.get("rel") == "alternate"
    ]
    assert feeds == [
        ("application/rss+xml", "../rockets/feed.xml"),
        ("application/feed+json", "../rockets/feed.json"),
        ("application/rss+xml", "../feed.xml"),
        ("application/feed+json", "../feed.json"),
    ]

    headlines = list(root.iter("h1"))
    assert [text(h) for h in headlines] == [
        "Valve controller rewrite lands, launch checks get faster"
    ]
    assert "headline" in headlines[0].get("class")
    byline = text(by_class(root, "p", "byline")[0])
    assert byline == "By Test Desk · Filed 3 March 2026, 06:30 UTC · About Rockets"
    assert text(by_class(root, "p", "dek")[0]).startswith("The fuel valve controller")

    refs = {li.get("id"): li for li in root.iter("li") if li.get("id", "").startswith("ref-")}
    assert list(refs) == ["ref-1", "ref-2", "ref-3"]
    first = refs["ref-1"].find("a")
    assert first.get("href") == "https://github.com/acme/rockets/pull/401"
    assert "acme/rockets #401" in text(refs["ref-1"])

    ids = {el.get("id") for el in root.iter() if el.get("id")}
    cites = by_class(root, "a", "cite")
    assert len(cites) >= 6
    assert all(a.get("href").removeprefix("#") in ids for a in cites)

    badges = by_class(root, "span", "badge")
    assert [b.get("class") for b in badges] == [
        "badge badge-immediate",
        "badge badge-plan",
        "badge badge-monitor",
    ]
    actions = by_class(root, "li", "action")
    assert "acme/telemetry" in text(actions[1]) and "[3]" in text(actions[1])

    faq = root.findall(".//section[@class='faq']/details")
    assert text(faq[0].find("summary")) == "What changed in Rockets today?"
    changes = root.find(".//details[@class='changes']")
    assert changes.get("open") is None
    assert len(changes.findall(".//li")) == 4
    assert "acme/antenna: repository not found" in text(by_class(root, "aside", "notice")[0])
    assert text(by_class(root, "p", "colophon")[0]) == (
        "Written by the extractive writer because the server could not be reached."
    )


def test_edition_without_filed_at_uses_its_date(settings: Settings, store: Store) -> None:
    store.save_digest(make_digest(filed_at=None, failed_repos=()))
    build(settings)
    root = page(settings, "rockets/2026-03-02.html")
    assert "Filed 2 March 2026 ·" in text(by_class(root, "p", "byline")[0])
    assert not by_class(root, "aside", "notice")


def test_every_page_is_strict_html_and_every_link_resolves(
    settings: Settings, store: Store
) -> None:
    save_all(store, edition_series(12))
    store.save_digest(make_digest(failed_repos=(failure(),)))
    build(settings)
    site = settings.site_dir
    pages = html_pages(site)
    assert len(pages) > 20
    ids: dict[str, set[str]] = {}
    for path in pages:
        root = parse_page(path)
        ids[path.relative_to(site).as_posix()] = {e.get("id") for e in root.iter() if e.get("id")}
    for path in pages:
        root = parse_page(path)
        here = PurePosixPath(path.relative_to(site).as_posix())
        scripts = executable_scripts(root)
        if here.as_posix() == "search.html":  # Pagefind's script, and the one that starts it
            # Of the newest month's bundle
            assert [s.get("src") for s in scripts] == ["pagefind/2026-03/pagefind-ui.js", None]
        else:
            assert not scripts
        assert all(not a.startswith("on") for el in root.iter() for a in el.attrib)
        for el in root.iter():
            href = el.get("href")
            if href is None or urlsplit(href).scheme:
                continue
            target, _, fragment = href.partition("#")
            if target.startswith("/"):
                # Only the "not found" page, served at any depth, links from the site's path.
                assert here.as_posix() == "404.html" and target.startswith("/wire/"), href
                target = "/".join([".."] * (len(here.parts) - 1) + [target.removeprefix("/wire/")])
            resolved = _resolve(here, target) if target else here.as_posix()
            assert (site / resolved).is_file(), f"{here}: broken link {href}"
            if fragment:
                assert fragment in ids[resolved], f"{here}: no #{fragment} in {resolved}"


def _resolve(here: PurePosixPath, target: str) -> str:
    parts: list[str] = list(here.parent.parts)
    for part in target.split("/"):
        if part == "..":
            assert parts, f"{here}: link {target} leaves the site"
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def hostile_digest() -> Any:
    return make_digest(
        headline=f"Big day {HOSTILE} for{BIDI} valves",
        dek='<img src="x" onerror="alert(1)"> dek',
        body=(
            f"Raw {HOSTILE} and <iframe src=https://evil.example></iframe> [1].\n\n"
            "[click me](javascript:alert(1)) and <b onmouseover='alert(2)'>bold</b> [2]"
        ),
        action_items=(
            ActionItem(f"Patch {HOSTILE} now", "acme/rockets\u202e", Urgency.IMMEDIATE, (1, 99)),
        ),
        references=(
            make_reference(1, title=f"Title {HOSTILE}", url="javascript:alert(document.cookie)"),
            make_reference(2, url="https://github.com/acme/rockets/pull/402?a=1&b=<2>"),
        ),
        faq=(FaqEntry(f"</summary>{HOSTILE}?", "<a href='javascript:x'>answer</a> [1]"),),
        changes=(
            ChangeSummary("acme/rockets", 1, f"{HOSTILE} title", "data:text/html,<b>x</b>", "fix"),
        ),
        failed_repos=(failure(repo=f"acme/{HOSTILE}"),),
        writer=HOSTILE,
        writer_note='"><script>alert(3)</script>',
    )


def test_hostile_text_never_becomes_markup(settings: Settings, store: Store) -> None:
    store.save_digest(hostile_digest())
    build(settings)
    for path in html_pages(settings.site_dir):
        raw = path.read_text().replace('<script type="application/ld+json">', "")
        if path.name == "search.html":  # the search page's own two scripts, no more
            assert raw.count("<script") == 2
            raw = raw.replace("<script", "", 2)
        assert "<script" not in raw
        assert "<iframe" not in raw and "<img" not in raw
        assert not any(ch in raw for ch in BIDI)
        root = parse_page(path)
        for el in root.iter():
            assert not any(name.startswith("on") for name in el.attrib)
            href = el.get("href", "")
            assert not href.lower().startswith(("javascript:", "data:"))
    root = page(settings, "rockets/2026-03-02.html")
    # The text is shown as the author wrote it, minus invisible characters.
    assert text(root.find(".//h1")) == f"Big day {HOSTILE} for valves"
    ref = root.find(".//li[@id='ref-1']")
    assert ref.find("a") is None and text(ref).startswith(f"Title {HOSTILE}")
    assert root.find(".//li[@id='ref-2']/a").get("href").endswith("?a=1&b=<2>")
    change = root.find(".//details[@class='changes']//li")
    assert change.find("a") is None
    assert by_class(root, "span", "repo")[0] is not None
    assert "acme/rockets" in text(by_class(root, "li", "action")[0])
    assert text(by_class(root, "p", "colophon")[0]).startswith(f"Written by the {HOSTILE}")


def test_index_lists_recent_editions_and_topic_counts(settings: Settings, store: Store) -> None:
    digests = edition_series(25)
    save_all(store, digests)
    build(settings)
    root = page(settings, "index.html")
    cards = by_class(root, "article", "card")
    assert len(cards) == 10
    newest = sorted(digests, key=lambda d: (d.date, d.filed_at), reverse=True)[:10]
    assert [text(card.find("h2")) for card in cards] == [d.headline for d in newest]
    assert cards[0].find("h2/a").get("href") == "rockets/2026-01-13.html"
    assert "Rockets · 13 January 2026" in text(cards[0])
    assert text(by_class(cards[0], "p", "card-dek")[0]) == newest[0].dek
    counts = {text(li.find("a")): li for li in root.findall(".//ul[@class='count-list']/li")}
    valves = sum("valves" in d.topics for d in digests)
    assert list(counts) == ["Valves", "Telemetry"]
    assert f"{valves} editions" in text(counts["Valves"])
    assert f"{25 - valves} editions" in text(counts["Telemetry"])
    assert counts["Valves"].find("a").get("href") == "topics/valves.html"
    topic = page(settings, "topics/valves.html")
    assert len(by_class(topic, "article", "card")) == 9


def test_index_counts_projects_without_topics(tmp_path: Path) -> None:
    settings = replace(make_settings(tmp_path), topics=())
    save_all(Store(settings.data_dir), edition_series(5))
    build(settings)
    root = page(settings, "index.html")
    assert text(root.find(".//section[@class='counts']/h2")) == "Projects"
    rows = [text(li) for li in root.findall(".//ul[@class='count-list']/li")]
    assert rows == ["Rockets Launch vehicles 3 editions", "Ground Station 2 editions"]


def test_archive_groups_by_year_and_month(settings: Settings, store: Store) -> None:
    save_all(store, edition_series(6, start=dt.date(2025, 12, 30)))
    build(settings)
    archive = page(settings, "archive.html")
    years = [text(a) for a in archive.iter("a") if a.get("class") == "year"]
    assert years == ["2026", "2025"]
    assert "6 editions" in text(archive.find(".//main"))
    year = page(settings, "archive/2025.html")
    months = [text(h) for h in year.iter("h2")]
    assert months == ["December 2025"]
    lines = [text(li) for li in year.findall(".//ul[@class='entry-lines']/li")]
    assert lines[0].startswith("31 December 2025 Ground Station")
    project = page(settings, "rockets/2026.html")
    assert [text(li.find("a")) for li in project.iter("li") if li.find("time") is not None] == [
        "Rockets edition number 4"
    ]


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    first = make_settings(tmp_path)
    save_all(Store(first.data_dir), [*edition_series(8), hostile_digest()])
    second = replace(first, site_dir=tmp_path / "other")
    build(first)
    build(second)
    assert site_files(first.site_dir) == site_files(second.site_dir)


def test_unconfigured_project_still_gets_pages(settings: Settings, store: Store) -> None:
    store.save_digest(make_digest(project="Side Quest", project_slug="side-quest"))
    report = build(settings)
    assert report.problems == ()
    root = page(settings, "side-quest/index.html")
    assert text(root.find(".//h1")) == "Side Quest"
    assert (settings.site_dir / "side-quest/feed.xml").is_file()


def test_a_project_taken_out_of_the_config_leaves_the_front_page_not_the_archive(
    settings: Settings, store: Store
) -> None:
    save_all(store, edition_series(2))
    store.save_digest(make_digest(project="Side Quest", project_slug="side-quest", headline="OLD"))
    build(settings)
    front = page(settings, "index.html")
    cards = [text(h) for h in front.iter("h2") if "card-headline" in (h.get("class") or "")]
    assert "OLD" not in cards and cards
    assert "Side Quest" not in text(front.find(".//section[@class='counts']"))
    archive = page(settings, "archive.html")
    latest = [text(a) for a in archive.findall(".//ul[@class='entry-lines']/li/a")]
    assert "OLD" in latest  # the archive lists its latest month in full, every project
    assert page(settings, "side-quest/index.html") is not None


def test_broken_digest_is_reported_and_skipped(settings: Settings, store: Store) -> None:
    save_all(store, edition_series(2))
    bad = store.digest_path("rockets", dt.date(2026, 2, 1))
    bad.write_text("{not json")
    report = build(settings, full=True)
    assert len(report.problems) == 1 and str(bad) in report.problems[0]
    assert report.editions == 2
    assert not (settings.site_dir / "rockets/2026-02-01.html").exists()


def test_report_str_is_one_short_line(settings: Settings, store: Store) -> None:
    save_all(store, edition_series(3))
    line = str(build(settings))
    assert "\n" not in line and line.startswith("3 editions, 3 digests read")
    assert line.endswith("; 0 problems")


def test_report_says_one_in_the_singular() -> None:
    from digest.render import RenderReport

    line = str(RenderReport(1, 0, 0, 0, editions=1, digests_read=1, problems=("x",)))
    assert line.startswith("1 edition, 1 digest read") and line.endswith("; 1 problem")


def test_slug_collisions_fail_loudly(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    store = Store(settings.data_dir)
    store.save_digest(make_digest())
    store.save_digest(make_digest(project="Archive", project_slug="archive"))
    with pytest.raises(WireError, match=r"archive/2026\.html"):
        build(settings)


def test_a_project_display_name_is_how_every_page_names_it(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    projects = [
        replace(p, display_name="RocketWorks") if p.key == "rockets" else p
        for p in settings.projects
    ]
    settings = replace(settings, projects=projects)
    save_all(Store(settings.data_dir), edition_series(2))
    build(settings)
    front = page(settings, "index.html")
    nav = [text(a) for a in front.findall(".//nav[@class='masthead-nav']//a")]
    assert "RocketWorks" in nav and "Rockets" not in nav
    assert text(page(settings, "rockets/index.html").find(".//h1")) == "RocketWorks"
