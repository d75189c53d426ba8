"""Pull-request text made harmless for the edition's rules before any writer reads it.

A title or body is data, yet some ordinary ones look like the edition's own syntax:
``sizes[0]`` reads as a citation, ``www.`` and ``cc @`` as leftover markup, ``##`` as a
heading, ``**kwargs`` as emphasis. :func:`defuse` rewrites those spots so that no text
taken from a pull request can forge a citation or make an edition break its rules, while
the words (what grounding and readers rely on) stay as they were.
"""

from __future__ import annotations

import re

import msgspec.structs

from digest.models import PullRequest
from digest.text import neutralise

# "[0]" is a citation in an edition; a pull request's is an index. The full-width
# brackets read the same and can never be taken for one (as angle quotes stand in for <>).
_CITATION_LIKE = re.compile(r"\[(\d+)\](?!\()")
_HEADING_LINE = re.compile(r"^[ \t]*#{1,6}[ \t]")
_HASHES = re.compile(r"(#{2,})[ \t]+")
# "**kwargs": stars before a name that no later "**" closes (so not **bold**).
_UNPAIRED_STARS = re.compile(r"\*\*(?=\w)(?![^\n]*?\*\*)")
_WWW = re.compile(r"\bwww\.(?=[\w-]+\.)", re.I)
_CC = re.compile(r"\bcc:?\s+(@[\w/-]+[\s,]*)+", re.I)
# The trailers the edition's markup check looks for (checks._LEFTOVER).
_TRAILERS = (
    "signed-off-by|co-authored-by|differential revision|pull request resolved|ghstack-source-id"
)
_TRAILER_LINE = re.compile(rf"^\s*({_TRAILERS})\s*:", re.I)
_TRAILER_KEY = re.compile(rf"\b({_TRAILERS})\s*:\s*", re.I)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|<img\b[^>]*>", re.I)
_EMAIL = re.compile(r"<[^<>\s@]+@[^<>\s]+>")
_STACK = re.compile(r"\bstack from (\[?)ghstack", re.I)
_STACK_LINE = re.compile(r"^\s*stack from \[?ghstack", re.I)
_COMMENT_OPEN = re.compile(r"<!--")  # In a title; a body's comments are the cleaner's.
# "<int>" in "std::vector<int>" is a type, not a tag: only HTML's own names are tags.
_HTML_NAMES = (
    "a|abbr|address|area|article|aside|audio|b|base|bdi|bdo|big|blink|blockquote|body|br|"
    "button|canvas|caption|center|cite|code|col|colgroup|data|datalist|dd|del|details|dfn|"
    "dialog|div|dl|dt|em|embed|fieldset|figcaption|figure|font|footer|form|frame|frameset|"
    "h[1-6]|head|header|hr|html|i|iframe|img|input|ins|kbd|label|legend|li|link|main|map|"
    "mark|marquee|math|meta|meter|nav|noscript|object|ol|optgroup|option|output|p|param|"
    "picture|pre|progress|q|rp|rt|ruby|s|samp|script|section|select|slot|small|source|span|"
    "strike|strong|style|sub|summary|sup|svg|table|tbody|td|template|textarea|tfoot|th|"
    "thead|time|title|tr|track|tt|u|ul|var|video|wbr"
)
_NOT_A_TAG = re.compile(rf"<(?!/?(?:{_HTML_NAMES})\b)([A-Za-z_][\w:, *&]*)>", re.I)
_SCRIPT = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>", re.I | re.S)
# "\<tag>": the author meant the characters, so they stay text (angle quotes), never a tag.
_ESCAPED_ANGLE = re.compile(r"\\([<>])")
_STRAY_ESCAPE = re.compile(r"\\(?=[\[\]*_`#!|~{}()\\])")


def defuse(pull: PullRequest) -> PullRequest:
    """Return ``pull`` with its title and body defused (see :func:`defuse_text`) and its
    paths too (see :func:`defuse_path`).

    A title left with no words (an image) or that is a trailer (``Signed-off-by: ...``)
    becomes ``Untitled change #N``.
    """
    title = _IMAGE.sub(" ", _HEADING_LINE.sub("", pull.title))
    title = _TRAILER_KEY.sub("", " ".join(defuse_text(title).split()))
    title = _STACK.sub(r"stacked with \1ghstack", title)
    title = _COMMENT_OPEN.sub("\u2039!--", title)
    if not re.search(r"\w", title) or _TRAILER_KEY.match(pull.title.strip()):
        title = (
            f"Untitled change #{pull.number}"
            if pull.number is not None
            else f"Untitled commit {(pull.sha or '')[:10]}".strip()
        )
    body = defuse_text(pull.body)
    files = pull.files
    if any(_PATH_MARKUP.search(change.path) for change in files):
        files = tuple(
            msgspec.structs.replace(change, path=defuse_path(change.path)) for change in files
        )
    if title == pull.title and body == pull.body and files is pull.files:
        return pull
    return msgspec.structs.replace(pull, title=title, body=body, files=files)


#: What a path may hold that reads as markup once a writer names its folder.
_PATH_MARKUP = re.compile(r"[<>\[\]`*]")
_PATH_LOOKALIKES = str.maketrans("<>[]`*", "\u2039\u203a\uff3b\uff3d\u02cb\u2217")


def defuse_path(path: str) -> str:
    """``path`` with angle brackets, square brackets, backticks and asterisks as look-alikes
    that no Markdown or HTML reads: ``src/<b>x</b>`` gets angle quotation marks."""
    return path.translate(_PATH_LOOKALIKES)


def defuse_text(text: str) -> str:
    """Return ``text`` neutralised, with everything that mimics edition syntax rewritten.

    ``[n]`` gets full-width brackets and a type in angle brackets (``vector<int>``) angle
    quotes; ``www.`` in a host name, ``cc @...`` lists, trailer keys within a line
    (``... Signed-off-by: ...``), e-mail addresses in angle brackets, scripts and styles
    with their content, and stray backslash escapes are dropped; ``##`` within a line is
    joined to its operand; an unpaired ``**`` (``**kwargs``) becomes two U+2217 (asterisk
    operator). Headings, trailer and ghstack lines are left for the cleaner to drop.
    """
    text = neutralise(text)
    text = _ESCAPED_ANGLE.sub(lambda m: "\u2039" if m.group(1) == "<" else "\u203a", text)
    text = re.sub("\u2039(/?[A-Za-z][\\w-]*)>", "\u2039\\1\u203a", text)
    text = _SCRIPT.sub(" ", _STRAY_ESCAPE.sub("", text))
    text = _NOT_A_TAG.sub("\u2039\\1\u203a", text)
    text = _CITATION_LIKE.sub("\uff3b\\1\uff3d", text)
    # A body's headings, trailer and ghstack lines stay as they are: they mark what the
    # cleaner drops. Within other lines, "a ## b" joins and trailer keys go.
    text = "\n".join(
        line
        if _HEADING_LINE.match(line) or _TRAILER_LINE.match(line) or _STACK_LINE.match(line)
        else _STACK.sub(r"stacked with \1ghstack", _TRAILER_KEY.sub("", _HASHES.sub(r"\1", line)))
        for line in text.split("\n")
    )
    text = _UNPAIRED_STARS.sub("\u2217\u2217", text)
    text = _WWW.sub("", text)
    text = _CC.sub("", text)
    return _EMAIL.sub("", text)
