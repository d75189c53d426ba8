"""Repair, don't discard: a model's answer with what fails left out, sentence by sentence.

A body sentence, an action item or an FAQ answer that makes a claim its citations do not
support (see :mod:`digest.summarize.claims`), cites an id that is no input, or holds a
command is left out; the rest of the answer stands when it still makes an edition. What
can be put right without a guess is: an action item's repository is that of the pull
requests it cites, ``immediate`` needs a cited breaking change, removal or security fix,
and the FAQ's questions are the standard ones in order (an answer that fails is the
extractive writer's). A sentence without a citation stays only when it states nothing
checkable (a transition); one whose paragraph cites further on is checked against that
citation (a citation at a paragraph's end).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec.structs

from digest.models import Urgency
from digest.summarize.attribution import Attribution
from digest.summarize.base import Brief, Item
from digest.summarize.checks import CITE, SHELL, shares_terms, standard_questions
from digest.summarize.claims import Sources, claims
from digest.summarize.llm.prompt import BODY_WORDS, ActionAnswer, Answer, FaqAnswer
from digest.summarize.phrasing import long_date
from digest.summarize.sentences import split_sentences
from digest.summarize.verbs import BASE_FORMS

#: A body over this many words loses its last sentences until it is within BODY_WORDS
#: (the prompt asks for BODY_WORDS; a little over is a model's habit, not a defect).
BODY_WORDS_TOLERATED = 420
#: The least a screened answer must keep to make an edition.
MIN_BODY_SENTENCES = 2
MIN_ACTIONS = 1
#: Words a security fix says of itself.
_SECURITY = re.compile(r"\b(security|vulnerab\w*|cve-\d+|exploit\w*|injection|sanitiz\w+)\b", re.I)
#: What an imperative is not: articles, pronouns, and words that are not verbs by form.
_NOT_IMPERATIVE = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "we",
        "you",
        "they",
        "our",
        "your",
        "there",
        "here",
        "please",
        "if",
        "when",
        "all",
        "each",
        "every",
        "some",
        "any",
        "no",
        "not",
        "new",
        "now",
    ]
)


class Screened(msgspec.Struct, frozen=True):
    """An answer with its failing parts left out, and what was left out and why."""

    answer: Answer
    #: One line per part left out or put right, for the log and a repair request.
    dropped: tuple[str, ...]
    #: What leaving out cannot mend: the answer needs a repair request.
    problems: tuple[str, ...]


def screen(
    answer: Answer, brief: Brief, inputs: Sequence[Item], fallback_faq: dict[str, str]
) -> Screened:
    """Return ``answer`` (citing ``inputs`` as ``[1..k]``) screened as the module says;
    ``fallback_faq`` answers each standard question in the extractive writer's words."""
    sources = Sources(
        [item.pull for item in inputs],
        [brief.project, *brief.repos, *(brief.shown(r) for r in brief.repos)],
        brief.date,
    )
    attribution = Attribution(
        [item.pull for item in inputs], [brief.project, *(brief.shown(r) for r in brief.repos)]
    )
    answer = _unlisted(answer)
    dropped: list[str] = []
    body = _fit(_screen_body(answer.body, inputs, sources, attribution, dropped), dropped)
    cited = {int(n) for n in CITE.findall(body)}
    actions = _screen_actions(answer.action_items, inputs, sources, attribution, cited, dropped)
    cited |= {n for action in actions for n in action.refs}
    faq = _screen_faq(answer.faq, brief, inputs, sources, cited, fallback_faq, dropped)
    problems = []
    # Headline and dek tell the day: what they claim must be the day's, cited or not.
    every = [item.pull for item in inputs]
    for name, text in (("headline", answer.headline), ("dek", answer.dek)):
        if unsupported := sources.unsupported(text, every):
            problems.append(f"the {name} says {', '.join(unsupported)}, which no cited change says")
        elif not shares_terms(text, every):
            problems.append(f"the {name} names nothing the edition cites: {text[:80]!r}")
    told = [s for s in split_sentences(body.replace("\n\n", " ")) if CITE.search(s)]
    if len(told) < MIN_BODY_SENTENCES:
        problems.append(
            f"the body keeps {len(told)} cited sentences once unsupported ones are left out; "
            f"it needs at least {MIN_BODY_SENTENCES}"
        )
    if len(actions) < MIN_ACTIONS:
        problems.append("no action item is left once unsupported ones are left out")
    screened = msgspec.structs.replace(answer, body=body, action_items=actions, faq=faq)
    return Screened(screened, tuple(dropped), tuple(problems))


def _screen_body(
    body: str,
    inputs: Sequence[Item],
    sources: Sources,
    attribution: Attribution,
    dropped: list[str],
) -> str:
    """``body`` without the sentences that fail; paragraphs left empty go too."""
    kept_paragraphs = []
    for paragraph in re.split(r"\n\s*\n", body.strip()):
        sentences = split_sentences(paragraph)
        kept = []
        for i, sentence in enumerate(sentences):
            ids = own = _ids(sentence)
            if any(not 1 <= n <= len(inputs) for n in ids):
                dropped.append(f"body sentence cites an id that is no input: {sentence[:80]!r}")
                continue
            if not ids:
                # A citation further on in the paragraph covers it ("X. Y [3]."); with none,
                # a sentence stands only when it claims nothing checkable.
                ids = next((_ids(s) for s in sentences[i + 1 :] if _ids(s)), [])
                if not ids and claims(sentence):
                    dropped.append(
                        f"body sentence cites nothing but makes claims: {sentence[:80]!r}"
                    )
                    continue
            if SHELL.search(sentence):
                dropped.append(f"body sentence holds a command: {sentence[:80]!r}")
                continue
            pulls = [inputs[n - 1].pull for n in ids if 1 <= n <= len(inputs)]
            if unsupported := sources.unsupported(sentence, pulls):
                dropped.append(
                    f"body sentence says {', '.join(unsupported)}, which its citations do not: "
                    f"{sentence[:80]!r}"
                )
                continue
            if (other := attribution.better(sentence, [n - 1 for n in own])) is not None:
                dropped.append(
                    f"body sentence is about [{other + 1}], not what it cites: {sentence[:80]!r}"
                )
                continue
            kept.append(sentence)
        if kept:
            kept_paragraphs.append(" ".join(kept))
    return "\n\n".join(kept_paragraphs)


def _fit(body: str, dropped: list[str]) -> str:
    """``body`` cut to BODY_WORDS words, last sentences first, when it is over the tolerance."""
    if len(body.split()) <= BODY_WORDS_TOLERATED:
        return body
    paragraphs = [split_sentences(p) for p in body.split("\n\n")]
    while sum(len(s.split()) for p in paragraphs for s in p) > BODY_WORDS and paragraphs:
        paragraphs[-1].pop()
        if not paragraphs[-1]:
            paragraphs.pop()
    dropped.append(f"the body had {len(body.split())} words: cut to {BODY_WORDS}")
    return "\n\n".join(" ".join(p) for p in paragraphs)


def _screen_actions(
    actions: Sequence[ActionAnswer],
    inputs: Sequence[Item],
    sources: Sources,
    attribution: Attribution,
    cited: set[int],
    dropped: list[str],
) -> list[ActionAnswer]:
    kept: list[ActionAnswer] = []
    openings: set[str] = set()
    for action in actions:
        text = action.text.strip()
        refs = [n for n in dict.fromkeys(action.refs) if 1 <= n <= len(inputs)]
        first = text.split(" ", 1)[0].strip(",:;")
        items = [inputs[n - 1] for n in refs]
        if not refs:
            dropped.append(f"action item cites no input: {text[:80]!r}")
        elif not imperative(first):
            dropped.append(f"action item does not open with an instruction: {text[:80]!r}")
        elif first.lower() in openings:
            dropped.append(f"action item opens with {first!r} again: {text[:80]!r}")
        elif SHELL.search(text):
            dropped.append(f"action item holds a command: {text[:80]!r}")
        elif unsupported := sources.unsupported(text, [item.pull for item in items]):
            dropped.append(
                f"action item says {', '.join(unsupported)}, which its citations do not: "
                f"{text[:80]!r}"
            )
        elif (other := attribution.better(text, [n - 1 for n in refs])) is not None:
            dropped.append(f"action item is about [{other + 1}], not what it cites: {text[:80]!r}")
        else:
            openings.add(first.lower())
            kept.append(_put_right(action, refs, items, dropped))
    return kept


def _put_right(
    action: ActionAnswer, refs: list[int], items: list[Item], dropped: list[str]
) -> ActionAnswer:
    """``action`` with the repository of what it cites, and ``immediate`` only when it cites
    a breaking change, a removal or a security fix."""
    repos = {item.pull.repo for item in items}
    repo = action.repo
    if len(repos) == 1 and repo not in repos:
        (repo,) = repos
        dropped.append(f"action item named {action.repo!r} for changes of {repo}: put right")
    urgency = action.urgency
    if urgency is Urgency.IMMEDIATE and not any(_must_act(item) for item in items):
        urgency = Urgency.PLAN
        dropped.append("action item was immediate for no breaking change, removal or security fix")
    return msgspec.structs.replace(action, repo=repo, urgency=urgency, refs=refs)


def _must_act(item: Item) -> bool:
    """True when ``item`` is a change a team must act on now."""
    if item.kind == "breaking" or item.facts.removes or item.facts.deprecates:
        return True
    return bool(_SECURITY.search(f"{item.pull.title}\n{item.pull.body[:2000]}"))


def _screen_faq(
    faq: Sequence[FaqAnswer],
    brief: Brief,
    inputs: Sequence[Item],
    sources: Sources,
    cited: set[int],
    fallback: dict[str, str],
    dropped: list[str],
) -> list[FaqAnswer]:
    """The standard questions in order, each with the model's answer when it passes."""
    questions = standard_questions(brief.project, long_date(brief.date))
    by_question = {entry.question.strip(): entry.answer for entry in faq}
    kept = []
    for position, question in enumerate(questions):
        said = by_question.get(question)
        if said is None and position < len(faq):
            said = faq[position].answer  # the question reworded, answered in its place
        ids = _ids(said or "")
        pulls = [inputs[n - 1].pull for n in sorted(cited) if 1 <= n <= len(inputs)]
        if said is None or not said.strip():
            said = fallback.get(question, "")
        elif any(n not in cited for n in ids):
            dropped.append(f"FAQ answer cites what the edition does not: {said[:80]!r}")
            said = fallback.get(question, "")
        elif unsupported := sources.unsupported(said, pulls):
            dropped.append(f"FAQ answer says {', '.join(unsupported)}, which nothing cited says")
            said = fallback.get(question, "")
        kept.append(FaqAnswer(question=question, answer=said))
    return kept


def imperative(word: str) -> bool:
    """True when ``word`` opens a sentence as an imperative verb does, judged by its form:
    capitalised, alphabetic (a hyphen allowed: ``Re-run``), not an article, pronoun or
    adverb, and not inflected (``Adds``, ``Added``, ``Adding``)."""
    bare = word.strip("\"'“”")
    if not bare[:1].isupper() or not bare.replace("-", "").isalpha():
        return False
    lower = bare.lower()
    if lower in BASE_FORMS or lower.removeprefix("re-") in BASE_FORMS:
        return True  # "Embed", "Bring", "Re-run"
    if lower in _NOT_IMPERATIVE or lower.endswith(("ing", "ed", "ly")):
        return False
    return not (lower.endswith("s") and not lower.endswith(("ss", "us", "is")))


#: "[1, 2]" is how many models cite two sources; the edition's form is "[1][2]".
_CITE_LIST = re.compile(r"\[(\d+(?:\s*,\s*\d+)+)\]")


def unlist(text: str) -> str:
    """``text`` with each ``[1, 2]`` written ``[1][2]``."""
    return _CITE_LIST.sub(lambda m: "".join(f"[{n.strip()}]" for n in m[1].split(",")), text)


def _unlisted(answer: Answer) -> Answer:
    """``answer`` with every ``[1, 2]`` written ``[1][2]``, so each id is seen."""
    return msgspec.structs.replace(
        answer,
        body=unlist(answer.body),
        action_items=[msgspec.structs.replace(a, text=unlist(a.text)) for a in answer.action_items],
        faq=[msgspec.structs.replace(f, answer=unlist(f.answer)) for f in answer.faq],
    )


def _ids(text: str) -> list[int]:
    return [int(n) for n in CITE.findall(text)]
