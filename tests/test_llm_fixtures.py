"""The openai writer publishes what a capable model writes, and nothing it invents.

Every answer of ``tests/fixtures/answers/`` is served by the stand-in server: good answers
and those with a model's harmless habits are published (first request or after one
repair); an answer with an invented figure, version, identifier, mention, URL, repository
or citation never reaches the edition with its defect; a contradiction is left out when
``openai.verify`` is on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.llm_fixtures import Case, cases, publish
from tests.realdata import MERGED_PRS

CASES = [(case, entry) for case in cases() for entry in case.answers]


def _skip_without_records(case: Case) -> None:
    if case.repo.startswith("pytorch/") and not MERGED_PRS.is_dir():
        pytest.skip(f"{case.name}: its records are read from {MERGED_PRS}, absent here")


def _id(value: Any) -> str:
    return value.name if isinstance(value, Case) else str(value.get("file", ""))


@pytest.mark.parametrize(("case", "entry"), CASES, ids=[f"{c.name}/{e['file']}" for c, e in CASES])
def test_every_written_answer_meets_its_fate(
    case: Case, entry: dict[str, Any], tmp_path: Path
) -> None:
    _skip_without_records(case)
    outcome = publish(case, entry, tmp_path / "data")
    if entry["kind"] in ("good", "benign"):
        assert outcome.published, outcome.digest.writer_note
        assert outcome.requests == 1  # accepted at once, no repair needed
    else:
        assert not outcome.leaked or entry["kind"] == "contradiction", outcome.leaked


@pytest.mark.parametrize(
    ("case", "entry"),
    [(c, e) for c, e in CASES if e["kind"] in ("contradiction", "good")],
    ids=[f"{c.name}/{e['file']}" for c, e in CASES if e["kind"] in ("contradiction", "good")],
)
def test_verification_leaves_out_contradictions(
    case: Case, entry: dict[str, Any], tmp_path: Path
) -> None:
    _skip_without_records(case)
    outcome = publish(case, entry, tmp_path / "data", verify=True)
    assert outcome.published, outcome.digest.writer_note
    assert not outcome.leaked
