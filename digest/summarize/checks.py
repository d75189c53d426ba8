"""The rules every edition keeps, whichever writer produced it.

:func:`problems` lists what is wrong with a digest against the records it was written
from; an empty list means the edition may be published. The extractive writer is
tested against it; the LLM writer retries or falls back when it finds anything.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from digest.models import ActionItem, Digest, PullRequest, Urgency
from digest.summarize.base import Brief
from digest.summarize.classify import ROUTINE_KINDS, split_title
from digest.summarize.phrasing import ends_dangling, long_date
from digest.summarize.select import lead_stories
from digest.summarize.sentences import capitalised_verb, fragment_reason, split_sentences
from digest.summarize.verbs import ACTION_VERBS

HEADLINE_LIMIT = 100
MAX_REFERENCES = 10
#: A reference may back at most this many body sentences.
MAX_SENTENCES_PER_REFERENCE = 3
_QUOTE_MARKS = re.compile('[“”"]')
_ELLIPSIS = re.compile(r"\w(…|\.\.\.)(?=\s|$)")
# Markdown left in a plain-text field: escapes, emphasis, code spans.
_MARKDOWN = re.compile(r"\\[\\`*_\[\]<>!#|~{}()+.-]|\*\*|`")
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
    found += prose_problems(digest, pulls)
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


def prose_problems(digest: Digest, pulls: Sequence[PullRequest]) -> list[str]:
    """What reads badly in ``digest``: fragments, quoted or cut titles, Markdown in plain text.

    The body is Markdown; the headline, dek, action items and FAQ answers are plain text.
    """
    found: list[str] = []
    counts: dict[int, int] = {}
    for sentence in body_sentences(digest.body):
        if reason := fragment_reason(sentence):
            found.append(f"body sentence {reason}: {sentence[:80]!r}")
        if verb := capitalised_verb(sentence):
            found.append(f"body sentence capitalises the verb {verb!r}: {sentence[:80]!r}")
        for n in {int(n) for n in CITE.findall(sentence)}:
            counts[n] = counts.get(n, 0) + 1
    for n, times in sorted(counts.items()):
        if times > MAX_SENTENCES_PER_REFERENCE:
            found.append(
                f"reference [{n}] is cited in {times} sentences; "
                f"at most {MAX_SENTENCES_PER_REFERENCE}"
            )
    for name, text in (("headline", digest.headline), ("dek", digest.dek)):
        if _QUOTE_MARKS.search(text) or _ELLIPSIS.search(text):
            found.append(f"{name} quotes or cuts a title: {text[:80]!r}")
        elif ends_dangling(text):
            found.append(f"{name} ends mid-phrase: {text[-40:]!r}")
    plain_fields = {
        "headline": digest.headline,
        "dek": digest.dek,
        **{f"action item {i}": a.text for i, a in enumerate(digest.action_items, start=1)},
        **{f"FAQ answer {i}": e.answer for i, e in enumerate(digest.faq, start=1)},
    }
    for name, text in plain_fields.items():
        if match := _MARKDOWN.search(text):
            found.append(f"{name} is plain text but has Markdown {match.group(0)!r}")
    titles = _display_titles(pulls)
    for i, action in enumerate(digest.action_items, start=1):
        found += [f"action item {i} {problem}" for problem in _action_prose(action.text, titles)]
    return found


def body_sentences(body: str) -> list[str]:
    """The sentences of Markdown ``body``, paragraph by paragraph."""
    return [s for paragraph in body.split("\n\n") for s in split_sentences(paragraph)]


def _action_prose(text: str, titles: set[str]) -> list[str]:
    found = []
    first = text.split(" ", 1)[0].strip(",:;").lower()
    if first not in ACTION_VERBS:
        found.append(f"does not open with an instruction: {text[:60]!r}")
    if _QUOTE_MARKS.search(text):
        found.append(f"quotes: {text[:60]!r}")
    lowered = " ".join(text.lower().split())
    for title in titles:
        if title in lowered:
            found.append(f"repeats a PR title: {title[:60]!r}")
            break
    return found


def _display_titles(pulls: Sequence[PullRequest]) -> set[str]:
    """The day's titles without area prefix, lower-cased, when four words or longer."""
    titles = set()
    for pull in pulls:
        title = " ".join(split_title(pull.title)[1].lower().rstrip(" .").split())
        if len(title.split()) >= 4:
            titles.add(title)
    return titles


def coverage_problems(digest: Digest, brief: Brief) -> list[str]:
    """What an editor would miss in ``digest`` given the day's ranked ``brief``.

    Every repository with a notable (non-routine) change is cited in the body; each of
    the top three stories with two or more notable changes is told by at least two; no
    two action items open with the same verb (each comes from its own template).
    """
    found = []
    body_refs = {int(n) for n in CITE.findall(digest.body)}
    told_repos = {ref.repo for ref in digest.references if ref.n in body_refs}
    notable_repos = {item.pull.repo for item in brief.items if item.kind not in ROUTINE_KINDS}
    for repo in sorted(notable_repos - told_repos):
        found.append(f"repository not told: {repo} merged a notable change the body never cites")
    cited = {(ref.repo, ref.number, ref.url) for ref in digest.references}
    for story in lead_stories(brief.stories)[:3]:
        notable = [i for i in story.items if i.kind not in ROUTINE_KINDS]
        told = [i for i in notable if (i.pull.repo, i.pull.number, i.pull.url) in cited]
        if len(notable) >= 2 and len(told) < 2:
            name = story.area or story.repo
            found.append(f"story told by one change: {name} has {len(notable)} notable changes")
    openings = Counter(action.text.split(" ", 1)[0] for action in digest.action_items)
    for verb, times in sorted(openings.items()):
        if times > 1:
            found.append(f"action template repeated: {verb!r} opens {times} action items")
    return found
