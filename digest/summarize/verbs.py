"""The verbs the writers recognise in pull-request titles and bodies, in all their forms.

Titles are imperative ("Add X"), bodies mix imperatives, third-person ("Adds X") and past
forms ("Added X"). :data:`THIRD_PERSON` maps every form to the third person singular, which
is what a news sentence needs; :data:`BASE_FORMS` is the set of imperatives. No list knows
every verb: :func:`opens_with_unknown_verb` tells from the words around it whether a word
the lexicon does not know opens an instruction ("Repoint dead links").
"""

from __future__ import annotations

import re

# Base forms. "Pass", "benchmark", "log", "patch" and "trace" are left out on purpose: in
# titles they are nouns as often as verbs (see :func:`verb_before_object`).
_BASE_WORDS = """
accelerate accept add address adjust adopt advance align allocate allow annotate append apply
attempt audit automate avoid backport batch block bound break bring broadcast buckify build bump
bundle cache calculate call cap capture cast catch centralize change check clamp clarify
classify clean clear collect combine compact compute conduct configure consolidate convert copy
correct cover create customize declare decompose decouple decrease dedup dedupe deduplicate
default defer define delegate delete deploy deprecate detect disable disallow dispatch
discover distinguish document downgrade download drive drop dump edit elide eliminate embed emit
enable enforce enhance ensure evaluate exclude execute expand expect explain export expose
extend extract factor fall fetch filter finalize fit fix flatten fold force format forward
free fuse gate gather generalize generate get give graduate group guarantee guard handle harden hide
hoist hold hook ignore implement import improve include increase infer initialize inline
insert install integrate introduce keep land launch let lift limit link load lower make mark
match materialize measure merge migrate mirror mitigate mock modernize modify move narrow
need normalize obey omit optimise optimize override pack package pad parallelize parametrize
parse partition permit persist pin plumb populate port prefer prefetch prepare preserve
prevent print probe promote propagate prune publish pull put quantize raise re-enable
re-introduce re-order re-sync read reapply rebase rebuild recognise recognize recompute
record reduce reenable refactor refine refresh register reimplement reinitialize reintroduce
reject relax release reload relocate remap remove rename reorder reorganize repack replace
replicate report require reserve reset resize resolve respect restore restrict restructure
retire retry return reuse revert review reword rework rewrite rollback route run sanitize
save scale scan schedule seed select separate serialize set shard share ship show shrink
simplify skim skip slice sort specialize specify speed split squash stabilize standardize
start stash stop store streamline strengthen strip suggest supply support suppress swap
switch sync tag teach throw tighten toggle track transpose treat trigger trim try tune turn
unblock unbreak undo unify unmark unpin unroll unskip unwrap upcast update upgrade upstream
use validate vectorize verify warn watch widen wire wrap write yield
dequantize fail finish provide recompile requantize rerun resume solve
admit assert broaden bypass cancel collapse compare compress constrain decide decompress
determine distribute divide emulate hand highlight instruct isolate kill legalize loosen
mention prioritize recommend re-implement reexport reformat repoint rescale resurface
give retrieve revise shorten surface tell touch upload
accumulate aggregate assign attach bind connect construct contain decode delay deliver
derive describe detach encode evict fill flip inject invalidate invoke iterate mute notify
offload pick precompute preload protect push receive repeat restart send serve silence
spawn take translate unpack wait walk
freeze unfreeze visit reassign coerce memoize flush escape unescape truncate debounce
throttle hydrate honor honour reconnect rethrow revalidate downcast recurse lay
inform alert advise repair compile
render rerender display redirect reconcile regenerate indent dedent quote unquote tolerate
parenthesize normalise unset clone multiply employ lex tokenize tokenise replay
ban provision borrow standardise precalculate deserialize recover retain reclaim suspend
coalesce reschedule deprioritize demote bootstrap unvendor intern rehash unlock close
"""
_BASES = _BASE_WORDS.split()
_IRREGULAR_PAST = {
    "bring": "brought",
    "build": "built",
    "hold": "held",
    "fall": "fell",
    "give": "gave",
    "keep": "kept",
    "let": "let",
    "make": "made",
    "read": "read",
    "rewrite": "rewrote",
    "run": "ran",
    "rerun": "reran",
    "set": "set",
    "shrink": "shrank",
    "split": "split",
    "teach": "taught",
    "tell": "told",
    "take": "took",
    "send": "sent",
    "bind": "bound",
    "freeze": "froze",
    "lay": "laid",
    "unfreeze": "unfroze",
    "write": "wrote",
    "throw": "threw",
    "rethrow": "rethrew",
    "catch": "caught",
    "get": "got",
    "hide": "hid",
    "break": "broke",
    "broadcast": "broadcast",
    "cast": "cast",
    "upcast": "upcast",
    "downcast": "downcast",
    "reset": "reset",
    "unset": "unset",
    "put": "put",
    "fit": "fit",
    "rebuild": "rebuilt",
    "undo": "undid",
    "override": "overrode",
    "drive": "drove",
}
# Longer verbs that double their final consonant too (most are stressed on the last
# syllable): "committed", "unskipping", "formatted".
_DOUBLING = frozenset(
    {"admit", "commit", "control", "format", "permit", "prefer", "reformat", "submit"}
    | {"unpin", "unskip", "unwrap"}
)
#: After these, a title's first word is a noun ("Support for X", "Fix of Y"), not a verb.
NOUN_FOLLOWERS = frozenset({"for", "of", "is", "was", "and"})


def third_of(base: str) -> str:
    """The third person singular of any verb ``base``, known or not: ``model`` -> ``models``."""
    return _third(base.lower())


def _third(base: str) -> str:
    if base.endswith(("s", "sh", "ch", "x", "z", "o")):
        return base + "es"
    if re.search(r"[^aeiou]y$", base):
        return base[:-1] + "ies"
    return base + "s"


def gerund_of(base: str) -> str:
    """The "-ing" form of the verb ``base``: ``use`` -> ``using``, ``pin`` -> ``pinning``."""
    base = base.lower()
    if base.endswith("e") and not base.endswith(("ee", "ye", "oe")):
        return base[:-1] + "ing"
    return (base + base[-1] if _doubles(base) else base) + "ing"


def _doubles(base: str) -> bool:
    one_syllable = len(re.findall(r"[aeiouy]+", base)) == 1
    return bool(re.search(r"[^aeiou][aeiou][bdgmnprt]$", base)) and (
        one_syllable or base in _DOUBLING
    )


def _forms() -> tuple[dict[str, str], frozenset[str], dict[str, str]]:
    forms: dict[str, str] = {}
    finite: set[str] = set()
    pasts: dict[str, str] = {}
    for base in _BASES:
        third = _third(base)
        stem = base + base[-1] if _doubles(base) else base
        gerund = gerund_of(base)
        if base.endswith("e") and not base.endswith("ee"):
            past = base + "d"
        elif re.search(r"[^aeiou]y$", base):
            past = base[:-1] + "ied"
        else:
            past = stem + "ed"
        past = _IRREGULAR_PAST.get(base, past)
        forms.update({past: third, gerund: third, third: third, base: third})
        finite.update((third, past))
        pasts[third] = past
    return forms, frozenset(finite), pasts


#: Every known form (base, third person, past, gerund) -> the third person singular;
#: the forms that make a clause finite (third person, past); and the third person
#: singular of each verb -> its past.
THIRD_PERSON, _FINITE, _PAST = _forms()
#: Every base (imperative) form.
BASE_FORMS = frozenset(_BASES)
#: Auxiliaries and common finite verbs that make a clause a sentence.
AUXILIARIES = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "has",
        "have",
        "had",
        "can",
        "could",
        "will",
        "would",
        "should",
        "may",
        "might",
        "must",
        "does",
        "do",
        "did",
        "gets",
        "got",
        "becomes",
        "became",
    ]
)


def third_person(word: str) -> str | None:
    """The third-person singular of ``word`` (any known form, any case; a known verb done
    again, ``re-run``, too), else None."""
    lower = word.lower()
    if lower.startswith("re-") and lower[3:] in BASE_FORMS and not lower[3:].startswith("re"):
        return f"re-{third_of(lower[3:])}"  # "re-run" -> "re-runs"
    return THIRD_PERSON.get(lower)


#: Verbs an action item may open with, besides every base form.
ACTION_VERBS = BASE_FORMS | {
    *("re-run", "re-test", "re-benchmark", "re-export", "monitor", "plan", "test", "benchmark"),
    "pass",
}


def is_imperative(first: str, following: str) -> bool:
    """True when a sentence starting ``first following...`` opens with a bare base verb.

    ``Override allows X`` is not: a finite verb next makes the first word a noun.
    """
    following = following.lower().strip(",;:")
    return (
        first.lower() in BASE_FORMS
        and following not in NOUN_FOLLOWERS
        and (
            following not in _FINITE
            or following in BASE_FORMS
            # "Add fused kernels": a verb no one opens a sentence with as a noun.
            or (first.lower() in _NEVER_NOUNS and following not in AUXILIARIES)
        )
    )


#: Base verbs that open a sentence only as an instruction, whatever follows them.
_NEVER_NOUN_WORDS = """
    add remove introduce implement enable disable rename allow avoid ensure prevent expose
    extend create delete
"""
_NEVER_NOUNS = frozenset(_NEVER_NOUN_WORDS.split())


#: Present auxiliaries and their past: "is" -> "was", "doesn't" -> "didn't".
_PAST_AUXILIARIES = {
    **{"is": "was", "are": "were", "has": "had", "does": "did", "can": "could", "will": "would"},
    **{"isn't": "wasn't", "aren't": "weren't", "doesn't": "didn't", "don't": "didn't"},
    **{"can't": "couldn't", "cannot": "could not", "won't": "wouldn't", "hasn't": "hadn't"},
}


#: Verbs a description tells a fault or a state with, in the third person, and their past;
#: not in the lexicon of verbs titles open with ("Crash on X" is no instruction).
_STATE_PASTS = {
    **{"crashes": "crashed", "panics": "panicked", "hangs": "hung", "leaks": "leaked"},
    **{"aborts": "aborted", "discards": "discarded", "succeeds": "succeeded"},
    **{"happens": "happened", "occurs": "occurred", "works": "worked", "loses": "lost"},
    **{"becomes": "became", "goes": "went", "means": "meant", "seems": "seemed"},
    **{"exists": "existed", "depends": "depended", "looks": "looked", "appears": "appeared"},
    **{"behaves": "behaved", "misbehaves": "misbehaved", "overflows": "overflowed"},
    **{"segfaults": "segfaulted", "deadlocks": "deadlocked", "stalls": "stalled"},
}


def is_auxiliary(word: str) -> bool:
    """True when ``word`` is a present auxiliary (``is``, ``can``, ``doesn't``)."""
    return word.lower() in _PAST_AUXILIARIES


def past_of(word: str) -> str | None:
    """The past of ``word`` when it is a present auxiliary or a known verb in the third
    person singular (``runs`` -> ``ran``, ``is`` -> ``was``), in ``word``'s case; else None."""
    lower = word.lower()
    if lower.startswith("re-") and (again := past_of(lower[3:])):
        return f"{word[:3]}{again}"  # "re-extracts" -> "re-extracted"
    past = _PAST_AUXILIARIES.get(lower) or _PAST.get(lower) or _STATE_PASTS.get(lower)
    if past is None or (lower in BASE_FORMS and lower not in _PAST_AUXILIARIES):
        return None  # "process" is a base form, not "proces" in the third person
    return past.capitalize() if word[:1].isupper() else past


def is_present(word: str) -> bool:
    """True when ``word`` is an auxiliary or a known verb in the third person (``is``,
    ``adds``); a past form may be a participle ("Compress exported traces")."""
    word = word.lower()
    return word in AUXILIARIES or (THIRD_PERSON.get(word) == word and word not in BASE_FORMS)


def is_finite(word: str) -> bool:
    """True when ``word`` is an auxiliary or a known verb in the third person or the past."""
    word = word.lower()
    return word in AUXILIARIES or word in _FINITE


def has_finite_verb(words: list[str]) -> bool:
    """True when ``words`` (after the first) may hold a finite verb.

    Known verbs, auxiliaries, ``-ed`` words and lower-case ``-s`` words count: the test is
    meant to catch clauses with no verb at all, not to parse English.
    """
    before = ""
    for word in words[1:]:
        lower = word.strip(",;:()")
        lower = lower[3:] if lower.startswith("re-") else lower  # "re-adds" is "adds" again
        if lower in AUXILIARIES or lower.lower() in _FINITE:
            return True
        # "no longer panics", "never hangs": after these, an -s word is the verb ("-ics" too).
        after_adverb = before in ("longer", "never", "now", "still", "also", "always")
        before = lower.lower()
        inflected = lower.endswith("ed") or (
            lower.endswith("s") and (after_adverb or not lower.endswith(_NOT_VERBS))
        )
        if inflected and lower.isalpha() and lower.islower() and len(lower) > 3:
            return True
    return False


_NOT_VERBS = ("ss", "us", "is", "ics", "ous")


# A word the lexicon does not know may open an instruction: plain letters, not a name.
_PLAIN_WORD = re.compile(r"[A-Za-z][a-z]{2,}(-[a-z]+)?")
_NON_VERB_OPENER_WORDS = """
    a an the this that these those some any all each every no both either neither such
    more most less least fewer better best faster slower smaller larger bigger cleaner
    simpler safer stricter easier minor major small big large new initial first last final
    another other various several multiple misc miscellaneous temporary temp quick simple
    basic proper additional extra partial full experimental preliminary static dynamic
    generic manual custom same different default common general main early late old legacy
    unused missing wrong broken bad good nightly daily weekly internal external public
    private local global when where while if for per yet being
    also however overall here there then now instead today again thus hence otherwise
    meanwhile finally since because although though unlike like until once even just still
"""
#: Words that open a title or a sentence and are no verb: determiners, quantifiers, common
#: adjectives, conjunctions and adverbs ("Minor cleanup", "More tests", "When X, do Y",
#: "Overall the change ...").
NON_VERB_OPENERS = frozenset(_NON_VERB_OPENER_WORDS.split())
_CHANGE_NOUN_WORDS = """
    fix fixes bugfix bugfixes fixup hotfix cleanup cleanups refactor refactoring refactors
    improvement improvements support enablement implementation implementations integration
    documentation tutorial tutorials guide workaround typo typos update updates change
    changes tweak tweaks helper helpers commit example examples
"""
# Nouns that name a change: a title with one near its start is a noun phrase
# ("Minor fix to X", "Qualcomm overflow fixes", "Runner support for Y").
_CHANGE_NOUNS = frozenset(_CHANGE_NOUN_WORDS.split())
_PREPOSITION_WORDS = "to in on for of with from at by into onto about over under via as"
# A word followed by one of these is a noun: "Typo in X", "Script to validate Y".
_PREPOSITIONS = frozenset(_PREPOSITION_WORDS.split())
_OBJECT_OPENER_WORDS = (
    "the a an this that these those all any each every some both our its their it them"
)
# Words that open what a verb acts on: "Log the reason", "Pin all wheels".
_OBJECT_OPENERS = frozenset(_OBJECT_OPENER_WORDS.split())
_CODE = re.compile(r"[_`(]")
_VERB_ENDINGS = ("ify", "ize")


def opens_with_unknown_verb(title: str, evidence: str = "") -> bool:
    """True when ``title``, whose first word is no verb the lexicon knows, still reads as
    an instruction (``Log the reason``, ``Sympify the lowering``).

    It does when what follows the first word opens an object (an article, a pronoun, an
    identifier), when the word has a verb's ending (``-ify``, ``-ize``), or when
    ``evidence`` (the change's description) uses it as a verb (``traced``, ``tracing``).
    A word that cannot be a verb (see :func:`may_be_verb`), a preposition or present verb
    next and a change noun among the next three words say it is a noun phrase (``Tuple
    reductions``, ``Minor fix to X``).
    """
    words = title.split()
    if len(words) < 2 or not may_be_verb(words[0]):
        return False
    first, following = words[0].lower(), words[1].lower().strip(",;:")
    if following in _PREPOSITIONS or following in NOUN_FOLLOWERS or is_present(following):
        return False
    if names_a_change(words[1:4]):
        return False
    if opens_object(words[1]) or first.endswith(_VERB_ENDINGS):
        return True
    return bool(evidence) and _used_as_verb(first, evidence)


def opens_object(word: str) -> bool:
    """True when ``word`` opens what a verb acts on: an article, a pronoun, ``to`` or an
    identifier (``the``, ``it``, ``to``, ``select_scatter``)."""
    return word.lower() in _OBJECT_OPENERS or word.lower() == "to" or bool(_CODE.search(word))


def names_a_change(words: list[str]) -> bool:
    """True when one of ``words`` is a noun that names a change (``fix``, ``support``)."""
    return any(word.lower().strip(",;:()") in _CHANGE_NOUNS for word in words)


def may_be_verb(word: str) -> bool:
    """False when ``word``, whatever follows it, is no verb's base form: a name
    (``ExecuTorch``, ``GA``, ``mxfp8``), a gerund, an adverb, a plural, a hyphenated
    adjective (``vendor-adaptive``), a word that opens noun phrases or a change noun."""
    if not _PLAIN_WORD.fullmatch(word):
        return False
    word = word.lower()
    if word in NON_VERB_OPENERS or word in _CHANGE_NOUNS or word.endswith(("ing", "ly")):
        return False
    # "Vendor-adaptive tiling" is an adjective; "auto-select X", "re-wrap Y" are verbs.
    if "-" in word and word.rsplit("-", 1)[1] not in BASE_FORMS:
        return False
    return not (word.endswith("s") and not word.endswith("ss"))


def _used_as_verb(word: str, text: str) -> bool:
    """True when ``text`` holds ``word``'s past or ``-ing`` form (``trace``: ``traced``)."""
    stem = word[:-1] if word.endswith("e") else word
    forms = sorted({f"{stem}ed", f"{stem}ing", f"{word}{word[-1]}ed", f"{word}{word[-1]}ing"})
    return re.search(rf"\b(?:{'|'.join(map(re.escape, forms))})\b", text, re.I) is not None


# Left out of the lexicon because titles use them as nouns as often ("Pass migration",
# "Log parsing"); an object after them makes them verbs ("Pass the input to all stages").
_NOUN_OR_VERB = frozenset(["pass", "log", "patch", "trace", "benchmark", "test", "lint"])


def verb_before_object(first: str, following: str) -> str | None:
    """The third person of ``first`` when it is a word titles use as a noun or a verb and
    ``following`` opens its object (``Log the reason``: ``logs``), else None."""
    if first.lower() not in _NOUN_OR_VERB:
        return None
    return _third(first.lower()) if opens_object(following) else None
