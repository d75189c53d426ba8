"""The search index: built by `digest render` with Pagefind, kept while no indexed page changes."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from digest.config import Settings
from digest.render import render_site, search
from digest.store import Store
from tests.factories import edition_series, make_settings, parse_page, save_all

pytestmark = pytest.mark.skipif(search.executable() is None, reason="Pagefind is not installed")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    settings = make_settings(tmp_path)
    save_all(Store(settings.data_dir), edition_series(6))
    return settings


def index_files(settings: Settings) -> dict[str, bytes]:
    root = settings.site_dir / "pagefind"
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_render_builds_an_index_of_the_editions(settings: Settings) -> None:
    report = render_site(settings, Store(settings.data_dir))
    entry = json.loads((settings.site_dir / "pagefind/pagefind-entry.json").read_bytes())
    assert entry["languages"]["en"]["page_count"] == 6  # the editions; no listing, no desk
    assert "pagefind/pagefind-ui.js" in report.written
    assert all(
        search.indexed(p) or not p.endswith(".html") or "pr/" not in p for p in report.written
    )
    # The search page loads it; every other page works without a script.
    page = parse_page(settings.site_dir / "search.html")
    assert [s.get("src") for s in page.iter("script")] == ["pagefind/pagefind-ui.js", None]
    edition = parse_page(settings.site_dir / "rockets/2026-01-01.html")
    assert edition.find(".//article").get("data-pagefind-body") is not None


def test_the_index_is_kept_until_an_indexed_page_changes(settings: Settings) -> None:
    store = Store(settings.data_dir)
    render_site(settings, store)
    first = index_files(settings)
    # Nothing changed: the index is not made again.
    again = render_site(settings, store)
    assert not [p for p in again.written if p.startswith("pagefind/")]
    assert index_files(settings) == first
    # A new day: Pagefind reads every page again, and the index covers the new edition.
    save_all(store, edition_series(8)[6:])
    report = render_site(settings, store)
    entry = json.loads((settings.site_dir / "pagefind/pagefind-entry.json").read_bytes())
    assert entry["languages"]["en"]["page_count"] == 8
    assert "pagefind/pagefind-entry.json" in report.written
    # What the new index no longer has is deleted; what it has is on disk.
    assert set(index_files(settings)) == {
        p.removeprefix("pagefind/")
        for p in (settings.site_dir / "pagefind").rglob("*")
        for p in [p.relative_to(settings.site_dir).as_posix()]
        if (settings.site_dir / p).is_file()
    }
    assert not [p for p in report.deleted if (settings.site_dir / p).exists()]


def test_a_lost_index_file_has_the_index_made_again(settings: Settings) -> None:
    store = Store(settings.data_dir)
    render_site(settings, store)
    first = index_files(settings)
    published = settings.site_dir.resolve()
    (published / "pagefind/pagefind-entry.json").unlink()
    render_site(settings, store)
    assert index_files(settings) == first


def test_the_same_pages_give_the_same_index(tmp_path: Path) -> None:
    built = []
    for name in ("one", "two"):
        settings = make_settings(tmp_path / name)
        save_all(Store(settings.data_dir), edition_series(4, start=dt.date(2026, 2, 1)))
        render_site(settings, Store(settings.data_dir))
        built.append(index_files(settings))
    assert built[0] == built[1]
