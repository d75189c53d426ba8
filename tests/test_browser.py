"""The built site in a real browser (Debian's Chromium, driven by Playwright).

Every kind of page at 360 px and 1280 px: no horizontal overflow on a phone, no console
error, one ``h1``, the page landmarks, link text on every link, internal links that
resolve, and text contrast of at least 4.5:1 from the computed styles. Screenshots are
saved under ``artifacts/screenshots/`` to be looked at. Skipped, saying why, where there
is no Chromium or no Playwright (``.ci/run`` installs both).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from digest.models import FileChange, FollowUp, PullRequest, RepoDay
from digest.render import render_site
from digest.store import Store
from tests.factories import edition_series, make_digest, make_settings, save_all

#: WIRE_CHROMIUM names a Chromium or Chrome binary not on PATH (macOS: the one inside
#: "Google Chrome.app/Contents/MacOS/").
CHROMIUM = (
    os.environ.get("WIRE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
)
playwright = pytest.importorskip(
    "playwright.sync_api",
    reason="the browser tests need Playwright: run `make setup` (it installs the test tools)",
)
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason=(
            "the browser tests need Chromium: install it (Debian, Ubuntu: apt install chromium) "
            "or set WIRE_CHROMIUM to a Chromium or Chrome binary; skipped"
        ),
    ),
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"
PAGES = (
    "index.html",
    "archive.html",
    "rockets/2026-03-02.html",
    "rockets/index.html",
    "topics/telemetry.html",
    "actions.html",
    # The series cites acme/rockets#401 from its first day on: the page sits there.
    "ground/pr/acme-rockets-401.html",
)
WIDTHS = (360, 1280)

# For every element with its own text: its colour, and the first opaque background behind it.
_CONTRAST = """
() => {
  const rgb = (value) => (value.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.99)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const found = [];
  for (const el of document.body.querySelectorAll("*")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const box = el.getBoundingClientRect();
    if (!own || box.width === 0 || box.height === 0) continue;
    const fg = lum(rgb(getComputedStyle(el).color).slice(0, 3));
    const bg = lum(background(el));
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    const what = `${el.tagName} "${el.textContent.trim().slice(0, 30)}"`;
    if (ratio < 4.5) found.push(`${what} ${ratio.toFixed(2)}`);
  }
  return found;
}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site of twelve editions, the desk, a corrected edition and a pull request's page."""
    settings = make_settings(tmp_path_factory.mktemp("browser"))
    store = Store(settings.data_dir)
    save_all(store, edition_series(12))
    store.save_digest(make_digest())
    revert = make_digest(
        date=dt.date(2026, 3, 5),
        follow_ups=(
            FollowUp("revert", "acme/rockets", 401, 499, "https://github.com/x/y/pull/499"),
        ),
    )
    store.save_digest(revert)
    pull = PullRequest(
        repo="acme/rockets",
        number=401,
        title="Tune the fuel valve controller with a much longer title that has to wrap on a phone",
        body="The valve controller now waits for pressure to settle before it opens the valve.",
        url="https://github.com/acme/rockets/pull/401",
        merged_at=dt.datetime(2026, 1, 1, 9, tzinfo=dt.UTC),
        author="Dana Example",
        files=(FileChange("valves/controller/a_really_long_module_name_for_wrapping.py", 40, 4),),
        additions=40,
        deletions=4,
        changed_files=1,
    )
    day = dt.date(2026, 1, 1)
    store.save_repo_day(RepoDay("acme/rockets", day, "git", (pull,), dt.datetime(2026, 1, 2)))
    render_site(settings, store)
    return settings.site_dir


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@dataclasses.dataclass
class Seen:
    errors: list[str]
    overflow: int
    h1: int
    landmarks: list[str]
    unnamed_links: list[str]
    hrefs: list[str]
    low_contrast: list[str]
    lang: str


def look(browser: Any, site: Path, path: str, width: int) -> Seen:
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((site / path).as_uri())
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / f"{path.replace('/', '_').removesuffix('.html')}-{width}.png"
    page.screenshot(path=str(shot), full_page=True)
    seen = Seen(
        errors=errors,
        overflow=page.evaluate("document.documentElement.scrollWidth - window.innerWidth"),
        h1=page.locator("h1").count(),
        landmarks=page.evaluate(
            "['header', 'nav', 'main', 'footer'].filter((t) => document.querySelector(t))"
        ),
        unnamed_links=page.evaluate(
            "[...document.links]"
            ".filter((a) => !(a.textContent.trim() || a.getAttribute('aria-label')))"
            ".map((a) => a.outerHTML)"
        ),
        hrefs=page.evaluate("[...document.links].map((a) => a.getAttribute('href'))"),
        low_contrast=page.evaluate(_CONTRAST),
        lang=page.evaluate("document.documentElement.lang"),
    )
    page.close()
    return seen


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("path", PAGES)
def test_page_in_chromium(browser: Any, site: Path, path: str, width: int) -> None:
    seen = look(browser, site, path, width)
    assert seen.errors == []
    assert seen.lang == "en"
    assert seen.h1 == 1
    assert seen.landmarks == ["header", "nav", "main", "footer"]
    assert seen.unnamed_links == []
    assert seen.low_contrast == [], seen.low_contrast[:5]
    if width == 360:
        assert seen.overflow <= 0, f"{path} is {seen.overflow}px wider than a 360px screen"
    for href in seen.hrefs:
        parts = urlsplit(href)
        if parts.scheme or not parts.path:
            continue  # external, or an anchor on the same page
        target = (site / path).parent / unquote(parts.path)
        assert target.resolve().is_file(), f"{path}: broken link {href}"


def test_screenshots_are_kept_for_review(browser: Any, site: Path) -> None:
    look(browser, site, "rockets/2026-03-02.html", 360)
    shot = ARTIFACTS / "rockets_2026-03-02-360.png"  # the edition on a phone
    assert shot.stat().st_size > 10_000
    assert os.access(shot, os.R_OK)
