"""A site restored from a CI cache is untrusted input: nothing in it runs, nothing changed or
added in it is published (README, *Deploy*).

Each test builds a site, then does what the daily workflow does on a fresh runner: restores
the saved paths (``site_dir`` and its builds folder, as ``scripts/daily where`` names them)
into a new folder, checks the data out anew and adds the new day; what was planted in the
restored paths in between must not run or reach the published site, which must be the one a
full build writes.
"""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest
from msgspec.structs import replace

from digest.config import Settings
from digest.render import RenderReport, render_site
from digest.render.templating import make_environment
from digest.store import Store
from tests.factories import edition_series, make_digest, make_settings, save_all, site_files

pytestmark = pytest.mark.reliability
NEW_DAY = dt.date(2026, 1, 20)


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
    assert kept == {"2", "3", "2.changes.json", "3.changes.json", "manifest.sqlite"}
    compiled = [p for p in tmp_path.rglob("*") if p.name.startswith("__jinja2_")]
    assert compiled == []


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
