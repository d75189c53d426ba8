"""Typos in the prose of pull-request descriptions ("assumming", "becuase", "retreive").

A sentence retold from a description is printed under the Wire's name; one with a typo
reads as the Wire's own mistake. Only the slips people make at a keyboard are caught (a
letter doubled, two letters swapped, one left out) in lower-case words of six letters or
more outside code spans, and only when the word the slip leaves is a common English word:
a technical word the dictionary lacks ("autotuner", "symint") is no typo.
"""

from __future__ import annotations

import functools
import re
import string

from spellchecker import SpellChecker

#: How common the word a slip leaves must be (pyspellchecker's frequencies, per word read).
_COMMON = 1e-7
_LETTERS = string.ascii_lowercase
#: Words of the trade that are one slip from a common English word ("inlined": "inclined").
_TRADE_WORDS = (
    "arange",
    "ccache",
    "coords",
    "gemms",
    "inited",
    "inlined",
    "llava",
    "memoized",
    "recurse",
    "regnet",
    "resnet",
    "resnets",
    "unittests",
)
_CODE_SPAN = re.compile(r"`[^`]*`")
#: A word of lower-case letters alone, between spaces or punctuation that ends a phrase.
_PROSE_WORD = re.compile(r"(?<![\w@#$%&*+=/\\.:<>'-])[a-z]{6,}(?![\w@#$%&*+=/\\<>'-]|[.:]\w)")


@functools.cache
def _dictionary() -> SpellChecker:
    checker = SpellChecker(distance=1)
    checker.word_frequency.load_words(_TRADE_WORDS)
    return checker


def typo(text: str) -> str:
    """The first word of ``text`` (code spans aside) that is a keyboard slip of a common
    English word, or ``""``."""
    words = _PROSE_WORD.findall(_CODE_SPAN.sub(" ", text))
    if not words:
        return ""
    checker = _dictionary()
    unknown = checker.unknown(words)
    return next(
        (word for word in words if word in unknown and _slip_of_common_word(word, checker)), ""
    )


def _slip_of_common_word(word: str, checker: SpellChecker) -> bool:
    """True when ``word`` is a common word with one letter doubled, two swapped or one
    left out (not at either end, where prefixes and plurals differ)."""
    undoubled = (word[:i] + word[i + 1 :] for i in range(1, len(word)) if word[i] == word[i - 1])
    swapped = (
        word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        for i in range(1, len(word) - 2)
        if word[i] != word[i + 1]
    )
    filled = (word[:i] + letter + word[i:] for i in range(2, len(word) - 1) for letter in _LETTERS)
    return any(
        candidate in checker and checker.word_usage_frequency(candidate) > _COMMON
        for candidate in (*undoubled, *swapped, *filled)
    )
