"""Sentences: where they end, whether they are whole, and how a PR body's ones are retold.

Splitting survives version numbers (``1.4.350.0``), identifiers (``torch.export``) and
abbreviations (``e.g.``). :func:`fragment_reason` is the rule both writers' bodies are
held to; :func:`retell` turns a body's sentences into ones an edition can print: the
author's imperatives ("Add X. Handle Y.") become one reported sentence ("The change adds
X and handles Y."), "This PR" becomes "The change", and fragments are dropped.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection

from digest.summarize.phrasing import (
    conjugate_coordinated,
    ends_dangling,
    join_words,
    with_article,
)
from digest.summarize.spelling import typo
from digest.summarize.verbs import (
    BASE_FORMS,
    THIRD_PERSON,
    has_finite_verb,
    is_auxiliary,
    is_finite,
    is_imperative,
    is_present,
    opens_with_unknown_verb,
    past_of,
    third_of,
    third_person,
)

CITE = re.compile(r"\s*\[(\d+)\]")
_BOUNDARY = re.compile(r"[.!?][\"')\]”]?\s+(?!\[\d+\])(?=[A-Z`\"'(\[“])")
_ABBREVIATIONS = frozenset(
    [
        "e.g",
        "i.e",
        "etc",
        "vs",
        "approx",
        "no",
        "nos",
        "fig",
        "figs",
        "eq",
        "cf",
        "al",
        "mr",
        "ms",
        "dr",
        "incl",
        "resp",
        "ca",
        "esp",
        "est",
        "min",
        "max",
    ]
)
_SELF_REFERENCE = re.compile(
    r"^(this|the) (pr|pull request|diff|patch|commit|change|stack)\b(?: also)?"
    # "This adds full support for X": the change, said as "this".
    r"|^this(?= (?:adds|fixes|removes|makes|changes|introduces|implements|updates|improves|"
    r"allows|enables|moves|replaces|refactors|supports|extends|exposes)\b)",
    re.I,
)
_FIRST_PERSON = re.compile(r"^(we|i)\s+(?:also\s+|now\s+)?(\w+)\b", re.I)
# "This PR is a refactoring patch": says what kind of change, not what it does.
_VACUOUS = re.compile(
    r"^\(?(this|the) ((pr|pull request|diff|patch|commit|change) )?(is|was)\b", re.I
)
# What was so before the change, told as if it still were ("Currently, X parses each file
# four times, this reduces it to three"), or where the change put its files.
_STALE = re.compile(
    r"^currently\b|,\s+this\s+(?:reduces|makes|fixes|changes|adds|removes|improves)\b"
    r"|\b(?:adds?|added|adding) (?:a )?new (?:folder|directory|file) (?:for|to|with)\b",
    re.I,
)
# Where the code came from, not what it does: "The ac part is borrowed from AP: LINK".
_PROVENANCE = re.compile(
    r"\b(?:borrowed|adapted|copied|ported|taken|lifted) (?:from|form)\b|\binspired by\b|"
    # "LINK": a template's placeholder, in capitals; "a lost pad link" is no provenance.
    r"\bcredits? (?:to|go)\b|(?-i:\bLINK\b)|\bsee (?:also )?(?:the )?(?:link|below|above)\b",
    re.I,
)
# A list of the files a change touches, one a line: "`settings.rs` - Added import_headings".
_FILE_ENTRY = re.compile(r"^`?[\w./-]+\.[A-Za-z]{1,5}`?\s*(?:-|\u2013|\u2014|:)\s")
#: A commit's subject in a squashed description: "Fix(cloudflare): static assets …".
_COMMIT_SUBJECT = re.compile(
    r"^(?:fix|feat|chore|docs|refactor|perf|test|ci|build|style)(?:\([^)]*\))?!?:\s", re.I
)
# A commit named by its hash: "adds the fix from 3be45468b to X" reads as noise.
_COMMIT_HASH = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b")
#: Another pull request or issue named in the sentence itself, not in an aside: "This
#: reverts owner/repo#24978, …", "Depends on #22053": the sentence is about that one.
_OTHER_CHANGE = re.compile(r"(?:^|[\s,;:])(?:[\w.-]+/[\w.-]+)?#\d+\b")
# A sentence whose subject is the one before it: "It is not immediately clear why".
_POINTS_BACK = re.compile(
    r"^(?:it|this|that|these|those|they)\s+(?:is|was|are|were|has|had|does|did|can|will|"
    r"would|should|may|might|isn't|wasn't|doesn't)\b"
    # "This config will …", "That range doesn't …": a thing named before.
    r"|^(?:this|that|these|those)\s+(?!(?:pr|pull|change|patch|commit|diff|stack)\b)[a-z]+\s"
    # "Without `Clone` this is not possible": the same, after a phrase saying how.
    r"|^(?:without|with|after|before|because of|due to|for|in)\b[^.,]{0,60},?\s+"
    r"(?:this|that|it)\s+(?:is|was|isn't|wasn't|can|cannot|can't|would|will)\b",
    re.I,
)
# "This enables users to …", "This adds X": "this" is the change, and a verb follows.
_THIS_DOES = re.compile(
    r"^(?:this|that)\s+(?:"
    + "|".join(sorted({re.escape(third) for third in THIRD_PERSON.values()}))
    + r")\b",
    re.I,
)
_PRONOUN = re.compile(r"\b(I|I'm|I've|we'll|we're|we've|let's|you'll)\b")
# A capitalised verb after a comma, semicolon or "and": "Meanwhile, Add X".
_MID_VERB = re.compile(r"(?:[,;:]|\band)\s+([A-Z][a-z]+)\s+(\S+)")
# Sentence ends the splitter kept inside ("How to review? a. Read"): a list, not prose.
_INNER_BREAK = re.compile(r"(?<![\s.][a-z])(?<!\be\.g)(?<!\bi\.e)\.\s+[A-Z]|[!?]\s+\S|\s[a-z]\.\s")
# An ellipsis glued to a word ("Accuracy Im…"); "f(...)" and "dtype=..." are code.
_CUT = re.compile(r"\w(…|\.\.\.)(?=[\s.]|$)")
# Words meant for a language model, not for readers: never retold.
_INJECTION = re.compile(
    r"\b(ignore|disregard|forget)\b.{0,20}\b(instructions|prompt|rules)\b|\bsystem prompt\b", re.I
)
# Shell commands are not news; an edition never repeats one from a body.
_COMMAND = re.compile(r"\b(curl|wget|sudo)\s|\|\s*(sh|bash|zsh)\b|\brm\s+-[rf]+\b|\beval\s*\(")
MIN_WORDS = 4
_MAX_CHARS = 260


def split_sentences(text: str) -> list[str]:
    """Split prose ``text`` into sentences, not inside abbreviations, initials or numbers."""
    text = text.strip()
    sentences: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        if text.count("\u201c", 0, match.start()) > text.count("\u201d", 0, match.start()):
            continue  # inside a quoted title: its full stops are the title's
        word = re.search(r"(\S+)$", text[start : match.start()])
        token = (word.group(1) if word else "").lower().rstrip(".").lstrip("([{\"'“")
        if token in _ABBREVIATIONS or re.fullmatch(r"[a-z]", token):
            continue
        sentences.append(text[start : match.end()].strip())
        start = match.end()
    sentences.append(text[start:].strip())
    return [s for s in sentences if s]


def words_of(sentence: str) -> list[str]:
    """The words of ``sentence`` without its ``[n]`` citations."""
    return CITE.sub("", sentence).replace("*", "").split()


def fragment_reason(sentence: str) -> str | None:
    """Why ``sentence`` is not a whole news sentence, or None when it is.

    A whole sentence has at least four words besides citations, a subject (it does not
    open with a bare or inflected verb), a finite verb, no ellipsis and no bracket left
    open, and does not end on a preposition, article or conjunction.
    """
    words = words_of(sentence)
    if len(words) < MIN_WORDS:
        return "has fewer than four words"
    first = words[0].strip("`*_\"'“(")
    following = words[1].strip("`*_\"',") if len(words) > 1 else ""
    if (
        is_imperative(first, following)
        or (first[:1].isupper() and first.lower() not in BASE_FORMS and third_person(first))
        or (
            # "Type X and drop Y"; not "Torch.fx then is X", which has its verb. A name
            # before a verb the lexicon does not know may be taken for one: dropping a
            # sentence costs less than printing an order to the reader.
            opens_with_unknown_verb(" ".join(words[:5]))
            and not any(is_present(word.strip(",;:")) for word in words[1:4])
        )
    ):
        return f"has no subject (opens with the verb {first!r})"
    if not has_finite_verb(words):
        return "has no verb"
    text = CITE.sub("", sentence).strip()
    if _CUT.search(text):
        return "is cut off"
    if text.count("(") > text.count(")"):
        return "leaves a bracket open"
    if ends_dangling(text) or _WANTS_OBJECT.search(text):
        return "ends mid-phrase"
    return None


#: A verb left without what it acts on: "Benchmarking on MI300X reveals this causes".
_WANTS_OBJECT = re.compile(
    # Said of a pronoun ("this causes"), not of a comparison ("than the device allows").
    r"\b(?:this|that|it|which)\s+(?:causes|makes|adds|includes|requires|enables|contains"
    r"|gives|shows|reveals|means|produces|affects|introduces)\W*$",
    re.I,
)


_MISSING_NAME = re.compile(r"\b(?:both|either|neither) (?:and|or|nor)\b", re.I)
#: Where a main clause ends: a relative or subordinate clause, a colon or a dash.
_CLAUSE_END = re.compile(
    r"\s(?:that|which|who|whose|when|if|while|because|since|so|where)\s|[:;\u2014]"
)
_OPENS_CLAUSE = re.compile(
    r"^(?:the|a|an|this|that|these|those|its|their|our|it|they|there|each|every|all|some|most|"
    r"many|both|no|one|two)\b",
    re.I,
)


def _headless(text: str) -> bool:
    """True when ``text`` opens as a noun phrase (no article or pronoun first) and its main
    clause holds no finite verb: a heading or a note, not a sentence ("Manual merge of four
    op PRs that landed internally")."""
    if _OPENS_CLAUSE.match(text):
        return False
    text = re.sub(r"\([^)]*\)", "", text)
    if (opening := re.match(r"^(?:\S+ ){0,3}\S+, ", text)) is not None:
        text = text[opening.end() :]  # "By default, X computes …": the clause after it
    main = _CLAUSE_END.split(text, maxsplit=1)[0]
    words = [word.strip(",.`'\"") for word in main.split()]
    if len(words) < 3 or has_finite_verb(["", *words]):
        return False
    for before, word in itertools.pairwise(words):
        lower = word.lower()
        if re.search(r"n['\u2019]t$", lower):
            return False  # "doesn't panic"
        if before.lower() in _BEFORE_VERB and lower.isalpha():
            return False  # "no longer panics", "all take"
        if lower in BASE_FORMS and before.islower() and before.endswith("s"):
            return False  # "retry-policies compute": a plural subject and its verb
    return True


#: Words a verb follows: an adverb of time or negation, a plural pronoun.
_BEFORE_VERB_WORDS = "longer now also still never not only always already all they"
_BEFORE_VERB = frozenset(_BEFORE_VERB_WORDS.split())


def capitalised_verb(sentence: str) -> str | None:
    """A verb capitalised in the middle of ``sentence`` ("Meanwhile, Add X"), or None."""
    for match in _MID_VERB.finditer(CITE.sub("", sentence)):
        word, following = match.group(1), match.group(2)
        if is_imperative(word, following) or (
            word.lower() not in BASE_FORMS and third_person(word) is not None
        ):
            return word
    return None


#: A description's heading left before its paragraph's first sentence once the lines were
#: joined: the sentence is kept, the heading goes.
_GLUED_HEADING = re.compile(
    r"^(?:summary|description|motivation|context|overview|details|background|"
    r"bc[- ]?breaking|what|why)\s*:?\s+(?=[A-Z`])",
    re.I,
)


#: A full stop inside a sentence before a lower-case word: two list items run together
#: ("… type alias statements. cover type aliases in …"), not "e.g. x" or "etc. and".
_BROKEN_STOP = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\bcf)(?<=[a-z)`])\. [a-z]")
#: A short label before a colon that opens a sentence: "Rust gotcha: the parent of …".
_OPENING_LABEL = re.compile(r"^([A-Za-z][\w'/-]*(?: [\w'/-]+){0,2}):\s+(?=\S)")
#: Labels that say when or whether what follows is so: never dropped from it.
_STATE_LABELS = frozenset(
    {
        *("before", "after", "previously", "previous", "prev", "now", "old", "new"),
        *("expected", "actual", "current", "currently", "problem", "issue", "result"),
        *("results", "output", "error"),
    }
)


def _unlabelled(sentence: str) -> str:
    """``sentence`` without a label of a few words that opens it ("Rust gotcha: …", "Note:
    …") when a whole sentence follows, never one saying when it was so ("Before: …")."""
    found = _OPENING_LABEL.match(sentence)
    if found is None or found[1].split(" ", 1)[0].lower() in _STATE_LABELS:
        return sentence
    rest = sentence[found.end() :]
    return rest if len(rest.split()) >= 6 else sentence


def retell(text: str, names: Collection[str] = ()) -> list[str]:
    """Return ``text``'s whole sentences as an edition may print them (without end stop).

    Runs of the author's imperatives or subjectless verbs are joined into one sentence
    whose subject is "The change"; other fragments are dropped. A sentence opening with one
    of ``names`` (a project spelt in lower case: "uv pip uninstall …") keeps its case.
    """
    told: list[str] = []
    actions: list[str] = []

    def flush() -> None:
        if actions:
            # "The change changes the generated code": the noun and its verb once.
            who = "It" if actions[0].startswith("changes ") else "The change"
            told.append(f"{who} {join_words(actions[:3])}")
            actions.clear()

    kept = False  # whether the sentence before was kept: a pronoun may point back at it
    for raw in split_sentences(text):
        # "Summary Adds X", "BC Breaking This is …": a heading glued to its paragraph.
        sentence = _GLUED_HEADING.sub("", raw.rstrip(" .!?"), count=1)
        sentence = _unlabelled(sentence)
        points_back = bool(_POINTS_BACK.match(sentence)) and not _THIS_DOES.match(sentence)
        kept, previous_kept = True, kept
        if points_back and not previous_kept:  # "It is not immediately clear why"
            kept = False
            flush()
            continue
        if sentence.startswith("(") and sentence.endswith(")"):
            sentence = sentence[1:-1].rstrip(" .!?")
        if (
            len(sentence) > _MAX_CHARS
            or "@" in sentence
            or _COMMAND.search(sentence)
            or _INJECTION.search(sentence)
            or _PRONOUN.search(sentence)
            or _PROVENANCE.search(sentence)
            or _COMMIT_HASH.search(sentence)
            or _OTHER_CHANGE.search(re.sub(r"\([^)]*\)", "", sentence))
            or _FILE_ENTRY.match(sentence)
            or _COMMIT_SUBJECT.match(sentence)
            or _VACUOUS.match(sentence)
            or _STALE.search(sentence)
            or sentence.endswith(":")
        ):
            kept = False
            flush()
            continue
        if _INNER_BREAK.search(sentence) or _BROKEN_STOP.search(sentence):
            kept = False
            flush()
            continue
        named = sentence.partition(" ")[0] in names  # "pad launch …": the project, no verb
        predicate = None if named else _as_predicate(sentence)
        if predicate is not None:
            told_as = f"The change {predicate}."
            kept = fragment_reason(told_as) is None and capitalised_verb(told_as) is None
            if kept:
                actions.append(predicate)
            continue
        flush()
        kept = (
            fragment_reason(sentence + ".") is None
            and capitalised_verb(sentence) is None
            # "Both and Cadence now use X": a name left out.
            and not _MISSING_NAME.search(sentence)
            and not _headless(sentence)
        )
        if kept:
            told.append(_opened(sentence, names))
    flush()
    return told


#: A word only code spells so: snake_case, a call, a dotted or camelCase name.
_IDENTIFIER = re.compile(
    r"[a-z]\w*_\w*(?:\(\))?|[a-z]\w*\(\)|[a-z]\w*\.[a-z_]\w*(?:\(\))?|[a-z]+[A-Z]\w*"
)


def _opened(sentence: str, names: Collection[str] = ()) -> str:
    """``sentence`` with a capital first letter, unless it opens with a name from the code
    (``should_stop_ is written …``): that name is marked as code, never re-cased; nor is
    one of ``names``, as its project spells it."""
    first, _, rest = sentence.partition(" ")
    if first in names:
        return sentence
    if _IDENTIFIER.fullmatch(first):
        return f"`{first}` {rest}"
    return sentence[:1].upper() + sentence[1:]


def _as_predicate(sentence: str) -> str | None:
    """``sentence``'s predicate when it has no subject of its own ("Add X" -> "adds X")."""
    sentence = _SELF_REFERENCE.sub("", sentence).strip() or sentence
    first_person = _FIRST_PERSON.match(sentence)
    if first_person:
        sentence = sentence[first_person.start(2) :]
    first, _, rest = sentence.partition(" ")
    verb = third_person(first.strip("`"))
    if verb is None or not rest:
        return None
    if first.lower() in ("need", "needs") and re.match(r"(?:a|an|the|some|more)\b", rest, re.I):
        return None  # "Need a simple example to …": why the author wrote it, not what it does
    if first.lower().endswith("ing") and any(is_finite(w) for w in rest.split()[:6]):
        return None  # "Taking screenshots is cool": a gerund is its subject, not its verb
    both = re.match(r"and (\w+) (\S.*)$", rest)
    if first.lower() in BASE_FORMS and both and both[1].lower() in BASE_FORMS:
        # "Add and expose a system set": two verbs, one object.
        second = third_person(both[1]) or both[1]
        return f"{verb} and {second} {conjugate_coordinated(both[2], strict=True)}"
    if first.lower() in BASE_FORMS and not is_imperative(first, rest.split(" ", 1)[0]):
        return None
    # "Adds RoPE fusion compile path for X": the article a note leaves out, as in a title.
    return f"{verb} {with_article(verb, conjugate_coordinated(rest, strict=True))}"


#: What a description says in its author's voice or to its reviewers, not to readers.
_AUTHOR_VOICE = re.compile(
    r"\b(I|I'm|I've|we|we're|we've|we'll|our|ours|us|my|me|you|your|please|todo|fixme|xxx|"
    r"wip|hack|this pr|this diff|this stack|this commit|this patch|this change|reviewers?|"
    r"lgtm|nit)\b"
    r"|\?|\bif (?:desired|needed|wanted|you want)\b"
    # A question its author left without its mark ("Does HDR shadows even mean lol"), and
    # chat ("lol", "imo", "that's it").
    r"|^(?:does|do|did|is|are|can|should|would|could|why)\s+\w+"
    r"|\b(?:lol|lmao|imo|imho|btw|fwiw|tbh|afaik|iirc)\b|\bthat'?s it\b"
    # "Instead the user should …", "Also makes …", "So each time …": it leans on the one before.
    r"|^(?:instead|also|so|thus|hence|otherwise|then|additionally|furthermore|moreover"
    r"|again|however|still|yet|meanwhile)\b"
    # "The previous one was too easy": what was there before, named by the one before.
    r"|^the (?:previous|old|original|former|existing) (?:one|version|approach)\b"
    r"|^(a question|not sure|nothing (calls|uses)|for now|note that|see |in many cases|"
    r"unfortunately|fortunately|sadly|interestingly|honestly|basically|but |and |"
    r"previously,? (i|we)|this (supplements|follows|builds|continues))"
    # A heading glued to its paragraph once the lines were joined ("Summary Adds X").
    r"|^(summary|description|motivation|context|changes|test plan|bc[- ]breaking|breaking"
    r"|release notes|details|background|overview)\b:?\s+[A-Z]",
    re.I,
)


#: What a description says of work still to come, or of a trivial part of the change.
_ASIDE = re.compile(
    r"\b(later|in the future|upcoming|follow[- ]?ups?|will be added|to be added|not yet|"
    r"docstrings?|typos?|"
    r"(?:upcoming|next|that|previous|other|separate|another|stacked|parent) (?:PRs?|pull requests?|"
    r"diffs?|changes? in the stack))\b",
    re.I,
)
#: A label and a colon opening a line of notes ("Previous: …", "New elementary block: …").
_LABEL = re.compile(r"^[A-Z][\w-]*(?: [\w-]+){0,2}:\s")


#: Where a sentence's main clause ends and a subordinate one begins.
_SUBORDINATE = re.compile(r"\s(?:when|if|while|because|since|unless|until|where|which|that|so)\s")


def _gerund_fragment(text: str) -> bool:
    """True when ``text``'s main clause has a gerund for its verb and no finite verb ("The
    formatter collapsing children onto one line when …"): a heading or a bug's name, not a
    sentence. "Users running X can now Y" has one ("can")."""
    main = _SUBORDINATE.split(re.sub(r"\([^)]*\)", "", text), maxsplit=1)[0]
    words = [word.strip(",;:.`") for word in main.split()]
    for i, word in enumerate(words):
        lower = word.lower()
        if is_finite(lower) or (i > 0 and lower in BASE_FORMS):
            return False  # a verb before any gerund
        if lower.endswith("ing") and lower in THIRD_PERSON:
            return not any(is_finite(later) for later in words[i + 1 :])
    return False


#: A plural noun and a passive relative clause in the singular: "extra arguments, which is
#: simply ignored". Not "-ss", "-us", "-is" nouns ("the process, which is …"), and not a
#: clause about all that comes before ("the same seed across all ranks, which is bad").
_DISAGREEING_WHICH = re.compile(
    r"\b[a-z]{3,}(?<![su]s)(?<!is)s, which (?:is|was) (?:[a-z]+ly )?[a-z]+ed\b"
)


def stands_alone(sentence: str, names: Collection[str] = ()) -> bool:
    """True when a retold ``sentence`` of a description stands on its own for a reader: not
    the author's voice, a question or a to-do, not a fragment that opens mid-phrase (a
    bracket closed before it opens, a lower-case or non-letter start) and not under six
    words of filler. It may open with one of ``names``, as its project spells it ("uv pip …")."""
    text = sentence.strip()
    if len(text.split()) < 6 or _AUTHOR_VOICE.search(text):
        return False
    # A name from the code may open it, marked as code ("`should_stop_` is written …").
    opening = re.match(r"`[^`\s]+` ", text) or text.partition(" ")[0] in names
    if not opening and (not text[:1].isalpha() or not text[:1].isupper()):
        return False
    if _LABEL.match(text):
        return False  # "Previous: 2 separate converters": a label and its fragment
    if _gerund_fragment(text):
        return False  # "The HTML formatter collapsing X onto one line": no verb of its own
    if _ASIDE.search(text):
        return False  # work still to come, or a docstring or typo: no news for a reader
    if typo(text) or _DISAGREEING_WHICH.search(text):
        return False  # "were previously assumming", "arguments, which is ignored": the
        # author's slip, that the Wire would print as its own
    depth = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return False  # "Abe15fe4) It refactors": cut from a list, mid-phrase
    return depth == 0


#: Words after which a verb form is a noun: "the runs", "two calls", "other packages".
_NOUN_AFTER_WORDS = """
    a an the these those its their our his her your my every each all some no many few
    several any more most of in for with to by on from at into two three multiple other both
    such same
"""
_NOUN_AFTER = frozenset(_NOUN_AFTER_WORDS.split())
#: Words that open a clause of their own, whose first verb is then told in the past too.
_CLAUSE_OPENERS = frozenset(
    {"which", "that", "when", "while", "because", "since", "so", "if", "whose", "where"}
    | {"but", "although", "though", "unless", "until", "whereas", "once"}
)
#: Words that open an instruction to the reader, not a statement: "Note that …".
_INSTRUCTING = frozenset({"note", "see", "please", "remember", "beware"})
#: A plural noun before a verb in its base form: "tests" (not "process", "status", "analysis").
_PLURAL_SUBJECT = re.compile(r"[a-z]{2,}[^sui's]s|[a-z]+ies")
_WORD_OR_CODE = re.compile(r"`[^`]*`|[A-Za-z][\w'.-]*[A-Za-z]|[A-Za-z]")


def in_the_past(sentence: str) -> str | None:
    """``sentence``, which tells in the present what was so before a change, with the verb
    of each of its clauses put in the past ("the visitor runs on every node and calls X" ->
    "ran", "called"; "reports focus changes" keeps its noun); None when it opens with an
    instruction ("Note that …"), which has no past."""
    words = sentence.split(maxsplit=2)
    if len(words) > 1 and (
        words[0].lower() in _INSTRUCTING
        or (words[0].lower() in BASE_FORMS and not is_finite(words[1]))
    ):
        return None
    tokens = list(_WORD_OR_CODE.finditer(sentence))
    told: list[str] = []
    at = 0
    before = ""
    has_verb = False  # the clause so far has its verb: a verb form after it is a noun
    plural = False  # that verb was a base form after a plural subject ("tests fail")
    after_comma = False  # the word opens a clause after a comma, not after "but", "when"
    for i, match in enumerate(tokens):
        word, lower = match[0], match[0].lower()
        gap = sentence[at : match.start()]
        after_comma = bool(re.search(r"[,;:()\u2014]", gap)) and before not in _CLAUSE_OPENERS
        if after_comma or before in _CLAUSE_OPENERS:
            has_verb = plural = False
        following = tokens[i + 1][0] if i + 1 < len(tokens) else ""
        if lower in ("and", "or") and _verb_like(following, plural):
            has_verb = False  # "sorts it, and converts it": a verb coordinated
        past = None
        if word.startswith("`") or has_verb:
            pass
        elif before in _NOUN_AFTER or (before.endswith(("ed", "ing")) and not is_auxiliary(word)):
            pass  # "the runs", "installed packages": a noun
        elif word in BASE_FORMS and (plural or _PLURAL_SUBJECT.fullmatch(before)):
            past = past_of(third_of(word))  # "three tests fail" -> "failed"
            plural = past is not None
        else:
            past = past_of(word)
        # "…, rebuilding X and Y sets": a participle, the clause's verb gone before it; not
        # "reading the body fails", "Sparrow tooling can": a subject, a noun.
        participle = after_comma and lower.endswith("ing")
        has_verb = has_verb or past is not None or is_finite(lower) or participle
        told.append(gap + (past or word))
        at = match.end()
        before = lower
    return "".join(told) + sentence[at:]


def _verb_like(word: str, plural: bool) -> bool:
    return past_of(word) is not None or (plural and word in BASE_FORMS)
