"""The rules every edition keeps, whichever writer produced it.

:func:`problems` lists what is wrong with a digest against the records it was written
from; an empty list means the edition may be published. The extractive writer is
tested against it; the LLM writer retries or falls back when it finds anything.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from digest.models import ActionItem, Digest, PullRequest, Urgency
from digest.summarize.base import Brief
from digest.summarize.classify import ROUTINE_KINDS, split_title
from digest.summarize.kinds import release_version
from digest.summarize.phrasing import ends_dangling, long_date
from digest.summarize.releases import release_notes
from digest.summarize.select import lead_stories
from digest.summarize.sentences import capitalised_verb, fragment_reason, split_sentences
from digest.summarize.stories import place_named
from digest.summarize.verbs import ACTION_VERBS, THIRD_PERSON, is_imperative

HEADLINE_LIMIT = 100
MAX_REFERENCES = 10
#: A reference may back at most this many body sentences.
MAX_SENTENCES_PER_REFERENCE = 3
_QUOTE_MARKS = re.compile('[“”"]')
_QUOTED_ENTRY = re.compile("\u2018[^\u2018\u2019]*\u2019")
_ELLIPSIS = re.compile(r"\w(…|\.\.\.)(?=\s|$)")
# Markdown left in a plain-text field: escapes, emphasis, code spans.
_MARKDOWN = re.compile(r"\\[\\`*_\[\]<>!#|~{}()+.-]|\*\*|`")
CITE = re.compile(r"\[(\d+)\]")
#: A Markdown code span (its backticks and what they hold).
_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)")
_LEFTOVER = re.compile(
    r"cc @|#{2,}\s|<!--|differential revision|pull request resolved|signed-off-by|"
    r"stack from \[?ghstack|ghstack-source-id|co-authored-by|https?://|\bwww\.",
    re.I,
)
# An unescaped "<" followed by something tag-like: raw HTML in a text field.
_RAW_HTML = re.compile(r"(?<!\\)<\s*/?\s*[a-z!?]", re.I)
# Quoted titles are names, not sentences of the edition: their full stops don't end a claim.
_QUOTED = re.compile(r"“[^”]*”")


def standard_questions(project: str, date_text: str) -> tuple[str, ...]:
    """The questions every edition's FAQ answers, in order."""
    return (
        f"What changed in {project} on {date_text}?",
        f"What should {project} teams do about it?",
        f"Which {project} repositories shipped on {date_text}?",
    )


def problems(digest: Digest, pulls: Sequence[PullRequest]) -> list[str]:
    """Return a description of every rule ``digest`` breaks, given the day's ``pulls``."""
    found: list[str] = []
    found += _headline_problems(digest)
    found += _citation_problems(digest)
    found += _reference_problems(digest, pulls)
    found += _action_problems(digest, pulls)
    found += _faq_problems(digest)
    found += _markup_problems(digest)
    found += prose_problems(digest, pulls)
    found += grounding_problems(digest, pulls)
    return found


def model_problems(digest: Digest, pulls: Sequence[PullRequest]) -> list[str]:
    """The rules a model's edition (already screened, see :mod:`digest.summarize.llm.screen`)
    must keep: the edition's shape, citations and references, plain text where text is
    plain. Its prose is a model's own: no vocabulary, verb or subject rules apply, and a
    sentence may go uncited when it claims nothing checkable."""
    found: list[str] = []
    found += _headline_problems(digest)
    found += _citation_problems(digest, uncited_ok=True)
    found += _reference_problems(digest, pulls)
    found += _action_problems(digest, pulls)
    found += _faq_problems(digest)
    found += _markup_problems(digest)
    found += _plain_problems(digest, pulls)
    return found


def _headline_problems(digest: Digest) -> list[str]:
    found = []
    if not digest.headline.strip():
        found.append("headline is empty")
    if len(digest.headline) > HEADLINE_LIMIT:
        found.append(
            f"headline has {len(digest.headline)} characters; the limit is {HEADLINE_LIMIT}"
        )
    if not digest.dek.strip():
        found.append("dek is empty")
    elif len(split_sentences(_QUOTED.sub("“…”", digest.dek.strip()))) > 1:
        found.append("dek is more than one sentence")
    return found


def _citation_problems(digest: Digest, uncited_ok: bool = False) -> list[str]:
    found = []
    numbers = {ref.n for ref in digest.references}
    texts = [digest.body, *(a.text for a in digest.action_items), *(f.answer for f in digest.faq)]
    for n in sorted({int(n) for text in texts for n in CITE.findall(text)} - numbers):
        found.append(f"[{n}] is cited but there is no reference {n}")
    for paragraph in digest.body.split("\n\n"):
        if is_list_block(paragraph):
            for line in paragraph.strip().splitlines():
                if not CITE.search(line):
                    found.append(f"body list item cites nothing: {line[:80]!r}")
            continue
        if is_brief_label(paragraph):
            continue
        for sentence in split_sentences(_QUOTED.sub("“…”", paragraph.strip())):
            if sentence and not CITE.search(sentence) and not uncited_ok:
                found.append(f"body sentence cites nothing: {sentence[:80]!r}")
    order = first_citations([digest.body, *(_action_text(a) for a in digest.action_items)])
    cited = set(order)
    for ref in digest.references:
        if ref.n not in cited:
            found.append(f"reference [{ref.n}] is never cited in the body or action items")
    known_order = [n for n in order if n in numbers]
    if known_order != list(range(1, len(known_order) + 1)):
        found.append("references are not numbered in order of first citation")
    return found


def _action_text(action: ActionItem) -> str:
    """The action's text followed by its references as ``[n]`` citations."""
    return f"{action.text} " + " ".join(f"[{n}]" for n in action.refs)


def first_citations(texts: Iterable[str]) -> list[int]:
    """Every ``[n]`` in ``texts``, as numbers in order of first appearance."""
    order: list[int] = []
    for text in texts:
        for n in CITE.findall(text):
            if int(n) not in order:
                order.append(int(n))
    return order


def _reference_problems(digest: Digest, pulls: Sequence[PullRequest]) -> list[str]:
    found = []
    known = {(p.repo, p.number, p.url) for p in pulls}
    if not 1 <= len(digest.references) <= MAX_REFERENCES:
        found.append(f"{len(digest.references)} references; expected 1 to {MAX_REFERENCES}")
    if [ref.n for ref in digest.references] != list(range(1, len(digest.references) + 1)):
        found.append("references are not numbered 1, 2, 3, ...")
    for ref in digest.references:
        if (ref.repo, ref.number, ref.url) not in known:
            found.append(
                f"reference [{ref.n}] ({ref.repo} #{ref.number}) is not a change of the day"
            )
        if not ref.url.startswith(("https://", "http://")):
            found.append(f"reference [{ref.n}] has a non-web URL")
    return found


def _action_problems(digest: Digest, pulls: Sequence[PullRequest]) -> list[str]:
    found = []
    repos = {p.repo for p in pulls}
    numbers = {ref.n for ref in digest.references}
    # A day whose facts support one action gets one: never a template to make up the count.
    if not 1 <= len(digest.action_items) <= 5:
        found.append(f"{len(digest.action_items)} action items; expected 1 to 5")
    for i, action in enumerate(digest.action_items, start=1):
        if action.repo not in repos:
            found.append(f"action item {i} names {action.repo!r}, which merged nothing that day")
        if action.urgency not in set(Urgency):
            found.append(f"action item {i} has urgency {action.urgency!r}")
        if not action.refs:
            found.append(f"action item {i} cites no reference")
        for n in action.refs:
            if n not in numbers:
                found.append(f"action item {i} cites [{n}], which is not a reference")
        if not action.text.strip():
            found.append(f"action item {i} is empty")
    return found


def _faq_problems(digest: Digest) -> list[str]:
    questions = [entry.question for entry in digest.faq]
    found = []
    for question in standard_questions(digest.project, long_date(digest.date)):
        if question not in questions:
            found.append(f"FAQ lacks the question {question!r}")
    found += [f"FAQ answer to {e.question!r} is empty" for e in digest.faq if not e.answer.strip()]
    return found


def _markup_problems(digest: Digest) -> list[str]:
    fields = {
        "headline": digest.headline,
        "dek": digest.dek,
        "body": digest.body,
        **{f"action item {i}": a.text for i, a in enumerate(digest.action_items, start=1)},
        **{f"FAQ {i}": f"{e.question} {e.answer}" for i, e in enumerate(digest.faq, start=1)},
    }
    found = []
    for name, text in fields.items():
        if match := _LEFTOVER.search(text):
            found.append(f"{name} has leftover markup {match.group(0)!r}")
        # Inside a code span "<" is shown as written, never read as a tag.
        bare = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), text) if name == "body" else text
        if match := _RAW_HTML.search(bare):
            found.append(f"{name} has raw HTML near {text[match.start() : match.start() + 20]!r}")
    return found


def prose_problems(digest: Digest, pulls: Sequence[PullRequest]) -> list[str]:
    """What reads badly in ``digest``: fragments, quoted or cut titles, Markdown in plain text.

    The body is Markdown; the headline, dek, action items and FAQ answers are plain text.
    """
    found: list[str] = []
    counts: dict[int, int] = {}
    sentences = body_sentences(digest.body)
    for sentence in sentences:
        if reason := fragment_reason(sentence):
            found.append(f"body sentence {reason}: {sentence[:80]!r}")
        if verb := capitalised_verb(sentence):
            found.append(f"body sentence capitalises the verb {verb!r}: {sentence[:80]!r}")
        for n in {int(n) for n in CITE.findall(sentence)}:
            counts[n] = counts.get(n, 0) + 1
    for n, times in sorted(counts.items()):
        if times > MAX_SENTENCES_PER_REFERENCE:
            found.append(
                f"reference [{n}] is cited in {times} sentences; "
                f"at most {MAX_SENTENCES_PER_REFERENCE}"
            )
    code = frozenset(
        word.lower()
        for pull in pulls
        for span in re.findall(r"`([^`]+)`", pull.title)
        for word in re.findall(r"[\w'-]+", span)
    )
    for name, text in (("headline", digest.headline), ("dek", digest.dek)):
        if _QUOTE_MARKS.search(text) or _ELLIPSIS.search(text) or _unbalanced(text):
            found.append(f"{name} quotes or cuts a title: {text[:80]!r}")
        elif ends_dangling(text, code):
            found.append(f"{name} ends mid-phrase: {text[-40:]!r}")
    found += _plain_problems(digest, pulls)
    plain_fields = _plain_fields(digest)
    prose = "\n\n".join(sentences)
    for name, text in {**plain_fields, "body": prose}.items():
        if said := _title_verb_as_noun(text):
            found.append(f"{name} reads a title's verb as a noun: {said!r}")
    titles = _display_titles(pulls)
    for i, action in enumerate(digest.action_items, start=1):
        found += [f"action item {i} {problem}" for problem in _action_prose(action.text, titles)]
    return found


def _plain_fields(digest: Digest) -> dict[str, str]:
    return {
        "headline": digest.headline,
        "dek": digest.dek,
        **{f"action item {i}": a.text for i, a in enumerate(digest.action_items, start=1)},
        **{f"FAQ answer {i}": e.answer for i, e in enumerate(digest.faq, start=1)},
    }


def _plain_problems(digest: Digest, pulls: Sequence[PullRequest] = ()) -> list[str]:
    """Markdown left in the plain-text fields. A backslash that the day's titles write
    themselves is what they say, not an escape (`\\-` in "don't flag `\\-` as useless")."""
    titles = " ".join(pull.title for pull in pulls)
    found = []
    for name, text in _plain_fields(digest).items():
        for match in _MARKDOWN.finditer(text):
            if not (match.group(0).startswith("\\") and match.group(0) in titles):
                found.append(f"{name} is plain text but has Markdown {match.group(0)!r}")
                break
    return found


_LANDS = re.compile(r"\blands (do not|don't|[\w-]+) ([\w-]+)", re.I)


def _title_verb_as_noun(text: str) -> str:
    """The words where ``text`` says "lands" before an instruction ("lands do not hand",
    "lands add X"): a title whose verb was taken for a noun. Empty when there is none."""
    for match in _LANDS.finditer(text):
        first, following = match.groups()
        if " " in first or first.lower() == "don't" or is_imperative(first, following):
            return match.group(0)
    return ""


def _unbalanced(text: str) -> bool:
    """True when ``text`` opens an aside it does not close (a title cut inside brackets)."""
    return text.count("(") > text.count(")") or text.count("[") > text.count("]")


#: The label of the list that closes an edition's body: the day's other notable changes,
#: each by its title (a title reads well in a list and badly bent into a sentence).
BRIEF_LABEL = "**In brief**"


def is_brief_label(paragraph: str) -> bool:
    """True when ``paragraph`` of a body is the label of its closing list."""
    return paragraph.strip().startswith(BRIEF_LABEL)


def is_list_block(paragraph: str) -> bool:
    """True when ``paragraph`` of a body is a Markdown list (every line an item)."""
    lines = paragraph.strip().splitlines()
    return bool(lines) and all(line.startswith("- ") for line in lines)


def paragraph_units(paragraph: str) -> list[str]:
    """What a reader reads one by one in ``paragraph`` of a body: its sentences, a list's
    items (``- Title [n]``), or nothing for the list's label."""
    if is_brief_label(paragraph):
        return []
    if is_list_block(paragraph):
        return paragraph.strip().splitlines()
    return split_sentences(paragraph)


def join_units(paragraph: str, units: list[str]) -> str:
    """``units`` of ``paragraph`` put back together as it held them (lines or sentences)."""
    return "\n".join(units) if is_list_block(paragraph) else " ".join(units)


def body_sentences(body: str) -> list[str]:
    """The sentences of Markdown ``body``, paragraph by paragraph (a list's titles and its
    label are no sentences)."""
    return [
        s
        for paragraph in body.split("\n\n")
        if not is_list_block(paragraph) and not is_brief_label(paragraph)
        for s in split_sentences(paragraph)
    ]


#: A condition an item may open with, who it is for: "If you use X, upgrade …".
_CONDITION = re.compile(r"(?:if|when|once)\s[^,]+,\s+", re.I)


def instruction_of(text: str) -> str:
    """The word ``text``, an action item, instructs with: its first, or the first after
    the condition it opens with ("If you call X, take …" -> "take")."""
    return _CONDITION.sub("", text, count=1).split(" ", 1)[0].strip(",:;")


def _action_prose(text: str, titles: set[str]) -> list[str]:
    found = []
    first = instruction_of(text).lower()
    if first not in ACTION_VERBS:
        found.append(f"does not open with an instruction: {text[:60]!r}")
    if _QUOTE_MARKS.search(text):
        found.append(f"quotes: {text[:60]!r}")
    # An entry quoted from release notes (between single quotes) is marked as a quotation.
    lowered = " ".join(_QUOTED_ENTRY.sub("", text).lower().split())
    for title in titles:
        if title in lowered:
            found.append(f"repeats a PR title: {title[:60]!r}")
            break
    return found


def _display_titles(pulls: Sequence[PullRequest]) -> set[str]:
    """The day's titles without area prefix, lower-cased, when four words or longer."""
    titles = set()
    for pull in pulls:
        title = " ".join(split_title(pull.title)[1].lower().rstrip(" .").split())
        if len(title.split()) >= 4:
            titles.add(title)
    return titles


def coverage_problems(digest: Digest, brief: Brief) -> list[str]:
    """What an editor would miss in ``digest`` given the day's ranked ``brief``.

    Every repository with a notable (non-routine) change is cited in the body; each of
    the top three stories with two or more notable changes is told by at least two; no
    two action items open with the same verb (each comes from its own template).
    """
    found = []
    body_refs = {int(n) for n in CITE.findall(digest.body)}
    told_repos = {ref.repo for ref in digest.references if ref.n in body_refs}
    notable_repos = {item.pull.repo for item in brief.items if item.kind not in ROUTINE_KINDS}
    for repo in sorted(notable_repos - told_repos):
        found.append(f"repository not told: {repo} merged a notable change the body never cites")
    cited = {(ref.repo, ref.number, ref.url) for ref in digest.references}
    for story in lead_stories(brief.stories)[:3]:
        notable = [i for i in story.items if i.kind not in ROUTINE_KINDS]
        told = [i for i in notable if (i.pull.repo, i.pull.number, i.pull.url) in cited]
        if len(notable) >= 2 and len(told) < 2:
            name = story.area or story.repo
            found.append(f"story told by one change: {name} has {len(notable)} notable changes")
    openings = Counter(instruction_of(action.text).lower() for action in digest.action_items)
    for verb, times in sorted(openings.items()):
        if times > 1:
            found.append(f"action template repeated: {verb!r} opens {times} action items")
    return found


# Words any edition may use whatever the changes say: function words and newsroom words.
_COMMON_WORDS = """
about above across after again against also although among another anything around because
been before being below between both but cannot could does doing down during each either
else enough even ever every first from further have having here however into itself just
last later least less like made make many more most much must near need needs never next
none nothing once only other others over own perhaps same should since some something still
such than that their them then there these they this those though through thus together too
under until upon very well were what when where whether which while whom whose will with
within without would your yours today tomorrow yesterday day days week change changes
changed new newly now merged merge merges landed land lands main branch edition teams team
users user people project projects repository repositories code work works working workloads
workload settings setting release releases upgrade upgrading build builds built test tests
tested testing benchmark benchmarks benchmarking model models support supported supports
feature features fix fixes fixed improvement improvements faster slower speed performance
behavior behaviour option options default defaults api apis version versions file files path
paths docs documentation example examples pull request requests author authors review
reviewed reviews before after instead again already back still note notes help helps problem
problems issue issues bug bugs case cases part parts side sides way ways time times first
six seven eight nine earlier previous
second third one two three four five several many few other elsewhere meanwhile smaller
larger related along alongside meant reach reaches local workaround workarounds re-run
re-test hit expects expect wherever environment environments everything once anything
whether full list touch touches follow-up follow-ups often maintenance dependency
dependencies re-benchmark speed-up refactoring plan carries carry re-land re-lands
rely relies rework reworks brings bring tells tell documentation run runs path paths likely
call calls adopt stable unstable preview opt-in enable set configuration rule command
hole security memory-safety undefined corruption deprecation deprecations away move
january february march april may june july august september october november december
"""
_COMMON = frozenset(_COMMON_WORDS.split())
_TERM = re.compile(r"[A-Za-z_][A-Za-z0-9_./+-]*[A-Za-z0-9_]|\d+(?:\.\d+)+")
#: An @-mention; not a scoped package (``@biomejs/biome``), which names no one.
MENTION = re.compile(r"(?<![\w.@/])@[A-Za-z0-9][A-Za-z0-9_-]*(?![A-Za-z0-9_/-])")
SHELL = re.compile(
    r"\b(curl|wget)\s+-?\S|\|\s*(sudo\s+)?(sh|bash|zsh|python3?)\b|\bsudo\s+\S|"
    r"\brm\s+-[rf]+\b|\bchmod\s+[0-7+]|\bbase64\s+(-d|--decode)\b|\beval\s*\(",
    re.I,
)
#: At least this share of a sentence's distinctive words must come from what it cites.
GROUNDED_SHARE = 0.5


def grounding_problems(digest: Digest, pulls: Sequence[PullRequest]) -> list[str]:
    """What ``digest`` says that the changes it cites do not support.

    Each body sentence and action item must share most of its distinctive words (names,
    identifiers, uncommon words) with the titles, bodies and file paths of the pull
    requests it cites; the dek with those the edition cites, the headline with those the
    body cites. No text may hold an @-mention or a shell command that no cited title has.
    """
    vocabulary = _Vocabulary(digest, pulls)
    body_refs = {int(n) for n in CITE.findall(digest.body)}
    found = []
    for sentence in body_sentences(digest.body):
        refs = {int(n) for n in CITE.findall(sentence)}
        if unsupported := vocabulary.unsupported(sentence, refs):
            found.append(f"body sentence is not supported by what it cites ({unsupported})")
    for name, text, refs in (
        ("headline", digest.headline, body_refs),
        ("dek", digest.dek, {ref.n for ref in digest.references}),
        *(
            (f"action item {i}", action.text, set(action.refs))
            for i, action in enumerate(digest.action_items, start=1)
        ),
    ):
        if unsupported := vocabulary.unsupported(text, refs):
            found.append(f"{name} is not supported by what it cites ({unsupported})")
    # A decorator in a title (``@torch.compile``) is news; an @-mention or command is not.
    # A release's entries are its own words too: "{@const}" quoted from them is no mention.
    cited = {(ref.repo, ref.number, ref.url) for ref in digest.references}
    notes = " ".join(
        note.text
        for pull in pulls
        if (pull.repo, pull.number, pull.url) in cited and _cuts_release(pull)
        for note in release_notes(pull)
    )
    # A change's note for its users is its own words too ("the CSS `@property` rule").
    notes += " " + " ".join(p.fragment for p in pulls if (p.repo, p.number, p.url) in cited)
    # As plain text says them: "`@const`s" is "@consts".
    titles = f"{' '.join(ref.title for ref in digest.references)} {notes}".lower().replace("`", "")
    texts = [digest.headline, digest.dek, digest.body, *(a.text for a in digest.action_items)]
    texts += [entry.answer for entry in digest.faq]
    for text in texts:
        for pattern in (MENTION, SHELL):
            for match in pattern.finditer(text):
                if match.group(0).lower() not in titles:
                    found.append(f"text has an @-mention or a command: {match.group(0)!r}")
                    break
    return found


def _cuts_release(pull: PullRequest) -> bool:
    """True when ``pull``'s title says it cuts a release (its description is its notes)."""
    _, title, markers = split_title(pull.title)
    return release_version(pull, title, markers) is not None


class _Vocabulary:
    """The distinctive words of each referenced change, and of the edition's own names."""

    def __init__(self, digest: Digest, pulls: Sequence[PullRequest]) -> None:
        by_key = {(p.repo, p.number, p.url): p for p in pulls}
        shown = " ".join(name.display_name for name in digest.repo_names)
        self._names = terms_of(
            f"{digest.project} {digest.project_slug} {' '.join(digest.repos)} {shown}"
        )
        self._by_ref: dict[int, set[str]] = {}
        for ref in digest.references:
            pull = by_key.get((ref.repo, ref.number, ref.url))
            text = f"{ref.repo} {ref.title}"
            if pull is not None:
                paths = " ".join(change.path for change in pull.files[:200])
                text += f" {pull.body[:6000]} {pull.notes} {pull.fragment} {paths}"
                # Its tag as a reader's place ("lsp": the language server) is its own word.
                text += f" {place_named(split_title(pull.title)[0].strip('`'))}"
                if _cuts_release(pull):  # the entries its notes sentence may quote
                    text += " ".join(note.text for note in release_notes(pull))
            self._by_ref[ref.n] = terms_of(text)

    def unsupported(self, text: str, refs: set[int]) -> str:
        """The words of ``text`` the ``refs`` do not support, when too many; else ``""``."""
        words = distinctive_words(text)
        if not words:
            return ""
        known = set(self._names)
        for n in refs:
            known |= self._by_ref.get(n, set())
        # An identifier is known when its stem is, or each of its pieces is.
        missing = sorted(
            stem
            for stem, raw in words.items()
            if stem not in known and not all(p in known for p in _parts(raw) if len(p) > 2)
        )
        if len(missing) <= len(words) * (1 - GROUNDED_SHARE):
            return ""
        return ", ".join(missing[:6])


_ESCAPE = re.compile(r"\\(?=[\\`*_\[\]<>!#|~{}()+.-])")


def shares_terms(text: str, pulls: Sequence[PullRequest]) -> bool:
    """True when ``text`` names something of ``pulls`` (a distinctive word of a title or a
    path), or says nothing distinctive at all: a headline about the day's changes, not about
    a sponsor or an instruction (which a body, written by anyone, may carry)."""
    words = distinctive_words(text)
    if not words:
        return True
    known: set[str] = set()
    for pull in pulls:
        paths = " ".join(change.path for change in pull.files[:200])
        known |= terms_of(f"{pull.repo} {pull.title} {paths}")
    return any(stem in known or raw in known for stem, raw in words.items())


def terms_of(text: str) -> set[str]:
    """Every word of ``text``, lower-cased and stemmed, with identifiers also split apart."""
    terms = set()
    for raw in _TERM.findall(_ESCAPE.sub("", text)):
        word = raw.lower().strip("./+-")
        terms.add(_stem(word))
        terms.update(_parts(word))
    return terms


def _parts(word: str) -> set[str]:
    """The stemmed pieces of an identifier or path: ``torch.export_utils`` -> torch, export..."""
    return {_stem(part) for part in re.split(r"[_./+-]+", word) if part}


def distinctive_words(text: str) -> dict[str, str]:
    """The words of ``text`` that say something specific (not common, not a known verb):
    each word's stem, and the word as written (whose pieces are stemmed one by one)."""
    words = {}
    for raw in _TERM.findall(_ESCAPE.sub("", CITE.sub(" ", text))):
        word = raw.lower().strip("./+-")
        if len(word) < 4 or word in _COMMON or word in THIRD_PERSON or word.isdigit():
            continue
        words[_stem(word)] = word
    return words


def _stem(word: str) -> str:
    if len(word) > 5 and word.endswith(("ing", "ies")):
        return word[:-3]
    if len(word) > 4 and word.endswith(("es", "ed")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word
