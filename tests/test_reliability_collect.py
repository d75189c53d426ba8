"""Collections that must not be trusted as they are (issue 24, items 3 and 4).

Part of the reliability tier: a shallow clone's missing history is never stored as a quiet
day, and a stored day collected with other source settings is collected again.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from digest.cli import main
from tests.fake_github import FakeGitHub, FakePull
from tests.gitrepo import GitRepo, at, run_git
from tests.test_cli import CONFIG
from tests.test_github_cli import DAY as GH_DAY
from tests.test_github_cli import digest as github
from tests.test_github_cli import write_config

pytestmark = pytest.mark.reliability
FIRST = dt.date(2026, 3, 1)
DAYS = 6
ENV = {"WIRE_NOW": "2026-03-10T06:00:00Z"}
RANGE = ("--since", "2026-03-01", "--until", "2026-03-06")


def digest(folder: Path, *args: str) -> int:
    return main([*args, "--config", str(folder / "digest.yaml")], env=ENV)


def numbers(folder: Path, day: dt.date) -> list[int] | None:
    """The pull request numbers stored for acme/rocket on ``day``; None when none is stored."""
    path = folder / f"data/collected/acme/rocket/{day}.json"
    if not path.exists():
        return None
    return [pull["number"] for pull in json.loads(path.read_text())["pulls"]]


@pytest.fixture
def upstream(tmp_path: Path) -> GitRepo:
    """Two merges on each of DAYS days from FIRST (the numbers 100 + 2n and 101 + 2n)."""
    repo = GitRepo(tmp_path / "upstream")
    repo.commit("Initial import", at(FIRST - dt.timedelta(days=1), 9), {"src/a.py": "a = 0\n"})
    for n in range(DAYS):
        day = FIRST + dt.timedelta(days=n)
        repo.commit(f"Add stage {n} (#{100 + 2 * n})", at(day, 9), {f"src/s{n}.py": "x = 1\n"})
        repo.commit(f"Fix stage {n} (#{101 + 2 * n})", at(day, 14), {f"src/s{n}.py": "x = 2\n"})
    return repo


def test_a_shallow_clone_says_which_days_it_cannot_read_and_stores_none_of_them(
    tmp_path: Path, upstream: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    # Depth 5: the last five merges, from 2026-03-04 14:00 (stage 3's fix) on.
    upstream.bare_clone(tmp_path / "rocket", "--depth", "5")
    (tmp_path / "digest.yaml").write_text(CONFIG.format(extra=""))

    assert digest(tmp_path, "collect", *RANGE) == 1
    err = capsys.readouterr().err
    assert (
        "acme/rocket: the clone " in err
        and "is shallow: its history starts 2026-03-04 14:00 UTC, so 2026-03-01 to 2026-03-04 "
        "(4 days) cannot be collected; fetch the whole history (git -C "
        in err
    )
    assert err.count("fetch --unshallow") == 5  # the warning, then one line per day
    assert [numbers(tmp_path, FIRST + dt.timedelta(days=n)) for n in range(DAYS)] == [
        None,
        None,
        None,
        None,
        [108, 109],
        [110, 111],
    ]

    assert digest(tmp_path, "doctor") == 0
    out = capsys.readouterr().out
    assert "a shallow clone, its history starts 2026-03-04 14:00 UTC" in out
    assert f"fix: fetch the whole history (git -C {tmp_path / 'rocket'} fetch --unshallow)" in out

    run_git(tmp_path / "rocket", "fetch", "-q", "--unshallow", "origin")
    assert digest(tmp_path, "collect", *RANGE) == 0
    assert "shallow" not in capsys.readouterr().err
    assert [numbers(tmp_path, FIRST + dt.timedelta(days=n)) for n in range(DAYS)] == [
        [100 + 2 * n, 101 + 2 * n] for n in range(DAYS)
    ]


def test_a_clone_fetched_deeper_than_the_history_reads_every_day(
    tmp_path: Path, upstream: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    upstream.bare_clone(tmp_path / "rocket", "--depth", "100")
    (tmp_path / "digest.yaml").write_text(CONFIG.format(extra=""))
    assert digest(tmp_path, "collect", *RANGE) == 0
    assert "shallow" not in capsys.readouterr().err
    assert numbers(tmp_path, FIRST) == [100, 101]


def test_a_day_collected_with_other_source_settings_is_collected_again(
    tmp_path: Path, upstream: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    upstream.branch("release", "HEAD~2")  # without 2026-03-06's two merges
    upstream.checkout("main")
    upstream.bare_clone(tmp_path / "rocket")
    (tmp_path / "digest.yaml").write_text(CONFIG.format(extra="        branch: release"))
    day = FIRST + dt.timedelta(days=DAYS - 1)
    assert digest(tmp_path, "collect", "--date", str(day)) == 0
    assert numbers(tmp_path, day) == []

    (tmp_path / "digest.yaml").write_text(CONFIG.format(extra=""))
    capsys.readouterr()
    assert digest(tmp_path, "collect", "--date", str(day)) == 0
    err = capsys.readouterr().err
    assert (
        f"acme/rocket {day}: collecting again: branch 'release' -> 'main' since it was collected"
        in err
    )
    assert numbers(tmp_path, day) == [110, 111]
    assert digest(tmp_path, "collect", "--date", str(day)) == 0  # the same settings: reused
    assert "collecting again" not in capsys.readouterr().err


def labelled(tmp_path: Path, fake_github: FakeGitHub, label: str | None) -> Path:
    """acme/rocket lands by closing and labelling ``Merged`` (pytorch/pytorch's bot);
    ``label`` is its configured ``merged_label``."""
    bot = {"closed_at": at(GH_DAY, 9), "labels": ("Merged",)}
    fake_github.add(
        "acme/rocket",
        FakePull(1, "Land the gimbal", None, **bot),  # type: ignore[arg-type]
        FakePull(2, "Abandoned idea", None, closed_at=at(GH_DAY, 10)),
    )
    fake_github.add("acme/ground", FakePull(7, "Pour the pad", at(GH_DAY, 8)))
    config = write_config(tmp_path)
    if label is not None:
        setting = f"- name: acme/rocket\n        merged_label: {label}"
        config.write_text(config.read_text().replace("- name: acme/rocket", setting))
    return config


def rocket_pulls(tmp_path: Path) -> list[int]:
    path = tmp_path / f"data/collected/acme/rocket/{GH_DAY}.json"
    return [pull["number"] for pull in json.loads(path.read_text())["pulls"]]


def test_following_the_merged_label_advice_collects_the_day_again(
    tmp_path: Path, fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    config = labelled(tmp_path, fake_github, None)
    assert github(config, fake_github, "collect", "--date", str(GH_DAY)) == 0
    assert "put 'merged_label: Merged' under acme/rocket" in capsys.readouterr().err
    assert rocket_pulls(tmp_path) == []

    config.write_text(
        config.read_text().replace(
            "- name: acme/rocket", "- name: acme/rocket\n        merged_label: Merged"
        )
    )
    assert github(config, fake_github, "collect", "--date", str(GH_DAY)) == 0
    err = capsys.readouterr().err
    assert (
        f"acme/rocket {GH_DAY}: collecting again: merged_label none -> 'Merged' "
        "since it was collected" in err
    )
    assert rocket_pulls(tmp_path) == [1]


@pytest.mark.parametrize(
    ("label", "fix"),
    [
        ("landed", "put 'merged_label: Merged' under acme/rocket in the configuration"),
        ("Merged", None),
    ],
)
def test_a_wrong_merged_label_is_warned_about_when_others_closed_that_day(
    tmp_path: Path,
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    label: str,
    fix: str | None,
) -> None:
    config = labelled(tmp_path, fake_github, label)
    assert github(config, fake_github, "collect", "--date", str(GH_DAY)) == 0
    err = capsys.readouterr().err
    if fix is None:  # the right label: the landed pull request, and no advice
        assert rocket_pulls(tmp_path) == [1]
        assert "merged_label" not in err
        return
    assert rocket_pulls(tmp_path) == []
    assert (
        f"acme/rocket: none closed with the label 'landed' on {GH_DAY}, but 2 pull requests "
        f"closed, 1 of them with the label 'Merged'; {fix}" in err
    )


def test_a_merged_label_matching_nothing_on_a_day_of_unlabelled_closures_says_to_check_it(
    tmp_path: Path, fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_github.add("acme/rocket", FakePull(2, "Abandoned idea", None, closed_at=at(GH_DAY, 10)))
    fake_github.add("acme/ground", FakePull(7, "Pour the pad", at(GH_DAY, 8)))
    config = write_config(tmp_path)
    config.write_text(
        config.read_text().replace(
            "- name: acme/rocket", "- name: acme/rocket\n        merged_label: shipped"
        )
    )
    assert github(config, fake_github, "collect", "--date", str(GH_DAY)) == 0
    assert (
        f"acme/rocket: none closed with the label 'shipped' on {GH_DAY}, but 1 pull request "
        "closed without it; check 'merged_label: shipped' under acme/rocket: it must be the "
        "label the merge bot puts on the pull requests it lands" in capsys.readouterr().err
    )
