"""A day is never lost to a check: the part that breaks a rule goes, the edition stays."""

from __future__ import annotations

import msgspec.structs

from digest.config import ProjectSettings, RepoSettings
from digest.models import ActionItem, Urgency
from digest.summarize.checks import problems
from digest.summarize.extractive import ExtractiveWriter
from digest.summarize.extractive.mend import mend
from digest.summarize.select import make_brief
from tests.pulls import DAY, busy_day, make_pull

PROJECT = ProjectSettings(name="Rocket", repos=(RepoSettings(name="acme/rocket"),))


def test_a_sentence_that_breaks_a_rule_is_left_out_and_references_renumbered() -> None:
    pulls = busy_day()
    digest = ExtractiveWriter().write(make_brief(PROJECT, DAY, pulls))
    assert problems(digest, pulls) == []
    first, *rest = digest.body.split("\n\n")
    broken = msgspec.structs.replace(
        digest, body="\n\n".join([f"{first} Lands do not hand the gauge [2].", *rest])
    )
    assert problems(broken, pulls)
    mended, notes = mend(broken, pulls, problems)
    assert problems(mended, pulls) == [] and mended.body == digest.body
    assert notes and "Lands do not hand" in notes[0]


def test_an_action_item_that_breaks_a_rule_is_left_out() -> None:
    pulls = busy_day()
    digest = ExtractiveWriter().write(make_brief(PROJECT, DAY, pulls))
    extra = ActionItem(
        text="the gauge, somehow", repo="acme/rocket", urgency=Urgency.PLAN, refs=(1,)
    )
    broken = msgspec.structs.replace(digest, action_items=(*digest.action_items, extra))
    mended, notes = mend(broken, pulls, problems)
    assert mended.action_items == digest.action_items and notes


def test_a_path_with_markup_costs_no_edition() -> None:
    """A folder named like a tag reaches no rule as markup: the day has its edition."""
    pulls = [
        make_pull("Add gauge readout", files={"src/<b>x</b>/gauge.py": (50, 0)}),
        make_pull("Fix the valve", files={"src/<b>x</b>/valve.py": (5, 1)}, minute=1),
    ]
    digest = ExtractiveWriter().write(make_brief(PROJECT, DAY, pulls))
    assert problems(digest, pulls) == []
    assert "<b>" not in " ".join(a.text for a in digest.action_items)


def test_a_body_no_part_of_which_can_go_is_named_by_titles(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A rule every composed sentence breaks (a misread title on a day nobody foresaw): the
    edition names the day's changes by their titles, and the day still has its edition."""
    import digest.summarize.extractive.writer as writer

    def strict(digest, pulls):  # type: ignore[no-untyped-def]
        prose = [
            line
            for line in digest.body.split("\n")
            if line.strip() and not line.startswith(("-", "**"))
        ]
        broken = [f"body sentence has no verb: {line[:40]!r}" for line in prose]
        return problems(digest, pulls) + broken

    monkeypatch.setattr(writer, "problems", strict)
    pulls = busy_day()
    digest = ExtractiveWriter().write(make_brief(PROJECT, DAY, pulls))
    assert strict(digest, pulls) == []
    assert digest.body.startswith("**In brief**"), digest.body
    assert digest.headline == "Rocket merges 14 changes"
    assert len(digest.references) >= 5 and len(digest.action_items) == 1
