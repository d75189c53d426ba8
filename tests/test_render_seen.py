"""The check of the site a build starts from reads only the files not seen before (issue 28).

A build trusts its builds folder when every folder of the two builds it starts from is the
very one the last build left (same inode and change time): it then looks at no file. Else,
and always with ``--full``, a page is read and hashed unless its file is the very one last
found holding its recorded bytes (same inode, change time and size): see
digest.render.verify. So a page edited in place on the machine is left by a plain build,
reported by ``digest doctor --site`` and written again by ``digest render --full``.
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
from digest.doctor import Status, site_finding
from digest.render import RenderReport, render_site, verify
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


def _steady(settings: Settings, store: Store, *, full: bool = False) -> RenderReport:
    """Build, then build twice more with a day added: the third build's copy is the first
    build, caught up (the second was a hard-link copy of every page, which reads them all).
    ``full``: every build checks every file (else the third trusts its builds folder)."""
    render_site(settings, store, full=full)
    for day in (18, 19):
        store.save_digest(make_digest(date=dt.date(2026, 1, day), headline=f"DAY {day}"))
        report = render_site(settings, store, full=full)
    return report


def _edit_in_place(page: Path) -> bytes:
    """Change the first byte of ``page``, keeping its file, size and times; return the
    bytes it held."""
    before = page.stat()
    data = page.read_bytes()
    with page.open("r+b") as handle:
        handle.write(b"X" + data[1:])
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert page.stat().st_ino == before.st_ino and page.stat().st_size == before.st_size
    return data


def test_a_build_with_nothing_new_reads_no_page(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(settings.data_dir)
    _steady(settings, store)
    read = _reads(monkeypatch)
    report = render_site(settings, store)  # nothing changed: the published site is checked
    assert report.pages_skipped > 0 and read == []


def test_adding_a_day_to_a_builds_folder_as_left_looks_at_no_page(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copy is the build before last, caught up with links to what the last build
    wrote; both are as the last build left them (every folder), so no file is read and no
    page's record looked up."""
    store = Store(settings.data_dir)
    _steady(settings, store)
    read = _reads(monkeypatch)
    looked = _looked_up(monkeypatch)
    for day in (20, 21):
        store.save_digest(make_digest(date=dt.date(2026, 1, day), headline=f"DAY {day}"))
        assert render_site(settings, store).pages_written > 0
    assert read == [] and looked == []
    # What the manifest says of the builds it trusts is what they hold.
    with closing(sqlite3.connect(manifest_path(settings))) as db:
        left = verify.recorded_builds(db)
    builds = settings.site_dir.parent / ".site.builds"
    assert len(left) == 2
    for name, vouched in left.items():
        assert vouched.files == sum(1 for p in (builds / name).rglob("*") if p.is_file())


def test_adding_a_day_with_full_reads_only_what_was_written_since_the_last_check(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(settings.data_dir)
    render_site(settings, store)
    written: set[str] = set()
    # The second build (a copy of every page) checks every file; the next two trust
    # their builds folder.
    for day in (18, 19, 20):
        store.save_digest(make_digest(date=dt.date(2026, 1, day), headline=f"DAY {day}"))
        written.update(render_site(settings, store).written)
    read = _reads(monkeypatch)
    store.save_digest(make_digest(date=dt.date(2026, 1, 21), headline="TWO"))
    render_site(settings, store, full=True)
    # The copy is the build before last, caught up with links to what the last build
    # wrote: those links are new, and so are those the copies of the builds since the
    # last check made to what the build before each wrote (their files are not looked at,
    # so not seen again); the other files are the very ones the last check saw.
    relinked = {path.split("/staging-", 1)[1].split("/", 1)[1] for path in read}
    assert relinked and relinked <= written


def test_a_page_added_or_deleted_by_hand_is_noticed_by_a_plain_build(
    settings: Settings,
) -> None:
    """Either changes its folder (a new change time): the builds folder is then checked
    file by file."""
    store = Store(settings.data_dir)
    _steady(settings, store)
    published = settings.site_dir.resolve()
    (published / "rockets/login.html").write_text("<form action=https://evil.example/>")
    deleted = published / "rockets/2026-01-01.html"
    data = deleted.read_bytes()
    deleted.unlink()
    render_site(settings, store)
    assert not (settings.site_dir / "rockets/login.html").exists()
    assert (settings.site_dir / "rockets/2026-01-01.html").read_bytes() == data
    assert settings.site_dir.resolve() != published  # the build published a copy


def test_a_page_edited_in_place_with_its_size_and_time_kept_is_read(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """By the second build, which has no build before last to start from: a hard-link
    copy of every page is no builds folder as left, and is checked file by file."""
    store = Store(settings.data_dir)
    render_site(settings, store)
    page = settings.site_dir / "rockets/2026-01-01.html"
    data = _edit_in_place(page)
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
    """With nothing new, a check of every file (``--full``) looks at each (an lstat), but
    looks no page's record up: every bucket of files matches its seal."""
    monkeypatch.setattr(verify, "_PER_BUCKET", per_bucket)  # few files a bucket, or many
    store = Store(settings.data_dir)
    _steady(settings, store, full=True)
    looked = _looked_up(monkeypatch)
    assert render_site(settings, store, full=True).pages_skipped > 0
    assert looked == []


def test_adding_a_day_looks_up_only_the_buckets_the_last_build_changed(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Builds that check every file (``--full``) keep the seals of what they checked."""
    monkeypatch.setattr(verify, "_PER_BUCKET", 2)
    store = Store(settings.data_dir)
    _steady(settings, store, full=True)
    store.save_digest(make_digest(date=dt.date(2026, 1, 20), headline="ONE"))
    last = render_site(settings, store, full=True)
    looked = _looked_up(monkeypatch)
    store.save_digest(make_digest(date=dt.date(2026, 1, 21), headline="TWO"))
    render_site(settings, store, full=True)
    site = {p.relative_to(settings.site_dir).as_posix() for p in settings.site_dir.rglob("*")}
    assert set(last.written) <= set(looked)
    assert len(looked) < len(site) / 2


@pytest.mark.parametrize("nothing_new", [True, False])
def test_a_page_edited_in_place_is_left_by_a_plain_build_and_read_by_a_full_one(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, nothing_new: bool
) -> None:
    """An edit keeping the file, its size and its times changes no folder: a plain build
    trusts its builds folder and leaves the page; ``digest doctor --site`` reports it; with
    ``--full`` its change time fails its bucket's seal, and the page is read, found changed
    and written again."""
    monkeypatch.setattr(verify, "_PER_BUCKET", 2)
    store = Store(settings.data_dir)
    _steady(settings, store)
    page = settings.site_dir / "rockets/2026-01-01.html"  # not written since the first build
    data = _edit_in_place(page)
    if not nothing_new:
        store.save_digest(make_digest(date=dt.date(2026, 1, 20), headline="ONE"))
    report = render_site(settings, store)
    assert "rockets/2026-01-01.html" not in report.written
    assert page.read_bytes() != data
    finding = site_finding(settings)
    assert finding.status == Status.FAIL and "rockets/2026-01-01.html (changed)" in finding.detail
    assert "--full" in finding.fix
    report = render_site(settings, store, full=True)
    assert report.written == ("rockets/2026-01-01.html",)
    assert page.read_bytes() == data
    assert site_finding(settings).status == Status.OK


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


def test_edits_in_place_anywhere_never_survive_a_full_build(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Days added and pages edited in place (size and times kept) in turn, at random: after
    each ``digest render --full`` the site is the one a build from nothing makes, whatever
    bucket the edit fell in."""
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
            _edit_in_place(page)
        render_site(settings, store, full=True)
        clean = replace(settings, site_dir=tmp_path / f"clean-{step}" / "site")
        render_site(clean, store)
        assert site_files(settings.site_dir) == site_files(clean.site_dir)
