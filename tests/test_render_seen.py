"""The check of the site a build starts from reads only the files not seen before (issue 28).

A page is read and hashed unless its file is the very one last found holding its recorded
bytes (same inode, change time and size): see digest.render.verify.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from msgspec.structs import replace

from digest.config import Settings
from digest.render import render_site, verify
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


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    settings = make_settings(tmp_path)
    save_all(Store(settings.data_dir), edition_series(12))
    return settings


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    read: list[str] = []
    holds = verify._holds

    def counting(path: str, sha256: str | None) -> bool:
        read.append(path)
        return holds(path, sha256)

    monkeypatch.setattr(verify, "_holds", counting)
    return read


def _steady(settings: Settings, store: Store) -> None:
    """Build, then build twice more with a day added: the third build's copy is the first
    build, caught up (the second was a hard-link copy of every page, which reads them all)."""
    render_site(settings, store)
    for day in (18, 19):
        store.save_digest(make_digest(date=dt.date(2026, 1, day), headline=f"DAY {day}"))
        render_site(settings, store)


def test_a_build_with_nothing_new_reads_no_page(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(settings.data_dir)
    _steady(settings, store)
    read = _reads(monkeypatch)
    report = render_site(settings, store)  # nothing changed: the published site is checked
    assert report.pages_skipped > 0 and read == []


def test_adding_a_day_reads_only_what_the_last_build_wrote(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(settings.data_dir)
    _steady(settings, store)
    store.save_digest(make_digest(date=dt.date(2026, 1, 20), headline="ONE"))
    last = render_site(settings, store)
    read = _reads(monkeypatch)
    store.save_digest(make_digest(date=dt.date(2026, 1, 21), headline="TWO"))
    render_site(settings, store)
    # The copy is the build before last, caught up with links to what the last build
    # wrote: those links are new, the other files are the very ones seen before.
    relinked = {path.split("/staging-", 1)[1].split("/", 1)[1] for path in read}
    assert relinked and relinked <= set(last.written)


def test_a_page_edited_in_place_with_its_size_and_time_kept_is_read(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(settings.data_dir)
    render_site(settings, store)
    page = settings.site_dir / "rockets/2026-01-01.html"
    before = page.stat()
    data = page.read_bytes()
    with page.open("r+b") as handle:  # the same inode, the same size
        handle.write(b"X" + data[1:])
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert page.stat().st_ino == before.st_ino and page.stat().st_size == before.st_size
    past_the_stamp(settings)
    report = render_site(settings, store)
    assert "rockets/2026-01-01.html" in report.written
    assert page.read_bytes() == data


def _looked_up(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths whose records the check looks up (those of buckets whose seal failed)."""
    paths: list[str] = []
    records = verify._records

    def counting(db: object, wanted: list[str]) -> dict[str, tuple[str, str]]:
        paths.extend(wanted)
        return records(db, wanted)  # type: ignore[arg-type]

    monkeypatch.setattr(verify, "_records", counting)
    return paths


@pytest.mark.parametrize("per_bucket", [1, 2, 32])
def test_the_published_site_is_vouched_for_by_its_seals(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, per_bucket: int
) -> None:
    """With nothing new, the published site is checked file by file (an lstat each), but
    no page's record is looked up: every bucket of files matches its seal."""
    monkeypatch.setattr(verify, "_PER_BUCKET", per_bucket)  # few files a bucket, or many
    store = Store(settings.data_dir)
    _steady(settings, store)
    looked = _looked_up(monkeypatch)
    assert render_site(settings, store).pages_skipped > 0
    assert looked == []


def test_adding_a_day_looks_up_only_the_buckets_the_last_build_changed(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verify, "_PER_BUCKET", 2)
    store = Store(settings.data_dir)
    _steady(settings, store)
    store.save_digest(make_digest(date=dt.date(2026, 1, 20), headline="ONE"))
    last = render_site(settings, store)
    looked = _looked_up(monkeypatch)
    store.save_digest(make_digest(date=dt.date(2026, 1, 21), headline="TWO"))
    render_site(settings, store)
    site = {p.relative_to(settings.site_dir).as_posix() for p in settings.site_dir.rglob("*")}
    assert set(last.written) <= set(looked)
    assert len(looked) < len(site) / 2


@pytest.mark.parametrize("nothing_new", [True, False])
def test_a_page_edited_in_place_in_a_sealed_bucket_is_read(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, nothing_new: bool
) -> None:
    """An edit keeping the file, its size and its times changes its change time: its
    bucket's seal fails, and the page is read, found changed and written again."""
    monkeypatch.setattr(verify, "_PER_BUCKET", 2)
    store = Store(settings.data_dir)
    _steady(settings, store)
    page = settings.site_dir / "rockets/2026-01-01.html"  # not written since the first build
    data = page.read_bytes()
    before = page.stat()
    with page.open("r+b") as handle:
        handle.write(b"X" + data[1:])
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
    if not nothing_new:
        store.save_digest(make_digest(date=dt.date(2026, 1, 20), headline="ONE"))
    report = render_site(settings, store)
    assert "rockets/2026-01-01.html" in report.written
    assert page.read_bytes() == data


def test_a_build_that_changes_nothing_leaves_the_pages_as_it_found_them(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its copy of the site (the build before last, caught up) is put back, not deleted:
    deleting it would unlink every page it shares with the published build, a new change
    time for each, and the next check would read them all."""
    store = Store(settings.data_dir)
    _steady(settings, store)
    builds = sorted(p.name for p in settings.site_dir.parent.glob(".site.builds/*"))
    past_the_stamp(settings)
    assert render_site(settings, store).pages_written == 0
    read = _reads(monkeypatch)
    render_site(settings, store)
    assert read == []
    assert sorted(p.name for p in settings.site_dir.parent.glob(".site.builds/*")) == builds


def test_pages_of_unknown_bytes_found_as_the_build_makes_them_are_read_once(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A manifest of an earlier format keeps its page list only: every page is rendered
    again; found holding the bytes the build makes, each is left as it is, and known from
    then on (the next build with nothing to do reads none)."""
    store = Store(settings.data_dir)
    _steady(settings, store)
    with closing(sqlite3.connect(manifest_path(settings))) as db, db:
        db.execute("UPDATE meta SET value = '3' WHERE name = 'format'")
    past_the_stamp(settings)
    report = render_site(settings, store)
    assert report.pages_unchanged > 0 and report.pages_skipped == 0
    read = _reads(monkeypatch)
    render_site(settings, store)
    assert read == []


def test_the_files_present_are_told_from_the_folders_listings() -> None:
    present = verify.Present({"": {"index.html": 1}, "rockets": {"a.html": 1, "b.html": 1}}, 3)
    assert "rockets/a.html" in present and "index.html" in present
    assert "rockets/c.html" not in present and "a.html" not in present and "rockets" not in present
    present.discard("rockets/a.html")
    present.discard("rockets/c.html")  # not there: nothing to do
    present.add("rockets/c.html")
    present.add("index.html")  # there already
    assert "rockets/a.html" not in present and "rockets/c.html" in present
    assert len(present) == 3
    assert sorted(present) == ["index.html", "rockets/b.html", "rockets/c.html"]
    assert present >= {"index.html"} and not present >= {"rockets/a.html"}


def test_edits_in_place_anywhere_never_reach_the_published_site(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Days added and pages edited in place (size and times kept) in turn, at random: after
    each build the site is the one a full build makes, whatever bucket the edit fell in."""
    monkeypatch.setattr(verify, "_PER_BUCKET", 2)
    store = Store(settings.data_dir)
    _steady(settings, store)
    pick = random.Random(28)
    for step in range(6):
        if step % 2 == 0:
            day = dt.date(2026, 1, 20 + step)
            store.save_digest(make_digest(date=day, headline=f"STEP {step}"))
        pages = sorted(p for p in settings.site_dir.resolve().rglob("*.html"))
        for page in pick.sample(pages, 2):
            before = page.stat()
            data = page.read_bytes()
            with page.open("r+b") as handle:
                handle.write(b"X" + data[1:])
            os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
        render_site(settings, store)
        clean = replace(settings, site_dir=tmp_path / f"clean-{step}" / "site")
        render_site(clean, store)
        assert site_files(settings.site_dir) == site_files(clean.site_dir)
