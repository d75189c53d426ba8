"""The git source: a day's first-parent commits of a local clone, parsed into records."""

from __future__ import annotations

import datetime as dt
import logging
import subprocess
from pathlib import Path
from typing import Any

import msgspec
import pytest

from digest.clock import FixedClock
from digest.config import ProjectSettings, RepoSettings, Settings
from digest.errors import WireError
from digest.models import ChangeLink, FileChange, PullRequest
from digest.sources._gitlog import cut_notes
from digest.sources.base import SourceContext
from digest.sources.git import GitSource
from digest.summarize.classify import classify
from tests.gitrepo import GitRepo, at

REPO = "acme/widgets"
DAY = dt.date(2025, 3, 14)
BEFORE = DAY - dt.timedelta(days=1)
AFTER = DAY + dt.timedelta(days=1)
PULL = f"https://github.com/{REPO}/pull/"
COMMIT = f"https://github.com/{REPO}/commit/"


def source() -> GitSource:
    settings = Settings(projects=(ProjectSettings(name="Acme", repos=(RepoSettings(name=REPO),)),))
    return GitSource(SourceContext(settings=settings, clock=FixedClock(at(AFTER, 6))))


def collect(path: Path | None, day: dt.date = DAY, branch: str = "main") -> tuple[PullRequest, ...]:
    return source().collect(RepoSettings(name=REPO, git=path, branch=branch), day)


def record(sha: str, title: str, when: dt.datetime, **fields: Any) -> PullRequest:
    """The record expected for commit ``sha``; ``fields`` override the defaults."""
    number = fields.pop("number", None)
    url = f"{PULL}{number}" if number is not None else f"{COMMIT}{sha}"
    base: dict[str, Any] = {"body": "", "author": "Ada Lovelace", "url": url}
    return PullRequest(
        repo=REPO, number=number, title=title, merged_at=when, sha=sha, **(base | fields)
    )


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "widgets")


def test_day_is_half_open_utc_on_committer_time(repo: GitRepo) -> None:
    repo.commit("Before (#1)", at(BEFORE, 23, 59, 59), {"a.txt": "1\n"})
    first = repo.commit(
        "First of the day (#2)\n\nWhy it matters.\n",
        at(DAY, 0, 0, 0),
        {"a.txt": "1\n2\n"},
        authored=at(BEFORE, 8),
    )
    last = repo.commit(
        "Last of the day", at(DAY, 23, 59, 59), {"b.txt": "x\ny\n", "a.txt": None}, author="Bo"
    )
    repo.commit("Authored today, merged tomorrow (#3)", at(AFTER), authored=at(DAY, 9))
    repo.commit("After (#4)", at(AFTER, 0, 0, 0), {"c.txt": "z\n"})

    assert collect(repo.path) == (
        record(
            first,
            "First of the day",
            at(DAY, 0, 0, 0),
            number=2,
            body="Why it matters.",
            files=(FileChange("a.txt", 1, 0),),
            additions=1,
            changed_files=1,
        ),
        record(
            last,
            "Last of the day",
            at(DAY, 23, 59, 59),
            author="Bo",
            files=(FileChange("a.txt", 0, 2), FileChange("b.txt", 2, 0)),
            additions=2,
            deletions=2,
            changed_files=2,
        ),
    )
    assert collect(repo.path)[0].url == "https://github.com/acme/widgets/pull/2"
    assert collect(repo.path)[1].url == f"https://github.com/acme/widgets/commit/{last}"


def test_only_first_parent_history_counts(repo: GitRepo) -> None:
    base = repo.commit("Base (#1)", at(BEFORE), {"a.txt": "a\n"})
    repo.branch("feature")
    repo.commit("Side one", at(DAY, 9), {"f.txt": "1\n"})
    repo.commit("Side two", at(DAY, 10), {"f.txt": "1\n2\n"})
    repo.checkout("main")
    direct = repo.commit("Direct (#2)", at(DAY, 11), {"a.txt": "a\nb\n"})
    merge = repo.merge(
        "feature",
        "Merge pull request #7 from someone/feature\n\nAdd feature\n\nDetails.",
        at(DAY, 12),
    )

    assert [p.sha for p in collect(repo.path)] == [direct, merge]
    assert collect(repo.path)[1] == record(
        merge,
        "Add feature",
        at(DAY, 12),
        number=7,
        author="Merge Bot",
        body="Details.",
        files=(FileChange("f.txt", 2, 0),),
        additions=2,
        changed_files=1,
    )
    assert [p.sha for p in collect(repo.path, BEFORE)] == [base]


def test_pull_request_numbers(repo: GitRepo) -> None:
    squash = repo.commit("Add knob (#12)\n\nA knob.", at(DAY, 1))
    ghstack = repo.commit(
        "[ET] Faster thing\n\nSummary.\n\n"
        "Pull Request resolved: https://github.com/Acme/Widgets/pull/34\n",
        at(DAY, 2),
    )
    foreign = repo.commit(
        "Imported\n\nPull Request resolved: https://github.com/other/repo/pull/56", at(DAY, 3)
    )
    twice = repo.commit("Cherry pick (#5) (#78)", at(DAY, 4))

    pulls = collect(repo.path)

    assert [(p.number, p.title, p.url) for p in pulls] == [
        (12, "Add knob", f"{PULL}12"),
        (34, "[ET] Faster thing", f"{PULL}34"),
        (None, "Imported", f"{COMMIT}{foreign}"),
        (78, "Cherry pick (#5)", f"{PULL}78"),
    ]
    assert [p.sha for p in pulls] == [squash, ghstack, foreign, twice]
    assert pulls[1].body == (
        "Summary.\n\nPull Request resolved: https://github.com/Acme/Widgets/pull/34"
    )


def test_a_subject_with_its_line_breaks_written_out_ends_at_the_first_paragraph(
    repo: GitRepo,
) -> None:
    repo.commit(
        r"fix(cache): hash the knob source (#17)\n\nKnob modules have empty code\nin the bundle.",
        at(DAY, 1),
    )
    (pull,) = collect(repo.path)
    assert (pull.number, pull.title) == (17, "fix(cache): hash the knob source")
    assert pull.body.startswith("Knob modules have empty code\nin the bundle."), pull.body


def test_renames_and_binary_files(repo: GitRepo) -> None:
    lines = "".join(f"line {i}\n" for i in range(20))
    repo.commit("Start", at(BEFORE), {"old/name.py": lines, "logo.png": b"\x89PNG\x00\x01"})
    sha = repo.commit(
        "Move and draw (#9)",
        at(DAY, 8),
        {"new/näme.py": lines + "one more\n", "logo.png": b"\x89PNG\x00\x02\x03"},
        renames={"old/name.py": "new/näme.py"},
    )

    assert collect(repo.path) == (
        record(
            sha,
            "Move and draw",
            at(DAY, 8),
            number=9,
            files=(FileChange("logo.png", None, None), FileChange("new/näme.py", 1, 0)),
            additions=1,
            changed_files=2,
        ),
    )


def test_missing_blobs_lose_counts_only_where_missing(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    lines = "".join(f"line {i}\n" for i in range(20))
    repo.commit("Start", at(BEFORE), {"keep.txt": "a\n", "old.py": lines})
    before = repo.commit("Before (#2)", at(DAY, 7), {"keep.txt": "a\nb\n"})
    broken = repo.commit("Broken (#3)", at(DAY, 8), {"keep.txt": "a\n", "lost.txt": "gone\n"})
    after = repo.commit(
        "After (#4)", at(DAY, 9), {"new.py": lines + "x\n"}, renames={"old.py": "new.py"}
    )
    repo.delete_object(repo.blob(broken, "lost.txt"))
    spawns = _Spawns(monkeypatch)

    with caplog.at_level(logging.WARNING):
        pulls = collect(repo.path)

    assert pulls == (
        record(
            before,
            "Before",
            at(DAY, 7),
            number=2,
            files=(FileChange("keep.txt", 1, 0),),
            additions=1,
            changed_files=1,
        ),
        record(
            broken,
            "Broken",
            at(DAY, 8),
            number=3,
            files=(FileChange("keep.txt"), FileChange("lost.txt")),
            changed_files=2,
        ),
        record(
            after,
            "After",
            at(DAY, 9),
            number=4,
            files=(FileChange("new.py", 1, 0),),
            additions=1,
            changed_files=1,
        ),
    )
    assert "git log --numstat failed (fatal: unable to read" in caplog.text
    assert [_subcommand(c) for c in spawns.commands] == [
        "cat-file",
        "rev-list",
        "rev-parse",
        "log",
        "log",
        "cat-file",
        "log",
        "cat-file",
    ]


def test_blobless_partial_clone_never_fetches(repo: GitRepo, tmp_path: Path) -> None:
    repo.git("config", "uploadpack.allowFilter", "true")
    sha = repo.commit("Change (#3)", at(DAY, 8), {"a.txt": "a\n"})
    try:
        clone = repo.bare_clone(tmp_path / "partial.git", "--filter=blob:none")
    except AssertionError as error:  # a git without partial clone support
        pytest.skip(f"this git cannot make a partial clone (a newer git can): {error}")

    assert collect(clone) == (
        record(sha, "Change", at(DAY, 8), number=3, files=(FileChange("a.txt"),), changed_files=1),
    )


def test_reverts_link_to_what_they_revert(repo: GitRepo) -> None:
    old = repo.commit(
        "Old feature\n\nPull Request resolved: https://github.com/acme/widgets/pull/3",
        at(DAY - dt.timedelta(days=30)),
        {"old.txt": "1\n"},
    )
    repo.commit("Unrelated", at(BEFORE), {"u.txt": "1\n"})
    knob = repo.commit("Add knob (#12)", at(DAY, 1), {"knob.txt": "1\n"})
    in_day = repo.commit(f'Revert "Add knob (#12)"\n\nThis reverts commit {knob}.', at(DAY, 2))
    older = repo.commit(f'Revert "Old feature" (#20)\n\nThis reverts commit {old}.', at(DAY, 3))
    ghost = "deadbeef" * 5
    unknown = repo.commit(f'Revert "Gone (#5)"\n\nThis reverts commit {ghost}.', at(DAY, 4))
    nested = repo.commit('Revert "Revert "Thing (#6)" (#7)"', at(DAY, 5))
    internal = repo.commit("Revert D110214945\n\nSummary: broke things", at(DAY, 6))
    back_out = repo.commit('Back out "Tiny tweak (#8)…', at(DAY, 7))
    button = repo.commit('Revert "Widget tweak" (#21)\n\nReverts acme/widgets#19', at(DAY, 8))
    undo = repo.commit(f"Undo the knob\n\nThis reverts commit {knob}.", at(DAY, 9))
    bump = repo.commit(f"Bump vendored lib\n\n* This reverts commit {'ab' * 20}.", at(DAY, 10))

    links = {p.sha: p.reverts for p in collect(repo.path)}

    assert links == {
        knob: None,
        in_day: ChangeLink(REPO, 12, knob, "Add knob"),
        older: ChangeLink(REPO, 3, old, "Old feature"),
        unknown: ChangeLink(REPO, 5, ghost, "Gone"),
        nested: ChangeLink(REPO, 7, None, 'Revert "Thing (#6)"'),
        internal: None,
        back_out: ChangeLink(REPO, None, None, "Tiny tweak (#8)…"),
        button: ChangeLink(REPO, 19, None, "Widget tweak"),
        undo: ChangeLink(REPO, 12, knob, "Add knob"),
        bump: None,
    }


def test_a_squash_quoting_a_revert_of_its_own_branch_reverts_nothing(repo: GitRepo) -> None:
    """A squashed pull request whose branch reverted one of its own commits quotes that
    "This reverts commit" line; the commit is in the clone but never landed on main."""
    repo.commit("Base", at(BEFORE), {"base.txt": "1\n"})
    repo.branch("topic")
    repo.checkout("topic")
    tried = repo.commit("Try a faster loop", at(BEFORE, 1), {"loop.txt": "1\n"})
    repo.commit(f'Revert "Try a faster loop"\n\nThis reverts commit {tried}.', at(BEFORE, 2))
    repo.checkout("main")
    landed = repo.commit(
        f"Tune the loop (#40)\n\n* Try a faster loop\n\n* Revert\n\nThis reverts commit {tried}.",
        at(DAY, 1),
        {"loop.txt": "2\n"},
    )
    (pull,) = collect(repo.path)
    assert pull.sha == landed and pull.reverts is None
    assert classify(pull).kind != "revert"


def test_relands_link_to_the_original(repo: GitRepo) -> None:
    knob = repo.commit("Add knob (#12)", at(DAY, 1), {"knob.txt": "1\n"})
    revert = repo.commit(f'Revert "Add knob (#12)"\n\nThis reverts commit {knob}.', at(DAY, 2))
    again = repo.commit('Reland "Add knob" (#13)', at(DAY, 3))
    reapply = repo.commit(f'Reapply "Add knob"\n\nThis reverts commit {revert}.', at(DAY, 4))
    tagged = repo.commit("[reland] Foo (#41)\n\nReland of #41\nReland of #40", at(DAY, 5))
    quoted = repo.commit('Re-land "Bar (#30)"', at(DAY, 6))
    bare = repo.commit("Baz (re-land)\n\nsee https://github.com/acme/widgets/pull/77", at(DAY, 7))
    nothing = repo.commit("[GT][Reland] Qux", at(DAY, 8))
    v2 = repo.commit(
        'Reland "Quux (re-land)" v2 (#50) (#50)\n\nReverts #49 and relands acme/widgets#45',
        at(DAY, 9),
    )

    pulls = {p.sha: p for p in collect(repo.path)}

    assert {sha: p.relands for sha, p in pulls.items()} == {
        knob: None,
        revert: None,
        again: ChangeLink(REPO, 12, knob, "Add knob"),
        reapply: ChangeLink(REPO, 12, knob, "Add knob"),
        tagged: ChangeLink(REPO, 40, None, "Foo"),
        quoted: ChangeLink(REPO, 30, None, "Bar"),
        bare: ChangeLink(REPO, 77, None, "Baz"),
        nothing: ChangeLink(REPO, None, None, "[GT] Qux"),
        v2: ChangeLink(REPO, 45, None, "Quux (re-land)"),
    }
    assert pulls[reapply].reverts is None
    assert pulls[again].title == 'Reland "Add knob"'


def test_reads_a_bare_clone(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit("Start", at(BEFORE), {"a.txt": "a\n"})
    repo.commit("Change (#3)", at(DAY, 8), {"a.txt": "b\n"})
    bare = repo.bare_clone(tmp_path / "bare.git")

    assert collect(bare) == collect(repo.path)
    assert len(collect(bare)) == 1


def test_branch_falls_back_to_origin_then_to_the_name(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit("Start", at(BEFORE), {"a.txt": "a\n"})
    repo.branch("release")
    on_release = repo.commit("Release fix (#4)", at(DAY, 8), {"a.txt": "b\n"})
    repo.git("tag", "-a", "-m", "v1", "v1.0")
    repo.checkout("main")
    on_main = repo.commit("Main change (#5)", at(DAY, 9), {"m.txt": "m\n"})
    clone = tmp_path / "clone"
    repo.git("clone", "-q", str(repo.path), str(clone))

    assert [p.sha for p in collect(clone, branch="release")] == [on_release]
    assert [p.sha for p in collect(clone, branch="main")] == [on_main]
    assert [p.sha for p in collect(clone, branch="v1.0")] == [on_release]
    assert [p.sha for p in collect(clone, branch=on_release[:12])] == [on_release]


def test_missing_branch_names_repo_and_lists_branches(repo: GitRepo) -> None:
    repo.commit("Start", at(BEFORE))
    repo.git("branch", "dev")

    with pytest.raises(WireError) as caught:
        collect(repo.path, branch="trunk")

    assert str(caught.value) == (
        f"acme/widgets: no branch 'trunk' in {repo.path} (branches there: dev, main)"
    )


def test_empty_repository_has_no_branches(repo: GitRepo) -> None:
    with pytest.raises(WireError, match=r"no branch 'main' .*\(it has no branches\)"):
        collect(repo.path)


def test_missing_folder_and_non_repository(tmp_path: Path) -> None:
    with pytest.raises(WireError) as missing:
        collect(tmp_path / "nowhere")
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(WireError) as not_git:
        collect(plain)
    with pytest.raises(WireError, match=r"^acme/widgets: the git source needs a local clone"):
        collect(None)

    assert str(missing.value).startswith(f"acme/widgets: no such folder {tmp_path / 'nowhere'}")
    assert str(not_git.value).startswith(
        f"acme/widgets: {plain} is not a readable git repository: fatal: not a git repository"
    )


def test_hostile_text_is_neutralised(repo: GitRepo) -> None:
    # Control characters like the ones that frame git's output must not confuse parsing.
    message = (
        "Fix \u202eevil\u202c <script>alert(1)</script>\u200b (#66)\n\n"
        "Body \x1e\x1f\x1d%H with \x07bell and \u2066isolate\u2069.\n" + "x" * 300_000
    )
    sha = repo.commit(message, at(DAY, 8), {"\u202etxt.exe": "x\n"}, author="Eve \u202eevE")

    (pull,) = collect(repo.path)

    assert pull.sha == sha
    assert pull.number == 66
    assert pull.title == "Fix evil <script>alert(1)</script>"
    assert pull.author == "Eve evE"
    assert pull.body.startswith("Body %H with bell and isolate.\nxxx")
    assert pull.body.endswith("x [… truncated]")
    assert len(pull.body) < 210_000
    assert pull.files == (FileChange("txt.exe", 1, 0),)


def test_raw_bytes_in_commits_do_not_crash(repo: GitRepo) -> None:
    repo.commit("Start", at(BEFORE))
    sha = repo.commit_object(
        b"Bad \xff\xfe bytes (#5)\n\nbody\x00after a NUL \xc3\x28\n", at(DAY, 2), b"Eve\xff"
    )

    assert collect(repo.path) == (
        record(
            sha,
            "Bad \ufffd\ufffd bytes",
            at(DAY, 2),
            number=5,
            body="body after a NUL \ufffd(",  # the NUL no longer cuts the message
            author="Eve\ufffd",
        ),
    )


class _Spawns:
    """Counts the processes started through :class:`subprocess.Popen`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.commands: list[list[str]] = []
        real = subprocess.Popen
        spawns = self

        class Counting(real):  # type: ignore[valid-type,misc]
            def __init__(self, args: list[str], *rest: Any, **options: Any) -> None:
                spawns.commands.append(list(args))
                super().__init__(args, *rest, **options)

        monkeypatch.setattr(subprocess, "Popen", Counting)


def _subcommand(command: list[str]) -> str:
    """Return the git subcommand of ``command`` (skipping options and ``-c`` values)."""
    words = iter(command[1:])
    for word in words:
        if word == "-c":
            next(words)
        elif not word.startswith("-"):
            return word
    return ""


@pytest.mark.parametrize("count", [3, 40])
def test_git_processes_do_not_grow_with_commits(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    old = repo.commit("Old (#1)", at(BEFORE, 3), {"a.txt": "a\n"})
    for i in range(count):
        repo.commit(f"Change {i} (#{i + 10})", at(DAY, 1, i), {f"f{i}.txt": f"{i}\n"})
    repo.commit(f'Revert "Old (#1)"\n\nThis reverts commit {old}.', at(DAY, 2))
    repo.commit('Reland "Old"', at(DAY, 3))
    spawns = _Spawns(monkeypatch)

    pulls = collect(repo.path)

    assert len(pulls) == count + 2
    assert pulls[-1].relands == ChangeLink(REPO, 1, old, "Old")
    assert [_subcommand(cmd) for cmd in spawns.commands] == [
        "cat-file",
        "rev-list",
        "rev-parse",
        "log",
        "cat-file",
        "cat-file",
    ]


def test_a_range_reads_the_history_once_and_gives_the_days_records(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    days = [DAY - dt.timedelta(days=n) for n in range(3, -1, -1)]
    for i, day in enumerate(days):
        repo.commit(f"Change {i} (#{i + 10})", at(day, 1), {f"f{i}.txt": f"{i}\n"})
        repo.commit(f"Other {i} (#{i + 20})", at(day, 2), {f"g{i}.txt": f"{i}\n"})
    alone = [collect(repo.path, day) for day in days]  # a source a day, as before
    spawns = _Spawns(monkeypatch)
    one = source()
    together = [one.collect(RepoSettings(name=REPO, git=repo.path), day) for day in days]
    assert together == alone and all(len(pulls) == 2 for pulls in together)
    assert [_subcommand(cmd) for cmd in spawns.commands].count("rev-list") == 1


def test_a_commit_with_an_old_committer_date_hides_nothing(repo: GitRepo) -> None:
    early = repo.commit("Early", at(DAY, 9))
    repo.commit("Rebased with an old date", at(BEFORE, 22))
    late = repo.commit("Late", at(DAY, 10))
    assert [p.sha for p in collect(repo.path)] == [early, late]

    # `git log --since` stopped walking here and lost "Early" and "Late".
    repo.commit("Ancient date", at(DAY - dt.timedelta(days=3650)))
    latest = repo.commit("Latest", at(DAY, 11))
    assert [p.sha for p in collect(repo.path)] == [early, late, latest]


@pytest.mark.reliability
def test_a_nul_byte_in_a_message_keeps_the_pr_number(repo: GitRepo) -> None:
    repo.commit("Init", at(BEFORE, 9))
    repo.commit_object(b"Fix the parser\x00 on empty input (#123)\n\nBody\x00 text.\n", at(DAY, 9))
    (pull,) = collect(repo.path)
    assert (pull.number, pull.title, pull.body) == (
        123,
        "Fix the parser on empty input",
        "Body text.",
    )


def _varied_history(repo: GitRepo) -> list[dt.date]:
    """Five days of history with what each day's records depend on; return the days."""
    days = [DAY - dt.timedelta(days=n) for n in range(4, -1, -1)]
    early = at(days[0] - dt.timedelta(days=2), 9)
    before = repo.commit("Old feature (#1)", early, {"o.txt": "o\n"})
    repo.commit("Start (#2)", at(days[0], 0, 0, 0), {"a.txt": "1\n2\n", "bin.dat": b"\x00\x01"})
    kept = repo.commit("Add the parser (#3)\n\nIt reads input.", at(days[0], 10), {"p.txt": "p\n"})
    repo.branch("topic")
    repo.commit("Topic work", at(days[1], 3), {"t.txt": "t\n"})
    repo.checkout("main")
    repo.merge("topic", "Merge pull request #4 from someone/topic\n\nTopic title", at(days[1], 4))
    repo.commit("Move a (#5)", at(days[1], 23, 59, 59), renames={"a.txt": "b.txt"})
    note = '---\n"rocket": patch\n---\n\nFixed #12: the parser no longer drops the last line.\n'
    repo.commit("fix: last line (#13)", at(days[1], 12), {".changeset/odd-owls.md": note})
    # A quiet day (days[2]), then reverts of changes inside and before the range.
    repo.commit(
        f'Revert "Add the parser (#3)" (#6)\n\nThis reverts commit {kept}.',
        at(days[3], 8),
        {"p.txt": None},
    )
    repo.commit(f'Revert "Old feature (#1)"\n\nThis reverts commit {before}.', at(days[3], 9))
    repo.commit('Reland "Add the parser" (#7)', at(days[4], 7), {"p.txt": "p2\n"})
    repo.commit("Rebased with an old date (#8)", at(days[0], 5), {"r.txt": "r\n"})
    repo.commit_object(b"Fix the NUL\x00 in titles (#9)\n\nBody\x00 text.\n", at(days[4], 9))
    notes = "# 1.2.0\n\n### Fixed\n\n- parser: keep the last line (#9)\n"
    repo.commit("Release v1.2.0 (#11)", at(days[4], 10), {"CHANGELOG.md": notes})
    repo.commit("After the range (#10)", at(days[4] + dt.timedelta(days=1), 1))
    return days


def test_a_range_read_at_once_gives_each_day_the_records_of_that_day_alone(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    days = _varied_history(repo)
    alone = [collect(repo.path, day) for day in days]
    settings = RepoSettings(name=REPO, git=repo.path)
    spawns = _Spawns(monkeypatch)
    one = source()
    one.expect(settings, days)
    together = [one.collect(settings, day) for day in days]

    assert msgspec.json.encode(together) == msgspec.json.encode(alone)
    assert [len(pulls) for pulls in together] == [3, 3, 0, 2, 3]
    (noted,) = [pull for pull in together[1] if pull.fragment]
    assert noted.fragment == "Fixed #12: the parser no longer drops the last line."
    assert together[3][0].reverts is not None and together[3][1].reverts is not None
    assert "keep the last line" in together[4][-1].notes
    # One read for the range, however many days: never a process per day.
    assert [_subcommand(cmd) for cmd in spawns.commands] == [
        "cat-file",
        "rev-list",
        "rev-parse",
        "log",
        "cat-file",
        "cat-file",
        "log",
        "cat-file",  # the changelog the release wrote to, as of the release
    ]


def test_days_not_expected_are_read_alone(repo: GitRepo) -> None:
    days = _varied_history(repo)
    settings = RepoSettings(name=REPO, git=repo.path)
    one = source()
    one.expect(settings, days[1:3])
    assert one.collect(settings, days[0]) == collect(repo.path, days[0])
    assert one.collect(settings, days[1]) == collect(repo.path, days[1])
    assert one.collect(settings, days[1]) == collect(repo.path, days[1])  # asked again: read again


def test_a_range_in_a_shallow_clone_refuses_the_days_it_cut(repo: GitRepo, tmp_path: Path) -> None:
    days = _varied_history(repo)
    clone = repo.bare_clone(tmp_path / "shallow.git", "--depth", "4")
    settings = RepoSettings(name=REPO, git=clone)
    one = source()
    one.expect(settings, days)
    for day in days:
        try:
            expected: object = collect(clone, day)
        except WireError as error:
            expected = str(error)
        try:
            got: object = one.collect(settings, day)
        except WireError as error:
            got = str(error)
        assert got == expected
    with pytest.raises(WireError, match="shallow clone"):
        collect(clone, days[0])


def test_a_range_with_blobs_missing_reads_only_those_days_alone(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A partial or damaged clone: the log with line counts stops on a day that lacks a
    blob; the days before it are kept, the log goes on from the day after, and that day
    only is read by the path that counts the lines where blobs are there. The records are
    those of each day read alone."""
    days = [DAY - dt.timedelta(days=n) for n in range(7, -1, -1)]
    repo.commit("Start", at(days[0] - dt.timedelta(days=1)), {"keep.txt": "a\n"})
    broken = ""
    for i, day in enumerate(days):
        repo.commit(f"Change {i} (#{i + 10})", at(day, 1), {f"f{i}.txt": f"{i}\n"})
        sha = repo.commit(f"Other {i} (#{i + 20})", at(day, 2), {f"g{i}.txt": f"g{i}\n"})
        broken = sha if i == 5 else broken
    repo.delete_object(repo.blob(broken, "g5.txt"))
    alone = [collect(repo.path, day) for day in days]
    settings = RepoSettings(name=REPO, git=repo.path)
    spawns = _Spawns(monkeypatch)
    one = source()
    one.expect(settings, days)
    together = [one.collect(settings, day) for day in days]

    assert msgspec.json.encode(together) == msgspec.json.encode(alone)
    assert together[5][1].files == (FileChange("g5.txt"),)  # its count is unknown
    logs = [_subcommand(cmd) for cmd in spawns.commands].count("log")
    # The range up to day 5, the range after it, then day 5 alone (3 logs).
    assert logs == 2 + 3


def test_a_release_commit_carries_the_notes_it_adds_to_the_changelog(repo: GitRepo) -> None:
    first = "# Changelog\n\n## 0.9.0\n\n- older entry\n"
    repo.commit("Start (#1)", at(DAY, 1), {"CHANGELOG.md": first, "src/a.py": "a\n"})
    added = "# Changelog\n\n## 1.0.0\n\n- Fix a crash\u202e on empty input (#2)\n\n## 0.9.0\n"
    repo.commit("Bump version to 1.0.0", at(DAY, 2), {"CHANGELOG.md": added + "\n- older entry\n"})
    with_body = first + "\n## 1.0.1\n\n- Another fix (#3)\n"
    repo.commit("Release 1.0.1\n\nWhat it fixes.", at(DAY, 3), {"CHANGELOG.md": with_body})
    repo.commit("Note the parser fix (#4)", at(DAY, 4), {"CHANGELOG.md": with_body + "- x\n"})
    start, bump, described, noted = collect(repo.path)

    assert bump.notes.startswith("## 1.0.0\n\n- Fix a crash on empty input (#2)")
    assert "\u202e" not in bump.notes and "older entry" not in bump.notes
    # A release whose message says something still carries its notes ("Prepare for 0.15.1").
    assert "Another fix (#3)" in described.notes
    # A commit that cuts no release carries none, whatever it adds to the changelog.
    assert start.notes == noted.notes == ""


def test_a_patch_of_an_older_line_is_told_apart_from_the_newest_release(repo: GitRepo) -> None:
    top = "# 2.1.0 (May)\n\n- newest work (#5)\n\n"
    old = "# 1.9.3 (January)\n\n- old fix (#2)\n"
    repo.commit("Start (#1)", at(DAY, 1), {"CHANGELOG.md": top + old, "src/a.py": "a\n"})
    # An LTS patch merged forward: its notes go below the newer 2.1.0.
    lts = top + "# 1.9.4 (June)\n\n- fix a hang in the pump (#7)\n\n" + old
    repo.commit("Merge tag 'rocket-1.9.4' (#8)", at(DAY, 2), {"CHANGELOG.md": lts})
    newest = "# 2.2.0 (June)\n\n- faster pumps (#9)\n\n" + lts
    repo.commit("Release 2.2.0 (#10)", at(DAY, 3), {"CHANGELOG.md": newest})
    _, patch, release = collect(repo.path)

    assert patch.older_line and "fix a hang in the pump" in patch.notes
    assert not release.older_line
    patch_item, release_item = classify(patch), classify(release)
    assert patch_item.kind == release_item.kind == "release"
    assert patch_item.score < release_item.score


def test_a_change_carries_the_note_it_writes_for_its_release(repo: GitRepo) -> None:
    repo.commit("Start (#1)", at(DAY, 1), {"src/a.py": "a\n"})
    note = "---\n'rocket': minor\n---\n\nAdded the `--dry-run` flag to `launch`.\n"
    repo.commit("feat: dry runs (#2)", at(DAY, 2), {"src/a.py": "b\n", ".changeset/a.md": note})
    # A release consumes the changesets: it deletes them and writes none.
    repo.commit(
        "Version Packages (#3)",
        at(DAY, 3),
        {".changeset/a.md": None, "CHANGELOG.md": "## 1.1.0\n\n- Added the flag\n"},
    )
    _, feature, release = collect(repo.path)

    assert feature.fragment == "Added the `--dry-run` flag to `launch`."
    assert release.fragment == "" and "Added the flag" in release.notes
    assert classify(feature).summary == "It adds the `--dry-run` flag to `launch`."


def test_each_note_loses_its_own_front_matter(repo: GitRepo) -> None:
    repo.commit("Start (#1)", at(DAY, 1), {"src/a.py": "a\n"})
    one = "---\n'rocket': patch\n---\n\nFixed the first thing.\n"
    two = "---\n'pad': minor\n---\n\nAdded the second thing.\n"
    repo.commit("fix: two notes (#2)", at(DAY, 2), {".changeset/a.md": one, ".changeset/b.md": two})
    _, both = collect(repo.path)
    assert "---" not in both.fragment and "'pad'" not in both.fragment
    assert "Fixed the first thing." in both.fragment and "Added the second thing." in both.fragment


def test_a_releases_file_is_a_changelog_too(repo: GitRepo) -> None:
    first = "# Releases\n\n### 0.9.0 / 2026.03.01\n\n- older entry\n"
    repo.commit("Start (#1)", at(DAY, 1), {"Releases.md": first, "src/a.py": "a\n"})
    added = "# Releases\n\n### 1.0.0 / 2026.03.04\n\n- fix: a crash on empty input (#2)\n\n"
    repo.commit("1.0.0 (#3)", at(DAY, 2), {"Releases.md": added + first.split("\n\n", 1)[1]})
    _, cut = collect(repo.path)

    assert cut.notes.startswith("### 1.0.0 / 2026.03.04\n\n- fix: a crash on empty input (#2)")


def test_a_monorepo_release_s_notes_begin_with_the_repository_s_own_changelog(
    repo: GitRepo,
) -> None:
    own = f"packages/{REPO.rsplit('/', 1)[-1]}/CHANGELOG.md"
    other = f"packages/{REPO.rsplit('/', 1)[-1]}-prism/CHANGELOG.md"  # sorts before it
    repo.commit("Start (#1)", at(DAY, 1), {own: "# own\n", other: "# prism\n"})
    repo.commit(
        "[ci] release (#2)",
        at(DAY, 2),
        {
            own: "# own\n\n## 6.3.2\n\n### Patch Changes\n\n- Fixes a gauge crash (#3)\n",
            other: "# prism\n\n## 4.0.2\n\n### Patch Changes\n\n- Fixes a prism crash (#4)\n",
        },
    )
    _, release = collect(repo.path)

    assert release.notes.startswith("## 6.3.2"), release.notes
    assert classify(release).version == "v6.3.2"


def test_long_notes_are_cut_at_the_end_of_a_line() -> None:
    """Notes longer than kept lose whole lines, never half an entry (a link cut open)."""
    notes = "".join(f"- fix the stall [#{n}](https://example.test/pull/{n})\n" for n in range(100))
    cut = cut_notes(notes, limit=500)
    assert len(cut) <= 500
    assert all(line.endswith(")") for line in cut.splitlines())
    assert cut_notes("short", limit=500) == "short"


PAGE = (
    "Launch modes\n============\n\n"
    "The pad supports ``dry`` runs:\n\n.. code-block:: python\n\n    pad.launch(dry=True)\n\n"
    "A dry run goes through the whole countdown and checks every valve, but it never lights "
    "the engine; see :ref:`the launch guide <launch>` for the checks it runs.\n"
)


def test_a_change_with_no_description_tells_what_its_documentation_page_says(
    repo: GitRepo,
) -> None:
    repo.commit("Start (#1)", at(DAY, 1), {"src/a.py": "a\n"})
    repo.commit("feat: dry runs (#2)", at(DAY, 2), {"src/a.py": "b\n", "docs/launch.rst": PAGE})
    repo.commit("docs: dry runs (#3)", at(DAY, 3), {"src/a.py": "c\n", "docs/dry.rst": PAGE})
    repo.commit("feat: wet runs (#4)", at(DAY, 4), {"src/a.py": "d\n", "docs/ru/launch.rst": PAGE})
    _, told, about_docs, translated = collect(repo.path)

    assert told.fragment == (
        "A dry run goes through the whole countdown and checks every valve, but it never lights "
        "the engine; see the launch guide for the checks it runs."
    )
    assert about_docs.fragment == translated.fragment == ""
    assert classify(told).summary.startswith("A dry run goes through the whole countdown")
