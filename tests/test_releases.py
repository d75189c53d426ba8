"""What a release says it contains: its notes read as entries, told in the edition."""

from __future__ import annotations

import datetime as dt

from digest.config import ProjectSettings, RepoSettings
from digest.models import Digest, PullRequest
from digest.summarize.checks import problems
from digest.summarize.classify import classify
from digest.summarize.extractive import ExtractiveWriter
from digest.summarize.phrasing import say_count
from digest.summarize.releases import count_by_kind, notable_notes, release_notes
from digest.summarize.select import make_brief
from tests.pulls import make_pull


def _edition(pulls: list[PullRequest]) -> Digest:
    """The extractive edition of ``pulls``, one repository's changes of 2026-03-03."""
    project = ProjectSettings(name="rocket", repos=(RepoSettings(name="acme/rocket"),))
    return ExtractiveWriter().write(make_brief(project, dt.date(2026, 3, 3), pulls))


KEEP_A_CHANGELOG = """\
# 2.4.1 (March 3rd, 2026)

### Fixed

- valves: close the valve when pressure drops ([#41])
- gauge: avoid a panic in `Gauge::read` on an empty tank ([#42])
- tests: fix the flaky ignition test ([#43])

### Added

- launch: add a `countdown` option ([#44])

[#41]: https://github.com/acme/rocket/pull/41
[#42]: https://github.com/acme/rocket/pull/42

# 2.4.0 (February 1st, 2026)

### Fixed

- an older fix that is not in this release ([#30])
"""

CHANGESETS = """\
This PR was opened by the release action.

# Releases
## rocket@5.1.2

### Patch Changes

- fix: keep the staging order when two stages
share a name
([#51](https://github.com/acme/rocket/pull/51))

- feat!: drop the legacy `burn()` call
([#52](https://github.com/acme/rocket/pull/52))

## rocket-plugin@1.0.3

- fix: an entry of another package ([#53](https://github.com/acme/rocket/pull/53))
"""


def test_notes_are_read_entry_by_entry_from_the_first_release_only() -> None:
    notes = release_notes(make_pull("chore: prepare Rocket v2.4.1", notes=KEEP_A_CHANGELOG))
    assert [(n.kind, n.numbers) for n in notes] == [
        ("fix", (41,)),
        ("fix", (42,)),
        ("upkeep", (43,)),  # a test fix among the fixes is the project's own
        ("feature", (44,)),
    ]
    assert notes[1].text == "gauge: avoid a panic in `Gauge::read` on an empty tank"
    assert count_by_kind(notes) == [("fix", 2), ("feature", 1), ("upkeep", 1)]
    # The grave fix is the one users most need to hear of.
    assert notable_notes(notes, limit=1)[0].numbers == (42,)


def test_a_bundled_engines_update_is_told_after_the_fixes_users_hit() -> None:
    body = (
        "## Features\n\n- update thrustkit to 1.0.0-rc.17 (#61)\n\n"
        "## Bug Fixes\n\n- gauge: keep the stage name when refuelling (#62)\n"
    )
    notes = release_notes(make_pull("release: v8.0.10", notes=body))
    assert [n.kind for n in notes] == ["feature", "fix"]
    assert notable_notes(notes, limit=1)[0].numbers == (62,)


def test_how_an_entry_looks_or_reads_is_told_after_what_it_does() -> None:
    # A fix of a log's look is no reason to upgrade while another fix is in the notes.
    body = (
        "### Bug Fixes\n\n"
        "* `gauge.debug` and `gauge.error` looked different from other logs (#71)\n"
        "* **fuel:** show the tank name in refuelling warnings (#72)\n"
        "* **launch:** allow the user's countdown to override the default (#73)\n"
    )
    notes = release_notes(make_pull("release: v2.0.1", notes=body))
    assert [n.numbers for n in notable_notes(notes, limit=3)] == [(73,), (71,), (72,)]


def test_an_entry_for_what_users_opt_into_is_told_after_what_everyone_runs() -> None:
    body = (
        "# 1.51.1\n\n### Fixed\n\n- sync: fix a gauge that reopens after forget (#81)\n\n"
        "### Fixed (unstable)\n\n- rt: do not leak fd when cancelling a uring launch (#82)\n"
    )
    notes = release_notes(make_pull("chore: prepare v1.51.1", notes=body))
    assert [(n.numbers, n.unstable) for n in notes] == [((81,), False), ((82,), True)]
    assert notable_notes(notes, limit=1)[0].numbers == (81,)


def test_a_changesets_body_is_read_with_its_wrapped_lines_and_prefixes() -> None:
    notes = release_notes(make_pull("Version Packages", CHANGESETS))
    assert [(n.kind, n.text, n.numbers) for n in notes] == [
        ("fix", "keep the staging order when two stages share a name", (51,)),
        ("breaking", "drop the legacy `burn()` call", (52,)),
    ]
    assert notable_notes(notes, limit=1)[0].kind == "breaking"


def test_an_edition_tells_what_a_release_contains_and_says_to_upgrade() -> None:
    day = dt.date(2026, 3, 3)
    fix = make_pull("gauge: avoid a panic in `Gauge::read` on an empty tank", number=42)
    release = make_pull(
        "chore: prepare Rocket v2.4.1",
        number=45,
        files={"CHANGELOG.md": (12, 0), "Cargo.toml": (1, 1)},
        notes=KEEP_A_CHANGELOG,
    )
    project = ProjectSettings(name="rocket", repos=(RepoSettings(name="acme/rocket"),))
    brief = make_brief(project, day, [fix, release])
    digest = ExtractiveWriter().write(brief)

    first = digest.body.split("\n\n")[0]
    assert "version 2.4.1" in first and "Its notes list two fixes" in first
    action = digest.action_items[0]
    assert action.text.startswith("Upgrade rocket to version 2.4.1 soon if you use Gauge::read")
    assert action.urgency == "immediate"
    assert not problems(digest, [fix, release])


def test_an_upgrade_for_a_fault_says_who_hit_it_when_the_entry_names_no_code() -> None:
    notes = "## 2.4.2\n\n### Fixed\n\n- Fix booster panic when parsing t-strings (#51)\n"
    release = make_pull("chore: prepare Rocket v2.4.2", number=52, notes=notes)
    digest = _edition([release])
    assert digest.action_items[0].text.startswith(
        "Upgrade rocket to version 2.4.2 soon if you have hit a panic when parsing t-strings:"
    ), digest.action_items


def test_a_change_the_release_quotes_is_told_once_and_the_headline_counts_the_release() -> None:
    day = dt.date(2026, 3, 3)
    leak = make_pull("gauge: avoid a panic in `Gauge::read` on an empty tank", number=42)
    other = make_pull("valves: close the valve when pressure drops", number=41)
    release = make_pull("chore: prepare Rocket v2.4.1", number=45, notes=KEEP_A_CHANGELOG)
    project = ProjectSettings(name="rocket", repos=(RepoSettings(name="acme/rocket"),))
    digest = ExtractiveWriter().write(make_brief(project, day, [leak, other, release]))

    assert digest.headline.startswith("rocket releases version 2.4.1 with two fixes")
    # The two entries the notes sentence quotes are not told again as stories of their own.
    assert "Elsewhere" not in digest.body and "also" not in digest.body.split("\n\n")[0]
    assert digest.body.count("[2]") == 1 and digest.body.count("[3]") == 1
    assert not problems(digest, [leak, other, release])


def test_the_changes_a_release_quotes_count_against_the_reference_budget() -> None:
    day = dt.date(2026, 3, 3)
    notes = "## 3.0.0\n\n### Fixed\n\n" + "".join(
        f"- gauge: fix crash number {n} in the fuel table (#{n})\n" for n in range(1, 3)
    )
    quoted = [make_pull(f"gauge: fix crash number {n} in the fuel table", number=n) for n in (1, 2)]
    others = [
        make_pull(f"Add the {what} stage option", number=10 + i, files={f"src/{what}.py": (50, 1)})
        for i, what in enumerate(("alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa"))
    ]
    release = make_pull("Release v3.0.0", number=99, notes=notes)
    pulls = [*quoted, *others, release]
    project = ProjectSettings(name="rocket", repos=(RepoSettings(name="acme/rocket"),))
    digest = ExtractiveWriter().write(make_brief(project, day, pulls))
    assert len(digest.references) <= 10
    assert not problems(digest, pulls)
    # Nothing was left out to make room: the closing list's label counts what it leaves out.
    assert "Its notes list two fixes" in digest.body
    untold = len(pulls) - len(digest.references)
    assert f"({say_count(untold, 'more change')} not listed)" in digest.body


_LINKS = "[#{n}](https://github.com/acme/rocket/pull/{n}) [`{sha}`](https://github.com/acme/rocket/commit/{sha}) Thanks [@someone](https://github.com/someone)! - "  # noqa: E501
CHANGELOGS = (
    "## 2.0.50\n\n## 2.4.13\n\n### Patch Changes\n\n"
    f"- {_LINKS.format(n=99, sha='c5eb92b')}Added the nursery rule `noSpareFins`, which flags "
    "fins no stage uses. It is off by default.\n\n"
    f"- {_LINKS.format(n=98, sha='d6fa03c')}Fixed a panic when parsing a manifest.\n"
)


def test_changesets_notes_of_several_packages_give_the_first_release_with_entries() -> None:
    pull = make_pull("ci: release", notes=CHANGELOGS)
    notes = release_notes(pull)
    assert [(n.kind, n.numbers) for n in notes] == [("feature", (99,)), ("fix", (98,))]
    # The thank-you and the links go; one sentence of an entry is quoted.
    assert notes[0].text == "Added the nursery rule `noSpareFins`, which flags fins no stage uses"
    assert classify(pull).version == "v2.4.13"


GENERATED = """\
## v7.0.1
* Bump actions/setup-node from 4 to 6 by @dependabot[bot] in https://github.com/acme/rocket/pull/77
* Bump the minor-actions group with 2 updates by @dependabot[bot] in https://github.com/acme/rocket/pull/78
* Trim only ascii whitespace from the branch name by @someone in https://github.com/acme/rocket/pull/79
"""


def test_generated_notes_lose_their_bylines_and_upkeep_is_never_the_news() -> None:
    notes = release_notes(make_pull("prep v7.0.1 release", notes=GENERATED))
    assert [(n.kind, n.numbers) for n in notes] == [
        ("upkeep", (77,)),
        ("upkeep", (78,)),
        ("other", (79,)),
    ]
    assert notes[2].text == "Trim only ascii whitespace from the branch name"
    assert notable_notes(notes) == [notes[2]]


def test_a_release_of_upkeep_only_says_so() -> None:
    upkeep = "## v7.0.2\n* Bump actions/setup-node from 4 to 6 by @bot in https://github.com/a/b/pull/1\n"
    release = make_pull("prep v7.0.2 release", number=5, notes=upkeep)
    digest = _edition([release])
    assert "one change, a dependency update: \u201cBump actions/setup-node" in digest.body
    assert digest.action_items[0].text.endswith("nothing you must act on")
    assert not problems(digest, [release])


def test_notes_written_ahead_of_a_release_are_its_notes() -> None:
    day = dt.date(2026, 3, 3)
    change = make_pull("♻️ Reject header names with underscores", number=21, minute=10)
    noted = make_pull(
        "📝 Update release notes",
        number=None,
        minute=20,
        files={"docs/release-notes.md": (3, 0)},
        notes="### Refactors\n\n* ♻️ Reject header names with underscores. PR #21 by @someone.",
    )
    release = make_pull("🔖 Release version 1.4.2", number=None, minute=30, notes="## 1.4.2")
    project = ProjectSettings(name="rocket", repos=(RepoSettings(name="acme/rocket"),))
    brief = make_brief(project, day, [change, noted, release])
    digest = ExtractiveWriter().write(brief)
    first = digest.body.split("\n\n")[0]
    assert "“Reject header names with underscores”" in first
    # The commit that only wrote the notes is told by the release, not listed again.
    assert "Update release notes" not in digest.body
    assert not problems(digest, [item.pull for item in brief.items])


def test_an_entry_cut_inside_a_code_span_is_not_quoted() -> None:
    long = "Add `" + "x" * 170 + "` for advanced use cases"
    notes = release_notes(
        make_pull("Release v1.0.0", notes=f"## 1.0.0\n\n- {long}\n- Fix a crash\n")
    )
    assert [n.text for n in notes] == ["Fix a crash"]


def test_a_refactor_of_the_projects_insides_is_upkeep() -> None:
    notes = release_notes(
        make_pull(
            "prep v7.0.3 release",
            notes="## v7.0.3\n* Refactor internals, simplify the gauge utils (#81)\n"
            "* Refactor the thrust planner to accept a fuel budget (#82)\n",
        )
    )
    assert [n.kind for n in notes] == ["upkeep", "other"]


def test_a_release_that_only_refactors_says_so() -> None:
    notes = "## v7.0.4\n* Refactor internals, simplify the gauge utils (#81)\n"
    release = make_pull("prep v7.0.4 release", number=6, notes=notes)
    digest = _edition([release])
    assert "one change, internal refactoring: \u201cRefactor internals" in digest.body
    assert "of internal refactoring, nothing you must act on" in digest.action_items[0].text
    assert not problems(digest, [release])


def test_the_days_changes_a_release_ships_are_told_as_its_own() -> None:
    notes = (
        "## v7.1.0\n### Fixes\n* Keep the gauge needle steady at low pressure (#98)\n"
        "* Reset the countdown clock after an abort (#99)\n"
        "* Stop the fuel pump when the valve closes (#97)\n"
        "### Performance\n* Cache the thrust table (#96)\n"
    )
    pulls = [
        make_pull("prep v7.1.0 release", number=5, notes=notes),
        make_pull("fix: keep the gauge needle steady at low pressure", number=98, minute=1),
        make_pull("fix: reset the countdown clock after an abort", number=99, minute=2),
        make_pull("fix: stop the fuel pump when the valve closes", number=97, minute=3),
        make_pull("perf: cache the thrust table", number=96, minute=4),
    ]
    digest = _edition(pulls)
    assert not problems(digest, pulls)
    paragraphs = digest.body.split("\n\n")
    assert not any(p.startswith("In other changes") for p in paragraphs), digest.body
    assert any(p.startswith("Also in the release, rocket") for p in paragraphs)


def test_a_features_heading_keeps_short_entries_and_its_engine_update() -> None:
    notes = (
        "## 8.1.0-beta.2\n### Features\n\n* integrate telemetry ([#31](https://x/31))\n"
        "* update thrustlib to 1.0.0-rc.3 ([#32](https://x/32))\n\n### Bug Fixes\n\n"
        "* **gauge:** respect the config file ([#33](https://x/33))\n\n"
        "### Miscellaneous Chores\n\n* update lintkit to 0.22.1 ([#34](https://x/34))\n"
    )
    kinds = [
        (n.kind, n.text) for n in release_notes(make_pull("release: v8.1.0-beta.2", notes=notes))
    ]
    assert ("feature", "integrate telemetry") in kinds
    assert ("feature", "update thrustlib to 1.0.0-rc.3") in kinds
    assert ("upkeep", "update lintkit to 0.22.1") in kinds


def test_an_upgrade_names_who_an_entry_concerns_only_by_what_it_is_about() -> None:
    from digest.summarize.extractive.actions import _concerned

    def named(entry: str) -> str:
        found = _concerned(entry)
        return found[1] if found else ""

    assert named("`GaugeMap` incorrectly handles keys with `undefined` values") == "GaugeMap"
    assert named("runtime: revert #77 to fix a regression that makes `spawn_burn` hang") == (
        "spawn_burn"
    )
    assert named("Fixed #106: `noUselessFins` no longer panics on fins") == "noUselessFins"
    assert named("take into account `nodeName` case sensitivity on XHTML pages") == ""


def test_an_entry_that_closes_an_issue_or_ends_a_fault_is_a_fix() -> None:
    notes = (
        "## 2.4.1\n\n### Patch Changes\n\n"
        "- [#12](https://x/pull/12) Thanks @a! - Fixed [#9](https://x/issues/9): The gauge "
        "auto-fix no longer drops digits.\n"
        "- [#13](https://x/pull/13) Thanks @b! - `noLooseBolts` no longer misses welded nuts.\n"
        "- [#14](https://x/pull/14) Thanks @c! - Document the countdown in more detail.\n"
    )
    release = make_pull("ci: release", notes=notes, files={"CHANGELOG.md": (8, 0)})
    got = [(note.text, note.kind) for note in release_notes(release)]
    assert got[:2] == [
        ("The gauge auto-fix no longer drops digits", "fix"),
        ("`noLooseBolts` no longer misses welded nuts", "fix"),
    ], got
    assert got[2][1] == "other", got


def test_an_entry_wrapped_after_its_reference_is_quoted_to_its_first_sentence() -> None:
    notes = (
        "## 0.10.0\n\n### Breaking changes\n\n"
        "- Require `--force` to relaunch a booster (#77) Previously, the pad would prompt for "
        "confirmation before it relaunched a booster that had flown.\n"
    )
    release = make_pull("Release 0.10.0", notes=notes, files={"CHANGELOG.md": (8, 0)})
    (note,) = release_notes(release)
    assert note.text == "Require `--force` to relaunch a booster" and note.numbers == (77,)


def test_an_entry_that_drops_support_is_breaking_whatever_its_emoji_says() -> None:
    notes = "## 0.9.0\n\n* \u2796 Drop support for Valvekit v1. PR #7 by @dana.\n"
    (note,) = release_notes(make_pull("\U0001f516 Release version 0.9.0", notes=notes))
    assert (note.kind, note.text) == ("breaking", "Drop support for Valvekit v1")


def test_changes_the_release_ships_say_so_once_then_the_release_is_their_subject() -> None:
    notes = (
        "## 2.4.2\n\n### Fixed\n\n- gauge: avoid a panic in `Gauge::read` on an empty tank (#58)\n"
        "- gauge: propagate pad errors to the boundary (#61)\n"
        "- valves: freeze the valves when the pad disconnects (#62)\n"
        "- lights: keep the gauge lit when the pad resets (#65)\n\n"
        "### Added\n\n- launch: add a `countdown` option (#59)\n"
    )
    pulls = [
        make_pull("chore: prepare Rocket v2.4.2", number=63, notes=notes),
        make_pull(
            "fix: propagate pad errors to the boundary",
            "Errors thrown inside the pad were previously rethrown instead of reaching the "
            "nearest boundary.",
            number=61,
            minute=1,
        ),
        make_pull(
            "fix: freeze the valves when the pad disconnects",
            "Valves left open on a lost pad link used to vent the whole tank within a minute.",
            number=62,
            minute=2,
        ),
        make_pull("fix: keep the gauge lit when the pad resets", number=65, minute=3),
    ]
    digest = _edition(pulls)
    assert digest.body.count("Also in the release") == 1, digest.body
    assert "The release also " in digest.body
    assert not problems(digest, pulls)


def test_an_entry_that_refuses_what_was_accepted_is_a_breaking_change() -> None:
    body = "- \u267b\ufe0f Do not accept underscore headers by default. PR #71 by @someone.\n"
    pull = make_pull("\U0001f516 Release version 0.136.3", notes=body)
    notes = release_notes(pull)
    assert [n.kind for n in notes] == ["breaking"], notes
    # The notes never call it breaking: the edition says what it can do, not their word.
    digest = _edition([pull])
    # Its one breaking entry is named in the headline, not counted.
    assert digest.headline.endswith(", which no longer accepts underscore headers by default")
    assert "breaking change" not in digest.body, digest.body
    assert "a change that can break code" in digest.action_items[0].text


def test_a_pre_release_to_try_gives_way_to_a_deprecation() -> None:
    notes = "## 3.0.0-beta.2\n\n### Features\n\n- integrate the pad console (#81)\n"
    pulls = [
        make_pull("release: v3.0.0-beta.2", number=82, notes=notes),
        make_pull(
            "feat!: deprecate `legacyResolver` in `pad.alias`",
            "`legacyResolver` is deprecated and will be removed in the next major.",
            number=83,
            minute=1,
        ),
    ]
    digest = _edition(pulls)
    texts = [a.text for a in digest.action_items]
    assert texts and not any("on a branch before the stable release" in t for t in texts), texts


def test_a_package_released_without_a_version_does_not_lead_the_day() -> None:
    pulls = [
        make_pull("release pad-tools", files={"pad-tools/Cargo.toml": (1, 1)}, number=101),
        make_pull(
            "fix: Incorrect thrust order in the staging optimizer",
            files={"src/rocket/staging.py": (4, 2)},
            number=102,
            minute=1,
        ),
    ]
    project = ProjectSettings(name="rocket", repos=(RepoSettings(name="acme/rocket"),))
    brief = make_brief(project, dt.date(2026, 3, 3), pulls)
    assert brief.stories[0].lead.pull.number == 102
    assert brief.stories[1].lead.kind == "release"


def test_an_entry_rejecting_errors_in_a_preview_feature_is_no_breaking_change() -> None:
    body = "### Preview features\n\n- Reject semantic syntax errors for lazy imports (#73)\n"
    notes = release_notes(make_pull("Bump 0.15.6", notes=body))
    assert [n.kind for n in notes] == ["feature"], notes


def test_a_release_of_one_fix_names_the_fault_in_the_headline() -> None:
    notes = "## 1.52.1\n\n### Fixed\n\n- runtime: fix a regression that makes the pad hang (#111)\n"
    release = make_pull("chore: prepare Rocket v1.52.1", number=112, notes=notes)
    digest = _edition([release])
    assert digest.headline == "rocket releases version 1.52.1 with a fix for a hang"


def test_a_release_counts_what_users_look_for_and_the_rest_as_other_entries() -> None:
    notes = (
        "## 2.5.0\n\n### Fixed\n\n- gauge: keep the needle steady (#121)\n\n"
        "### Added\n\n- launch: add a `countdown` option (#122)\n\n"
        "### Other\n\n- Tidy the launch scripts (#123)\n- Bump the pad crate to 1.2 (#124)\n"
    )
    release = make_pull("chore: prepare Rocket v2.5.0", number=125, notes=notes)
    digest = _edition([release])
    assert "Its notes list one fix, one new feature and two other entries, among" in digest.body


def test_a_release_of_a_monorepos_other_package_is_named_with_it() -> None:
    notes = "## 2.0.4\n\n### Patch Changes\n\n- Updates dependency gaugekit to v12\n"
    files = {
        "packages/integrations/gauge/CHANGELOG.md": (6, 0),
        "packages/integrations/gauge/package.json": (1, 1),
    }
    release = make_pull("[ci] release v2.0.4", notes=notes, files=files, number=201)
    assert classify(release).version == "gauge@2.0.4"
    own = make_pull(
        "[ci] release v6.3.6",
        notes=notes.replace("2.0.4", "6.3.6"),
        files={"packages/rocket/CHANGELOG.md": (6, 0)},
    )
    assert classify(own).version == "v6.3.6"


def test_a_release_of_upkeep_only_does_not_lead_nor_carry_the_days_fixes() -> None:
    notes = "## 2.0.4\n\n### Patch Changes\n\n- Updates dependency gaugekit to v12\n"
    pulls = [
        make_pull(
            "[ci] release v2.0.4",
            notes=notes,
            files={"packages/integrations/gauge/CHANGELOG.md": (6, 0)},
            number=201,
        ),
        make_pull(
            "Fix custom `transform` functions being dropped for gauge tags",
            files={"packages/integrations/gauge/src/a.ts": (30, 4)},
            number=202,
            minute=1,
        ),
    ]
    assert [n.kind for n in release_notes(pulls[0])] == ["upkeep"]
    digest = _edition(pulls)
    assert not digest.headline.lower().startswith("rocket releases"), digest.headline
    (action,) = digest.action_items
    assert action.text.startswith("Take the next rocket release when it is out"), action.text


def test_a_release_with_one_fix_names_where_its_fault_was() -> None:
    notes = (
        "# 1.52.1\n\n## Fixed\n\n"
        "- runtime: revert #41 to fix a regression that causes `spawn_burn` to hang (#42)\n"
    )
    digest = _edition([make_pull("chore: prepare to release v1.52.1", notes=notes, number=43)])
    assert digest.headline.endswith("with a fix for a hang in spawn_burn"), digest.headline


def test_notes_after_two_releases_say_whose_they_are() -> None:
    notes = "## 2.4.3\n\n### Fixed\n\n- gauge: keep the needle steady at idle (#91)\n"
    pulls = [
        make_pull("release: v2.4.3", number=94, notes=notes),
        make_pull("release: v2.4.2", number=93, notes=notes.replace("2.4.3", "2.4.2"), minute=1),
    ]
    body = _edition(pulls).body
    assert "The notes of version 2.4.3 list" in body and "Its notes" not in body, body


def test_a_breaking_section_is_believed_and_the_notes_keeping_themselves_are_upkeep() -> None:
    entry = "* ♻️ Refactor internals to preserve `PadRouter` instances. PR #45 by @someone.\n"
    notes = (
        f"## v0.137.0\n\n### Breaking Changes\n\n{entry}### Breaking Changes\n\n{entry}"
        "#### Specific Breaking Changes\n* 📝 Update release notes. PR #47 by @someone.\n"
    )
    found = release_notes(make_pull("🔖 Release version 0.137.0", notes=notes))
    assert [(n.kind, n.text) for n in found] == [
        ("breaking", "Refactor internals to preserve `PadRouter` instances"),
        ("upkeep", "Update release notes"),
    ]


def test_a_bare_version_title_with_its_changelog_is_a_release_and_an_empty_one_follows() -> None:
    files = {"Releases.md": (12, 0), "Cargo.toml": (2, 2)}
    pulls = [
        make_pull(
            "4.2.0",
            notes="### 4.2.0 / 2026.03.04\n\n- feat(pad): add a launch window flag (#31)\n"
            "- fix(gauge): fix a crash when the tank reads empty (#32)\n",
            files=files,
            number=90,
        ),
        make_pull("4.2.1", notes="### 4.2.1 / 2026.03.04", files=files, number=91, minute=5),
    ]
    digest = _edition(pulls)
    assert digest.headline.startswith("rocket releases version 4.2.0"), digest.headline
    [item] = digest.action_items
    assert item.text.startswith("Upgrade rocket to version 4.2.1"), item.text
    assert "the notes of version 4.2.0 list" in item.text, item.text
    assert not problems(digest, pulls)


def test_entries_are_counted_as_their_headings_file_them() -> None:
    from digest.summarize.releases import count_by_kind

    notes = (
        "## 0.15.1\n\n### Bug fixes\n\n- Fix a gauge panic (#1)\n- Fix the pad light (#2)\n\n"
        "### Rule changes\n\n- Fix a false positive in `PAD001` (#3)\n"
        "- Add the new `PAD002` check (#4)\n"
    )
    counted = dict(count_by_kind(release_notes(make_pull("Release 0.15.1", notes=notes))))
    assert counted == {"fix": 2, "other": 2}, counted
    changeset = "## 2.4.13\n\n### Patch Changes\n\n- Fixed a crash in the pad parser (#5)\n"
    counted = dict(count_by_kind(release_notes(make_pull("Version Packages", notes=changeset))))
    assert counted == {"fix": 1}, counted


def test_a_fix_the_day_s_release_lists_is_not_a_second_item_beside_its_upgrade() -> None:
    from digest.models import Urgency
    from digest.summarize.classify import classify
    from digest.summarize.extractive.actions import _one_upgrade
    from digest.summarize.extractive.drafting import Action

    release, fix = (classify(make_pull(t)) for t in ("Release 2.4.1", "pad: fix a leak"))
    upgrade = Action(
        "Upgrade", "Upgrade rocket to version 2.4.1: …", Urgency.PLAN, (release,), "acme/rocket"
    )
    again = Action(
        "Re-test",
        "Take version 2.4.1, out today, if you have hit a leak: …",
        Urgency.MONITOR,
        (fix,),
        "acme/rocket",
    )
    [kept] = _one_upgrade([upgrade, again], {"acme/rocket": "version 2.4.1"})
    assert kept.verb == "Upgrade" and kept.items == (release, fix), kept


def test_a_bold_label_inside_an_entry_files_no_entry_under_it() -> None:
    from digest.summarize.releases import count_by_kind

    notes = (
        "## 2.4.13\n\n### Patch Changes\n\n- Added the nursery rule `noLoosePads`.\n\n"
        "  **Invalid**\n\n  ```js\n  pad()\n  ```\n\n"
        "- Fixed the gauge reading of empty tanks in the pad parser.\n"
    )
    counted = dict(count_by_kind(release_notes(make_pull("Version Packages", notes=notes))))
    assert counted == {"fix": 1, "feature": 1}, counted


def test_every_entry_of_a_long_release_is_counted_and_credits_are_not() -> None:
    """A release with more entries than a summary quotes is counted whole; the people it
    thanks are no entries."""
    fixes = "\n".join(f"- engine: fix stall number {n} under load ([#{n}])" for n in range(1, 46))
    notes = (
        "## 3.0.0\n\n### Bug fixes\n\n"
        f"{fixes}\n\n"
        "### New Contributors\n\n"
        "- @ada made their first contribution in https://github.com/acme/rocket/pull/9\n"
        "- @grace made their first contribution in https://github.com/acme/rocket/pull/10\n\n"
        "### Documentation\n\n- docs: explain how the countdown option is set\n"
    )
    entries = release_notes(make_pull("Release 3.0.0", notes=notes))
    assert count_by_kind(entries) == [("fix", 45), ("other", 1)]


def test_an_entry_with_an_abbreviation_is_one_sentence_and_one_cut_open_still_counts() -> None:
    notes = (
        "## 1.2.0\n\n### Features\n\n"
        "- Added the rule `useFins` that ensures platform fins (e.g. `Delta`, `Canard`) are"
        " only used on rockets that can carry them. It also reports mixed fins.\n"
        "- Added the option `ignite` (see the launch guide for how `ignite` and `abort"
        " interact). More text.\n"
    )
    entries = release_notes(make_pull("Release 1.2.0", notes=notes))
    assert [note.kind for note in entries] == ["feature", "feature"]
    assert entries[0].text.endswith(
        "(e.g. `Delta`, `Canard`) are only used on rockets that can carry them"
    )
    assert entries[1].text == "Added the option `ignite`"


def test_an_upgrade_item_counts_no_upkeep_among_the_entries_it_brings() -> None:
    notes = (
        "## 2.4.1\n\n### Fixed\n\n- valves: close the valve when pressure drops (#41)\n\n"
        "### Internal\n\n- Fix all tests are skipped on Windows (#43)\n"
    )
    (action,) = _edition([make_pull("release: v2.4.1", number=44, notes=notes)]).action_items
    assert "close the valve when pressure drops" in action.text, action.text
    assert "more entr" not in action.text, action.text


def test_a_release_headline_names_its_one_fix_by_a_fault_a_reader_knows() -> None:
    fixed = "- Fixes an issue where renaming a stage triggers a build error (#41)\n"
    notes = f"## 2.4.1\n\n### Fixed\n\n{fixed}"
    digest = _edition([make_pull("release: v2.4.1", number=44, notes=notes)])
    assert digest.headline.endswith("with a fix for a build error"), digest.headline
    vague = "## 2.4.1\n\n### Fixed\n\n- Fixes an error when the pad is renamed (#41)\n"
    digest = _edition([make_pull("release: v2.4.1", number=44, notes=vague)])
    assert "a fix for an error" not in digest.headline, digest.headline


def test_an_upgrade_item_counts_upkeep_apart_so_its_count_matches_the_notes() -> None:
    notes = (
        "## 2.4.1\n\n### Fixed\n\n- valves: close the valve when pressure drops (#41)\n"
        "- gauge: read the needle again after a reset (#42)\n\n"
        "### Internal\n\n- Fix all tests are skipped on Windows (#43)\n"
    )
    (action,) = _edition([make_pull("release: v2.4.1", number=44, notes=notes)]).action_items
    assert "and one more entry for users" in action.text, action.text
