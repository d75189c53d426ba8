"""Serve every written model answer of tests/fixtures/answers/ and print what got published.

Usage: python bench/llm_fixtures.py

Per kind of answer (good, benign habits, defects, contradictions), how many the openai
writer published (on the first request, or after its one repair request when the model
answers the same way again), how many fell back to the extractive writer, and how many
defects reached the edition; contradictions with ``openai.verify`` off and on. Then the
prompt's size on the busiest real day of ../shared/data.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from digest.config import ProjectSettings, RepoSettings
from digest.summarize.llm.prompt import build_prompt
from digest.summarize.select import make_brief
from tests.llm_fixtures import cases, publish
from tests.realdata import MERGED_PRS, load_days


def main() -> int:
    tally: Counter[tuple[str, str]] = Counter()
    misses = []
    with tempfile.TemporaryDirectory() as scratch:
        for case in cases():
            if case.repo.startswith("pytorch/") and not MERGED_PRS.is_dir():
                continue
            for i, entry in enumerate(case.answers):
                for verify in (False, True) if entry["kind"] == "contradiction" else (False,):
                    kind = entry["kind"] + (" (verify on)" if verify else "")
                    outcome = publish(
                        case, entry, Path(scratch) / f"{case.name}-{i}-{verify}", verify
                    )
                    tally[kind, "answers"] += 1
                    if outcome.published:
                        tally[kind, "first" if outcome.requests == 1 + verify else "repaired"] += 1
                    if outcome.leaked:
                        tally[kind, "leaked"] += 1
                    if outcome.left_out or outcome.actions_left_out:
                        tally[kind, "trimmed"] += 1
                    if (entry["kind"] in ("good", "benign") and not outcome.published) or (
                        outcome.leaked and not (entry["kind"] == "contradiction" and not verify)
                    ):
                        why = outcome.leaked or outcome.digest.writer_note
                        misses.append(f"{case.name}/{entry['file']} {kind}: {why}")
    print(
        f"{'kind':<26} {'answers':>7} {'published':>9} {'first':>5} {'repaired':>8} "
        f"{'defect shown':>12} {'lost a sentence or item':>23}"
    )
    for kind in ("good", "benign", "defect", "contradiction", "contradiction (verify on)"):
        n = tally[kind, "answers"]
        if not n:
            continue
        published = tally[kind, "first"] + tally[kind, "repaired"]
        print(
            f"{kind:<26} {n:>7} {published:>9} {tally[kind, 'first']:>5} "
            f"{tally[kind, 'repaired']:>8} {tally[kind, 'leaked']:>12} {tally[kind, 'trimmed']:>23}"
        )
    for miss in misses:
        print("  miss:", miss)
    _busiest()
    return 0


def _busiest() -> None:
    """The prompt's size on the busiest day of the four PyTorch repositories told together."""
    if not MERGED_PRS.is_dir():
        return
    names = ("pytorch-executorch", "pytorch-ao", "pytorch-helion", "pytorch-torchtitan")
    by_repo = {name: load_days(name) for name in names}
    days = {d for days in by_repo.values() for d in days}
    day = max(days, key=lambda d: sum(len(r.get(d, [])) for r in by_repo.values()))
    pulls = [p for r in by_repo.values() for p in r.get(day, [])]
    repos = tuple(RepoSettings(name=f"pytorch/{n[8:]}") for n in names)
    brief = make_brief(ProjectSettings(name="PyTorch", repos=repos), day, pulls)
    for budget in (8000, 16000, 32768):
        prompt = build_prompt(brief, budget)
        print(
            f"busiest real day ({day}, four repositories, {len(pulls)} changes), budget {budget}: "
            f"{len(prompt.inputs)} changes listed, {prompt.stories} stories described, about "
            f"{prompt.tokens} prompt tokens (estimated at 4 characters a token)"
        )


if __name__ == "__main__":
    sys.exit(main())
