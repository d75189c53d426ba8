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
import http.server
import os
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import msgspec.structs
import pytest

from digest.models import FileChange, FollowUp, PullRequest, RepoDay, Review
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
    "topics/valves.html",
    "actions.html",
    "actions-immediate.html",
    "rockets/actions.html",
    "topics/valves/actions.html",
    "subscribe.html",
    # The series cites acme/rockets#401 from its first day on: the page sits there.
    "ground/pr/acme-rockets-401.html",
)
#: Pages that need a web server: the search page's script fetches its index, and the
#: "not found" page links from the site's path (``/wire/``).
SERVED = ("search.html", "no/such/page.html")
#: A folder and a file name far wider than a phone, with no space to break at.
LONG_PATH = (
    "valves/controller/a_very_long_folder_name_of_generated_kernels_for_every_backend_variant/"
    "another_extremely_long_directory_name_that_keeps_going/"
    "quantization_annotation_configuration_for_the_fused_valve_controller_module.py"
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
        files=(
            FileChange("valves/controller/a_really_long_module_name_for_wrapping.py", 40, 4),
            FileChange(LONG_PATH, 12, 0),
        ),
        additions=52,
        deletions=4,
        changed_files=2,
        reviews=(Review("ana", "APPROVED"), Review("bo", "CHANGES_REQUESTED")),
        comments=9,
        review_comments=3,
        participants=("ana", "bo", "Dana Example"),
        linked_issues=(77,),
    )
    day = dt.date(2026, 1, 1)
    store.save_repo_day(RepoDay("acme/rockets", day, "git", (pull,), dt.datetime(2026, 1, 2)))
    # The day of the newest editions: #401 touches valves/, so its action item is on the
    # topic's desk; #402 does not.
    checks = msgspec.structs.replace(pull, number=402, files=(FileChange("checks/sweep.py", 3, 1),))
    newest = (
        msgspec.structs.replace(pull, merged_at=dt.datetime(2026, 3, 2, 9, tzinfo=dt.UTC)),
        checks,
    )
    later = dt.datetime(2026, 3, 3)
    store.save_repo_day(RepoDay("acme/rockets", dt.date(2026, 3, 2), "git", newest, later))
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


def look(browser: Any, site: Path | str, path: str, width: int, wait: str = "") -> Seen:
    """Open ``path`` of ``site`` (a folder, or a served site's URL) at ``width``."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((site / path).as_uri() if isinstance(site, Path) else site + path)
    if wait:
        page.wait_for_selector(wait)
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


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site under ``/wire/`` (its base URL's path), and its 404 page for what
    is not there, as GitHub Pages does."""

    site: Path

    def do_GET(self) -> None:
        if self.path == "/favicon.ico":  # asked for by Chromium; the site has none
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()

    def translate_path(self, path: str) -> str:
        rest = urlsplit(path).path.removeprefix("/wire/")
        return str(self.site / unquote(rest))

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        if code != 404:
            super().send_error(code, message, explain)
            return
        body = (self.site / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The site over HTTP on 127.0.0.1, at ``/wire/``."""
    handler = type("Handler", (_Handler,), {"site": site})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/wire/"
    server.shutdown()
    thread.join()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("path", SERVED)
def test_served_page_in_chromium(browser: Any, served: str, path: str, width: int) -> None:
    wait = "#search input" if path == "search.html" else ""
    seen = look(browser, served, path, width, wait=wait)
    if path == "no/such/page.html":  # the page itself comes with status 404, as it should
        seen.errors = [e for e in seen.errors if "status of 404" not in e]
    assert seen.errors == []
    assert seen.h1 == 1
    assert seen.landmarks == ["header", "nav", "main", "footer"]
    assert seen.unnamed_links == []
    assert seen.low_contrast == [], seen.low_contrast[:5]
    if width == 360:
        assert seen.overflow <= 0, f"{path} is {seen.overflow}px wider than a 360px screen"


def test_search_for_a_pull_request_title_finds_its_page_and_edition(
    browser: Any, served: str
) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(served + "search.html?q=" + "Tune the fuel valve controller")
    page.wait_for_selector(".pagefind-ui__result-link", timeout=15_000)
    page.wait_for_timeout(500)  # every result's fragment loaded
    found = page.evaluate(
        "[...document.querySelectorAll('.pagefind-ui__result-link')].map((a) => a.pathname)"
    )
    # The excerpts quote the long path: it wraps on a phone.
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "search-results-360.png"), full_page=True)
    page.close()
    assert errors == []
    assert overflow <= 0
    # The index is a bundle a month: the page is in January's, merged into March's.
    assert "/wire/ground/pr/acme-rockets-401.html" in found
    # And the editions that cite it (their references name it), of both months.
    editions = [p for p in found if re.fullmatch(r"/wire/(rockets|ground)/2026-\d\d-\d\d\.html", p)]
    assert {p.split("/")[-1][:7] for p in editions} == {"2026-01", "2026-03"}, found


def test_the_long_path_wraps_at_slashes_and_underscores(browser: Any, site: Path) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 900})
    page.goto((site / "ground/pr/acme-rockets-401.html").as_uri())
    widths = page.evaluate(
        "[...document.querySelectorAll('.path')].map((el) => el.getBoundingClientRect().right)"
    )
    page.close()
    assert widths and max(widths) <= 360


def test_a_topic_desk_fits_in_three_phone_screens(browser: Any, site: Path) -> None:
    # A phone 412 px wide shows about 915 px of page (Pixel 7); the real 30-day desks are
    # measured by bench/desk_height.py.
    for topic in ("valves", "telemetry"):
        page = browser.new_page(viewport={"width": 412, "height": 915})
        page.goto((site / f"topics/{topic}/actions.html").as_uri())
        height = page.evaluate("document.documentElement.scrollHeight")
        rows = page.locator(".desk-row").count()
        page.close()
        assert height <= 3 * 915, f"{topic}: {height}px for {rows} items"


def test_the_repository_filter_works_without_javascript(browser: Any, site: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    page.goto((site / "topics/valves/actions.html").as_uri())
    total = page.locator(".desk-row:visible").count()
    links = page.locator(".desk-filter a[href^='#only-']")
    if links.count() >= 2:
        links.nth(0).click()
        shown = page.locator(".desk-row:visible").count()
        assert 0 < shown < total
    page.close()


def test_the_drop_cap_sits_only_on_a_plain_word(browser: Any, site: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto((site / "rockets/2026-03-02.html").as_uri())
    floated = page.evaluate(
        "getComputedStyle(document.querySelector('.story > p'), '::first-letter').cssFloat"
    )
    headline = page.evaluate("getComputedStyle(document.querySelector('h1')).textTransform")
    page.close()
    assert floated == "left"  # "The ..." opens the story
    assert headline == "uppercase"  # set in capitals by the style sheet, whatever is stored
