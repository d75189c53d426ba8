"""A realistic site: the 52-day backfill of three PyTorch repositories, looked at in Chromium.

Usage: python bench/site_real.py [--days 52] [--keep DIR]

Prepares (not timed) one project, PyTorch, of pytorch/executorch, pytorch/ao and
pytorch/helion from ../shared/data/merged-prs (their newest ``--days`` days, quiet days
collected too, with render_real's topics), writes its editions with ``digest run``-like
``summarize`` and renders the site with ``digest render``. Then, in Debian's Chromium at
412 px (a phone 915 px tall), prints the height of each desk (the project's, the site's
and each topic's) in phone screens, and takes screenshots of the front page, a topic page,
a topic desk, an edition and a pull request's page at 360 and 1280 px into
``artifacts/real/``. The records are read from ../shared, never copied into the
repository. Says so and exits 0 when ../shared is absent.
"""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

import yaml  # noqa: E402

from bench.render_real import TOPICS  # noqa: E402
from digest.models import RepoDay  # noqa: E402
from digest.store import Store  # noqa: E402
from tests.realdata import MERGED_PRS, load_days  # noqa: E402

DIGEST = [str(Path(sys.executable).parent / "digest")]
REPOS = ("pytorch-executorch", "pytorch-ao", "pytorch-helion")
PHONE = (412, 915)
SHOTS = HERE / "artifacts" / "real"


def prepare(root: Path, days_wanted: int) -> tuple[Path, Path]:
    """Collect the newest ``days_wanted`` days of :data:`REPOS` under ``root`` and write
    their editions; return the configuration and the site folder."""
    store = Store(root / "data")
    repos = []
    loaded = {name: load_days(name) for name in REPOS}
    last = max(max(days) for days in loaded.values())
    first = last - dt.timedelta(days=days_wanted - 1)
    for days in loaded.values():
        repo = next(iter(days.values()))[0].repo
        repos.append({"name": repo})
        day = first
        while day <= last:
            at = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(2), tzinfo=dt.UTC)
            store.save_repo_day(RepoDay(repo, day, "git", tuple(days.get(day, ())), at))
            day += dt.timedelta(days=1)
    config = root / "wire.yaml"
    raw = {
        "site": {"title": "The Wire", "base_url": "https://wire.example.invalid/"},
        "data_dir": str(root / "data"),
        "site_dir": str(root / "site"),
        "topics": TOPICS,
        "projects": [{"name": "PyTorch", "slug": "pytorch", "repos": repos}],
    }
    config.write_text(yaml.safe_dump(raw), encoding="utf-8")
    _digest("summarize", "--config", config, "--since", first, "--until", last)
    return config, root / "site"


def _digest(*args: object) -> None:
    subprocess.run([*DIGEST, *map(str, args), "-qq"], check=True, cwd=HERE)


def look(site: Path) -> None:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    desks = sorted(
        [
            site / "actions.html",
            site / "pytorch/actions.html",
            *(site / "topics").glob("*/actions.html"),
        ]
    )
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": PHONE[0], "height": PHONE[1]})
        print(f"desks at {PHONE[0]} px, in screens of {PHONE[1]} px:")
        for path in desks:
            page.goto(path.as_uri())
            height = page.evaluate("document.documentElement.scrollHeight")
            rows = page.locator(".desk-row").count()
            name = path.relative_to(site).as_posix()
            print(f"  {name:40} {rows:3} items  {height:6} px  {height / PHONE[1]:.2f} screens")
        page.close()
        SHOTS.mkdir(parents=True, exist_ok=True)
        editions = sorted((site / "pytorch").glob("20??-??-??.html"))
        pulls = sorted((site / "pytorch/pr").glob("*.html"))
        topics = sorted((site / "topics").glob("*.html"))
        wanted = ["index.html", "subscribe.html", "pytorch/actions.html"]
        wanted += [p.relative_to(site).as_posix() for p in (editions[-1], pulls[-1], topics[0])]
        wanted += [d.relative_to(site).as_posix() for d in desks if "topics" in d.parts][:1]
        for name in wanted:
            for width in (360, 1280):
                page = browser.new_page(viewport={"width": width, "height": 900})
                page.goto((site / name).as_uri())
                overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
                shot = SHOTS / f"{name.replace('/', '_').removesuffix('.html')}-{width}.png"
                page.screenshot(path=str(shot), full_page=True)
                page.close()
                print(f"  {name} at {width} px: overflow {overflow} px -> {shot.name}")
        browser.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=52)
    parser.add_argument("--keep", type=Path, help="work here and keep the result")
    args = parser.parse_args(argv)
    if not MERGED_PRS.is_dir():
        print(f"no real data at {MERGED_PRS}; nothing to do")
        return 0
    root = args.keep or Path(tempfile.mkdtemp(prefix="wire-site-real-"))
    root.mkdir(parents=True, exist_ok=True)
    config, site = prepare(root, args.days)
    started = time.perf_counter()
    _digest("render", "--config", config)
    print(f"digest render: {time.perf_counter() - started:.2f} s (full build, search index too)")
    pages = sum(1 for _ in site.rglob("*.html"))
    index = sum(p.stat().st_size for p in (site / "pagefind").rglob("*") if p.is_file())
    print(f"{pages} pages; search index {index / 1e6:.1f} MB")
    look(site.resolve())
    if args.keep is None:
        shutil.rmtree(root)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
