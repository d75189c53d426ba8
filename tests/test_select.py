from digest.config import ProjectSettings, RepoSettings, TopicSettings
from digest.summarize.classify import classify, split_title
from digest.summarize.select import group_stories, make_brief
from tests.pulls import DAY, busy_day, make_pull, revert_of


def test_split_title_separates_area_and_kind_markers() -> None:
    assert split_title("[ROCm][CI] Switch runner label") == ("ROCm", "Switch runner label", ("ci",))
    assert split_title("Arm backend: Add FP16 ops") == ("Arm backend", "Add FP16 ops", ())
    assert split_title("Qualcomm AI Engine Direct - Add quant config") == (
        "Qualcomm AI Engine Direct",
        "Add quant config",
        (),
    )
    assert split_title("fix: handle empty input") == ("", "handle empty input", ("fix",))
    assert split_title("Plain title") == ("", "Plain title", ())


def test_kinds() -> None:
    kinds = {p.title: classify(p).kind for p in busy_day()}
    assert kinds["Booster stage: Add throttle support"] == "feature"
    assert kinds["[Guidance] Speed up trajectory solver by caching Jacobians"] == "perf"
    assert kinds["Remove deprecated `launch_legacy()` entry point"] == "breaking"
    assert kinds["Bump telemetry-lib to 2.0.0"] == "deps"
    assert kinds["CI: cache wheels in job 0"] == "ci"
    assert kinds["Fix crash when the fuel sensor reports NaN"] == "fix"
    assert classify(make_pull("Update docs", files={"docs/index.md": (3, 1)})).kind == "docs"
    assert classify(make_pull("Add tests", files={"tests/test_a.py": (30, 0)})).kind == "test"
    assert (
        classify(make_pull("Bump x", author="dependabot[bot]")).score
        < classify(make_pull("Bump x")).score
    )


def test_stories_group_by_area_and_revert_and_rank_real_changes_first() -> None:
    project = ProjectSettings(name="Rocket", repos=(RepoSettings(name="acme/rocket"),))
    brief = make_brief(project, DAY, busy_day())
    leads = [story.lead.pull.title for story in brief.stories]
    booster = next(s for s in brief.stories if s.area == "Booster stage")
    assert len(booster.items) == 3
    fix_story = next(s for s in brief.stories if any(i.kind == "revert" for i in s.items))
    assert [i.kind for i in fix_story.items] == ["fix", "revert"]
    assert leads.index("Remove deprecated `launch_legacy()` entry point") < leads.index(
        "CI: cache wheels in job 0"
    )
    assert brief.stories[-1].kind in {"ci", "deps"}
    assert len(brief.items) == len(busy_day())


def test_topics_match_labels_paths_and_prefixes_in_config_order() -> None:
    topics = (
        TopicSettings(name="Guidance", title_prefixes=("[guidance]",)),
        TopicSettings(name="Nothing", labels=("never",)),
        TopicSettings(name="Boosters", paths=("stages/booster/",)),
        TopicSettings(name="Workflows", paths=(".github/**",)),
    )
    project = ProjectSettings(name="Rocket", repos=(RepoSettings(name="acme/rocket"),))
    brief = make_brief(project, DAY, busy_day(), topics)
    assert brief.topics == ("guidance", "boosters", "workflows")


def test_revert_helper_links() -> None:
    pull = make_pull("Add thing")
    assert revert_of(pull).reverts is not None


def test_only_a_second_imperative_is_conjugated() -> None:
    from digest.summarize.phrasing import parse_title

    assert parse_title("Add helpers and simplify call sites").clause("Arm") == (
        "Arm adds helpers and simplifies call sites"
    )
    assert parse_title("Cache links computed once and shared by both").clause("Sources") == (
        "Sources caches links computed once and shared by both"
    )


def test_two_changes_named_by_the_same_two_names_are_one_story() -> None:
    """ "fp8 attention using FA3" and "FP8 FA3 attention with the SDPA path": one piece of
    work, told as one story; a change sharing one name only is another."""
    titles = (
        "Add new API for low precision fp8 attention using FA3",
        "Add FP8 FA3 low-precision attention with monkey-patch SDPA path",
        "Add FP8 rowwise scaling for the gauge",
    )
    items = [classify(make_pull(t, number=n + 1, minute=n)) for n, t in enumerate(titles)]
    groups = group_stories(items)
    assert sorted(len(g) for g in groups) == [1, 2]
