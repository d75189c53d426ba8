"""`digest run` and `digest doctor` as a user runs them, against the fake GitHub API."""

from __future__ import annotations

import datetime as dt
import json
import socket
from pathlib import Path

import html5lib
import pytest

from digest.cli import main
from tests.factories import executable_scripts
from tests.fake_github import FakeGitHub, FakePull, Fault
from tests.gitrepo import GitRepo, at

DAY = dt.date(2026, 3, 4)
TOKEN = "ghp_FAKE0cli0token0SECRET0do0not0print"
CONFIG = """\
site:
  title: Rocket Wire
  base_url: https://acme.github.io/rocket/
github:
  retries: {retries}
projects:
  - name: Rocket
    repos:
      - name: acme/rocket
      - name: acme/ground
{extra}"""


@pytest.fixture
def api(fake_github: FakeGitHub) -> FakeGitHub:
    """Two repositories of the Rocket project with a day of merges."""
    fake_github.add(
        "acme/rocket",
        FakePull(
            101,
            "Booster stage: add gimbal control",
            at(DAY, 9),
            body="### Summary\nThe booster can now steer its engines during ascent, "
            "which removes the need for fins.\n\nFixes #12",
            author="grace",
            labels=("feature",),
            files=(("stages/booster/gimbal.py", 60, 0),),
            reviews=(("linus", "APPROVED", 1),),
            comments=2,
            participants=("grace", "linus"),
            closes=(12,),
        ),
        FakePull(102, "Fix <script>alert(1)</script> fuel gauge", at(DAY, 11)),
        FakePull(103, 'Revert "Fix fuel gauge"', at(DAY, 15), body="Reverts acme/rocket#102"),
        FakePull(90, "Older change", at(DAY - dt.timedelta(days=1), 9)),
    )
    fake_github.add("acme/ground", FakePull(7, "Pour the launch pad", at(DAY, 8)))
    return fake_github


def write_config(folder: Path, *, retries: int = 2, extra: str = "") -> Path:
    path = folder / "digest.yaml"
    path.write_text(CONFIG.format(retries=retries, extra=extra))
    return path


def digest(config: Path, api: FakeGitHub | str, *args: str, token: bool = True) -> int:
    url = api if isinstance(api, str) else api.url
    env = {"GITHUB_API_URL": url, "WIRE_NOW": "2026-03-05T06:00:00Z"}
    if token:
        env["GITHUB_TOKEN"] = TOKEN
    return main([*args, "--config", str(config)], env=env)


def every_file(folder: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in folder.rglob("*") if p.is_file())


def test_run_builds_the_edition_from_github(
    tmp_path: Path, api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    assert digest(config, api, "run", "--date", "2026-03-04") == 0

    edition = json.loads((tmp_path / "data/digests/rocket/2026-03-04.json").read_text())
    assert {(c["repo"], c["number"]) for c in edition["changes"]} == {
        ("acme/rocket", 101),
        ("acme/rocket", 102),
        ("acme/rocket", 103),
        ("acme/ground", 7),
    }
    assert edition["repos"] == ["acme/rocket", "acme/ground"]
    assert edition["failed_repos"] == []
    collected = json.loads((tmp_path / "data/collected/acme/rocket/2026-03-04.json").read_text())
    assert collected["source"] == "github"
    gimbal = next(p for p in collected["pulls"] if p["number"] == 101)
    assert gimbal["reviews"] == [{"author": "linus", "state": "APPROVED"}]
    assert gimbal["linked_issues"] == [12]
    assert gimbal["url"] == "https://github.com/acme/rocket/pull/101"
    revert = next(p for p in collected["pulls"] if p["number"] == 103)
    assert revert["reverts"]["number"] == 102

    page = (tmp_path / "site/rocket/2026-03-04.html").read_bytes()
    tree = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(page)
    assert "".join(tree.find(".//h1").itertext()).strip() == edition["headline"]
    assert not executable_scripts(tree)
    links = {a.get("href") for a in tree.iter("a")}
    assert "https://github.com/acme/rocket/pull/101" in links

    # One GraphQL request per repository for the day.
    assert api.count() == api.count("/graphql") == 2
    out = capsys.readouterr()
    assert TOKEN not in out.out + out.err
    assert TOKEN not in every_file(tmp_path)


@pytest.mark.parametrize("broken", ["missing", "server-error"])
def test_one_failing_repository_is_reported_and_the_other_published(
    tmp_path: Path, api: FakeGitHub, capsys: pytest.CaptureFixture[str], broken: str
) -> None:
    config = write_config(tmp_path, retries=0)
    if broken == "missing":
        del api.repos["acme/ground"]
    else:
        api.faults = {2: Fault.server_error(502)}  # the second repository's only request
    assert digest(config, api, "run", "--date", "2026-03-04") == 1

    edition = json.loads((tmp_path / "data/digests/rocket/2026-03-04.json").read_text())
    (failure,) = edition["failed_repos"]
    assert failure["repo"] == "acme/ground"
    # The edition says a public reason; the log says the details.
    public, reason = {
        "missing": ("repository not found", "no such repository at "),
        "server-error": ("server error", "GitHub kept failing (502: Server Error)"),
    }[broken]
    assert failure["reason"] == public
    assert {c["number"] for c in edition["changes"]} == {101, 102, 103}
    assert (tmp_path / "data/collected/acme/rocket/2026-03-04.json").exists()
    assert not (tmp_path / "data/collected/acme/ground").exists()
    assert "acme/ground" in (tmp_path / "site/rocket/2026-03-04.html").read_text()
    err = capsys.readouterr().err
    assert reason in err and "Traceback" not in err


def test_a_failed_refresh_keeps_the_stored_collection(
    tmp_path: Path, api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, retries=0)
    assert digest(config, api, "run", "--date", "2026-03-04") == 0
    stored = tmp_path / "data/collected/acme/ground/2026-03-04.json"
    before = stored.read_bytes()
    capsys.readouterr()

    api.faults = {n: Fault.server_error(502) for n in range(api.count() + 1, api.count() + 20)}
    assert digest(config, api, "run", "--date", "2026-03-04", "--refresh") == 0

    assert stored.read_bytes() == before
    edition = json.loads((tmp_path / "data/digests/rocket/2026-03-04.json").read_text())
    assert edition["failed_repos"] == []
    assert {(c["repo"], c["number"]) for c in edition["changes"]} == {
        ("acme/rocket", 101),
        ("acme/rocket", 102),
        ("acme/rocket", 103),
        ("acme/ground", 7),
    }
    err = capsys.readouterr().err
    assert "acme/ground 2026-03-04: re-collecting failed; kept the collection of" in err
    assert "(1 change, complete)" in err


@pytest.mark.parametrize("rest_works", [True, False])
def test_files_that_cannot_be_read_are_retried_then_flagged(
    tmp_path: Path, fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], rest_works: bool
) -> None:
    files = tuple((f"src/module{n}.py", n, 0) for n in range(235))
    fake_github.add("acme/rocket", FakePull(101, "Rename every module", at(DAY, 9), files=files))
    fake_github.add("acme/ground", FakePull(7, "Pour the launch pad", at(DAY, 8)))
    config = write_config(tmp_path, retries=0)
    # Request 1 is the search; 2 and its retry 3 ask for files 101-200; then REST.
    broken = range(2, 4) if rest_works else range(2, 40)
    fake_github.faults = {n: Fault.server_error(502) for n in broken}
    status = digest(config, fake_github, "run", "--date", "2026-03-04")

    pulls = json.loads((tmp_path / "data/collected/acme/rocket/2026-03-04.json").read_text())
    (pull,) = pulls["pulls"]
    assert pull["changed_files"] == 235
    err = capsys.readouterr().err
    assert "acme/rocket#101: files after the first 100 could not be read through GraphQL" in err
    page = (tmp_path / "site/rocket/2026-03-04.html").read_text()
    if rest_works:
        assert status == 0
        assert len(pull["files"]) == 235 and pull["files_complete"] is True
        assert "not every changed file could be read" not in page
    else:
        assert len(pull["files"]) == 100 and pull["files_complete"] is False
        assert "only 100 of its 235 changed files could be read" in err
        assert "not every changed file could be read" in page


def test_doctor_says_all_is_well(
    tmp_path: Path, api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    clone = GitRepo(tmp_path / "clones/pad")
    clone.commit("Initial import", at(DAY, 9), {"pad.txt": "concrete\n"})
    config = write_config(tmp_path, extra="      - name: acme/pad\n        git: clones/pad\n")
    head = clone.git("rev-parse", "HEAD").strip()
    assert digest(config, api, "doctor") == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        f"ok    configuration: {config}: 1 project, 3 repositories "
        "(2 on GitHub, 1 from git clones)",
        "ok    GitHub token: from GITHUB_TOKEN (not shown)",
        "ok    GitHub rate limit: core 5,000 of 5,000 left, search 30 of 30 left, "
        "graphql 5,000 of 5,000 left",
        "ok    GitHub GraphQL: answers the token (budget 4,999 of 5,000)",
        "ok    acme/rocket: reachable on GitHub; 4 pull requests merged in the last 7 days",
        "ok    acme/ground: reachable on GitHub; 1 pull request merged in the last 7 days",
        f"ok    acme/pad: clone {tmp_path / 'clones/pad'}, branch main at {head[:12]}, "
        "last changed 2026-03-04 09:00 UTC",
        "digest doctor: all good",
    ]
    assert TOKEN not in out
    assert all(seen.authorization == f"token {TOKEN}" for seen in api.seen)


def test_doctor_says_what_to_fix(
    tmp_path: Path, api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    del api.repos["acme/ground"]
    config = write_config(tmp_path, extra="      - name: acme/pad\n        git: clones/pad\n")
    assert digest(config, api, "doctor", token=False) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == [
        "warn  GitHub token: none: GitHub is read anonymously (REST only, 60 requests an hour)",
        "      fix: export GITHUB_TOKEN=<a token that can read the repositories>",
        "ok    GitHub rate limit: core 60 of 60 left, search 10 of 10 left",
        "ok    GitHub GraphQL: not used without a token (REST only)",
        "ok    acme/rocket: reachable on GitHub; 4 pull requests merged in the last 7 days",
        f"FAIL  acme/ground: no such repository at {api.url} (or it is private and anonymous "
        "access cannot see it); check its name in the configuration",
        "      fix: check the name, and that the token can read the repository",
        f"FAIL  acme/pad: no such folder {tmp_path / 'clones/pad'} (the 'git:' path of the "
        "repository)",
        f"      fix: clone it there (git clone --bare <url> {tmp_path / 'clones/pad'}) or correct "
        "'git:' and 'branch:'",
        "digest doctor: 2 problems",
    ]


def test_doctor_with_a_refused_token_or_no_server(
    tmp_path: Path, api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    api.token = "ghp_another_one"
    assert digest(config, api, "doctor") == 1
    out = capsys.readouterr().out
    assert (
        "FAIL  GitHub API, GitHub GraphQL, acme/rocket, acme/ground (4 times): GitHub refused "
        "the token (401: Bad credentials); set a valid GITHUB_TOKEN" in out
    )

    with socket.socket() as probe:  # a port on 127.0.0.1 that nobody listens on
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
    assert digest(config, closed, "doctor") == 1
    out = capsys.readouterr().out
    assert (
        "FAIL  GitHub API, GitHub GraphQL, acme/rocket, acme/ground (4 times): network "
        f"unreachable: cannot reach GitHub at {closed}" in out
    )
    assert TOKEN not in out


def test_doctor_advice_follows_the_failure(
    tmp_path: Path, api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    api.faults = {n: Fault.server_error(503) for n in range(1, 100)}
    assert digest(config, api, "doctor") == 1
    out = capsys.readouterr().out
    assert "fix: GitHub is failing on its side; try again later" in out
    assert "fix: check the name" not in out

    with socket.socket() as probe:  # a port on 127.0.0.1 that nobody listens on
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
    assert digest(config, closed, "doctor") == 1
    out = capsys.readouterr().out
    assert "fix: check the network or proxy, and github.api_url / GITHUB_API_URL" in out
    assert "fix: check the name" not in out


def test_doctor_checks_merged_label_against_the_last_week(
    tmp_path: Path, fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    # acme/rocket lands like pytorch/pytorch (closed by a bot and labelled); acme/ground
    # merges through GitHub but is configured with a label.
    bot = {"closed_at": at(DAY, 9), "labels": ("Merged",)}
    fake_github.add("acme/rocket", FakePull(1, "Landed", None, **bot))  # type: ignore[arg-type]
    fake_github.add("acme/ground", FakePull(7, "Pour the pad", at(DAY - dt.timedelta(days=6), 8)))
    config = tmp_path / "digest.yaml"
    config.write_text(
        CONFIG.format(retries=1, extra="").replace(
            "- name: acme/ground", "- name: acme/ground\n        merged_label: landed"
        )
    )
    assert digest(config, fake_github, "doctor") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[4:] == [
        "warn  acme/rocket: reachable on GitHub; none merged through GitHub in the last 7 days, "
        "but 1 pull request closed with the label 'Merged' (a merge bot lands them so)",
        "      fix: put 'merged_label: Merged' under acme/rocket in the configuration",
        "warn  acme/ground: reachable on GitHub; none closed with the label 'landed' in the last "
        "7 days, but 1 pull request merged through GitHub",
        "      fix: remove 'merged_label: landed' from acme/ground in the configuration",
        "digest doctor: no problems, 2 warnings",
    ]


def test_doctor_says_when_the_server_has_no_graphql_or_refuses_it(
    tmp_path: Path, api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    api.graphql = False
    assert digest(config, api, "doctor") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[3:5] == [
        f"warn  GitHub GraphQL: no GraphQL API at {api.url}; every repository is read through "
        "REST (about 3 requests per pull request instead of 1 per 100)",
        "      fix: nothing to fix on GitHub Enterprise without GraphQL; otherwise check "
        "github.api_url",
    ]
    assert api.count("/graphql") == 1

    api.graphql = True
    api.faults = {len(api.seen) + 2 + n: Fault.server_error(502) for n in range(3)}
    assert digest(config, api, "doctor") == 1
    out = capsys.readouterr().out.splitlines()
    assert out[3:5] == [
        "FAIL  GitHub GraphQL: GitHub kept failing (502: Server Error) after the retries in "
        "github.retries",
        "      fix: GitHub is failing on its side; try again later (nothing to change here)",
    ]


def test_a_run_probes_graphql_once_and_reads_every_repository_through_one_client(
    tmp_path: Path, api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    api.graphql = False
    assert digest(config, api, "collect", "--since", "2026-03-03", "--until", "2026-03-04") == 0
    err = capsys.readouterr().err
    assert api.count("/graphql") == 1  # two repositories, two days: one probe
    assert err.count("no GraphQL API at") == 1
    stored = json.loads((tmp_path / "data/collected/acme/rocket/2026-03-04.json").read_text())
    assert [p["number"] for p in stored["pulls"]] == [101, 102, 103]
