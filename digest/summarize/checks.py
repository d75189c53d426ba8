"""The rules every edition keeps, whichever writer produced it.

:func:`problems` lists what is wrong with a digest against the records it was written
from; an empty list means the edition may be published. The extractive writer is
tested against it; the LLM writer retries or falls back when it finds anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from digest.models import ActionItem, Digest, PullRequest, Urgency
from digest.summarize.phrasing import long_date

HEADLINE_LIMIT = 100
MAX_REFERENCES = 8
CITE = re.compile(r"\[(\d+)\]")
_LEFTOVER = re.compile(
    r"cc @|#{2,}\s|<!--|differential revision|pull request resolved|signed-off-by|"
    r"stack from \[?ghstack|ghstack-source-id|co-authored-by|https?://|\bwww\.",
    re.I,
)
# An unescaped "<" followed by something tag-like: raw HTML in a text field.
_RAW_HTML = re.compile(r"(?<!\\)<\s*/?\s*[a-z!?]", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"(])")
# Quoted titles are names, not sentences of the edition: their full stops don't end a claim.
_QUOTED = re.compile(r"“[^”]*”")


def standard_questions(project: str, date_text: str) -> tuple[str, ...]:
    """The questions every edition's FAQ answers, in order."""
    return (
        f"What changed in {project} on {date_text}?",
        f"What should {project} teams do about it?",
        f"Which {project} repositories shipped on {date_text}?",
    )


def problems(digest: Digest, pulls: Sequence[PullRequest]) -> list[str]:
    """Return a description of every rule ``digest`` breaks, given the day's ``pulls``."""
    found: list[str] = []
    found += _headline_problems(digest)
    found += _citation_problems(digest)
    found += _reference_problems(digest, pulls)
    found += _action_problems(digest, pulls)
    found += _faq_problems(digest)
    found += _markup_problems(digest)
    return found


def _headline_problems(digest: Digest) -> list[str]:
    found = []
    if not digest.headline.strip():
        found.append("headline is empty")
    if len(digest.headline) > HEADLINE_LIMIT:
        found.append(
            f"headline has {len(digest.headline)} characters; the limit is {HEADLINE_LIMIT}"
        )
    if digest.headline != digest.headline.upper():
        found.append("headline is not upper-case")
    if not digest.dek.strip():
        found.append("dek is empty")
    elif len(_SENTENCE.split(_QUOTED.sub("“…”", digest.dek.strip()))) > 1:
        found.append("dek is more than one sentence")
    return found


def _citation_problems(digest: Digest) -> list[str]:
    found = []
    numbers = {ref.n for ref in digest.references}
    texts = [digest.body, *(a.text for a in digest.action_items), *(f.answer for f in digest.faq)]
    for n in sorted({int(n) for text in texts for n in CITE.findall(text)} - numbers):
        found.append(f"[{n}] is cited but there is no reference {n}")
    for paragraph in digest.body.split("\n\n"):
        for sentence in _SENTENCE.split(_QUOTED.sub("“…”", paragraph.strip())):
            if sentence and not CITE.search(sentence):
                found.append(f"body sentence cites nothing: {sentence[:80]!r}")
    order = first_citations([digest.body, *(_action_text(a) for a in digest.action_items)])
    cited = set(order)
    for ref in digest.references:
        if ref.n not in cited:
            found.append(f"reference [{ref.n}] is never cited in the body or action items")
    known_order = [n for n in order if n in numbers]
    if known_order != list(range(1, len(known_order) + 1)):
        found.append("references are not numbered in order of first citation")
    return found


def _action_text(action: ActionItem) -> str:
    """The action's text followed by its references as ``[n]`` citations."""
    return f"{action.text} " + " ".join(f"[{n}]" for n in action.refs)


def first_citations(texts: Iterable[str]) -> list[int]:
    """Every ``[n]`` in ``texts``, as numbers in order of first appearance."""
    order: list[int] = []
    for text in texts:
        for n in CITE.findall(text):
            if int(n) not in order:
                order.append(int(n))
    return order


def _reference_problems(digest: Digest, pulls: Sequence[PullRequest]) -> list[str]:
    found = []
    known = {(p.repo, p.number, p.url) for p in pulls}
    if not 1 <= len(digest.references) <= MAX_REFERENCES:
        found.append(f"{len(digest.references)} references; expected 1 to {MAX_REFERENCES}")
    if [ref.n for ref in digest.references] != list(range(1, len(digest.references) + 1)):
        found.append("references are not numbered 1, 2, 3, ...")
    for ref in digest.references:
        if (ref.repo, ref.number, ref.url) not in known:
            found.append(
                f"reference [{ref.n}] ({ref.repo} #{ref.number}) is not a change of the day"
            )
        if not ref.url.startswith(("https://", "http://")):
            found.append(f"reference [{ref.n}] has a non-web URL")
    return found


def _action_problems(digest: Digest, pulls: Sequence[PullRequest]) -> list[str]:
    found = []
    repos = {p.repo for p in pulls}
    numbers = {ref.n for ref in digest.references}
    if not 2 <= len(digest.action_items) <= 5:
        found.append(f"{len(digest.action_items)} action items; expected 2 to 5")
    for i, action in enumerate(digest.action_items, start=1):
        if action.repo not in repos:
            found.append(f"action item {i} names {action.repo!r}, which merged nothing that day")
        if action.urgency not in set(Urgency):
            found.append(f"action item {i} has urgency {action.urgency!r}")
        if not action.refs:
            found.append(f"action item {i} cites no reference")
        for n in action.refs:
            if n not in numbers:
                found.append(f"action item {i} cites [{n}], which is not a reference")
        if not action.text.strip():
            found.append(f"action item {i} is empty")
    return found


def _faq_problems(digest: Digest) -> list[str]:
    questions = [entry.question for entry in digest.faq]
    found = []
    for question in standard_questions(digest.project, long_date(digest.date)):
        if question not in questions:
            found.append(f"FAQ lacks the question {question!r}")
    found += [f"FAQ answer to {e.question!r} is empty" for e in digest.faq if not e.answer.strip()]
    return found


def _markup_problems(digest: Digest) -> list[str]:
    fields = {
        "headline": digest.headline,
        "dek": digest.dek,
        "body": digest.body,
        **{f"action item {i}": a.text for i, a in enumerate(digest.action_items, start=1)},
        **{f"FAQ {i}": f"{e.question} {e.answer}" for i, e in enumerate(digest.faq, start=1)},
    }
    found = []
    for name, text in fields.items():
        if match := _LEFTOVER.search(text):
            found.append(f"{name} has leftover markup {match.group(0)!r}")
        if match := _RAW_HTML.search(text):
            found.append(f"{name} has raw HTML near {text[match.start() : match.start() + 20]!r}")
    return found
