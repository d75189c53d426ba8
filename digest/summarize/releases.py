"""What a release says it contains: the entries of its release notes, read as facts.

A release commit's notes are the lines it adds to a changelog (the git source reads them
into :attr:`PullRequest.notes`) or, for changesets and hand-written release pull requests,
its description. Each bullet becomes a :class:`ReleaseNote`: its text without links or
markup, the kind its heading or prefix gives it (``### Bug fixes``, ``fix:``), and the pull
requests it links. Only the first release of the notes that lists entries is read (a body
may list several packages' releases, some empty; the first with entries is the one cut).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec.structs
from msgspec import Struct

from digest.models import PullRequest
from digest.summarize.base import Item
from digest.summarize.kinds import (
    DROPS_SUPPORT,
    GITMOJI,
    GITMOJI_KINDS,
    GRAVE,
    NOTES_KEPT,
    SEVERE,
)
from digest.summarize.phrasing import cut_tidily, fit, upper_first
from digest.text import one_line

#: The kinds of a release's entries, from the most to the least a user must act on.
NOTE_KINDS = ("breaking", "security", "fix", "feature", "perf", "other", "upkeep")
#: At most this many entries are read from one release's notes: more than any release of the
#: busiest projects lists (ruff's run to 40-60), so that the counts a summary gives are right.
MAX_NOTES = 400


class ReleaseNote(Struct, frozen=True):
    """One entry of a release's notes."""

    text: str
    #: One of :data:`NOTE_KINDS`.
    kind: str
    #: The pull requests the entry links (``#8021``), in the order it names them.
    numbers: tuple[int, ...] = ()
    #: Listed under a heading for what users opt into ("Fixed (unstable)", "Experimental").
    unstable: bool = False
    #: The kind its heading in the notes names (``### Bug fixes``: ``fix``; ``### Rule
    #: changes``: ``other``), ``""`` under none or a heading for any change ("Patch Changes").
    listed: str = ""

    @property
    def grave(self) -> bool:
        """True when the entry fixes a crash, a hang, corruption, a wrong result or a hole."""
        return self.kind in ("fix", "security") and bool(GRAVE.search(self.text))


_HEADING = re.compile(r"^\s*(?:#{1,6}\s+(?P<hash>.+?)|\*\*(?P<bold>[^*]+)\*\*:?)\s*$")
_BULLET = re.compile(r"^(?P<indent>\s*)[-*+]\s+(?P<text>\S.*)$")
_VERSION_HEADING = re.compile(r"\d+\.\d+")
_VERSION_NAME = re.compile(r"(?:[@\w./-]+@)?v?\d+\.\d+(?:\.\d+)*(?:-[\w.]+)?")
_SECTION_KINDS = (
    (re.compile(r"break|incompatib|removed|removal|deprecat", re.I), "breaking"),
    (re.compile(r"security|vulnerab", re.I), "security"),
    (re.compile(r"fix|bug|patch(?! changes)", re.I), "fix"),
    (re.compile(r"perf|performance|speed", re.I), "perf"),
    (re.compile(r"feat|added|new|enhance|improve|preview|python", re.I), "feature"),
)
_PREFIX_KINDS = {
    "fix": "fix",
    "bugfix": "fix",
    "feat": "feature",
    "feature": "feature",
    "perf": "perf",
    "breaking": "breaking",
    "security": "security",
}
#: ``fix:``, ``feat(ssr)!:`` at the start of an entry (changesets, conventional changelogs).
_ENTRY_PREFIX = re.compile(r"^(?P<type>[a-z]+)(?:\([^)]{1,30}\))?(?P<bang>!)?:\s+", re.I)
_MD_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\s]*\)")
_REF_LINK = re.compile(r"\[(#\d+|[0-9a-f]{7,40})\](?![(\[])", re.I)
#: "[a regression][#8056]": a reference-style link, its text kept.
_REF_STYLE = re.compile(r"\[([^\]\n]+)\]\[[^\]\n]*\]")
_NUMBER = re.compile(r"(?<![\w/])#(\d{1,9})\b|/(?:pull|issues)/(\d{1,9})\b")
#: Trailing "(#123)", "(#123, #124)", "([abc1234](…))": the entry's links, said elsewhere.
_TRAILING_REFS = re.compile(r"(\s*\((?:#\d+|[0-9a-f]{7,40}|by @[\w-]+)(?:,\s*#\d+)*\))+\s*$", re.I)
#: An entry about the project's own dependencies, tests or CI, whatever its heading.
#: An entry that reworks the project's insides: "Refactor X", "chore: simplify Y".
_INTERNAL_WORK = r"^(?:[\w-]+:\s+)?(?:refactor|simplify|clean\s*up|tidy|reorgani[sz]e)\b"
_ROUTINE_ENTRY = re.compile(
    r"^(?:[\w-]+:\s+)?(?:update[sd]?|bump(?:s|ed)?|upgrade[sd]?)\s+(?:all\s+)?(?:non-major\s+)?"
    r"(?:dependenc|the\s+[\w-]+\s+group\b|[\w@/.-]+(?:\s+from\s+\S+)?\s+to\s+v?\d)"
    r"|\b(tests?|ci|typecheck)\b\s*$|\b(test suite|tests are|tests? (?:for|on|in))\b"
    # Work on the project's own insides: "Refactor internals, simplify utils".
    rf"|{_INTERNAL_WORK}[^.]*"
    r"\b(?:internals?|utils|utilities|helpers|types|typing|code\s*base)\b",
    re.I,
)
#: What GitHub's generated notes put after an entry: its author and its pull request.
_GENERATED_BY = re.compile(r"\s+by\s+@[\w-]+(?:\[bot\])?\s+in\s+https?://\S+\s*$")
#: The kind of a release entry a gitmoji gives; the others (docs, tests, CI …) are upkeep.
_GITMOJI_NOTE_KINDS = {
    "feature": "feature",
    "fix": "fix",
    "perf": "perf",
    "breaking": "breaking",
    "refactor": "other",
}
#: What some projects put after an entry: "PR #15589 by @someone".
_PR_BY = re.compile(r"\.?\s+PR\s+#\d+(?:\s+by\s+@[\w-]+(?:,?\s+(?:and\s+)?@[\w-]+)*)?\.?\s*$")
#: What changesets put before an entry: its pull request, its commit, a thank-you.
_CHANGESET_LEAD = re.compile(
    r"^(?:#\d+\s+)?(?:`?[0-9a-f]{7,40}`?\s+)?(?:Thanks\s+@[\w-]+(?:,?\s+@[\w-]+)*!?\s*)?-\s+",
    re.I,
)
#: Not after an abbreviation: "components (e.g. `ProgressBarAndroid`)" is one sentence.
_SENTENCE_END = re.compile(r"(?<=[a-z0-9`)])(?<!e\.g)(?<!i\.e)(?<!\betc)(?<!\bvs)\.\s+(?=[A-Z`])")
#: The first word of an entry that says what kind of change it is ("Added", "Fixes"); a
#: removal listed under no heading that says so is the project's own ("Remove unused X").
_ENTRY_VERB = re.compile(
    r"^(add|adds|added|fix|fixes|fixed|improve|improves|improved|speed|speeds|"
    r"optimi[sz]e[sd]?)\b",
    re.I,
)
_VERB_KINDS = {
    **dict.fromkeys(("add", "adds", "added", "improve", "improves", "improved"), "feature"),
    **dict.fromkeys(("fix", "fixes", "fixed"), "fix"),
    **dict.fromkeys(("speed", "speeds", "optimize", "optimizes", "optimized"), "perf"),
    **dict.fromkeys(("optimise", "optimises", "optimised"), "perf"),
}
_MD_ESCAPE = re.compile(r"\\([\\`*_\[\]{}()#+.!<>-])")
#: A reference that ends an entry's first sentence, a new one after it ("(#17757) Previously").
_REF_THEN_SENTENCE = re.compile(r"\s*\(#\d{1,9}(?:,\s*#\d{1,9})*\)\s+(?=[A-Z])")
#: An entry that opens with the issue it closes: "Fixed #9884: ", "Fixes #12 - ".
_CLOSES_LEAD = re.compile(
    r"^(?P<verb>fix(?:e[sd])?|close[sd]?|resolve[sd]?)\s+#\d+(?:\s*,\s*#\d+)*\s*[:\u2013-]\s+",
    re.I,
)
#: An entry that says what no longer goes wrong: a fix whatever heading it is under.
_NO_LONGER = re.compile(r"\bno longer\b", re.I)


def release_notes(pull: PullRequest) -> tuple[ReleaseNote, ...]:
    """The entries of the first release ``pull``'s notes list, else its description."""
    return _entries(pull.notes) or _entries(pull.body)


def _entries(text: str) -> tuple[ReleaseNote, ...]:
    """The entries of the first release with entries that ``text`` (Markdown) lists."""
    notes: list[ReleaseNote] = []
    section = "other"
    unstable = False
    versions_seen = 0
    current: list[str] = []
    indent = -1

    listed = ""
    credits = False

    def flush() -> None:
        if current and not credits:
            note = _note(" ".join(current), section)
            if note is not None:
                notes.append(msgspec.structs.replace(note, unstable=unstable, listed=listed))
        current.clear()

    for line in text.splitlines():
        if heading := _HEADING.match(line):
            flush()
            name = heading["hash"] or heading["bold"] or ""
            if heading["hash"]:
                credits = bool(_CREDITS_HEADING.search(name))
            unstable = bool(_UNSTABLE.search(name))
            if _VERSION_HEADING.search(name) and not _section_kind(name):
                versions_seen += 1
                if versions_seen > 1 and notes:
                    break  # the next release of the notes: an older one, or another package
                continue
            section = _section_kind(name) or "other"
            if heading["hash"]:  # a bold line ("**Invalid**" in an entry's example) files none
                listed = "" if _ANY_CHANGE_HEADING.search(name) else section
            continue
        if bullet := _BULLET.match(line):
            if current and len(bullet["indent"]) > indent:
                continue  # a sub-entry: the entry it belongs to says enough
            if not current and len(bullet["indent"]) >= 2:
                continue  # a sub-entry whose entry another commit wrote
            flush()
            indent = len(bullet["indent"])
            current.append(bullet["text"])
        elif current and line.strip():
            current.append(line.strip())  # an entry wrapped over lines, indented or not
        else:
            flush()
        if len(notes) >= MAX_NOTES:
            break
    flush()
    # The same entry written twice (notes gathered ahead of a release and its own) is one.
    unique = {(note.text, note.kind): note for note in reversed(notes)}
    kept = [note for note in notes if unique.get((note.text, note.kind)) is note]
    return tuple(kept[:MAX_NOTES])


def notes_version(pull: PullRequest) -> str:
    """The version the first release of ``pull``'s notes with entries is headed by
    (``## 2.4.13`` -> ``v2.4.13``), or ``""``."""
    return _version_of(pull.notes) or _version_of(pull.body)


def _version_of(text: str) -> str:
    found = ""
    for line in text.splitlines():
        heading = _HEADING.match(line)
        if heading is not None:
            name = heading["hash"] or heading["bold"] or ""
            version = _VERSION_NAME.search(name)
            if version and not _section_kind(name):
                found = version[0]
            continue
        if found and _BULLET.match(line):
            return found if found[0] in "vV" or "@" in found else f"v{found}"
    return ""


def _section_kind(heading: str) -> str:
    for pattern, kind in _SECTION_KINDS:
        if pattern.search(heading):
            return kind
    return ""


def _note(raw: str, section: str) -> ReleaseNote | None:
    numbers = tuple(dict.fromkeys(int(a or b) for a, b in _NUMBER.findall(raw) if (a or b)))
    text = _REF_LINK.sub(r"\1", _REF_STYLE.sub(r"\1", _MD_LINK.sub(r"\1", raw)))
    text = _GENERATED_BY.sub("", text)  # "… by @someone in https://github.com/o/r/pull/7"
    text = _PR_BY.sub("", text)  # "… PR #15589 by @someone."
    text = _MD_ESCAPE.sub(r"\1", text).replace("**", "")
    text = _CHANGESET_LEAD.sub("", text)  # "#9969 c5eb92b Thanks @someone! - Added …"
    text = _TRAILING_REFS.sub("", one_line(text)).strip(" .;,")
    kind = section
    if emoji := GITMOJI.match(text):  # "♻️ Do not accept …", "🐛 Fix …"
        text = text[emoji.end() :]
        said = GITMOJI_KINDS[emoji[1]]
        if kind == "other":
            kind = _GITMOJI_NOTE_KINDS.get(said, "upkeep")
    if prefix := _ENTRY_PREFIX.match(text):
        named = _PREFIX_KINDS.get(prefix["type"].lower())
        if named is not None:
            text = text[prefix.end() :]
            kind = "breaking" if prefix["bang"] else named if section == "other" else section
    if closes := _CLOSES_LEAD.match(text):  # "Fixed #9884: The auto-fix no longer …"
        text = upper_first(text[closes.end() :])
        kind = "fix" if kind == "other" and closes["verb"].lower().startswith("fix") else kind
    if kind in ("other", "upkeep") and DROPS_SUPPORT.match(text):
        kind = "breaking"  # "Drop support for Pydantic v1", whatever its emoji says
    elif kind in ("other", "upkeep") and _RESTRICTS.match(text):
        kind = "breaking"  # "Do not accept underscore headers …": what worked is refused
    elif kind == "other" and (verb := _ENTRY_VERB.match(text)):
        kind = _VERB_KINDS[verb[1].lower()]  # "Added the nursery rule …" under "Patch Changes"
    elif kind == "other" and _NO_LONGER.search(text):
        kind = "fix"  # "`noX` no longer misses …": what went wrong no longer does
    # One sentence of an entry is what a summary quotes; one cut inside a code span or an
    # aside cannot be quoted.
    # "X (#17757) Previously, Y": an entry's wrapped explanation after its reference.
    text = _TRAILING_REFS.sub("", _REF_THEN_SENTENCE.split(text, maxsplit=1)[0]).strip(" .;,")
    text = _balanced(fit(_SENTENCE_END.split(text, maxsplit=1)[0], 160, phrases_only=True))
    if NOTES_KEPT.match(text):
        kind = "upkeep"  # "Update release notes": the notes keeping themselves, any heading
    elif (
        _ROUTINE_ENTRY.search(text)
        and not (section == "feature" and _BUMP_ENTRY.match(text))
        and section != "breaking"  # "Refactor internals …" its notes call breaking: it is
    ):
        # A dependency bump or a test fix, under whatever heading; but a bundled engine's
        # update its project lists among its features ("update rolldown to 1.0.0-rc.3") is one.
        kind = "upkeep"
    elif kind in ("fix", "other") and re.search(r"\b(cve-\d+|security|vulnerab\w+)\b", text, re.I):
        kind = "security"
    # Two words are an entry under a heading that says what it is ("integrate devtools");
    # elsewhere they are too few to say anything.
    shortest = 2 if section in ("feature", "fix", "breaking", "security", "perf") else 3
    if len(text.split()) < shortest or text.lower().startswith(
        ("full changelog", "thanks", "see ")
    ):
        return None
    return ReleaseNote(text=text, kind=kind, numbers=numbers)


def _balanced(text: str) -> str:
    """``text`` up to its first code span or parenthesis left open (a sentence cut inside
    one), without the joint before it; ``text`` itself when all are closed."""
    code_at = -1
    opened: list[int] = []
    for at, char in enumerate(text):
        if char == "`":
            code_at = at if code_at < 0 else -1
        elif code_at < 0 and char == "(":
            opened.append(at)
        elif code_at < 0 and char == ")" and opened:
            opened.pop()
    cut = min(at for at in (code_at, *opened[:1], len(text)) if at >= 0)
    return text if cut == len(text) else cut_tidily(text[:cut].rstrip(" ,;:-(\u2013\u2014"))


#: An entry that refuses what was accepted before, outside a section of fixes.
_RESTRICTS = re.compile(
    # Not "Reject syntax errors in X": a checker reporting, not refusing input.
    r"^(?:do not|don't|no longer) (?:accept|allow|permit|support)s?\b",
    re.I,
)
#: An upkeep entry that reworks the project's insides rather than updating what it uses.
_INTERNAL_ENTRY = re.compile(_INTERNAL_WORK, re.I)


#: A heading for what users opt into: "Fixed (unstable)", "Experimental features".
_UNSTABLE = re.compile(r"\b(?:unstable|experimental|nightly)\b", re.I)
#: A fix of how something looks or is worded, not of what it does: "… looked different from
#: other HMR logs", "show filename in CSS minification warnings", "fix typo in …".
_COSMETIC = re.compile(
    r"\b(?:looked|look|looks|typos?|wording|spelling|colou?rs?|logs?|logger|logging"
    r"|messages?|warnings?|hints?|spacing|alignment)\b",
    re.I,
)
_BUMP_ENTRY = re.compile(r"^(?:[\w-]+:\s+)?(?:update|bump|upgrade)\b", re.I)


def upkeep_only(notes: Sequence[ReleaseNote]) -> bool:
    """True when ``notes`` list entries and all of them are upkeep (dependency updates,
    chores, the notes keeping themselves): nothing new for users."""
    return bool(notes) and all(note.kind == "upkeep" for note in notes)


def upkeep_kinds(notes: Sequence[ReleaseNote]) -> str:
    """What ``notes``, all upkeep, are, as a release's summary says it: "dependency updates
    and maintenance", "internal refactoring", or both."""
    internal = sum(1 for note in notes if _INTERNAL_ENTRY.match(note.text))
    if internal == len(notes):
        return "internal refactoring"
    if len(notes) == 1:
        return "a dependency update" if _BUMP_ENTRY.match(notes[0].text) else "maintenance"
    if internal:
        return "dependency updates, internal refactoring and maintenance"
    return "dependency updates and maintenance"


def notable_notes(notes: Sequence[ReleaseNote], limit: int = 2) -> list[ReleaseNote]:
    """The entries of ``notes`` a user most needs to hear of, at most ``limit``: breaking
    changes, security fixes and grave fixes first, then other fixes users hit, features."""

    def rank(note: ReleaseNote) -> tuple[float, int]:
        order: float = NOTE_KINDS.index(note.kind)
        if note.grave:
            order = 1
        elif note.kind == "fix" and not SEVERE.search(note.text):
            order = 3  # a fix of something mild: after the new features
            if _COSMETIC.search(note.text):
                order = 4.5  # how it looks or reads: after any other entry worth saying
        elif note.kind == "feature" and _BUMP_ENTRY.match(note.text):
            order = 4  # a bundled engine's update ("update rolldown to …"): after mild fixes
        if note.unstable:
            order += 2.5  # what few opted into: after what everyone runs, but upkeep
        return (order, notes.index(note))

    said = [note for note in notes if note.kind != "upkeep"] or list(notes)
    return sorted(said, key=rank)[:limit]


def notes_carry(notes: Sequence[ReleaseNote], items: Sequence[Item]) -> list[Item]:
    """The day's ``items`` that ``notes`` link to (the release carries them), in day order."""
    linked = {number for note in notes for number in note.numbers}
    return [item for item in items if item.pull.number in linked]


def count_by_kind(notes: Sequence[ReleaseNote]) -> list[tuple[str, int]]:
    """How many entries of each kind ``notes`` list, in :data:`NOTE_KINDS` order: as their
    headings file them when they have any ("### Bug fixes": ten fixes, a "Fix …" under "Rule
    changes" among the other entries), else by what each says."""
    kinds = [_as_listed(note) for note in notes]
    return [(kind, n) for kind in NOTE_KINDS if (n := kinds.count(kind))]


def _as_listed(note: ReleaseNote) -> str:
    if note.kind in ("upkeep", "breaking", "security"):
        return note.kind  # more than a heading says: a bump under "Bug fixes" is upkeep
    if note.listed in ("fix", "feature", "perf"):
        return note.listed
    if note.listed == "other" and note.kind in ("fix", "feature", "perf"):
        return "other"
    return note.kind


#: A heading for any change of a release: "Patch Changes", "What's Changed", "Changes".
#: A heading over the people a release thanks, not its changes: "Contributors", "New
#: Contributors", "Thanks", "Acknowledgements".
_CREDITS_HEADING = re.compile(r"\b(?:contributors|thanks|acknowledge?ments|credits)\b", re.I)
_ANY_CHANGE_HEADING = re.compile(
    r"^\W*(?:(?:patch|minor|major|other)\s+)?changes\W*$|what'?s\s+changed|changelog", re.I
)


def gather_notes(items: Sequence[Item]) -> list[Item]:
    """``items`` (one day's, any order) with each release whose own notes list no entries
    given the notes its repository wrote ahead of it that day: what the changes merged
    before it, since the repository's previous release, added to the changelog ("Update
    release notes" commits, one entry each)."""
    result = list(items)
    by_repo: dict[str, list[int]] = {}
    for i, item in enumerate(result):
        by_repo.setdefault(item.pull.repo, []).append(i)
    for indexes in by_repo.values():
        written: list[str] = []
        for i in sorted(indexes, key=lambda i: (result[i].pull.merged_at, i)):
            item = result[i]
            if item.kind != "release":
                if item.pull.notes:
                    written.append(item.pull.notes)
                continue
            if written and not release_notes(item.pull):
                heading = f"## {item.version or 'Release'}"
                notes = "\n".join([heading, "", *written])
                result[i] = msgspec.structs.replace(
                    item, pull=msgspec.structs.replace(item.pull, notes=notes)
                )
            written = []
    return result
