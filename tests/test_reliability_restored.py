"""A site restored from a CI cache is untrusted input: nothing in it runs, nothing changed or
added in it is published (README, *Deploy*).

Each test builds a site, then does what the daily workflow does on a fresh runner: restores
the saved paths (``site_dir`` and its builds folder, as ``scripts/daily where`` names them)
into a new folder, checks the data out anew and adds the new day; what was planted in the
restored paths in between must not run or reach the published site, which must be the one a
full build writes.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest
from msgspec.structs import replace

from digest.config import Settings
from digest.doctor import Status, site_finding
from digest.render import RenderReport, render_site
from digest.render.templating import make_environment
from digest.store import Store
from tests.factories import edition_series, make_digest, make_settings, save_all, site_files

pytestmark = pytest.mark.reliability
NEW_DAY = dt.date(2026, 1, 20)
EDITION = "rockets/2026-01-08.html"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """A site of 20 editions, built twice (so its builds folder holds two builds)."""
    settings = make_settings(tmp_path / "machine")
    store = Store(settings.data_dir)
    save_all(store, edition_series(20))
    build(settings)
    store.save_digest(make_digest(date=dt.date(2026, 1, 15), headline="Fifteenth"))
    build(settings)
    return settings


def build(settings: Settings) -> RenderReport:
    return render_site(settings, Store(settings.data_dir))


def builds_of(settings: Settings) -> Path:
    return settings.site_dir.parent / f".{settings.site_dir.name}.builds"


def restore(settings: Settings, runner: Path) -> Settings:
    """The settings of a fresh runner at ``runner`` that restored the saved paths of
    ``settings``' site and checked its data out anew (new files, new times)."""
    runner.mkdir()
    moved = replace(settings, site_dir=runner / "site", data_dir=runner / "data")
    shutil.copytree(builds_of(settings), builds_of(moved), symlinks=True)
    moved.site_dir.symlink_to(settings.site_dir.readlink())
    shutil.copytree(settings.data_dir, moved.data_dir, copy_function=shutil.copyfile)
    return moved


def each_build(settings: Settings, change: Callable[[Path], object]) -> None:
    """Apply ``change`` to every build in the restored builds folder (the published one and
    the one kept before it)."""
    builds = [p for p in builds_of(settings).iterdir() if p.name.isdigit()]
    assert len(builds) == 2
    for folder in builds:
        change(folder)


def next_day(settings: Settings) -> RenderReport:
    """The scheduled build: the new day's edition added, the site built."""
    Store(settings.data_dir).save_digest(make_digest(date=NEW_DAY, headline="Twentieth"))
    return build(settings)


def full_build(settings: Settings, where: Path) -> dict[str, bytes]:
    """The files a full build of ``settings``' data writes, in a fresh folder."""
    clean = replace(settings, site_dir=where / "site")
    build(clean)
    return site_files(clean.site_dir)


def test_compiled_templates_in_the_restored_cache_never_run(
    settings: Settings, tmp_path: Path
) -> None:
    runner = restore(settings, tmp_path / "runner")
    ran = tmp_path / "ran"
    # Where earlier versions kept compiled templates: the builds folder, saved and restored.
    _poison_compiled_templates(runner, builds_of(runner) / "cache" / "templates", ran)
    try:
        next_day(runner)
    finally:  # code that ran may also have broken the build
        assert not ran.exists(), "a compiled template from the restored cache ran"
    assert site_files(runner.site_dir) == full_build(runner, tmp_path / "clean")


def test_a_build_keeps_nothing_but_builds_and_the_manifest_where_a_cache_saves(
    settings: Settings, tmp_path: Path
) -> None:
    """Compiled templates and fragments (made into pages unchecked) are never saved."""
    runner = restore(settings, tmp_path / "runner")
    next_day(runner)
    kept = {p.name for p in builds_of(runner).iterdir()}
    records = {f"{n}.{kind}.json" for n in (2, 3) for kind in ("changes", "stamp")}
    assert kept == {"2", "3", *records, "manifest.sqlite"}
    compiled = [p for p in tmp_path.rglob("*") if p.name.startswith("__jinja2_")]
    assert compiled == []


def test_a_page_added_to_the_restored_builds_is_not_published(
    settings: Settings, tmp_path: Path
) -> None:
    runner = restore(settings, tmp_path / "runner")

    def add(folder: Path) -> None:
        (folder / "login.html").write_text("<form action=https://evil.example/>")
        (folder / "rockets/2026-01-12.html").write_text("<p>a forged edition</p>")
        (folder / "rockets/assets").mkdir()
        (folder / "rockets/assets/x.svg").write_text("<svg onload=alert(1)>")

    each_build(runner, add)
    report = next_day(runner)
    site = runner.site_dir
    assert not (site / "login.html").exists()
    assert not (site / "rockets/assets").exists()
    assert not (site / "rockets/2026-01-12.html").exists()
    assert {"login.html", "rockets/2026-01-12.html", "rockets/assets/x.svg"} <= set(report.deleted)
    assert site_files(site) == full_build(runner, tmp_path / "clean")


def test_an_edition_edited_with_its_time_kept_is_rendered_again(
    settings: Settings, tmp_path: Path
) -> None:
    runner = restore(settings, tmp_path / "runner")
    original = (runner.site_dir / EDITION).read_bytes()

    def edit(folder: Path) -> None:
        page = folder / EDITION
        before = page.stat()
        forged = original.replace(b"Rockets edition number 14", b"Rockets edition number 41")
        assert forged != original and len(forged) == len(original)
        page.write_bytes(forged)
        os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))

    each_build(runner, edit)
    report = next_day(runner)
    assert EDITION in report.written
    assert (runner.site_dir / EDITION).read_bytes() == original
    assert site_files(runner.site_dir) == full_build(runner, tmp_path / "clean")


def test_the_same_tampering_is_undone_when_no_day_is_added(
    settings: Settings, tmp_path: Path
) -> None:
    """A run that adds nothing still builds on a runner (the data's file times are new)."""
    runner = restore(settings, tmp_path / "runner")
    original = (runner.site_dir / EDITION).read_bytes()
    each_build(runner, lambda folder: (folder / EDITION).write_bytes(b"<p>forged</p>"))
    each_build(runner, lambda folder: (folder / "extra.html").write_text("<p>extra</p>"))
    build(runner)
    assert (runner.site_dir / EDITION).read_bytes() == original
    assert not (runner.site_dir / "extra.html").exists()


def test_a_page_edited_in_place_on_the_machine_is_reported_and_repaired_on_request(
    settings: Settings,
) -> None:
    """On the machine that built the site, a build trusts its builds folder while every
    folder of it is the one the last build left (an input edited by hand is followed by
    `digest render --full`; so is the site): a page edited in place, its time kept, is
    left by a plain build, reported by `digest doctor --site` and written again by
    `digest render --full`. (A restored cache is new folders: checked page by page,
    above.)"""
    page = settings.site_dir / EDITION
    original = page.read_bytes()
    before = page.stat()
    forged = original.replace(b"Rockets edition number 14", b"Rockets edition number 41")
    page.write_bytes(forged)
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert build(settings).written == ()
    assert page.read_bytes() == forged
    finding = site_finding(settings)
    assert finding.status == Status.FAIL and f"{EDITION} (changed)" in finding.detail
    report = render_site(settings, Store(settings.data_dir), full=True)
    assert report.written == (EDITION,)
    assert page.read_bytes() == original
    assert site_finding(settings).status == Status.OK
    assert build(settings).pages_written == 0  # then current again, at once


def test_links_in_the_restored_site_are_not_published(settings: Settings, tmp_path: Path) -> None:
    """A link to a file or folder outside the site would publish it (an upload that
    follows links)."""
    runner = restore(settings, tmp_path / "runner")
    secret = tmp_path / "secrets"
    secret.mkdir()
    (secret / "token").write_text("ghp_not_to_be_published")

    def link(folder: Path) -> None:
        (folder / "token.txt").symlink_to(secret / "token")
        (folder / "rockets/private").symlink_to(secret, target_is_directory=True)
        page = folder / EDITION
        page.unlink()
        page.symlink_to(secret / "token")

    each_build(runner, link)
    next_day(runner)
    published = list(runner.site_dir.resolve().rglob("*"))
    assert not any(p.is_symlink() for p in published)
    assert b"ghp_not_to_be_published" not in b"".join(site_files(runner.site_dir).values())
    assert (secret / "token").read_text() == "ghp_not_to_be_published"
    assert site_files(runner.site_dir) == full_build(runner, tmp_path / "clean")


def test_links_in_the_restored_builds_folder_lead_the_build_nowhere(
    settings: Settings, tmp_path: Path
) -> None:
    """A folder of the build kept before the published one (the next build's copy) and the
    manifest, replaced by links: followed, they would make the build write elsewhere."""
    runner = restore(settings, tmp_path / "runner")
    victim = tmp_path / "victim"
    (victim / "rockets").mkdir(parents=True)
    (victim / "rockets/index.html").write_text("the victim's")
    spare = min((p for p in builds_of(runner).iterdir() if p.name.isdigit()), key=lambda p: p.name)
    shutil.rmtree(spare / "rockets")
    (spare / "rockets").symlink_to(victim / "rockets", target_is_directory=True)
    manifest = builds_of(runner) / "manifest.sqlite"
    manifest.rename(victim / "manifest.sqlite")
    manifest.symlink_to(victim / "manifest.sqlite")
    before = _files(victim)
    next_day(runner)
    assert _files(victim) == before
    assert not manifest.is_symlink()
    assert site_files(runner.site_dir) == full_build(runner, tmp_path / "clean")


@pytest.mark.parametrize("link", ["site", "build", "builds"])
def test_a_restored_link_to_another_folder_is_not_built_in(
    settings: Settings, tmp_path: Path, link: str
) -> None:
    """``site_dir``, the published build or the builds folder leading elsewhere."""
    runner = restore(settings, tmp_path / "runner")
    victim = tmp_path / "victim"
    shutil.copytree(runner.site_dir, victim)  # looks like a site, with a file of its own
    (victim / "rockets/notes.txt").write_text("the victim's")
    before = _files(victim)
    if link == "site":
        runner.site_dir.unlink()
        runner.site_dir.symlink_to(victim, target_is_directory=True)
    elif link == "build":
        published = runner.site_dir.resolve()
        shutil.rmtree(published)
        published.symlink_to(victim, target_is_directory=True)
    else:
        builds = builds_of(runner)
        shutil.copytree(builds, victim / "builds", symlinks=True)
        shutil.rmtree(builds)
        builds.symlink_to(victim / "builds", target_is_directory=True)
        before = _files(victim)
    next_day(runner)
    assert _files(victim) == before
    assert site_files(runner.site_dir) == full_build(runner, tmp_path / "clean")


def test_a_manifest_with_a_trigger_is_not_used(settings: Settings, tmp_path: Path) -> None:
    """A trigger in a restored manifest could rewrite what the build records."""
    runner = restore(settings, tmp_path / "runner")
    manifest = builds_of(runner) / "manifest.sqlite"
    with contextlib.closing(sqlite3.connect(manifest)) as db:
        db.execute(
            "CREATE TRIGGER keep AFTER INSERT ON pages BEGIN "
            "UPDATE pages SET key = 'forged' WHERE path = NEW.path; END"
        )
        db.commit()
    each_build(runner, lambda folder: (folder / EDITION).write_bytes(b"<p>forged</p>"))
    next_day(runner)
    with contextlib.closing(sqlite3.connect(manifest)) as db:
        kinds = {kind for (kind,) in db.execute("SELECT type FROM sqlite_master")}
    assert "trigger" not in kinds
    assert site_files(runner.site_dir) == full_build(runner, tmp_path / "clean")


def _poison_compiled_templates(settings: Settings, folder: Path, ran: Path) -> None:
    """Write a compiled version of every template of ``settings``' site into ``folder``,
    as Jinja2's file system cache names them, whose code creates the file ``ran``."""
    folder.mkdir(parents=True, exist_ok=True)
    env = make_environment(settings)
    cache = jinja2.FileSystemBytecodeCache(str(folder))
    assert env.loader is not None
    for name in env.list_templates():
        source, filename, _ = env.loader.get_source(env, name)
        bucket = cache.get_bucket(env, name, filename, source)
        bucket.code = compile(f"open({str(ran)!r}, 'w').close()", name, "exec")
        cache.set_bucket(bucket)


def _files(root: Path) -> dict[str, bytes | str]:
    """Every entry under ``root`` (not following links): a file's bytes, a link's target."""
    found: dict[str, bytes | str] = {}
    for folder, names, files in os.walk(root):
        for name in (*names, *files):
            path = Path(folder, name)
            key = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[key] = str(path.readlink())
            elif path.is_file():
                found[key] = path.read_bytes()
    return found
