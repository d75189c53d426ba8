"""Names: repositories as their project writes them, areas as places, never subjects."""

from __future__ import annotations

import msgspec.structs
import pytest

from digest.config import ProjectSettings, RepoSettings
from digest.models import RepoName
from digest.summarize.extractive import ExtractiveWriter
from digest.summarize.naming import name_problems, opens_with_area, opens_with_name
from digest.summarize.select import make_brief
from digest.summarize.stories import place_told, story_sentence
from tests.pulls import DAY, make_pull

PROJECT = ProjectSettings(name="rocket", repos=(RepoSettings(name="acme/rocket"),))

BOOSTER = {"stages/booster/thrust.py": (60, 4)}


def test_a_sentence_never_opens_with_a_name_spelt_otherwise() -> None:
    assert opens_with_name("Rocketworks adds X [1].", "RocketWorks")
    assert opens_with_name("Torchao removes X [1].", "torchao")
    assert opens_with_name("torchao removes X [1].", "torchao")  # would need a capital
    assert not opens_with_name("RocketWorks adds X [1].", "RocketWorks")
    assert not opens_with_name("The torchao project removes X [1].", "torchao")
    assert not opens_with_name("Torchaoist tools [1].", "torchao")


def test_an_area_is_never_a_subject() -> None:
    assert opens_with_area("Rl lands the new trainer [1].", "RL")
    assert opens_with_area("The NXP backend adds split [1].", "NXP backend")
    assert not opens_with_area("The MLX partitioner can place X [1].", "MLX")
    assert not opens_with_area("In the NXP backend, rocket adds split [1].", "NXP backend")


@pytest.mark.parametrize("label", ["RocketWorks", "rocketworks", None])
def test_editions_name_repositories_and_areas_as_the_rules_say(label: str | None) -> None:
    pulls = [
        make_pull("Booster stage: Add staging support", files=BOOSTER),
        make_pull("[RL] Fix a crash when the fuel gauge reads NaN", minute=1),
        make_pull("Add a pad light", repo="acme/pad", files={"pad/light.py": (30, 0)}),
        make_pull(
            "Add a telemetry dashboard",
            "Rocketworks now logs every burn to the dashboard.",
            minute=2,
        ),
    ]
    repos = (RepoSettings(name="acme/rocket", display_name=label), RepoSettings(name="acme/pad"))
    brief = make_brief(ProjectSettings(name="Rocket", repos=repos), DAY, pulls)
    digest = ExtractiveWriter().write(brief)
    digest = msgspec.structs.replace(
        digest,
        repos=("acme/rocket", "acme/pad"),
        repo_names=(RepoName("acme/rocket", label),) if label else (),
    )
    assert name_problems(digest, pulls) == [], digest.body
    shown = label or "rocket"
    assert "merged" in digest.dek and "Pad " not in digest.dek
    assert "In Booster stage, " in digest.body and "In RL, " in digest.body
    assert f"{shown} " in digest.body
    # The description's sentence opens with the brand spelt otherwise than its label says.
    assert label is None or "Rocketworks now" not in digest.body
    assert "Rl " not in digest.body and "Booster stage adds" not in digest.body


def test_name_problems_finds_what_the_old_writer_wrote() -> None:
    pulls = [make_pull("[RL] Add a trainer", repo="acme/rocket")]
    brief = make_brief(
        ProjectSettings(name="Rocket", repos=(RepoSettings(name="acme/rocket"),)), DAY, pulls
    )
    digest = msgspec.structs.replace(
        ExtractiveWriter().write(brief),
        body="Rl adds a trainer [1]. Rocket also lands X [1].",
        dek="Rocket adds a trainer, among one change.",
    )
    found = name_problems(digest, pulls)
    assert any("area 'RL'" in f for f in found), found
    assert any("mis-capitalised name 'Rocket'" in f and f.startswith("dek") for f in found), found


def test_a_place_is_named_unless_a_change_names_it_itself_as_a_word() -> None:
    scss = make_pull("feat(css): add support for SCSS media queries", files=BOOSTER)
    named = make_pull("feat(css): add CSS nesting", files=BOOSTER)
    for pull, place in ((scss, "CSS"), (named, "")):
        (story,) = make_brief(PROJECT, DAY, [pull]).stories
        assert place_told(story, story.items) == place


def test_a_third_story_of_a_repository_says_it_also() -> None:
    pulls = [make_pull(f"Add gimbal {n} registry", files=BOOSTER) for n in ("a", "b")]
    (story,) = make_brief(PROJECT, DAY, pulls[:1]).stories

    def cite(item: object) -> str:
        return " [1]"

    assert story_sentence(story, story.items, cite, following=1)[0].startswith(
        "The rocket project also adds"
    )
    assert story_sentence(story, story.items, cite, following=2)[0].startswith("It also adds")


def test_a_topic_tag_that_ends_in_a_kind_of_work_is_no_place_but_its_example_is() -> None:
    pulls = [
        make_pull("Add a booster abort mode", files={"src/rocket/booster.py": (400, 20)}),
        make_pull(
            "Thrust Perf: Multiply the burn in-loop to avoid spills",
            files={"examples/thrust.py": (8, 4), "test/test_thrust.py": (2, 0)},
            minute=1,
        ),
    ]
    digest = ExtractiveWriter().write(make_brief(PROJECT, DAY, pulls))
    assert "In the thrust example, rocket multiplies the burn" in digest.body, digest.body
    assert "In Thrust Perf" not in digest.body


def test_a_scope_naming_a_monorepo_package_is_that_package() -> None:
    pulls = [
        make_pull(
            "fix(legacy)!: raise the modern pad threshold",
            files={"packages/plugin-legacy/src/index.ts": (30, 4)},
        )
    ]
    digest = ExtractiveWriter().write(make_brief(PROJECT, DAY, pulls))
    assert digest.body.startswith("In the plugin-legacy package, rocket raises"), digest.body
