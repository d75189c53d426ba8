"""Turn pull-request titles into news phrases: imperative titles into present-tense clauses.

``"Add FP16 support"`` under the subject ``Arm backend`` reads
``"Arm backend adds FP16 support"``; titles that don't start with a known verb are
quoted instead of guessed at.
"""

from __future__ import annotations

import datetime as dt
import re

# Re-exported: callers import it from here.
from digest.text import count as count

# base form -> third person singular; gerund and past forms are derived below.
_VERBS = {
    "add": "adds",
    "allow": "allows",
    "apply": "applies",
    "avoid": "avoids",
    "bump": "bumps",
    "change": "changes",
    "clean": "cleans",
    "consolidate": "consolidates",
    "convert": "converts",
    "create": "creates",
    "default": "defaults",
    "delete": "deletes",
    "deprecate": "deprecates",
    "disable": "disables",
    "drop": "drops",
    "enable": "enables",
    "ensure": "ensures",
    "expand": "expands",
    "expose": "exposes",
    "extend": "extends",
    "extract": "extracts",
    "fix": "fixes",
    "generalize": "generalizes",
    "handle": "handles",
    "implement": "implements",
    "improve": "improves",
    "include": "includes",
    "integrate": "integrates",
    "introduce": "introduces",
    "land": "lands",
    "make": "makes",
    "migrate": "migrates",
    "move": "moves",
    "optimize": "optimizes",
    "optimise": "optimises",
    "pin": "pins",
    "port": "ports",
    "prevent": "prevents",
    "propagate": "propagates",
    "reduce": "reduces",
    "refactor": "refactors",
    "register": "registers",
    "reland": "re-lands",
    "remove": "removes",
    "rename": "renames",
    "reorganize": "reorganizes",
    "replace": "replaces",
    "restore": "restores",
    "revert": "reverts",
    "rewrite": "rewrites",
    "run": "runs",
    "set": "sets",
    "simplify": "simplifies",
    "skip": "skips",
    "speed": "speeds",
    "split": "splits",
    "start": "starts",
    "stop": "stops",
    "support": "supports",
    "switch": "switches",
    "unify": "unifies",
    "update": "updates",
    "upgrade": "upgrades",
    "use": "uses",
    "validate": "validates",
    "wire": "wires",
    "unmark": "unmarks",
    "mark": "marks",
    "guard": "guards",
    "gate": "gates",
    "rework": "reworks",
    "tweak": "tweaks",
    "adjust": "adjusts",
    "document": "documents",
    "emit": "emits",
    "track": "tracks",
    "cache": "caches",
    "parallelize": "parallelizes",
    "fuse": "fuses",
    "lower": "lowers",
    "quantize": "quantizes",
    "export": "exports",
    "load": "loads",
    "serialize": "serializes",
    "check": "checks",
    "verify": "verifies",
    "enforce": "enforces",
    "limit": "limits",
    "increase": "increases",
    "decrease": "decreases",
    "raise": "raises",
    "return": "returns",
    "accept": "accepts",
    "reject": "rejects",
    "refine": "refines",
    "tune": "tunes",
    "relax": "relaxes",
    "retire": "retires",
    "reuse": "reuses",
    "share": "shares",
    "specialize": "specializes",
    "standardize": "standardizes",
    "preserve": "preserves",
    "keep": "keeps",
    "let": "lets",
    "test": "tests",
    "build": "builds",
    "install": "installs",
    "provide": "provides",
}
_VERBS.update(
    {
        "ship": "ships",
        "recognise": "recognises",
        "recognize": "recognizes",
        "harden": "hardens",
        "cap": "caps",
        "read": "reads",
        "write": "writes",
        "give": "gives",
        "teach": "teaches",
        "hoist": "hoists",
        "inline": "inlines",
        "package": "packages",
        "bundle": "bundles",
        "publish": "publishes",
        "report": "reports",
        "warn": "warns",
        "fail": "fails",
        "defer": "defers",
        "classify": "classifies",
        "group": "groups",
        "sort": "sorts",
        "store": "stores",
    }
)
# "Pass" is left out on purpose: in compiler titles it is a noun far more often than a verb.
# After these, the first word is a noun ("Support for X", "Fix for Y"), not a verb.
_NOUN_FOLLOWERS = frozenset({"for", "of"})
_IRREGULAR_PAST = {
    "make": "made",
    "run": "ran",
    "set": "set",
    "split": "split",
    "rewrite": "rewrote",
    "keep": "kept",
    "let": "let",
    "build": "built",
}


def _forms() -> dict[str, str]:
    forms: dict[str, str] = {}
    for base, third in _VERBS.items():
        stem = base[:-1] if base.endswith("e") and base not in {"see"} else base
        if re.search(r"[^aeiou][aeiou][bdgmnprt]$", base) and base not in {"open", "refactor"}:
            stem = base + base[-1]
        past = _IRREGULAR_PAST.get(base) or (
            base + "d"
            if base.endswith("e")
            else (base[:-1] + "ied" if base.endswith("y") else stem + "ed")
        )
        forms.update({base: third, third: third, stem + "ing": third, past: third})
    return forms


_TO_THIRD_PERSON = _forms()
# "... and simplify call sites": a second verb joined to the first.
_COORDINATED_VERB = re.compile(r"(,? and |, )([a-z]+)\b(?=\s)")
_MD_SPECIAL = re.compile(r"([\\*_\[\]<>!#|~])")
_INNER_SENTENCE_BREAK = re.compile(r"[.!?]\s+\S")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def as_clause(subject: str, title: str) -> str:
    """Return ``subject`` doing what ``title`` says (``Add ops`` -> ``Arm backend adds ops``).

    When the title does not start with a known verb, return ``subject lands “title”``.
    """
    title = title.strip().rstrip(".")
    first, _, rest = title.partition(" ")
    verb = _verb(first, rest)
    if verb is None or _INNER_SENTENCE_BREAK.search(title):
        # Quoted, a title with several sentences still reads as one clause.
        return f"{subject} lands “{title}”" if subject else f"“{title}”"
    if first.lower() == "speed" and rest.lower().startswith("up "):
        verb, rest = "speeds up", rest[3:]
    rest = _COORDINATED_VERB.sub(_conjugate_coordinated, rest)
    return f"{subject} {verb} {rest}".strip() if subject else f"{verb.capitalize()} {rest}".strip()


def _conjugate_coordinated(match: re.Match[str]) -> str:
    # Only a base form is a second imperative; "computed once and shared by" stays as it is.
    verb = _VERBS.get(match.group(2).lower())
    return f"{match.group(1)}{verb}" if verb else match.group(0)


def verb_phrase(title: str) -> str:
    """Return ``title`` as a present-tense verb phrase without subject, or the title unchanged."""
    title = title.strip().rstrip(".")
    first, _, rest = title.partition(" ")
    verb = _verb(first, rest)
    return f"{verb} {rest}".strip() if verb and not _INNER_SENTENCE_BREAK.search(title) else title


def _verb(first: str, rest: str) -> str | None:
    """The third-person form of ``first`` when it is a verb here, else None."""
    if rest.split(" ", 1)[0].lower() in _NOUN_FOLLOWERS:
        return None
    return _TO_THIRD_PERSON.get(first.lower())


def lower_first(text: str) -> str:
    """Lower-case the first letter of ``text`` unless its first word looks like a name (``MLX``)."""
    first = text.split(" ", 1)[0]
    if len(first) > 1 and (first[1:] != first[1:].lower() or not first[0].isalpha()):
        return text
    return text[:1].lower() + text[1:]


def md_escape(text: str) -> str:
    """Escape Markdown and HTML syntax in untrusted ``text``, keeping `code spans` as code."""
    out: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(text):
        out.append(_MD_SPECIAL.sub(r"\\\1", text[last : match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append(_MD_SPECIAL.sub(r"\\\1", text[last:]))
    return "".join(out)


def plain(text: str) -> str:
    """Return ``text`` without backticks or HTML tags (headlines and deks are plain text)."""
    return _TAG.sub("", text).replace("`", "").replace("<", "\u2039").replace(">", "\u203a")


def fit(text: str, limit: int) -> str:
    """Shorten ``text`` to at most ``limit`` characters, at a phrase boundary if possible.

    Clauses are cut before " and ", " with ", " by ", " for ", " to ", " in " or " via "
    (keeping at least half the limit), else at the last whole word.
    """
    cut = _cut(text, limit)
    if cut.count("“") > cut.count("”"):
        return _close_quote(_cut(text, limit - 2))
    return cut


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    for joint in (
        " AND ",
        " and ",
        " WITH ",
        " with ",
        " BY ",
        " by ",
        " FOR ",
        " for ",
        " VIA ",
        " via ",
        " IN ",
        " in ",
        " TO ",
        " to ",
    ):
        cut = text[: limit + 1].rfind(joint)
        if cut >= limit // 2:
            return text[:cut].rstrip(",;:-")
    words = text[: limit + 1].split(" ")[:-1]
    while words and words[-1].lower().strip(",;:") in {
        "a",
        "an",
        "the",
        "to",
        "for",
        "of",
        "and",
        "in",
        "on",
        "with",
        "by",
    }:
        words.pop()
    return " ".join(words).rstrip(",;:-") or text[:limit]


def _close_quote(text: str) -> str:
    """Close a quotation that ``text`` opens and a cut left open."""
    return text + "…”" if text.count("“") > text.count("”") else text


def long_date(day: dt.date) -> str:
    """``2026-07-01`` -> ``July 1, 2026``."""
    return f"{day:%B} {day.day}, {day.year}"


def join_words(parts: list[str]) -> str:
    """``["a", "b", "c"]`` -> ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]
