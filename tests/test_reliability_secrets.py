"""A live token quoted in a pull request is never stored or published (issue 24, item 5).

Part of the reliability tier: the token is pasted into a commit's title and message (a
command line copied into a description), once raw and once URL-encoded.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from urllib.parse import quote

import pytest

from digest.cli import main
from digest.secrets import REDACTED
from tests.fake_github import FakeGitHub, FakePull
from tests.gitrepo import GitRepo, at
from tests.test_cli import CONFIG
from tests.test_github_cli import write_config

pytestmark = pytest.mark.reliability
DAY = dt.date(2026, 3, 4)
TOKEN = "ghp_L1ve0Token0Quoted0In0A0Commit0Message0"
KEY = "sk-proj-0pasted0model0key0in0a0description"
ENV = {"WIRE_NOW": "2026-03-05T06:00:00Z", "GITHUB_TOKEN": TOKEN, "OPENAI_API_KEY": KEY}


def everything(folder: Path) -> str:
    """The text of every file under ``folder`` (data, pages, feeds)."""
    return "\n".join(p.read_text(errors="replace") for p in folder.rglob("*") if p.is_file())


def test_a_token_in_a_commit_message_is_redacted_before_it_is_stored(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "rocket")
    repo.commit("Initial import", at(DAY - dt.timedelta(days=1), 9), {"src/a.py": "a = 0\n"})
    repo.commit(
        f"Fix the upload script that printed {TOKEN} (#101)",
        at(DAY, 9),
        {"scripts/upload.sh": "curl -H auth\n"},
    )
    repo.commit(
        "Rotate the release credentials (#102)\n\n"
        f"Ran `GITHUB_TOKEN={TOKEN} OPENAI_API_KEY={KEY} make release`; "
        f"the URL was https://x.invalid/?t={quote(TOKEN, safe='')}.",
        at(DAY, 11),
        {"scripts/release.sh": "make release\n"},
    )
    (tmp_path / "digest.yaml").write_text(CONFIG.format(extra=""))
    config = str(tmp_path / "digest.yaml")

    assert main(["run", "--date", str(DAY), "--config", config], env=ENV) == 0

    stored = json.loads((tmp_path / "data/collected/acme/rocket/2026-03-04.json").read_text())
    titles = [pull["title"] for pull in stored["pulls"]]
    assert titles[0] == f"Fix the upload script that printed {REDACTED}"
    assert f"GITHUB_TOKEN={REDACTED} OPENAI_API_KEY={REDACTED}" in stored["pulls"][1]["body"]
    published = everything(tmp_path / "data") + everything(tmp_path / "site")
    for secret in (TOKEN, KEY, quote(TOKEN, safe="")):
        assert secret not in published
    assert REDACTED in (tmp_path / "site/rocket/2026-03-04.html").read_text()


def test_a_token_in_a_github_pull_request_is_redacted_before_it_is_stored(
    tmp_path: Path, fake_github: FakeGitHub
) -> None:
    fake_github.add(
        "acme/rocket",
        FakePull(101, f"Stop logging {TOKEN}", at(DAY, 9), body=f"The log held `{TOKEN}`."),
    )
    fake_github.add("acme/ground", FakePull(7, "Pour the launch pad", at(DAY, 8)))
    config = str(write_config(tmp_path))
    env = ENV | {"GITHUB_API_URL": fake_github.url}

    assert main(["run", "--date", str(DAY), "--config", config], env=env) == 0

    stored = json.loads((tmp_path / "data/collected/acme/rocket/2026-03-04.json").read_text())
    assert stored["pulls"][0]["title"] == f"Stop logging {REDACTED}"
    assert TOKEN not in everything(tmp_path / "data") + everything(tmp_path / "site")


def test_a_short_value_is_no_token_and_pull_request_words_stay(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "rocket")
    repo.commit("Initial import", at(DAY - dt.timedelta(days=1), 9), {"src/a.py": "a = 0\n"})
    repo.commit("Serve the local model (#101)", at(DAY, 9), {"src/serve.py": "local = 1\n"})
    (tmp_path / "digest.yaml").write_text(CONFIG.format(extra=""))
    env = {"WIRE_NOW": ENV["WIRE_NOW"], "OPENAI_API_KEY": "local"}

    assert (
        main(["collect", "--date", str(DAY), "--config", str(tmp_path / "digest.yaml")], env=env)
        == 0
    )

    stored = json.loads((tmp_path / "data/collected/acme/rocket/2026-03-04.json").read_text())
    assert stored["pulls"][0]["title"] == "Serve the local model"
