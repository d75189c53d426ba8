"""The run summary: what one command did, in Markdown for a scheduler's page.

GitHub Actions shows ``$GITHUB_STEP_SUMMARY`` on the run's page; ``digest run --summary
PATH`` appends this summary there (or to any file): editions written, days without
changes, repositories read, reused and left out, the GitHub rate-limit budget used and
left, what the site build did, and the exit status.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from msgspec import Struct, field
from msgspec.structs import replace

from digest.errors import WireError
from digest.models import Digest
from digest.pipeline import Collected, Runtime
from digest.render import RenderReport
from digest.sources.base import SourceContext
from digest.text import count, one_line

if TYPE_CHECKING:
    from digest.sources.github import RateBudget

_MARKDOWN = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")
STATUS = {
    0: "success",
    1: "some repository could not be read, or a day failed; the rest was built",
    130: "interrupted (Ctrl-C); what was done is kept, and `run` built the site from it",
    143: "terminated (SIGTERM); what was done is kept, and `run` built the site from it",
}


class DayOutcome(Struct, frozen=True):
    """One project-day of a run: what was collected, the edition, or the error that stopped it."""

    project: str
    day: dt.date
    collected: Collected | None = None
    digest: Digest | None = None
    error: str | None = None


class RunSummary(Struct):
    """What a command did, filled in while it runs."""

    command: str
    started: dt.datetime
    days: list[DayOutcome] = field(default_factory=list)
    site: RenderReport | None = None
    #: The GitHub budgets before and after the run; None when no repository uses GitHub.
    budget_before: Sequence[RateBudget] | str | None = None
    budget_after: Sequence[RateBudget] | str | None = None
    status: int = 0
    #: Where a range stopped before its end, and why (``2026-03-04: interrupted``).
    stopped: str | None = None

    def markdown(self) -> str:
        """Return the summary as Markdown; every text from outside is escaped."""
        when = self.started.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
        lines = [f"### The Wire: `digest {self.command}`, {when}", ""]
        if self.days:
            lines += ["| project | day | edition | repositories |", "| --- | --- | --- | --- |"]
            lines += [_row(outcome) for outcome in self.days]
            lines.append("")
        lines += [self._totals(), ""]
        left_out = [
            f"- **{_md(f.repo)}** on {o.day}: {_md(f.reason)}"
            for o in self.days
            if o.collected
            for f in o.collected.failures
        ]
        left_out += [f"- {o.project} {o.day}: {_md(o.error)}" for o in self.days if o.error]
        if left_out:
            lines += ["Left out:", "", *left_out, ""]
        budget = _budget(self.budget_before, self.budget_after)
        if budget:
            lines += [budget, ""]
        if self.stopped is not None:
            lines += [f"Stopped at {_md(self.stopped)}; the days after it were not done.", ""]
        if self.site is not None:
            lines += [_site(self.site), ""]
        lines.append(f"Exit status {self.status}: {STATUS.get(self.status, 'failed')}.")
        return "\n".join(lines) + "\n"

    def _totals(self) -> str:
        editions = sum(o.digest is not None for o in self.days)
        quiet = sum(o.digest is None and not o.error and o.collected is not None for o in self.days)
        read = sum(len(o.collected.fetched) for o in self.days if o.collected)
        reused = sum(len(o.collected.reused) for o in self.days if o.collected)
        failed = sum(len(o.collected.failures) for o in self.days if o.collected)
        failed_days = sum(o.error is not None for o in self.days)
        parts = [
            f"**{count(editions, 'edition')}**",
            f"{count(quiet, 'day')} without merged changes",
            f"repository-days: {read} read from their source, {reused} reused from data_dir, "
            f"{failed} left out",
        ]
        if failed_days:
            parts.append(f"{count(failed_days, 'day')} failed")
        return "; ".join(parts) + "."


def github_budget(rt: Runtime) -> Sequence[RateBudget] | str | None:
    """Return what is left of the GitHub rate limits for the run's token.

    None when no repository is read from GitHub; the reason when the budget cannot be read.
    GitHub does not count this request against any limit.
    """
    if not any(r.source == "github" for p in rt.settings.projects for r in p.repos):
        return None
    # One retry at most: a summary line is not worth the run's full patience.
    github = replace(rt.settings.github, retries=min(1, rt.settings.github.retries))
    settings = replace(rt.settings, github=github)
    from digest.sources.github import GitHubSource  # PyGithub only when GitHub is read

    try:
        return GitHubSource(SourceContext(settings, rt.clock, rt.env)).rate_limits()
    except WireError as error:
        return str(error)


def _row(outcome: DayOutcome) -> str:
    if outcome.error:
        edition = "failed (below)"
    elif outcome.digest is not None:
        edition = _md(outcome.digest.headline)
    else:
        edition = "no merged changes; no edition"
    repos = ""
    if outcome.collected is not None:
        c = outcome.collected
        repos = f"{len(c.fetched)} read, {len(c.reused)} reused, {len(c.failures)} left out"
    return f"| {_md(outcome.project)} | {outcome.day} | {edition} | {repos} |"


def _site(report: RenderReport) -> str:
    return (
        f"Site: {count(report.editions, 'edition')}; pages {report.pages_written} written, "
        f"{report.pages_unchanged} unchanged, {report.pages_skipped} skipped, "
        f"{report.pages_deleted} deleted; {count(len(report.problems), 'problem')}."
    )


def _budget(
    before: Sequence[RateBudget] | str | None, after: Sequence[RateBudget] | str | None
) -> str:
    """One line on the GitHub budgets: used during the run (same reset window) and left."""
    if after is None:
        return ""
    if isinstance(after, str):
        return f"GitHub rate limits: unknown ({_md(after)})."
    earlier = {b.resource: b for b in before} if not isinstance(before, str | None) else {}
    parts = []
    for now in after:
        part = f"{now.resource} {now.remaining:,} of {now.limit:,} left"
        was = earlier.get(now.resource)
        if was is not None and was.reset == now.reset:
            part += f" ({was.remaining - now.remaining:,} used by this token during the run)"
        parts.append(part + f", resets {now.reset.strftime('%H:%M')} UTC")
    return "GitHub rate limits: " + "; ".join(parts) + "."


def _md(text: str) -> str:
    """Return ``text`` on one line with Markdown's special characters escaped."""
    return _MARKDOWN.sub(r"\\\1", one_line(text))
