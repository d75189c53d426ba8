"""Collect a day's merged changes from a local git clone (bare or not, partial or full).

A change is a commit on the first-parent history of the configured branch whose
committer time falls in the UTC day. One collection runs five git processes in the
usual case and nine at most, however many commits the day has:

1. ``git cat-file --batch-check`` resolves the branch (and proves the folder is a repo);
   only when the branch is missing, ``git for-each-ref`` lists the branches there are;
2. ``git rev-list --first-parent --timestamp`` lists the branch's commits with their
   committer times, and the day's are picked from it (never ``--since``: git stops
   walking at the first older commit, and committer dates are not ordered);
   ``git rev-parse --is-shallow-repository`` tells whether a shallow clone cut that list:
   a day up to the cut is refused, never collected as empty or partial;
3. ``git log --no-walk --stdin --numstat -z`` reads those commits and their files, and
   ``git cat-file --batch`` their raw messages, which ``git log`` cuts at a NUL byte
   (neither runs on a day without commits);
4. only if that fails (blobs missing from a partial or damaged clone): the same log with
   ``--raw``, which needs trees only, then one ``cat-file --batch-check`` to find the
   missing blobs and one ``git log --no-walk --stdin --numstat`` to count the lines of
   the commits that lack none; the others keep unknown (None) line counts;
5. only if the day reverts or re-lands commits outside it, ``git cat-file --batch``
   reads those commits.

A range the run announces (:meth:`GitSource.expect`) is read at once, on the first of its
days collected: the same processes, each run once for the whole range (the log again from
the day after one it stopped in on a missing blob), the result split into days; each day's
records are byte for byte those of the day read alone.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import secrets
import subprocess
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from msgspec.structs import replace

from digest.config import RepoSettings
from digest.errors import SourceError
from digest.models import FailureReason, PullRequest
from digest.sources._gitlog import (
    Hint,
    LogFormat,
    Message,
    RawCommit,
    changelog_paths,
    cut_notes,
    cuts_release,
    doc_paragraph,
    doc_paths,
    fragment_paths,
    fragment_text,
    older_line,
    own_changelog,
    parse_added_lines,
    parse_batch,
    parse_blobs,
    parse_message,
    parse_missing,
)
from digest.sources._links import Linker
from digest.sources.base import SourceContext, day_window
from digest.text import one_line

#: Seconds one git process may run before the collection gives up.
GIT_TIMEOUT = 600.0
_ENV = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_NO_LAZY_FETCH": "1",
    "GIT_OPTIONAL_LOCKS": "0",
    # Belt and braces for gits without GIT_NO_LAZY_FETCH: no transport may run at all.
    "GIT_ALLOW_PROTOCOL": "none",
    "LC_ALL": "C",
}
_CONFIG = ("core.quotepath=off", "log.showRoot=true", "log.showSignature=false")
_BRANCH_NAME = re.compile(r"[^\x00-\x20\x7f~^:?*\[\\]+")
_SHA = re.compile(r"[0-9a-f]{7,64}")


def _env() -> dict[str, str]:
    """Return this process's environment without inherited ``GIT_*`` settings, plus ours."""
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return inherited | _ENV


def _run_git(
    git_dir: Path, args: Sequence[str], stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run ``git args`` against ``git_dir`` with ``stdin``; return the finished process.

    Raises :class:`SourceError` when git is missing or runs past :data:`GIT_TIMEOUT`.
    """
    config = [part for setting in _CONFIG for part in ("-c", setting)]
    command = ["git", f"--git-dir={git_dir}", *config, *args]
    try:
        return subprocess.run(
            command,
            input=stdin,
            capture_output=True,
            env=_env(),
            cwd=git_dir if git_dir.is_dir() else git_dir.parent,
            timeout=GIT_TIMEOUT,
            check=False,
        )
    except FileNotFoundError:
        raise SourceError(
            "git is not installed (or not on PATH); the git source needs it",
            FailureReason.UNREADABLE,
        ) from None
    except subprocess.TimeoutExpired:
        raise SourceError(
            f"git {args[0]} in {git_dir} took over {GIT_TIMEOUT:.0f}s", FailureReason.TIMED_OUT
        ) from None


def _stderr(done: subprocess.CompletedProcess[bytes]) -> str:
    """Return the first meaningful line of what git printed on stderr, cleaned and clipped."""
    lines = [one_line(line) for line in done.stderr.decode("utf-8", "replace").splitlines()]
    fatal = [line for line in lines if line.startswith(("fatal:", "error:"))]
    return ((fatal or [line for line in lines if line] or ["no message"])[0])[:300]


class GitSource:
    """Reads merged changes from the local clone at ``repo.git``; see the module docstring."""

    def __init__(self, context: SourceContext) -> None:
        self.context = context
        # The first-parent list of each branch tip read in this run: a range reads the
        # history once, not once a day (a branch that moves has a new tip, read again).
        self._listings: dict[tuple[Path, str], str] = {}
        # The days of each repository a run said it will collect (see `expect`), and the
        # days read ahead with them: their records, or the error collecting them raises.
        self._expected: dict[RepoSettings, frozenset[dt.date]] = {}
        self._ready: dict[RepoSettings, dict[dt.date, tuple[PullRequest, ...] | SourceError]] = {}

    def expect(self, repo: RepoSettings, days: Iterable[dt.date]) -> None:
        """Say that this run will collect ``days`` of ``repo``.

        The first of them collected reads them all at once: one first-parent list, one
        ``git log --numstat`` and one ``cat-file --batch`` for the whole range, split into
        days here, each day's records the same, byte for byte, as a collection of that
        day alone. Days read ahead are what the clone held then (a run is a snapshot).
        """
        wanted = frozenset(days)
        if len(wanted) > 1:
            self._expected[repo] = self._expected.get(repo, frozenset()) | wanted

    def collect(self, repo: RepoSettings, day: dt.date) -> tuple[PullRequest, ...]:
        """Return the changes merged into ``repo.branch`` on ``day`` (UTC), oldest first.

        "Oldest first" is the order the branch received them (reverse first-parent order).
        Raises :class:`SourceError` when the clone is missing, not a repository, or lacks
        the branch, or when git fails to read it.
        """
        ready = self._ready.get(repo)
        if (ready is None or day not in ready) and day in self._expected.get(repo, ()):
            ready = self._ready[repo] = self._read_ahead(repo, self._expected.pop(repo))
        if ready is not None and day in ready:
            found = ready.pop(day)
            if isinstance(found, SourceError):
                raise found
            return found
        git_dir = _git_dir(repo)
        listed = self._listing(repo, git_dir, _resolve_branch(repo, git_dir))
        commits = _whole_messages(git_dir, self._read_log(repo, git_dir, listed, day))
        messages = [parse_message(c.sha, c.message, repo.name) for c in commits]
        looked_up = self._lookup(repo.name, git_dir, messages)
        # A sha a body alone names must have landed on the branch: a squashed pull request
        # quotes the reverts of its own branch's commits, which never landed.
        landed = _landed(listed) if looked_up else frozenset()
        notes, fragments = _release_texts(git_dir, commits, messages, repo.name)
        older = _older_lines(git_dir, commits, messages, notes)
        return _records(repo, commits, messages, looked_up, landed, notes, older, fragments)

    def _listing(self, repo: RepoSettings, git_dir: Path, tip: str) -> str:
        """The first-parent list of ``tip``, read once a run."""
        listed = self._listings.get((git_dir, tip))
        if listed is None:
            listed = self._listings[(git_dir, tip)] = _first_parents(repo, git_dir, tip)
        return listed

    def _read_ahead(
        self, repo: RepoSettings, days: frozenset[dt.date]
    ) -> dict[dt.date, tuple[PullRequest, ...] | SourceError]:
        """Read every day of ``days`` at once; see :meth:`expect`.

        Return each day's records, or the :class:`SourceError` collecting it alone would
        raise (a day a shallow clone cut). A day whose log with line counts fails (blobs
        missing from a partial clone) is left out: it is read alone, by the path that
        counts the lines of the commits whose blobs are there.
        """
        git_dir = _git_dir(repo)
        listed = self._listing(repo, git_dir, _resolve_branch(repo, git_dir))
        cut = _cut(listed, _shallow_cuts(git_dir))
        ready: dict[dt.date, tuple[PullRequest, ...] | SourceError] = {}
        readable = []
        for day in sorted(days):
            if cut is not None and day_window(day)[0] <= cut:
                ready[day] = _shallow_error(repo, day, cut)
            else:
                readable.append(day)
        if not readable:
            return ready
        # One window over the whole range; the days are picked out of it below.
        span = range(_window(readable[0]).start, _window(readable[-1]).stop)
        shas_of: dict[dt.date, list[str]] = {day: [] for day in readable}
        first = readable[0].toordinal()
        for stamp, sha in _dated(listed, span):
            day = dt.date.fromordinal(first + (stamp - span.start) // 86_400)
            if day in shas_of:
                shas_of[day].append(sha)
        # Each day's commits, oldest first; a day whose log with line counts fails (blobs
        # missing) is left out, to be read alone (that path has the fallback).
        logged = _logged_days(git_dir, [(day, shas) for day, shas in shas_of.items() if shas])
        unread = {day for day, shas in shas_of.items() if shas and day not in logged}
        readable = [day for day in readable if day not in unread]
        flat = _whole_messages(git_dir, [c for day in readable for c in logged.get(day, [])])
        by_day: dict[dt.date, list[RawCommit]] = {day: [] for day in readable}
        for commit in flat:
            by_day[dt.datetime.fromtimestamp(commit.committed, dt.UTC).date()].append(commit)
        messages = {
            day: [parse_message(c.sha, c.message, repo.name) for c in found]
            for day, found in by_day.items()
        }
        wanted_shas = {day: _wanted(found) for day, found in messages.items()}
        found_all = self._cat_file(
            git_dir, sorted({sha for names in wanted_shas.values() for sha in names})
        )
        landed = _landed(listed) if found_all else frozenset()
        flat_messages = [m for day in readable for m in messages[day]]
        notes, fragments = _release_texts(git_dir, flat, flat_messages, repo.name)
        older = _older_lines(git_dir, flat, flat_messages, notes)
        for day in readable:
            looked_up = {
                name: parse_message(*found_all[name], repo.name)
                for name in wanted_shas[day]
                if name in found_all
            }
            used = landed if looked_up else frozenset()
            ready[day] = _records(
                repo, by_day[day], messages[day], looked_up, used, notes, older, fragments
            )
        return ready

    def settings_used(self, repo: RepoSettings) -> dict[str, str]:
        """The settings a collection of ``repo`` depends on: its clone and branch.

        The clone is named relative to ``data_dir`` (both are usually relative to the
        configuration), so a checkout moved elsewhere, as on a fresh CI runner, is the same.
        """
        where = repo.git.resolve() if repo.git is not None else None
        data_dir = self.context.settings.data_dir.resolve()
        clone = os.path.relpath(where, data_dir) if where is not None else ""
        return {"git": clone, "branch": repo.branch}

    def history_start(self, repo: RepoSettings) -> dt.datetime | None:
        """Return where a shallow clone cuts the history of ``repo.branch`` (None: whole)."""
        return history_start(repo)

    def last_change(self, repo: RepoSettings) -> dt.datetime:
        """Return when the tip of ``repo.branch`` in the clone was committed (UTC).

        Days well after it can have no merged changes: the clone is likely not fetched.
        Raises :class:`SourceError` as :meth:`collect` does.
        """
        return last_change(repo)

    def _read_log(
        self, repo: RepoSettings, git_dir: Path, listed: str, day: dt.date
    ) -> list[RawCommit]:
        """Return the commits of ``day`` on the first-parent history ``listed`` (what
        ``rev-list --first-parent --timestamp`` printed), oldest first."""
        start = day_window(day)[0]
        window = _window(day)
        # Committer dates are not ordered along a branch, and `git log --since` stops at
        # the first older commit: one dated years back would hide the day's earlier ones.
        # So the whole first-parent list (sha and date only: cheap) is filtered here.
        cut = _cut(listed, _shallow_cuts(git_dir))
        if cut is not None and start <= cut:
            raise _shallow_error(repo, day, cut)
        shas = [sha for _, sha in _dated(listed, window)]
        if not shas:
            return []
        fmt = LogFormat(secrets.token_hex(8))
        args = [*_log_args(fmt), "--no-walk=unsorted", "--stdin"]
        stdin = "".join(f"{sha}\n" for sha in shas).encode()
        done = _run_git(git_dir, [*args, "--numstat", "-M", "--"], stdin)
        numstat = done.returncode == 0
        if not numstat:
            self.context.log.warning(
                "%s: git log --numstat failed (%s); counting lines only where blobs are present",
                repo.name,
                _stderr(done),
            )
            done = _run_git(git_dir, [*args, "--raw", "--no-renames", "--no-abbrev", "--"], stdin)
        if done.returncode != 0:
            raise SourceError(
                f"{repo.name}: cannot read the history of {repo.git}: {_stderr(done)}",
                FailureReason.UNREADABLE,
            )
        commits = fmt.parse(done.stdout.decode("utf-8", "replace"), numstat=numstat)
        commits = [c for c in reversed(commits) if c.committed in window]
        return commits if numstat else _count_present(git_dir, fmt, commits)

    def _lookup(self, repo: str, git_dir: Path, messages: Sequence[Message]) -> dict[str, Message]:
        """Read, in one ``cat-file --batch``, the commits the day's changes revert or re-land.

        Return ``{sha as written in the message: parsed commit}``; unknown shas are left out.
        """
        found = self._cat_file(git_dir, _wanted(messages))
        return {name: parse_message(sha, text, repo) for name, (sha, text) in found.items()}

    def _cat_file(self, git_dir: Path, wanted: list[str]) -> dict[str, tuple[str, str]]:
        """Read the commits ``wanted`` in one ``cat-file --batch`` (none: no process)."""
        if not wanted:
            return {}
        done = _run_git(
            git_dir, ["cat-file", "--batch"], "".join(f"{s}\n" for s in wanted).encode()
        )
        if done.returncode != 0:
            self.context.log.warning("git cat-file failed in %s: %s", git_dir, _stderr(done))
        return parse_batch(done.stdout, wanted)


def history_start(repo: RepoSettings) -> dt.datetime | None:
    """Return where the first-parent history of ``repo.branch`` is cut in a shallow clone.

    That is the committer date (UTC) of the oldest commit the clone has on it; None when
    the history is whole (the clone is not shallow, or its cut is off that branch). Days
    up to that moment cannot be collected. Raises :class:`SourceError` as collecting does.
    """
    git_dir = _git_dir(repo)
    tip = _resolve_branch(repo, git_dir)
    cuts = _shallow_cuts(git_dir)
    return _cut(_first_parents(repo, git_dir, tip), cuts) if cuts else None


def _first_parents(repo: RepoSettings, git_dir: Path, tip: str) -> str:
    """Return ``rev-list --first-parent --timestamp`` of ``tip``: ``<time> <sha>``, newest first."""
    listed = _run_git(git_dir, ["rev-list", "--first-parent", "--timestamp", tip, "--"])
    if listed.returncode != 0:
        raise SourceError(
            f"{repo.name}: cannot read the history of {repo.git}: {_stderr(listed)}",
            FailureReason.UNREADABLE,
        )
    return listed.stdout.decode("ascii", "replace")


def _shallow_cuts(git_dir: Path) -> frozenset[str]:
    """Return the commits a shallow clone was cut at (their parents are missing); none if whole.

    One ``git rev-parse --is-shallow-repository``, which also says where git keeps the list
    (the ``shallow`` file).
    """
    done = _run_git(git_dir, ["rev-parse", "--is-shallow-repository", "--git-path", "shallow"])
    answer = done.stdout.decode("utf-8", "replace").splitlines()
    if done.returncode != 0 or len(answer) != 2 or answer[0] != "true":
        return frozenset()
    listed = Path(answer[1])
    try:
        return frozenset((listed if listed.is_absolute() else git_dir / listed).read_text().split())
    except OSError:
        return frozenset()


def _cut(rev_list: str, cuts: frozenset[str]) -> dt.datetime | None:
    """Return the date of the last commit of ``rev_list`` when it is one of the ``cuts``.

    A first-parent history that ends at a cut lost what came before it; one that ends at a
    root commit is whole, even in a shallow clone.
    """
    stamp, _, sha = (rev_list.strip().splitlines() or [""])[-1].partition(" ")
    if sha not in cuts or not stamp.isdigit():
        return None
    return dt.datetime.fromtimestamp(int(stamp), dt.UTC)


def _hints(messages: Iterable[Message]) -> Iterable[Hint]:
    """Yield every revert and re-land hint of ``messages``."""
    for message in messages:
        yield from (h for h in (message.reverts, message.relands) if h is not None)


def last_change(repo: RepoSettings) -> dt.datetime:
    """Return the committer date (UTC) of the tip of ``repo.branch`` in its clone."""
    git_dir = _git_dir(repo)
    tip = _resolve_branch(repo, git_dir)
    done = _run_git(git_dir, ["show", "-s", "--format=%ct", tip, "--"])
    stamp = done.stdout.decode("ascii", "replace").strip()
    if done.returncode != 0 or not stamp.isdigit():
        raise SourceError(
            f"{repo.name}: cannot read the tip of {repo.branch} in {repo.git}: {_stderr(done)}",
            FailureReason.UNREADABLE,
        )
    return dt.datetime.fromtimestamp(int(stamp), dt.UTC)


def _git_dir(repo: RepoSettings) -> Path:
    """Return the git directory of ``repo.git``: ``<path>/.git`` if present, else the path."""
    path = repo.git
    if path is None:
        raise SourceError(
            f"{repo.name}: the git source needs a local clone (set 'git:' to its path)",
            FailureReason.NOT_FOUND,
        )
    if not path.is_dir():
        raise SourceError(
            f"{repo.name}: no such folder {path} (the 'git:' path of the repository)",
            FailureReason.NOT_FOUND,
        )
    dot_git = path / ".git"
    return dot_git if dot_git.exists() else path


def _resolve_branch(repo: RepoSettings, git_dir: Path) -> str:
    """Return the commit sha ``repo.branch`` names in ``git_dir``.

    Tries ``refs/heads/<branch>``, ``refs/remotes/origin/<branch>``, then the name as
    given (a tag or a sha), all in one ``cat-file --batch-check``.
    """
    branch = repo.branch
    names = [f"refs/heads/{branch}", f"refs/remotes/origin/{branch}", branch]
    query = (
        "".join(f"{name}^{{commit}}\n" for name in names) if _BRANCH_NAME.fullmatch(branch) else ""
    )
    done = _run_git(
        git_dir, ["cat-file", "--batch-check=%(objectname) %(objecttype)"], query.encode()
    )
    if done.returncode != 0:
        raise SourceError(
            f"{repo.name}: {repo.git} is not a readable git repository: {_stderr(done)}",
            FailureReason.NOT_A_REPOSITORY,
        )
    for line in done.stdout.decode("utf-8", "replace").splitlines():
        sha, _, kind = line.partition(" ")
        if kind == "commit" and re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", sha):
            return sha
    known = _branches(git_dir)
    listing = f"branches there: {', '.join(known)}" if known else "it has no branches"
    raise SourceError(
        f"{repo.name}: no branch {branch!r} in {repo.git} ({listing})", FailureReason.NO_BRANCH
    )


def _branches(git_dir: Path, count: int = 8) -> list[str]:
    """Return up to ``count`` local and ``origin/`` branch names of ``git_dir``."""
    refs = ["refs/heads/", "refs/remotes/origin/"]
    done = _run_git(
        git_dir, ["for-each-ref", f"--count={count + 2}", "--format=%(refname:short)", *refs]
    )
    names = done.stdout.decode("utf-8", "replace").split()
    return [one_line(n) for n in names if n not in ("origin", "origin/HEAD")][:count]


def _whole_messages(git_dir: Path, commits: list[RawCommit]) -> list[RawCommit]:
    """Return ``commits`` with each message git cut at a NUL byte read whole, NULs as spaces.

    ``git log`` prints a message only up to a NUL, losing a title's ``(#N)``; one
    ``cat-file --batch`` reads the raw commits of the day (not run on a day without any).
    """
    if not commits:
        return commits
    shas = [c.sha for c in commits]
    done = _run_git(git_dir, ["cat-file", "--batch"], "".join(f"{s}\n" for s in shas).encode())
    if done.returncode != 0:
        return commits
    raw = parse_batch(done.stdout, shas)
    return [
        replace(c, message=re.sub(" ?\x00+ ?", " ", raw[c.sha][1]))
        if "\x00" in raw.get(c.sha, ("", ""))[1]
        else c
        for c in commits
    ]


def _landed(rev_list: str) -> frozenset[str]:
    """The shas of ``rev-list --timestamp`` output: the commits that landed on the branch."""
    return frozenset(line.partition(" ")[2] for line in rev_list.splitlines())


def _dated(rev_list: str, window: range) -> list[tuple[int, str]]:
    """The ``(time, sha)`` of ``rev-list --timestamp`` output (``<time> <sha>`` lines) dated
    in ``window``, in its order."""
    found = []
    for line in rev_list.splitlines():
        stamp, _, sha = line.partition(" ")
        if stamp.isdigit() and int(stamp) in window and _SHA.fullmatch(sha):
            found.append((int(stamp), sha))
    return found


def _window(day: dt.date) -> range:
    """The epoch seconds of ``day`` (UTC), half-open."""
    start, end = day_window(day)
    return range(int(start.timestamp()), int(end.timestamp()))


def _shallow_error(repo: RepoSettings, day: dt.date, cut: dt.datetime) -> SourceError:
    """The error of a ``day`` of ``repo`` up to where its shallow clone was ``cut``."""
    return SourceError(
        f"{repo.name} {day}: {repo.git} is a shallow clone whose history of "
        f"{repo.branch} starts at {cut:%Y-%m-%d %H:%M UTC}, so {day} cannot be read; "
        f"fetch the whole history (git -C {repo.git} fetch --unshallow)",
        FailureReason.HISTORY_MISSING,
    )


def _wanted(messages: Sequence[Message]) -> list[str]:
    """The shas ``messages`` revert or re-land that are none of theirs, sorted."""
    shas = {h.sha for h in _hints(messages) if h.sha and _SHA.fullmatch(h.sha)}
    return sorted(s for s in shas if not any(m.sha.startswith(s) for m in messages))


def _logged_days(
    git_dir: Path, days: Sequence[tuple[dt.date, Sequence[str]]]
) -> dict[dt.date, list[RawCommit]]:
    """Read the commits of ``days`` (each day's shas in first-parent order, newest first)
    with one ``git log --no-walk --stdin --numstat``; return each day's, oldest first.

    git prints the commits in the order asked and stops at the first it cannot diff (a
    blob missing): then the days before the one it stopped in are kept, that day is left
    out (to be read alone, by the path that counts lines where blobs are there) and the
    log runs again from the day after. Each commit's record does not depend on the others
    read with it, so a day's are those of a log of that day alone.
    """
    logged: dict[dt.date, list[RawCommit]] = {}
    rest = list(days)
    while rest:
        fmt = LogFormat(secrets.token_hex(8))
        args = [*_log_args(fmt), "--no-walk=unsorted", "--stdin", "--numstat", "-M", "--"]
        stdin = "".join(f"{sha}\n" for _, shas in rest for sha in shas).encode()
        done = _run_git(git_dir, args, stdin)
        parsed = fmt.parse(done.stdout.decode("utf-8", "replace"), numstat=True)
        printed = {c.sha: c for c in parsed}
        whole = len(rest)
        if done.returncode != 0:
            # The last day printed may end in the commit git stopped at: it is read alone.
            whole = max(
                (i for i, (_, shas) in enumerate(rest) if printed.keys() & set(shas)), default=0
            )
        for day, shas in rest[:whole]:
            window = _window(day)
            found = (printed.get(sha) for sha in reversed(shas))
            logged[day] = [c for c in found if c is not None and c.committed in window]
        rest = rest[whole + 1 :]
    return logged


def _records(
    repo: RepoSettings,
    commits: Sequence[RawCommit],
    messages: Sequence[Message],
    looked_up: dict[str, Message],
    landed: frozenset[str],
    notes: dict[str, str],
    older: frozenset[str] = frozenset(),
    fragments: dict[str, str] | None = None,
) -> tuple[PullRequest, ...]:
    """The records of one day's ``commits`` (with their parsed ``messages``), given the
    commits they revert or re-land that are not theirs (``looked_up``), the shas that
    landed on the branch (needed only when something was looked up), the release
    notes of the commits that cut a release (``{sha: notes}``), the shas of those that
    release an older line (``older``) and the release-note fragments changes add
    (``{sha: text}``)."""
    linker = Linker(repo.name, messages, looked_up, landed)
    told = fragments or {}
    return tuple(
        _pull(repo, c, m, linker, notes.get(c.sha, ""), c.sha in older, told.get(c.sha, ""))
        for c, m in zip(commits, messages, strict=True)
    )


def _release_texts(
    git_dir: Path, commits: Sequence[RawCommit], messages: Sequence[Message], repo: str = ""
) -> tuple[dict[str, str], dict[str, str]]:
    """What commits write for a release, read with one ``git log -p`` for them all (none: no
    process): the lines each commit that cuts a release adds to its changelog files (its
    message may say little: "Prepare for 0.15.1"), ``{sha: notes}``; and what the
    release-note fragments each change adds say (a changeset's note for users),
    ``{sha: text}``.

    The notes of a release that writes several packages' changelogs begin with the
    repository's own (``packages/astro/CHANGELOG.md`` in withastro/astro, before
    ``packages/astro-prism/``), ``repo`` being its ``owner/name``.

    A failed read leaves them out: they add to a summary, the records stand without.
    """
    notes_of: dict[str, tuple[str, ...]] = {}
    fragments_of: dict[str, tuple[str, ...]] = {}
    docs_of: dict[str, tuple[str, ...]] = {}
    for commit, message in zip(commits, messages, strict=True):
        if paths := changelog_paths(message.title, commit.files):
            notes_of[commit.sha] = paths
        if paths := fragment_paths(commit.files):
            fragments_of[commit.sha] = paths
        elif paths := doc_paths(message.title, message.body, commit.files):
            docs_of[commit.sha] = paths  # no description, no note: what its pages tell
    wanted = [
        c.sha for c in commits if c.sha in notes_of or c.sha in fragments_of or c.sha in docs_of
    ]
    if not wanted:
        return {}, {}
    marker = f"\x1e{secrets.token_hex(8)}\x1e"
    every = {p for of in (notes_of, fragments_of, docs_of) for ps in of.values() for p in ps}
    args = [
        *("log", "--first-parent", "--diff-merges=first-parent", "--no-color", "--no-ext-diff"),
        *("--no-textconv", "--no-walk=unsorted", "--stdin", "-p", "--unified=0"),
        f"--format=tformat:{marker.replace(chr(0x1E), '%x1e')}%H",
        "--",
        *sorted(f":(literal){path}" for path in every),
    ]
    done = _run_git(git_dir, args, "".join(f"{sha}\n" for sha in wanted).encode())
    if done.returncode != 0:
        return {}, {}
    added = parse_added_lines(done.stdout.decode("utf-8", "replace"), marker)

    def joined(of: dict[str, tuple[str, ...]], sha: str, each: Callable[[str], str]) -> str:
        files = added.get(sha, {})
        ordered = sorted(files, key=lambda path: not own_changelog(path, repo))
        return "\n\n".join(
            told for path in ordered if path in of.get(sha, ()) and (told := each(files[path]))
        )

    notes = {sha: text for sha in notes_of if (text := cut_notes(joined(notes_of, sha, str)))}
    fragments = {
        sha: text for sha in fragments_of if (text := joined(fragments_of, sha, fragment_text))
    }
    # A page's first paragraph stands for the note a change with no description left out.
    fragments |= {
        sha: text for sha in docs_of if (text := _first_doc_paragraph(added, docs_of, sha))
    }
    return notes, fragments


def _first_doc_paragraph(
    added: dict[str, dict[str, str]], docs_of: dict[str, tuple[str, ...]], sha: str
) -> str:
    """The first paragraph of prose commit ``sha`` adds to one of its pages (``docs_of``),
    pages in path order, from the lines each commit ``added``; ``""`` when none has one."""
    files = added.get(sha, {})
    return next(
        (told for path in sorted(docs_of[sha]) if (told := doc_paragraph(files.get(path, "")))),
        "",
    )


def _older_lines(
    git_dir: Path,
    commits: Sequence[RawCommit],
    messages: Sequence[Message],
    notes: dict[str, str],
) -> frozenset[str]:
    """The shas of the release commits (with ``notes``) that release an older line: the
    changelog they write to is headed, at that commit, by a newer version. One
    ``cat-file --batch`` reads those changelogs for them all (no release: no process)."""
    asked: dict[str, str] = {}
    titles: dict[str, str] = {}
    for commit, message in zip(commits, messages, strict=True):
        if commit.sha in notes and cuts_release(message.title):
            titles[commit.sha] = message.title
            for path in changelog_paths(message.title, commit.files):
                asked[f"{commit.sha}:{path}"] = commit.sha
    if not asked:
        return frozenset()
    names = list(asked)
    done = _run_git(git_dir, ["cat-file", "--batch"], "".join(f"{n}\n" for n in names).encode())
    if done.returncode != 0:
        return frozenset()  # told as any release: an older line's is still a release
    files = parse_blobs(done.stdout, names)
    written: dict[str, list[str]] = {}
    for name, text in files.items():
        written.setdefault(asked[name], []).append(text)
    return frozenset(
        sha for sha, texts in written.items() if older_line(titles[sha], notes[sha], texts)
    )


def _log_args(fmt: LogFormat) -> list[str]:
    """Return the ``git log`` options every log run shares."""
    return [
        *("log", "--first-parent", "--diff-merges=first-parent", "-z", "--no-color"),
        *("--no-ext-diff", "--no-textconv", "--encoding=UTF-8", f"--format={fmt.pretty()}"),
    ]


def _count_present(git_dir: Path, fmt: LogFormat, commits: list[RawCommit]) -> list[RawCommit]:
    """Return ``commits`` (read with ``--raw``) with line counts for those whose blobs exist.

    Two processes at most: one ``cat-file --batch-check`` finds the missing blobs, one
    ``git log --no-walk --stdin --numstat`` counts the lines of the complete commits.
    Commits that miss a blob, or all of them if git fails, keep unknown counts.
    """
    blobs = sorted({blob for commit in commits for blob in commit.blobs})
    if not blobs:
        return commits
    query = "".join(f"{blob}\n" for blob in blobs).encode()
    done = _run_git(git_dir, ["cat-file", "--batch-check=%(objectname)"], query)
    if done.returncode != 0:
        return commits
    missing = parse_missing(done.stdout.decode("ascii", "replace"))
    complete = [c.sha for c in commits if c.blobs and missing.isdisjoint(c.blobs)]
    if not complete:
        return commits
    stdin = "".join(f"{sha}\n" for sha in complete).encode()
    args = [*_log_args(fmt), "--no-walk=unsorted", "--stdin", "--numstat", "-M", "--"]
    done = _run_git(git_dir, args, stdin)
    if done.returncode != 0:
        return commits
    counted = {c.sha: c.files for c in fmt.parse(done.stdout.decode("utf-8", "replace"), True)}
    return [replace(c, files=counted.get(c.sha, c.files)) for c in commits]


def _pull(
    settings: RepoSettings,
    commit: RawCommit,
    message: Message,
    linker: Linker,
    notes: str = "",
    older: bool = False,
    fragment: str = "",
) -> PullRequest:
    """Return the :class:`PullRequest` record of one commit of the day."""
    repo = settings.name
    number = message.number
    link = f"pull/{number}" if number is not None else f"commit/{commit.sha}"
    reverts, relands = linker.links(message)
    return PullRequest(
        repo=repo,
        number=number,
        title=message.title,
        body=message.body,
        url=f"{settings.web_url}/{link}",
        merged_at=dt.datetime.fromtimestamp(commit.committed, dt.UTC),
        author=commit.author,
        sha=commit.sha,
        files=commit.files,
        additions=sum(f.additions or 0 for f in commit.files),
        deletions=sum(f.deletions or 0 for f in commit.files),
        changed_files=len(commit.files),
        reverts=reverts,
        relands=relands,
        notes=notes,
        older_line=older,
        fragment=fragment,
    )
