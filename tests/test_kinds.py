"""Kinds from evidence: markers, paths, releases, and reverts paired exactly."""

from __future__ import annotations

import pytest

from digest.models import ChangeLink
from digest.summarize.classify import GRAVE, SEVERE, classify
from digest.summarize.kinds import claimed, style_only, symptom
from digest.summarize.stories import phrase_of, reverts_item
from tests.pulls import make_pull

CODE = {"src/rocket/engine.py": (40, 5)}


@pytest.mark.parametrize(
    ("title", "files", "kind"),
    [
        # Conventional commits: type, scope, and "!" for a breaking change.
        ("fix(valves): close the valve when pressure drops", CODE, "fix"),
        ("feat(valves)!: drop the legacy valve API", CODE, "breaking"),
        ("perf: cache the thrust table", CODE, "perf"),
        ("chore(deps): bump serde from 1.0.1 to 1.0.2", {"Cargo.lock": (3, 3)}, "deps"),
        ("feat: update bundled parser to 2.0.0", {"package.json": (1, 1)}, "feature"),
        ("refactor: deprecate `legacyMode` in the launcher", CODE, "breaking"),
        ("refactor: remove the helper plugin usage", CODE, "refactor"),
        ("fix(deps): update all non-major dependencies", {"package.json": (9, 9)}, "deps"),
        ("fix(deps): update booster to 2.0.0-rc.3", {"package.json": (1, 1)}, "fix"),
        ("[bc-breaking] Generalize ValveConfig beyond steel", CODE, "breaking"),
        ("De-duplicate more valve structs", CODE, "refactor"),
        ("Reimplement the valve walk as a visitor", CODE, "refactor"),
        ("Reduce ValveSet::new monomorphizations", CODE, "perf"),
        ("Cache valve pressure checks", CODE, "perf"),
        # A removal breaks users only when it names something of theirs.
        ("Remove slice creation", CODE, "refactor"),
        ("Fix lints", CODE, "test"),
        ("\u2796 Drop support for Valvekit v1", {"src/rocket/valve.py": (9, 300)}, "breaking"),
        ("Collect gauges in stage tests", {"crates/rocket_test/src/lib.rs": (60, 40)}, "test"),
        ("Add runpod skill", {".claude/skills/runpod/SKILL.md": (40, 0)}, "chore"),
        ("Add llm/export to pytest.ini", {"pytest.ini": (1, 0)}, "test"),
        ("Remove `open_valve()`", CODE, "breaking"),
        ("Remove int32 support for valve kernels", CODE, "breaking"),
        # Terse lower-case areas, as some projects write every title.
        ("sync: fix a lost wake-up in the fuel queue", CODE, "fix"),
        ("time: fix the loom test of the ignition race", CODE, "test"),
        ("io: document the ordering of reads", CODE, "docs"),
        ("rt: correct `tick` to `tick_op` in set_readiness internal docs", CODE, "docs"),
        # Gitmoji titles.
        ("✨ Add a launch countdown", CODE, "feature"),
        ("🐛 Fix the countdown when paused", CODE, "fix"),
        ("♻️ Refactor the countdown internals", CODE, "refactor"),
        ("⬆️ Bump countdown-lib from 1.0 to 1.1", {"requirements.txt": (1, 1)}, "deps"),
        ("📝 Update release notes", {"docs/release-notes.md": (3, 0)}, "docs"),
        # A loose type's scope says more: chore(docs) is documentation.
        ("chore(docs): explain the countdown", {"CONTRIBUTING.md": (5, 1)}, "docs"),
        # What the files say outweighs the title.
        ("Add thrust estimator", {"tests/test_thrust.py": (80, 0)}, "test"),
        ("Support new fins", {"crates/fins/tests/snapshots/a.snap": (30, 0)}, "test"),
        ("Fix typo", {"docs/guide.md": (1, 1)}, "docs"),
        ("Add assistant rules", {"CLAUDE.md": (20, 0)}, "chore"),
        # Title verbs and words.
        ("Avoid panic when the fuel gauge is empty", CODE, "fix"),
        ("Reject negative burn times", CODE, "fix"),
        ("Preserve staging order again", CODE, "fix"),
        ("Add missing nozzle argument", CODE, "fix"),
        ("Refactor the engine loop (no behaviour change)", CODE, "refactor"),
        ("Add a benchmark for staging", CODE, "test"),
        ("Add fast path for empty manifests", CODE, "perf"),
        ("Add a latency metric for staging", CODE, "feature"),
        ("Remove unnecessary clone of the manifest", CODE, "perf"),
        ("Fix flaky ignition test", CODE, "test"),
        # A lint rule is what a linter's users get; lint is the project's upkeep.
        ("[pad] Add `missing-fuel-check` lint rule", CODE, "feature"),
        ("Fix lint", CODE, "test"),
        ("Remove duplicate paths in install errors", CODE, "fix"),
        ("taskdump: remove crate names from output", CODE, "fix"),
        ("Remove the legacy output module", CODE, "breaking"),
        # A feature made stable is one users can now rely on; a steadied test is a test.
        ("runtime: stabilize `LaunchRuntime`", CODE, "feature"),
        ("[refactor] graduate the fin planner from experiments to core", CODE, "feature"),
        ("Move staging kernels out of experimental", CODE, "feature"),
        ("Stabilize the flaky ignition test", CODE, "test"),
        ("Attention Perf: transpose the key block early", CODE, "perf"),
        # A source file is code whatever its name shares with a dependency file.
        ("Extend the solver's fast-path", {"src/solver/constraints.rs": (40, 4)}, "perf"),
        ("Pin the launcher", {"requirements-dev.txt": (1, 1)}, "deps"),
        # Only CI and dependency files: internal, even when the title says what it mends.
        (
            "Update install_requirements.sh to mend the nightly job",
            {".ci/scripts/nightly.sh": (2, 1), "examples/install_requirements.sh": (3, 1)},
            "ci",
        ),
        # "Upgrade" without a version upgrades code, not a dependency.
        ("🎨 Upgrade typing syntax for Python 3.10", CODE, "chore"),
        ("Upgrade serde to 1.0.200", {"Cargo.lock": (3, 3)}, "deps"),
        # Eliminating a way of building something reworks it; eliminating a fault mends it.
        ("[compile] Eliminate two-phase initialization of GaugeHost", CODE, "refactor"),
        ("Eliminate a deadlock in the countdown scheduler", CODE, "fix"),
        # Doing something "correctly" now mends it.
        ("io: advance partially written buffers correctly in `write_all`", CODE, "fix"),
        # A branch merged into another is bookkeeping; a reland tag is how a change landed.
        ("Merging gh/someone/15/base to main", CODE, "chore"),
        ("[reland without ghstack] handle the gauge timeout", CODE, "reland"),
        # The release pipeline's own configuration is CI, whatever its description warns of.
        (
            "Bump actions using Node 16",
            {".github/workflows/ci.yml": (2, 2), "dist-workspace.toml": (1, 1)},
            "ci",
        ),
    ],
)
def test_kind_comes_from_every_piece_of_evidence(title: str, files: dict, kind: str) -> None:
    assert classify(make_pull(title, files=files)).kind == kind


@pytest.mark.parametrize(
    ("title", "body", "version"),
    [
        ("Bump version to 0.12.0", "", "v0.12.0"),
        ("Bump 0.16.4", "", "v0.16.4"),
        ("Release v2.3.0", "", "v2.3.0"),
        ("release: v8.2.2", "", "v8.2.2"),
        ("release: launcher@9.0.6", "", "launcher@9.0.6"),
        ("chore: prepare Rocket v1.53.0", "", "v1.53.0"),
        ("Prepare for 0.15.1", "", "v0.15.1"),
        ("Merge tag 'rocket-1.47.4'", "", "v1.47.4"),
        ("🔖 Release version 0.128.4", "", "v0.128.4"),
        ("ci: release", "## @acme/rocket@2.4.13\n\n### Patch Changes\n", "@acme/rocket@2.4.13"),
        ("Version Packages", "# Releases\n## rocket@5.38.1\n### Patch Changes\n", "rocket@5.38.1"),
    ],
)
def test_a_release_is_named_with_its_version(title: str, body: str, version: str) -> None:
    item = classify(make_pull(title, body, files={"CHANGELOG.md": (9, 0), "version.txt": (1, 1)}))
    assert (item.kind, item.version) == ("release", version)
    said = phrase_of(item).predicate()
    # A bump says what the branch now carries; a release says it is out.
    bump = title.lower().startswith("bump")
    assert said.startswith("bumps the version to " if bump else "releases "), said


@pytest.mark.parametrize(
    "title",
    ["Bump serde from 1.0 to 1.1", "Update the release workflow", "Release the GIL in execute()"],
)
def test_a_dependency_bump_or_a_word_is_no_release(title: str) -> None:
    assert classify(make_pull(title)).kind != "release"


def test_a_revert_is_paired_by_link_or_exact_title_only() -> None:
    target = classify(make_pull("Cache staging plans", number=10))
    other = classify(make_pull("Cache burn tables", number=11))
    by_link = classify(
        make_pull(
            "Revert staging change", reverts=ChangeLink(repo="acme/rocket", number=10), number=12
        )
    )
    by_title = classify(make_pull('Revert "Cache staging plans (#10)"', number=13))
    assert by_link.kind == by_title.kind == "revert"
    assert reverts_item(by_link, target) and reverts_item(by_title, target)
    assert not reverts_item(by_link, other) and not reverts_item(by_title, other)
    # A title that merely opens with the word is no revert of a change.
    assert classify(make_pull("Revert to the old default for retries")).kind != "revert"


def test_a_grave_fix_outranks_a_new_feature_and_a_mild_one_does_not() -> None:
    feature = classify(make_pull("Add a thrust vectoring mode", files={"src/a.py": (300, 20)}))
    grave = classify(
        make_pull("Fix out-of-bounds write in the fuel table", files={"src/b.py": (40, 4)})
    )
    mild = classify(
        make_pull("fix: incorrect length check on the manifest", files={"src/c.py": (40, 4)})
    )
    assert grave.score > feature.score > mild.score
    # Results silently wrong, said in the description: as grave as a crash.
    wrong = classify(
        make_pull(
            "[gauge] Use wide reads in the pack shader to fix a board bug",
            "On some boards the shader returned incorrect data for every second stage.",
            files={"src/b.py": (4, 1)},
        )
    )
    assert wrong.kind == "fix" and wrong.score > feature.score


@pytest.mark.parametrize(
    ("title", "said", "hit"),
    [
        # What users had is gone: as grave as corrupted data.
        ("Prevent uninstalling site-packages for empty manifests", "", "data loss"),
        ("fix: avoid deleting files outside the launch cache", "", "data loss"),
        # What users run stops them, though no crash is named.
        (
            "Handle the link limit gracefully",
            "Past the limit, installing packages fails.",
            "a failed install",
        ),
    ],
)
def test_a_fix_of_lost_data_or_a_failed_install_outranks_a_new_feature(
    title: str, said: str, hit: str
) -> None:
    feature = classify(make_pull("Add a thrust vectoring mode", files={"src/a.py": (300, 20)}))
    fix = classify(make_pull(title, said, files={"src/b.py": (40, 4)}))
    assert fix.kind == "fix" and fix.score > feature.score
    assert symptom(f"{title}\n{said}") == hit


def test_silently_is_a_fault_only_with_what_went_wrong() -> None:
    assert GRAVE.search("the query silently drops rows past the limit")
    assert not GRAVE.search("Node silently invokes the callback with null")
    assert not GRAVE.search("errors that silently get skipped while walking ancestors")


@pytest.mark.parametrize(
    ("title", "style"),
    [
        ("Arm backend: Format Arm passes (group 7)", True),
        ("[pad] Format the gauge modules", True),
        ("Apply docformatter to the stage passes", True),
        ("Format Svelte files", False),  # a formatter's new capability
        ("feat(format): format Svelte files", False),
    ],
)
def test_formatting_the_projects_own_code_is_style_only(title: str, style: bool) -> None:
    assert style_only(make_pull(title)) is style


def test_a_state_said_not_to_be_so_is_no_fault() -> None:
    said = "When opening the cache fails because another process holds it, the file is not corrupt."
    quiet = classify(make_pull("fix(cache): retry a locked cache instead of failing", said))
    assert not GRAVE.search(claimed(f"{quiet.pull.title}\n{quiet.summary}"))
    assert GRAVE.search(claimed("fix: data corruption when saving the gauge table"))


def test_a_result_put_wrong_without_the_word_is_a_wrong_result() -> None:
    # Told in the body, not left to the list; not grave enough to lead over the day's news.
    for title in (
        "fix: Do not reverse dataframes when sorting with all-null keys",
        "fix: Preserve null placement when collapsing reverse() into one sort",
    ):
        assert SEVERE.search(title) and not GRAVE.search(title)
        assert symptom(title) == "wrong results"
    assert not SEVERE.search("Preserve block indentation if already present")


def test_another_name_for_a_setting_is_less_news_than_a_new_capability() -> None:
    files = {"src/rocket/settings.py": (20, 2)}
    alias = classify(make_pull("Add an environment variable for `ROCKET_DRY_RUN`", files=files))
    new = classify(make_pull("Add a `dry_run` mode to the launcher", files=files))
    assert alias.kind == new.kind == "feature"
    assert alias.score < new.score


def test_a_fault_a_description_says_did_not_happen_is_no_fault() -> None:
    said = "The two projects now complete the check without crashing, panicking, or hanging."
    quiet = classify(make_pull("fix: add missing pad projects to the primer list", said))
    loud = classify(make_pull("fix: add missing pad projects to the primer list"))
    assert quiet.score - loud.score < 1.0  # the summary's half point, no fault bonus


def test_a_fix_that_names_a_snapshot_or_a_hole_is_a_fix_users_must_know() -> None:
    uaf = classify(
        make_pull("[core] fix use-after-free when a snapshot outlives its shard", files=CODE)
    )
    header = make_pull(
        "Reject header values with CR or LF", "Closes a header injection hole.", files=CODE
    )
    assert uaf.kind == classify(header).kind == "fix"
    feature = classify(make_pull("Add a thrust vectoring mode", files={"src/a.py": (40, 4)}))
    assert uaf.score > feature.score and classify(header).score > feature.score


def test_a_fix_titled_by_its_bug_is_never_told_as_causing_it() -> None:
    bug = classify(make_pull("fix(lsp): changes file corruption", files=CODE))
    assert phrase_of(bug, quote=True).predicate() == "fixes \u201cchanges file corruption\u201d"
    assert phrase_of(bug).predicate().startswith("fixes ")


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        # A restructuring whose description adds an option users set is news to them...
        ("- Merge the two converters into one\n- Add `pad_groups` config option", "feature"),
        # ... and one that swaps an option for another breaks their configuration.
        ("- Make `attention` a typed config, instead of string `attn_backend`", "breaking"),
        # A restructuring that only mentions configuration in passing stays internal.
        ("Splits the loader; the config is read as before.", "refactor"),
        ("", "refactor"),
    ],
)
def test_a_refactor_that_changes_what_users_configure_is_not_internal(body: str, kind: str) -> None:
    assert classify(make_pull("refactor the thrust converter", body, files=CODE)).kind == kind


def test_support_for_anything_named_is_new_support() -> None:
    named = classify(make_pull("Add support for Azure request signing", files=CODE))
    worded = classify(make_pull("Add structured errors for signing failures", files=CODE))
    assert named.facts.new_support and not worded.facts.new_support
    assert named.score > worded.score


def test_the_projects_own_name_is_no_area_of_it() -> None:
    item = classify(make_pull("[Rocket][Gimbal] Shared steering helpers", repo="acme/rocket"))
    assert item.area == "Gimbal"


@pytest.mark.parametrize(
    ("title", "said"),
    [
        (
            "fix: `logger.debug` looked different from other logs",
            "fixes a bug where `logger.debug` looked different from other logs",
        ),
        (
            "Fix `gauge()` incorrectly returned 0 when the tank is empty",
            "fixes a bug where `gauge()` incorrectly returned 0 when the tank is empty",
        ),
        (
            "fix: scan is not resolving sub-stage imports if used in a glob",
            "fixes a bug where scan is not resolving sub-stage imports if used in a glob",
        ),
        # A title that tells the state the fix leaves is no bug: the fix leaves it so.
        (
            "fix(lint): noLonelyGauge no longer flags `0` as empty",
            "fixes noLonelyGauge so it no longer flags `0` as empty",
        ),
        (
            "fix: gauge readings are now rounded once",
            "fixes gauge readings so they are now rounded once",
        ),
        (
            "fix(assist): noLooseBolts no longer drops nested bolts",
            "fixes noLooseBolts so it no longer drops nested bolts",
        ),
        (
            "Fix for `RKT102` should delete the whole bolt",
            "fixes `RKT102` so it deletes the whole bolt",
        ),
        # An instruction whose object is followed by a clause of its own.
        (
            "fix(lsp): inform clients that the gauge file should be watched",
            "informs clients that the gauge file should be watched",
        ),
        ("Fix launcher breakage fix", "fixes launcher breakage"),
        # A noun phrase, its verb in a clause of its own, is named as it is.
        ("Fix a crash that could corrupt the log", "fixes a crash that could corrupt the log"),
        ("Fix panic when the gauge reads NaN", "fixes a panic when the gauge reads NaN"),
        ("Fix gauge drift and add a reset switch", "fixes gauge drift and adds a reset switch"),
        # An instruction says what the fix does, its object kept whole.
        (
            "Give a specific error when a gauge tag has trailing whitespace",
            "gives a specific error when a gauge tag has trailing whitespace",
        ),
    ],
)
def test_a_fix_titled_by_its_bug_as_a_sentence_fixes_a_bug_where(title: str, said: str) -> None:
    bug = classify(make_pull(title, files=CODE))
    assert phrase_of(bug, quote=True).predicate() == said


def test_a_hole_outranks_a_crash_and_a_reformat_ranks_below_the_docs() -> None:
    crash = classify(make_pull("Fix a panic when the fuel gauge is empty", files=CODE))
    hole = classify(make_pull("Fix out-of-bounds read in the fuel table", files=CODE))
    assert hole.score > crash.score
    code = {"src/rocket/engine.py": (60, 40)}
    for title in (
        "🎨 Tidy the launcher's typing syntax",
        "style: reorder imports",
        "Run ruff format",
    ):
        reformat = classify(make_pull(title, files=code))
        docs = classify(make_pull("Document the countdown", files={"docs/countdown.md": (2, 1)}))
        assert reformat.score < docs.score, title


def test_artifacts_taken_away_are_no_removal() -> None:
    mended = classify(
        make_pull("Remove transitive gauge artifacts during burn inference", files=CODE)
    )
    assert not mended.facts.removes and mended.kind != "breaking"


def test_a_status_or_gate_taken_away_is_no_removal() -> None:
    lifted = classify(make_pull("Remove the `Preview` rule status", files=CODE))
    assert not lifted.facts.removes and lifted.kind != "breaking"
    assert classify(make_pull("Remove the legacy valve API", files=CODE)).facts.removes


def test_a_fix_titled_by_what_its_subject_should_do_fixes_it_so() -> None:
    fix = classify(make_pull("fix: `gauge.read` should return `0` when empty", files=CODE))
    assert phrase_of(fix).predicate() == "fixes `gauge.read` so it returns `0` when empty"
    plural = classify(make_pull("fix: readings should round once", files=CODE))
    assert phrase_of(plural).predicate() == "fixes readings so they round once"


@pytest.mark.parametrize(
    ("title", "kind"),
    [
        ("Bump version to 1.2.0a0", "chore"),
        ("Bump version from 1.2.0a0 to 1.3.0a0", "chore"),
        ("Update version to 0.5.0.dev0", "chore"),
        ("Bump version to 0.19.0", "release"),
    ],
)
def test_a_branch_s_next_development_version_is_no_release(title: str, kind: str) -> None:
    assert classify(make_pull(title, files={"version.txt": (1, 1)})).kind == kind


def test_a_release_titled_by_the_projects_name_and_version_alone_is_a_release() -> None:
    release = classify(make_pull("Python Rocket 1.43.1", files={"pyproject.toml": (1, 1)}))
    assert (release.kind, release.version) == ("release", "v1.43.1")
    support = classify(make_pull("Rocket 3.14 support", files={"pyproject.toml": (1, 1)}))
    assert support.kind != "release"


def test_a_reland_of_a_quoted_title_with_a_version_mark_names_what_it_lands() -> None:
    reland = classify(make_pull('Reland "Add the gimbal pass (re-land)" v2', files=CODE))
    assert phrase_of(reland).predicate() == "re-lands the change that adds the gimbal pass"


def test_a_fix_titled_as_a_noun_ending_in_fix_says_fix_once() -> None:
    fix = classify(make_pull("[Gimbal] launcher script fix", files=CODE))
    assert phrase_of(fix).predicate() == "fixes a launcher script"


def test_a_titles_we_and_our_are_said_of_the_project() -> None:
    slot = classify(make_pull("Add a gimbal slot so we can steer the booster", files=CODE))
    assert phrase_of(slot).predicate() == "adds a gimbal slot so it can steer the booster"
    own = classify(make_pull("Recommend our own launcher in the docs", files=CODE))
    assert phrase_of(own).predicate() == "recommends its own launcher in the docs"
    panic = classify(make_pull("fix: panic where we would read the fuel table twice", files=CODE))
    assert phrase_of(panic, quote=True).predicate() == (
        "fixes a panic where it would read the fuel table twice"
    )


def test_a_capitalised_conventional_type_is_split_off_as_one() -> None:
    told = classify(make_pull("Fix: render the pad light with its own key"))
    assert (told.kind, told.headline_title) == ("fix", "render the pad light with its own key")


def test_a_feature_that_only_adds_a_message_ranks_below_a_failure_fixed() -> None:
    files = {"src/rocket/stage.py": (120, 10)}
    warning = classify(make_pull("Warn when using stage settings without stages", files=files))
    feature = classify(make_pull("Add stage settings for boosters", files=files))
    assert warning.score < feature.score - 1


def test_a_speed_up_of_an_unsaid_amount_ranks_below_a_fix_of_a_wrong_result() -> None:
    faster = classify(
        make_pull("perf: Pushdown stage plans to inputs", files={"src/rocket/a.py": (200, 20)})
    )
    fixed = classify(
        make_pull("fix: Incorrect length check on stage zip", files={"src/rocket/b.py": (40, 10)})
    )
    assert faster.score < fixed.score


@pytest.mark.parametrize(
    ("title", "kind"),
    [
        ("chore(release): update versions.json in the bucket on release", "chore"),
        ("ci(release): publish the checksums next to each release asset", "ci"),
        ("chore(release): 2.4.1", "release"),
        ("ci(release): version packages", "release"),
    ],
)
def test_a_release_scope_marks_a_release_only_when_the_title_cuts_one(
    title: str, kind: str
) -> None:
    """A change to the release tooling is that tooling's change; a release names its
    version or its packages."""
    pull = make_pull(
        title,
        "Extends the publish workflow.",
        files={"tools/release/publish.ts": (60, 4), "CHANGELOG.md": (12, 0)},
    )
    assert classify(pull).kind == kind
