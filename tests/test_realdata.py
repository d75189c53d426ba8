"""Real days of four PyTorch repositories through summarize and render, every rule checked."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import feedparser
import html5lib
import pytest

from digest.clock import FixedClock
from digest.config import ProjectSettings, RepoSettings, Settings, SiteSettings, TopicSettings
from digest.models import Digest, PullRequest, RepoDay, Urgency
from digest.pipeline import Collected, Runtime, make_writer, render, summarize
from digest.registry import default_registry
from digest.summarize.checks import MAX_REFERENCES, coverage_problems, problems
from digest.summarize.classify import ROUTINE_KINDS, classify
from digest.summarize.extractive import ExtractiveWriter
from digest.summarize.select import make_brief
from tests.factories import executable_scripts
from tests.realdata import load_days, needs_real_data

pytestmark = [pytest.mark.realdata, needs_real_data]
REPOS = ("pytorch-executorch", "pytorch-ao", "pytorch-helion", "pytorch-torchtitan")
LEFTOVER = re.compile(r"cc @|###|<!--|Differential Revision|Pull Request resolved|https?://", re.I)


def pick_days(name: str, n: int) -> list[tuple[dt.date, list[PullRequest]]]:
    """The n busiest days plus n quiet ones (weekends, single changes), deterministic."""
    days = sorted(load_days(name).items())
    busiest = sorted(days, key=lambda kv: (-len(kv[1]), kv[0]))[:n]
    quiet = [kv for kv in days if len(kv[1]) <= 2][-n // 2 :]
    return sorted(dict(busiest + quiet).items())


@pytest.fixture(scope="module")
def built(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Settings, list[tuple[Digest, list[PullRequest]]]]:
    root = tmp_path_factory.mktemp("real")
    settings = Settings(
        site=SiteSettings(title="The Wire", base_url="https://wire.example.org/"),
        data_dir=root / "data",
        site_dir=root / "site",
        projects=(
            ProjectSettings(
                name="PyTorch", repos=tuple(RepoSettings(name=f"pytorch/{r[8:]}") for r in REPOS)
            ),
        ),
        topics=(
            TopicSettings(name="Arm", title_prefixes=("Arm backend:",), paths=("backends/arm/",)),
            TopicSettings(name="CI", paths=(".github/",)),
        ),
    )
    rt = Runtime(
        settings=settings,
        registry=default_registry(plugins=False),
        clock=FixedClock(dt.datetime(2026, 9, 1, 6, tzinfo=dt.UTC)),
    )
    project = settings.projects[0]
    editions = []
    by_day: dict[dt.date, list[PullRequest]] = {}
    for name in REPOS:
        for day, pulls in pick_days(name, 8):
            by_day.setdefault(day, []).extend(pulls)
    writer = make_writer(rt, "extractive")
    for day, pulls in sorted(by_day.items()):
        for repo in project.repos:
            mine = tuple(p for p in pulls if p.repo == repo.name)
            rt.store.save_repo_day(RepoDay(repo.name, day, "git", mine, rt.clock.now()))
        digest = summarize(rt, project, day, Collected(pulls=tuple(pulls), failures=()), writer)
        assert digest is not None
        editions.append((digest, pulls))
    render(rt)
    return settings, editions


def test_at_least_thirty_real_days_across_four_repositories(built) -> None:  # type: ignore[no-untyped-def]
    _, editions = built
    assert len(editions) >= 30
    assert {repo for digest, _ in editions for repo in digest.repos} == {
        f"pytorch/{r[8:]}" for r in REPOS
    }


def test_every_real_edition_keeps_the_rules(built) -> None:  # type: ignore[no-untyped-def]
    settings, editions = built
    for digest, pulls in editions:
        assert problems(digest, pulls) == [], digest.date
        brief = make_brief(settings.projects[0], digest.date, pulls)
        assert coverage_problems(digest, brief) == [], digest.date
        cited = {int(n) for n in re.findall(r"\[(\d+)\]", digest.body)} | {
            n for a in digest.action_items for n in a.refs
        }
        assert cited == {r.n for r in digest.references}
        assert len(digest.headline) <= 100 and not digest.headline.isupper()
        assert all(a.urgency in set(Urgency) for a in digest.action_items)
        texts = [
            digest.headline,
            digest.dek,
            digest.body,
            *(a.text for a in digest.action_items),
            *(f.answer for f in digest.faq),
        ]
        assert not any(LEFTOVER.search(t) for t in texts), digest.date
        if len(pulls) >= 20:
            assert 3 <= len(digest.references) <= MAX_REFERENCES


def test_real_pages_parse_and_citations_resolve(built) -> None:  # type: ignore[no-untyped-def]
    settings, editions = built
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    for digest, _ in editions:
        page = Path(settings.site_dir) / digest.project_slug / f"{digest.date}.html"
        tree = parser.parse(page.read_bytes())
        ids = {el.get("id") for el in tree.iter() if el.get("id")}
        cites = [a.get("href") for a in tree.iter("a") if (a.get("href") or "").startswith("#ref-")]
        assert cites, digest.date
        assert all(href[1:] in ids for href in cites)
        assert tree.find(".//h1") is not None
        assert not executable_scripts(tree)
    parser.parse((Path(settings.site_dir) / "index.html").read_bytes())


def test_real_feed_parses(built) -> None:  # type: ignore[no-untyped-def]
    settings, editions = built
    feed = feedparser.parse((Path(settings.site_dir) / "feed.xml").read_bytes())
    assert feed.bozo == 0, feed.get("bozo_exception")
    assert len(feed.entries) == min(len(editions), settings.site.feed_items)
    assert all(e.link.startswith("https://wire.example.org/") for e in feed.entries)


def _edition(names: tuple[str, ...], day: dt.date) -> tuple[Digest, list[PullRequest]]:
    pulls = [pull for name in names for pull in load_days(name).get(day, [])]
    project = ProjectSettings(
        name="PyTorch", repos=tuple(RepoSettings(name=f"pytorch/{n[8:]}") for n in names)
    )
    brief = make_brief(project, day, pulls)
    digest = ExtractiveWriter().write(brief)
    assert problems(digest, pulls) == [] and coverage_problems(digest, brief) == []
    return digest, pulls


def test_the_edition_cites_what_a_human_editor_picked() -> None:
    # The Wire edition in ../shared/reference cited these four executorch changes of the day.
    digest, _ = _edition(("pytorch-executorch",), dt.date(2026, 6, 30))
    picked = {20322, 20325, 20537, 20591}
    assert len(picked & {ref.number for ref in digest.references}) >= 3


@pytest.mark.parametrize("day", [dt.date(2026, 7, 15), dt.date(2026, 8, 20)])
def test_a_four_repository_day_tells_each_repository_with_news(day: dt.date) -> None:
    digest, pulls = _edition(REPOS, day)
    notable = {pull.repo for pull in pulls if classify(pull).kind not in ROUTINE_KINDS}
    body_refs = {int(n) for n in re.findall(r"\[(\d+)\]", digest.body)}
    told = {ref.repo for ref in digest.references if ref.n in body_refs}
    assert notable <= told and len(told) >= 2
