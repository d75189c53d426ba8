"""Turn a pull request's body into the few sentences worth quoting.

Bodies carry templates, HTML comments, ``cc @`` lists, trailers, ghstack stack lists,
checklists, images and code. :func:`clean_body` removes all of that and keeps prose;
:func:`summary_of` picks the first sentences that say something the title does not.
"""

from __future__ import annotations

import functools
import re

from digest.summarize.sentences import retell, split_sentences
from digest.summarize.verbs import third_person
from digest.text import neutralise, one_line

_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_FENCE = re.compile(r"^\s*(```|~~~).*?(?:^\s*\1[^\n]*$|\Z)", re.S | re.M)
_DETAILS = re.compile(r"<details\b.*?(?:</details>|\Z)", re.S | re.I)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|<img\b[^>]*>", re.I)
_LINK = re.compile(r"\[([^\]]+)\]\((?:[^()\s]|\([^)]*\))*\)")
#: A reference-style link, ``[text][label]``: its text stays.
_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_CODE_SPAN = re.compile(r"`<[^`\n]*>`")
_INLINE_CC = re.compile(r"\bcc:?\s+@[\w/-]+(?:[\s,]+(?:and\s+)?@[\w/-]+)*", re.I)
_EMPHASIS = re.compile(r"(\*\*|__|(?<![\w*])\*(?=\S))(.+?)\1")
#: Text struck through: what the author took back ("~~allowing X to print the configs~~").
_STRUCK = re.compile(r"\s*~~[^~\n]+~~")
_URL = re.compile(r"<?https?://\S+>?")
_TRAILER = re.compile(
    r"^\s*(differential revision|pull request resolved|signed-off-by|co-authored-by|"
    r"reviewed[ -]by|approved by|pulled by|ghstack-source-id|ghstack pr (number|base|head)|"
    r"merge bot pr (base|head)|fbshipit-source-id|x-link|imported from|original pr|"
    r"rollback plan|bypass-github-export-checks|test-plan|reviewers|subscribers|tasks|tags)"
    r"\s*:.*$",
    re.I,
)
_NOISE_LINE = re.compile(
    r"^\s*(cc:?\s+@|@\w[\w-]*(\s+@\w[\w-]*)*\s*$|@diff-train|\^ please use this|"
    r"this pr was created by the merge bot|the original pr|stack from \[?ghstack|"
    r"\*?\s*(__->__\s*)?#\d+\s*$|[-*]\s*\[[ xX]\]|\||fixes #\d+\s*$|authored with \w+\.?\s*$)",
    re.I,
)
#: A section's label written on the line it introduces (``Summary: The planner ...``).
_INLINE_LABEL = re.compile(
    r"^\s*(?:summary|description|motivation|context|overview|background)\s*:\s+(?=\S)", re.I
)
_HEADING = re.compile(r"^\s*(#{1,6}\s+(?P<md>.+?)\s*#*\s*$|(?P<colon>[A-Z][A-Za-z /&]{1,30}):\s*$)")
_DROP_SECTIONS = re.compile(
    r"^(test(s|ing)?( plan| results| done)?|validation|verification|how (was|is) this tested|"
    r"reviewers|subscribers|tasks|tags|checklist|stack(ed prs)?|rollback plan|benchmarks?|"
    r"benchmark results|results|before|after|repro(duction)?|logs?|output|screenshots?|"
    r"cc|related( prs| issues)?|dataset overview|.* metrics|stability assessment|"
    r"interpretation|recommendation|for example|example|usage)$",
    re.I,
)
_BULLET = re.compile(r"^\s*([-*+]|\d+[.)])\s+")
#: A checklist item of a pull request template ("- [x] Prefix your PR title …").
_CHECKBOX = re.compile(r"^\s*[-*]\s*\[[ xX]\]")
_JUNK = re.compile(r"^(init|wip|tbd|n/?a|none|see title|as titled|title|todo|\.+)$", re.I)


_STOPWORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "this",
        "that",
        "from",
        "into",
        "are",
        "was",
        "were",
        "has",
        "have",
        "been",
        "its",
        "also",
        "which",
        "when",
        "then",
        "than",
        "pr",
        "diff",
        "patch",
        "change",
        "commit",
    ]
)
#: How much of a body is read for its summary and facts.
READ_LIMIT = 8_000
_LINK_GONE = "\ue000"  # a private-use character: never printed, only tested for


def clean_body(body: str) -> str:
    """Return ``body`` as plain prose paragraphs, without templates, trailers or markup.

    Sections such as *Test plan* are dropped with their contents; headings, images,
    code blocks, HTML, ``cc`` lists and checklists are removed; links keep their text.
    """
    return _clean(body, url_mark="")


def summarize_body(body: str, title: str) -> tuple[str, str]:
    """Return ``body`` cleaned (as :func:`clean_body`) and its summary (as :func:`summary_of`).

    Only the first :data:`READ_LIMIT` characters are read: what a summary quotes and the
    facts a writer looks for come early, and bodies of 150 kB would dominate the day.
    """
    read = _METADATA_BLOCK.sub("", _LINK_ONLY_ITEM.sub("", body[:READ_LIMIT]))
    marked = _clean(read, url_mark=_LINK_GONE)
    return marked.replace(_LINK_GONE, ""), _summary(marked, title, 240)


#: A list item that is a link and nothing else ("- [Release notes](…)"): it points at
#: what is not retold, and its words alone make no sentence.
_LINK_ONLY_ITEM = re.compile(r"^[ \t]*[-*+][ \t]+\[[^\]\n]*\]\([^)\n]*\)[ \t]*$\n?", re.M)

#: A bot's metadata after a rule ("---\nupdated-dependencies:\n- dependency-name: x"):
#: keys and values, no prose.
_METADATA_BLOCK = re.compile(r"^-{3,}[ \t]*\n(?:[ \t]*(?:-[ \t]+)?[\w-]+:.*(?:\n|$))+", re.M)


#: How a fragment opens with the issue it closes: "Fixed #9341: ", "Closes #12, #13 - ".
_ISSUE_OPENING = re.compile(
    r"^(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)?\s*`?(?:[\w.-]+/)?[\w.-]*#\d+`?"
    r"(?:\s*(?:,|and)\s*`?(?:[\w.-]+/)?[\w.-]*#\d+`?)*"
    r"\s*[:.\u2013-]\s*",
    re.I,
)
_CONVENTIONAL_OPENING = re.compile(r"^[a-z]+(?:\([^)]*\))?!?:\s+")


def _angle_quoted(span: re.Match[str]) -> str:
    return span[0].replace("<", "\u2039").replace(">", "\u203a")


#: Where an issue was reported, said of a fault: "reported in #10708", "(#123)".
_ISSUE_REPORTED = re.compile(
    r"\s+(?:(?:as )?(?:reported|raised|described|filed|tracked|mentioned) )?in #\d+\b"
    r"|\s+\(#\d+\)"
)


def summarize_fragment(fragment: str, title: str) -> str:
    """The summary of a change's release-note ``fragment`` (written for its users): its first
    sentences without the issue it closes, or ``""`` when it only says the ``title`` again."""
    _, summary = summarize_body(fragment, title)
    summary = _CONVENTIONAL_OPENING.sub("", _ISSUE_OPENING.sub("", summary))
    # "a parser panic reported in #10708: Biome now recovers when …": the issue is no news,
    # and what follows the colon is a sentence of its own.
    summary = _ISSUE_REPORTED.sub("", summary)
    summary = re.sub(r": (?=[A-Z][a-z]+ (?:now|no longer|will|can|does|is|are)\b)", ". ", summary)
    said = set(re.findall(r"\w+", summary.lower()))
    if not said or said <= set(re.findall(r"\w+", title.lower())):
        return ""  # "fix: render `:catch` …", the title again
    first, _, rest = summary.partition(" ")
    opens_object = re.match(r"(?:an?|the|support|`)\b|`", rest, re.I) is not None
    if rest and first.lower().endswith("ed") and opens_object and (verb := third_person(first)):
        return f"It {verb} {rest}"  # "Fixed an LSP crash …", a changelog's voice: "It fixes …"
    return summary[:1].upper() + summary[1:]


def _clean(body: str, url_mark: str) -> str:
    text = neutralise(body)
    if "`<" in text:  # only spans that quote a tag: `Vec<T>` is code as it is
        # A tag quoted as code (`<img>`) is named, in angle quotes no browser reads as HTML.
        text = _CODE_SPAN.sub(_angle_quoted, text)
    for pattern, hint in ((_HTML_COMMENT, "<!--"), (_DETAILS, "<"), (_FENCE, "``"), (_IMAGE, "")):
        if hint in text:
            text = pattern.sub("\n", text)
    kept: list[str] = []
    dropping = False
    ticked = False  # inside a checklist item, whose lines wrap on
    for line in text.split("\n"):
        heading = _HEADING.match(line)
        if heading:
            title = (heading.group("md") or heading.group("colon") or "").strip(" :*_")
            dropping = bool(_DROP_SECTIONS.match(title))
            kept.append("")
            continue
        if _CHECKBOX.match(line):
            ticked = True
            continue
        if ticked and line.strip() and not _BULLET.match(line):
            continue  # "reason. For large changes, …": the checklist item wrapped
        ticked = False
        if dropping or _TRAILER.match(line) or _NOISE_LINE.match(line):
            continue
        kept.append(_clean_line(line, url_mark))
    paragraphs = re.split(r"\n\s*\n", "\n".join(kept))
    return "\n\n".join(p.strip() for p in paragraphs if p.strip())


def _clean_line(line: str, url_mark: str) -> str:
    """``line`` with links reduced to their text and tags, ``cc`` lists, emphasis, URLs gone,
    and no section label in front (``Summary:``)."""
    if "` " in line:
        line = _retick(line)
    if ":" in line:
        line = _INLINE_LABEL.sub("", line)
    # Each pattern runs only when the line has the character it needs: most lines have none.
    if "](" in line:
        line = _LINK.sub(r"\1", line)
    if "][" in line:
        line = _REF_LINK.sub(r"\1", line)
    if "<" in line:
        line = _TAG.sub("", line)
    if "@" in line:
        line = _INLINE_CC.sub("", line)
    if "~~" in line:
        line = _STRUCK.sub("", line)
    if "*" in line or "__" in line:
        line = _EMPHASIS.sub(r"\2", line).replace("**", "")
    if "://" in line:
        line = _URL.sub(url_mark, line)
    return line.rstrip()


def _retick(line: str) -> str:
    """``line`` with each code span that opens glued to the word before it and a space
    inside ("a legacy` .egg-info` file") opened where its code starts ("a legacy
    `.egg-info` file"); a span closed so ("`x` and") is left as it is."""
    out: list[str] = []
    opening = True
    i = 0
    while i < len(line):
        char = line[i]
        if char == "`":
            glued = opening and i > 0 and line[i - 1].isalnum() and line[i + 1 : i + 2] == " "
            if glued:
                out.append(" `")
                i += 2  # the space inside the span goes before it
                opening = False
                continue
            opening = not opening
        out.append(char)
        i += 1
    return "".join(out)


def summary_of(body: str, title: str, max_chars: int = 240) -> str:
    """Return the first whole sentences of ``body`` (cleaned) worth quoting under ``title``.

    Gives ``""`` when the body has no prose of at least five words beyond the title. The
    result is one line of whole sentences, at most ``max_chars`` characters (a longer
    first sentence is passed over, never cut), ending in a full stop.
    """
    return _summary(_clean(body, url_mark=_LINK_GONE), title, max_chars)


def in_short(body: str, title: str) -> tuple[str, ...]:
    """Return what a change's page says of it "in short": the sentences of ``body`` worth
    quoting under ``title`` (at most 480 characters, see :func:`summary_of`), retold as an
    edition prints them, each ending in a full stop; ``()`` when the body says nothing more.
    """
    return tuple(f"{s}." for s in retell(summary_of(body, title, max_chars=480)))


def _summary(marked: str, title: str, max_chars: int) -> str:
    for paragraph in marked.split("\n\n"):
        prose = one_line(" ".join(_as_sentences(paragraph.split("\n")))).strip(" *_")
        if not _says_something(prose, title):
            continue
        # A sentence that lost a bare URL usually no longer reads ("see  for details").
        sentences = [s for s in split_sentences(prose) if _LINK_GONE not in s]
        picked = ""
        for sentence in sentences:
            candidate = f"{picked} {sentence}".strip()
            if len(candidate) > max_chars:
                break
            picked = candidate
        picked = picked.rstrip(" :;,-")
        if picked and _says_something(picked, title):
            return picked if picked.endswith((".", "!", "?")) else picked + "."
    return ""


def _as_sentences(lines: list[str]) -> list[str]:
    """Strip list markers from ``lines``; a list item without end punctuation gets a full stop.

    A line that follows a list item without a marker of its own continues that item (a
    hard-wrapped bullet). A list of short items (names, not sentences) becomes one
    comma-separated run instead.
    """
    items: list[tuple[bool, str]] = []  # (is a list item, text)
    for line in lines:
        text = _BULLET.sub("", line).strip()
        bullet = text != line.strip()
        if not text:
            continue
        if not bullet and items and items[-1][0]:
            items[-1] = (True, f"{items[-1][1]} {text}")
        else:
            items.append((bullet, text))
    bullets = [text for bullet, text in items if bullet]
    if len(bullets) >= 3 and all(len(item.split()) <= 3 for item in bullets):
        prose = [text for bullet, text in items if not bullet]
        return [*prose, ", ".join(item.rstrip(".;,") for item in bullets) + "."]
    return [
        text + "." if bullet and not text.endswith((".", "!", "?", ":")) else text
        for bullet, text in items
    ]


def _says_something(text: str, title: str) -> bool:
    """True when ``text`` has five words or more and its content words add to ``title``'s."""
    words = re.findall(r"\w+", text.lower())
    if len(words) < 5 or _JUNK.match(text.strip()):
        return False
    content = [_stem(w) for w in words if len(w) > 2 and w not in _STOPWORDS]
    title_words = {_stem(w) for w in re.findall(r"\w+", title.lower())}
    novel = [w for w in content if w not in title_words]
    return len(novel) >= 3 and len(novel) >= 0.4 * len(content)


@functools.lru_cache(maxsize=8192)
def _stem(word: str) -> str:
    return re.sub(r"(ing|ed|es|e|s)$", "", word) if len(word) > 4 else word
