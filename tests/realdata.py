"""Read ../shared/data/merged-prs (real history of four PyTorch repositories) at test time."""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from pathlib import Path

import pytest

from digest.models import FileChange, PullRequest

SHARED = Path(__file__).resolve().parents[2] / "shared"
MERGED_PRS = SHARED / "data" / "merged-prs"

needs_real_data = pytest.mark.skipif(
    not MERGED_PRS.is_dir(),
    reason=(
        f"needs the reference data in {MERGED_PRS} (real merges of four PyTorch repositories, "
        "in a folder beside the clone that CI provides; not shipped with the Wire); skipped"
    ),
)


def load_days(name: str) -> dict[dt.date, list[PullRequest]]:
    """Every UTC day of ``name``.jsonl as PullRequest records (the shape a git source gives)."""
    days: dict[dt.date, list[PullRequest]] = defaultdict(list)
    with (MERGED_PRS / f"{name}.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            raw = json.loads(line)
            merged = dt.datetime.fromisoformat(raw["merged_at"].replace("Z", "+00:00"))
            days[merged.date()].append(
                PullRequest(
                    repo=raw["repo"],
                    number=raw["number"],
                    title=raw["title"],
                    body=raw["body"],
                    url=raw["html_url"] or f"https://github.com/{raw['repo']}/commit/{raw['sha']}",
                    merged_at=merged,
                    author=raw["author_name"],
                    sha=raw["sha"],
                    files=tuple(FileChange(**f) for f in raw["files"]),
                    additions=raw["additions"] or 0,
                    deletions=raw["deletions"] or 0,
                    changed_files=raw["changed_files"] or 0,
                )
            )
    return days
