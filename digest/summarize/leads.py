"""Topic leads: for each topic an edition touches, the sentence a topic's page leads with.

An edition's headline tells its biggest story, which on a topic's page may be about
something else (a CUDA kernel headline on the Arm page). A topic's lead is the first
sentence of the body citing a change of that topic, made plain; when the body cites none,
the title of the topic's most important change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from digest.config import TopicSettings
from digest.models import Digest, TopicLead
from digest.summarize.base import Item
from digest.summarize.sentences import split_sentences
from digest.summarize.verbs import has_finite_verb
from digest.text import one_line
from digest.topics import matches

_CITATION = re.compile(r"\s*\[(\d{1,6})\]")
#: Code marks and emphasis; not underscores, which identifiers are full of.
_MARKUP = re.compile(r"`+|\*{1,2}(?=\S)|(?<=\S)\*{1,2}")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")
#: A Markdown backslash escape (``test\_scalars.py``).
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!~|<>])")
#: How a body moves from one story to the next; a lead stands alone without it.
_CONNECTIVE = re.compile(r"^(?:Meanwhile|Elsewhere|Also|In other news|Separately|Besides),\s+")
#: The body's sentence of changes it does not tell: "Seven more changes also landed, among them one
#: that X [3] and one that Y [4]." A topic leads with its own change of the list.
_SMALLER = re.compile(r"^[\w-]+ (?:smaller|more) changes? also landed\b", re.I)
_ONE_THAT = re.compile(r"\bone that (.+?)\s*\[(\d{1,6})\]")
#: "Rocket also re-lands X": the "also" of a subject's later stories, before its verb.
_ALSO = re.compile(r"^([^,;:]{1,60}?) also (?=[a-z][\w-]*s\b)")


def topic_leads(
    digest: Digest, topics: Sequence[TopicSettings], items: Sequence[Item]
) -> tuple[TopicLead, ...]:
    """Return a lead for each topic of ``digest`` (configured in ``topics``), in its order.

    ``items`` are the edition's changes, most important first.
    """
    numbers: dict[tuple[str, int | None], int] = {
        (r.repo, r.number): r.n for r in digest.references if r.number is not None
    }
    sentences = [
        sentence
        for paragraph in digest.body.split("\n")
        for sentence in split_sentences(_BULLET.sub("", paragraph))
    ]
    by_slug = {topic.slug or "": topic for topic in topics}
    leads = []
    for slug in digest.topics:
        topic = by_slug.get(slug)
        if topic is None:
            continue
        own = [item for item in items if matches(topic, item.pull)]
        cited = {
            numbers[key] for item in own if (key := (item.pull.repo, item.pull.number)) in numbers
        }
        text = next(
            (_lead(s, cited) for s in sentences if cited & {int(n) for n in _CITATION.findall(s)}),
            one_line(own[0].headline_title or own[0].pull.title) if own else "",
        )
        if text:
            leads.append(TopicLead(slug, text))
    return tuple(leads)


def _lead(sentence: str, cited: set[int]) -> str:
    """``sentence`` as the lead of a topic whose changes are ``cited``: from the sentence of
    smaller changes, only the topic's own ("One change bumps CI libtpu to 0.0.40.")."""
    if _SMALLER.match(sentence):
        for part in _ONE_THAT.finditer(sentence):
            if int(part.group(2)) in cited:
                return plain(f"One change {part.group(1)}.")
    return plain(sentence)


def plain(sentence: str) -> str:
    """``sentence`` without citations, Markdown marks and escapes, an opening connective, or
    the "also" that tied it to the story before."""
    text = one_line(_ESCAPE.sub(r"\1", _MARKUP.sub("", _CITATION.sub("", sentence))))
    text = _CONNECTIVE.sub("", text)
    also = _ALSO.match(text)
    if also and not has_finite_verb(also.group(1).split()):  # "It adds X and also fixes Y"
        text = f"{also.group(1)} {text[also.end() :]}"
    return text[:1].upper() + text[1:]
