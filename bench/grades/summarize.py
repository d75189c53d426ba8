"""Sum up a reader's grades: python bench/grades/summarize.py bench/grades/<commit>.jsonl ...

Prints per file the mean overall score (1-5), the share of garbled body sentences, the share
of actionable action items, headlines leading with the right story and deks repeating their
headline (see RUBRIC.md; bench/grade_export.py writes what is graded).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main() -> int:
    for name in sys.argv[1:]:
        rows = [json.loads(line) for line in Path(name).read_text().splitlines() if line]
        sentences = sum(r["body_sentences"] for r in rows)
        garbled = sum(r["garbled"] for r in rows)
        actions = [a for r in rows for a in r["actions"]]
        actionable = sum(1 for a in actions if a == "actionable")
        overall = sum(r["overall"] for r in rows) / len(rows)
        print(
            f"{Path(name).stem}: {len(rows)} editions, overall {overall:.2f}, "
            f"garbled {garbled}/{sentences} ({100 * garbled / sentences:.0f}%), "
            f"actionable {actionable}/{len(actions)} "
            f"({100 * actionable / max(1, len(actions)):.0f}%), "
            f"right lead {sum(r['headline_lead'] for r in rows)}/{len(rows)}, "
            f"dek repeats {sum(r['dek_repeats'] for r in rows)}/{len(rows)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
