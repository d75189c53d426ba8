"""Serve the written model answers of ``tests/fixtures/answers/`` and see what is published.

Each case is a day (``case.json``: repository and date) with answers a capable model would
give to the Wire's prompt. A real day's records are collected as ``bench/evaluate_facts.py``
collects them; an invented day's are the case's own file, named by ``"records"`` (one record
a line, in the fields ``bench/labels/export.py`` writes), with the repository's display name
in ``"display_name"`` when it has one. Its answers are good ones, ones with a habit real
models have (``benign``), and ones with a real defect (``defect``, ``contradiction``).
:func:`publish` runs the openai writer against the stand-in server with one answer and
reports what reached the edition.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from pathlib import Path
from typing import Any

import msgspec
from msgspec import Struct

from bench.evaluate_facts import load_labelled_days, load_records
from digest.clock import FixedClock
from digest.config import OpenAISettings, ProjectSettings, RepoSettings, Settings
from digest.models import Digest, PullRequest
from digest.summarize.base import Brief, Item, WriterContext
from digest.summarize.llm import OpenAIWriter
from digest.summarize.llm.prompt import build_prompt
from digest.summarize.llm.verify import sentences_of
from digest.summarize.select import make_brief
from tests.fake_openai import FakeOpenAI, Reply

ANSWERS = Path(__file__).resolve().parent / "fixtures" / "answers"
#: How the fixtures' projects write their repositories (as bench/capture_prompt.py does).
DISPLAY = {"pytorch/executorch": "ExecuTorch", "pytorch/ao": "torchao"}


class Case(Struct, frozen=True):
    name: str
    repo: str
    date: dt.date
    #: Each answer's file, kind and what its defect must not leave on a page.
    answers: tuple[dict[str, Any], ...]
    #: The case's own records file (an invented day); None for a real day, collected.
    records: str | None = None
    #: How the project writes the repository, when not as its name.
    display_name: str | None = None


class Outcome(Struct, frozen=True):
    digest: Digest
    requests: int
    #: The defect's words or action that reached the edition; empty when none did.
    leaked: tuple[str, ...]
    #: Body sentences of the answer the edition does not print (left out by the checks).
    left_out: int = 0
    #: Action items of the answer the edition does not print.
    actions_left_out: int = 0

    @property
    def published(self) -> bool:
        return self.digest.writer == "openai"


def cases() -> list[Case]:
    """Every case under ANSWERS, in name order."""
    found = []
    for path in sorted(ANSWERS.glob("*/case.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        found.append(
            Case(
                name=path.parent.name,
                repo=raw["repo"],
                date=dt.date.fromisoformat(raw["date"]),
                answers=tuple(raw["answers"]),
                records=raw.get("records"),
                display_name=raw.get("display_name"),
            )
        )
    return found


@functools.cache
def _labelled_days() -> dict[tuple[str, dt.date], list[PullRequest]]:
    # Collecting the fetched days from their clones takes seconds: once per test session.
    return load_labelled_days()


def day(case: Case) -> tuple[Brief, list[PullRequest]]:
    """The brief and changes of ``case``'s day; KeyError when a real day's records are absent."""
    if case.records is not None:
        pulls = load_records(ANSWERS / case.name / case.records)
    else:
        pulls = _labelled_days()[(case.repo, case.date)]
    repo = RepoSettings(name=case.repo, display_name=case.display_name or DISPLAY.get(case.repo))
    project = ProjectSettings(name=case.repo.split("/")[1], repos=(repo,))
    return make_brief(project, case.date, pulls), pulls


def publish(case: Case, entry: dict[str, Any], data_dir: Path, verify: bool = False) -> Outcome:
    """Run the openai writer on ``case``'s day with ``entry``'s answer served (twice: a model
    asked to repair may answer the same way) and, with ``verify``, the stand-in checker's
    verdict (it flags the sentences holding the defect's words)."""
    brief, _ = day(case)
    content = (ANSWERS / case.name / entry["file"]).read_text(encoding="utf-8")
    answer = Reply(content=content)
    with FakeOpenAI() as server:
        if verify:
            server.enqueue(answer, _verdict(content, entry), answer, _verdict(content, entry))
        else:
            server.enqueue(answer, answer)
        settings = Settings(
            projects=(ProjectSettings(name="x", repos=(RepoSettings(name=case.repo),)),),
            data_dir=data_dir,
            openai=OpenAISettings(
                base_url=server.base_url,
                model="stand-in",
                timeout=5.0,
                max_retries=0,
                verify=verify,
            ),
        )
        clock = FixedClock(dt.datetime.combine(case.date, dt.time(6), tzinfo=dt.UTC))
        writer = OpenAIWriter(
            WriterContext(settings=settings, clock=clock, env={"OPENAI_API_KEY": "sk-stand-in"})
        )
        digest = writer.write(brief)
        requests = server.count
    written = json.loads(re.sub(r"^```(?:json)?\s*|\s*```$", "", content.strip()))
    body = written["body"]
    sent = sum(len(p) for p in sentences_of(body))
    actions = len(written["action_items"])
    shown = len(digest.action_items) if digest.writer == "openai" else actions
    printed = sum(len(p) for p in sentences_of(digest.body)) if digest.writer == "openai" else sent
    inputs = build_prompt(brief, settings.openai.token_budget).inputs
    marks = _as_printed(entry, digest, inputs)
    return Outcome(
        digest, requests, _leaked(digest, marks), max(0, sent - printed), max(0, actions - shown)
    )


def _as_printed(entry: dict[str, Any], digest: Digest, inputs: tuple[Item, ...]) -> dict[str, Any]:
    """``entry`` with each ``[id]`` of its marks as the page numbers it: the edition renumbers
    citations in order of first use, so "sentence [5]" may be printed "sentence [1]"."""
    number = {ref.url: ref.n for ref in digest.references}

    def printed(match: re.Match[str]) -> str:
        n = int(match[1])
        url = inputs[n - 1].pull.url if 1 <= n <= len(inputs) else ""
        return f"[{number.get(url, 0)}]"  # [0]: cited change not on the page, never printed

    absent = [re.sub(r"\[(\d+)\]", printed, mark) for mark in entry.get("absent", [])]
    return {**entry, "absent": absent}


def _verdict(content: str, entry: dict[str, Any]) -> Reply:
    """What a capable checker answers: the body sentences that hold the defect's words."""
    body = json.loads(re.sub(r"^```(?:json)?\s*|\s*```$", "", content.strip()))["body"]
    numbered = [s for paragraph in sentences_of(body) for s in paragraph]
    marks = entry.get("absent", []) if entry["kind"] == "contradiction" else []
    flagged = [n for n, s in enumerate(numbered, start=1) if any(m in s for m in marks)]
    return Reply(content=json.dumps({"unsupported": flagged}))


def _leaked(digest: Digest, entry: dict[str, Any]) -> tuple[str, ...]:
    """The marks of ``entry`` (page numbering) and its action that reached ``digest``."""
    if digest.writer != "openai":
        return ()
    public = json.dumps(msgspec.to_builtins(digest), default=str, ensure_ascii=False)
    leaked = [mark for mark in entry.get("absent", []) if mark in public]
    action = entry.get("action")
    if action:
        for item in digest.action_items:
            if action["contains"] in item.text and (
                item.repo == action.get("repo") or item.urgency.value == action.get("urgency")
            ):
                leaked.append(f"action {action['contains']!r} as {item.repo}/{item.urgency.value}")
    return tuple(leaked)
