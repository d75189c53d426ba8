"""The search index: built by `digest render` with Pagefind, a bundle a month, each made again
only when its month's indexed pages change."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import msgspec
import pytest

from digest.config import Settings
from digest.models import Digest
from digest.render import render_site, search, urls
from digest.store import Store
from tests.factories import edition_series, make_digest, make_settings, parse_page, save_all

pytestmark = pytest.mark.skipif(search.executable() is None, reason="Pagefind is not installed")

JAN, FEB = dt.date(2026, 1, 10), dt.date(2026, 2, 10)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Four editions in January 2026, four in February."""
    settings = make_settings(tmp_path)
    save_all(Store(settings.data_dir), edition_series(4, start=JAN) + edition_series(4, start=FEB))
    return settings


def index_files(settings: Settings, month: str = "") -> dict[str, bytes]:
    """The files of the index (of the bundle of ``month`` if given), by path in it."""
    root = settings.site_dir / "pagefind" / month
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def stats(settings: Settings, month: str) -> dict[str, tuple[int, int]]:
    """The inode and mtime of every file of the bundle of ``month``."""
    root = settings.site_dir / "pagefind" / month
    return {
        p.relative_to(root).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if p.is_file()
    }


def page_count(settings: Settings, month: str) -> int:
    entry = json.loads((settings.site_dir / f"pagefind/{month}/pagefind-entry.json").read_bytes())
    return int(entry["languages"]["en"]["page_count"])


def written_in(paths: tuple[str, ...], month: str) -> list[str]:
    return [p for p in paths if p.startswith(f"pagefind/{month}/")]


def test_render_builds_a_bundle_a_month(settings: Settings) -> None:
    report = render_site(settings, Store(settings.data_dir))
    assert sorted(p.name for p in (settings.site_dir / "pagefind").iterdir()) == [
        "2026-01",
        "2026-02",
    ]
    # Each month's editions, and no listing, no desk.
    assert page_count(settings, "2026-01") == page_count(settings, "2026-02") == 4
    # Pagefind's code and UI are in the newest bundle only: merged indexes use its own.
    assert "pagefind/2026-02/pagefind-ui.js" in report.written
    assert {"pagefind.js", "pagefind-ui.js", "wasm.en.pagefind"} <= set(
        index_files(settings, "2026-02")
    )
    january = set(index_files(settings, "2026-01"))
    assert "pagefind-entry.json" in january
    assert not [p for p in january if search.RUNTIME.fullmatch(p)]
    assert all(urls.is_page_path(p) for p in report.written)
    # The search page loads the newest bundle and merges the older ones; every other page
    # works without a script.
    page = parse_page(settings.site_dir / "search.html")
    assert [s.get("src") for s in page.iter("script")] == ["pagefind/2026-02/pagefind-ui.js", None]
    box = page.find(".//div[@id='search']")
    assert (box.get("data-root"), box.get("data-merge")) == ("pagefind/", "2026-01")
    edition = parse_page(settings.site_dir / "rockets/2026-01-10.html")
    assert edition.find(".//article").get("data-pagefind-body") is not None


def test_a_new_day_makes_only_its_months_bundle(settings: Settings) -> None:
    store = Store(settings.data_dir)
    render_site(settings, store)
    january, before = index_files(settings, "2026-01"), stats(settings, "2026-01")
    february = index_files(settings, "2026-02")
    # Nothing changed: no bundle is made again.
    again = render_site(settings, store)
    assert not [p for p in again.written if p.startswith("pagefind/")]
    assert index_files(settings) == {
        **{f"2026-01/{p}": b for p, b in january.items()},
        **{f"2026-02/{p}": b for p, b in february.items()},
    }
    # A new day in February: its bundle covers the new edition; January's files are the
    # same files, not written again.
    save_all(store, edition_series(6, start=FEB)[4:])
    report = render_site(settings, store)
    assert page_count(settings, "2026-02") == 6
    assert "pagefind/2026-02/pagefind-entry.json" in report.written
    assert written_in(report.written, "2026-01") == []
    assert written_in(report.deleted, "2026-01") == []
    assert stats(settings, "2026-01") == before
    assert index_files(settings, "2026-01") == january
    # What the new bundle no longer has is deleted; what it has is on disk.
    assert not [p for p in report.deleted if (settings.site_dir / p).exists()]
    assert written_in(report.deleted, "2026-02")  # its old index chunks


def test_a_new_month_adds_a_bundle_and_leaves_the_others_data(settings: Settings) -> None:
    store = Store(settings.data_dir)
    render_site(settings, store)
    january = stats(settings, "2026-01")
    february = index_files(settings, "2026-02")
    save_all(store, edition_series(2, start=dt.date(2026, 3, 20)))
    report = render_site(settings, store)
    assert page_count(settings, "2026-03") == 2
    assert stats(settings, "2026-01") == january
    # February's last editions now link to March's: its bundle is made again, without
    # Pagefind's code, which moved to March's.
    now = index_files(settings, "2026-02")
    assert "pagefind-ui.js" in february and "pagefind-ui.js" not in now
    assert "pagefind/2026-02/pagefind-ui.js" in report.deleted
    assert "pagefind/2026-03/pagefind-ui.js" in report.written
    page = parse_page(settings.site_dir / "search.html")
    assert page.find(".//div[@id='search']").get("data-merge") == "2026-02 2026-01"


def test_a_change_in_an_old_month_makes_only_that_months_bundle(settings: Settings) -> None:
    store = Store(settings.data_dir)
    render_site(settings, store)
    february = stats(settings, "2026-02")
    january = index_files(settings, "2026-01")
    # An edition of January rewritten: January's bundle only.
    old = edition_series(4, start=JAN)[2]
    store.save_digest(msgspec.structs.replace(old, headline="A corrected headline about valves"))
    report = render_site(settings, store)
    assert written_in(report.written, "2026-01")
    assert written_in(report.written, "2026-02") == []
    assert stats(settings, "2026-02") == february
    assert index_files(settings, "2026-01") != january
    # An edition of January deleted: January's bundle only, one page fewer.
    store.digest_path(old.project_slug, old.date).unlink()
    report = render_site(settings, store, full=True)  # deleted by hand: the index is told
    assert page_count(settings, "2026-01") == 3
    assert written_in(report.written, "2026-02") == []
    assert stats(settings, "2026-02") == february


def test_a_month_without_editions_loses_its_bundle(settings: Settings) -> None:
    store = Store(settings.data_dir)
    render_site(settings, store)
    for digest in edition_series(4, start=JAN):
        store.digest_path(digest.project_slug, digest.date).unlink()
    report = render_site(settings, store, full=True)  # deleted by hand: the index is told
    assert not (settings.site_dir / "pagefind/2026-01").exists()
    assert "pagefind/2026-01/pagefind-entry.json" in report.deleted
    assert written_in(report.written, "2026-02") == []
    page = parse_page(settings.site_dir / "search.html")
    assert page.find(".//div[@id='search']").get("data-merge") == ""


def test_a_lost_index_file_has_its_bundle_made_again(settings: Settings) -> None:
    store = Store(settings.data_dir)
    render_site(settings, store)
    first = index_files(settings)
    february = stats(settings, "2026-02")
    published = settings.site_dir.resolve()
    (published / "pagefind/2026-01/pagefind-entry.json").unlink()
    report = render_site(settings, store)
    assert index_files(settings) == first
    assert written_in(report.written, "2026-02") == []
    assert stats(settings, "2026-02") == february


def test_the_same_pages_give_the_same_index(tmp_path: Path) -> None:
    built = []
    for name in ("one", "two"):
        settings = make_settings(tmp_path / name)
        days = edition_series(6, start=dt.date(2026, 2, 27))  # February and March
        save_all(Store(settings.data_dir), days)
        render_site(settings, Store(settings.data_dir))
        built.append(index_files(settings))
    assert built[0] == built[1]
    assert {p.split("/")[0] for p in built[0]} == {"2026-02", "2026-03"}


def test_search_turned_off_builds_no_index_and_warns_of_nothing(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    off = msgspec.structs.replace(
        settings, site=msgspec.structs.replace(settings.site, search=False)
    )
    render_site(off, Store(off.data_dir))
    assert not (off.site_dir / "pagefind").exists()
    assert (off.site_dir / "search.html").is_file()  # the page says there is no index
    assert "Pagefind" not in caplog.text


def test_a_new_newest_month_takes_the_code_from_a_month_nothing_else_reached(
    tmp_path: Path,
) -> None:
    """The newest bundle carries Pagefind's code; when a new month becomes the newest, the
    old newest month's bundle loses it even if no page of that month changed."""
    settings = make_settings(tmp_path / "site")
    store = Store(settings.data_dir)
    rockets = [d for d in edition_series(4, start=JAN) if d.project_slug == "rockets"]
    ground = [d for d in edition_series(4, start=FEB) if d.project_slug == "ground"]
    save_all(store, rockets + ground)
    render_site(settings, store)
    assert "pagefind-ui.js" in index_files(settings, "2026-02")
    february = stats(settings, "2026-02")
    # Rockets in March, citing nothing February's editions cite: only its own neighbour,
    # in January, is reached.
    march = msgspec.structs.replace(
        rockets[-1], date=dt.date(2026, 3, 2), references=(), changes=(), action_items=()
    )
    store.save_digest(march)
    report = render_site(settings, store)
    assert "pagefind/2026-02/pagefind-ui.js" in report.deleted
    assert "pagefind/2026-03/pagefind-ui.js" in report.written
    kept = stats(settings, "2026-02")
    assert kept == {p: s for p, s in february.items() if not search.RUNTIME.fullmatch(p)}
    clean = make_settings(tmp_path / "clean")
    save_all(Store(clean.data_dir), [*rockets, *ground, march])
    render_site(clean, Store(clean.data_dir))
    assert index_files(settings) == index_files(clean)


def test_another_pagefind_version_makes_every_bundle_again(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(settings.data_dir)
    render_site(settings, store)
    made: list[str] = []
    build_bundle = search.build_bundle

    def counting(binary: str, site_dir: Path, bundle: search.Bundle, runtime: bool) -> object:
        made.append(bundle.month)
        return build_bundle(binary, site_dir, bundle, runtime)

    monkeypatch.setattr(search, "build_bundle", counting)
    render_site(settings, store)  # nothing changed: no bundle made
    assert made == []
    version = search.version
    monkeypatch.setattr(search, "version", lambda binary: f"{version(binary)} (patched)")
    store.save_digest(_uncited(dt.date(2026, 2, 12)))  # reaches February only
    render_site(settings, store)
    assert sorted(made) == ["2026-01", "2026-02"]


def test_an_index_left_without_pagefind_is_deleted_and_made_again_with_it(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(settings.data_dir)
    render_site(settings, store)
    first = index_files(settings)
    binary = search.executable()
    monkeypatch.setattr(search, "executable", lambda: None)
    new = _uncited(dt.date(2026, 2, 12))  # reaches February only
    store.save_digest(new)
    report = render_site(settings, store)
    assert not (settings.site_dir / "pagefind").exists()
    assert {f"pagefind/{p}" for p in first} <= set(report.deleted)
    monkeypatch.setattr(search, "executable", lambda: binary)
    store.digest_path(new.project_slug, new.date).unlink()
    render_site(settings, store, full=True)
    assert index_files(settings) == first


def _uncited(day: dt.date) -> Digest:
    """An edition of Rockets on ``day`` citing no change (so it reaches no other month)."""
    return make_digest(date=day, headline="Quiet day", references=(), changes=(), action_items=())
