"""The three stages wired together: collect, summarize, render.

Each public function is one command's work for one project and one day; the CLI loops
over days and projects. Only :mod:`digest.store` and :mod:`digest.render` write files.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import msgspec.structs
from msgspec import Struct, field

from digest.clock import Clock
from digest.config import ProjectSettings, RepoSettings, Settings
from digest.errors import NetworkUnreachable, WireError
from digest.models import (
    ChangeSummary,
    Digest,
    FailureReason,
    FollowUp,
    PullRequest,
    RepoDay,
    RepoFailure,
    RepoName,
)
from digest.registry import Registry
from digest.render import RenderReport, render_site
from digest.secrets import redact_records
from digest.sources.base import Source, SourceContext, day_window
from digest.store import RepoDayStamp, Store

if TYPE_CHECKING:
    from digest.summarize.base import Writer
from digest.text import count

log = logging.getLogger("digest")
#: How long after a day ends its collection may still be incomplete (search indexes lag,
#: late pushes); a day collected earlier is collected again on the next run.
SETTLE = dt.timedelta(hours=1)


class Runtime(Struct, frozen=True):
    """The settings and the injected dependencies every stage runs with."""

    settings: Settings
    registry: Registry
    clock: Clock
    env: Mapping[str, str] = field(default_factory=dict)
    #: The run's sources by name, built on first use: one per run, so a source keeps one
    #: connection and says what it learns (no token, no GraphQL) once, not per repository.
    sources: dict[str, Source] = field(default_factory=dict)

    def __repr__(self) -> str:
        # Never the environment (it holds the tokens), nor the live sources.
        return f"Runtime(data_dir={str(self.settings.data_dir)!r})"

    @property
    def store(self) -> Store:
        return Store(self.settings.data_dir)


class Collected(Struct, frozen=True):
    """One project-day's collection: the changes, and the repositories that failed."""

    pulls: tuple[PullRequest, ...]
    failures: tuple[RepoFailure, ...]
    #: Repositories read from their source on this run, and those whose stored day was reused.
    fetched: tuple[str, ...] = ()
    reused: tuple[str, ...] = ()


def collect(
    rt: Runtime, project: ProjectSettings, day: dt.date, refresh: bool = False
) -> Collected:
    """Collect ``day`` for every repository of ``project``, reusing stored days unless ``refresh``.

    A stored day is reused only if it was collected once the day had settled. A repository
    that cannot be read is reported in ``failures``; the others are still collected.
    """
    store = rt.store
    pulls: list[PullRequest] = []
    failures: list[RepoFailure] = []
    fetched: list[str] = []
    reused: list[str] = []
    for repo in project.repos:
        stored = store.load_repo_day(repo.name, day)
        used = _settings_used(rt, repo)
        changed = _changed(stored.settings, used) if stored is not None else ""
        if not refresh and stored is not None and _complete(stored, repo) and not changed:
            log.debug(
                "%s %s: reusing %s", repo.name, day, count(len(stored.pulls), "stored change")
            )
            pulls += redact_records(stored.pulls, rt.env)
            reused.append(repo.name)
            continue
        if changed and not refresh:
            log.info("%s %s: collecting again: %s since it was collected", repo.name, day, changed)
        try:
            # A token quoted in a pull request is replaced before anything is stored.
            found = redact_records(_collect_repo(rt, repo, day), rt.env)
        except WireError as error:
            # Here, not at the top: it imports socket, which rendering has no use for.
            from digest.failures import public_reason, unreachable

            if unreachable(error):
                raise NetworkUnreachable(f"{error}; check the network, then run again") from None
            log.error("%s", error)
            if stored is not None:  # Never lose what an earlier run collected.
                _keep(stored, repo)
                pulls += redact_records(stored.pulls, rt.env)
                continue
            # The details are in the log line above; the edition gets a public reason only.
            failures.append(RepoFailure(repo=repo.name, reason=public_reason(error)))
            continue
        store.save_repo_day(
            RepoDay(
                repo=repo.name,
                date=day,
                source=repo.source or "",
                pulls=found,
                collected_at=rt.clock.now(),
                settings=used,
            )
        )
        log.info("%s %s: collected %s", repo.name, day, count(len(found), "change"))
        pulls += found
        fetched.append(repo.name)
    return Collected(tuple(pulls), tuple(failures), tuple(fetched), tuple(reused))


def expect(
    rt: Runtime, projects: Sequence[ProjectSettings], days: Sequence[dt.date], refresh: bool
) -> None:
    """Tell each repository's source which of ``days`` :func:`collect` will ask it for.

    A source that can (``expect(repo, days)``: the git source) then reads them at once.
    Those are the days not stored, or stored but to be collected again (as `collect`
    decides); a repository of several projects is told once.
    """
    if len(days) < 2:
        return
    store = rt.store
    told: set[RepoSettings] = set()
    for project in projects:
        for repo in project.repos:
            if repo in told:
                continue
            told.add(repo)
            try:
                source = _source(rt, repo)
            except WireError:
                continue  # collecting says what is wrong, day by day
            expecting = getattr(source, "expect", None)
            if expecting is None:
                continue
            used = _settings_used(rt, repo)
            wanted = []
            for day in days:
                try:
                    stamp = None if refresh else store.load_repo_day_stamp(repo.name, day)
                except WireError:
                    stamp = None
                if stamp is None or not _complete(stamp, repo) or _changed(stamp.settings, used):
                    wanted.append(day)
            expecting(repo, wanted)


def _keep(stored: RepoDay, repo: RepoSettings) -> None:
    """Say that the collection ``stored`` earlier is kept because re-collecting failed."""
    when = stored.collected_at.strftime("%Y-%m-%d %H:%M UTC")
    kind = (
        "complete" if _complete(stored, repo) else "collected before the day ended: may be partial"
    )
    log.warning(
        "%s %s: re-collecting failed; kept the collection of %s (%s, %s) and left it unchanged",
        repo.name,
        stored.date,
        when,
        count(len(stored.pulls), "change"),
        kind,
    )


def stored(rt: Runtime, project: ProjectSettings, day: dt.date) -> Collected:
    """What was collected earlier for ``project`` on ``day``; missing repositories are failures."""
    pulls: list[PullRequest] = []
    failures: list[RepoFailure] = []
    reused: list[str] = []
    for repo in project.repos:
        repo_day = rt.store.load_repo_day(repo.name, day)
        if repo_day is None:
            failures.append(RepoFailure(repo=repo.name, reason=FailureReason.NOT_COLLECTED))
        else:
            pulls += redact_records(repo_day.pulls, rt.env)
            reused.append(repo.name)
    return Collected(tuple(pulls), tuple(failures), reused=tuple(reused))


def make_writer(rt: Runtime, name: str) -> Writer:
    """Build the writer registered as ``name``; raises WireError when it cannot work (no key)."""
    from digest.summarize.base import WriterContext

    context = WriterContext(settings=rt.settings, clock=rt.clock, env=rt.env)
    return rt.registry.writer(name)(context)


def summarize(
    rt: Runtime, project: ProjectSettings, day: dt.date, collected: Collected, writer: Writer
) -> Digest | None:
    """Write and store the edition of ``project`` for ``day``; None when nothing was merged.

    Raises WireError when no repository of the project could be read at all.
    """
    # The summarize stage is loaded by the commands that write editions, not by `render`.
    from digest.newcomers import newcomers
    from digest.summarize.checks import model_problems, problems
    from digest.summarize.extractive.mend import mend
    from digest.summarize.leads import topic_leads
    from digest.summarize.select import as_told, make_brief

    if not collected.pulls:
        if collected.failures and len(collected.failures) == len(project.repos):
            if all(f.reason == FailureReason.NOT_COLLECTED for f in collected.failures):
                raise WireError(
                    f"{project.key} {day}: nothing collected yet for that day; "
                    "run `digest collect` first (or `digest run`)"
                )
            raise WireError(f"{project.key} {day}: no repository could be read; no edition written")
        return None
    brief = make_brief(project, day, collected.pulls, rt.settings.topics, collected.failures)
    digest = writer.write(brief)
    first_timers, history_since = newcomers(rt.settings.data_dir, day, collected.pulls)
    # Writers see defused titles; references and the change list show them as written.
    titles = {(p.repo, p.number, p.url): p.title for p in collected.pulls}
    digest = msgspec.structs.replace(
        digest,
        project=project.shown,
        project_slug=project.key,
        date=day,
        references=tuple(
            msgspec.structs.replace(
                ref, title=titles.get((ref.repo, ref.number, ref.url), ref.title)
            )
            for ref in digest.references
        ),
        repos=brief.repos,
        topics=brief.topics,
        changes=tuple(
            ChangeSummary(
                repo=item.pull.repo,
                number=item.pull.number,
                title=titles.get((item.pull.repo, item.pull.number, item.pull.url), ""),
                url=item.pull.url,
                kind=item.kind,
                files_complete=item.pull.files_complete,
            )
            for item in brief.items
        ),
        failed_repos=collected.failures,
        follow_ups=follow_ups(collected.pulls),
        newcomers=first_timers,
        history_since=history_since,
        filed_at=rt.clock.now().replace(microsecond=0),
        repo_names=tuple(
            RepoName(repo.name, repo.display_name) for repo in project.repos if repo.display_name
        ),
    )
    digest = msgspec.structs.replace(
        digest, topic_leads=topic_leads(digest, rt.settings.topics, brief.items)
    )
    # The extractive writer keeps its own prose rules; a model's edition, screened, the
    # edition's shape (see summarize/checks.py).
    check = problems if digest.writer == "extractive" else model_problems
    # A release is checked against the notes the brief gave it (written ahead of it).
    pulls = as_told(brief, collected.pulls)
    found = check(digest, pulls)
    if found:  # what breaks a rule is left out, when the rest still makes an edition
        digest, mended = mend(digest, pulls, check)
        for note in mended:
            log.warning("%s %s: %s", project.key, day, note)
        found = check(digest, pulls)
    if found:
        raise WireError(
            f"{project.key} {day}: the {digest.writer} writer broke the edition rules: {found[0]}"
        )
    try:
        previous = rt.store.load_digest(project.key, day)
    except WireError as error:
        # A damaged edition (a truncated file) is replaced by the new one, never a stop.
        log.warning("%s; writing it again", error)
        previous = None
    if (
        previous is not None
        and msgspec.structs.replace(previous, filed_at=digest.filed_at) == digest
    ):
        digest = previous  # Same edition: keep its filing time so the output stays byte-identical.
    rt.store.save_digest(digest)
    return digest


def follow_ups(pulls: Sequence[PullRequest]) -> tuple[FollowUp, ...]:
    """What ``pulls`` revert and re-land (numbered PRs only), in a stable order."""
    found = [
        FollowUp(kind, link.repo, link.number, pull.number, pull.url)
        for pull in pulls
        for kind, link in (("revert", pull.reverts), ("reland", pull.relands))
        if link is not None and link.number is not None
    ]
    return tuple(sorted(set(found), key=lambda f: (f.repo, f.number, f.kind, f.by_url)))


def render(rt: Runtime, full: bool = False) -> RenderReport:
    """Build the site from every stored digest (incrementally); ``full`` reads every stored
    file again instead of trusting the data folder's indexes (after edits by hand)."""
    return render_site(rt.settings, rt.store, full=full)


def _source(rt: Runtime, repo: RepoSettings) -> Source:
    """The run's source of ``repo`` (one per source name, built on first use)."""
    name = repo.source or ""
    source = rt.sources.get(name)
    if source is None:
        context = SourceContext(settings=rt.settings, clock=rt.clock, env=rt.env)
        source = rt.sources[name] = rt.registry.source(name)(context)
    return source


def _collect_repo(rt: Runtime, repo: RepoSettings, day: dt.date) -> tuple[PullRequest, ...]:
    return _source(rt, repo).collect(repo, day)


def _settings_used(rt: Runtime, repo: RepoSettings) -> dict[str, str]:
    """The settings a collection of ``repo`` depends on, as its source says (none if it
    does not say, or cannot: collecting then reports the problem).
    """
    try:
        used = getattr(_source(rt, repo), "settings_used", None)
        return dict(used(repo)) if used is not None else {}
    except WireError:
        return {}


def _changed(before: Mapping[str, str] | None, now: Mapping[str, str]) -> str:
    """Say which of the settings ``before`` (stored with a collection) differ ``now``.

    Empty when none do, or when the collection recorded none (stored by an earlier version).
    """
    if before is None:
        return ""
    keys = sorted(key for key in set(before) | set(now) if before.get(key) != now.get(key))

    def said(value: str | None) -> str:
        return repr(value) if value else "none"

    return ", ".join(f"{key} {said(before.get(key))} -> {said(now.get(key))}" for key in keys)


def _complete(repo_day: RepoDay | RepoDayStamp, repo: RepoSettings) -> bool:
    """True when ``repo_day`` came from ``repo``'s source and was collected once the day settled."""
    settled = day_window(repo_day.date)[1] + SETTLE
    return repo_day.source == repo.source and repo_day.collected_at >= settled


def days_between(since: dt.date, until: dt.date) -> Sequence[dt.date]:
    """Every date from ``since`` to ``until``, both included."""
    return [since + dt.timedelta(days=n) for n in range((until - since).days + 1)]
