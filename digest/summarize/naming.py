"""How an edition names things: repositories as their project writes them, areas as places.

A display name keeps its casing everywhere (``ExecuTorch``, ``torchao``), so a sentence
never opens with a name capitalised otherwise (``Executorch``, ``Torchao``) nor with a
lower-case one; an area tag (``[RL]``, ``CuTe:``) is a place in a repository, never the
subject of a sentence ("Rl lands …").
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from digest.models import Digest, PullRequest
from digest.summarize.checks import body_sentences
from digest.summarize.classify import split_title
from digest.summarize.sentences import split_sentences
from digest.summarize.verbs import is_present

#: What may stand before a sentence's first word: Markdown marks, quotes, brackets.
_LEAD_MARKS = " *_`>\"'“(["


def opens_with_name(sentence: str, name: str) -> bool:
    """True when ``sentence`` opens with ``name`` written otherwise (``Executorch`` for
    ``ExecuTorch``), or with a lower-case name a sentence would have to capitalise."""
    text = sentence.lstrip(_LEAD_MARKS)
    head = text[: len(name)]
    if head.lower() != name.lower() or not _ends_word(text, len(name)):
        return False
    return head != name or name[:1].islower()


def opens_with_area(sentence: str, area: str) -> bool:
    """True when ``sentence`` makes the area tag ``area`` its subject: ``Rl lands X``,
    ``The NXP backend adds Y`` (not ``The MLX partitioner can …``)."""
    text = sentence.lstrip(_LEAD_MARKS)
    for opening in (area, f"the {area}"):
        rest = text[len(opening) :]
        following = rest.split(" ", 2)[1] if rest.startswith(" ") else ""
        said = following in ("also", "lands", "no") or is_present(following)
        if text[: len(opening)].lower() == opening.lower() and said:
            return True
    return False


def name_problems(digest: Digest, pulls: Sequence[PullRequest]) -> list[str]:
    """Sentences of ``digest`` (its day's changes are ``pulls``) that open with a
    mis-capitalised or lower-case repository name, or with an area tag as their subject."""
    repos = digest.repos or tuple(sorted({pull.repo for pull in pulls}))
    names = {
        digest.shown(repo) if digest.shown(repo) != repo else repo.split("/", 1)[1]
        for repo in repos
    }
    areas = {split_title(pull.title)[0] for pull in pulls} - {""}
    areas = {a for a in areas if a.lower() not in {n.lower() for n in names}}
    found = []
    for where, sentence in _sentences(digest):
        text = sentence.lstrip(_LEAD_MARKS)
        for name in names:
            head = text[: len(name)]
            if head.lower() != name.lower() or not _ends_word(text, len(name)):
                continue
            if head != name:
                found.append(
                    f"{where} opens with a mis-capitalised name {head!r}: {sentence[:80]!r}"
                )
            elif name[:1].islower():
                found.append(f"{where} opens with a lower-case name {head!r}: {sentence[:80]!r}")
        for area in areas:
            if opens_with_area(sentence, area):
                found.append(f"{where} has the area {area!r} as its subject: {sentence[:80]!r}")
    return found


def _ends_word(text: str, end: int) -> bool:
    return end >= len(text) or not (text[end].isalnum() or text[end] in "_-")


def _sentences(digest: Digest) -> Iterator[tuple[str, str]]:
    """Every sentence a reader sees, with where it stands."""
    for sentence in body_sentences(digest.body):
        yield "body sentence", sentence
    yield "dek", digest.dek
    for entry in digest.faq:
        for sentence in split_sentences(entry.answer):
            yield "FAQ answer", sentence
    for lead in digest.topic_leads:
        yield "topic lead", lead.text
