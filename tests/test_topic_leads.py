"""Topic pages lead with what an edition says about the topic, not with its headline."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import msgspec.structs

from digest.config import ProjectSettings, RepoSettings, TopicSettings
from digest.models import TopicLead
from digest.render import render_site
from digest.store import Store
from digest.summarize.extractive import ExtractiveWriter
from digest.summarize.leads import plain, topic_leads
from digest.summarize.select import make_brief
from tests.factories import make_digest, make_settings, parse_page, text
from tests.pulls import DAY, make_pull

VALVES = TopicSettings(name="Valves", slug="valves", paths=("valves/",))
CUDA = TopicSettings(name="Kernels", slug="kernels", paths=("kernels/",))


def day_of_changes() -> list:
    big = {f"kernels/attention_{i}.cu": (400, 20) for i in range(12)}
    return [
        make_pull("Add fused attention kernels for long sequences", files=big, repo="acme/rocket"),
        make_pull("Fix the oxidiser valve timing check", files={"valves/timing.py": (12, 3)}),
        make_pull("Update the docs index", files={"docs/index.md": (3, 1)}),
    ]


def test_each_topic_leads_with_the_first_sentence_citing_one_of_its_changes() -> None:
    pulls = day_of_changes()
    project = ProjectSettings(name="Rocket", repos=(RepoSettings(name="acme/rocket"),))
    brief = make_brief(project, DAY, pulls, (VALVES, CUDA))
    digest = ExtractiveWriter().write(brief)
    digest = msgspec.structs.replace(digest, topics=brief.topics)
    leads = {lead.topic: lead.text for lead in topic_leads(digest, (VALVES, CUDA), brief.items)}
    assert set(leads) == {"valves", "kernels"}
    assert "valve" in leads["valves"].lower() and "attention" not in leads["valves"].lower()
    assert "attention" in leads["kernels"].lower()
    for lead in leads.values():
        assert "[" not in lead and "`" not in lead  # plain text, no citations


def test_a_topic_the_body_does_not_tell_leads_with_its_top_change_title() -> None:
    pulls = day_of_changes()
    project = ProjectSettings(name="Rocket", repos=(RepoSettings(name="acme/rocket"),))
    brief = make_brief(project, DAY, pulls, (VALVES,))
    digest = msgspec.structs.replace(
        ExtractiveWriter().write(brief), topics=("valves",), body="Kernels got faster [1]."
    )
    [lead] = topic_leads(digest, (VALVES,), brief.items)
    assert lead.text == "Fix the oxidiser valve timing check"


def test_a_fallback_title_loses_its_area_tags() -> None:
    pulls = [make_pull("[Valves][CI] Retime the oxidiser valve", files={"valves/t.py": (1, 1)})]
    project = ProjectSettings(name="Rocket", repos=(RepoSettings(name="acme/rocket"),))
    brief = make_brief(project, DAY, pulls, (VALVES,))
    digest = msgspec.structs.replace(ExtractiveWriter().write(brief), topics=("valves",), body="")
    [lead] = topic_leads(digest, (VALVES,), brief.items)
    assert "[" not in lead.text and "oxidiser valve" in lead.text


def test_plain_keeps_identifiers_and_drops_marks() -> None:
    assert plain("The **new** `quantize_per_tensor` op lands [2][3].") == (
        "The new quantize_per_tensor op lands."
    )
    assert plain("Meanwhile, the planner drops test\\_scalars.py, \\~2.6x faster [4].") == (
        "The planner drops test_scalars.py, ~2.6x faster."
    )


def test_a_topic_told_among_the_smaller_changes_leads_with_its_own() -> None:
    from digest.summarize.leads import _lead

    said = (
        "3 smaller changes also landed, among them one that bumps CI `libtpu` to 0.0.40 [3], "
        "one that fixes formatting [4] and one that documents the cache [5]."
    )
    assert _lead(said, {4}) == "One change fixes formatting."
    assert _lead(said, {3, 5}) == "One change bumps CI libtpu to 0.0.40."
    assert _lead("Rocket adds a gimbal [1].", {1}) == "Rocket adds a gimbal."
    spelled = said.replace("3 smaller changes", "Seven more changes")  # as the writer says it
    assert _lead(spelled, {4}) == "One change fixes formatting."


def test_a_lead_stands_alone_without_the_also_of_its_paragraph() -> None:
    assert plain("Rocket also re-lands the valve timing change [3].") == (
        "Rocket re-lands the valve timing change."
    )
    assert (
        plain("The NXP backend also adds `MM` support [4].") == "The NXP backend adds MM support."
    )
    # Not an "also" before the subject's verb: kept.
    assert plain("It adds X and also fixes Y [1].") == "It adds X and also fixes Y."
    assert plain("Tests are also faster, 2x [2].") == "Tests are also faster, 2x."


def test_the_topic_page_and_feed_lead_with_the_topic_story(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    digest = make_digest(
        date=dt.date(2026, 3, 2),
        headline="CUDA KERNELS GET FASTER",
        topics=("valves",),
        topic_leads=(TopicLead("valves", "The valve timing check no longer misses a beat."),),
    )
    Store(settings.data_dir).save_digest(digest)
    render_site(settings, Store(settings.data_dir))
    topic = parse_page(settings.site_dir / "topics/valves.html")
    headlines = [text(h) for h in topic.iter("h2") if "card-headline" in (h.get("class") or "")]
    assert headlines == ["The valve timing check no longer misses a beat."]
    front = parse_page(settings.site_dir / "index.html")
    assert "CUDA KERNELS GET FASTER" in text(front)  # elsewhere, the edition's own headline
    import feedparser

    topic_feed = feedparser.parse((settings.site_dir / "topics/valves.xml").read_bytes())
    assert [e.title for e in topic_feed.entries] == [
        "The valve timing check no longer misses a beat."
    ]
    site_feed = feedparser.parse((settings.site_dir / "feed.xml").read_bytes())
    assert [e.title for e in site_feed.entries] == ["CUDA KERNELS GET FASTER"]


def test_a_topic_card_does_not_repeat_its_lead_in_the_dek(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    lead = "The valve timing check no longer misses a beat"
    digest = make_digest(
        date=dt.date(2026, 3, 2),
        headline="VALVE TIMING FIXED",
        dek=f"{lead}, among 3 changes merged in acme/rockets.",
        topics=("valves",),
        topic_leads=(TopicLead("valves", f"{lead}."),),
    )
    Store(settings.data_dir).save_digest(digest)
    render_site(settings, Store(settings.data_dir))
    topic = parse_page(settings.site_dir / "topics/valves.html")
    assert [text(p) for p in topic.iter("p") if p.get("class") == "card-dek"] == []
    front = parse_page(settings.site_dir / "index.html")
    assert [text(p) for p in front.iter("p") if p.get("class") == "card-dek"] == [digest.dek]
