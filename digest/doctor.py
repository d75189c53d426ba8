"""``digest doctor``: check what a run needs and say what to fix.

Loading the configuration is the first check (the CLI does it before calling here). Then:
the GitHub token (which variable it comes from, never its value), the rate-limit budget
left, that every GitHub repository answers to its name and lands changes the way its
``merged_label`` setting says (over the last week), that every ``git:`` path is a
readable clone with the configured branch, and, with ``writer: openai``, that the server
answers, with which model and which request form; last, that ``site.base_url`` is not a
placeholder (a host reserved for examples). On request, that the data folder's indexes
list its records as they are (``--index``) and that the published site holds the pages its
last build wrote (``--site``). Nothing is written; the CLI prints the
findings, a problem that several checks found alike once (:func:`merge_repeated`).
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Mapping, Sequence
from enum import StrEnum
from pathlib import Path

from msgspec import Struct
from msgspec.structs import replace

from digest.clock import Clock
from digest.config import DEPLOY_HINT, RepoSettings, Settings, placeholder_host
from digest.errors import WireError
from digest.sources.base import SourceContext
from digest.sources.git import _git_dir, _resolve_branch, history_start, last_change
from digest.sources.github import GitHubSource, RateBudget
from digest.store import Store
from digest.text import count

#: Retries per request for the checks: a diagnosis should be quick, not patient.
DOCTOR_RETRIES = 1
#: Whole days before today in which a GitHub repository's landings are checked against
#: its ``merged_label`` setting.
MODE_DAYS = 7


class Status(StrEnum):
    OK = "ok"
    WARN = "warn"
    FAIL = "FAIL"


class Finding(Struct, frozen=True):
    """The outcome of one check."""

    status: Status
    subject: str
    detail: str
    #: What to do about it; empty when nothing.
    fix: str = ""
    #: How many checks found exactly this (``subject`` then names them all).
    times: int = 1


def merge_repeated(findings: Sequence[Finding]) -> list[Finding]:
    """Return ``findings`` with the problems found alike by several checks told once.

    Offline, every GitHub check fails with the same long line: it is said once, its
    subjects listed and counted, where the first of them was.
    """
    alike: dict[tuple[Status, str, str], list[Finding]] = {}
    for finding in findings:
        if finding.status != Status.OK:
            alike.setdefault((finding.status, finding.detail, finding.fix), []).append(finding)
    merged: list[Finding] = []
    for finding in findings:
        same = alike.get((finding.status, finding.detail, finding.fix), [finding])
        if finding is not same[0]:
            continue  # told with the first
        if len(same) == 1:
            merged.append(finding)
            continue
        names = [f.subject for f in same]
        shown = ", ".join(names[:4]) if len(names) <= 4 else f"{', '.join(names[:3])} and others"
        merged.append(replace(finding, subject=shown, times=len(same)))
    return merged


def diagnose(
    settings: Settings, env: Mapping[str, str], clock: Clock, config: Path
) -> list[Finding]:
    """Run every check on ``settings`` (loaded from ``config``) and return the findings."""
    repos = [repo for project in settings.projects for repo in project.repos]
    findings = [_configuration(settings, repos, config)]
    on_github = [repo for repo in repos if repo.source == "github"]
    if on_github:
        github = replace(settings.github, retries=min(DOCTOR_RETRIES, settings.github.retries))
        context = SourceContext(replace(settings, github=github), clock, env)
        source = GitHubSource(context)
        findings += [_token(source), _budget(source), _graphql(source)]
        findings += [_github_repo(source, repo) for repo in on_github]
    if settings.writer == "openai":
        findings.append(_openai(settings, env, clock))
    for repo in repos:
        if repo.source == "git":
            findings.append(_git_repo(repo, clock))
        elif repo.source != "github":
            findings.append(
                Finding(Status.OK, repo.name, f"source {repo.source!r} has no checks here")
            )
    if placeholder_host(settings.site.base_url):
        findings.append(_placeholder(settings, config))
    return findings


def site_finding(settings: Settings) -> Finding:
    """Whether the published site holds the pages its last build wrote, as it wrote them
    (``doctor --site``): reads every file against the build manifest. A plain ``digest
    render`` trusts a builds folder as its last build left it and would not see a page
    edited in place (README, *Editing data by hand*)."""
    from digest.render import verify
    from digest.render.publish import StagedSite

    staged = StagedSite(settings.site_dir)
    build = staged.published()
    if build is None or not staged.manifest.is_file():
        return Finding(Status.OK, "site", f"{settings.site_dir}: no site built yet")
    try:
        found = verify.differences(build, staged.manifest)
    except (OSError, sqlite3.Error) as error:
        return Finding(
            Status.FAIL,
            "site",
            f"{settings.site_dir}: could not be checked ({error})",
            "digest render --full (checks every file of the site and makes it again)",
        )
    if not found:
        return Finding(
            Status.OK, "site", f"{settings.site_dir}: {count(found.files, 'page')} as last built"
        )
    said = [f"{path} (changed)" for path in found.changed]
    said += [f"{path} (not the Wire's)" for path in found.unknown]
    said += [f"{path} (missing)" for path in found.missing]
    more = f" and {len(said) - 3} more" if len(said) > 3 else ""
    return Finding(
        Status.FAIL,
        "site",
        f"{settings.site_dir}: {count(len(said), 'file')} not as the last build wrote "
        f"{'them' if len(said) > 1 else 'it'} (edited by hand?): {', '.join(said[:3])}{more}; "
        "a plain digest render trusts its own builds and leaves them",
        "digest render --full (checks every file of the site and writes again or deletes "
        "what differs)",
    )


def index_finding(store: Store) -> Finding:
    """Whether the data folder's indexes list its records as they are (``doctor --index``):
    reads and hashes every stored file."""
    problems = store.index_problems()
    if not problems:
        return Finding(Status.OK, "data index", f"{store.root}: every record as indexed")
    more = f"; and {len(problems) - 3} more folders" if len(problems) > 3 else ""
    return Finding(
        Status.FAIL,
        "data index",
        f"{'; '.join(problems[:3])}{more} (edited by hand?): the site build would not see it",
        "digest render --full (reads every file again and rewrites the indexes)",
    )


def _openai(settings: Settings, env: Mapping[str, str], clock: Clock) -> Finding:
    """Whether the openai writer's server answers, which model, and in which request form."""
    from digest.summarize.base import WriterContext
    from digest.summarize.llm import OpenAIWriter

    quick = replace(settings.openai, max_retries=DOCTOR_RETRIES)
    context = WriterContext(replace(settings, openai=quick), clock, env)
    try:
        probe = OpenAIWriter(context).probe()
    except WireError as error:
        fix = "set openai.base_url or OPENAI_BASE_URL, openai.model and OPENAI_API_KEY"
        return Finding(Status.FAIL, "openai writer", str(error), fix)
    detail = (
        f"{probe.base_url} answers as {probe.model}, with {probe.response_format} "
        f"and {probe.tokens_field}"
    )
    if not probe.answered_json:
        return Finding(
            Status.WARN,
            "openai writer",
            f"{detail}, but its answer to a JSON request was not JSON",
            "use a model that follows JSON instructions; editions will fall back to extractive",
        )
    fix = ""
    if settings.openai.response_format == "auto" and probe.response_format == "json_object":
        fix = "set openai.response_format: json_object to skip the refused first request"
    return Finding(Status.OK, "openai writer", detail, fix)


def _configuration(settings: Settings, repos: Sequence[RepoSettings], config: Path) -> Finding:
    kinds = [repo.source for repo in repos]
    detail = (
        f"{config}: {count(len(settings.projects), 'project')}, "
        f"{count(len(repos), 'repository', 'repositories')} "
        f"({kinds.count('github')} on GitHub, {kinds.count('git')} from git clones)"
    )
    return Finding(Status.OK, "configuration", detail)


def _placeholder(settings: Settings, config: Path) -> Finding:
    """The warning for a ``site.base_url`` on a host reserved for examples."""
    return Finding(
        Status.WARN,
        "site.base_url",
        f"{settings.site.base_url} is a placeholder: feeds and canonical links would lead "
        "nowhere, and a deploying run (digest run --deploy, the workflow) refuses it",
        f"set site.base_url in {config} to {DEPLOY_HINT}",
    )


def _token(source: GitHubSource) -> Finding:
    variable = source.token_variable()
    if variable is None:
        return Finding(
            Status.WARN,
            "GitHub token",
            "none: GitHub is read anonymously (REST only, 60 requests an hour)",
            "export GITHUB_TOKEN=<a token that can read the repositories>",
        )
    return Finding(Status.OK, "GitHub token", f"from {variable} (not shown)")


def _budget(source: GitHubSource) -> Finding:
    try:
        budgets = source.rate_limits()
    except WireError as error:
        detail = str(error).removeprefix("GitHub rate limit: ")
        fix = _github_fix(
            detail, "check github.api_url / GITHUB_API_URL, the network, and the token"
        )
        return Finding(Status.FAIL, "GitHub API", detail, fix)
    budgets = tuple(b for b in budgets if b.limit > 0)  # anonymous: no GraphQL at all
    detail = ", ".join(f"{b.resource} {b.remaining:,} of {b.limit:,} left" for b in budgets)
    needed = [b for b in budgets if b.resource in ("core", "graphql")]
    empty = [b for b in needed if b.remaining == 0]
    if empty:
        return Finding(
            Status.FAIL,
            "GitHub rate limit",
            detail,
            f"wait until {_resets(empty)} or use another token",
        )
    low = [b for b in needed if b.remaining < b.limit // 10]
    if low:
        return Finding(Status.WARN, "GitHub rate limit", detail, f"resets {_resets(low)}")
    return Finding(Status.OK, "GitHub rate limit", detail)


def _graphql(source: GitHubSource) -> Finding:
    """Whether GraphQL answers the token (one tiny query); a server without it is a warning."""
    if source.token_variable() is None:
        return Finding(Status.OK, "GitHub GraphQL", "not used without a token (REST only)")
    try:
        budget = source.check_graphql()
    except WireError as error:
        detail = str(error).removeprefix("GitHub GraphQL: ")
        return Finding(Status.FAIL, "GitHub GraphQL", detail, _github_fix(detail))
    if budget is None:
        return Finding(
            Status.WARN,
            "GitHub GraphQL",
            f"no GraphQL API at {source.client.url}; every repository is read through REST "
            "(about 3 requests per pull request instead of 1 per 100)",
            "nothing to fix on GitHub Enterprise without GraphQL; otherwise check github.api_url",
        )
    return Finding(
        Status.OK,
        "GitHub GraphQL",
        f"answers the token (budget {budget.remaining:,} of {budget.limit:,})",
    )


def _resets(budgets: Sequence[RateBudget]) -> str:
    return max(b.reset for b in budgets).astimezone(dt.UTC).strftime("%H:%M UTC")


def _github_repo(source: GitHubSource, repo: RepoSettings) -> Finding:
    try:
        source.check(repo)
        found, hint = source.check_mode(repo, MODE_DAYS)
    except WireError as error:
        detail = _without_name(error, repo)
        return Finding(Status.FAIL, repo.name, detail, _github_fix(detail))
    if hint is not None:
        return Finding(Status.WARN, repo.name, f"reachable on GitHub; {hint.detail}", hint.fix)
    how = "merged" if repo.merged_label is None else f"closed with the label {repo.merged_label!r}"
    landed = count(found, "pull request") if found else "none"
    return Finding(
        Status.OK, repo.name, f"reachable on GitHub; {landed} {how} in the last {MODE_DAYS} days"
    )


def _github_fix(
    detail: str, otherwise: str = "check the name, and that the token can read the repository"
) -> str:
    """What to do about a check GitHub failed, from the reason it gave; else ``otherwise``."""
    if detail.startswith("GitHub kept failing"):
        return "GitHub is failing on its side; try again later (nothing to change here)"
    if detail.startswith(("network unreachable", "cannot reach GitHub", "GitHub did not answer")):
        return "check the network or proxy, and github.api_url / GITHUB_API_URL"
    if detail.startswith("GitHub refused the token"):
        return "set a GITHUB_TOKEN that GitHub accepts"
    if detail.startswith("GitHub refused the request"):
        return "wait for the rate limit to reset, or use another token"
    return otherwise


def _git_repo(repo: RepoSettings, clock: Clock) -> Finding:
    try:
        sha = _resolve_branch(repo, _git_dir(repo))
        changed = last_change(repo)
        start = history_start(repo)
    except WireError as error:
        fix = f"clone it there (git clone --bare <url> {repo.git}) or correct 'git:' and 'branch:'"
        return Finding(Status.FAIL, repo.name, _without_name(error, repo), fix)
    detail = (
        f"clone {repo.git}, branch {repo.branch} at {sha[:12]}, "
        f"last changed {changed.strftime('%Y-%m-%d %H:%M UTC')}"
    )
    if start is not None:
        return Finding(
            Status.WARN,
            repo.name,
            f"{detail}: a shallow clone, its history starts {start:%Y-%m-%d %H:%M UTC}; "
            "days up to then cannot be collected",
            f"fetch the whole history (git -C {repo.git} fetch --unshallow)",
        )
    yesterday = clock.now().astimezone(dt.UTC).date() - dt.timedelta(days=1)
    if yesterday > changed.date() + dt.timedelta(days=1):
        # The default day (yesterday) would have no merged changes: the clone is not fetched.
        fix = f"update the clone (git -C {repo.git} fetch) if the branch moved since"
        return Finding(Status.WARN, repo.name, f"{detail}: stale for yesterday", fix)
    return Finding(Status.OK, repo.name, detail)


def _without_name(error: WireError, repo: RepoSettings) -> str:
    return str(error).removeprefix(f"{repo.name}: ")
