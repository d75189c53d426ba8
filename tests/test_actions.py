"""Facts read from changes, the action items and stories built from them, and their checks."""

from __future__ import annotations

import re

import msgspec.structs
import pytest

from digest.config import ProjectSettings, RepoSettings
from digest.models import Digest, PullRequest, Urgency
from digest.summarize.checks import coverage_problems, instruction_of, problems
from digest.summarize.classify import classify
from digest.summarize.extractive import ExtractiveWriter
from digest.summarize.facts import Requirement
from digest.summarize.select import make_brief
from digest.summarize.verbs import ACTION_VERBS
from tests.pulls import DAY, busy_day, make_pull, revert_of

PROJECT = ProjectSettings(
    name="Rocket", repos=(RepoSettings(name="acme/rocket"), RepoSettings(name="acme/pad"))
)
BOOSTER = {"stages/booster/flight.py": (300, 20)}


def write(pulls: list[PullRequest]) -> Digest:
    return ExtractiveWriter().write(make_brief(PROJECT, DAY, pulls))


def test_facts_read_speed_claims_versions_removals_names_and_place() -> None:
    fast = classify(make_pull("Cache staging plans", "Staging is now 2.5x faster on big rockets."))
    assert fast.facts.speed_claim == "a 2.5x speed-up" and fast.kind == "perf"
    needs = classify(make_pull("Capsule: add bf16", "- Needs bumping of the Metal SDK to 3.2.1.0"))
    assert needs.facts.requirement == Requirement("Metal SDK", "3.2.1.0")
    assert classify(make_pull("Bump version.txt to 1.0")).facts.requirement is None
    assert not classify(make_pull("Add half / bfloat16 tests")).facts.new_support
    assert classify(make_pull("Add bfloat16 support and tests")).facts.new_support
    assert classify(make_pull("Summary: throw errors from the JNI layer")).area == ""
    assert classify(make_pull("Fix ROCm CI failures")).kind == "ci"
    gone = classify(make_pull("Remove `launch_legacy()`", files=BOOSTER))
    assert (
        gone.facts.removes and gone.kind == "breaking" and gone.facts.names == ("launch_legacy()",)
    )
    assert gone.facts.place == "stages/booster"
    for harmless in (
        "Remove the gimbal size restriction",
        "Remove unused staging helpers",
        "Fix spelling typo in deprecated_staging_mode",
        "Add RemoveDeadStagesPass",
        "Remove pyre-ignore/pyre-fixme calls",
        "Remove the gauge compatibility issue",
        "Remove check for hip support in the pad",
    ):
        item = classify(make_pull(harmless))
        assert item.kind != "breaking", harmless


def test_a_story_is_told_whole_in_one_sentence() -> None:
    pulls = [
        make_pull(f"Booster stage: Enable `{op}` with the new flight flow", files=BOOSTER, minute=i)
        for i, op in enumerate(["throttle", "gimbal", "staging"])
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    first = digest.body.split("\n\n")[0]
    # The area is a place; the repository is the subject, spelt as its owner writes it.
    assert first.startswith("In Booster stage, rocket enables `")
    assert first.count("[") == 3 and "with the new flight flow." in first
    assert len(digest.references) == 3


def test_action_items_are_distinct_instructions_that_do_not_repeat_titles() -> None:
    pulls = busy_day()
    digest = write(pulls)
    titles = [p.title.lower() for p in pulls]
    openings = [a.text.split(" ", 1)[0] for a in digest.action_items]
    assert len(set(openings)) == len(openings)
    for action in digest.action_items:
        assert action.text.split(" ", 1)[0].lower() in ACTION_VERBS
        assert not any(title in action.text.lower() for title in titles)
        assert not re.search('[“”"`]', action.text)
        assert not action.text.startswith("Teams using")


def test_actions_come_from_what_the_changes_say() -> None:
    sdk = make_pull(
        "Capsule: Add bf16 heat shield model",
        "- Needs bumping of the Metal SDK to 3.2.1.0 to get the bf16 format",
        files={"capsule/shield.py": (200, 0)},
    )
    fast = make_pull(
        "Optimize staging plans", "Staging is now 2.5x faster.", files={"src/staging.py": (90, 9)}
    )
    removed = make_pull(
        "Remove `launch_legacy()`",
        "BC-breaking: callers must use `launch()`.",
        files={"src/launch.py": (0, 300)},
    )
    digest = write([sdk, fast, removed])
    assert problems(digest, [sdk, fast, removed]) == []
    texts = {a.text.split(" ", 1)[0]: a for a in digest.action_items}
    assert texts["Migrate"].urgency is Urgency.IMMEDIATE
    assert "launch_legacy()" in texts["Migrate"].text
    assert texts["Update"].text.startswith("Update to Metal SDK 3.2.1.0")
    assert "a 2.5x speed-up" in texts["Re-benchmark"].text
    assert digest.action_items[0].urgency is Urgency.IMMEDIATE  # most urgent first


def test_a_reverted_change_is_told_and_held_off() -> None:
    feature = make_pull("Booster stage: Add gimbal lock", files=BOOSTER)
    pulls = [feature, revert_of(feature), make_pull("Add pad telemetry")]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert "reverted the same day" in digest.body
    assert "reverts" in digest.headline  # the headline does not announce what is gone
    hold = [a for a in digest.action_items if a.text.startswith("Hold off")]
    assert hold and hold[0].urgency is Urgency.MONITOR


def test_every_repository_with_notable_news_is_told() -> None:
    busy = [
        make_pull(f"Add {what} to the booster", files={f"src/{what}.py": (400, 0)}, minute=i)
        for i, what in enumerate(["gimbal", "throttle", "staging", "telemetry", "abort", "ascent"])
    ]
    small = make_pull("Add a wind sensor", repo="acme/pad", files={"pad/wind.py": (12, 0)})
    pulls = [*busy, small]
    brief = make_brief(PROJECT, DAY, pulls)
    digest = ExtractiveWriter().write(brief)
    assert problems(digest, pulls) == [] and coverage_problems(digest, brief) == []
    body = digest.body.split("\n\n")
    assert any(p.startswith("The pad project adds a wind sensor") for p in body), body


def test_a_large_reland_outranks_a_small_feature() -> None:
    reland = make_pull(
        "Booster stage: Add real thrust model (re-land)",
        files={"stages/booster/thrust.py": (500, 90)},
    )
    small = make_pull("Add a pad light", files={"pad/light.py": (20, 0)})
    brief = make_brief(PROJECT, DAY, [small, reland])
    assert brief.stories[0].lead.pull is reland
    digest = ExtractiveWriter().write(brief)
    assert digest.headline.startswith("rocket re") and "a real thrust model" in digest.headline
    assert "re-lands the change that adds a real thrust model" in digest.body


def test_prose_checks_catch_what_reads_badly() -> None:
    pulls = busy_day()
    good = write(pulls)
    first = good.action_items[0]
    long_title = next(p.title for p in pulls if len(p.title.split()) >= 5 and ":" not in p.title)
    bad = msgspec.structs.replace(
        good,
        headline="ROCKET LANDS “ADD GIMBAL…”",
        dek="Rocket adds `gimbal\\_lock` to the booster and lands do not hand the pad a list.",
        body="Meanwhile, Add gimbal support [1]. A [1]. The pad adds wind [1]. It rains [1]. "
        "The booster adds gimbal support for the [1].",
        action_items=(
            msgspec.structs.replace(first, text=f"Teams using rocket: evaluate “{long_title}”"),
            *good.action_items[1:],
        ),
    )
    found = "\n".join(problems(bad, pulls))
    for expected in (
        "headline quotes or cuts a title",
        "dek is plain text but has Markdown",
        "capitalises the verb 'Add'",
        "fewer than four words",
        "reference [1] is cited in 5 sentences",
        "ends mid-phrase",
        "action item 1 does not open with an instruction",
        "action item 1 quotes",
        "action item 1 repeats a PR title",
        "dek reads a title's verb as a noun: 'lands do not hand'",
    ):
        assert expected in found, expected


def test_a_reland_is_named_up_front_not_mid_title() -> None:
    assert (
        classify(make_pull("Add notices when a change is reverted or re-landed")).kind == "feature"
    )
    assert classify(make_pull("Reland the gimbal lock")).kind == "reland"
    assert classify(make_pull("Booster: Add gimbal lock (re-land)")).kind == "reland"


def test_an_instruction_with_an_unknown_verb_is_neither_new_nor_repeated() -> None:
    # "Frobnicate" is no verb the lexicon knows: the edition says "a change to frobnicate",
    # no action calls it new, and none repeats its title.
    pulls = [
        make_pull("Frobnicate the valve table on every launch", files=BOOSTER),
        make_pull("Booster: Add gimbal support", files=BOOSTER, minute=1),
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    # A verb the lexicon does not know: the body names the change by its title, marked.
    assert "lands \u201cFrobnicate the valve table on every launch\u201d" in digest.body
    for action in digest.action_items:
        assert "frobnicate the valve table on every launch" not in action.text.lower()
        if "frobnicate" in action.text:
            assert not action.text.startswith("Evaluate"), action.text


def test_a_new_capability_is_tried_and_nothing_generic_is_added() -> None:
    pulls = [
        make_pull("Guidance: add an abort mode", "Any controller can now abort the ascent."),
        make_pull("Docs: write the launch checklist", minute=1),
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    texts = [a.text for a in digest.action_items]
    # What the facts support, and nothing to make up a count ("Skim both changes ...").
    # An abort mode has no name a user could type: news to watch for, not to try.
    assert [instruction_of(t) for t in texts] == ["watch"], texts
    assert texts[0].startswith("If you use Guidance, watch for the change that adds an abort")
    named = [
        make_pull("Guidance: add `abort_ascent()`", "Any controller can now abort the ascent."),
        pulls[1],
    ]
    texts = [a.text for a in write(named).action_items]
    assert texts == [
        "Call abort_ascent() in code that uses Guidance: any controller can now abort the "
        "ascent, on the main branch for the next release"
    ], texts


@pytest.mark.parametrize(
    ("title", "opens"),
    [
        (
            "analyzer: add the `noLooseStaging` rule",
            "Enable the noLooseStaging rule in your rocket",
        ),
        ("Add an environment variable for `ROCKET_DRY_RUN`", "Set ROCKET_DRY_RUN where you run"),
        ("Add `--dry-run` flag to the launcher", "Set --dry-run where you run"),
        ("Add a `countdown` subcommand", "Run the new countdown subcommand from"),
        ("Add `Stage.detach()`", "Call Stage.detach() in code that uses rocket"),
        ("Add support for hydrazine fuel", "Try the new support for hydrazine fuel in rocket"),
    ],
)
def test_a_new_thing_is_taken_up_the_way_users_take_it_up(title: str, opens: str) -> None:
    texts = [a.text for a in write([make_pull(title)]).action_items]
    assert texts and texts[0].startswith(opens), texts


@pytest.mark.parametrize(
    "title",
    [
        "Add error on unsupported --cert in the pad layer",
        "Add scripts/fuel.sh to try the spare pump when it is available",
        "Discover versioned booster executables",
    ],
)
def test_a_title_that_adds_no_nameable_thing_is_not_an_invitation(title: str) -> None:
    texts = [a.text for a in write([make_pull(title)]).action_items]
    assert texts and not any(t.startswith("Try the new") for t in texts), texts


def test_an_invitation_to_try_gives_way_to_what_someone_must_do() -> None:
    new = make_pull("analyzer: add the `noLooseStaging` rule", minute=1)
    crash = make_pull("Fix a crash when the booster detaches twice", files=BOOSTER, minute=2)
    texts = [a.text for a in write([new, crash]).action_items]
    # The fix users hit is the one item; "Enable the rule" beside it is one too many.
    assert len(texts) == 1 and texts[0].startswith("Take the next rocket release"), texts
    assert [a.text[:6] for a in write([new]).action_items] == ["Enable"]


@pytest.mark.parametrize(
    ("title", "body", "opens"),
    [
        ("Remove `rocket.legacy_guidance`", "", "Stop importing rocket.legacy_guidance before"),
        ("Remove the `fuel_hint` option", "", "Stop setting the fuel_hint option in your rocket"),
        ("Delete `LegacyStager`", "", "Migrate your code off LegacyStager before"),
        # A squash that says what it removes only in its description.
        ("Land 41, 42 into main", "* Remove LegacyStager\n\nIt has been removed.", "Migrate "),
    ],
)
def test_a_removal_says_how_to_stop_depending_on_it(title: str, body: str, opens: str) -> None:
    texts = [a.text for a in write([make_pull(title, body)]).action_items]
    assert texts and texts[0].startswith(opens), texts


def test_no_breaking_change_said_is_no_removal() -> None:
    item = classify(
        make_pull("Default loading to mmap-only", "Old callers keep working: no breaking change.")
    )
    assert not item.facts.removes and item.kind != "breaking"


def test_a_title_that_tells_what_a_thing_now_does_is_not_told_as_adding_it() -> None:
    pull = make_pull("GaugeSource now borrows PadSafety", files=BOOSTER)
    digest = write([pull])
    assert "adds GaugeSource" not in digest.body, digest.body


def test_features_named_by_what_they_bring_in_one_story_share_adds() -> None:
    pulls = [
        make_pull("Booster stage: Q4k throttle curves", files=BOOSTER),
        make_pull("Booster stage: gimbal telemetry layer", files=BOOSTER, minute=1),
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    first = digest.body.split("\n\n")[0]
    assert first == (
        "In Booster stage, rocket adds q4k throttle curves [1] and a gimbal telemetry layer [2]."
    ), first


def test_a_change_its_title_cannot_shorten_is_named_by_number_not_cut_mid_phrase() -> None:
    pulls = [make_pull("Gimbal lock more stages", files=BOOSTER)]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    texts = " ".join(a.text for a in digest.action_items)
    assert f"pull request #{pulls[0].number}" in texts, texts
    assert "gimbal lock more " not in texts.lower(), texts


def test_what_a_change_touches_says_its_kind_for_repository_files_and_images() -> None:
    owners = classify(make_pull("Update the owners of the pad", files={"CODEOWNERS": (3, 1)}))
    assert owners.kind == "chore"
    readme = {"stages/booster/README.md": (20, 2), "stages/booster/curves.png": (None, None)}
    assert classify(make_pull("Refresh the booster readme", files=readme)).kind == "docs"


def test_a_place_is_grounded_by_the_paths_of_what_an_item_cites() -> None:
    from digest.summarize.checks import grounding_problems

    files = {"stages/pybindings/launch.cpp": (40, 5), "stages/pybindings/README.md": (3, 1)}
    pulls = [make_pull("Frobnicate the pad", files=files)]
    digest = write(pulls)
    held = msgspec.structs.replace(
        digest.action_items[0], text="Hold off on building on the pad in stages/pybindings/"
    )
    assert grounding_problems(msgspec.structs.replace(digest, action_items=(held,)), pulls) == []


def test_a_breaking_change_says_what_its_description_warns_of() -> None:
    breaking = make_pull(
        "feat(config)!: read the thrust table from the manifest",
        "Moves the table.\n\nBREAKING CHANGE: callers that pass `thrust_table` to launch() "
        "must move it into the manifest.",
        files=BOOSTER,
    )
    texts = [a.text for a in write([breaking]).action_items]
    assert texts[0].startswith("Check your code before you next upgrade rocket, as its descr")
    assert "callers that pass thrust_table to launch() must move it into the manifest" in texts[0]
    # The body says so too, not only the action item.
    body = write([breaking]).body
    assert "Its description warns: callers that pass thrust\\_table to launch() must" in body, body


def test_a_breaking_note_wrapped_over_lines_is_read_whole_past_what_still_works() -> None:
    breaking = make_pull(
        "[bc-breaking] Generalize ValveConfig beyond steel",
        "**Summary:** Valves may be brass too.\n\n**BC-breaking notes:** For BC, we keep the old\n"
        "names around. However, a few calls now take the abstract\n`ValveConfigBase` instead.\n\n"
        "**Test Plan:** run the tests",
        files=BOOSTER,
    )
    texts = [a.text for a in write([breaking]).action_items]
    assert texts[0].endswith(
        "as its description warns: a few calls now take the abstract ValveConfigBase instead"
    ), texts


def test_a_description_sentence_that_tells_another_change_of_the_day_is_not_retold() -> None:
    told = make_pull(
        "Add gimbal lock detection",
        "Depends on the next change.\n\nExtend ValveConfig to simulate pressure drops.",
        files=BOOSTER,
    )
    other = make_pull("Extend ValveConfig to simulate pressure drops", files=BOOSTER)
    body = write([told, other]).body
    assert body.count("simulate pressure drops") == 1, body


PROTOTYPE = {"src/prototype/gimbal.py": (0, 90)}


@pytest.mark.parametrize(
    ("title", "body", "files", "says"),
    [
        (
            "Remove launch_legacy()",
            "Use `launch()` instead.",
            BOOSTER,
            "from launch_legacy() to launch()",
        ),
        # Its own word for it, said once: in the title, or after it when only the path says so.
        (
            "Remove the prototype gimbal API",
            "",
            BOOSTER,
            "Migrate your code off the prototype gimbal API before",
        ),
        ("Remove the gimbal API", "", PROTOTYPE, "off the gimbal API (prototype) before"),
        ("Remove the legacy valve API", "It was deprecated in 1.2.", BOOSTER, "deprecated earlier"),
    ],
)
def test_a_removal_says_what_to_move_to_when_it_is_said(
    title: str, body: str, files: dict, says: str
) -> None:
    texts = [a.text for a in write([make_pull(title, body, files=files)]).action_items]
    assert any(says in text for text in texts), texts


def test_a_package_released_alone_carries_none_of_the_days_fixes() -> None:
    pulls = [
        make_pull("release pyo3-rocket", files={"pyo3-rocket/Cargo.toml": (2, 2)}),
        make_pull("fix: crash when the fuel gauge reads NaN", files=BOOSTER, minute=1),
    ]
    texts = [a.text for a in write(pulls).action_items]
    # The release, told by no notes, has no item of its own beside the fix's better one.
    assert len(texts) == 1 and texts[0].endswith("merged and not yet released"), texts
    alone = [a.text for a in write(pulls[:1]).action_items]
    assert alone[0].startswith("Read the release notes of pyo3-rocket before you upgrade it: ")


def test_an_item_any_change_would_have_is_left_out_beside_a_better_one() -> None:
    pulls = [
        make_pull("Add the gimbal_trim helper", files=BOOSTER),
        make_pull("Remove the legacy ignite() API", files=BOOSTER, minute=1),
    ]
    texts = [a.text for a in write(pulls).action_items]
    assert not any("new on the main branch" in text for text in texts), texts
    assert len(write(pulls[:1]).action_items) == 1  # alone, the plain item is still given


def test_a_language_scope_is_no_place_in_a_sentence() -> None:
    pulls = [
        make_pull("feat: add a gimbal lock", files=BOOSTER),
        make_pull("fix(rust): set the head estimate to zero", files=BOOSTER, minute=1),
    ]
    body = write(pulls).body
    assert "in rust," not in body.lower()


@pytest.mark.parametrize(
    ("title", "says"),
    [
        ("drop PyTorch <2.10 support", "Move to PyTorch 2.10 or later wherever you use rocket"),
        ("Drop Python 3.9 and older support", "Move to a Python newer than 3.9 wherever"),
        ("Remove support for CUDA 11.8", "it drops support for CUDA 11.8"),
    ],
)
def test_a_dropped_platform_says_what_to_move_to(title: str, says: str) -> None:
    digest = write([make_pull(title, files=BOOSTER)])
    assert digest.action_items[0].text.startswith("Move to"), digest.action_items
    assert says in digest.action_items[0].text


def test_a_new_required_version_is_the_users_to_install_only_for_a_toolchain() -> None:
    sdk = make_pull("Bump the Vulkan SDK to 1.4.350.0", files=BOOSTER)
    bundled = make_pull("feat: update thrustlib to 2.0.0", files=BOOSTER)
    assert any(a.text.startswith("Update to Vulkan SDK") for a in write([sdk]).action_items)
    assert not any(a.text.startswith("Update to") for a in write([bundled]).action_items)


def test_no_hold_off_for_a_revert_of_tests_or_a_revert_that_is_the_fix() -> None:
    tests_only = make_pull("Re-enable the ignition tests", files={"tests/test_ignition.py": (9, 1)})
    back = revert_of(tests_only)  # its files are those of what it reverts: tests
    mending = make_pull("rt: revert #12 to fix a regression that makes the countdown hang")
    for pulls in ([tests_only, back], [mending]):
        assert not any(a.text.startswith("Hold") for a in write(pulls).action_items)


def test_no_hold_off_for_a_revert_of_a_change_to_wording() -> None:
    wording = make_pull("Fix duplicated words in gauge comments", files=BOOSTER)
    pulls = [wording, revert_of(wording)]
    assert not any(a.text.startswith("Hold") for a in write(pulls).action_items)


def test_a_fix_of_a_value_dropped_is_a_wrong_result_to_take_the_release_for() -> None:
    pulls = [
        make_pull(
            "Fix `fuel_extra` dict being dropped when a callable follows it in `Stage`",
            files=BOOSTER,
        ),
        make_pull("Bump the pad runner", files={".github/workflows/ci.yml": (1, 1)}, minute=1),
    ]
    (action,) = write(pulls).action_items
    assert action.text.startswith("Take the next rocket release when it is out if you have hit")
    assert "wrong results" in action.text


def test_more_of_what_was_there_is_nothing_to_try() -> None:
    pulls = [make_pull("Add more derives for `CountdownPolicy`", files=BOOSTER)]
    (action,) = write(pulls).action_items
    assert not action.text.startswith("Try"), action.text
    # Nor is `CountdownPolicy` what it adds.
    assert "it adds CountdownPolicy" not in action.text, action.text


@pytest.mark.parametrize(
    ("title", "kind"),
    [
        ("Change the letter Q to D in comments", "docs"),
        ("Fix duplicated words in v1 comments", "docs"),
        ("Format comments after arrows in the printer", "feature"),
        ("Remove unneeded include of iostream", "refactor"),
        ("Arm backend: Remove the silu decomposition pass", "refactor"),
        ("Drop the _loaded_options ivar from the bindings", "refactor"),
        ("Remove the legacy launch API", "breaking"),
    ],
)
def test_a_removal_of_internals_breaks_nothing(title: str, kind: str) -> None:
    assert classify(make_pull(title, files=BOOSTER)).kind == kind


def test_a_deprecation_warning_removes_nothing() -> None:
    item = classify(make_pull("Add deprecation warning for `LegacyLayout`", "It is deprecated."))
    assert item.facts.deprecates and not item.facts.removes


def test_a_day_of_upkeep_only_says_to_skip_it_and_why() -> None:
    docs = make_pull("Document the countdown", files={"docs/countdown.md": (30, 2)})
    tests = make_pull("Add tests for the gauge", files={"tests/test_gauge.py": (40, 0)})
    (action,) = write([docs, tests]).action_items
    assert action.text.startswith("Skip today's rocket changes if you only use rocket")
    assert action.urgency is Urgency.MONITOR


def test_a_watched_feature_with_nothing_named_claims_nothing_to_call() -> None:
    (action,) = write([make_pull("Encode explicit ancestry in nominal instances")]).action_items
    assert action.text.startswith("Watch for the change that encodes explicit ancestry")
    # No filler reason ("it changes what the next release does"): nothing more is known.
    assert action.text.endswith("in the next rocket release"), action.text


@pytest.mark.parametrize(
    ("title", "enable"),
    [
        ("Add the nursery rule `noLooseBolts`", True),
        ("Add `no-loose-bolts` rule", True),
        ("Add channel-wise gated delta rule custom op", False),
    ],
)
def test_a_rule_is_a_lint_rule_only_when_the_title_says_so(title: str, enable: bool) -> None:
    texts = [a.text for a in write([make_pull(title, files=BOOSTER)]).action_items]
    assert any(t.startswith("Enable") for t in texts) is enable, texts


def test_a_new_rule_is_enabled_for_what_it_reports_and_never_for_its_test_file() -> None:
    pull = make_pull(
        "feat(lint): add `noLooseBolts`",
        "Adds a new nursery rule `noLooseBolts` that disallows bolts left without a washer.",
        files={"src/rocket/lint.py": (300, 10), "tests/specs/noLooseBolts/valid.js": (80, 0)},
    )
    texts = [a.text for a in write([pull]).action_items]
    assert texts == [
        "Enable the new noLooseBolts rule in your rocket configuration: it disallows "
        "bolts left without a washer, from the next release"
    ], texts


def test_a_crash_fixed_further_down_beats_a_bare_try_at_the_top() -> None:
    pulls = [
        make_pull("Add gimbal lock registry", files={"src/rocket/gimbal.py": (900, 10)}),
        make_pull("Add pad light schedule", files={"src/rocket/pad.py": (700, 10)}, minute=1),
        make_pull("Add fuel gauge colours", files={"src/rocket/fuel.py": (600, 10)}, minute=2),
        make_pull(
            "Fix regression in countdown timing", files={"src/rocket/t.py": (5, 2)}, minute=3
        ),
    ]
    digest = write(pulls)
    assert "[4]" in digest.body  # told fourth, where only a strong recipe is tried
    texts = [a.text for a in digest.action_items]
    assert texts == [
        "Take the next rocket release when it is out if you have hit a regression in countdown "
        "timing: the fix is merged and not yet released"
    ], texts


def test_new_support_for_what_users_already_use_is_for_them() -> None:
    pull = make_pull(
        "Add support for sentinel gauges",
        "Adds support for gauge_kit.Sentinel in launch plans.",
        files=BOOSTER,
    )
    texts = [a.text for a in write([pull]).action_items]
    assert texts[0].startswith("If you use gauge_kit.Sentinel, try the new support"), texts


def test_a_pre_release_is_for_those_moving_to_the_line_it_previews() -> None:
    notes = "## 8.1.0-beta.2\n### Features\n\n* integrate telemetry ([#31](https://x/31))\n"
    beta = make_pull("release: v8.1.0-beta.2", files={"CHANGELOG.md": (6, 0)}, notes=notes)
    (action,) = write([beta]).action_items
    assert action.text.startswith(
        "If you plan to move to rocket 8.1, try version 8.1.0-beta.2 on a branch before the "
        "stable release: its notes list"
    ), action.text


def test_a_patch_of_an_older_line_follows_the_days_news_and_speaks_to_its_users() -> None:
    notes = "# 1.9.4\n\n### Fixed\n\n* pump: fix panic in `Pump::drain` on a closed valve\n"
    patch = make_pull(
        "Merge tag 'rocket-1.9.4'",
        files={"CHANGELOG.md": (6, 0), "src/rocket/pump.py": (5, 9)},
        notes=notes,
        older_line=True,
    )
    stable = make_pull("runtime: stabilize `LaunchRuntime`", minute=1)
    digest = write([patch, stable])
    assert digest.headline.startswith("rocket stabilizes LaunchRuntime"), digest.headline
    texts = [a.text for a in digest.action_items]
    assert any(
        t.startswith("Upgrade rocket to version 1.9.4 soon if you stay on its 1.9 line and use ")
        for t in texts
    ), texts
    assert any(t.startswith("Plan to adopt LaunchRuntime, or drop the preview") for t in texts)
    assert "releases version 1.9.4 for its older 1.9 line" in digest.body
    assert "fix panic in `Pump::drain`" in digest.body  # what the patch carries is still told


def test_a_days_releases_of_one_package_are_one_story_told_by_the_newest() -> None:
    releases = [
        make_pull(
            f"🔖 Release version 0.9.{n}",
            files={"CHANGELOG.md": (4, 0), "rocket/__init__.py": (1, 1)},
            notes=f"## 0.9.{n}\n\n### Fixes\n\n* Fix the countdown when paused, take {n}.\n",
            minute=n,
        )
        for n in (1, 2, 3)
    ]
    digest = write(releases)
    assert digest.headline.startswith("rocket releases version 0.9.3"), digest.headline
    first = digest.body.split("\n\n")[0]
    assert first.startswith("The rocket project releases version 0.9.3 [1]"), first
    assert "take 3" in first and "take 1" not in first
    assert digest.action_items[0].text.startswith("Upgrade rocket to version 0.9.3")


def test_a_change_with_no_instruction_points_at_the_page_that_shows_it() -> None:
    pull = make_pull(
        "Specify staging passes through config",
        files={"src/rocket/stages.py": (60, 5), "docs/staging.md": (30, 0)},
    )
    (action,) = write([pull]).action_items
    assert action.text == (
        "Read the page docs/staging.md before the next rocket release: it documents the change "
        "that specifies staging passes through config"
    ), action.text


def test_a_new_thing_says_where_it_is_shown_and_a_new_default_is_re_tested() -> None:
    example = make_pull(
        "Add the `LaunchPlanner` class",
        files={"src/rocket/planner.py": (120, 0), "examples/plan_launch.py": (40, 0)},
    )
    (action,) = write([example]).action_items
    assert "the example examples/plan_launch.py shows how" in action.text, action.text
    default = make_pull("Enable fused staging by default")
    (action,) = write([default]).action_items
    assert action.text == (
        "Re-test what you run when you next update rocket: it turns fused staging on by default"
    )
    scoped = make_pull("float8: enable on the gfx942 boards via has_capability")
    (action,) = write([scoped]).action_items
    assert action.text.startswith("Try float8 on the gfx942 boards via has_capability in "), (
        action.text
    )


@pytest.mark.parametrize(
    ("title", "tidied"),
    [
        ("PR2/N — Add the countdown task", "Add the countdown task"),
        ("PR3: Countdown orchestrator", "Countdown orchestrator"),
        ("[Launch] PR3: Countdown orchestrator", "[Launch] Countdown orchestrator"),
        ("[3/4] Add the countdown task", "Add the countdown task"),
        ("2/3rds of the stages refuel", "2/3rds of the stages refuel"),
        # The issues a title closes: its references link them.
        ("Skip stale gauges (fixes #95, #94)", "Skip stale gauges"),
        ("Skip stale gauges, closes #95 and #94", "Skip stale gauges"),
    ],
)
def test_a_part_of_a_series_is_told_without_its_number(title: str, tidied: str) -> None:
    from digest.summarize.stories import tidy

    assert tidy(title) == tidied
    assert classify(make_pull("add launch-guide.md")).kind == "docs"


def test_a_change_marked_breaking_says_so_and_what_to_check() -> None:
    pull = make_pull(
        "feat(legacy)!: raise the browser threshold to `import.meta.resolve` support",
        files={"packages/plugin-legacy/src/index.ts": (17, 13)},
    )
    digest = write([pull])
    assert "Its author marks the change as breaking [1]." in digest.body, digest.body
    (action,) = digest.action_items
    assert action.text.startswith(
        "Check what you build on the plugin-legacy package before you next upgrade rocket: "
    ), action.text
    assert action.text.endswith("a change its author marks as breaking")


def test_a_fix_is_told_by_the_note_it_writes_for_users() -> None:
    pull = make_pull(
        "fix(pad): changes manifest corruption",
        files={"src/rocket/pad.py": (40, 1), ".changeset/calm-owls.md": (5, 0)},
        fragment="Fixed #9: Fixed a pad crash that could corrupt the manifest when saving.",
    )
    digest = write([pull])
    assert problems(digest, [pull]) == []
    assert digest.headline.startswith("rocket fixes a pad crash that could corrupt"), (
        digest.headline
    )
    first = digest.body.split("\n\n")[0]
    assert first.count("corrupt the manifest") == 1, first
    assert "changes manifest corruption" not in digest.body


def test_a_revert_of_a_chore_is_no_news_and_a_fault_is_named_as_a_noun() -> None:
    chore = make_pull(
        'Revert "[pad] Add myself to the reviewer pool"', files={"CODEOWNERS": (0, 1)}
    )
    fix = make_pull(
        "[pad] Only unsoundly upcast stage types during checks", minute=1, files=BOOSTER
    )
    fix = msgspec.structs.replace(fix, title="[pad] Fix unsound upcast of stage types")
    digest = write([chore, fix])
    assert "reviewer pool" not in digest.headline, digest.headline
    from digest.summarize.kinds import symptom

    assert symptom("Only unsoundly upcast stage types") == "undefined behaviour"
    assert symptom("fix out-of-bounds read in the table") == "a memory-safety bug"


def test_an_only_action_item_that_breaks_a_rule_gives_way_to_the_change_to_watch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from digest.summarize.extractive import writer
    from digest.summarize.extractive.drafting import Action

    pull = make_pull("Add a launch countdown to the pad")
    invented = Action("Plan", "Plan the zorblax quux frobnication", Urgency.PLAN, (), pull.repo)
    monkeypatch.setattr(writer, "draft_actions", lambda *args: [invented])
    digest = write([pull])
    assert problems(digest, [pull]) == []
    (action,) = digest.action_items
    assert action.text.startswith("Watch for the change that adds a launch countdown"), action


def test_a_deprecation_warning_plans_the_move_from_what_it_warns_of() -> None:
    pull = make_pull("Add deprecation warning for `LegacyStagerConfigurationForBoostersV2`")
    texts = [a.text for a in write([pull]).action_items]
    assert texts[0].startswith("Plan the move away from LegacyStagerConfigurationForBoostersV2 "), (
        texts
    )


@pytest.mark.parametrize(
    ("title", "says"),
    [
        ("Enable fused staging by default", "it turns fused staging on by default"),
        ("Disable telemetry uploads by default", "it turns telemetry uploads off by default"),
    ],
)
def test_a_default_is_turned_the_way_its_title_says(title: str, says: str) -> None:
    texts = [a.text for a in write([make_pull(title)]).action_items]
    assert texts[0].endswith(says), texts


def test_review_cases_read_as_they_are_meant() -> None:
    from digest.sources._gitlog import older_line
    from digest.summarize.clean import summarize_fragment
    from digest.summarize.kinds import style_only

    # A deprecation of something named in words plans the move from the change, not "the".
    texts = [
        a.text
        for a in write([make_pull("Add deprecation warning for the old loader")]).action_items
    ]
    assert not texts[0].startswith("Plan the move away from the in"), texts
    # A note that opens with a participle is not a changelog verb.
    assert not summarize_fragment("Deprecated options are now rejected.", "x").startswith("It ")
    assert summarize_fragment("Fixed a crash in the pump.", "x") == "It fixes a crash in the pump."
    # A version in a note's text is no heading: the patch is still of an older line.
    notes = "# 1.47.4\n\n* Python 3.14 is now supported.\n"
    assert older_line("Merge tag 'rocket-1.47.4'", notes, ["# 1.51.0\n\n# 1.47.4\n"])
    assert classify(make_pull("Stabilize memory usage of the allocator")).facts.stabilizes is False
    assert not style_only(make_pull("Format numbers with locale separators"))


@pytest.mark.parametrize(
    ("folder", "opening"),
    [
        # A workspace's own product is the subject of what it does ...
        ("crates/skyhook_telemetry/src/lib.rs", "The skyhook project adds a telemetry dashboard"),
        ("packages/skyhook/src/index.ts", "The skyhook project adds a telemetry dashboard"),
        # ... a folder of another name keeps the area a place.
        ("backends/skyhook/engine.py", "In skyhook, rocket adds a telemetry dashboard"),
        ("crates/rocket_skyhook/src/lib.rs", "In skyhook, rocket adds a telemetry dashboard"),
    ],
)
def test_an_area_that_names_a_product_of_the_workspace_is_its_subject(
    folder: str, opening: str
) -> None:
    pulls = [make_pull("[skyhook] Add a telemetry dashboard", files={folder: (80, 2)})]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert digest.body.startswith(opening), digest.body


@pytest.mark.parametrize(
    ("title", "who"),
    [
        # The fault the title names is who the item is for, with its article.
        ("Fix a crash when the fuel gauge reads NaN", "if you have hit a crash when the fuel"),
        ("Fix missing memory barrier for aliased tensors", "if you have hit a missing memory"),
        ("Fix incorrect results for staged burns", "if you have hit incorrect results for"),
        # A fault said only by the text is said where it was, and the change says what.
        (
            "booster: do not deadlock when cancelling the countdown",
            "if you have hit a deadlock when cancelling the countdown in booster: the fix",
        ),
    ],
)
def test_a_fix_item_is_for_whoever_hit_the_fault(title: str, who: str) -> None:
    pulls = [make_pull(title, files=BOOSTER)]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    text = digest.action_items[0].text
    assert text.startswith("Take the next rocket release when it is out "), text
    assert who in text and text.endswith("not yet released"), text


def test_something_new_in_a_prototype_folder_is_said_to_be_unsettled() -> None:
    pulls = [make_pull("Add `gimbal_lock()` for staged burns", files=PROTOTYPE)]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert any(
        "lands in src/prototype on the main branch, so it may still change" in a.text
        for a in digest.action_items
    ), digest.action_items


def test_titles_written_from_one_pattern_share_a_line_of_the_closing_list() -> None:
    crates = ["serde to v1.0.9", "regex to v1.12.3", "anyhow to v1.0.101", "quote to v1.0.44"]
    pulls = [
        make_pull("Add a telemetry dashboard for the countdown", files=BOOSTER),
        *[
            make_pull(f"Update Rust crate {c}", files={"Cargo.lock": (2, 2)}, minute=i + 1)
            for i, c in enumerate(crates)
        ],
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    lines = [line for line in digest.body.splitlines() if "Update Rust crate" in line]
    assert len(lines) == 1, digest.body
    assert lines[0].startswith("- Update Rust crate ") and lines[0].count("[") == 4, lines
    for crate in crates:
        assert crate.replace(".", "\\.") in lines[0] or crate in lines[0], lines


def test_a_rule_taken_away_is_dropped_from_the_configuration() -> None:
    pulls = [make_pull("[rocketlint] Remove `gimbal-drift` (`RKT042`)", files=BOOSTER)]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    text = digest.action_items[0].text
    assert text.startswith("Drop gimbal-drift (RKT042) from the rules your rocket configuration"), (
        text
    )


def test_a_note_with_a_dotted_name_tells_its_change() -> None:
    pulls = [
        make_pull(
            "fix(cli): toml shouldn't be enabled",
            files=BOOSTER,
            fragment="Fixed an issue where `.toml` files were wrongly linted by `rocket check`.",
        )
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert "fixes an issue where `.toml` files were wrongly linted" in digest.body, digest.body


@pytest.mark.parametrize(
    ("title", "opening"),
    [
        ("Add a fused Triton kernel for thrust tables", "Benchmark the new fused Triton kernel"),
        ("Add `burn_planner()` support for Blackwell", "Test the new burn_planner() support"),
        ("Add `burn_window` parameter to `plan_burn`", "Pass the new burn_window parameter to"),
        ("gauge: add `read_with` for custom sampling", "Call read_with for custom sampling"),
        ("task: add `GaugeMap::try_read_next`", "Call GaugeMap::try_read_next in code that uses"),
        # An existing flag a command now takes is passed to that command.
        ("Add `--fuel-map` support for `rocket pad list`", "Pass --fuel-map to rocket pad list"),
        # Where a thing is added is what it is for; a purpose stays one.
        ("Add 'try_read' method to the gauge types", "Try the new 'try_read' method for the"),
        ("Add a stage to gauge device mapping", "Try the new stage to gauge device mapping"),
        # A kernel named after what it is added to is no kernel to benchmark.
        ("Add `burn_stats()` to kernel benchmarks", "Try the new burn_stats()"),
    ],
)
def test_something_new_is_taken_up_as_what_it_is(title: str, opening: str) -> None:
    pulls = [make_pull(title, files=BOOSTER)]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert digest.action_items[0].text.startswith(opening), digest.action_items


def test_a_day_to_watch_points_to_the_page_its_change_writes() -> None:
    pulls = [
        make_pull(
            "Rework the staging planner heuristics",
            files={"src/rocket/planner.py": (90, 40), "src/rocket/README.md": (30, 2)},
        )
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    text = digest.action_items[0].text
    assert text.startswith("Read the page src/rocket/README.md before the next rocket release"), (
        text
    )


def test_a_revert_done_again_another_way_the_same_day_is_nothing_to_wait_for() -> None:
    first = make_pull("Emit telemetry frames for multi-stage burn headers", files=BOOSTER)
    redo = make_pull("Emit telemetry frames for an entire burn", files=BOOSTER, minute=30)
    alone = [first, revert_of(first)]
    assert any(a.text.startswith("Hold off") for a in write(alone).action_items)
    digest = write([*alone, redo])
    assert problems(digest, [*alone, redo]) == []
    assert not any(a.text.startswith("Hold off") for a in digest.action_items), digest


@pytest.mark.parametrize(
    ("tag", "place"),
    [
        ("Compiler", "In the compiler, rocket"),
        ("metal", "In the Metal backend, rocket"),
        ("diagnostic", "In the diagnostics, rocket"),
        ("parser", "In the parser, rocket"),
    ],
)
def test_a_terse_or_capitalised_tag_is_named_as_the_place_it_is(tag: str, place: str) -> None:
    pulls = [make_pull(f"[{tag}] Add a gimbal lock registry", files=BOOSTER)]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert digest.body.startswith(place), digest.body


@pytest.mark.parametrize(
    ("title", "files", "opening"),
    [
        ("[autotuner] Autotuner heuristics", BOOSTER, "Re-benchmark your workloads when the next"),
        (
            "[autotuner] Autotuner heuristics for kernels",
            {"rocket/autotune/kernel_rules.py": (90, 9)},
            "Re-benchmark the kernels you autotune with rocket when the next",
        ),
        (
            "fix(stage_formatter): align gauge comments",
            BOOSTER,
            "Review what rocket format changes",
        ),
        ("Narrow burn overloads by stage", BOOSTER, "Review what rocket reports on your code"),
    ],
)
def test_a_day_to_watch_says_what_to_run_again(title: str, files: dict, opening: str) -> None:
    pulls = [make_pull(title, files=files)]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert digest.action_items[0].text.startswith(opening), digest.action_items


def test_a_fix_told_as_what_no_longer_happens_is_for_whoever_hit_it() -> None:
    pulls = [make_pull("Do not crash for `launch / --stage foo`", files=BOOSTER)]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    text = digest.action_items[0].text
    assert "if you have hit a crash for launch / --stage foo: the fix is merged" in text, text


@pytest.mark.parametrize(
    ("title", "check"),
    [
        ("fix(dev): disable glob braces for consistency", True),
        ("fix: disable flaky gauge tests on stage two", False),
        ("feat: disable the legacy valve warnings", False),
    ],
)
def test_turning_off_what_users_may_rely_on_asks_them_to_check(title: str, check: bool) -> None:
    pulls = [make_pull(title, files=BOOSTER)]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    texts = [a.text for a in digest.action_items]
    assert any(t.startswith("Check whether you rely on glob braces") for t in texts) is check, texts


def test_a_default_turned_on_as_default_is_re_tested() -> None:
    pulls = [make_pull("Turn on staged fuel planning as default", files=BOOSTER)]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert digest.action_items[0].text == (
        "Re-test what you run when you next update rocket: it turns staged fuel planning on "
        "by default"
    )


def test_something_new_is_said_by_what_its_description_adds_to_its_title() -> None:
    body = "The change adds a shared registry for gauge readers that any stage can query by key."
    pulls = [make_pull("Add a `GaugeRegistry` for the stages", body, files=BOOSTER)]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert "the change adds a shared registry for gauge readers that any stage can query" in (
        digest.action_items[0].text
    ), digest.action_items


def test_a_constant_named_in_a_title_is_no_setting_to_set() -> None:
    pulls = [make_pull("net: surface errors from `GAUGE_ERROR` on read for fuel sockets")]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert not any(a.text.startswith("Set ") for a in digest.action_items), digest.action_items
    assert "which users can call" not in digest.action_items[0].text
    named = write([make_pull("Add an environment variable for `ROCKET_NO_COUNTDOWN`")])
    assert named.action_items[0].text.startswith("Set ROCKET_NO_COUNTDOWN where you run rocket")


def test_a_series_tag_is_no_place() -> None:
    pulls = [make_pull("[gauge device 1/n] introduce the cuda gauge type", files=BOOSTER)]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert "1/n" not in digest.body.split("[1]")[0], digest.body


def test_a_day_whose_every_item_breaks_a_rule_still_has_its_edition(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from digest.summarize.extractive import writer
    from digest.summarize.extractive.drafting import Action

    pull = make_pull("Add a launch countdown to the pad")
    invented = Action("Plan", "Plan the zorblax quux frobnication", Urgency.PLAN, (), pull.repo)
    monkeypatch.setattr(writer, "draft_actions", lambda *args: [invented])
    monkeypatch.setattr(
        writer,
        "watch_action",
        lambda item, name, changes, audience: Action(
            "Watch", "Watch the zorblax quux", Urgency.MONITOR, (item,), item.pull.repo
        ),
    )
    digest = write([pull])
    assert problems(digest, [pull]) == []
    (action,) = digest.action_items
    assert action.text.startswith(f"Watch for pull request #{pull.number} in the next rocket"), (
        action
    )


@pytest.mark.parametrize(
    ("title", "opens"),
    [
        (
            "fix(noLooseBolts): handle bolts in nested brackets",
            "If your rocket configuration enables noLooseBolts, take the next rocket release",
        ),
        (
            "[`pylint`] Skip `loose-bolt` (`RKT104`) for welded joints",
            "If your rocket configuration selects RKT104, check what it changes for you in the",
        ),
        (
            "Respect the countdown setting in `rocket launch --dry-run`",
            "If you run rocket launch --dry-run, take the next rocket release",
        ),
        ("fix: read the fuel table on Windows", "If you run rocket on Windows, take the next"),
        ("feat(md): parse front matter in fuel notes", "If you use rocket on Markdown files"),
        ("fix(js_lint): keep bolts sorted", "If you use rocket on JavaScript files, take the"),
        ("Raise the max value of `burn-time` setting", "If you set burn-time, check what it"),
        ("Keep timers on their runtime after `.reset()`", "If you call reset(), take the next"),
        ("fix: sort the stages of `scan_fuel` by time", "If you use scan_fuel, take the next"),
        ("fix: defer error rendering in forks", "If you use forks, take the next rocket release"),
        ("[Lights] Lower the light level at night", "If you use Lights, check what it changes"),
        ("Add dry-run parameter for launch", "If you call launch(), try the next rocket release"),
        ("Add a parameter for the launch", "Watch for the change that adds a parameter"),
    ],
)
def test_a_watched_change_is_addressed_to_who_uses_what_it_touches(title: str, opens: str) -> None:
    (action,) = write([make_pull(title, files=BOOSTER)]).action_items
    assert action.text.startswith(opens), action.text


def test_a_fix_of_a_function_named_as_code_names_it_is_for_who_calls_it() -> None:
    pull = make_pull(
        "Fix launch_with_stage_plan to respect held stages",
        "It silently drops them.",
        files=BOOSTER,
    )
    (action,) = write([pull]).action_items
    assert action.text.startswith("If you call launch_with_stage_plan, take the next"), action.text


def test_a_scope_that_names_a_module_is_who_uses_that_module() -> None:
    pull = make_pull(
        "timer: keep timers on their runtime", files={"rocket/src/timer_alt/t.rs": (90, 9)}
    )
    (action,) = write([pull]).action_items
    assert action.text.startswith("If you use rocket's timer module, take the next"), action.text


def test_a_scope_that_is_a_product_of_its_own_is_no_module_of_the_repository() -> None:
    pull = make_pull(
        "[pad] Avoid timer narrowing",
        "The example below currently panics.",
        files={"crates/pad_core/t.rs": (90, 9)},
    )
    texts = [a.text for a in write([pull]).action_items]
    assert texts == [
        "Take the next rocket release when it is out if you have hit a panic in pad: pad avoids "
        "timer narrowing, merged and not yet released"
    ], texts


def test_a_watched_change_that_says_nothing_of_its_users_is_watched_plainly() -> None:
    (action,) = write([make_pull("fix: tidy the gimbal state", files=BOOSTER)]).action_items
    # Named by its number when its title says too little, never "the change that is #N".
    assert action.text.startswith("Watch for pull request #"), action.text


@pytest.mark.parametrize(
    ("text", "instructs"),
    [
        ("If you run rocket on Windows, take the next release: it reads the table", True),
        ("When the next release is out, re-test the pad", True),
        ("If you run rocket on Windows, the next release reads the table", False),
        ("Teams using rocket: evaluate the pad", False),
    ],
)
def test_an_item_may_open_with_who_it_is_for_before_its_instruction(
    text: str, instructs: bool
) -> None:
    assert (instruction_of(text).lower() in ACTION_VERBS) is instructs


@pytest.mark.parametrize(
    ("title", "op", "backend", "folder"),
    [
        (
            "Arm backend: Add support for `aten.gimbal.default`",
            "aten.gimbal.default",
            "the Arm backend",
            "arm",
        ),
        ("Arm backend: Add TOSA dialect op for RESIZE", "RESIZE", "the Arm backend", "arm"),
        # No area in the title: the folder its code is in names the backend.
        ("Support cosine operator on XNNPACK", "cosine", "the XNNPACK backend", "xnnpack"),
        ("Add the rms_norm op", "rms_norm", "the WebGPU backend", "webgpu"),
        ("[WebGPU] Add rms_norm op", "rms_norm", "WebGPU", "webgpu"),
    ],
)
def test_a_backend_that_gains_an_op_asks_its_users_to_re_export(
    title: str, op: str, backend: str, folder: str
) -> None:
    pull = make_pull(title, files={f"backends/{folder}/ops.py": (120, 4)})
    (action,) = write([pull]).action_items
    assert action.text.startswith(
        f"Re-export the models that use {op} for {backend} once the next rocket release is out"
    ), action.text


@pytest.mark.parametrize(
    ("title", "body", "opens"),
    [
        (
            "Add deprecation warning for `ThrustConfig`",
            "Users are advised to switch to ThrustTableConfig with the same fields.",
            "Move from ThrustConfig to ThrustTableConfig in rocket: ThrustConfig is now deprecated",
        ),
        (
            "Deprecate v1 of `ThrustConfig`",
            "",
            "Check which version of ThrustConfig your code builds and move off v1",
        ),
        (
            "Add a deprecation warning for delayed staging",
            "",
            "Plan the move away from delayed staging in rocket: it is now deprecated",
        ),
    ],
)
def test_a_deprecation_says_what_to_move_to_when_it_can(title: str, body: str, opens: str) -> None:
    (action,) = write([make_pull(title, body, files=BOOSTER)]).action_items
    assert action.text.startswith(opens), action.text


def test_suppressing_deprecation_warnings_deprecates_nothing() -> None:
    pull = make_pull("Suppress deprecation warnings from #41 and #42", files=BOOSTER)
    assert not classify(pull).facts.deprecates


def test_an_op_added_outside_a_backend_is_no_re_export() -> None:
    pull = make_pull("Add gimbal_lock op", files={"src/rocket/ops.py": (120, 4)})
    texts = [a.text for a in write([pull]).action_items]
    assert not any(t.startswith("Re-export") for t in texts), texts


def test_a_bare_try_gives_way_to_who_the_change_is_for() -> None:
    pull = make_pull(
        "Arm backend: Add gimbal trace support", files={"backends/arm/trace.py": (120, 4)}
    )
    (action,) = write([pull]).action_items
    assert action.text.startswith("If you use the Arm backend, try the next rocket release"), (
        action.text
    )


@pytest.mark.parametrize(
    "title",
    ["Add a fused gimbal kernel for the booster", "Support complex format chars for thrust.pack"],
)
def test_a_recheck_follows_what_the_change_touches_not_a_word_of_its_title(title: str) -> None:
    texts = [a.text for a in write([make_pull(title, files=BOOSTER)]).action_items]
    assert not any(t.startswith(("Re-benchmark", "Review what rocket format")) for t in texts)


def test_a_fault_named_after_what_it_hit_is_who_the_fix_is_for() -> None:
    title = "Fix int8 gauge calibration accuracy regression from the v2 sensor migration"
    (action,) = write([make_pull(title, files=BOOSTER)]).action_items
    assert action.text.startswith(
        "Take the next rocket release when it is out if you have hit an accuracy regression in "
        "int8 gauge calibration from the v2 sensor migration"
    ), action.text


def test_a_fix_said_only_as_the_projects_is_for_who_uses_what_it_touches() -> None:
    title = "fix: astro missing expression crash"
    (action,) = write([make_pull(title, files=BOOSTER)]).action_items
    assert "if you use rocket on Astro files and have hit a crash there" in action.text, action.text


def test_a_fix_taken_back_asks_no_one_to_take_the_next_release() -> None:
    title = "[pad] Revert countdown race condition fix"
    texts = [a.text for a in write([make_pull(title, files=BOOSTER)]).action_items]
    assert not any(t.startswith(("Take", "If")) for t in texts), texts


def test_a_backslash_a_title_writes_itself_is_no_markdown_left_in_plain_text() -> None:
    pulls = [
        make_pull("fix(noLooseEscape): don't flag `\\-` as useless", files=BOOSTER),
        make_pull("feat(css): support squircle corners", files=BOOSTER, minute=1),
        make_pull("feat(lsp): watch .rocket.json too", files=BOOSTER, minute=2),
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert "\\-" in digest.dek + digest.headline + " ".join(f.answer for f in digest.faq)


def test_a_dek_that_breaks_a_rule_is_said_in_the_days_counts_and_the_day_is_kept() -> None:
    pulls = [
        make_pull("feat: add the gimbal lock registry", files=BOOSTER),
        make_pull("fix: resolve gauge paths starting with `#`", files=BOOSTER, minute=1),
    ]
    digest = write(pulls)
    assert problems(digest, pulls) == []
    assert digest.dek.startswith("Two changes merged on March 4, 2026: "), digest.dek


def test_a_package_scope_is_no_package_users_install() -> None:
    pull = make_pull(
        "fix: incorrect build when using the pad", files={"packages/@acme/rocket/b.js": (9, 2)}
    )
    digest = write([pull])
    assert problems(digest, [pull]) == []
    assert "@acme" not in " ".join(a.text for a in digest.action_items), digest.action_items


def test_a_mention_in_the_dek_that_no_title_has_is_said_plainly() -> None:
    from digest.summarize.extractive.writer import _plainer

    pulls = [make_pull("feat: add the gimbal lock registry", files=BOOSTER)]
    brief = make_brief(PROJECT, DAY, pulls)
    digest = ExtractiveWriter().write(brief)
    broken = msgspec.structs.replace(digest, dek="One change merged today, thanks to @dana.")
    found = problems(broken, pulls)
    assert found
    mended = _plainer(broken, brief, found)
    assert problems(mended, pulls) == []
    assert mended.dek == "One change merged on March 4, 2026: one new feature.", mended.dek


def test_a_security_fix_is_taken_soon_by_everyone_not_by_who_hit_it() -> None:
    fix = make_pull("fix: bump pad-tls 1.0 -> 1.1 (CVE-2026-1234)", files={"Cargo.lock": (4, 4)})
    texts = [(a.urgency, a.text) for a in write([fix]).action_items]
    assert texts[0][0] is Urgency.IMMEDIATE, texts
    assert texts[0][1].startswith(
        "Take the next rocket release as soon as it is out: it carries a security fix"
    ), texts
    assert "have hit" not in texts[0][1]


def test_an_autofix_for_a_rule_users_have_is_not_a_rule_to_enable() -> None:
    pull = make_pull("[`pad`] Add fix for `light-not-at-end` (`PAD036`)")
    texts = [a.text for a in write([pull]).action_items]
    assert texts and not any(t.startswith("Enable") for t in texts), texts
    assert "fix for light-not-at-end (PAD036)" in texts[0], texts


def test_what_a_change_is_about_is_named_without_the_reason_its_title_gives() -> None:
    from digest.summarize.extractive.drafting import thing_of

    item = classify(
        make_pull("Remove gauge_range as it is not relevant for the pad", files=BOOSTER)
    )
    assert thing_of(item) == "gauge_range"


def test_no_re_benchmark_for_a_reworded_message_or_a_mended_overflow() -> None:
    for title in (
        "[kernels] Update the triton import error message",
        "[kernels] Float8 gauge_671b IntOverflow in triton kernels during burn",
    ):
        pulls = [make_pull(title, files={"rocket/kernels/a.py": (20, 4)})]
        assert not any(a.text.startswith("Re-benchmark") for a in write(pulls).action_items)
    assert classify(make_pull("[kernels] Float8 gauge IntOverflow in kernels")).kind == "fix"


def test_a_fault_users_hit_is_scoped_to_when_they_hit_it() -> None:
    pulls = [
        make_pull(
            "fix: Do not reverse stages when sorting with all-null key columns",
            files=BOOSTER,
        ),
        make_pull(
            "Handle the link limit gracefully instead of failing",
            "The change handles the case where too many hardlinks were created and thus "
            "installing packages fails.",
            files={"stages/pad/links.py": (40, 4)},
            minute=1,
        ),
    ]
    texts = [a.text for pull in pulls for a in write([pull]).action_items]
    assert any("have hit wrong results when sorting with all-null key columns" in t for t in texts)
    assert any("have hit a failed install when too many hardlinks were created" in t for t in texts)


def test_a_change_named_as_a_change_is_named_once() -> None:
    from digest.summarize.extractive.actions import _change_said

    assert _change_said("is about the change to invert the pad dependency") == (
        "the change to invert the pad dependency"
    )
    assert _change_said("is about gauge readings", about="the change about") == (
        "the change about gauge readings"
    )


def test_a_new_thing_with_no_reason_says_whose_it_is_and_where_its_use_is_shown() -> None:
    gauge = make_pull(
        "Add merge function for `FuelLedger`",
        files={"src/rocket/ledger.py": (120, 3), "tests/test_ledger.py": (60, 0)},
    )
    [item] = write([gauge]).action_items
    assert item.text.startswith("If you use FuelLedger, try the new merge function")
    assert "the tests it adds to tests/test_ledger.py show how to call it" in item.text
    grown = make_pull(
        "Support looped burns",
        files={"src/rocket/burns.py": (200, 10), "tests/test_burns.py": (70, 12)},
    )
    [item] = write([grown]).action_items
    assert "its tests in tests/test_burns.py show how to use it" in item.text


def test_a_new_thing_that_is_an_action_is_tried_as_itself() -> None:
    from digest.summarize.extractive.takeup import the_new

    assert the_new("passing kernel objects to pad.launch()") == (
        "passing kernel objects to pad.launch()"
    )
    assert the_new("mapping for stage names") == "the new mapping for stage names"
    assert the_new("a gimbal lock") == "the new gimbal lock"


def test_a_rule_is_named_alone_and_what_it_reports_said_once() -> None:
    pull = make_pull(
        "feat(lint): add the nursery rule `noBareGauge`, which reports bare gauges",
        "Added the nursery rule [`noBareGauge`](https://rocket.example/rules/no-bare-gauge/), "
        "which reports gauge labels that fall back to the default pad formatting of the whole "
        "launch tower. The rule also supports the `ignoredNames` option.",
        files={"src/rocket/lint.py": (300, 10)},
    )
    [item] = write([pull]).action_items
    assert item.text.startswith("Enable the nursery rule noBareGauge in your rocket configuration:")
    assert item.text.count("reports") == 1, item.text


def test_only_a_change_made_for_speed_or_tuning_is_re_benchmarked() -> None:
    pulls = [
        make_pull(
            "[fuel] refactor the burn converter; use padding kernels in the pad library",
            files={"rocket/kernels/burn.py": (300, 40)},
        ),
        make_pull("Tidy the gauge docs", files={"docs/gauge.md": (3, 1)}, minute=1),
    ]
    texts = [a.text for a in write(pulls).action_items]
    assert not any(t.startswith("Re-benchmark") for t in texts), texts


def test_a_revert_of_a_change_that_broke_something_asks_no_one_to_hold_off() -> None:
    pulls = [
        make_pull(
            "Revert PR 4242",
            "The change reverts a change to the pad plugin that caused `rocket build` to fail "
            "by bundling the gauge modules twice.",
            files={"src/rocket/pad_plugin.py": (40, 60)},
        ),
        make_pull("Add a booster abort mode", files={"src/rocket/booster.py": (400, 20)}, minute=1),
    ]
    texts = [a.text for a in write(pulls).action_items]
    assert not any(t.startswith("Hold off") for t in texts), texts


def test_uninitialized_memory_is_a_memory_safety_bug_everyone_who_runs_it_takes() -> None:
    pull = make_pull(
        "Validate gauge order is a permutation in order_to_stride",
        "The validator only checked bounds, allowing {0, 0, 0} to pass. This caused "
        "uninitialized memory access in order_to_stride_nocheck.",
        files={"runtime/core/gauge_order.cpp": (40, 4)},
    )
    [item] = write([pull]).action_items
    assert "if you use rocket: it fixes a memory-safety bug" in item.text, item.text


@pytest.mark.parametrize(
    ("title", "body", "files", "opens"),
    [
        (
            "[`pycodestyle`] Add autofix for `E402`",
            "The change lets users move imports to the top of the file automatically.",
            {"crates/rocket_linter/src/rules/e402.rs": (120, 4)},
            "If your rocket configuration selects E402, try the new autofix for E402:",
        ),
        (
            "Arm backend: Add passes to handle int64 const ops",
            "The change adds FoldInt64ConstPass to turn int64 constants into int32 ones.",
            {"backends/arm/passes/fold.py": (120, 4)},
            "If you use the Arm backend, try the new passes to handle int64 const ops:",
        ),
    ],
)
def test_an_invitation_to_try_says_whom_even_when_a_description_says_what(
    title: str, body: str, files: dict[str, tuple[int, int]], opens: str
) -> None:
    (action,) = write([make_pull(title, body, files=files)]).action_items
    assert action.text.startswith(opens), action.text


def test_a_change_to_a_rule_users_have_is_not_a_new_rule_to_enable() -> None:
    pull = make_pull(
        "[`pad`] Allow wildcard stage names in launch files (`PAD101`)",
        files={"crates/rocket_linter/src/rules/pad.rs": (120, 3)},
    )
    (action,) = write([pull]).action_items
    assert not action.text.startswith("Enable"), action.text
    assert action.text.startswith("If your rocket configuration selects PAD101"), action.text
