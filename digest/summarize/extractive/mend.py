"""A day is never lost to a check: the sentences and action items that break a rule go.

The extractive writer's own edition can still break a rule on a day nobody foresaw (a title
the lexicon misreads, an action item the grounding check doubts). Rather than no edition,
the edition without the parts to blame: each body sentence and action item is tried out of
the edition, those whose absence removes a problem are left out together, and the
references are numbered again in order of first citation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import msgspec.structs

from digest.models import Digest, PullRequest
from digest.summarize.checks import (
    CITE,
    first_citations,
    is_brief_label,
    join_units,
    paragraph_units,
)

Check = Callable[[Digest, Sequence[PullRequest]], list[str]]
#: A unit of an edition: ("body", paragraph, sentence) or ("action", index, 0).
Unit = tuple[str, int, int]


def mend(digest: Digest, pulls: Sequence[PullRequest], check: Check) -> tuple[Digest, list[str]]:
    """Return ``digest`` without the parts that make ``check`` fail, and what was left out
    (with the problem it caused). When leaving parts out does not make an edition that
    passes, return ``digest`` unchanged and its problems."""
    found = check(digest, pulls)
    if not found:
        return digest, []
    units = _units(digest)
    to_blame = [u for u in units if len(check(_without(digest, {u}), pulls)) < len(found)]
    if not to_blame or len(to_blame) == len(units):
        return digest, found
    mended = _without(digest, set(to_blame))
    if check(mended, pulls):
        return digest, found
    return mended, [f"left out {_describe(digest, u)}: {found[0]}" for u in to_blame]


def _units(digest: Digest) -> list[Unit]:
    units: list[Unit] = []
    for p, paragraph in enumerate(digest.body.split("\n\n")):
        units += [("body", p, s) for s in range(len(paragraph_units(paragraph)))]
    units += [("action", i, 0) for i in range(len(digest.action_items))]
    return units


def _describe(digest: Digest, unit: Unit) -> str:
    kind, a, b = unit
    if kind == "action":
        return f"action item {digest.action_items[a].text[:60]!r}"
    return f"body sentence {paragraph_units(digest.body.split(chr(10) * 2)[a])[b][:60]!r}"


def _without(digest: Digest, units: set[Unit]) -> Digest:
    """``digest`` without ``units``, its references renumbered in order of first citation
    (those no longer cited are dropped)."""
    paragraphs = []
    for p, paragraph in enumerate(digest.body.split("\n\n")):
        if is_brief_label(paragraph):
            paragraphs.append(paragraph)  # kept while its list keeps an item (below)
            continue
        kept = [s for i, s in enumerate(paragraph_units(paragraph)) if ("body", p, i) not in units]
        if kept:
            paragraphs.append(join_units(paragraph, kept))
        elif paragraphs and is_brief_label(paragraphs[-1]):
            paragraphs.pop()  # a label over an empty list goes with it
    actions = [a for i, a in enumerate(digest.action_items) if ("action", i, 0) not in units]
    body = "\n\n".join(paragraphs)
    order = first_citations([body, *(" ".join(f"[{n}]" for n in a.refs) for a in actions)])
    number = {old: new for new, old in enumerate(order, start=1)}

    def renumber(text: str) -> str:
        return CITE.sub(lambda m: f"[{number.get(int(m[1]), int(m[1]))}]", text)

    return msgspec.structs.replace(
        digest,
        body=renumber(body),
        action_items=tuple(
            msgspec.structs.replace(a, refs=tuple(number[n] for n in a.refs if n in number))
            for a in actions
        ),
        references=tuple(
            msgspec.structs.replace(ref, n=number[ref.n])
            for ref in sorted(digest.references, key=lambda r: number.get(r.n, 0))
            if ref.n in number
        ),
        faq=tuple(
            msgspec.structs.replace(entry, answer=_renumbered_or_gone(entry.answer, number))
            for entry in digest.faq
        ),
    )


def _renumbered_or_gone(text: str, number: dict[int, int]) -> str:
    """``text`` with each citation renumbered, or left out when its reference is gone."""
    return re.sub(
        r"\s*\[(\d+)\]",
        lambda m: f" [{number[int(m[1])]}]" if int(m[1]) in number else "",
        text,
    )
