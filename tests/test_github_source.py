"""The GitHub source, run through PyGithub over HTTP against the fake API on 127.0.0.1."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import re
import socket
import time
from pathlib import Path
from typing import Any

import msgspec.structs
import pytest

from digest.clock import FixedClock
from digest.config import GitHubSettings, ProjectSettings, RepoSettings, Settings
from digest.errors import WireError
from digest.models import ChangeLink, FileChange, PullRequest, RepoDay, Review
from digest.sources.base import SourceContext
from digest.sources.github import GitHubSource
from digest.sources.github.query import FILES, PROBE, SEARCH
from digest.store import Store
from tests.fake_github import FakeGitHub, FakePull, Fault

DAY = dt.date(2026, 3, 4)
REPO = "acme/rocket"
TOKEN = "ghp_FAKE0token0for0tests0only0SECRET"
WITH_TOKEN = {"GITHUB_TOKEN": TOKEN}
SHAPE = "GitHub's answer has an unexpected shape"
SCHEMA = Path(__file__).resolve().parents[2] / "shared/github-api/graphql-schema.graphql"


def at(hour: int, minute: int = 0, second: int = 0, day: dt.date = DAY) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute, second), tzinfo=dt.UTC)


class Run:
    """One source set up against the fake API; ``sleeps`` records every wait asked for."""

    def __init__(
        self,
        fake: FakeGitHub,
        env: dict[str, str] | None = None,
        now: dt.datetime | None = None,
        **github: Any,
    ) -> None:
        settings = Settings(
            github=GitHubSettings(api_url=fake.url, **github),
            projects=(ProjectSettings(name="Rocket", repos=(RepoSettings(name=REPO),)),),
        )
        self.sleeps: list[float] = []
        clock = FixedClock(now or at(6, day=DAY + dt.timedelta(days=1)))
        context = SourceContext(
            settings=settings, clock=clock, env=WITH_TOKEN if env is None else env
        )
        self.source = GitHubSource(context, sleep=self.sleeps.append)

    def collect(self, name: str = REPO, **repo: Any) -> tuple[PullRequest, ...]:
        return self.source.collect(RepoSettings(name=name, **repo), DAY)

    def fails(self, name: str = REPO, **repo: Any) -> str:
        with pytest.raises(WireError) as caught:
            self.collect(name, **repo)
        return str(caught.value)


def day_of(fake: FakeGitHub) -> None:
    """A day of acme/rocket: a feature, a revert of it, a fix; merges the day before and after."""
    fake.add(
        REPO,
        FakePull(90, "Yesterday's change", at(23, 59, 59, day=DAY - dt.timedelta(days=1))),
        FakePull(
            101,
            "Booster stage: add throttle control",
            at(0, 0, 0),
            body="Adds a throttle.\r\n\r\nFixes #7, closes acme/other#9",
            author="grace",
            labels=("area: boosters", "feature"),
            files=(("stages/booster/throttle.py", 40, 0), ("docs/throttle.md", 12, 2)),
            reviews=(("linus", "CHANGES_REQUESTED", 3), ("linus", "APPROVED", 0)),
            comments=4,
            participants=("grace", "linus"),
            closes=(7,),
        ),
        FakePull(
            103,
            'Revert "Booster stage: add throttle control"',
            at(15),
            body="Reverts acme/rocket#101\n\nIt broke the simulator.",
            author=None,
        ),
        FakePull(102, "Fix fuel gauge \u202ereading", at(11), files=(("src/gauge.py", 1, 1),)),
        FakePull(110, "Tomorrow's change", at(0, 0, 0, day=DAY + dt.timedelta(days=1))),
    )


def test_a_day_comes_in_one_graphql_request_with_everything_the_writer_uses(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    day_of(fake_github)
    caplog.set_level(logging.INFO)
    pulls = Run(fake_github).collect()

    assert [p.number for p in pulls] == [101, 102, 103]
    assert pulls[0] == PullRequest(
        repo=REPO,
        number=101,
        title="Booster stage: add throttle control",
        body="Adds a throttle.\n\nFixes #7, closes acme/other#9",
        url="https://github.com/acme/rocket/pull/101",
        merged_at=at(0, 0, 0),
        author="grace",
        sha=pulls[0].sha,
        labels=("area: boosters", "feature"),
        files=(
            FileChange("stages/booster/throttle.py", 40, 0),
            FileChange("docs/throttle.md", 12, 2),
        ),
        additions=52,
        deletions=2,
        changed_files=2,
        reviews=(Review("linus", "CHANGES_REQUESTED"), Review("linus", "APPROVED")),
        comments=4,
        review_comments=3,
        participants=("grace", "linus"),
        linked_issues=(7,),
    )
    assert pulls[0].sha and len(pulls[0].sha) == 40
    assert pulls[1].title == "Fix fuel gauge reading"  # bidi override removed
    assert pulls[2].author == "ghost"
    assert pulls[2].reverts == ChangeLink(REPO, 101, title="Booster stage: add throttle control")

    assert fake_github.count() == 1  # the whole day, in one request
    (request,) = fake_github.seen
    assert (request.method, request.path, request.authorization) == (
        "POST",
        "/graphql",
        f"token {TOKEN}",
    )
    assert request.body["variables"]["query"] == (
        "repo:acme/rocket is:pr is:merged "
        "merged:2026-03-04T00:00:00Z..2026-03-04T23:59:59Z sort:created-asc"
    )
    assert "acme/rocket 2026-03-04: 1 GitHub request via GraphQL for 3 pull requests" in caplog.text
    assert "GraphQL budget 4,999 of 5,000" in caplog.text


@pytest.mark.parametrize(("merged", "requests"), [(100, 1), (101, 2), (250, 3)])
def test_pages_of_a_hundred(fake_github: FakeGitHub, merged: int, requests: int) -> None:
    fake_github.add(
        REPO, *(FakePull(n, f"Change {n}", at(n % 24, n % 60)) for n in range(1, merged + 1))
    )
    pulls = Run(fake_github).collect()
    assert sorted(p.number for p in pulls) == list(range(1, merged + 1))
    assert [p.merged_at for p in pulls] == sorted(p.merged_at for p in pulls)
    assert fake_github.count("/graphql") == fake_github.count() == requests


def test_the_files_of_a_big_pull_request_come_in_further_pages(fake_github: FakeGitHub) -> None:
    files = tuple((f"src/module_{i:03}.py", i, 1) for i in range(230))
    fake_github.add(REPO, FakePull(5, "Reformat everything", at(12), files=files))
    (pull,) = Run(fake_github).collect()
    assert pull.files == tuple(FileChange(*f) for f in files)
    assert pull.changed_files == 230
    assert fake_github.count() == 3
    ids = [seen.body["variables"].get("id") for seen in fake_github.seen[1:]]
    assert ids == [f"PR_{fake_github.repos[REPO].id}_5"] * 2


def test_a_day_over_a_thousand_results_is_searched_in_halves(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    # 1,200 merges between 00:00 and 12:00 (600 before 06:00), then 300 in the afternoon.
    step = dt.timedelta(seconds=36)
    morning = [FakePull(n + 1, f"Morning {n}", at(0) + n * step) for n in range(1200)]
    afternoon = [FakePull(2000 + n, f"Afternoon {n}", at(13, n % 60, n // 60)) for n in range(300)]
    fake_github.add(REPO, *morning, *afternoon)
    caplog.set_level(logging.INFO)

    pulls = Run(fake_github).collect()

    assert len(pulls) == len({p.number for p in pulls}) == 1500
    windows = [seen.body["variables"]["query"].split("merged:")[1] for seen in fake_github.seen]
    firsts = list(dict.fromkeys(windows))
    assert firsts == [
        "2026-03-04T00:00:00Z..2026-03-04T23:59:59Z sort:created-asc",
        "2026-03-04T00:00:00Z..2026-03-04T11:59:59Z sort:created-asc",
        "2026-03-04T00:00:00Z..2026-03-04T05:59:59Z sort:created-asc",
        "2026-03-04T06:00:00Z..2026-03-04T11:59:59Z sort:created-asc",
        "2026-03-04T12:00:00Z..2026-03-04T23:59:59Z sort:created-asc",
    ]
    # The whole day and the morning refused after one page each, then 6 + 6 + 3 pages.
    assert fake_github.count() == 1 + 1 + 6 + 6 + 3
    assert "over 1,000 merges from 2026-03-04T00:00:00Z to 2026-03-05T00:00:00Z" in caplog.text


def test_label_merged_repositories_are_searched_by_label_and_closing_time(
    fake_github: FakeGitHub,
) -> None:
    fake_github.add(
        REPO,
        FakePull(1, "Landed by the bot", None, closed_at=at(9), labels=("merged",)),
        FakePull(2, "Landed again", None, closed_at=at(10), labels=("merged", "mergedX1")),
        FakePull(3, "Closed, not landed", None, closed_at=at(11)),
        FakePull(4, "Landed yesterday", None, closed_at=at(9, day=DAY - dt.timedelta(days=1))),
    )
    pulls = Run(fake_github).collect(merged_label="merged")
    assert [(p.number, p.merged_at, p.sha) for p in pulls] == [(1, at(9), None), (2, at(10), None)]
    assert fake_github.seen[0].body["variables"]["query"] == (
        'repo:acme/rocket is:pr is:closed label:"merged" '
        "closed:2026-03-04T00:00:00Z..2026-03-04T23:59:59Z sort:created-asc"
    )


def test_label_merged_mode_over_rest(fake_github: FakeGitHub) -> None:
    fake_github.add(
        REPO,
        FakePull(1, "Landed by the bot", None, closed_at=at(9), labels=("merged",)),
        FakePull(3, "Closed, not landed", None, closed_at=at(11)),
    )
    (pull,) = Run(fake_github, env={}).collect(merged_label="merged")
    assert (pull.number, pull.merged_at, pull.sha) == (1, at(9), None)
    search = next(seen for seen in fake_github.seen if seen.path == "/search/issues")
    assert search.query["q"] == [
        'repo:acme/rocket is:pr is:closed label:"merged" '
        "closed:2026-03-04T00:00:00Z..2026-03-04T23:59:59Z"
    ]


def bot_landed(fake: FakeGitHub, label: str = "Merged") -> None:
    """acme/rocket lands like pytorch/pytorch: its bot closes pull requests and labels them."""
    fake.add(
        REPO,
        FakePull(1, "Landed by the bot", None, closed_at=at(9), labels=("module: ci", label)),
        FakePull(2, "Landed again", None, closed_at=at(10), labels=(label,)),
        FakePull(3, "Abandoned", None, closed_at=at(11), labels=("stale",)),
    )


@pytest.mark.parametrize("env", [WITH_TOKEN, {}], ids=["graphql", "rest"])
def test_a_merge_bot_repository_read_for_github_merges_gets_the_config_fix(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture, env: dict[str, str]
) -> None:
    bot_landed(fake_github)
    assert Run(fake_github, env=env).collect() == ()
    (warning,) = [r.getMessage() for r in caplog.records if "merged_label" in r.getMessage()]
    assert warning == (
        "acme/rocket: none merged through GitHub on 2026-03-04, but 2 pull requests closed "
        "with the label 'Merged' (a merge bot lands them so); put 'merged_label: Merged' "
        "under acme/rocket in the configuration"
    )
    # One extra request, a search for what closed unmerged that day.
    hint = fake_github.seen[-1]
    assert hint.path == "/search/issues"
    assert hint.query["q"] == [
        "repo:acme/rocket is:pr is:closed is:unmerged "
        "closed:2026-03-04T00:00:00Z..2026-03-04T23:59:59Z"
    ]


def test_a_quiet_day_or_a_day_with_merges_gets_no_hint(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    fake_github.add(REPO, FakePull(3, "Abandoned", None, closed_at=at(11), labels=("stale",)))
    assert Run(fake_github).collect() == ()
    assert fake_github.count() == 2 and "merged_label" not in caplog.text
    fake_github.repos.clear()
    fake_github.seen.clear()
    day_of(fake_github)
    assert len(Run(fake_github).collect()) == 3
    assert fake_github.count() == 1  # no hint asked for: the day has merges


def test_a_label_configured_for_a_repository_that_merges_gets_the_config_fix(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    day_of(fake_github)
    assert Run(fake_github).collect(merged_label="Merged") == ()
    (warning,) = [r.getMessage() for r in caplog.records if "merged_label" in r.getMessage()]
    assert warning == (
        "acme/rocket: none closed with the label 'Merged' on 2026-03-04, but 3 pull requests "
        "merged through GitHub; remove 'merged_label: Merged' from acme/rocket in the "
        "configuration"
    )
    assert fake_github.seen[-1].query["per_page"] == ["1"]  # only the count is read


def test_a_failed_hint_changes_nothing(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    bot_landed(fake_github, label="ci: merged")
    fake_github.faults = {n: Fault.server_error(502) for n in range(2, 9)}
    assert Run(fake_github, retries=1).collect() == ()
    assert "merged_label" not in caplog.text
    fake_github.faults = {}
    Run(fake_github).collect()
    assert "put 'merged_label: \"ci: merged\"' under acme/rocket" in caplog.text


@pytest.mark.parametrize("env", [WITH_TOKEN, {}], ids=["graphql", "rest"])
@pytest.mark.parametrize("private", [False, True], ids=["missing", "private"])
def test_a_missing_or_private_repository_is_one_clear_error(
    fake_github: FakeGitHub, env: dict[str, str], private: bool
) -> None:
    fake_github.add("acme/vault", private=private)
    name = "acme/vault" if private else "acme/nothing"
    message = Run(fake_github, env=env).fails(name)
    assert message.startswith(f"{name}: no such repository at {fake_github.url}")
    assert "check its name in the configuration" in message
    assert fake_github.count() == 1


@pytest.mark.parametrize("env", [WITH_TOKEN, {}], ids=["graphql", "rest"])
def test_a_renamed_repository_says_its_new_name(
    fake_github: FakeGitHub, env: dict[str, str]
) -> None:
    fake_github.add("acme/rocket-v2", FakePull(1, "x", at(9)), old_names=(REPO,))
    message = Run(fake_github, env=env).fails()
    assert message == (
        "acme/rocket: the repository was renamed or moved to acme/rocket-v2; "
        "put 'name: acme/rocket-v2' in the configuration"
    )


def test_server_errors_are_retried_with_backoff(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    day_of(fake_github)
    fake_github.faults = {1: Fault.server_error(502), 2: Fault.server_error(503), 3: Fault(500)}
    caplog.set_level(logging.INFO)
    run = Run(fake_github)
    assert [p.number for p in run.collect()] == [101, 102, 103]
    assert run.sleeps == [2.0, 4.0]  # urllib3: no wait before the first retry, then doubling
    assert fake_github.count() == 4
    assert "4 GitHub requests via GraphQL" in caplog.text


def test_server_errors_that_last_fail_the_repository(fake_github: FakeGitHub) -> None:
    day_of(fake_github)
    fake_github.faults = {n: Fault.server_error(502) for n in range(1, 10)}
    message = Run(fake_github, retries=2).fails()
    assert message == (
        "acme/rocket: GitHub kept failing (502: Server Error) after the retries in github.retries"
    )
    assert fake_github.count() == 3


@pytest.mark.parametrize(
    ("fault", "wait"),
    [
        (Fault.secondary(403, retry_after=60), 60.0),
        (Fault.secondary(403, retry_after=None), 60.0),
        (Fault.secondary(429, retry_after=7), 7.0),
    ],
    ids=["403-retry-after", "403-message-only", "429"],
)
def test_secondary_rate_limits_are_waited_out(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture, fault: Fault, wait: float
) -> None:
    day_of(fake_github)
    fake_github.faults = {1: fault}
    run = Run(fake_github)
    assert len(run.collect()) == 3
    assert run.sleeps == [wait]
    assert f"waiting {wait:.0f} s" in caplog.text
    assert fake_github.count() == 2


@pytest.mark.parametrize("status", [403, 429])
def test_an_exhausted_rate_limit_that_resets_soon_is_waited_for(
    fake_github: FakeGitHub, status: int
) -> None:
    day_of(fake_github)
    fake_github.faults = {1: Fault.exhausted(reset_in=30, status=status)}
    run = Run(fake_github)
    assert len(run.collect()) == 3
    (wait,) = run.sleeps
    assert 29 <= wait <= 32


def test_an_exhausted_rate_limit_that_resets_late_stops_the_repository(
    fake_github: FakeGitHub,
) -> None:
    day_of(fake_github)
    fake_github.faults = {1: Fault.exhausted(reset_in=3600)}
    run = Run(fake_github, max_reset_wait=300)
    message = run.fails()
    assert message.startswith("acme/rocket: GitHub asks to wait 60 min (rate limit exhausted until")
    assert message.endswith("longer than github.max_reset_wait (300 s); try again later")
    assert run.sleeps == []
    assert fake_github.count() == 1


def test_a_forbidden_answer_that_is_no_rate_limit_is_not_retried(fake_github: FakeGitHub) -> None:
    day_of(fake_github)
    body = {"message": "Resource not accessible by personal access token"}
    fake_github.faults = {1: Fault(403, body)}
    run = Run(fake_github)
    message = run.fails()
    assert message == (
        "acme/rocket: GitHub refused the request "
        "(403: Resource not accessible by personal access token)"
    )
    assert run.sleeps == []
    assert fake_github.count() == 1


def test_a_refused_token_says_so(fake_github: FakeGitHub) -> None:
    day_of(fake_github)
    fake_github.token = "ghp_the_right_one"
    message = Run(fake_github).fails()
    assert message == (
        "acme/rocket: GitHub refused the token (401: Bad credentials); set a valid GITHUB_TOKEN"
    )


def test_a_server_slower_than_the_timeout_fails_the_repository(fake_github: FakeGitHub) -> None:
    day_of(fake_github)
    fake_github.faults = {1: Fault.slow(10)}
    started = time.monotonic()
    message = Run(fake_github, timeout=1, retries=0).fails()
    assert time.monotonic() - started < 5
    assert message == (
        f"acme/rocket: GitHub did not answer within 1 s (github.timeout) at {fake_github.url}"
    )


@pytest.mark.parametrize("env", [WITH_TOKEN, {}], ids=["graphql", "rest"])
@pytest.mark.parametrize(
    ("fault", "said"),
    [
        (Fault.malformed(), "GitHub's answer is not valid JSON"),
        (Fault(200, {"data": {"search": {"issueCount": "many"}}}), SHAPE),
        (Fault(200, ["not", "an", "object"]), SHAPE),
    ],
    ids=["truncated", "wrong-shape", "wrong-type"],
)
def test_a_malformed_answer_fails_the_repository(
    fake_github: FakeGitHub, env: dict[str, str], fault: Fault, said: str
) -> None:
    day_of(fake_github)
    # REST reads the repository first: break the search instead.
    fake_github.faults = {1 if env else 2: fault}
    message = Run(fake_github, env=env).fails()
    assert message.startswith(f"acme/rocket: {said}")


def test_without_a_token_rest_is_used_and_the_warning_said_once(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    day_of(fake_github)
    fake_github.add("acme/ground", FakePull(7, "Pour the pad", at(8)))
    caplog.set_level(logging.INFO)
    run = Run(fake_github, env={})  # one source for the run, as the pipeline keeps it
    rocket = run.collect()
    ground = run.collect("acme/ground")

    assert [p.number for p in rocket] == [101, 102, 103]
    assert [p.number for p in ground] == [7]
    graphql_pulls = Run(fake_github, env=WITH_TOKEN).collect()
    # REST knows no participants beyond author and reviewers; the rest is the same.
    assert rocket == tuple(
        msgspec.structs.replace(p, participants=r.participants)
        for p, r in zip(graphql_pulls, rocket, strict=True)
    )
    assert rocket[0].participants == ("grace", "linus")
    assert rocket[0].linked_issues == (7,)
    assert caplog.text.count("no GITHUB_TOKEN (or GH_TOKEN)") == 1
    assert all(seen.authorization is None for seen in fake_github.seen[:15])
    assert fake_github.count("/graphql") == 1  # only the token run
    # The repository, the search, then pull, reviews and files of each pull request.
    assert "acme/rocket 2026-03-04: 11 GitHub requests via REST for 3 pull requests" in caplog.text


def test_a_server_without_graphql_is_read_through_rest(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    day_of(fake_github)
    fake_github.graphql = False
    pulls = Run(fake_github).collect()
    assert [p.number for p in pulls] == [101, 102, 103]
    assert "no GraphQL API at" in caplog.text
    assert [seen.path for seen in fake_github.seen[:3]] == [
        "/graphql",
        "/repos/acme/rocket",
        "/search/issues",
    ]


def test_a_server_without_graphql_is_probed_and_warned_about_once_per_run(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    day_of(fake_github)
    fake_github.add("acme/ground", FakePull(7, "Pour the pad", at(8)))
    fake_github.graphql = False
    run = Run(fake_github)
    for name in (REPO, "acme/ground", REPO):
        assert run.collect(name)
    assert fake_github.count("/graphql") == 1
    assert caplog.text.count("no GraphQL API at") == 1
    # A new run asks again: the server may have gained GraphQL since.
    Run(fake_github).collect()
    assert fake_github.count("/graphql") == 2


def test_the_token_is_in_no_log_error_or_record(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    day_of(fake_github)
    caplog.set_level(logging.DEBUG)  # PyGithub's and urllib3's debug logs too
    pulls = Run(fake_github).collect()
    # A server that echoes the token in an error message.
    fake_github.faults = {n: Fault(500, {"message": f"bad token {TOKEN}"}) for n in range(2, 9)}
    message = Run(fake_github, retries=1).fails()

    assert all(seen.authorization == f"token {TOKEN}" for seen in fake_github.seen)
    assert "bad token [redacted]" in message
    records = json.dumps([msgspec.to_builtins(p) for p in pulls], default=str)
    for text in (message, caplog.text, records):
        assert TOKEN not in text


def test_a_day_that_ended_less_than_an_hour_ago_is_warned_about(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    day_of(fake_github)
    Run(fake_github, now=at(0, 30, day=DAY + dt.timedelta(days=1))).collect()
    assert "GitHub's search index lags; merges may be missing" in caplog.text
    caplog.clear()
    Run(fake_github, now=at(1, 0, day=DAY + dt.timedelta(days=1))).collect()
    assert "index lags" not in caplog.text


def test_the_queries_are_valid_against_githubs_schema() -> None:
    graphql = pytest.importorskip("graphql", reason="needs graphql-core: run `make setup`")
    if not SCHEMA.exists():
        pytest.skip(
            f"needs GitHub's GraphQL schema at {SCHEMA} (CI provides it; it is schema.graphql "
            "of the npm package @octokit/graphql-schema); skipped"
        )
    schema = graphql.build_schema(SCHEMA.read_text(), assume_valid_sdl=True)
    # GitHub's published schema breaks a rule newer graphql-core versions check (deprecated
    # implementations of undeprecated interface fields); it is GitHub's own, take it as valid.
    schema._validation_errors = []
    for query in (SEARCH, FILES, PROBE):
        assert graphql.validate(schema, graphql.parse(query)) == []


def test_rest_follows_search_and_file_pages(fake_github: FakeGitHub) -> None:
    files = tuple((f"docs/page_{i:03}.md", 1, 0) for i in range(150))
    pulls = [FakePull(n, f"Change {n}", at(n % 24, n % 60)) for n in range(2, 102)]
    fake_github.add(REPO, FakePull(1, "Rewrite the docs", at(3), files=files), *pulls)
    found = Run(fake_github, env={}).collect()
    assert sorted(p.number for p in found) == list(range(1, 102))
    assert next(p for p in found if p.number == 1).files == tuple(FileChange(*f) for f in files)
    searches = [seen for seen in fake_github.seen if seen.path == "/search/issues"]
    assert [s.query.get("page") for s in searches] == [None, ["2"]]  # the link header's next
    # The repository, two search pages, three requests per pull request, one more file page.
    assert fake_github.count() == 1 + 2 + 3 * 101 + 1


def test_a_graphql_rate_limit_error_is_waited_out_once(fake_github: FakeGitHub) -> None:
    day_of(fake_github)
    reset = str(int(time.time()) + 20)
    body = {"errors": [{"type": "RATE_LIMITED", "message": "API rate limit exceeded"}]}
    fake_github.faults = {1: Fault(200, body, headers={"x-ratelimit-reset": reset})}
    run = Run(fake_github)
    assert len(run.collect()) == 3
    (wait,) = run.sleeps
    assert 19 <= wait <= 22
    fake_github.faults = {3: Fault(200, body, headers={"x-ratelimit-reset": reset + "0"})}
    assert "GraphQL rate limit is exhausted" in run.fails()


def test_an_unreachable_server_is_named_at_once_without_retries() -> None:
    with socket.socket() as probe:  # a port on 127.0.0.1 that nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    fake = FakeGitHub()
    fake.url = f"http://127.0.0.1:{port}"
    run = Run(fake, retries=2)
    message = run.fails()
    assert message.startswith(
        f"acme/rocket: network unreachable: cannot reach GitHub at http://127.0.0.1:{port} ("
    )
    assert run.sleeps == []  # a refused connection is not retried: an offline run stops at once


def test_graphql_errors_fail_the_repository_unless_data_came_with_them(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    day_of(fake_github)
    failed = {"data": None, "errors": [{"type": "INTERNAL", "message": "Something went wrong"}]}
    fake_github.faults = {1: Fault(200, failed)}
    message = Run(fake_github).fails()
    assert message == (
        "acme/rocket: GitHub's GraphQL API answered with an error: Something went wrong"
    )

    # A field GitHub may not show comes back null with an error, next to the rest.
    fake_github.faults = {}
    forbidden = {"type": "FORBIDDEN", "path": ["search", "nodes", 0, "closingIssuesReferences"]}
    original = fake_github.answer

    def partial(*args: Any) -> tuple[int, dict[str, str], bytes]:
        status, headers, data = original(*args)
        answer = json.loads(data)
        answer["data"]["search"]["nodes"][0]["closingIssuesReferences"] = None
        answer["errors"] = [forbidden | {"message": "Resource not accessible by integration"}]
        return status, headers, json.dumps(answer).encode()

    fake_github.answer = partial  # type: ignore[method-assign,assignment]
    pulls = Run(fake_github).collect()
    assert [p.number for p in pulls] == [101, 102, 103]
    assert pulls[0].linked_issues == ()
    assert "GraphQL answer came with errors (Resource not accessible by integration)" in caplog.text


ODD_ANSWERS = [
    Fault(404, {"message": "Not Found"}),
    Fault(200, raw=b""),
    Fault(200, raw=b"<html>Bad gateway</html>"),
    Fault(200, {"items": "x", "data": {"search": None}}),
    Fault(200, {"total_count": 1, "items": [{"number": "seven"}], "number": "seven"}),
    Fault(200, [1, 2]),
    Fault(
        301, {"message": "Moved Permanently"}, headers={"location": "https://elsewhere.invalid/"}
    ),
    Fault(422, {"message": "Validation Failed"}),
]


@pytest.mark.parametrize("env", [WITH_TOKEN, {}], ids=["graphql", "rest"])
def test_whatever_a_request_answers_only_a_wire_error_escapes(
    fake_github: FakeGitHub, env: dict[str, str]
) -> None:
    day_of(fake_github)
    escaped = []
    for number in range(1, 5):
        for fault in ODD_ANSWERS:
            fake_github.seen.clear()
            fake_github.faults = {number: fault}
            try:
                Run(fake_github, env=env, retries=0).collect()
            except WireError as error:
                assert str(error).startswith("acme/rocket: ")
            except Exception as error:
                escaped.append((number, fault.status, repr(error)))
    assert escaped == []


def test_reverts_and_relands_are_linked_like_the_git_sources(fake_github: FakeGitHub) -> None:
    gimbal = FakePull(150, "Add gimbal control", at(8))
    fake_github.add(
        REPO,
        gimbal,
        FakePull(
            151, 'Revert "Add gimbal control"', at(9), body=f"This reverts commit {gimbal.sha}."
        ),
        FakePull(152, 'Revert "Tune the valves (#120)"', at(10)),
        FakePull(153, 'Reland "Tune the valves"', at(11), body="Reland of #120 with a fix."),
    )
    pulls = {p.number: p for p in Run(fake_github).collect()}
    assert pulls[151].reverts == ChangeLink(REPO, 150, gimbal.sha, "Add gimbal control")
    assert pulls[152].reverts == ChangeLink(REPO, 120, title="Tune the valves")
    assert pulls[153].relands == ChangeLink(REPO, 120, title="Tune the valves")
    assert pulls[150].reverts is pulls[150].relands is None


@pytest.mark.reliability
def test_lone_surrogates_in_github_json_are_dropped(
    fake_github: FakeGitHub, tmp_path: Path
) -> None:
    # The fake serves JSON with ensure_ascii, so these travel as "\ud800"-style escapes.
    fake_github.add(
        REPO,
        FakePull(
            120,
            "Fix the gauge\ud800 reading",
            at(9),
            body="Reads\udfff the gauge.",
            author="eve\udc00",
            labels=("bug\ud801",),
            files=(("src/g\ud800auge.py", 1, 1),),
        ),
    )
    (pull,) = Run(fake_github).collect()
    assert (pull.title, pull.body, pull.author) == (
        "Fix the gauge reading",
        "Reads the gauge.",
        "eve",
    )
    assert pull.labels == ("bug",) and pull.files[0].path == "src/gauge.py"
    Store(tmp_path).save_repo_day(
        RepoDay(repo=REPO, date=DAY, source="github", pulls=(pull,), collected_at=at(23))
    )


def test_a_wait_over_five_seconds_says_what_for_and_until_when(
    fake_github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    day_of(fake_github)
    fake_github.faults = {1: Fault.secondary(429, retry_after=7), 2: Fault.server_error(502)}
    run = Run(fake_github)
    assert len(run.collect()) == 3
    assert run.sleeps == [7.0, 2.0]
    waits = [r.getMessage() for r in caplog.records if "waiting" in r.getMessage()]
    assert len(waits) == 1  # the 2 s backoff is not worth a line
    assert re.fullmatch(
        r"GitHub: waiting 7 s for rate limited, Retry-After, until \d\d:\d\d:\d\d UTC", waits[0]
    )


def test_a_repository_is_given_up_at_its_deadline(fake_github: FakeGitHub) -> None:
    day_of(fake_github)
    fake_github.faults = {1: Fault.secondary(403, retry_after=60)}
    run = Run(fake_github, deadline=50)
    message = run.fails()
    assert message.startswith("acme/rocket: ")
    assert "would pass the 50 s allowed per repository (github.deadline)" in message
    assert run.sleeps == []
    assert fake_github.count() == 1


@pytest.mark.parametrize("label", [None, "Merged"], ids=["github-merges", "merge-bot"])
def test_graphql_and_rest_store_the_same_records_for_the_same_pull_requests(
    fake_github: FakeGitHub, label: str | None
) -> None:
    bot = label is not None
    landed = [hashlib.sha1(f"land {n}".encode()).hexdigest() for n in (1, 2)]

    def pull(number: int, title: str, hour: int, body: str, **more: Any) -> FakePull:
        return FakePull(
            number,
            title,
            None if bot else at(hour),
            closed_at=at(hour),
            closed_by=landed[number - 1] if bot else None,
            body=body,
            author="grace",
            labels=("feature", label) if label else ("feature",),
            files=(("src/gimbal.py", 40, 2), ("docs/gimbal.md", 5, 0)),
            **more,
        )

    # REST knows no participants beyond the author and the reviewers: give no others.
    first = pull(
        1,
        "Add gimbal control",
        9,
        "Steers the engines.\n\nFixes #12",
        closes=(12,),
        reviews=(("linus", "APPROVED", 2),),
        participants=("grace", "linus"),
    )
    sha = landed[0] if bot else first.sha
    second = pull(
        2, 'Revert "Add gimbal control"', 15, f"This reverts commit {sha}.", participants=("grace",)
    )
    fake_github.add(REPO, first, second)

    graphql = Run(fake_github).collect(merged_label=label)
    rest = Run(fake_github, env={}).collect(merged_label=label)
    assert graphql == rest
    assert [p.sha for p in graphql] == (landed if bot else [first.sha, second.sha])
    assert graphql[1].reverts == ChangeLink(REPO, 1, sha, "Add gimbal control")
    assert fake_github.count("/repos/acme/rocket/issues/") == (2 if bot else 0)
