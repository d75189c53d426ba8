"""Grade the day's facts against the hand-labelled set in ``bench/labels/``.

Usage: python bench/evaluate_facts.py [--show kinds|leads|reverts] [--repo OWNER/NAME]

``bench/labels/kinds.jsonl`` gives the kind an editor judged right for each of 500-odd
changes of twelve repositories (eight fetched from outside the PyTorch organisation, whose
days are collected from their clones under ``$WIRE_MIRRORS`` at evaluation time; the
PyTorch ones are read from ``../shared/data``); ``bench/labels/leads.jsonl`` the change
the editor would lead each of those days with. Prints:

- **kind accuracy**: the classifier's kind, in the editor's coarse groups (feature, fix,
  breaking, perf, docs, internal, release, revert, reland), against the label;
- **lead agreement**: the story the extractive edition opens its body with (the changes its
  first paragraph cites) holds the editor's lead (or one the editor named as equally good);
- **revert-claim precision**: of the edition's sentences that say a change was reverted,
  the share whose cited revert is labelled a revert and names the change it reverts.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.labels.export import MIRRORS
from digest.config import ProjectSettings, RepoSettings
from digest.models import ChangeLink, Digest, FileChange, PullRequest
from digest.summarize.classify import classify
from digest.summarize.extractive import ExtractiveWriter
from digest.summarize.select import make_brief
from tests.realdata import MERGED_PRS, load_days

LABELS = Path(__file__).resolve().parent / "labels"
COARSE = {
    "refactor": "internal",
    "deps": "internal",
    "build": "internal",
    "test": "internal",
    "ci": "internal",
    "chore": "internal",
}
_REVERT_CLAIM = re.compile(r"\brevert(?:s|ed|ing)?\b", re.I)
_CITED = re.compile(r"\[(\d+)\]")

Day = tuple[str, dt.date]


def coarse(kind: str) -> str:
    """The editor's group of a classifier kind."""
    return COARSE.get(kind, kind)


def ref_of(pull: PullRequest) -> str:
    """How the worksheets name a change: ``#N``, else ``@`` and ten hex digits of its sha."""
    return f"#{pull.number}" if pull.number is not None else f"@{(pull.sha or '')[:10]}"


def load_labelled_days() -> dict[Day, list[PullRequest]]:
    """The changes of every labelled day, collected from the mirrors or read from ``../shared``.

    The fetched repositories' days are collected at evaluation time from their clones under
    ``$WIRE_MIRRORS`` (default ``/work/.mirror``, as the search tool's ``fetch`` leaves
    them), cut as the labellers saw them; a day whose clone is absent is left out.
    """
    from bench.labels.export import REPOS, collect_fetched

    wanted = {(row["repo"], dt.date.fromisoformat(row["date"])) for row in _rows("leads")}
    days: dict[Day, list[PullRequest]] = {}
    for name, branch, *_ in REPOS:
        if name.startswith("pytorch/"):
            if MERGED_PRS.is_dir():
                loaded = load_days(name.replace("/", "-"))
                days.update({(name, d): loaded[d] for r, d in wanted if r == name and d in loaded})
            continue
        mine = sorted(d for r, d in wanted if r == name)
        for day, pulls in collect_fetched(name, branch, mine).items():
            days[(name, day)] = [_pull(record) for record in pulls]
    return {key: days[key] for key in sorted(wanted) if key in days}


def load_records(path: Path) -> list[PullRequest]:
    """The changes of a records file: one JSON object a line, as :func:`_record` of
    ``bench/labels/export.py`` writes them (the invented days of ``tests/fixtures/answers/``)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [_pull(json.loads(line)) for line in lines if line.strip()]


def missing_mirrors() -> list[str]:
    """The fetched repositories of the labelled set whose clone is not on this machine."""
    from bench.labels.export import REPOS, mirror_of

    return [n for n, *_ in REPOS if not n.startswith("pytorch/") and not mirror_of(n).is_dir()]


def _rows(name: str) -> list[dict[str, object]]:
    path = LABELS / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _pull(raw: dict[str, object]) -> PullRequest:
    def link(value: object) -> ChangeLink | None:
        if not isinstance(value, list):
            return None
        return ChangeLink(repo=str(raw["repo"]), number=value[0], sha=value[1])

    number = raw["number"]
    repo = str(raw["repo"])
    return PullRequest(
        repo=repo,
        number=number if isinstance(number, int) else None,
        title=str(raw["title"]),
        body=str(raw["body"]),
        url=f"https://github.com/{repo}/pull/{number}"
        if isinstance(number, int)
        else f"https://github.com/{repo}/commit/{raw['sha']}",
        merged_at=dt.datetime.fromisoformat(str(raw["merged_at"])),
        author=str(raw["author"]),
        sha=str(raw["sha"]),
        files=tuple(FileChange(p, a, d) for p, a, d in raw["files"]),  # type: ignore[attr-defined]
        additions=int(raw["additions"]),  # type: ignore[call-overload]
        deletions=int(raw["deletions"]),  # type: ignore[call-overload]
        changed_files=int(raw["changed_files"]),  # type: ignore[call-overload]
        reverts=link(raw.get("reverts")),
        relands=link(raw.get("relands")),
        notes=str(raw.get("notes") or ""),
        older_line=bool(raw.get("older_line")),
        fragment=str(raw.get("fragment") or ""),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--show", default="", help="list the misses: kinds, leads or reverts")
    parser.add_argument("--repo", default="", help="grade only this repository")
    args = parser.parse_args()
    if not (LABELS / "kinds.jsonl").is_file():
        print(f"skipped: {LABELS / 'kinds.jsonl'} is absent")
        return 0
    days = {k: v for k, v in load_labelled_days().items() if args.repo in ("", k[0])}
    if not MERGED_PRS.is_dir():
        print(f"note: {MERGED_PRS} is absent; grading the fetched repositories only")
    for name in missing_mirrors():
        print(f"note: no clone of {name} under {MIRRORS}; fetch it to grade its days")
    kinds = {(r["repo"], r["ref"]): str(r["kind"]) for r in _rows("kinds")}
    leads = {(r["repo"], r["date"]): r for r in _rows("leads")}
    hits: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    confusion: Counter[tuple[str, str]] = Counter()
    misses: dict[str, list[str]] = defaultdict(list)
    for (repo, day), pulls in days.items():
        for pull in pulls:
            label = kinds.get((repo, ref_of(pull)))
            if label is None:
                continue
            got = coarse(classify(pull).kind)
            totals["kind", repo] += 1
            if got == label:
                hits["kind", repo] += 1
            else:
                confusion[label, got] += 1
                misses["kinds"].append(
                    f"{repo} {ref_of(pull)} label {label}, got {got}: {pull.title}"
                )
        project = ProjectSettings(name=repo.split("/")[1], repos=(RepoSettings(name=repo),))
        digest = ExtractiveWriter().write(make_brief(project, day, pulls))
        pick = leads.get((repo, day.isoformat()))
        if pick is not None:
            wanted = {str(pick["lead"]), *map(str, pick.get("also") or [])}  # type: ignore[call-overload]
            opening = opening_story(digest, pulls)
            totals["lead", repo] += 1
            if wanted & set(opening):
                hits["lead", repo] += 1
            else:
                misses["leads"].append(
                    f"{repo} {day} editor {pick['lead']}, edition {' '.join(opening)}"
                    f" | headline: {digest.headline}"
                )
        for claim, ok in revert_claims(digest, pulls, kinds):
            totals["revert", repo] += 1
            hits["revert", repo] += ok
            if not ok:
                misses["reverts"].append(f"{repo} {day}: {claim}")
    _report(hits, totals, confusion)
    for line in misses.get(args.show, []):
        print("  ", line[:220])
    return 0


def opening_story(digest: Digest, pulls: list[PullRequest]) -> list[str]:
    """The changes the body's first paragraph (the story it opens with) cites, as refs."""
    by_url = {p.url: p for p in pulls}
    refs = {r.n: by_url.get(r.url) for r in digest.references}
    first = digest.body.split("\n\n", 1)[0]
    return [ref_of(p) for n in _CITED.findall(first) if (p := refs.get(int(n))) is not None]


def revert_claims(
    digest: Digest, pulls: list[PullRequest], kinds: dict[tuple[str, str], str]
) -> list[tuple[str, bool]]:
    """Each sentence of ``digest`` that says something was reverted, and whether it is true:
    every revert it cites is labelled (or plainly titled) a revert, and any other change it
    cites in the same sentence is the one that revert takes back."""
    by_url = {p.url: p for p in pulls}
    cited = {r.n: by_url.get(r.url) for r in digest.references}
    texts = [digest.body, *(a.text for a in digest.action_items)]
    texts += [f.answer for f in digest.faq]
    claims = []
    for text in texts:
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            if not _REVERT_CLAIM.search(sentence) or "[" not in sentence:
                continue
            refs = [cited.get(int(n)) for n in _CITED.findall(sentence)]
            changes = [p for p in refs if p is not None]
            reverts = [p for p in changes if _is_revert(p, kinds)]
            others = [p for p in changes if p not in reverts]
            ok = bool(reverts) and all(
                any(_pairs(r, o) for r in reverts) for o in others if _said_reverted(sentence)
            )
            claims.append((sentence, ok))
    return claims


def _said_reverted(sentence: str) -> bool:
    return bool(re.search(r"\b(was|were|is|are|been|got) reverted\b", sentence))


def _is_revert(pull: PullRequest, kinds: dict[tuple[str, str], str]) -> bool:
    label = kinds.get((pull.repo, ref_of(pull)))
    return label == "revert" if label is not None else pull.reverts is not None


def _pairs(revert: PullRequest, other: PullRequest) -> bool:
    link = revert.reverts
    if link is not None:
        if link.number is not None and link.number == other.number:
            return True
        if link.sha and other.sha and other.sha.startswith(link.sha[:7]):
            return True
    quoted = re.match(r'^\s*revert\s+"(.*)"\s*$', revert.title, re.I)
    return bool(quoted) and _norm(quoted[1]) == _norm(other.title)


def _norm(title: str) -> str:
    return " ".join(re.sub(r"\s*\(#\d+\)\s*$", "", title).casefold().split())


def _report(hits: Counter[str], totals: Counter[str], confusion: Counter[tuple[str, str]]) -> None:
    repos = sorted({repo for _, repo in totals})
    print(f"{'repository':<22} {'kinds':>13} {'leads':>11} {'revert claims':>14}")
    for repo in repos:
        cells = []
        for what in ("kind", "lead", "revert"):
            n = totals[what, repo]
            cells.append(f"{hits[what, repo]}/{n}" if n else "-")
        print(f"{repo:<22} {cells[0]:>13} {cells[1]:>11} {cells[2]:>14}")
    for what, name in (
        ("kind", "kind accuracy"),
        ("lead", "lead agreement"),
        ("revert", "revert-claim precision"),
    ):
        n = sum(totals[what, r] for r in repos)
        k = sum(hits[what, r] for r in repos)
        share = f"{100 * k / n:.1f}%" if n else "n/a"
        print(f"{name}: {share} ({k} of {n})")
    if confusion:
        print("most common kind errors (label -> got):")
        for (label, got), n in confusion.most_common(8):
            print(f"  {n:4}  {label} -> {got}")


if __name__ == "__main__":
    sys.exit(main())
