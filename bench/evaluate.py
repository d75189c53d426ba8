"""Grade the extractive writer's editions on every real day in ../shared/data/merged-prs.

Usage: python bench/evaluate.py [--limit N] [--show RULE]

Writes an edition for every day of each of the four repositories, and for every day on
which two or more of them merged something (as one four-repository project), then grades
each edition by the edition checks (``digest.summarize.checks.problems``: citations,
references, fragments, quoted titles, Markdown in plain text, instructions ...) and by
``coverage_problems``, which needs the day's ranked stories (every repository with a
notable change told, whole stories, no action template twice). Prints the findings per
rule, the worst examples, and the figures a reader would notice. Exit status 1 when any
rule is broken.

One more rule is graded here: on 2026-06-30 a human editor cited pytorch/executorch
#20322, #20325, #20537 and #20591; the edition must cite at least three.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec.structs

from digest.clock import SystemClock
from digest.config import ProjectSettings, RepoSettings, Settings
from digest.models import PullRequest
from digest.sources.base import SourceContext
from digest.sources.git import GitSource
from digest.summarize.checks import coverage_problems, problems
from digest.summarize.extractive import ExtractiveWriter
from digest.summarize.extractive.writer import content_words
from digest.summarize.naming import name_problems
from digest.summarize.select import as_told, make_brief
from tests.realdata import MERGED_PRS, load_days

REPOS = ("pytorch-executorch", "pytorch-ao", "pytorch-helion", "pytorch-torchtitan")
#: How digest.yaml writes the repositories that have a brand's own casing.
DISPLAY = {"pytorch/executorch": "ExecuTorch", "pytorch/ao": "torchao"}
EDITOR_DAY = ("pytorch/executorch", dt.date(2026, 6, 30), {20322, 20325, 20537, 20591})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=0, help="grade only the first N days")
    parser.add_argument("--show", default="", help="print every finding of rules matching this")
    parser.add_argument(
        "--mirrors",
        type=Path,
        default=None,
        help="also grade the last --days days of every clone under this folder "
        "(<owner>+<name>/repo, as the search tool's fetch lays them out)",
    )
    parser.add_argument("--days", type=int, default=60, help="days per clone with --mirrors")
    args = parser.parse_args()
    if not MERGED_PRS.is_dir() and args.mirrors is None:
        print(f"skipped: {MERGED_PRS} is absent")
        return 0
    cases = _cases(args.limit) if MERGED_PRS.is_dir() else []
    if args.mirrors is not None:
        cases += _mirror_cases(args.mirrors, args.days)
    writer = ExtractiveWriter()
    findings: dict[str, list[tuple[str, str]]] = defaultdict(list)
    timings: list[float] = []
    refs: list[int] = []
    actions: Counter[str] = Counter()
    editor = "not graded"
    desks: dict[str, list[tuple[dt.date, str]]] = defaultdict(list)
    for label, project, day, pulls in cases:
        start = time.perf_counter()
        brief = make_brief(project, day, pulls)
        digest = msgspec.structs.replace(writer.write(brief), repo_names=brief.repo_names)
        timings.append(time.perf_counter() - start)
        refs.append(len(digest.references))
        if len(project.repos) == 1 and not label.endswith(PLAIN):
            said = " ".join(f"{p.title} {' '.join(f.path for f in p.files[:50])}" for p in pulls)
            desks[project.repos[0].name] += [
                (day, skeleton(a.text, said)) for a in digest.action_items
            ]
        actions.update(a.urgency.value for a in digest.action_items)
        found = problems(digest, as_told(brief, pulls)) + coverage_problems(digest, brief)
        if repeated := content_words(digest.dek) & content_words(digest.headline):
            found.append(f"dek repeats the headline's words: {', '.join(sorted(repeated))}")
        for problem in found + name_problems(digest, pulls):
            findings[_rule(problem)].append((label, problem))
        single = len(project.repos) == 1 and not label.endswith(PLAIN)
        if (project.repos[0].name, day) == EDITOR_DAY[:2] and single:
            cited = {r.number for r in digest.references}
            editor = f"{len(cited & EDITOR_DAY[2])} of {len(EDITOR_DAY[2])}"
            if len(cited & EDITOR_DAY[2]) < 3:
                findings["editor's picks missed"].append((label, f"cited {sorted(cited)}"))
    _report(cases, findings, timings, refs, actions, editor, args.show)
    _desk_report(desks)
    return 1 if findings else 0


#: The label's mark of an edition written for a repository configured without a display name.
PLAIN = "(no display name)"


def _cases(limit: int) -> list[tuple[str, ProjectSettings, dt.date, list[PullRequest]]]:
    """Every day of each repository, then every day two or more repositories merged."""
    by_repo = {name: load_days(name) for name in REPOS}
    cases = []
    for name, days in by_repo.items():
        project = ProjectSettings(name="PyTorch", repos=(_repo(f"pytorch/{name[8:]}"),))
        cases += [(f"{name[8:]} {day}", project, day, pulls) for day, pulls in sorted(days.items())]
        # Configured without a display name, as a user may: a short name ("ao") counts for
        # nothing in a text's words, which checks must hold up against too.
        plain = ProjectSettings(name=name[8:], repos=(RepoSettings(name=f"pytorch/{name[8:]}"),))
        cases += [
            (f"{name[8:]} {day} {PLAIN}", plain, day, pulls) for day, pulls in sorted(days.items())
        ]
    everything = ProjectSettings(
        name="PyTorch", repos=tuple(_repo(f"pytorch/{n[8:]}") for n in REPOS)
    )
    for day in sorted({day for days in by_repo.values() for day in days}):
        pulls = [p for days in by_repo.values() for p in days.get(day, [])]
        if len({p.repo for p in pulls}) >= 2:
            cases.append((f"all four {day}", everything, day, pulls))
    return cases[:limit] if limit else cases


def _repo(name: str) -> RepoSettings:
    return RepoSettings(name=name, display_name=DISPLAY.get(name))


def _mirror_cases(
    root: Path, days: int
) -> list[tuple[str, ProjectSettings, dt.date, list[PullRequest]]]:
    """The last ``days`` days with merges of every clone under ``root``, read by the git
    source as a deployment would read them."""
    cases = []
    for git in sorted(root.glob("*+*/repo")):
        name = git.parent.name.replace("+", "/", 1)
        if name.startswith("pytorch/"):
            continue  # graded from ../shared/data
        head = subprocess.run(
            ["git", "-C", str(git), "symbolic-ref", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        repo = RepoSettings(name=name, git=git, branch=head)
        project = ProjectSettings(name=name.split("/")[1], repos=(repo,))
        source = GitSource(
            SourceContext(settings=Settings(projects=(project,)), clock=SystemClock())
        )
        tip = dt.datetime.fromtimestamp(source.last_change(repo).timestamp(), dt.UTC).date()
        for back in range(days):
            day = tip - dt.timedelta(days=back)
            pulls = list(source.collect(repo, day))
            if pulls:
                cases.append((f"{name} {day}", project, day, pulls))
    return cases


def skeleton(text: str, said: str) -> str:
    """``text`` without the words its day's changes say (titles, paths) and numbers: what
    is left is the template an action item was written from."""
    known = {w.lower() for w in re.findall(r"[\w.-]+", said)}
    words = [w for w in re.findall(r"[\w.'-]+", text) if w.lower() not in known]
    return " ".join(w for w in words if not any(c.isdigit() for c in w)).lower()


def _desk_report(desks: dict[str, list[tuple[dt.date, str]]]) -> None:
    """How often one action template comes back in a 30-day desk, at worst, per repository."""
    print("\naction templates in a 30-day desk (the most repeated, at worst):")
    for repo, entries in sorted(desks.items()):
        entries.sort()
        worst, example = 0, ""
        for i, (start, _) in enumerate(entries):
            window = Counter(s for d, s in entries[i:] if (d - start).days < 30)
            skeleton_, times = window.most_common(1)[0]
            if times > worst:
                worst, example = times, skeleton_
        print(f"  {repo:<22} {worst:>3} times: {example[:90]!r}")


def _rule(problem: str) -> str:
    """The rule a finding breaks: its text before any quotation, without numbers."""
    rule = re.split(r"[:'\"“]", problem, maxsplit=1)[0]
    return re.sub(r"\[?\d+\]?", "N", rule).strip()


def _report(
    cases: list[tuple[str, ProjectSettings, dt.date, list[PullRequest]]],
    findings: dict[str, list[tuple[str, str]]],
    timings: list[float],
    refs: list[int],
    actions: Counter[str],
    editor: str,
    show: str,
) -> None:
    multi = sum(1 for c in cases if len(c[1].repos) > 1)
    biggest = max(len(c[3]) for c in cases)
    single = len(cases) - multi
    print(f"editions graded: {len(cases)} ({single} one-repository days, {multi} multi-repository)")
    print(
        f"time per edition: median {statistics.median(timings) * 1e3:.1f} ms, "
        f"slowest {max(timings) * 1e3:.1f} ms (busiest day: {biggest} changes)"
    )
    print(f"references per edition: median {statistics.median(refs)}, most {max(refs)}")
    print(f"action items by urgency: {dict(sorted(actions.items()))}")
    print(f"editor's picks on {EDITOR_DAY[1]} cited: {editor}")
    total = sum(len(v) for v in findings.values())
    editions = len({label for hits in findings.values() for label, _ in hits})
    print(f"\nfindings: {total} in {editions} editions")
    for rule, hits in sorted(findings.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(hits):5}  {rule}")
        for label, problem in hits[: 1000 if show and show in rule else 3]:
            print(f"           {label}: {problem[:150]}")


if __name__ == "__main__":
    sys.exit(main())
