"""Pick the days of the labelled set and write worksheets for labellers; collect fetched days.

Usage: python bench/labels/export.py

Picks, with a fixed seed, days of each repository of ``REPOS`` (fetched mirrors under
``$WIRE_MIRRORS``, default ``/work/.mirror``, and the four PyTorch repositories of
``../shared/data``) and writes ``/tmp/labelling/<owner>+<name>.md``, one worksheet per
repository for a human labeller. The fetched repositories' text is never committed:
:func:`collect_fetched` collects the picked days from the clones whenever they are graded.

Run once, before labelling; the labels themselves live in ``bench/labels/kinds.jsonl`` and
``bench/labels/leads.jsonl``.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from digest.clock import SystemClock
from digest.config import ProjectSettings, RepoSettings, Settings
from digest.models import PullRequest
from digest.sources.base import SourceContext
from digest.sources.git import GitSource
from tests.realdata import load_days

HERE = Path(__file__).resolve().parent
MIRRORS = Path(os.environ.get("WIRE_MIRRORS", "/work/.mirror"))
BODY = 1200
#: repository, branch, days to pick, (fewest, most) changes on a picked day.
REPOS = (
    ("astral-sh/ruff", "main", 5, (6, 16)),
    ("astral-sh/uv", "main", 5, (6, 16)),
    ("pola-rs/polars", "main", 5, (5, 14)),
    ("sveltejs/svelte", "main", 6, (3, 12)),
    ("tokio-rs/tokio", "master", 12, (2, 8)),
    ("vitejs/vite", "main", 6, (4, 14)),
    # Labelled after the classifier was tuned: the held-out pair.
    ("biomejs/biome", "main", 5, (6, 14)),
    ("fastapi/fastapi", "master", 6, (3, 14)),
    ("pytorch/executorch", "main", 4, (8, 16)),
    ("pytorch/ao", "main", 5, (4, 12)),
    ("pytorch/helion", "main", 5, (4, 12)),
    ("pytorch/torchtitan", "main", 5, (3, 10)),
)
WINDOW = (dt.date(2026, 2, 1), dt.date(2026, 8, 19))
#: Words of the held-out repositories' releases (kept apart: the first ten were picked
#: with RELEASE_WORDS alone, and their picks must not move).
MORE_RELEASE_WORDS = {"biomejs/biome": ("ci: release",), "fastapi/fastapi": ("release version",)}
RELEASE_WORDS = (
    "bump version",
    "bump 0.",
    "version packages",
    "prepare tokio",
    "release: v",
    "prepare to release",
    "release 0.",
    "chore: prepare",
)


def main() -> None:
    out = Path("/tmp/labelling")
    out.mkdir(exist_ok=True)
    for name, branch, count, bounds in REPOS:
        days = _days(name, branch)
        picked = _pick(name, days, count, bounds)
        pulls = _collect(name, branch, picked)
        _worksheet(out / f"{name.replace('/', '+')}.md", name, pulls)
        print(name, len(picked), "days", sum(len(p) for p in pulls.values()), "changes")


def _days(name: str, branch: str) -> dict[dt.date, list[str]]:
    """Every day of the window with the subjects merged that day."""
    if name.startswith("pytorch/"):
        loaded = load_days(name.replace("/", "-"))
        return {d: [p.title for p in ps] for d, ps in loaded.items() if WINDOW[0] <= d <= WINDOW[1]}
    git = mirror_of(name) / "repo"
    log = subprocess.run(
        ["git", "-C", str(git), "log", "--first-parent", "--format=%ct\t%s", branch],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    days: dict[dt.date, list[str]] = {}
    for line in log.splitlines():
        stamp, _, subject = line.partition("\t")
        day = dt.datetime.fromtimestamp(int(stamp), dt.UTC).date()
        if WINDOW[0] <= day <= WINDOW[1]:
            days.setdefault(day, []).append(subject)
    return days


def _pick(
    name: str, days: dict[dt.date, list[str]], count: int, bounds: tuple[int, int]
) -> list[dt.date]:
    """``count`` days with a fitting number of changes; one with a release when there is one."""
    rng = random.Random(f"wire-labels-{name}")
    fitting = sorted(d for d, s in days.items() if bounds[0] <= len(s) <= bounds[1])
    # A release day may be quiet otherwise: one change more than the release is enough.
    releases = sorted(
        d
        for d, subjects in days.items()
        if 2 <= len(subjects) <= bounds[1]
        and any(
            w in s.lower()
            for s in subjects
            for w in (*RELEASE_WORDS, *MORE_RELEASE_WORDS.get(name, ()))
        )
    )
    picked = (
        set(rng.sample(releases, min(len(releases), max(1, count // 3)))) if releases else set()
    )
    rest = [d for d in fitting if d not in picked]
    picked.update(rng.sample(rest, min(len(rest), count - len(picked))))
    return sorted(picked)


def _collect(name: str, branch: str, days: list[dt.date]) -> dict[dt.date, list[PullRequest]]:
    if name.startswith("pytorch/"):
        loaded = load_days(name.replace("/", "-"))
        return {d: loaded[d] for d in days}
    repo = RepoSettings(name=name, git=mirror_of(name) / "repo", branch=branch)
    settings = Settings(projects=(ProjectSettings(name="x", repos=(repo,)),))
    source = GitSource(SourceContext(settings=settings, clock=SystemClock()))
    return {d: list(source.collect(repo, d)) for d in days}


def mirror_of(name: str) -> Path:
    """Where the search tool's ``fetch`` leaves the clone of ``owner/name``."""
    return MIRRORS / name.replace("/", "+")


def collect_fetched(
    name: str, branch: str, days: list[dt.date]
) -> dict[dt.date, list[dict[str, object]]]:
    """The records of ``days`` of a fetched repository as the labellers saw them, or none.

    Collected from the clone each time (its text is never committed), each cut as
    :func:`_record` cuts it; empty when the clone is absent.
    """
    if not (mirror_of(name) / "repo").exists() or not days:
        return {}
    return {d: [_record(p) for p in pulls] for d, pulls in _collect(name, branch, days).items()}


def _record(pull: PullRequest) -> dict[str, object]:
    body = pull.body if len(pull.body) <= BODY else pull.body[:BODY] + " [… cut]"
    return {
        "repo": pull.repo,
        "number": pull.number,
        "sha": pull.sha,
        "title": pull.title,
        "body": body,
        "author": pull.author,
        "merged_at": pull.merged_at.isoformat(),
        "additions": pull.additions,
        "deletions": pull.deletions,
        "changed_files": pull.changed_files,
        "files": [[f.path, f.additions, f.deletions] for f in pull.files[:60]],
        "reverts": None if pull.reverts is None else [pull.reverts.number, pull.reverts.sha],
        "relands": None if pull.relands is None else [pull.relands.number, pull.relands.sha],
        **({"notes": pull.notes} if pull.notes else {}),
        **({"older_line": True} if pull.older_line else {}),
        **({"fragment": pull.fragment} if pull.fragment else {}),
    }


def _worksheet(path: Path, name: str, days: dict[dt.date, list[PullRequest]]) -> None:
    lines = [f"# {name}: {sum(len(p) for p in days.values())} changes on {len(days)} days", ""]
    for day in sorted(days):
        lines += [f"## {day.isoformat()} ({len(days[day])} changes)", ""]
        for pull in days[day]:
            ref = f"#{pull.number}" if pull.number is not None else f"@{(pull.sha or '')[:10]}"
            lines.append(f"### {ref} {pull.title}")
            lines.append(
                f"sha {pull.sha}  author {pull.author}  "
                f"+{pull.additions} -{pull.deletions} in {pull.changed_files} files"
            )
            tops = Counter("/".join(f.path.split("/")[:2]) for f in pull.files)
            lines.append("files: " + ", ".join(f"{p} ({n})" for p, n in tops.most_common(8)))
            lines.append("paths: " + ", ".join(f.path for f in pull.files[:12]))
            body = pull.body.strip()
            if body:
                lines.append("body:\n    " + body[:1500].replace("\n", "\n    "))
            lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
