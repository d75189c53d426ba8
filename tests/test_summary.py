"""`digest run --summary`: the Markdown a scheduler shows (GitHub Actions' step summary)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from digest.cli import main
from tests.fake_github import FakeGitHub, FakePull
from tests.gitrepo import GitRepo, at

DAY = dt.date(2026, 3, 4)
NOW = {"WIRE_NOW": "2026-03-05T06:00:00Z"}
CONFIG = """\
site:
  title: Summary Wire
  base_url: https://news.example.org/
projects:
  - name: Rocket
    repos:
      - name: acme/rocket
        git: rocket
      - name: acme/ground
        git: missing-clone
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    repo = GitRepo(tmp_path / "rocket")
    repo.commit("Initial import", at(DAY - dt.timedelta(days=1)), {"a.py": "a = 1\n"})
    repo.commit("Add the | pipe *gimbal* [x](y) (#1)", at(DAY, 9), {"gimbal.py": "g = 1\n" * 9})
    (tmp_path / "digest.yaml").write_text(CONFIG)
    return tmp_path


def table(markdown: str) -> list[list[str]]:
    """Return the rows of the Markdown table in ``markdown`` (its header and rule left out)."""
    rows = [line for line in markdown.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows[2:]]


def test_the_summary_lists_editions_reuse_and_repositories_left_out(folder: Path) -> None:
    summary = folder / "summary.md"
    config = str(folder / "digest.yaml")
    args = ["run", "--since", "2026-03-03", "--until", "2026-03-04", "--summary", str(summary)]
    assert main([*args, "--config", config], env=NOW) == 1
    first = summary.read_text()
    rows = table(first)
    assert [row[:2] for row in rows] == [["rocket", "2026-03-03"], ["rocket", "2026-03-04"]]
    assert rows[0][3] == rows[1][3] == "1 read, 0 reused, 1 left out"
    # The headline is PR text: its Markdown is escaped, so the table keeps four cells.
    assert "\\|" in rows[1][2] and "\\*" in rows[1][2] and "\\[" in rows[1][2]
    assert "**2 editions**" in first
    assert first.count("- **acme/ground** on 2026-03-0") == 2
    assert "Exit status 1:" in first
    assert "GitHub rate limits" not in first  # no repository is read from GitHub

    summary.unlink()
    assert main([*args, "--config", config], env=NOW) == 1
    rows = table(summary.read_text())
    assert rows[0][3] == rows[1][3] == "0 read, 1 reused, 1 left out"


def test_the_summary_counts_the_github_requests_of_the_run(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    fake_github.add("acme/rocket", FakePull(101, "Add gimbal control", at(DAY, 9)))
    fake_github.add("acme/ground", FakePull(7, "Pour the launch pad", at(DAY, 8)))
    config = tmp_path / "digest.yaml"
    config.write_text(
        "site: {title: T, base_url: 'https://n.example.org/'}\n"
        "projects: [{name: Rocket, repos: [{name: acme/rocket}, {name: acme/ground}]}]\n"
    )
    summary = tmp_path / "summary.md"
    env = NOW | {"GITHUB_API_URL": fake_github.url, "GITHUB_TOKEN": "ghp_FAKE0summary0SECRET"}
    args = ["run", "--date", str(DAY), "--summary", str(summary), "--config", str(config)]
    assert main(args, env=env) == 0
    text = summary.read_text()
    match = re.search(r"graphql ([\d,]+) of ([\d,]+) left \((\d+) used by this token", text)
    assert match, text
    assert int(match[3]) == 2  # one GraphQL request per repository-day
    assert int(match[1].replace(",", "")) == 5000 - 2
    assert "SECRET" not in text


def test_a_summary_that_cannot_be_written_stops_the_run_before_it_starts(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = folder / "no-such-folder" / "summary.md"
    args = ["run", "--date", str(DAY), "--summary", str(summary)]
    assert main([*args, "--config", str(folder / "digest.yaml")], env=NOW) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"digest: error: --summary {summary}: no such folder {summary.parent}"
    ]
    assert not (folder / "data").exists()


@pytest.mark.parametrize("wait", ["-1", "soon", "nan", "inf"])
def test_wait_takes_a_number_of_seconds(folder: Path, wait: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["render", "--wait", wait, "--config", str(folder / "digest.yaml")], env=NOW)
    assert exit_.value.code == 2
