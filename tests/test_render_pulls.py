"""Pages of cited pull requests, and corrections when a later day reverts what was cited."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import feedparser
import msgspec.structs
import pytest

from digest.config import Settings
from digest.models import FileChange, FollowUp, Newcomer, PullRequest, RepoDay, Review
from digest.render import render_site
from digest.store import Store
from tests.factories import DAY, make_digest, make_settings, parse_page, text

LATER = DAY + dt.timedelta(days=3)
REVERT_URL = "https://github.com/acme/rockets/pull/499"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


def collected(store: Store) -> None:
    """The collected day of acme/rockets with #401, the change the edition cites as [1]."""
    pull = PullRequest(
        repo="acme/rockets",
        number=401,
        title="Tune the fuel valve controller, part 1",
        body="The valve controller now waits for pressure to settle before it opens.",
        url="https://github.com/acme/rockets/pull/401",
        merged_at=dt.datetime.combine(DAY, dt.time(9), tzinfo=dt.UTC),
        author="Dana Example",
        files=(
            FileChange("valves/controller/state.py", 40, 4),
            FileChange("valves/controller/timing.py", 10, 0),
            FileChange("tests/test_state.py", 30, 0),
            FileChange("README.md", 2, 1),
        ),
        additions=82,
        deletions=5,
        changed_files=4,
        comments=7,
        linked_issues=(12,),
    )
    store.save_repo_day(RepoDay("acme/rockets", DAY, "git", (pull,), dt.datetime(2026, 3, 3)))


def revert_day() -> object:
    return make_digest(
        date=LATER,
        headline="Valve tuning backed out",
        follow_ups=(FollowUp("revert", "acme/rockets", 401, 499, REVERT_URL),),
    )


def test_a_cited_change_has_a_page_and_the_edition_links_it(settings: Settings) -> None:
    store = Store(settings.data_dir)
    collected(store)
    store.save_digest(make_digest())
    render_site(settings, store)
    edition = parse_page(settings.site_dir / "rockets/2026-03-02.html")
    ref = next(li for li in edition.iter("li") if li.get("id") == "ref-1")
    hrefs = [a.get("href") for a in ref.iter("a")]
    assert "../rockets/pr/acme-rockets-401.html" in hrefs
    page = parse_page(settings.site_dir / "rockets/pr/acme-rockets-401.html")
    assert text(page.find(".//h1")) == "Tune the fuel valve controller, part 1"
    folders = [text(h) for h in page.iter("h3")]
    minus = "\u2212"
    assert folders == [
        f"(top level) +2 {minus}1",
        f"tests +30 {minus}0",
        "valves/controller +50 \u22124",
    ]
    files = [text(li) for li in page.iter("li")]
    assert "state.py +40 \u22124" in files and "README.md +2 \u22121" in files
    said = text(page.find(".//main"))
    assert "4 files changed, +82 \u22125 lines." in said
    review = next(el for el in page.iter("section") if el.get("aria-labelledby") == "review")
    assert [text(li) for li in review.iter("li")] == [
        "Reviews none recorded",
        "Discussion 7 comments",
        "Closes issue #12",
    ]
    # Worked out from the description: the digest was written before references said it.
    assert "waits for pressure to settle" in said
    assert "#12" in said and "PyTorch" not in said
    cited = [a.get("href") for a in page.iter("a") if a.get("href", "").endswith("03-02.html")]
    assert cited == ["../../rockets/2026-03-02.html"]
    assert not (settings.site_dir / "rockets/pr/acme-telemetry-77.html").exists()  # not collected


def test_a_page_says_in_short_what_the_citing_edition_stored(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(settings.data_dir)
    collected(store)
    said = ("The controller waits for the pressure to settle.", "Valves open later.")
    digest = make_digest()
    first = msgspec.structs.replace(digest.references[0], in_short=said)
    store.save_digest(msgspec.structs.replace(digest, references=(first, *digest.references[1:])))

    def worked_out(body: str, title: str) -> tuple[str, ...]:
        raise AssertionError("the description was read again")

    monkeypatch.setattr("digest.summarize.clean.in_short", worked_out)
    render_site(settings, store)
    page = parse_page(settings.site_dir / "rockets/pr/acme-rockets-401.html")
    section = next(s for s in page.iter("section") if s.get("class") == "tldr")
    assert text(section.find("p")) == " ".join(said)
    head = {m.get("name"): m.get("content") for m in page.iter("meta")}
    assert head["description"] == said[0]

    # A digest written again with other words re-renders the page (and only what changed).
    second = msgspec.structs.replace(first, in_short=("Valves open once pressure settles.",))
    store.save_digest(msgspec.structs.replace(digest, references=(second, *digest.references[1:])))
    report = render_site(settings, store)
    assert "rockets/pr/acme-rockets-401.html" in report.written
    page = parse_page(settings.site_dir / "rockets/pr/acme-rockets-401.html")
    section = next(s for s in page.iter("section") if s.get("class") == "tldr")
    assert text(section.find("p")) == "Valves open once pressure settles."


def test_a_later_revert_corrects_the_edition_its_feed_item_and_the_page(
    settings: Settings,
) -> None:
    store = Store(settings.data_dir)
    collected(store)
    store.save_digest(make_digest())
    render_site(settings, store)
    store.save_digest(revert_day())
    report = render_site(settings, store)
    assert {"rockets/2026-03-02.html", "rockets/pr/acme-rockets-401.html"} <= set(report.written)

    edition = parse_page(settings.site_dir / "rockets/2026-03-02.html")
    notes = [el for el in edition.iter("aside") if "correction" in el.get("class", "")]
    assert len(notes) == 1
    assert text(notes[0]).startswith("Correction, 5 March 2026: acme/rockets#401, cited here,")
    links = [a.get("href") for a in notes[0].iter("a")]
    assert links == [REVERT_URL, "../rockets/2026-03-05.html"]
    later = parse_page(settings.site_dir / "rockets/2026-03-05.html")
    assert not [el for el in later.iter("aside") if "correction" in el.get("class", "")]

    page = parse_page(settings.site_dir / "rockets/pr/acme-rockets-401.html")
    assert "Reverted on 5 March 2026 by #499" in text(page.find(".//main"))

    rss = feedparser.parse((settings.site_dir / "rockets/feed.xml").read_bytes())
    item = next(e for e in rss.entries if e.link.endswith("2026-03-02.html"))
    assert item.id == item.link and "was reverted by #499" in item.summary
    feed = json.loads((settings.site_dir / "rockets/feed.json").read_bytes())
    corrected = next(i for i in feed["items"] if i["url"].endswith("2026-03-02.html"))
    assert corrected["date_modified"].startswith("2026-03-05")
    assert render_site(settings, store).pages_written == 0


def test_a_rebuild_opens_no_collected_day(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(settings.data_dir)
    collected(store)
    store.save_digest(make_digest())
    render_site(settings, store)

    def opened(path: Path) -> frozenset[int]:
        raise AssertionError(f"{path} was read again")

    monkeypatch.setattr("digest.render.groups._numbers_in", opened)
    assert render_site(settings, store).pages_written == 0
    assert (settings.site_dir / "rockets/pr/acme-rockets-401.html").is_file()


def test_a_fresh_checkout_of_the_data_renders_nothing_again(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkout gives every data file a new mtime; what pages show is unchanged."""
    store = Store(settings.data_dir)
    collected(store)
    store.save_digest(make_digest())
    render_site(settings, store)
    later = dt.datetime(2026, 4, 1).timestamp()
    for path in settings.data_dir.rglob("*.json"):
        os.utime(path, (later, later))

    def parsed(data: bytes) -> frozenset[int]:
        raise AssertionError("a collected day was parsed again")

    monkeypatch.setattr("digest.render.groups._numbers_in", parsed)
    report = render_site(settings, store)
    assert report.pages_written == 0 and report.digests_read == 0

    # A collected day whose contents did change is parsed, and its pages re-rendered.
    monkeypatch.undo()
    day = store.load_repo_day("acme/rockets", DAY)
    assert day is not None
    retitled = msgspec.structs.replace(day.pulls[0], title="Tune the fuel valve controller again")
    store.save_repo_day(msgspec.structs.replace(day, pulls=(retitled,)))
    report = render_site(settings, store)
    # The page, and the search index, which covers it.
    pages = [p for p in report.written if not p.startswith("pagefind/")]
    assert pages == ["rockets/pr/acme-rockets-401.html"]
    assert "pagefind/2026-03/pagefind-entry.json" in report.written  # its month's bundle


def test_an_edition_names_new_contributors_and_how_far_back_it_knows(
    settings: Settings,
) -> None:
    newcomer = Newcomer(
        "acme/rockets", "Cy Example", 402, "https://github.com/acme/rockets/pull/402"
    )
    store = Store(settings.data_dir)
    store.save_digest(make_digest(newcomers=(newcomer,), history_since=dt.date(2026, 1, 5)))
    render_site(settings, store)
    page = parse_page(settings.site_dir / "rockets/2026-03-02.html")
    section = next(s for s in page.iter("section") if s.get("class") == "newcomers")
    said = text(section)
    assert "as far back as the Wire's records go (5 January 2026)" in said
    assert "Cy Example · acme/rockets #402" in said


def _page_of(settings: Settings, **changes: object) -> Any:
    """The page of #401 collected with ``changes``, cited by the edition of DAY."""
    store = Store(settings.data_dir)
    collected(store)
    day = store.load_repo_day("acme/rockets", DAY)
    assert day is not None
    pull = msgspec.structs.replace(day.pulls[0], **changes)
    store.save_repo_day(msgspec.structs.replace(day, pulls=(pull,)))
    store.save_digest(make_digest())
    render_site(settings, store)
    return parse_page(settings.site_dir / "rockets/pr/acme-rockets-401.html")


def test_a_pull_request_page_tells_who_approved_and_who_asked_for_changes(
    settings: Settings,
) -> None:
    page = _page_of(
        settings,
        reviews=(
            Review("ana", "CHANGES_REQUESTED"),
            Review("bo", "APPROVED"),
            Review("ana", "APPROVED"),  # asked for changes, then approved: an approval
            Review("cy", "CHANGES_REQUESTED"),
            Review("di", "COMMENTED"),
        ),
        comments=12,
        review_comments=4,
        participants=("ana", "bo", "cy", "di", "Dana Example"),
        linked_issues=(12, 15),
    )
    review = next(el for el in page.iter("section") if el.get("aria-labelledby") == "review")
    assert text(review.find("h2")) == "The review"
    assert [text(li) for li in review.iter("li")] == [
        "Approved by ana, bo",
        "Changes asked for by cy",
        "Reviewed with comments by di",
        "Discussion 12 comments and 4 review comments from 5 people",
        "Closes issue #12 issue #15",
    ]
    closes = [a.get("href") for a in review.iter("a")]
    assert closes == [
        "https://github.com/acme/rockets/issues/12",
        "https://github.com/acme/rockets/issues/15",
    ]
    cited = next(el for el in page.iter("section") if el.get("aria-labelledby") == "cited")
    # The citing edition by its headline, not by its date alone.
    (line,) = cited.iter("li")
    assert text(line.find("a")) == make_digest().headline
    assert text(line).endswith("Rockets, 2 March 2026")


def test_a_page_from_a_git_clone_says_nothing_of_review(settings: Settings) -> None:
    # A git source knows no reviews and no comment counts.
    page = _page_of(settings, comments=None, review_comments=None, linked_issues=())
    assert not [el for el in page.iter("section") if el.get("aria-labelledby") == "review"]
    said = text(page.find(".//main"))
    assert "review" not in said.lower() and "approved" not in said.lower()


def test_a_path_breaks_after_each_slash_and_underscore_once_escaped() -> None:
    from digest.render.pulls import breakable

    assert breakable("a/b_c.py") == "a/<wbr>b_<wbr>c.py"
    assert breakable("<x>/&_'\"") == "&lt;x&gt;/<wbr>&amp;_<wbr>&#39;&#34;"
    assert breakable("") == "" and breakable("/_") == "/<wbr>_<wbr>"


@pytest.mark.parametrize(
    "data",
    [
        b'{"pulls": [{"number": 3, "title": "x"}, {"number": null}, {"title": "push"}]}',
        b'{"repo": "a/b", "pulls": []}',
        b'{"pulls": [{"number": true}, {"number": 2.0}, {"number": "4"}, {"number": 5}]}',
        b'{"pulls": [{"number": 1}], "x": NaN}',  # not msgspec's JSON: read by json
        b'{"pulls": [{"number": 1}, {"number": 1, "number": 7}]}',
    ],
)
def test_the_numbers_of_a_collected_day_are_those_json_reads(data: bytes) -> None:
    from digest.render.groups import _numbers_in

    pulls = json.loads(data).get("pulls", [])
    assert _numbers_in(data) == {p["number"] for p in pulls if isinstance(p.get("number"), int)}


@pytest.mark.parametrize("data", [b'{"pulls": null}', b"[1]", b'{"pulls": [3]}', b"{"])
def test_a_collected_day_not_of_the_shape_fails_as_json_fails(data: bytes) -> None:
    from digest.render.groups import _numbers_in

    with pytest.raises((ValueError, AttributeError, TypeError)):
        _numbers_in(data)
