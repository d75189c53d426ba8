"""What a model may not invent: the checkable claims of a sentence, and their sources.

Paraphrase, impact and context in plain words are a writer's own. What is not: numbers
with their units (``2.6x``, ``30B``, ``9,500 lines``), versions (``1.4.350.0``), code spans
and identifiers (``enable_turbo()``, ``LazyFrame.gather``, ``--fast``, ``UV_CACHE_DIR``),
paths, pull-request numbers, @-mentions and URLs. Each must come from the records a
sentence cites (title, whole body, file paths, number) or from the edition's own names
and date. A few small counts ("three fixes") are a writer's arithmetic and pass.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence

from digest.models import PullRequest

#: A number (a version's "v" before it), its decimals and thousands, and a unit glued to it.
_NUMBER = re.compile(
    r"(?<![\w.#@/-])v?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)*)"
    r"(\s?(?:x|\u00d7|%|[kmgt]i?b|[kmbt]\b|ms|us|µs|ns|s\b|gb/s|tok/s|tflops|tops|k\b))?",
    re.I,
)
_CODE_SPAN = re.compile(r"`([^`\n]{1,120})`")
#: Identifiers a writer would not coin: snake_case, dotted names, calls, flags, CONSTANTS,
#: camelCase with an inner capital, and paths.
_IDENTIFIER = re.compile(
    r"(?<![\w/.-])("
    r"--?[a-z][\w-]+"  # --flag, -x
    r"|[A-Za-z_][\w]*\(\)"  # call()
    r"|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+"  # torch.compile, LazyFrame.gather
    r"|[a-z]+_[a-z0-9_]+"  # snake_case
    r"|[A-Z][A-Z0-9]*_[A-Z0-9_]+"  # ENV_VAR
    r"|[a-z]+[A-Z][A-Za-z0-9]*"  # camelCase
    # a/path.py, a/b/c, a/dir/: one slash alone joins words ("try/catch", "CPU/GPU")
    r"|[\w.-]+/(?:[\w.-]+/)+(?:[\w.-]*[\w-])?|[\w-]+/[\w-]*\.[A-Za-z]\w*"
    r")(?![\w/])"
)
_MENTION = re.compile(r"(?<![\w.@/])@[A-Za-z0-9][A-Za-z0-9_-]*")
_URL = re.compile(r"\bhttps?://\S+|\bwww\.\S+", re.I)
_PR_NUMBER = re.compile(r"(?<![\w&])#(\d{1,9})\b")
_CITE = re.compile(r"\[\d{1,6}\]")
#: Counts a writer works out itself ("three fixes", "2 changes") need no source.
SMALL_COUNT = 20


class Sources:
    """The text each record offers as the source of a claim, read once per record."""

    def __init__(self, pulls: Sequence[PullRequest], names: Iterable[str], day: dt.date):
        self._text = {id(pull): _source_text(pull) for pull in pulls}
        self._titles = {id(pull): pull.title.lower() for pull in pulls}
        self._numbers = {id(pull): _numbers(self._text[id(pull)]) for pull in pulls}
        named = " ".join(names).lower()
        self._names = named
        self._name_numbers = _numbers(named) | {
            str(day.year),
            str(day.day),
            f"{day.day:02d}",
            str(day.month),
        }

    def unsupported(self, text: str, pulls: Sequence[PullRequest]) -> list[str]:
        """The claims of ``text`` that neither ``pulls`` nor the edition's names support."""
        source = " ".join(self._text[id(p)] for p in pulls) + " " + self._names
        numbers = set().union(self._name_numbers, *(self._numbers[id(p)] for p in pulls))
        numbers |= {str(p.number) for p in pulls if p.number is not None}
        titles = " ".join(self._titles[id(p)] for p in pulls)
        found = []
        for claim in claims(text):
            if claim.startswith("@"):
                # An @-mention pings a person: never copied from a description, only a
                # decorator a title names (``@torch.compile``) passes.
                if claim.lower() not in titles:
                    found.append(claim)
            elif not _supported(claim, source, numbers):
                found.append(claim)
        return list(dict.fromkeys(found))


def claims(text: str) -> list[str]:
    """The checkable claims of ``text``: numbers with units, versions, code, identifiers,
    paths, pull-request numbers, @-mentions and URLs, in order of appearance."""
    text = _CITE.sub(" ", text)
    found: list[tuple[int, str]] = []
    for pattern in (_URL, _MENTION):
        for match in pattern.finditer(text):
            found.append((match.start(), match.group(0)))
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    for match in _CODE_SPAN.finditer(text):
        found.append((match.start(), f"`{match.group(1)}`"))
    bare = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), text)
    for match in _PR_NUMBER.finditer(bare):
        found.append((match.start(), match.group(0)))
    for match in _IDENTIFIER.finditer(bare):
        found.append((match.start(), match.group(1)))
    spans = [(m.start(), m.end()) for m in _IDENTIFIER.finditer(bare)]
    for match in _NUMBER.finditer(bare):
        inside = any(a <= match.start() < b for a, b in spans)
        if not inside:
            found.append((match.start(), match.group(0).strip()))
    return [claim for _, claim in sorted(found)]


#: Files every project of a kind has: naming one is common knowledge, not an invention.
WELL_KNOWN_FILES = frozenset(
    (
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "requirements.txt",
        "package.json",
        "package-lock.json",
        "tsconfig.json",
        "cargo.toml",
        "cargo.lock",
        "go.mod",
        "cmakelists.txt",
        "makefile",
        "dockerfile",
        "readme.md",
        "changelog.md",
        ".gitignore",
        "uv.lock",
        "poetry.lock",
    )
)


def _supported(claim: str, source: str, numbers: set[str]) -> bool:
    """True when ``claim`` is in ``source`` (lower-cased text), a well-known file name, or,
    for a number, among ``numbers``."""
    lowered = claim.lower()
    if lowered.strip("`") in WELL_KNOWN_FILES:
        return True
    if claim.startswith("`"):
        inner = lowered.strip("`").strip()
        inner = inner.removesuffix("()").strip()
        # A code span holds a name or a number; both must be the source's.
        return (
            not inner
            or inner in source
            or all(_supported(c, source, numbers) for c in claims(inner))
        )
    if claim.startswith("#"):
        return claim[1:] in numbers
    if claim.startswith(("http", "www.")):
        return lowered in source
    number = _NUMBER.fullmatch(claim)
    if number:
        value = number.group(1).replace(",", "")
        if not number.group(2) and "." not in value and int(value) <= SMALL_COUNT:
            return True
        return value in numbers
    return lowered.removesuffix("()") in source


def _source_text(pull: PullRequest) -> str:
    paths = " ".join(change.path for change in pull.files[:500])
    return f"{pull.repo} {pull.title}\n{pull.body}\n{paths}".lower()


def _numbers(text: str) -> set[str]:
    """Every number written in ``text``, thousands separators dropped, with its parts
    (``1.4.350.0`` gives it and ``1.4``; ``2.6x`` gives ``2.6``)."""
    found = set()
    for match in re.finditer(r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)*", text):
        value = match.group(0).replace(",", "")
        found.add(value)
        parts = value.split(".")
        for end in range(1, len(parts)):
            found.add(".".join(parts[:end]))
    return found
