"""Turn pull-request titles into news phrases.

A title is parsed once into a :class:`Phrase`: its verb (``Add``) and what follows
(``FP16 support``), or, for a title that is a noun phrase (``Q4k/Q6k improvements``),
no verb. From that, ``"Arm backend: Add FP16 support"`` reads ``"The Arm backend adds
FP16 support"``, and a noun-phrase title reads ``"executorch lands Q4k/Q6k improvements"``.
A title that opens with a word the lexicon does not know but that reads as an
instruction (``Repoint dead links``) is said as one, whatever its verb:
``"executorch lands a change to repoint dead links"``. Titles are never quoted.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable

from msgspec import Struct

from digest.summarize.verbs import (
    AUXILIARIES,
    BASE_FORMS,
    NON_VERB_OPENERS,
    NOUN_FOLLOWERS,
    gerund_of,
    is_finite,
    is_present,
    may_be_verb,
    names_a_change,
    opens_object,
    opens_with_unknown_verb,
    third_of,
    third_person,
    verb_before_object,
)

# Re-exported: callers import it from here.
from digest.text import count as count

# "... and simplify call sites", "..., Updated docs": a second verb joined to the first.
_COORDINATED_VERB = re.compile(r"(,? and |, |; )([A-Za-z]+)\b(?=\s)")
# "a" before a vowel sound; "a one-off", "a euro" and every "u" ("a user") are left alone.
_A_BEFORE_VOWEL = re.compile(r"\b([Aa]) (?=(?!one\b|once\b|eu)[aeioAEIO])")
# Verbs that are no noun, even before "for" or "of" ("Enable for Pallas backend").
_NEVER_NOUNS = frozenset(
    {"add", "allow", "avoid", "delete", "disable", "enable", "ensure", "expose", "implement"}
    | {"introduce", "make", "prevent", "remove"}
)
# Words that make a phrasal verb ("fall back to X"): the thing is not "back to X".
_PARTICLES = frozenset(("back", "up", "out", "off", "down", "away", "over", "through"))
_MD_SPECIAL = re.compile(r"([\\*_\[\]<>!#|~])")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_FIRST_SENTENCE = re.compile(r"(?<=[^\s.])[.!?;]\s+(?=[A-Z`\"'(])")
# A title GitHub cut at its length limit ends in "…", often mid-word: "Small Accuracy Im…".
_TRUNCATED = re.compile(r"\s*\S*(…|\.\.\.)\s*$")
_QUOTES = re.compile('["“”]')
_TAGS = re.compile(r"^(\s*\[[^\]]{1,40}\])+\s*")
_ADVERB = re.compile(r"^([A-Za-z]+ly|always|only|further|also|now|never)$", re.I)


def _verb_like(word: str) -> bool:
    """True when ``word`` is a verb's base form, known or built as one: a known verb with
    something before it ("deepcopy", "autoload") or a verb's ending ("sympify"); not "case"
    in "always case insensitive handlers"."""
    lower = word.lower()
    if not may_be_verb(word) or lower in _DETERMINERS:
        return False
    return (
        lower in BASE_FORMS
        or lower.endswith(("ify", "ize", "ise"))
        or any(lower.endswith(base) and len(base) >= 4 for base in BASE_FORMS)
    )


#: Title prefixes that say what kind of change it is or how far along, never what it is about.
_NOT_SUBJECTS = frozenset(
    [
        *("feat", "feature", "docs", "doc", "chore", "perf", "test", "tests", "refactor"),
        *("style", "build", "ci", "bug", "bugfix", "hotfix", "wip", "draft", "note", "notes"),
        *("breaking", "security", "deps", "internal", "misc", "minor", "cleanup", "release"),
    ]
)
#: Words titles use as nouns as often as verbs, not in the lexicon as verbs ("a compiler pass").
NOUN_OR_VERB = frozenset(("pass", "queue", "process", "map", "group", "order", "list"))
#: Adverbs a title opens with only before its verb: "Only deepcopy X", "Never retry Y".
_VERB_ADVERBS = frozenset(("only", "always", "never"))
_NEGATED = re.compile(r"^(don't|do not|dont|doesn't|does not|no longer)\s+([\w-]+)", re.I)
_LEADING_CLAUSE = re.compile(r"^([A-Z][^,]{2,60}),\s+([A-Za-z][a-z]+)\b")
# Words that open a clause saying where or when an instruction applies ("For X, use Y").
_SETTING = frozenset(
    ("after", "before", "during", "for", "if", "in", "on", "under", "when", "while", "with")
)
# Asides a headline does without: "(e.g. gs://)", "(ported from #1941)", "(#123)", "(WIP)".
_ASIDE = re.compile(r"\s*\((?:e\.g\.|i\.e\.|see |ported |from |#|wip|draft|take \d)[^)]*\)", re.I)
_DANGLING = frozenset(
    [
        "a",
        "an",
        "the",
        "to",
        "for",
        "of",
        "and",
        "or",
        "in",
        "on",
        "with",
        "by",
        "via",
        "from",
        "as",
        "at",
        "into",
        "than",
        "that",
        "which",
        "because",
        "when",
        "if",
        "so",
        "while",
        "since",
        "until",
        "without",
        "using",
        "during",
        "after",
        "before",
        "between",
        "across",
        "against",
        "about",
        "over",
        "under",
        "within",
        "through",
        "per",
        "not",
        # A comparison cut before its adjective: "to make the test more".
        "more",
        "less",
    ]
)

#: A word of a headline, with the characters identifiers carry (``torch.compile``).
_WORD = re.compile(r"[^\W_][\w.+#/-]*[^\W_]|[^\W_]")


class Phrase(Struct, frozen=True):
    """A title read as an action: ``verb`` (third person) and ``rest``, or no verb."""

    #: The verb in the third person (``adds``), or ``""`` when the lexicon knows none.
    verb: str
    #: What follows the verb, or the whole title when there is no verb.
    rest: str
    #: With no verb: True when ``rest`` is an instruction whose verb the lexicon does not
    #: know (``repoint dead links``), False when it is a noun phrase (``Q4k improvements``).
    instruction: bool = False

    def clause(self, subject: str) -> str:
        """``subject`` doing what the title says: ``The Arm backend adds FP16 support``."""
        return f"{subject} {self.predicate()}"

    def predicate(self) -> str:
        """The title as a present-tense predicate: ``adds FP16 support``, ``lands X``,
        ``lands a change to repoint X``."""
        if self.verb:
            return f"{self.verb} {self.rest}"
        return f"lands {'a change to ' if self.instruction else ''}{lower_first(self.rest)}"

    def relative(self) -> str:
        """The title as what a change does, after "one": ``that adds X``, ``to repoint X``."""
        return f"to {lower_first(self.rest)}" if self.instruction else f"that {self.predicate()}"

    def thing(self) -> str:
        """What the change is about, as a noun phrase: ``FP16 support`` (not what a second
        verb adds: ``and uses X``), ``the change to repoint dead links``, ``the change that
        falls back to X`` (a verb's particle needs its verb)."""
        if self.instruction:
            return f"the change to {lower_first(self.rest)}"
        if not self.verb:
            return lower_first(self.rest)
        if self.rest.split(" ", 1)[0].lower() in _PARTICLES:
            return f"the change that {self.predicate()}"
        joined = re.match(r"and (\S+) (?=\S)", self.rest)
        if joined and is_present(joined[1]):  # "lowers and binds the op": the op
            return lower_first(self.rest[joined.end() :])
        second = next(
            (m for m in _COORDINATED_VERB.finditer(self.rest) if is_present(m.group(2))), None
        )
        return lower_first(self.rest[: second.start()] if second else self.rest)


def _third_person_of(word: str) -> str:
    """``word``, a verb the lexicon does not know, in the third person by English's rule."""
    if word.endswith(("s", "sh", "ch", "x", "z", "o")):
        return f"{word}es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return f"{word[:-1]}ies"
    return f"{word}s"


#: "Fix to ensure X", "Fixes in order to make X": a fix named by what it does.
_FIX_PURPOSE = re.compile(r"^(?:fix|fixes|fixed|fixing)\s+(?:in order\s+)?to\s+(?=[a-z])", re.I)


#: A title that says how before what it repairs: "Use ivec4 reads in X to fix Adreno 740
#: bug" (a verb, its means, then the purpose).
_MEANS_THEN_PURPOSE = re.compile(
    r"^(?P<verb>[A-Za-z]+) (?P<how>.+?),? (?:in order )?to (?P<fix>fix|avoid|prevent|resolve)"
    r" (?P<what>.+)$"
)
#: A fault named alone, a count noun wanting its article: "Adreno 740 bug".
_BARE_FAULT = re.compile(r"(?:bug|issue|crash|hang|race|leak|error|regression|problem)$")
_A_FAULT = re.compile(
    r"\b(?:bugs?|crash\w*|hangs?|races?|deadlocks?|leaks?|errors?|panics?|overflows?|corrupt\w*"
    r"|failures?|cycles?|regressions?|issues?)\b",
    re.I,
)


def _by_means(title: str) -> Phrase | None:
    """``title`` told by what it repairs, then how ("fixes an Adreno 740 bug by using ivec4
    reads in X"), when it says how first and what it repairs after "to"; else None."""
    found = _MEANS_THEN_PURPOSE.match(title)
    if found is None or found["verb"].lower() not in BASE_FORMS:
        return None
    verb, what = found["verb"].lower(), found["what"]
    if verb in ("fix", "avoid", "prevent", "resolve") or len(what.split()) > 8:
        return None
    if found["fix"] in ("avoid", "prevent") and not _A_FAULT.search(what):
        return None  # "Multiply in-loop to avoid spills": a means to speed, not a repair
    if _BARE_FAULT.search(what) and what.split(" ", 1)[0].lower() not in _DETERMINERS:
        article = "an" if re.match(r"[aeiouAEIOU]", what) else "a"
        what = f"{article} {what}"
    how = f"{gerund_of(verb)} {found['how']}"
    return Phrase(verb=third_of(found["fix"]), rest=f"{what} by {how}")


def parse_title(title: str, evidence: str = "") -> Phrase:
    """Read ``title`` (already without area prefix) as a :class:`Phrase`.

    Only the first sentence counts; asides in parentheses and a final full stop are dropped.
    ``evidence`` is the change's description: when it uses a title's unknown first word
    as a verb (``traced``, ``tracing``), the title is read as an instruction.
    """
    cut = _TRUNCATED.search(title.strip())
    title = _FIRST_SENTENCE.split(_TRUNCATED.sub("", title.strip()), maxsplit=1)[0]
    # "refactor X; use Y in Z": two short actions are both told ("refactors X and uses Y");
    # of longer ones, the first is the title's action.
    first, semicolon, then = title.partition("; ")
    joined = then.split(" ", 1)[0].lower() in BASE_FORMS and len(title.split()) <= 14
    title = f"{first} and {then}" if semicolon and joined and "; " not in then else first
    title = _trim(" ".join(_ASIDE.sub("", title).split()).split(" ")).rstrip(" .:;,")
    if cut:  # GitHub cut it: its last phrase is likely incomplete too ("to make X more…").
        title = _without_last_phrase(title)
    title = _TAGS.sub("", title) or title  # "[XNNPACK] Don't ...": tags left by a second area.
    # "(prototype) Add support for X": a short aside before the verb says what kind it is.
    title = re.sub(r"^\([A-Za-z ]{2,20}\)\s+(?=\w)", "", title) or title
    title = _A_BEFORE_VOWEL.sub(r"\1n ", title)  # "Add a android log": "an android log"
    head, colon, tail = title.partition(": ")
    if colon and third_person(tail.split(" ", 1)[0]) and len(head.split()) <= 4:
        title = tail  # "arm backend: Update visitors": a second area prefix.
        if (
            re.fullmatch(r"[A-Z][a-z][\w.-]*", head)
            and third_person(head) is None  # "Fix: handle X": a kind, not a subject
            and head.lower() not in _NOT_SUBJECTS
            and not re.search(r"\b(?:in|for) ", tail)
        ):
            # "Pydantic: Warn about discarded extra arguments": what it is about, said.
            title = f"{tail} in {head}"
    if purpose := _FIX_PURPOSE.match(title):
        inner = parse_title(title[purpose.end() :], evidence)
        if inner.verb:  # "Fix to ensure X is delegated": what the fix does, "ensures X ..."
            return inner
    if negated := _NEGATED.match(title):
        verb = third_person(negated.group(2))
        rest = title[negated.end() :].strip()
        if verb:
            return Phrase(verb=f"no longer {verb}", rest=rest)
        word = negated.group(2)
        if rest and re.fullmatch(r"[a-z]{3,}", word):
            # "Don't panic for X": a plain word, conjugated as English does ("panics").
            return Phrase(verb=f"no longer {_third_person_of(word)}", rest=rest)
        if rest:  # "Do not constant-fold buffers": "a change to not constant-fold buffers".
            return Phrase(verb="", rest=f"not {negated.group(2)} {rest}", instruction=True)
    opening = _LEADING_CLAUSE.match(title)
    # "Under interpret mode, Use X"; a verb in lower case only after "For X, ...".
    if (
        opening
        and third_person(opening.group(2))
        and not third_person(title.split(" ", 1)[0])
        and (opening.group(2)[0].isupper() or title.split(" ", 1)[0].lower() in _SETTING)
    ):
        # "Under interpret mode, Use float16": the instruction, then where it applies.
        title = f"{title[opening.start(2) :]} {lower_first(opening.group(1))}"
    if reordered := _by_means(title):
        return reordered
    first, _, rest = title.partition(" ")
    following = rest.split(" ", 1)[0]
    if _ADVERB.match(first) and third_person(following):
        inner = parse_title(rest)
        if inner.verb:  # "Temporarily disable X": the adverb stays with its verb.
            return Phrase(verb=f"{first.lower()} {inner.verb}", rest=inner.rest)
        if rest.count(" "):  # "Correctly check for X": after an adverb, a verb, never a noun
            return Phrase(
                verb=f"{first.lower()} {third_person(following)}", rest=rest.split(" ", 1)[1]
            )
    words = rest.split(" ")
    if (
        len(words) >= 3
        and words[0].lower() == "and"
        and first.lower() in BASE_FORMS
        and third_person(first)
        and may_be_verb(words[1])
        and not is_present(words[2])
    ):
        # "Fix and polish the toggle switch": two verbs sharing one object.
        both = f"{third_person(first)} and {_third_person_of(words[1].lower())}"
        return Phrase(verb=both, rest=" ".join(words[2:]))
    if (
        first.lower() in NOUN_OR_VERB
        and len(words) >= 3
        and re.fullmatch(r"[a-z]+[^s]s", words[0])
        and words[1].lower() in ("to", "into", "through", "onto", "from", "by", "as")
    ):
        # "Pass panics to the fallback handler", "Group results by stage": a verb, its
        # object, and where it sends it (not "Pass manager cleanup").
        return Phrase(verb=_third_person_of(first.lower()), rest=rest)
    if first.lower() in NOUN_OR_VERB and len(words) >= 3 and words[0].lower() in _PARTICLES:
        # "Pass through X to the check": a verb and its particle, never "a pass".
        return Phrase(verb=_third_person_of(first.lower()), rest=rest)
    if (
        first.lower() in _VERB_ADVERBS
        and len(words) >= 2
        and _verb_like(words[0])
        and not is_present(words[1])
    ):
        # "Only deepcopy non-updated fields": after "only", "always", "never" comes the verb,
        # known or not ("only deepcopies non-updated fields").
        return Phrase(
            verb=f"{first.lower()} {_third_person_of(words[0])}", rest=" ".join(words[1:])
        )
    if (
        _ADVERB.match(first)
        and first.lower() not in NON_VERB_OPENERS
        and opens_with_unknown_verb(rest, evidence)
    ):
        # "Only init X when needed", "Properly log steps"
        return Phrase(verb="", rest=title, instruction=True)
    # "Updates to the docs" and "Changes in X" are nouns; "Move to uv" is a verb.
    plural_noun = first.lower().endswith("s") and following.lower() in ("to", "in", "on")
    # "Support and fixes for X" is a noun; "Annotate and document X" two verbs.
    after_and = rest.split(" ", 2)[1] if following.lower() == "and" and " " in rest else ""
    noun = (
        following.lower() in NOUN_FOLLOWERS
        and after_and.lower() not in BASE_FORMS
        and first.lower() not in _NEVER_NOUNS
    ) or _participle(first, following)
    verb = (
        None if noun or plural_noun else third_person(first) or verb_before_object(first, following)
    )
    joined = after_and.lower() in BASE_FORMS and not names_a_change(rest.split()[:4])
    if verb is None and joined and may_be_verb(first):
        verb = third_of(first)  # "Model and validate X": joined to a verb, it is one too.
    if (
        not verb
        and rest
        and _VERB_SUFFIX.search(first)
        and opens_with_unknown_verb(title, evidence)
    ):
        # "Contextualize generator yields", "Sympify X": a verb by its ending, conjugated.
        verb = third_of(first)
    if not verb or not rest:
        # A lone verb ("simplify") is an instruction with nothing after it.
        lone = bool(verb) and not rest and first[:1].islower()
        return Phrase(
            verb="",
            rest=title,
            instruction=lone or (not verb and opens_with_unknown_verb(title, evidence)),
        )
    if verb == "speeds" and rest.lower().startswith("up "):
        verb, rest = "speeds up", rest[3:]
    # "an environment variable for `UV_X`": the `UV_X` environment variable.
    rest = _NAMED_FOR.sub(lambda m: f"the {m[2] or m[4]} {m[1] or m[3]}", rest)
    return Phrase(verb=verb, rest=with_places(with_article(verb, conjugate_coordinated(rest))))


#: The endings English makes verbs with: "contextualize", "sympify".
_VERB_SUFFIX = re.compile(r"^[A-Za-z]{3,}(?:ize|ise|ify)$")
#: Past forms a changelog-style title opens with as its verb ("Added X", "Fixed Y"); any
#: other past form before a noun describes it ("Computed GROUP keys", "Shared helpers").
_CHANGELOG_PAST_WORDS = """
    added fixed removed updated improved changed deprecated renamed moved refactored
    implemented enabled disabled introduced replaced bumped upgraded reverted dropped
    switched optimized optimised simplified extended exposed allowed used cleaned migrated
    converted supported documented corrected prevented avoided handled restored resolved
    reworked increased reduced raised lowered skipped ensured unified merged adjusted
    tweaked clarified marked registered integrated wired ported landed applied addressed
    stopped made kept rewrote wrote split set built ran
"""
_CHANGELOG_PAST = frozenset(_CHANGELOG_PAST_WORDS.split())


def _participle(first: str, following: str) -> bool:
    """True when a title's ``first`` word is a past form that describes the noun after it
    (``Computed GROUP keys``) rather than says what the change did (``Added X``)."""
    word = first.lower()
    return (
        word.endswith("ed")
        and word not in _CHANGELOG_PAST
        and word not in BASE_FORMS
        and bool(re.fullmatch(r"[A-Za-z][\w-]*", following))
        and following.lower() not in _DETERMINERS
        and following.lower() not in _NP_END
    )


#: Verbs whose object a title writes without its article ("Fix panic in X", "Add backend
#: registry"); the edition's sentence needs it back.
_TAKES_OBJECT_WORDS = "adds fixes introduces implements avoids prevents exposes creates"
_TAKES_OBJECT = frozenset(_TAKES_OBJECT_WORDS.split())
#: Verbs that change something already there: its object takes "the" ("refactors the model
#: converter").
_TAKES_KNOWN_WORDS = """
    refactors rewrites reworks simplifies updates improves removes renames moves truncates
    preserves restores resets respects honors honours reuses detects validates bumps
    raises lowers shows optimizes visits
"""
_TAKES_KNOWN = frozenset(_TAKES_KNOWN_WORDS.split())
#: Singular nouns that need an article when they head the object ("a panic", "an option").
_COUNTABLE_WORDS = """
    panic crash hang deadlock leak race regression bug error overflow underflow segfault
    typo registry option flag argument parameter method function helper decorator command
    rule lint check mode setting field hook endpoint metric wrapper warning variable
    fallback workaround guard message script utility class module subcommand validator
    parser lexer formatter attribute property builder iterator adapter converter loader
    reader writer runner scheduler handler manager planner resolver allocator tracer
    profiler logger server client worker pipeline op operator pass kernel backend example
    template variant interface callback queue buffer decorator context manager list model
    node phase file event path cache key table graph loop window schema column frame tensor
    layer diagnostic refactor signature scope hint root directory target step dialog page
    request response entry output result stack thread task process compiler engine struct
    token expression statement selector plugin package crate library snapshot checkpoint
    optimizer trainer dataset dataloader mask lockfile workspace registry tracker api barrier
    walker visitor filename issue block threshold size positive negative component button
    element directive constraint limit socket channel stream driver timer pool problem policy
    autofix assertion failure mismatch sort type
"""
_COUNTABLE = frozenset(_COUNTABLE_WORDS.split())
_RAISED = frozenset(("error", "exception", "warning"))
#: Words that end the object's noun phrase: a preposition, a conjunction, a clause.
_NP_END_WORDS = """
    in for to of on with when from by at into during after before that which and or if
    while where so because as than via caused triggered introduced reported thrown
"""
_NP_END = frozenset(_NP_END_WORDS.split())
_DETERMINER_WORDS = """
    a an the this that these those its their our your some any all each every no one two
    three both multiple several many more most another other
"""
_DETERMINERS = frozenset(_DETERMINER_WORDS.split())


def with_article(verb: str, rest: str) -> str:
    """``rest``, the object of ``verb``, with the article a title leaves out: ``fixes`` +
    ``panic in debug log`` -> ``a panic in debug log``; ``adds`` + ``backend registry`` ->
    ``a backend registry``; ``refactors`` + ``model converter`` -> ``the model converter``
    (what a change reworks is already there). Left as it is unless its noun phrase is plain
    lower-case words headed by a singular noun known to need one."""
    if verb not in _TAKES_OBJECT and verb not in _TAKES_KNOWN:
        return rest
    words = rest.split(" ")
    # "@metal_jit decorator", "`fuse_rope` flag", "'try_io' function": a thing called by its
    # name in code is that one thing: "the @metal_jit decorator".
    if (
        len(words) >= 2
        and re.fullmatch(r"@[\w.]+|`[^`\s]+`|'[^'\s]+'|[A-Za-z]\w*_\w+", words[0])
        and words[1].lower() in _COUNTABLE
        and (len(words) == 2 or words[2].lower() in _NP_END)
    ):
        return f"the {rest}"
    phrase: list[str] = []
    for word in words:
        # Names may describe the noun ("PReLU decomposition pass", "update_and_attend op").
        if word.lower() in _NP_END or not re.fullmatch(r"[A-Za-z][\w-]*", word):
            break
        if phrase and word.lower() in _DETERMINERS:
            return rest  # "give a specific error": a verb's own object, not one noun phrase
        phrase.append(word)
    coordinated = len(phrase) < len(words) and words[len(phrase)].lower() in ("and", "or")
    if coordinated and len(words) > len(phrase) + 1 and is_present(words[len(phrase) + 1]):
        coordinated = False  # "model converter and uses X": a second verb, not a second noun
    if (
        not phrase
        or coordinated  # "argument and type parameters inference": which noun heads it?
        or len(phrase) > 4
        or phrase[0] in _DETERMINERS
        or phrase[-1].lower() not in _COUNTABLE
        or (
            len(phrase) < len(words)
            and not re.fullmatch(r"[a-z][a-z-]*", words[len(phrase)])
            and words[len(phrase)].lower() not in _NP_END
        )
    ):
        return rest
    first = phrase[0]
    if verb in _TAKES_KNOWN and not (verb == "raises" and phrase[-1] in _RAISED):
        return f"the {rest}"  # "raises the recompile limit", but "raises an error"
    # "an f-string", "an x86 build", "an FP8 kernel": a letter said by its name opens with
    # a vowel sound.
    if re.match(r"[A-Z][A-Z0-9]", first):
        vowel = first[0] in "AEFHILMNORSX"
    else:
        # "a unique", "a user", "a utility"; "an unused", "an unsafe".
        vowel = first[0].lower() in "aeio" or (
            first[0].lower() == "u" and not first.lower().startswith(("uni", "us", "uti", "ur"))
        )
        vowel = vowel or bool(re.match(r"[fhlmnrsx]-", first))
    return f"{'an' if vowel else 'a'} {rest}"


#: A setting a title names as being "for" its own name: "an environment variable for
#: `UV_NO_PROJECT`" is the `UV_NO_PROJECT` environment variable.
_NAMED_FOR = re.compile(
    r"\b(?:an?|the) (environment variable|env var) for (`[A-Z][A-Z0-9]*_[A-Z0-9_]+`)"
    r"|\b(?:an?|the) (flag|option) for (`--[a-z][\w-]*`)"
)
#: Prepositions before a place or thing a title names without its article ("in semantic
#: model", "for triton quant kernel"); not "at" or "by" ("at runtime", "by default"), nor
#: "on", whose object is as often a fault ("a crash on negative column", "on todo panic").
_PLACE_PREPOSITION_WORDS = "in inside within during into from for with"
_NOT_PLACE_PREPOSITION = rf"(?!(?:{'|'.join(_PLACE_PREPOSITION_WORDS.split())})\b)"
_PLACE_PREPOSITIONS = re.compile(
    rf"\b({'|'.join(_PLACE_PREPOSITION_WORDS.split())}) "
    # Up to four words, none a preposition: "for MoE inference in vLLM wrapper" leaves "in
    # vLLM wrapper" to be read on its own.
    rf"((?:{_NOT_PLACE_PREPOSITION}[A-Za-z][A-Za-z0-9-]* ){{0,3}}"
    rf"{_NOT_PLACE_PREPOSITION}[a-z][a-z0-9-]*)\b(?![.(\w])"
)
#: "in place", "in debug mode", "in pip list": a preposition and a noun that need no
#: article, or a noun that names a mode or a command more often than a thing.
_IDIOM_WORDS = "place error failure success exit startup use save demand request mode list"
_IDIOMS = frozenset(_IDIOM_WORDS.split())
_IDIOM_PAIRS = {("for", "example"), ("for", "instance"), ("with", "care")}


_NP_END_PLACE = _NP_END - {"and", "or"}  # "in field and enum filters": which noun heads it?


def with_places(rest: str) -> str:
    """``rest`` with "the" put back where a title names a place without it: ``resolves
    references in semantic model`` -> ``… in the semantic model``; ``fixes a regression in
    previous refactor`` -> ``… in the previous refactor``. Only plain lower-case words headed
    by a singular noun known to take one, the phrase ending there."""

    def put_back(match: re.Match[str]) -> str:
        words = match[2].split(" ")
        following = re.match(r" ([a-z]+)\b", match.string[match.end() :])
        tail = [following[1]] if following else []  # "in match statement class patterns"
        for end in range(len(words), 0, -1):
            head, after = words[end - 1], [*words[end:], *tail]
            if head in _COUNTABLE and (not after or after[0] in _NP_END_PLACE):
                phrase = words[:end]
                opened = any(w.lower() in _DETERMINERS or w in _NP_END for w in phrase)
                # "for clearing context", "from Callable returning type guard": a verb's
                # object; "in streaming engine" is a place.
                verbal = any(w.endswith("ing") for w in phrase[:-1])
                opened = opened or (verbal and match[1] in ("for", "with", "from"))
                if opened or head in _IDIOMS or (match[1], match[2]) in _IDIOM_PAIRS:
                    return match[0]
                if words[0] in ("single", "separate"):
                    return f"{match[1]} a {match[2]}"  # "into a single sort": one of many
                return f"{match[1]} the {match[2]}"
        return match[0]

    return _PLACE_PREPOSITIONS.sub(put_back, rest)


def conjugate_coordinated(rest: str, strict: bool = False) -> str:
    """``rest`` of an instruction with the verbs joined to its first one in the third
    person: ``X, validate Y and use Z`` -> ``X, validates Y and uses Z``.

    ``strict`` (for descriptions, whose lists name ops: "exp, elu, transpose conv1d")
    takes only a verb before its object ("and use the plan", ", check its limits").
    """
    # The space lets "and document X" right after the verb be conjugated too.
    if not strict:
        joined = _COORDINATED_VERB.sub(_conjugate_coordinated, f" {rest}")[1:]
        # "adds X, removes Y": two actions a comma alone joins are joined by "and".
        verbs = [m for m in _COORDINATED_VERB.finditer(f" {joined}") if is_present(m[2])]
        if verbs and not any("and" in m[1] for m in verbs) and verbs[-1][1] == ", ":
            last = verbs[-1]
            joined = f"{joined[: last.start() - 1]} and {joined[last.start(2) - 1 :]}"
        return joined
    return _JOINED_VERB.sub(_conjugate_joined, f" {rest}")[1:]


# "..., and ensure it is", ", use the plan": a verb after "and" or a comma, then its object.
_JOINED_VERB = re.compile(r"(,? and |, |; )([a-z]+)(?= (\S+))")


def _conjugate_joined(match: re.Match[str]) -> str:
    word, following = match.group(2), match.group(3)
    # "… and stop ignoring it": a known verb's "-ing" form is its object too.
    gerund = following.endswith("ing") and third_person(following) is not None
    if word in BASE_FORMS and (opens_object(following) or gerund):
        return f"{match.group(1)}{third_of(word)}"
    return match.group(0)


def _without_last_phrase(title: str) -> str:
    """``title`` cut before its last phrase ("X to make Y" -> "X") when three words or
    more are left, else as it is."""
    lower = title.lower()
    at = max(lower.rfind(joint) for joint in _JOINTS)
    return _trim(title[:at].split(" ")) if at > 0 and len(title[:at].split()) >= 3 else title


def _conjugate_coordinated(match: re.Match[str]) -> str:
    # Only a second imperative, or a capitalised verb starting a new clause, is conjugated:
    # "computed once and shared by" stays as it is.
    word = match.group(2)
    verb = third_person(word)
    if verb and (word in BASE_FORMS or (word[:1].isupper() and word[1:].islower())):
        return f"{match.group(1)}{verb}"
    return match.group(0)


_SMALL_NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def say_count(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` things as prose says them: spelled out below ten (``two changes``), else in
    figures (``12 changes``); ``plural`` when adding an s would not do (``fixes``)."""
    said = count(n, singular, plural)
    return f"{_SMALL_NUMBERS[n]}{said[len(str(n)) :]}" if 0 <= n < 10 else said


def lower_first(text: str, context: str = "") -> str:
    """Lower-case the first letter of ``text`` unless its first word looks like a name (``MLX``)
    or opens a run of capitalised words (``Softmax Output Quantization``: a name as well), or
    ``context`` (the text it comes from) capitalises it mid-sentence (``Python``)."""
    first, *more = text.split(" ", 2)
    if len(first) > 1 and (first[1:] != first[1:].lower() or not first[0].isalpha()):
        return text
    if re.fullmatch(r"[A-Z]{1,5}\d{2,}", first.strip("`,:;")):
        return text  # "B023 flags lambdas …": a rule's code, as its tool writes it
    if context and re.search(rf"[\w,;:)`] {re.escape(first)}\b", context):
        return text  # "… in the maintained Python projects": a name wherever it stands
    plain_word = first.lower() in _NP_END or first.lower() in _DETERMINERS  # "For Monarch …"
    capitalised = [w for w in (first, *more[:1]) if re.fullmatch(r"[A-Z][a-z]+", w)]
    if len(capitalised) == 2 and not plain_word:
        return text
    return text[:1].lower() + text[1:]


def upper_first(text: str) -> str:
    """Capitalise the first letter of ``text`` (a sentence starts with a capital)."""
    return text[:1].upper() + text[1:]


def headline_case(text: str, names: Iterable[str], words: Iterable[str] = ()) -> str:
    """Return headline ``text`` in sentence case, as it is stored (pages set it in capitals).

    A headline written in capitals (as models often write one) is lowered word by word,
    each word taking back the case it has in ``names`` (the repositories as the edition
    writes them) or ``words`` (the day's titles: ``LazyFrame``, ``CUDA``). The first letter
    is capitalised unless the headline opens with one of ``names`` (``uv adds …``).
    """
    text = text.strip()
    cased = {w.casefold(): w for w in _WORD.findall(" ".join(words))}
    cased.update({w.casefold(): w for name in names for w in _WORD.findall(name)})
    if text and not any(c.islower() for c in text):
        text = _WORD.sub(lambda m: cased.get(m[0].casefold(), m[0].lower()), text)
    first = _WORD.match(text)
    if first is not None and first[0] in {w for name in names for w in _WORD.findall(name)}:
        return text
    return upper_first(text)


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


#: Adverbs a cut at a comma may leave alone at the end ("…, mainly" before "for OpenAPI").
_LONE_ADVERBS = frozenset(
    [
        "mainly",
        "mostly",
        "only",
        "also",
        "even",
        "especially",
        "notably",
        "particularly",
        "primarily",
        "partly",
        "largely",
        "currently",
        "now",
        "previously",
    ]
)


def _tags_named(text: str) -> str:
    """``text`` without HTML tags, but a bare one it names rather than uses ("skip
    unsupported <script> types": no closing tag follows) kept as its name in angle quotes."""

    def named(tag: re.Match[str]) -> str:
        bare = re.fullmatch(r"<([A-Za-z][\w:-]*)\s*/?>", tag[0])
        if bare and f"</{bare[1].lower()}" not in text.lower():
            return f"\u2039{bare[1]}\u203a"
        return ""

    return _TAG.sub(named, text)


def plain(text: str) -> str:
    """Return ``text`` as plain text: no backticks, double quotes, HTML tags (one that names
    an element, "skip unsupported <script> types", keeps its name in angle quotes) or
    escapes."""
    text = _QUOTES.sub("", _tags_named(text).replace("`", ""))
    text = re.sub(r"\\([\\*_\[\]<>!#|~`])", r"\1", text)
    return text.replace("<", "\u2039").replace(">", "\u203a")


_JOINTS = (" and ", " with ", " by ", " for ", " via ", " in ", " to ", ", ", " when ", " if ")


def fit(text: str, limit: int, phrases_only: bool = False) -> str:
    """Shorten ``text`` to at most ``limit`` characters, at a phrase boundary if possible.

    Clauses are cut before the last " and ", " with ", " by ", " for ", " via ", " in ",
    " to ", ", ", " when " or " if " that fits (keeping at least half the limit), else at
    the last whole word, or, with ``phrases_only``, not at all (``""``); never with an
    ellipsis and never ending on an article, preposition, conjunction or auxiliary.
    """
    if len(text) <= limit:
        return text
    if limit < 1:
        return ""
    lower = text.lower()
    cuts = sorted(
        (at for joint in _JOINTS for at in _finds(lower, joint, limit + len(joint))), reverse=True
    )
    # Not after a bare noun that says nothing without what follows ("adds support", "the
    # fix"); "adds softmax support" is whole.
    cut = next((at for at in cuts if not _bare_noun(lower[:at].rsplit(" ", 2)[-2:])), -1)
    if cut >= limit // 2:
        kept = text[:cut]
        # "X options, defaults" (cut before "to ..."): a lone verb or adverb after a comma
        # ("..., mainly" cut before "for OpenAPI") goes too; a list's last item stays.
        lone = re.search(r",\s+(\S+)$", kept)
        if (
            lone
            and lone.start() >= limit // 2
            and (third_person(lone.group(1)) or lone[1] in _LONE_ADVERBS)
        ):
            kept = kept[: lone.start()]
        return _trim(kept.split(" "), cut=True)
    if phrases_only:
        return ""
    return _trim(text[: limit + 1].split(" ")[:-1], cut=True) or text[:limit]


#: Nouns a phrase cannot end on: they name nothing without their complement.
_INCOMPLETE = frozenset(
    [
        *("support", "fix", "removal", "change", "function", "option", "target", "method"),
        *("flag", "rule"),
    ]
)


def _bare_noun(last: list[str]) -> bool:
    """True when the ``last`` two words end on a noun of :data:`_INCOMPLETE` with nothing
    naming it: after an article, a preposition or a verb."""
    if not last or last[-1] not in _INCOMPLETE:
        return False
    before = last[0] if len(last) == 2 else ""
    return not before or before in _DANGLING or is_present(before)


def _finds(text: str, joint: str, end: int) -> list[int]:
    """Where ``joint`` starts in ``text[:end]``, every occurrence."""
    found, at = [], text.find(joint, 0, end)
    while at != -1:
        found.append(at)
        at = text.find(joint, at + 1, end)
    return found


def cut_tidily(text: str) -> str:
    """``text``, cut short of what followed it, without the dangling words a cut leaves
    ("Add `foo` and" -> "Add `foo`")."""
    return _trim(text.split(), cut=True)


def _trim(words: list[str], cut: bool = False) -> str:
    """``words`` joined, without a dangling last word or an aside the cut left open; when
    they were ``cut`` from a longer text, nor a clause or a gerund left without its end."""
    text = ""
    while True:
        if len(words) > 2 and _ELLIPTICAL.fullmatch(" ".join(words[-2:]).lower().strip(",;:")):
            return " ".join(words)  # "… only when needed": a clause that ends so
        while words and _dangles(words[-1].lower().strip(",;:-")):
            words.pop()
        if not cut:
            text = " ".join(words).rstrip(",;:-")
            if text.count("(") <= text.count(")"):
                return text
            words = text[: text.rfind("(")].split()
            continue
        # "… for detecting when meshes" (cut before "need to be re-queued"): a clause
        # opened and left without its verb goes whole.
        opened = [i for i, w in enumerate(words) if w.lower() in _SUBORDINATORS]
        if opened and len(words) - opened[-1] <= 3:
            tail = words[opened[-1] + 1 :]
            if not any(is_finite(w.lower().strip(",;:")) for w in tail):
                words = words[: opened[-1]]
                continue
        # "… instead of ticks for detecting": a gerund after its preposition, its object cut.
        if (
            len(words) > 2
            and words[-2].lower() in _DANGLING
            and words[-1].endswith("ing")
            and words[-3].lower() not in _INCOMPLETE  # "support for padding" is whole
        ):
            words = words[:-2]
            continue
        text = " ".join(words).rstrip(",;:-")
        if text.count("(") <= text.count(")"):
            return text
        words = text[: text.rfind("(")].split()


#: A clause left elliptical on purpose: "when needed", "if possible", "as required".
_ELLIPTICAL = re.compile(
    r"(?:when|if|where|as|unless) (?:needed|necessary|possible|required|applicable|available"
    r"|appropriate|enabled|present|missing|set|supported)"
)
#: Words that open a clause whose verb must follow: "when meshes need …".
_SUBORDINATORS = frozenset(("when", "whenever", "where", "while", "whether", "because", "unless"))
#: Words that wait for a verb after them: "where files were", "X can", "it will be".
_WAITING = AUXILIARIES | {"be", "been", "being"}
# "… when meshes need" cut before "to be re-queued": a verb waiting for what it needs.
_WAITING |= {"need", "needs", "needed", "want", "wants", "wanted", "able", "going", "tries"}
#: Words ending in "ly" that are no adverbs.
_NOT_ADVERBS = frozenset(
    [
        *("apply", "supply", "reply", "family", "assembly", "anomaly", "multiply", "rely"),
        *("italy", "july", "poly", "comply"),
    ]
)


def _dangles(word: str) -> bool:
    """True when a text cut after ``word`` is left hanging: an article, a preposition, a
    conjunction, an auxiliary ("were") or an adverb waiting for its verb ("incorrectly")."""
    return (
        word in _DANGLING
        or word in _WAITING
        # An adverb is a plain word: "batch.apply" or "only_if_ready" is a name.
        or (word.endswith("ly") and len(word) > 4 and word.isalpha() and word not in _NOT_ADVERBS)
    )


def ends_dangling(text: str, code: frozenset[str] = frozenset()) -> bool:
    """True when ``text`` ends on an article, preposition or conjunction (a cut phrase); not
    when it ends on a code span (``{/if}``, ``not in``: what a program types), nor on a word
    of ``code``, the words a title writes as code (a plain text lost its backticks)."""
    text = text.rstrip(" .!?")
    if text.endswith("`"):
        return False
    words = re.findall(r"[\w'-]+", text)
    return bool(words) and words[-1] in _DANGLING and words[-1] not in code


def long_date(day: dt.date) -> str:
    """``2026-07-01`` -> ``July 1, 2026``."""
    return f"{day:%B} {day.day}, {day.year}"


def join_words(parts: list[str]) -> str:
    """``["a", "b", "c"]`` -> ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]
