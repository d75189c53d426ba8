import re

import msgspec.structs
import pytest

from digest.config import ProjectSettings, RepoSettings
from digest.models import Urgency
from digest.summarize.checks import MAX_REFERENCES, problems
from digest.summarize.clean import in_short
from digest.summarize.extractive import ExtractiveWriter
from digest.summarize.extractive.writer import content_words
from digest.summarize.select import make_brief
from digest.summarize.sentences import split_sentences
from tests.pulls import DAY, busy_day, make_pull

PROJECT = ProjectSettings(
    name="Rocket", repos=(RepoSettings(name="acme/rocket"), RepoSettings(name="acme/pad"))
)


def write(pulls):  # type: ignore[no-untyped-def]
    return ExtractiveWriter().write(make_brief(PROJECT, DAY, pulls))


def test_busy_day_edition_keeps_every_rule() -> None:
    pulls = busy_day()
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert digest.headline != digest.headline.upper()  # stored in sentence case
    assert len(digest.headline) <= 100
    assert "launch_legacy" in digest.headline  # the breaking change leads
    assert 3 <= len(digest.references) <= MAX_REFERENCES
    assert 2 <= len(digest.action_items) <= 5
    assert digest.action_items[0].urgency is Urgency.IMMEDIATE
    assert {a.repo for a in digest.action_items} == {"acme/rocket"}
    # The dek adds to the headline: the day's next stories, never the headline's words.
    assert digest.dek.startswith("Also among the 14 changes merged on March 4, 2026: one that")
    assert not content_words(digest.dek) & content_words(digest.headline)


def test_references_are_numbered_in_order_of_first_citation() -> None:
    digest = write(busy_day())
    first_seen = []
    for n in re.findall(r"\[(\d+)\]", digest.body):
        if int(n) not in first_seen:
            first_seen.append(int(n))
    assert first_seen == [ref.n for ref in digest.references]


def test_each_reference_says_in_short_what_its_change_does() -> None:
    pulls = {pull.number: pull for pull in busy_day()}
    digest = write(list(pulls.values()))
    for ref in digest.references:
        assert ref.number is not None
        pull = pulls[ref.number]
        assert ref.in_short == in_short(pull.body, pull.title)
    said = [ref.in_short for ref in digest.references if ref.in_short]
    assert said and all(s.endswith(".") for sentences in said for s in sentences)


def test_faq_answers_standard_questions_and_names_repos() -> None:
    digest = write(busy_day())
    questions = [f.question for f in digest.faq]
    assert questions[:3] == [
        "What changed in Rocket on March 4, 2026?",
        "What should Rocket teams do about it?",
        "Which Rocket repositories shipped on March 4, 2026?",
    ]
    assert digest.faq[2].answer == f"Changes landed in rocket ({len(busy_day())} changes)."
    # Its subject said once a sentence: "The rocket project adds X, fixes Y and drops Z."
    first = digest.faq[0].answer
    assert first.count("The rocket project") == len(split_sentences(first)), first
    assert "Was anything reverted" in questions[3]


def test_a_single_change_day_has_the_one_action_its_facts_support() -> None:
    pulls = [
        make_pull(
            "Add a `HeatShield` simulator", "Simulates re-entry heating for the capsule model."
        )
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert [a.text.split(" ", 1)[0] for a in digest.action_items] == ["Try"]
    assert [r.number for r in digest.references] == [pulls[0].number]


def test_a_day_with_nothing_to_act_on_names_one_change_to_watch_and_why() -> None:
    pulls = [make_pull("Rework the engine loop", files={"src/rocket/engine.py": (80, 70)})]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    (only,) = digest.action_items
    assert only.urgency is Urgency.MONITOR and only.text.startswith("Watch ")
    assert only.text.endswith(": it reworks code that others build on"), only.text
    docs = make_pull("Document the pad", files={"docs/pad.md": (4, 1)}, minute=1)
    (among,) = write([*pulls, docs]).action_items
    assert "most likely to reach users, as it reworks code that others build on" in among.text


def test_routine_only_day_is_told_without_inventing_news() -> None:
    pulls = [
        make_pull(f"CI: retry flaky job {i}", files={".github/workflows/a.yml": (1, 1)})
        for i in range(3)
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert all(a.urgency is Urgency.MONITOR for a in digest.action_items)


def test_hostile_titles_are_escaped_in_markdown() -> None:
    pulls = [
        make_pull('Add <script>alert("x")</script> [click](javascript:alert(1)) support'),
        make_pull("Fix \u202eevil\u202c parser", "Fixes the parser. cc @everyone"),
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert "<script" not in digest.body and 'alert("x")' not in digest.body  # dropped
    assert "\\[click\\](javascript" in digest.body  # escaped: text, not a link
    assert "\u202e" not in digest.body + digest.headline


def test_direct_pushes_without_numbers_link_to_commits() -> None:
    pulls = [make_pull("Add launch window calculator", number=None), make_pull("Add orbit plotter")]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    urls = {r.url.rsplit("/", 2)[-2] for r in digest.references}
    assert urls == {"commit", "pull"}


def test_writer_is_deterministic_whatever_the_input_order() -> None:
    pulls = busy_day()
    assert write(pulls) == write(list(reversed(pulls))) == write(pulls[1::2] + pulls[::2])


def test_checks_catch_broken_editions() -> None:
    pulls = busy_day()
    good = write(pulls)
    bad = msgspec.structs.replace(
        good,
        headline="lower case " + "x" * 100,
        body=good.body + "\n\nAn uncited claim. A ghost [42].\n\n- A listed title",
        action_items=tuple(
            msgspec.structs.replace(good.action_items[0], repo="evil/elsewhere", refs=(9,))
            for _ in range(6)
        ),
        dek="One. Two.",
        faq=good.faq[1:],
    )
    found = "\n".join(problems(bad, pulls))
    for expected in (
        "characters; the limit",
        "cites nothing",
        "[42] is cited",
        "evil/elsewhere",
        "6 action items; expected 1 to 5",
        "more than one sentence",
        "FAQ lacks",
    ):
        assert expected in found


@pytest.mark.parametrize(
    "text", ["<script>x</script>", "see https://x.org", "cc @bob", "### Summary"]
)
def test_checks_catch_markup(text: str) -> None:
    pulls = busy_day()
    good = write(pulls)
    assert problems(msgspec.structs.replace(good, dek=text + "."), pulls)


def test_a_repository_display_name_is_how_the_text_names_it() -> None:
    from digest.config import ProjectSettings, RepoSettings
    from digest.summarize.checks import problems
    from digest.summarize.extractive import ExtractiveWriter
    from digest.summarize.select import make_brief
    from tests.pulls import DAY, make_pull

    for label in ("RocketWorks", "rocketworks"):
        pulls = [make_pull("Add a telemetry dashboard", repo="acme/rocket")]
        repo = RepoSettings(name="acme/rocket", display_name=label)
        brief = make_brief(ProjectSettings(name="Rocket", repos=(repo,)), DAY, pulls)
        digest = ExtractiveWriter().write(brief)
        # A lower-case name is never capitalised: a sentence opening with it is rephrased.
        opening = label if label[0].isupper() else f"The {label} project"
        assert f"{opening} adds a telemetry dashboard" in digest.body, digest.body
        assert "Rocket adds" not in digest.body
        assert problems(digest, pulls) == [], label


@pytest.mark.parametrize(
    ("reverted", "headline", "held"),
    [
        (
            "Fix crash when the fuel gauge reads NaN during the long countdown hold",
            "reverts the fix for a crash when the fuel gauge reads NaN",
            "Hold off on building on the fix for a crash when the fuel gauge reads NaN",
        ),
        (
            "Remove the legacy ignition sequencer and its configuration flags for good",
            "restores the legacy ignition sequencer",
            "Hold off on moving away from the legacy ignition sequencer",
        ),
        (
            # Taking back a cap is not taking back what it capped.
            "Cap the number of warps to keep the autotuner quick",
            "reverts the change that caps the number of warps",
            "Hold off on building on the change that caps the number of warps",
        ),
    ],
)
def test_a_revert_says_what_it_takes_back(reverted: str, headline: str, held: str) -> None:
    """Taking back a fix is not taking back the crash; taking back a removal restores."""
    revert = make_pull(
        f'Revert "{reverted} (#12)"',
        "It broke the launch simulator, so it is backed out until a better one lands.",
        files={"src/rocket/engine/gauge.py": (3, 30)},
    )
    pulls = [revert, make_pull("Cache wheels between CI runs", files={"ci/w.yml": (4, 0)})]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert headline in digest.headline
    actions = [a.text for a in digest.action_items if "reverted" in a.text]
    assert len(actions) == 1 and actions[0].startswith(held)


def test_a_lone_smaller_change_is_told_as_the_one_it_is() -> None:
    pulls = [
        make_pull("Add a throttle limiter to the engine controller", "Caps thrust at 80%."),
        make_pull("Cache wheels between CI runs", files={".github/workflows/ci.yml": (4, 0)}),
    ]
    paragraphs = write(pulls).body.split("\n\n")
    # The story is told; the other change is listed by its title, and nothing is left out.
    assert paragraphs[1:] == ["**In brief**", "- Cache wheels between CI runs [2]"]


def test_the_dek_tells_what_the_headline_does_not() -> None:
    pulls = [
        make_pull(
            "Add a throttle limiter to the engine controller",
            "Caps thrust at 80% during ascent.",
            files={"src/rocket/engine.py": (60, 2)},
        ),
        make_pull(
            "Fix a crash when the fuel gauge reads NaN",
            "Treats NaN as unknown.",
            files={"src/rocket/gauge.py": (12, 3)},
        ),
    ]
    digest = write(pulls)
    assert not content_words(digest.dek) & content_words(digest.headline)
    quiet = write(pulls[:1])  # nothing else to tell: the day's scale instead
    assert quiet.dek == "One change merged on March 4, 2026: one new feature."


def test_a_dek_names_a_second_change_before_it_counts_the_day() -> None:
    pulls = [
        make_pull(
            "Add a throttle limiter to the engine controller",
            files={"src/rocket/engine.py": (300, 2)},
        ),
        # Too technical to tell beside others in a list, enough to say what else came in.
        make_pull(
            "[pad] Propagate inner tile alignment min_size to bounding outer tiles",
            files={"src/pad/tiles.py": (30, 0)},
            minute=1,
        ),
        make_pull(
            "ci: bump the runner image", files={".github/workflows/ci.yml": (1, 1)}, minute=2
        ),
    ]
    digest = write(pulls)
    assert digest.dek == (
        "Also among the three changes merged on March 4, 2026: one that propagates inner "
        "tile alignment min_size to bounding outer tiles."
    ), digest.dek


@pytest.mark.parametrize(
    "title",
    [
        "[gpu] Shared pipeline + dispatch-grid + vec4-align helpers",
        "[lint] Fix a regression in the previous refactor",
        "[html] Skip unknown script types instead of treating as JS",
    ],
)
def test_a_title_no_sentence_can_carry_is_listed_as_written(title: str) -> None:
    from digest.summarize.classify import classify
    from digest.summarize.stories import reads_as_clause

    assert not reads_as_clause(classify(make_pull(title)))


def test_a_clause_with_its_own_and_is_not_joined_to_another_by_and() -> None:
    pulls = [
        make_pull(
            "[gauge] Use wide reads for the fuel table and support empty tanks",
            files={"src/rocket/gauge.py": (200, 10)},
        ),
        make_pull(
            "[gauge] Include the stage name in gauge readings",
            files={"src/rocket/gauge2.py": (150, 10)},
            minute=1,
        ),
    ]
    digest = write(pulls)
    assert " and supports empty tanks [1] and " not in digest.body, digest.body
    assert "supports empty tanks [1]. It also includes" in digest.body, digest.body


def test_what_a_description_says_of_the_first_clause_comes_before_the_second() -> None:
    pulls = [
        make_pull(
            "[gauge] Use wide reads for the fuel table and support empty tanks",
            "Replaces the scalar reads of the fuel table with vector reads on every board.",
            files={"src/rocket/gauge.py": (200, 10)},
        ),
        make_pull(
            "[gauge] Include the stage name in gauge readings",
            files={"src/rocket/gauge2.py": (150, 10)},
            minute=1,
        ),
    ]
    body = write(pulls).body
    first, detail, then = body.index("[1]."), body.index("vector reads"), body.index("[2]")
    assert first < detail < then, body


def test_what_a_description_says_of_the_lead_comes_right_after_it() -> None:
    pulls = [
        make_pull(
            "[gauge] Add a throttle limiter for extra readings",
            "By default, the gauge drops extra readings without a word, which hides faults.",
            files={"src/rocket/gauge.py": (400, 10)},
        ),
        make_pull(
            "[gauge] Support class and static gauge hooks",
            files={"src/rocket/gauge2.py": (150, 10)},
            minute=1,
        ),
    ]
    body = write(pulls).body
    first, detail, then = body.index("[1]."), body.index("without a word"), body.index("[2]")
    assert first < detail < then, body


def test_a_fix_description_of_the_fault_is_told_as_what_was_so_before_it() -> None:
    project = ProjectSettings(name="padctl", repos=(RepoSettings(name="acme/padctl"),))
    pulls = [
        make_pull(
            "Prevent deleting the fuel logs for empty stage manifests",
            "padctl clear against a legacy stage with an empty manifest could resolve the "
            "stage back to the log folder and end up deleting the fuel logs.",
            repo="acme/padctl",
            files={"src/padctl/clear.py": (12, 3)},
        ),
        make_pull("Add a countdown display", repo="acme/padctl", minute=1),
    ]
    digest = ExtractiveWriter().write(make_brief(project, DAY, pulls))
    assert "Before the fix, padctl clear against a legacy stage" in digest.body, digest.body
    assert problems(digest, pulls) == []


def test_the_cost_a_speed_up_removes_is_told_as_what_was_so_before_it() -> None:
    pulls = [
        make_pull(
            "perf: speed up the gauge analysis phase",
            "The gauge visitor in the analysis walk reads every tank on every node and copies "
            "the readings each time.",
            files={"src/rocket/gauge.py": (40, 12)},
        ),
        make_pull("Add a countdown display", files={"src/rocket/pad.py": (90, 2)}, minute=1),
    ]
    body = write(pulls).body
    # Told in the past: it was so before the change, not now.
    told = "Before the change, the gauge visitor in the analysis walk read every tank on every"
    assert f"{told} node and copied the readings each time [2]." in body, body


def test_a_new_default_is_news_users_hear_of() -> None:
    from digest.summarize.classify import classify

    pulls = [
        make_pull(
            "[gauge]: make `possibly-empty-tank` ignored by default",
            files={"src/rocket/rules.py": (8, 7), "docs/rules.md": (3, 3)},
        ),
        make_pull("[pad] Show truthiness in the pad display", files={"src/pad/a.py": (40, 5)}),
    ]
    assert classify(pulls[0]).kind == "feature"
    digest = write(pulls)
    assert "ignored by default [" in digest.body and "In brief" not in digest.body, digest.body


def test_a_headline_says_a_change_breaks_code_when_its_title_does_not() -> None:
    pulls = [
        make_pull(
            "[Module] Add configurable GaugeNorm that inherits from Module",
            "## BC-breaking\n\nThis is a breaking change for any downstream code that passes "
            "norm_eps directly to stage configs.",
            files={"src/rocket/norm.py": (300, 80)},
        )
    ]
    digest = write(pulls)
    assert digest.headline.endswith(", a breaking change"), digest.headline
    assert ", a breaking change" not in " ".join(e.answer for e in digest.faq)


def test_a_retold_sentence_that_only_says_the_title_again_is_left_out() -> None:
    pull = make_pull(
        "Refactor the model converter",
        "Refactors the MXFP8 model converter. It merges the linear and grouped converters "
        "into one, so both quantize weights the same way.",
    )
    first = write([pull]).body.split("\n\n")[0]
    assert "The change refactors" not in first
    assert "merges the linear and grouped converters" in first


def test_the_closing_list_marks_a_fix_titled_by_its_bug() -> None:
    from digest.summarize.classify import classify
    from digest.summarize.extractive.writer import _Draft
    from tests.pulls import make_pull

    bug = classify(make_pull("fix: Incorrect slicing when a join requires sorting"))
    told = classify(make_pull("fix: handle empty frames in the gauge reader"))
    assert _Draft._listed_title(bug) == "Fix: Incorrect slicing when a join requires sorting"
    assert _Draft._listed_title(told) == "handle empty frames in the gauge reader"


def test_changes_written_from_one_pattern_are_told_in_one_phrase() -> None:
    from digest.summarize.checks import problems
    from tests.pulls import make_pull

    pulls = [
        make_pull(f"Update the manual for {lang} (add-missing)", files={f"docs/{lang}.md": (5, 1)})
        for lang in ("de", "es", "pt", "uk")
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert "updates the manual for es [2], pt [3] and uk [4] (add-missing)." in digest.body


def test_a_verb_before_a_pile_of_bare_nouns_is_listed_as_written() -> None:
    from digest.summarize.checks import problems
    from tests.pulls import make_pull

    pulls = [
        make_pull("Add a telemetry dashboard for the countdown", "Shows fuel and thrust live."),
        make_pull("Fix a crash when the gauge reads NaN", minute=1),
        make_pull("Update gauge subclass emulated param name", minute=2),
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert "updates gauge subclass" not in digest.body
    assert "- Update gauge subclass emulated param name" in digest.body, digest.body


def test_a_description_that_says_the_title_and_more_is_said_once_its_way() -> None:
    body = "It adds a new nursery rule `noLooseBolts` that flags bolts left without a nut."
    digest = write(
        [make_pull("feat: add `noLooseBolts`", body, files={"src/rocket/lint.py": (90, 5)})]
    )
    first = digest.body.split("\n\n")[0]
    assert "adds a new nursery rule `noLooseBolts` that flags bolts left without a nut" in first
    assert first.count("noLooseBolts") == 1, first


def test_a_later_change_with_a_description_worth_retelling_is_told_with_it() -> None:
    lead = make_pull("Add a booster abort mode", files={"src/rocket/booster.py": (400, 20)})
    explained = make_pull(
        "Skip the gauge check for manual launches",
        "Manual launches now start without waiting for the gauge warm-up, which took a minute.",
        files={"src/rocket/gauge.py": (30, 4)},
        minute=1,
    )
    terse = make_pull("Speed up pad lights", files={"src/rocket/lights.py": (30, 4)}, minute=2)
    digest = write([lead, explained, terse])
    sentences = split_sentences(digest.body)
    assert any(s.startswith("Manual launches now start without waiting") for s in sentences), (
        digest.body
    )
    assert problems(digest, [lead, explained, terse]) == []


def test_a_small_change_naming_code_or_long_is_listed_as_written_not_told() -> None:
    pulls = [
        make_pull("Add a booster abort mode", files={"src/rocket/booster.py": (400, 20)}),
        make_pull("Fix a stuck gauge on cold pads", minute=1),
        make_pull("Render `:abort` of `#stage` block with correct key", minute=2),
        make_pull(
            "Make the pad light controller produce status frames with fewer colours again",
            minute=3,
        ),
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    told, _, listed = digest.body.partition("**In brief**")
    assert "fixes a stuck gauge on cold pads [2]" in told, digest.body
    assert "- Render `:abort` of `#stage` block with correct key [3]" in listed, digest.body
    assert "- Make the pad light controller produce status frames" in listed, digest.body


def test_a_minor_second_story_is_left_to_the_dek_not_the_headline() -> None:
    lead = make_pull("Add a booster abort mode", files={"src/rocket/booster.py": (400, 20)})
    minor = make_pull(
        "Update the default pad path in the example", files={"examples/pad.py": (2, 2)}, minute=1
    )
    digest = write([lead, minor])
    assert digest.headline == "rocket adds a booster abort mode", digest.headline
    assert "default pad path" in digest.dek


def test_upkeep_beside_real_news_is_listed_not_told() -> None:
    pulls = [
        make_pull("Add a booster abort mode", files={"src/rocket/booster.py": (400, 20)}),
        make_pull("fix(deps): update rust crates", files={"Cargo.lock": (40, 40)}, minute=1),
        make_pull("Fix a stuck gauge on cold pads", minute=2),
    ]
    digest = write(pulls)
    told, _, listed = digest.body.partition("**In brief**")
    assert "updates rust crates" not in told and "- Update rust crates" in listed, digest.body


def test_the_dek_never_repeats_a_number_the_headline_says() -> None:
    notes = (
        "## 2.4.2\n\n### Fixed\n\n- gauge: keep the needle steady (#91)\n"
        "- pad: dim the lights at night (#92)\n- valves: close on reset (#93)\n"
    )
    pulls = [
        make_pull("release: v2.4.2", number=94, notes=notes),
        make_pull("Add a booster abort mode", minute=1),
        make_pull("docs: fix a typo", files={"docs/a.md": (1, 1)}, minute=2),
    ]
    digest = write(pulls)
    assert "three" in digest.headline, digest.headline
    assert not content_words(digest.dek) & content_words(digest.headline), digest.dek


def test_a_dek_of_counts_never_repeats_the_count_the_headline_says() -> None:
    notes = (
        "## 2.4.2\n\n### Fixed\n\n- gauge: fix the needle shaking at idle (#91)\n"
        "- pad: fix the lights flickering at night (#92)\n"
    )
    pulls = [
        make_pull("release: v2.4.2", number=94, notes=notes),
        make_pull("Fix the needle shaking at idle", files={"src/a.py": (4, 1)}, number=91),
        make_pull("Fix the lights flickering at night", files={"src/b.py": (4, 1)}, number=92),
        make_pull("docs: fix a typo", files={"docs/a.md": (1, 1)}, number=95, minute=2),
    ]
    digest = write(pulls)
    assert "two fixes" in digest.headline, digest.headline
    # The release and the fixes it lists are the headline's; the dek counts the rest.
    assert (
        digest.dek
        == "Also among the four changes merged on March 4, 2026: one documentation change."
    ), digest.dek
    assert not content_words(digest.dek) & content_words(digest.headline), digest.dek


def test_a_day_of_documentation_says_whose_documentation_changed() -> None:
    pulls = [
        make_pull(
            "docs: remove Python 3.9 specific pad examples", files={"docs_src/pad/a.py": (0, 90)}
        ),
        make_pull("docs: update release notes", files={"docs/release-notes.md": (3, 0)}, minute=1),
    ]
    digest = write(pulls)
    assert digest.headline.startswith("rocket's documentation removes"), digest.headline
    assert digest.body.startswith("In the documentation, rocket removes"), digest.body
    assert problems(digest, pulls) == []


def test_release_notes_kept_up_to_date_are_listed_once_and_never_told() -> None:
    pulls = [
        make_pull(
            "docs: remove Python 3.9 specific pad examples", files={"docs_src/pad/a.py": (0, 90)}
        ),
        make_pull("Upgrade typing syntax for the pad", files={"src/pad.py": (9, 9)}, minute=1),
        *(
            make_pull("Update release notes", files={"docs/release-notes.md": (3, 0)}, minute=m)
            for m in (2, 3)
        ),
    ]
    digest = write(pulls)
    assert "updates release notes" not in digest.body.lower().replace("- update", ""), digest.body
    assert re.search(r"^- Update release notes \[\d\] \[\d\]$", digest.body, re.M), digest.body
    assert problems(digest, pulls) == []


def test_a_day_of_documentation_lists_its_notes_once_and_counts_without_other() -> None:
    pulls = [
        make_pull("docs: remove the conference section", files={"docs/a.md": (3, 40)}),
        *(
            make_pull("📝 Update release notes", files={"docs/release-notes.md": (3, 0)}, minute=m)
            for m in (1, 2, 3)
        ),
    ]
    digest = write(pulls)
    assert re.search(r"^- Update release notes \[\d\] \[\d\] \[\d\]$", digest.body, re.M), (
        digest.body
    )
    assert digest.dek == "Four changes merged on March 4, 2026.", digest.dek
    assert problems(digest, pulls) == []


def test_a_day_of_upkeep_never_leads_with_its_release_notes() -> None:
    pulls = [
        make_pull("📝 Update release notes", files={"docs/release-notes.md": (3, 0)}),
        make_pull("⬆ Bump gaugekit from 2.8.2 to 2.9.0", files={"requirements.txt": (1, 1)}),
    ]
    digest = write(pulls)
    assert "release notes" not in digest.headline.lower(), digest.headline


def test_a_fix_description_of_its_fault_in_the_present_is_told_as_before_it() -> None:
    pulls = [
        make_pull(
            "fix(pad): expose the gauge module to the stage loader",
            "Three stage tests fail with `Cannot find module 'gauge'` because the loader "
            "never registers that module.",
            files={"src/rocket/loader.py": (40, 2)},
        ),
        make_pull("Add a countdown display", files={"src/rocket/pad.py": (90, 2)}, minute=1),
    ]
    body = write(pulls).body
    assert "Before the fix, three stage tests failed with" in body, body


def test_a_listed_fix_that_says_fix_itself_is_not_marked_again() -> None:
    from digest.summarize.classify import classify
    from digest.summarize.extractive.writer import _Draft

    minor = classify(make_pull("[gauge] Minor fix to the pad gauge using the wide reads"))
    bug = classify(make_pull("fix: Incorrect length check on streaming zip"))
    assert minor.kind == bug.kind == "fix"
    assert not _Draft._listed_title(minor).startswith("Fix:")
    assert _Draft._listed_title(bug) == "Fix: Incorrect length check on streaming zip"


def test_small_changes_of_two_subjects_are_told_apart_and_in_other_changes_once() -> None:
    tools = {"packages/create-rocket/src/index.ts": (20, 4)}
    pulls = [
        make_pull("Add a booster abort mode", files={"src/rocket/booster.py": (400, 20)}),
        make_pull("Fix a stuck gauge on cold pads", minute=1),
        make_pull("fix(create-rocket): keep the pad light on", files=tools, minute=2),
    ]
    digest = write(pulls)
    assert digest.body.count("In other changes") <= 1, digest.body
    assert "and keeps the pad light on" not in digest.body, digest.body
    assert problems(digest, pulls) == []


def test_a_fix_told_only_by_its_mechanism_is_listed_and_a_compound_scope_is_a_place() -> None:
    pulls = [
        make_pull("feat: add a booster abort mode", files={"src/rocket/booster.py": (400, 20)}),
        make_pull("fix: visit synthetic gauge node during launch", minute=1),
        make_pull("fix(yaml_parser): handle tab-separated frame markers", minute=2),
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    told, _, listed = digest.body.partition("**In brief**")
    assert "In the YAML parser, rocket handles tab-separated frame markers [2]" in told
    assert "visit" not in told and "visits" not in digest.dek, digest.body
    assert "- Visit synthetic gauge node during launch [3]" in listed, digest.body


def test_a_description_that_only_says_the_title_again_is_not_retold() -> None:
    pulls = [
        make_pull(
            "Add functional fuel_and_fire gauge op",
            "The change adds a neutral gauge::fuel_and_fire custom op for gauge reading.",
            files={"src/rocket/gauge.py": (300, 4)},
        )
    ]
    digest = write(pulls)
    assert "custom op" not in digest.body, digest.body


def test_what_a_description_says_is_so_currently_is_told_as_before_the_change() -> None:
    pulls = [
        make_pull(
            "Require wheels for pad tooling",
            "Sparrow tooling can currently build source bundles from any index. The change sets "
            "`no-build` in the maintained Sparrow projects, keeping named exceptions.\n\n"
            "When `launch()` is called with a dry run, replay the countdown buffer into the log.",
            files={"src/rocket/tooling.py": (80, 4)},
        )
    ]
    body = write(pulls).body
    assert "Before the change, Sparrow tooling could build source bundles from any index" in body
    assert "replay the countdown" not in body, body


def test_a_fix_told_by_its_means_keeps_its_verb_beside_another_fix() -> None:
    pulls = [
        make_pull(
            "[Pad] Use wide reads in pack_fins to fix Falcon 9 bug",
            files={"src/pad/fins.py": (300, 20)},
        ),
        make_pull("[Pad] Fix gauge assertion caused by short reads", minute=1),
    ]
    body = write(pulls).body
    assert "by using wide reads in pack\\_fins [1] and gauge" not in body, body
    assert "fixes a Falcon 9 bug by using wide reads" in body, body


def test_a_fix_that_says_what_users_see_is_told_not_listed() -> None:
    pulls = [
        make_pull("feat: add a booster abort mode", files={"src/rocket/booster.py": (400, 20)}),
        make_pull("fix(lint): detect misleading gauge returns for pad instances", minute=1),
    ]
    digest = write(pulls)
    told, _, _ = digest.body.partition("**In brief**")
    assert "detects misleading gauge returns for pad instances [2]" in told, digest.body


def test_a_catch_all_scope_is_no_place_and_analyze_is_the_analyzer() -> None:
    pulls = [
        make_pull("feat(analyze): add the nursery rule `noLoosePads`"),
        make_pull("fix(core): correctly parse gauge directives as expressions", minute=1),
    ]
    body = write(pulls).body
    assert body.startswith("In the analyzer, rocket adds the nursery rule"), body
    assert "In core," not in body, body


def test_a_revert_quoting_a_tagged_title_belongs_to_that_tag() -> None:
    from digest.summarize.classify import classify

    item = classify(make_pull('Revert "[Pad] Emit gauge ranges for multi-line headers."'))
    assert item.kind == "revert" and item.area == "Pad", item


def test_a_fix_that_stops_a_fault_is_told_by_what_stops() -> None:
    pulls = [make_pull("fix: Do not deduplicate inherently nondeterministic gauge nodes")]
    digest = write(pulls)
    told = "rocket no longer deduplicates inherently nondeterministic gauge nodes"
    assert digest.headline == told, digest.headline


def test_a_number_format_tag_is_the_place_said_first_after_another_in() -> None:
    pulls = [
        make_pull(
            "[mxfp8] refactor the burn converter; use padding kernels in padlib",
            files={"src/rocket/burn.py": (300, 40)},
        )
    ]
    digest = write(pulls)
    assert digest.headline.startswith("In MXFP8, rocket refactors"), digest.headline
    assert digest.faq[0].answer.startswith("In MXFP8, the rocket project"), digest.faq[0].answer


@pytest.mark.parametrize(
    ("folder", "place"),
    [("cadence", "In the Cadence backend, "), ("xnnpack", "In the XNNPACK backend, ")],
)
def test_a_change_with_no_area_is_placed_in_the_backend_its_code_is_in(
    folder: str, place: str
) -> None:
    pulls = [
        make_pull("Add a countdown display", files={"src/rocket/pad.py": (90, 2)}),
        make_pull(
            "Fix the stall when the pressure valve closes early",
            "The valve handler now waits for the gauge before closing.",
            files={f"backends/{folder}/valve.py": (40, 6), f"backends/{folder}/test/t.py": (9, 0)},
            minute=1,
        ),
    ]
    body = write(pulls).body
    assert f"{place}rocket fixes the stall" in body, body


def test_a_folder_every_backend_shares_is_no_backend() -> None:
    pulls = [
        make_pull("Add a countdown display", files={"src/rocket/pad.py": (90, 2)}),
        make_pull(
            "Fix the stall when the pressure valve closes early",
            "The valve handler now waits for the gauge before closing.",
            files={"backends/transforms/valve.py": (40, 6)},
            minute=1,
        ),
    ]
    assert "backend" not in write(pulls).body


def test_a_fix_that_turns_off_what_users_may_rely_on_leads_a_day_of_small_fixes() -> None:
    pulls = [
        make_pull(
            "fix(lib): keep the launch comments in the es output",
            files={"src/rocket/build.py": (16, 2)},
        ),
        make_pull(
            "fix(dev): disable wildcard stage names for consistency",
            files={"src/rocket/stages.py": (8, 10)},
            minute=1,
        ),
        make_pull("fix(ci): disable the flaky ignition job", files={".github/ci.yml": (1, 1)}),
    ]
    digest = write(pulls)
    assert digest.headline.startswith("rocket disables wildcard stage names"), digest.headline


def test_a_first_retold_sentence_about_someone_unnamed_is_left_out() -> None:
    pulls = [
        make_pull(
            "Remove the legacy countdown display",
            "They have a countdown already, that is all. The new pad display shows the count.",
            files={"src/rocket/pad.py": (10, 90)},
        )
    ]
    assert "They have" not in write(pulls).body


@pytest.mark.parametrize(
    ("description", "told"),
    [
        (
            "The gauge writer is slow. This allocates a new `Box<dyn Write>` for every `Write` "
            "call (unless the compiler managed to remove it).",
            "Before the change, the code allocated a new `Box\u2039dyn Write\u203a` for every",
        ),
    ],
)
def test_a_speed_up_is_never_told_as_doing_the_cost_it_removes(description: str, told: str) -> None:
    pulls = [
        make_pull(
            "perf: avoid heap churn in the gauge writer",
            description,
            files={"src/rocket/gauge.rs": (20, 12)},
        )
    ]
    body = write(pulls).body
    assert not re.search(r"The change (?:allocates|creates)", body), body
    assert told in body, body
