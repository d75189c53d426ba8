"""The ``digest`` command: ``run``, ``collect``, ``summarize``, ``render`` and ``doctor``.

This is the only module that prints for the user or chooses an exit status: a
:class:`~digest.errors.WireError` becomes one line on stderr and its exit code.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import gc
import json
import logging
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct

from digest import __version__, logs, pipeline, secrets
from digest.clock import Clock, FixedClock, SystemClock
from digest.config import (
    DEFAULT_CONFIG,
    DEPLOY_HINT,
    ProjectSettings,
    config_cache,
    load_settings,
    placeholder_host,
)
from digest.errors import TRACEBACKS, ConfigError, NetworkUnreachable, UsageError, WireError
from digest.lock import data_lock, site_lock
from digest.pipeline import Runtime
from digest.registry import default_registry
from digest.render import RenderReport
from digest.store import remove_orphans
from digest.text import count

if TYPE_CHECKING:
    from digest.summarize.base import Writer
    from digest.summary import RunSummary

log = logging.getLogger("digest")
EXIT_PARTIAL = 1
#: Exit statuses of a command stopped by Ctrl-C (SIGINT) and by SIGTERM, as a shell's.
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
#: Commands that write into data_dir or site_dir, one at a time (the data lock).
WRITING = ("run", "collect", "summarize", "render")
#: Every command.
COMMANDS = (*WRITING, "doctor", "config")
#: How long a writing command waits for another to finish, by default (seconds).
DEFAULT_WAIT = 60.0


def run() -> int:
    """The ``digest`` command: :func:`main` on the process's arguments; its exit status.

    Every object left is frozen out of the garbage collector's reach first: the
    interpreter's teardown otherwise walks a build's objects again, 50-90 ms on a site of
    1,000 editions (a tenth of adding a day), for a process that is about to end.
    """
    status = main()
    gc.freeze()
    return status


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``) and return the exit status."""
    env = dict(os.environ if env is None else env)
    words = sys.argv[1:] if argv is None else list(argv)
    args = _parser(_command_in(words)).parse_args(words)
    logs.setup(args.verbose - args.quiet, debug=args.debug)
    try:
        secrets.install(env)  # Before anything could log or store a message quoting a secret.
        clock = _clock(env)
        command: Callable[[argparse.Namespace, Runtime, Plan], int] = args.handler
        settings = load_settings(Path(args.config), cache=config_cache(env))
        rt = Runtime(settings=settings, registry=default_registry(), clock=clock, env=env)
        # Mistakes in the command line stop it before it waits for the lock or writes.
        plan = _plan(args, rt)
        if args.command not in WRITING:
            return command(args, rt, plan)
        with (
            _terminated_as_interrupted(),
            data_lock(settings.data_dir, wait=args.wait, command=args.command, now=clock.now),
        ):
            for orphan in remove_orphans(settings.data_dir):
                log.info("deleted %s, left by a run that was killed", orphan)
            return command(args, rt, plan)
    except WireError as error:
        TRACEBACKS.debug("the traceback of the error below", exc_info=True)
        print(f"digest: error: {error}", file=sys.stderr)
        return error.exit_code
    except OSError as error:
        TRACEBACKS.debug("the traceback of the error below", exc_info=True)
        # Anything not written through the store (a lock file, a folder of the site).
        where = f"{error.filename}: " if error.filename else ""
        print(f"digest: error: {where}{error.strerror or error}", file=sys.stderr)
        return EXIT_PARTIAL
    except KeyboardInterrupt as interrupt:
        said = _interrupted(interrupt)
        print(f"digest: {said}; files already written are complete", file=sys.stderr)
        return _interrupt_status(interrupt)
    finally:
        for line in logs.repeats():  # each was written once, when it was first said
            print(line, file=sys.stderr)


def _command_in(words: Sequence[str]) -> str | None:
    """The command the command line ``words`` names, when it names one: its first word
    that is neither an option nor the value of ``--config``; None when it asks for help
    or a version before one."""
    rest = iter(words)
    for word in rest:
        if len(word) >= 3 and "--config".startswith(word):  # --config, or abbreviated
            next(rest, None)
        elif word in ("-h", "--help", "--version") or word == "--":
            return None
        elif not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only``, of that command alone (the same parse of
    a command line naming it, without building the others': a build with nothing to do
    is about a tenth of a second)."""
    parser = argparse.ArgumentParser(
        prog="digest", description="Turn a day of merged pull requests into a news page and feed."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _global_options(parser, DEFAULT_CONFIG, 0, False)
    # The same options after the command; SUPPRESS keeps what was given before it.
    common = argparse.ArgumentParser(add_help=False)
    _global_options(common, argparse.SUPPRESS, argparse.SUPPRESS, argparse.SUPPRESS)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, handler, help_text in (
        ("run", _run, "collect, summarize and render (the daily job)"),
        ("collect", _collect, "collect merged changes into the data folder"),
        ("summarize", _summarize, "write editions from collected changes"),
        ("render", _render, "build the site from stored editions"),
        ("doctor", _doctor, "check the configuration, the GitHub token and every repository"),
        ("config", _config, "print the resolved paths, projects and repositories as JSON"),
    ):
        if only is not None and name != only:
            continue
        sub = commands.add_parser(name, help=help_text, description=help_text, parents=[common])
        sub.set_defaults(handler=handler)
        if name in WRITING:
            sub.add_argument(
                "--wait",
                type=_seconds,
                default=DEFAULT_WAIT,
                metavar="SECONDS",
                help="wait this long for another run on the same data_dir (default: %(default)g)",
            )
        if name in ("run", "render"):
            sub.add_argument(
                "--deploy",
                action="store_true",
                help="the site will be published: refuse a placeholder site.base_url",
            )
        if name == "render":
            sub.add_argument(
                "--full",
                action="store_true",
                help="read every stored file again, not the data folder's indexes, and check "
                "every file of the site, not only its folders (after editing either by hand)",
            )
        if name == "doctor":
            sub.add_argument(
                "--index",
                action="store_true",
                help="also check that the data folder's indexes list its files as they are",
            )
            sub.add_argument(
                "--site",
                action="store_true",
                help="also check that every published page holds what the last build wrote "
                "(reads every page; after editing the site by hand)",
            )
        if name not in ("run", "collect", "summarize"):
            continue
        sub.add_argument(
            "--summary",
            type=Path,
            metavar="PATH",
            help="append a Markdown summary of the run to PATH (e.g. $GITHUB_STEP_SUMMARY)",
        )
        sub.add_argument(
            "--date", type=_date, help="the UTC day whose merges are covered (default: yesterday)"
        )
        sub.add_argument("--since", type=_date, help="first day of a range (with --until)")
        sub.add_argument("--until", type=_date, help="last day of a range (default: yesterday)")
        sub.add_argument(
            "--project", action="append", metavar="SLUG", help="only this project (repeatable)"
        )
        if name in ("run", "collect"):
            sub.add_argument("--refresh", action="store_true", help="collect again even if stored")
        if name in ("run", "summarize"):
            sub.add_argument(
                "--writer", help="writer to use (default: the config's, else extractive)"
            )
    return parser


def _global_options(
    parser: argparse.ArgumentParser, config: str, counts: object, flag: object
) -> None:
    """Add ``--config``, ``-v``, ``-q`` and ``--debug`` to ``parser``, with the given defaults."""
    parser.add_argument(
        "--config", default=config, help=f"configuration file (default: {DEFAULT_CONFIG})"
    )
    parser.add_argument("-v", "--verbose", action="count", default=counts, help="say more")
    parser.add_argument("-q", "--quiet", action="count", default=counts, help="say less")
    parser.add_argument(
        "--debug",
        action="store_true",
        default=flag,
        help="say everything, with the tracebacks of handled errors (for bug reports)",
    )


class Terminated(KeyboardInterrupt):
    """SIGTERM (a scheduler's timeout, ``kill``): raised where the command is, as Ctrl-C's
    KeyboardInterrupt is, so that it stops the same way (a range still renders its days)."""


@contextlib.contextmanager
def _terminated_as_interrupted() -> Iterator[None]:
    """While the block runs, SIGTERM raises :class:`Terminated` instead of ending the process
    at once. Only the main thread can set a signal's handler; elsewhere SIGTERM is left as is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise Terminated(signal.Signals(signum).name)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupted(interrupt: KeyboardInterrupt) -> str:
    """How the command was stopped, in words."""
    return "terminated (SIGTERM)" if isinstance(interrupt, Terminated) else "interrupted"


def _interrupt_status(interrupt: KeyboardInterrupt) -> int:
    return EXIT_TERMINATED if isinstance(interrupt, Terminated) else EXIT_INTERRUPTED


def _run(args: argparse.Namespace, rt: Runtime, plan: Plan) -> int:
    summary = _start_summary(args, rt)
    with _summarized(args, rt, summary):
        # A range that stops early (a day fails so that the run cannot go on, Ctrl-C,
        # SIGTERM) still builds the site from the editions stored so far, and says so.
        failure: WireError | None = None
        interrupt: KeyboardInterrupt | None = None
        try:
            summary.status = _each_day(args, rt, plan, summary, collect=True)
        except WireError as error:
            if error.exit_code != EXIT_PARTIAL:
                raise
            failure = error
        except KeyboardInterrupt as error:
            interrupt = error
            print(
                f"digest: {_interrupted(error)}; building the site from the editions stored "
                "so far (interrupt again to stop at once)",
                file=sys.stderr,
            )
        summary.site = _build(args, rt)
        _report_render(summary.site)
        _say_range(plan, summary, "rendered", failure, interrupt)
        if failure is not None:
            raise failure
        if interrupt is not None:
            summary.status = _interrupt_status(interrupt)
    return summary.status


def _say_range(
    plan: Plan,
    summary: RunSummary,
    done: str,
    failure: WireError | None = None,
    interrupt: KeyboardInterrupt | None = None,
) -> None:
    """After a range of days that did not all succeed: one line saying how many days were
    ``done`` (rendered, collected, summarized), where the range stopped and why."""
    steps = [(day, project.key) for day in plan.days for project in plan.projects]
    failed = [outcome for outcome in summary.days if outcome.error is not None]
    if len(steps) < 2 or (interrupt is None and failure is None and not failed):
        return  # a single day's error already said it all
    several = len(plan.projects) > 1

    def where(day: dt.date, project: str) -> str:
        return f"{project} {day}" if several else str(day)

    ok = len(summary.days) - len(failed)
    line = f"digest: {done} {ok} of {len(steps)} {'project-days' if several else 'days'}"
    if interrupt is not None or failure is not None:
        # Where it stopped: the step after the last one recorded when interrupted, else
        # the one whose error ended the range.
        if interrupt is not None and len(summary.days) < len(steps):
            day, project = steps[len(summary.days)]
            reason = _interrupted(interrupt)
        else:
            last = summary.days[-1]
            day, project, reason = last.day, last.project, last.error or str(failure)
        summary.stopped = f"{where(day, project)}: {reason}"
        # The error that ended it is the next line (main's): not said twice.
        line += f"; stopped at {summary.stopped if interrupt else where(day, project)}"
        failed = [outcome for outcome in failed if (outcome.day, outcome.project) != (day, project)]
    if failed:
        # Each failed day said its error as it failed: here the days alone.
        named = [where(outcome.day, outcome.project) for outcome in failed[:3]]
        more = f" and {len(failed) - 3} more" if len(failed) > 3 else ""
        line += f"; failed: {', '.join(named)}{more} (the errors are above)"
    if interrupt is not None or failure is not None:
        line += "; run the same command again to finish the range"
    print(line, file=sys.stderr)


def _collect(args: argparse.Namespace, rt: Runtime, plan: Plan) -> int:
    summary = _start_summary(args, rt)
    with _summarized(args, rt, summary), _range_said(plan, summary, "collected"):
        summary.status = _each_day(args, rt, plan, summary, collect=True)
    return summary.status


def _summarize(args: argparse.Namespace, rt: Runtime, plan: Plan) -> int:
    summary = _start_summary(args, rt)
    with _summarized(args, rt, summary), _range_said(plan, summary, "summarized"):
        summary.status = _each_day(args, rt, plan, summary, collect=False)
    return summary.status


@contextlib.contextmanager
def _range_said(plan: Plan, summary: RunSummary, done: str) -> Iterator[None]:
    """Say how far a range of ``collect`` or ``summarize`` got, when it did not all succeed."""
    try:
        yield
    except WireError as error:
        _say_range(plan, summary, done, failure=error)
        raise
    except KeyboardInterrupt as interrupt:
        _say_range(plan, summary, done, interrupt=interrupt)
        raise
    _say_range(plan, summary, done)


def _start_summary(args: argparse.Namespace, rt: Runtime) -> RunSummary:
    # Here: ``digest render`` (a build with nothing to do: a tenth of a second) needs none.
    from digest.summary import RunSummary, github_budget

    summary = RunSummary(command=args.command, started=rt.clock.now())
    if args.summary is not None and args.command != "summarize":
        summary.budget_before = github_budget(rt)
    return summary


@contextlib.contextmanager
def _summarized(args: argparse.Namespace, rt: Runtime, summary: RunSummary) -> Iterator[None]:
    """Append ``summary`` to the ``--summary`` file (if given) after the block, even if it fails."""
    try:
        yield
    except WireError as error:
        summary.status = error.exit_code
        _write_summary(args, rt, summary)
        raise
    except KeyboardInterrupt as interrupt:
        summary.status = _interrupt_status(interrupt)
        _write_summary(args, rt, summary)
        raise
    _write_summary(args, rt, summary)


def _write_summary(args: argparse.Namespace, rt: Runtime, summary: RunSummary) -> None:
    if args.summary is None:
        return
    if summary.budget_before is not None:
        from digest.summary import github_budget

        summary.budget_after = github_budget(rt)
    try:
        with args.summary.open("a", encoding="utf-8") as handle:
            handle.write(summary.markdown())
    except OSError as error:
        raise UsageError(f"--summary {args.summary}: {error.strerror}") from None


def _config(args: argparse.Namespace, rt: Runtime, plan: Plan) -> int:
    settings = rt.settings
    resolved = {
        "config": str(Path(args.config).resolve()),
        "data_dir": str(settings.data_dir.resolve()),
        # Not resolved: site_dir is a link that each build moves.
        "site_dir": str(settings.site_dir.parent.resolve() / settings.site_dir.name),
        "projects": [
            {"slug": p.key, "name": p.name, "repos": [r.name for r in p.repos]}
            for p in settings.projects
        ],
    }
    print(json.dumps(resolved, indent=2, ensure_ascii=False))
    return 0


def _render(args: argparse.Namespace, rt: Runtime, plan: Plan) -> int:
    _report_render(_build(args, rt))
    return 0


def _build(args: argparse.Namespace, rt: Runtime) -> RenderReport:
    """Build the site holding the site lock: another configuration may share ``site_dir``.

    Taken while the data lock is held, never before it (see :mod:`digest.lock`).
    """
    with site_lock(rt.settings.site_dir, wait=args.wait, command=args.command, now=rt.clock.now):
        return pipeline.render(rt, full=getattr(args, "full", False))


def _doctor(args: argparse.Namespace, rt: Runtime, plan: Plan) -> int:
    from digest import doctor  # PyGithub and git probes: only for this command

    findings = doctor.diagnose(rt.settings, rt.env, rt.clock, Path(args.config))
    if args.index:
        findings.append(doctor.index_finding(rt.store))
    if args.site:
        findings.append(doctor.site_finding(rt.settings))
    for finding in doctor.merge_repeated(findings):
        times = f" ({finding.times} times)" if finding.times > 1 else ""
        print(f"{finding.status:<4}  {finding.subject}{times}: {finding.detail}")
        if finding.fix:
            print(f"      fix: {finding.fix}")
    failed = sum(finding.status == doctor.Status.FAIL for finding in findings)
    warned = sum(finding.status == doctor.Status.WARN for finding in findings)
    said = f"no problems, {count(warned, 'warning')}" if warned else "all good"
    print(f"digest doctor: {count(failed, 'problem')}" if failed else f"digest doctor: {said}")
    return EXIT_PARTIAL if failed else 0


def _each_day(
    args: argparse.Namespace, rt: Runtime, plan: Plan, summary: RunSummary, *, collect: bool
) -> int:
    """Run the stages for every day and project of ``plan``; return the exit status.

    Collects (or reads what was collected) and, when the plan has a writer, summarizes.
    Each project-day's outcome is added to ``summary``.
    """
    from tqdm import tqdm  # only the commands that go through days load it

    from digest import advice
    from digest.summary import DayOutcome

    days, projects, writer = plan.days, plan.projects, plan.writer
    status = 0
    if collect:
        for stale in advice.stale_sources(rt, projects, days):
            log.warning(
                "%s: its branch was last changed on %s, so %s will have no merged changes; "
                "update the clone (git fetch) if that is not right",
                stale.repo,
                stale.last_change.strftime("%Y-%m-%d %H:%M UTC"),
                _days_said(stale.days),
            )
        for shallow in advice.shallow_sources(rt, projects, days):
            lost = shallow.days
            log.warning(
                "%s: the clone %s is shallow: its history starts %s, so %s cannot be collected; "
                "fetch the whole history (git -C %s fetch --unshallow)",
                shallow.repo,
                shallow.location,
                shallow.history_start.strftime("%Y-%m-%d %H:%M UTC"),
                _days_said(lost),
                shallow.location,
            )
        pipeline.expect(rt, projects, days, refresh=getattr(args, "refresh", False))
    steps = [(day, project) for day in days for project in projects]
    # A progress bar only on a terminal: a scheduler's log gets the per-day lines alone.
    quiet_bar = len(days) < 2 or args.quiet > 0 or not sys.stderr.isatty()
    progress = tqdm(steps, desc="editions", unit="day", disable=quiet_bar, leave=False)
    for day, project in progress:
        progress.set_postfix_str(f"{project.key} {day}")
        found = digest = None
        try:
            if collect:
                found = pipeline.collect(rt, project, day, refresh=getattr(args, "refresh", False))
            else:
                found = pipeline.stored(rt, project, day)
            if found.failures:
                status = EXIT_PARTIAL
            if writer is None:
                summary.days.append(DayOutcome(project.key, day, found))
                continue
            digest = pipeline.summarize(rt, project, day, found, writer)
        except WireError as error:
            summary.days.append(DayOutcome(project.key, day, found, error=str(error)))
            if len(steps) == 1 or isinstance(error, NetworkUnreachable):
                raise
            tqdm.write(f"digest: error: {error}", file=sys.stderr)
            status = max(status, EXIT_PARTIAL)
            continue
        summary.days.append(DayOutcome(project.key, day, found, digest))
        if digest is None:
            log.warning("%s %s: no merged changes; no edition", project.key, day)
        else:
            log.info("%s %s: %s", project.key, day, digest.headline)
        for failure in found.failures:
            log.warning("%s %s: %s left out: %s", project.key, day, failure.repo, failure.reason)
    return status


def _days_said(days: Sequence[dt.date]) -> str:
    """``2026-03-01``, or ``2026-03-01 to 2026-03-04 (4 days)``."""
    if len(days) == 1:
        return str(days[0])
    return f"{days[0]} to {days[-1]} ({count(len(days), 'day')})"


class Plan(Struct, frozen=True):
    """What a command will cover, checked before it takes the lock."""

    days: tuple[dt.date, ...] = ()
    projects: tuple[ProjectSettings, ...] = ()
    #: Built up front, so an unknown name or a missing key stops the run at once.
    writer: Writer | None = None


def _plan(args: argparse.Namespace, rt: Runtime) -> Plan:
    """Return the days, projects and writer of the command line; raise WireError if wrong."""
    if getattr(args, "deploy", False) and placeholder_host(rt.settings.site.base_url):
        raise ConfigError(
            args.config,
            f"{rt.settings.site.base_url} is a placeholder; set it to {DEPLOY_HINT} "
            "before deploying",
            "site.base_url",
        )
    if args.command in ("run", "render") and rt.settings.site.templates is not None:
        # A broken override stops the run before it collects, not after.
        from digest.render.templating import check_templates, make_environment

        check_templates(make_environment(rt.settings))
    if args.command not in ("run", "collect", "summarize"):
        return Plan()
    if args.summary is not None and not args.summary.parent.is_dir():
        raise UsageError(f"--summary {args.summary}: no such folder {args.summary.parent}")
    days, projects = _days(args, rt.clock), _projects(args, rt)
    writer = None
    if args.command != "collect":
        writer = pipeline.make_writer(rt, args.writer or rt.settings.writer)
    return Plan(tuple(days), tuple(projects), writer)


def _report_render(report: RenderReport) -> None:
    log.info("site: %s", report)
    for problem in report.problems:
        log.warning("site: %s", problem)


def _days(args: argparse.Namespace, clock: Clock) -> list[dt.date]:
    today = clock.now().date()
    yesterday = today - dt.timedelta(days=1)
    if args.date and (args.since or args.until):
        raise UsageError("give either --date or --since/--until, not both")
    if args.date:
        since = until = args.date
    elif args.since or args.until:
        since, until = args.since or args.until, args.until or yesterday
    else:
        since = until = yesterday
    if since > until:
        raise UsageError(f"--since {since} is after --until {until}")
    if until > today:
        raise UsageError(f"{until} is in the future (today is {today} UTC)")
    if (until - since).days > 3660:
        raise UsageError("a range of more than ten years; split it up")
    if until == today:
        log.warning("%s is not over yet (UTC): its edition will be partial", today)
    return list(pipeline.days_between(since, until))


def _projects(args: argparse.Namespace, rt: Runtime) -> list[ProjectSettings]:
    wanted: list[str] = args.project or []
    return [rt.settings.project(slug) for slug in wanted] or list(rt.settings.projects)


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds (0 or more)")
    return seconds


def _date(text: str) -> dt.date:
    """Parse ``YYYY-MM-DD``; say which part is wrong when the form is right but the day is not."""
    shape = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text)
    if shape is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date of the form YYYY-MM-DD")
    year, month, day = (int(part) for part in shape.groups())
    if not 1 <= month <= 12:
        raise argparse.ArgumentTypeError(f"{text} is not a date: there is no month {month}")
    import calendar  # here: only a command given a date needs it, and it costs milliseconds

    days = calendar.monthrange(year, month)[1] if year >= 1 else 31
    if not 1 <= day <= days:
        raise argparse.ArgumentTypeError(
            f"{text} is not a date: {calendar.month_name[month]} has {days} days in {year}"
        )
    try:
        return dt.date(year, month, day)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{text} is not a date: {error}") from None


def _clock(env: Mapping[str, str]) -> Clock:
    """The system clock, or the instant in ``WIRE_NOW`` (ISO 8601) for reproducible builds."""
    pinned = env.get("WIRE_NOW")
    if not pinned:
        return SystemClock()
    try:
        return FixedClock(dt.datetime.fromisoformat(pinned.replace("Z", "+00:00")))
    except ValueError:
        raise UsageError(f"WIRE_NOW={pinned!r} is not an ISO 8601 time") from None


if __name__ == "__main__":
    sys.exit(run())
