"""Which change a sentence is about: a citation that points at the wrong change.

A writer may swap two citations, each sentence right but citing the other's change. The
claims check (:mod:`digest.summarize.claims`) sees that only through a number, version or
identifier; a sentence of plain words holds none. This weighs the distinctive words a
sentence shares with each change of the day (a word few changes use weighs more) and finds
the sentence whose citations share little of what it says while another change shares much.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

from digest.models import PullRequest
from digest.summarize.checks import distinctive_words, terms_of
from digest.summarize.clean import clean_body

#: The least weight of words a sentence must share with another change to be called its.
MIN_FIT = 4.0
#: A sentence is the other change's when its citations share less than this part of it.
CITED_SHARE = 0.3


class Attribution:
    """The words of each change of a day (title, cleaned description, paths), weighed."""

    def __init__(self, pulls: Sequence[PullRequest], names: Iterable[str]) -> None:
        own = terms_of(" ".join(names))
        self._terms = [_evidence(pull) - own for pull in pulls]
        seen = Counter(term for terms in self._terms for term in terms)
        total = len(pulls) + 1
        self._weight = {term: math.log(total / count) for term, count in seen.items()}

    def better(self, text: str, cited: Sequence[int]) -> int | None:
        """The index (0-based, into the day's changes) of a change that ``text`` is about far
        more than about the changes at ``cited`` (0-based), or None when its citations fit."""
        words = distinctive_words(text)
        if not words or not cited:
            return None
        cited_terms = set().union(*(self._terms[i] for i in cited))
        mine = self._fit(words, cited_terms)
        others = [i for i in range(len(self._terms)) if i not in cited]
        if not others:
            return None
        best = max(others, key=lambda i: self._fit(words, self._terms[i]))
        theirs = self._fit(words, self._terms[best])
        return best if theirs >= MIN_FIT and mine < CITED_SHARE * theirs else None

    def _fit(self, words: dict[str, str], terms: set[str]) -> float:
        return sum(self._weight.get(stem, 0.0) for stem in words if stem in terms)


def _evidence(pull: PullRequest) -> set[str]:
    paths = " ".join(change.path for change in pull.files[:200])
    return terms_of(f"{pull.title} {clean_body(pull.body)[:6000]} {paths}")
