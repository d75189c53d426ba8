"""Write the editions a reader grades, each beside its day's full change list.

Usage: python bench/grade_export.py OUT_DIR

For the graded days (``bench/grades/days.txt``: ``owner/name YYYY-MM-DD`` a line; the
labelled days of ``bench/labels/``), writes ``OUT_DIR/<owner>+<name>-<date>.md`` with the
extractive edition as a reader sees it (headline, dek, body, action items, FAQ) and then
every change of the day (title, size, paths; a release's notes), so a grader can
read the edition against the day. Run it at the commit being graded; the grades go to
``bench/grades/<commit>.jsonl``.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.evaluate_facts import load_labelled_days
from digest.config import ProjectSettings, RepoSettings
from digest.summarize.extractive import ExtractiveWriter
from digest.summarize.select import make_brief

DAYS = Path(__file__).resolve().parent / "grades" / "days.txt"
DISPLAY = {"pytorch/executorch": "ExecuTorch", "pytorch/ao": "torchao"}


def _label(number: int | None, url: str) -> str:
    """How a reference is named: ``#N``, else the commit its link points at (``@1a2b3c4d5e``)."""
    return f"#{number}" if number is not None else f"@{url.rsplit('/', 1)[-1][:10]}"


def main() -> int:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    days = load_labelled_days()
    for line in DAYS.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        repo, date = line.split()
        day = dt.date.fromisoformat(date)
        pulls = days[(repo, day)]
        project = ProjectSettings(
            name=repo.split("/")[1],
            repos=(RepoSettings(name=repo, display_name=DISPLAY.get(repo)),),
        )
        digest = ExtractiveWriter().write(make_brief(project, day, pulls))
        lines = [
            f"# {repo} {date}",
            "",
            f"HEADLINE: {digest.headline}",
            f"DEK: {digest.dek}",
            "",
            "BODY:",
            # As a reader sees it: Markdown's escapes are not on the page.
            re.sub(r"\\([\\`*_\[\]<>!#|~{}()+.-])", r"\1", digest.body),
            "",
            "ACTION ITEMS:",
            *(f"- [{a.urgency.value}] {a.text} (refs {list(a.refs)})" for a in digest.action_items),
            "",
            "REFERENCES:",
            *(f"[{r.n}] {_label(r.number, r.url)} {r.title}" for r in digest.references),
            "",
            "FAQ:",
            *(f"Q: {f.question}\nA: {f.answer}" for f in digest.faq),
            "",
            f"ALL {len(pulls)} CHANGES OF THE DAY:",
        ]
        for pull in pulls:
            ref = f"#{pull.number}" if pull.number is not None else f"@{(pull.sha or '')[:10]}"
            # The first few paths, and any the edition names (a test it points to).
            said = f"{digest.body} {' '.join(a.text for a in digest.action_items)}"
            shown = [f.path for f in pull.files[:5]]
            shown += [f.path for f in pull.files[5:] if f.path in said]
            paths = ", ".join(shown)
            lines.append(f"- {ref} {pull.title} (+{pull.additions}/-{pull.deletions}; {paths})")
            # A release's notes (what it adds to the changelog, or its description) are part
            # of the day's truth: an edition may quote them.
            if notes := (pull.notes or (pull.body if "release" in pull.title.lower() else "")):
                lines += [f"    | {line}" for line in notes.strip().splitlines()[:150]]
        (out / f"{repo.replace('/', '+')}-{date}.md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
