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
from tests.gitrepo import GitRepo, at, run_git
from tests.test_cli import CONFIG

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
