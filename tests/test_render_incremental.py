"""Incremental builds: only pages whose inputs changed are rendered and written."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace

import digest.render.site as site_module
from digest.config import Settings
from digest.errors import StorageError
from digest.render import RenderReport, render_site
from digest.render.fragments import Fragments
from digest.store import Store
from tests.factories import (
    edition_series,
    make_digest,
    make_settings,
    manifest_path,
    past_the_stamp,
    save_all,
    site_files,
)

LISTINGS = {
    "index.html",
    "archive.html",
    "archive/2026.html",
    "feed.xml",
    "feed.json",
    "rockets/index.html",
    "rockets/2026.html",
    "rockets/feed.xml",
    "rockets/feed.json",
}
#: The desks (all items, and each urgency), and the act-now feeds of the site and of
#: project rockets.
DESKS = {
    "actions.html",
    "actions-immediate.html",
    "actions-plan.html",
    "actions-monitor.html",
    "actions/immediate.xml",
    "actions/immediate.json",
    "rockets/actions.html",
    "rockets/actions-immediate.html",
    "rockets/actions-plan.html",
    "rockets/actions-monitor.html",
    "rockets/immediate.xml",
    "rockets/immediate.json",
}


@pytest.fixture(autouse=True)
def no_search_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests count pages; the search index, made again when any edition changes, has
    its own (tests/test_render_search.py)."""
    monkeypatch.setattr("digest.render.search.executable", lambda: None)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
def store(settings: Settings) -> Store:
    digests = edition_series(30)
    store = Store(settings.data_dir)
    save_all(store, digests)
    return store


def build(settings: Settings, *, full: bool = False) -> RenderReport:
    """Build the site; ``full`` after the data folder was changed by hand."""
    return render_site(settings, Store(settings.data_dir), full=full)


def editions(report: RenderReport) -> set[str]:
    return {p for p in report.written if p[-15:-5].count("-") == 2}


def test_adding_a_day_renders_it_its_neighbour_and_listings(
    settings: Settings, store: Store
) -> None:
    first = build(settings)
    assert first.pages_written == len(first.written) > 30
    new = make_digest(date=dt.date(2026, 1, 16), topics=("valves",), headline="Sixteenth")
    store.save_digest(new)
    report = build(settings)
    assert report.digests_read == 1
    assert editions(report) == {"rockets/2026-01-16.html", "rockets/2026-01-15.html"}
    others = set(report.written) - editions(report)
    topic = {"topics/valves.html", "topics/valves/2026.html", "topics/valves.xml"}
    # The sitemap of January 2026; the sitemap index lists the same groups as before.
    assert others == LISTINGS | DESKS | topic | {"topics/valves.json", "sitemap/2026-01.xml"}
    # The desk of topic valves looks at the new edition and comes out the same: none of
    # its items is about valves (no collected day says so).
    assert report.pages_unchanged == 6
    assert report.pages_skipped == first.pages_written - len(report.written) - 6 + 1


def test_a_build_without_changes_writes_nothing(settings: Settings, store: Store) -> None:
    build(settings)
    before = {p: p.stat().st_mtime_ns for p in settings.site_dir.rglob("*") if p.is_file()}
    report = build(settings)
    assert (report.pages_written, report.pages_unchanged, report.digests_read) == (0, 0, 0)
    after = {p: p.stat().st_mtime_ns for p in settings.site_dir.rglob("*") if p.is_file()}
    assert after == before


def test_touching_a_digest_rereads_nothing(settings: Settings, store: Store) -> None:
    build(settings)
    path = store.digest_path("rockets", dt.date(2026, 1, 5))
    os.utime(path, ns=(1, 1))
    report = build(settings)
    assert (report.pages_written, report.digests_read) == (0, 0)


def test_changing_a_digest_rerenders_its_page(settings: Settings, store: Store) -> None:
    build(settings)
    old = store.load_digest("ground", dt.date(2026, 1, 7))
    assert old is not None
    store.save_digest(replace(old, body="A different story [1]."))
    report = build(settings)
    assert report.digests_read == 1
    feeds = {"feed.xml", "ground/feed.xml", "topics/telemetry.xml"}
    twins = {path.replace(".xml", ".json") for path in feeds}
    assert set(report.written) == {"ground/2026-01-07.html", *feeds, *twins}
    # The desks (four pages each) and act-now feeds of the site, of ground and of its topic
    # telemetry look at the changed digest, and come out the same: its action items did
    # not change.
    assert report.pages_unchanged == 3 * 6
    assert "A different story" in (settings.site_dir / "ground/2026-01-07.html").read_text()


def test_deleting_a_digest_removes_its_page(settings: Settings, store: Store) -> None:
    build(settings)
    store.delete_digest("rockets", dt.date(2026, 1, 15))
    report = build(settings)
    assert report.deleted == ("rockets/2026-01-15.html",)
    assert not (settings.site_dir / "rockets/2026-01-15.html").exists()
    assert editions(report) == {"rockets/2026-01-14.html"}


def test_the_editions_counted_by_month_follow_every_change(
    settings: Settings, store: Store
) -> None:
    """The manifest keeps its counts of editions by month (for the listings) as it goes;
    they are what counting its digests and topics gives."""

    def counted() -> tuple[list[tuple[str, str, str, int]], list[tuple[str, str, str, int]]]:
        with contextlib.closing(sqlite3.connect(manifest_path(settings))) as db:
            kept = db.execute("SELECT * FROM counts ORDER BY kind, name, month").fetchall()
            made = db.execute(
                "SELECT 'site', '', month, count(*) FROM digests GROUP BY month "
                "UNION ALL SELECT 'slug', slug, month, count(*) FROM digests GROUP BY slug, month "
                "UNION ALL SELECT 'topic', topic, month, count(*) FROM topics "
                "GROUP BY topic, month ORDER BY 1, 2, 3"
            ).fetchall()
        return kept, made

    build(settings)
    kept, made = counted()
    assert kept == made and ("slug", "rockets", "2026-01", 15) in kept
    store.save_digest(make_digest(date=dt.date(2026, 2, 3), topics=("valves", "valves", "new")))
    store.save_digest(make_digest(date=dt.date(2026, 1, 15), topics=("telemetry",)))
    store.delete_digest("ground", dt.date(2026, 1, 14))
    build(settings)
    kept, made = counted()
    assert kept == made and ("topic", "new", "2026-02", 1) in kept
    store.delete_digest("rockets", dt.date(2026, 2, 3))
    build(settings)
    kept, made = counted()
    assert kept == made and not [row for row in kept if row[2] == "2026-02"]


def test_a_digest_deleted_by_hand_goes_with_a_full_build(settings: Settings, store: Store) -> None:
    build(settings)
    store.digest_path("rockets", dt.date(2026, 1, 15)).unlink()
    assert build(settings).deleted == ()  # the index still lists it: a full build is needed
    report = build(settings, full=True)
    assert report.deleted == ("rockets/2026-01-15.html",)
    assert editions(report) == {"rockets/2026-01-14.html"}


def test_deleting_a_project_removes_its_folder(settings: Settings, store: Store) -> None:
    store.save_digest(make_digest(project="Side", project_slug="side"))
    build(settings)
    for path in store.digest_path("side", make_digest().date).parent.iterdir():
        path.unlink()
    report = build(settings)
    assert set(report.deleted) >= {"side/index.html", "side/feed.xml", "side/2026-03-02.html"}
    assert not (settings.site_dir / "side").exists()


def test_template_override_rerenders_everything(
    settings: Settings, store: Store, tmp_path: Path
) -> None:
    first = build(settings)
    overrides = tmp_path / "overrides"
    overrides.mkdir()
    (overrides / "base.html").write_text(
        '{% extends "shipped/base.html" %}'
        '{% block head %}<meta name="generator" content="override">{% endblock %}'
    )
    changed = replace(settings, site=replace(settings.site, templates=overrides))
    report = build(changed)
    assert report.pages_skipped == 0
    html = {path for path in first.written if path.endswith(".html")}
    assert set(report.written) == html  # feeds and style.css do not use base.html
    assert report.pages_unchanged == first.pages_written - len(html)
    assert 'content="override"' in (settings.site_dir / "index.html").read_text()
    assert build(changed).pages_written == 0


def test_settings_change_rerenders_everything(settings: Settings, store: Store) -> None:
    first = build(settings)
    renamed = replace(settings, site=replace(settings.site, publisher="Other Desk"))
    report = build(renamed)
    assert report.pages_skipped == 0
    assert report.pages_written + report.pages_unchanged == first.pages_written


def _foreign_database() -> bytes:
    """An SQLite file of another program, with a table the manifest also has."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "other.sqlite")
        with contextlib.closing(sqlite3.connect(path)) as db:
            db.execute("CREATE TABLE pages(name TEXT)")
            db.execute("INSERT INTO pages VALUES ('x')")
            db.commit()
        return path.read_bytes()


@pytest.mark.parametrize(
    "damage", [b"", b"{broken", b"SQLite format 3\0" + bytes(200), _foreign_database(), None]
)
def test_corrupt_manifest_means_full_build(
    settings: Settings, store: Store, tmp_path: Path, damage: bytes | None
) -> None:
    first = build(settings)
    if damage is None:  # opens as a manifest, fails halfway through the build
        with contextlib.closing(sqlite3.connect(manifest_path(settings))) as db:
            db.execute("DROP TABLE cites")
            db.commit()
    else:
        manifest_path(settings).write_bytes(damage)
    # Any change takes the next build past the stamp; it finds the manifest damaged.
    past_the_stamp(settings)
    report = build(settings)
    assert report.digests_read == 30
    assert report.pages_skipped == 0
    assert report.pages_unchanged == first.pages_written  # same bytes: nothing rewritten
    clean = replace(settings, site_dir=tmp_path / "clean")
    build(clean)
    assert site_files(settings.site_dir) == site_files(clean.site_dir)


def test_missing_page_is_rendered_again(settings: Settings, store: Store) -> None:
    build(settings)
    (settings.site_dir / "ground/2026-01-03.html").unlink()
    (settings.site_dir / "style.css").unlink()
    report = build(settings)
    assert set(report.written) == {"ground/2026-01-03.html", "style.css"}


def test_manifest_never_deletes_outside_the_site(
    settings: Settings, store: Store, tmp_path: Path
) -> None:
    build(settings)
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me")
    _forge_pages(settings, ["../precious.txt", str(victim)])
    build(settings)
    assert victim.read_text() == "keep me"


def test_a_digest_broken_after_a_good_build_stays_published(
    settings: Settings, store: Store
) -> None:
    build(settings)
    path = store.digest_path("rockets", dt.date(2026, 1, 8))
    page = settings.site_dir / "rockets/2026-01-08.html"
    before = page.read_bytes()
    path.write_text('{"project": "half written')
    report = build(settings, full=True)
    assert len(report.problems) == 1 and "last good version" in report.problems[0]
    assert report.written == () and report.deleted == ()
    assert page.read_bytes() == before
    # A later build for another change still says so, and still keeps the page (the
    # desks that would show its action items are left as they were, and say so too).
    store.save_digest(make_digest(date=dt.date(2026, 1, 20), headline="Later"))
    report = build(settings)
    assert "last good version" in report.problems[0]
    assert all("page not updated" in problem for problem in report.problems[1:])
    assert page.read_bytes() == before
    store.save_digest(make_digest(date=dt.date(2026, 1, 8), headline="Repaired"))
    report = build(settings)
    assert report.problems == ()
    assert "rockets/2026-01-08.html" in report.written


@pytest.mark.reliability
def test_a_tampered_manifest_leaves_the_site_a_full_build_would_write(
    settings: Settings, store: Store, tmp_path: Path
) -> None:
    """Files the Wire did not write are deleted from the site, whatever the manifest says."""
    build(settings)
    site = settings.site_dir.resolve()
    victims = [site / ".well-known/security.txt", site / "notes.txt", site / "CNAME"]
    for victim in victims:
        victim.parent.mkdir(exist_ok=True)
        victim.write_text("not the Wire's")
    _forge_pages(settings, [str(v.relative_to(site)) for v in victims])
    beside = tmp_path / "notes.txt"
    beside.write_text("keep me")
    past_the_stamp(settings)
    build(settings)
    clean = replace(settings, site_dir=tmp_path / "clean")
    build(clean)
    assert site_files(settings.site_dir) == site_files(clean.site_dir)
    assert beside.read_text() == "keep me"


def _forge_pages(settings: Settings, paths: list[str]) -> None:
    """Record ``paths`` in the manifest as pages the last build wrote."""
    with contextlib.closing(sqlite3.connect(manifest_path(settings))) as db:
        db.executemany("INSERT INTO pages VALUES (?, 'x', 0, '')", ((path,) for path in paths))
        db.commit()


def _no_full_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any build that gets past the stamp fail the test."""
    import digest.render.site

    def refuse(*args: object) -> RenderReport:
        raise AssertionError("the renderer ran although nothing changed")

    monkeypatch.setattr(digest.render.site, "build_site", refuse)


def test_a_build_with_nothing_changed_stops_at_the_stamp(
    settings: Settings, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = build(settings)
    _no_full_build(monkeypatch)
    again = build(settings)
    assert (again.pages_written, again.pages_unchanged, again.digests_read) == (0, 0, 0)
    assert again.pages_skipped == first.pages_written
    assert again.editions == first.editions


def test_a_touched_digest_stops_at_the_stamp(
    settings: Settings, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    build(settings)
    path = store.digest_path("rockets", dt.date(2026, 1, 8))
    os.utime(path, ns=(1, 1))
    _no_full_build(monkeypatch)
    build(settings)  # the index gives its hash, not its stat
    report = build(settings, full=True)  # read again: the same bytes
    assert report.written == ()


@pytest.mark.parametrize("change", ["template", "page", "collected"])
def test_any_other_change_goes_past_the_stamp(
    settings: Settings,
    store: Store,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    change: str,
) -> None:
    import digest.render.site

    builds: list[object] = []
    real = digest.render.site.build_site

    def counted(*args: Any) -> RenderReport:
        builds.append(args)
        return real(*args)

    monkeypatch.setattr(digest.render.site, "build_site", counted)
    overrides = tmp_path / "templates"
    overrides.mkdir()
    (overrides / "notes.txt").write_text("one")
    settings = replace(settings, site=replace(settings.site, templates=overrides))
    build(settings)
    site = settings.site_dir
    if change == "template":
        (overrides / "notes.txt").write_text("two")
    elif change == "page":
        (site / "rockets/2026-01-08.html").unlink()
    else:
        day = settings.data_dir / "collected/acme/rockets/2026-01-08.json"
        day.parent.mkdir(parents=True)
        day.write_text('{"pulls": []}')
    build(settings)
    assert len(builds) == 2
    assert (site / "rockets/2026-01-08.html").is_file()


def test_a_site_built_with_the_json_manifest_is_taken_over(
    settings: Settings, store: Store, tmp_path: Path
) -> None:
    """The page list of the manifest earlier versions kept in the site is adopted once."""
    build(settings)
    published = settings.site_dir.resolve()
    manifest_path(settings).unlink()
    # As an earlier version left it: a JSON manifest in the site, listing a page that the
    # current digests no longer make, and a file the Wire never wrote.
    stale = published / "rockets/2025-12-31.html"
    stale.write_text("<html>an edition since deleted</html>")
    (published / "CNAME").write_text("news.example.org")
    legacy = {
        "format": 2,
        "code": "old",
        "pages": {"rockets/2025-12-31.html": "k", "index.html": "k"},
    }
    (published / ".wire-manifest.json").write_text(json.dumps(legacy))
    past_the_stamp(settings)
    report = build(settings)
    site = settings.site_dir.resolve()
    assert sorted(report.deleted) == ["CNAME", "rockets/2025-12-31.html"]
    assert not (site / ".wire-manifest.json").exists()
    clean = replace(settings, site_dir=tmp_path / "clean")
    build(clean)
    assert site_files(settings.site_dir) == site_files(clean.site_dir)


def test_a_manifest_of_an_earlier_format_hands_over_its_page_list(
    settings: Settings, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its records are dropped, its pages kept: those no build makes now are deleted."""
    build(settings)
    stale = settings.site_dir.resolve() / "rockets/2025-12-31.html"
    stale.write_text("<html>an edition since deleted</html>")
    _forge_pages(settings, ["rockets/2025-12-31.html"])
    with contextlib.closing(sqlite3.connect(manifest_path(settings))) as db:
        db.execute("UPDATE meta SET value = '3' WHERE name = 'format'")
        db.execute("ALTER TABLE digests DROP COLUMN actions")
        db.commit()
    older = manifest_path(settings).read_bytes()
    past_the_stamp(settings)

    def broken_save(*args: object) -> bool:
        raise OSError(28, "No space left on device")

    # A build that fails after starting the manifest over leaves it as it was.
    with monkeypatch.context() as patch:
        patch.setattr(site_module.stamp, "save", broken_save)
        with pytest.raises(StorageError):
            build(settings)
    assert manifest_path(settings).read_bytes() == older
    report = build(settings)
    assert report.deleted == ("rockets/2025-12-31.html",)
    assert report.digests_read == 30
    clean = replace(settings, site_dir=tmp_path / "clean")
    build(clean)
    assert site_files(settings.site_dir) == site_files(clean.site_dir)


def test_fragments_unused_for_two_weeks_are_swept_once_a_day(tmp_path: Path) -> None:
    fragments = Fragments(tmp_path / "fragments")
    fragments.put("old", "stale")
    fragments.put("new", "fresh")
    day, now = 24 * 3600, 1_800_000_000.0
    os.utime(tmp_path / "fragments/old", (now - 15 * day, now - 15 * day))
    os.utime(tmp_path / "fragments/new", (now - 13 * day, now - 13 * day))
    assert fragments.prune(now) == 1
    assert fragments.get("old") is None and fragments.get("new") == "fresh"
    os.utime(tmp_path / "fragments/new", (now - 20 * day, now - 20 * day))
    assert fragments.prune(now + day / 2) == 0  # swept half a day ago: not again yet
    assert (tmp_path / "fragments/new").exists()
    assert fragments.prune(now + day) == 1
    assert not (tmp_path / "fragments/new").exists()
