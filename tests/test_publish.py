"""Atomic publishing: a build is made in a copy of the site and swapped in whole."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest
from msgspec.structs import replace

from digest.config import Settings
from digest.errors import StorageError
from digest.render import render_site
from digest.render import site as site_module
from digest.render.publish import StagedSite
from digest.store import Store
from tests.factories import (
    edition_series,
    make_digest,
    make_settings,
    manifest_path,
    save_all,
    site_files,
)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    settings = make_settings(tmp_path)
    save_all(Store(settings.data_dir), edition_series(12))
    return settings


def build(settings: Settings) -> None:
    render_site(settings, Store(settings.data_dir))


def published(settings: Settings) -> Path:
    """The build folder the site link points at."""
    site = settings.site_dir
    assert site.is_symlink()
    return (site.parent / site.readlink()).resolve()


def builds(settings: Settings) -> list[str]:
    """The builds and copies beside the site (not the render cache, not the builds' records)."""
    staged = StagedSite(settings.site_dir)
    return sorted(p.name for p in staged.builds.iterdir() if p != staged.cache and p.is_dir())


def test_a_new_day_is_published_as_a_new_build_and_the_old_one_is_untouched(
    settings: Settings,
) -> None:
    build(settings)
    first = published(settings)
    before = site_files(settings.site_dir, stamp=True)
    Store(settings.data_dir).save_digest(make_digest(date=dt.date(2026, 1, 13), headline="NEW"))
    build(settings)
    second = published(settings)
    assert second != first
    assert site_files(first, stamp=True) == before  # hard links replaced, never written through
    assert "rockets/2026-01-13.html" in site_files(second)
    assert (settings.site_dir / "rockets/2026-01-13.html").is_file()
    # Unchanged pages are shared with the previous build, not copied.
    assert (first / "rockets/2026-01-01.html").samefile(second / "rockets/2026-01-01.html")


def test_a_rebuild_with_nothing_new_keeps_the_published_build(settings: Settings) -> None:
    build(settings)
    first = published(settings)
    build(settings)
    assert published(settings) == first
    assert builds(settings) == [first.name]


def test_only_the_current_and_the_previous_build_are_kept(settings: Settings) -> None:
    store = Store(settings.data_dir)
    for n in range(4):
        store.save_digest(make_digest(date=dt.date(2026, 2, 1 + n), headline=f"DAY {n}"))
        build(settings)
    assert builds(settings) == ["3", "4"]
    assert published(settings).name == "4"


def test_a_failed_build_leaves_the_published_site_and_no_copy(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    build(settings)
    first = published(settings)
    before = site_files(settings.site_dir, stamp=True)
    recorded = manifest_path(settings).read_bytes()
    Store(settings.data_dir).save_digest(make_digest(date=dt.date(2026, 1, 13), headline="NEW"))

    def broken_save(*args: object) -> bool:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(site_module.stamp, "save", broken_save)
    with pytest.raises(StorageError, match="No space left"):
        build(settings)
    assert published(settings) == first
    assert site_files(settings.site_dir, stamp=True) == before
    assert manifest_path(settings).read_bytes() == recorded  # its changes rolled back
    assert builds(settings) == [first.name]


def test_a_copy_left_by_a_killed_build_is_deleted_by_the_next(settings: Settings) -> None:
    build(settings)
    leftover = StagedSite(settings.site_dir).builds / "staging-99999"
    (leftover / "rockets").mkdir(parents=True)
    (leftover / "rockets/half.html").write_text("<html><body>half")
    build(settings)
    assert not leftover.exists()


def test_a_site_built_before_staging_becomes_a_link(settings: Settings) -> None:
    build(settings)
    expected = site_files(settings.site_dir)
    # Turn the site into a plain folder, as builds made before staging left it.
    build_dir = published(settings)
    settings.site_dir.unlink()
    build_dir.rename(settings.site_dir)
    shutil.rmtree(StagedSite(settings.site_dir).builds)
    Store(settings.data_dir).save_digest(make_digest(date=dt.date(2026, 1, 13), headline="NEW"))
    build(settings)
    assert settings.site_dir.is_symlink()
    # Every page, and one more; the search index is made again (its files renamed).
    pages = {name for name in site_files(settings.site_dir) if not name.startswith("pagefind/")}
    assert pages > {name for name in expected if not name.startswith("pagefind/")}
    assert builds(settings) == ["0", "1"]  # the plain folder, kept as the previous build


def test_the_build_before_last_is_recycled_and_the_published_one_never_touched(
    settings: Settings, tmp_path: Path
) -> None:
    store = Store(settings.data_dir)
    build(settings)
    for day in (13, 14, 15):
        published_before = published(settings)
        before = site_files(published_before, stamp=True)
        spares = [StagedSite(settings.site_dir).builds / n for n in builds(settings)[:-1]]
        spare = spares[0].stat().st_ino if spares else None
        store.save_digest(make_digest(date=dt.date(2026, 1, day), headline=f"DAY {day}"))
        if day == 14:
            store.delete_digest("rockets", dt.date(2026, 1, 2))  # a page goes away
        build(settings)
        assert site_files(published_before, stamp=True) == before  # still readable as it was
        assert len(builds(settings)) == 2  # the new one and the one it replaced
        if spare is not None:  # the build before last became the new one
            assert published(settings).stat().st_ino == spare
    # Three builds caught up on the one before last; they equal a build from scratch.
    fresh = replace(settings, site_dir=tmp_path / "fresh")
    build(fresh)
    assert site_files(settings.site_dir) == site_files(fresh.site_dir)


@pytest.mark.parametrize("record", ["", "{", '{"from": "7", "changed": []}'])
def test_a_build_without_a_good_record_of_its_changes_is_not_recycled(
    settings: Settings, tmp_path: Path, record: str
) -> None:
    store = Store(settings.data_dir)
    build(settings)
    store.save_digest(make_digest(date=dt.date(2026, 1, 13), headline="ONE"))
    build(settings)
    staged = StagedSite(settings.site_dir)
    spare = staged.builds / builds(settings)[0]
    changes = staged.builds / f"{published(settings).name}.changes.json"
    assert json.loads(changes.read_bytes())["from"] == spare.name
    if record:
        changes.write_text(record)  # unreadable, or made from another build
    else:
        changes.unlink()
    (spare / "rockets/2026-01-01.html").unlink()
    (spare / "rockets/2026-01-13.html").write_text("not a page of the last build")
    store.save_digest(make_digest(date=dt.date(2026, 1, 14), headline="TWO"))
    build(settings)
    assert not spare.exists()  # pruned, not recycled
    fresh = replace(settings, site_dir=tmp_path / "fresh")
    build(fresh)
    assert site_files(settings.site_dir) == site_files(fresh.site_dir)


def test_the_stamp_is_kept_beside_the_build_never_in_the_published_site(
    settings: Settings,
) -> None:
    build(settings)
    first = published(settings)
    assert not list(settings.site_dir.rglob("*stamp*"))
    assert (first.parent / f"{first.name}.stamp.json").is_file()
    # A stamp an earlier version published inside the site is deleted by the next build.
    (first / ".wire-stamp.json").write_text('{"format": 2}\n')
    build(settings)
    assert not (settings.site_dir / ".wire-stamp.json").exists()
    assert site_files(settings.site_dir, stamp=True) == site_files(first)  # the pages alone
