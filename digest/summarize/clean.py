"""Turn a pull request's body into the few sentences worth quoting.

Bodies carry templates, HTML comments, ``cc @`` lists, trailers, ghstack stack lists,
checklists, images and code. :func:`clean_body` removes all of that and keeps prose;
:func:`summary_of` picks the first sentences that say something the title does not.
"""

from __future__ import annotations

import re

from digest.text import neutralise, one_line

_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_FENCE = re.compile(r"^\s*(```|~~~).*?(?:^\s*\1[^\n]*$|\Z)", re.S | re.M)
_DETAILS = re.compile(r"<details\b.*?(?:</details>|\Z)", re.S | re.I)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|<img\b[^>]*>", re.I)
_LINK = re.compile(r"\[([^\]]+)\]\((?:[^()\s]|\([^)]*\))*\)")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_INLINE_CC = re.compile(r"\bcc:?\s+@[\w/-]+(?:[\s,]+(?:and\s+)?@[\w/-]+)*", re.I)
_EMPHASIS = re.compile(r"(\*\*|__|(?<![\w*])\*(?=\S))(.+?)\1")
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
_HEADING = re.compile(r"^\s*(#{1,6}\s+(?P<md>.+?)\s*#*\s*$|(?P<colon>[A-Z][A-Za-z /&]{1,30}):\s*$)")
_DROP_SECTIONS = re.compile(
    r"^(test(s|ing)?( plan| results| done)?|validation|verification|how (was|is) this tested|"
    r"reviewers|subscribers|tasks|tags|checklist|stack(ed prs)?|rollback plan|benchmarks?|"
    r"benchmark results|results|before|after|repro(duction)?|logs?|output|screenshots?|"
    r"cc|related( prs| issues)?|dataset overview|.* metrics|stability assessment|"
    r"interpretation|recommendation|for example|example|usage)$",
    re.I,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(\[])")
_BULLET = re.compile(r"^\s*([-*+]|\d+[.)])\s+")
_JUNK = re.compile(r"^(init|wip|tbd|n/?a|none|see title|as titled|title|todo|\.+)$", re.I)


_LINK_GONE = "\ue000"  # a private-use character: never printed, only tested for


def clean_body(body: str) -> str:
    """Return ``body`` as plain prose paragraphs, without templates, trailers or markup.

    Sections such as *Test plan* are dropped with their contents; headings, images,
    code blocks, HTML, ``cc`` lists and checklists are removed; links keep their text.
    """
    return _clean(body, url_mark="")


def _clean(body: str, url_mark: str) -> str:
    text = neutralise(body)
    for pattern in (_HTML_COMMENT, _DETAILS, _FENCE, _IMAGE):
        text = pattern.sub("\n", text)
    kept: list[str] = []
    dropping = False
    for line in text.split("\n"):
        heading = _HEADING.match(line)
        if heading:
            title = (heading.group("md") or heading.group("colon") or "").strip(" :*_")
            dropping = bool(_DROP_SECTIONS.match(title))
            kept.append("")
            continue
        if dropping or _TRAILER.match(line) or _NOISE_LINE.match(line):
            continue
        line = _INLINE_CC.sub("", _TAG.sub("", _LINK.sub(r"\1", line)))
        line = _EMPHASIS.sub(r"\2", line)
        kept.append(_URL.sub(url_mark, line).rstrip())
    paragraphs = re.split(r"\n\s*\n", "\n".join(kept))
    return "\n\n".join(p.strip() for p in paragraphs if p.strip())


def summary_of(body: str, title: str, max_chars: int = 240) -> str:
    """Return the first sentences of ``body`` (cleaned) worth quoting under ``title``.

    Gives ``""`` when the body has no prose of at least five words beyond the title.
    The result is one line of at most ``max_chars`` characters ending in a full stop.
    """
    for paragraph in _clean(body, url_mark=_LINK_GONE).split("\n\n"):
        prose = one_line(" ".join(_as_sentences(paragraph.split("\n")))).strip(" *_")
        if not _says_something(prose, title):
            continue
        # A sentence that lost a bare URL usually no longer reads ("see  for details").
        sentences = [s for s in _SENTENCE_END.split(prose) if _LINK_GONE not in s]
        if not sentences:
            continue
        picked = ""
        for sentence in sentences:
            candidate = f"{picked} {sentence}".strip()
            if len(candidate) > max_chars:
                break
            picked = candidate
        if not picked:
            picked = _cut(sentences[0], max_chars)
        picked = picked.rstrip(" :;,-")
        if _says_something(picked, title):
            return picked if picked.endswith((".", "!", "?")) else picked + "."
    return ""


def split_sentences(text: str) -> list[str]:
    """Split prose ``text`` into sentences (at ., ! or ? followed by a capital)."""
    return [s for s in _SENTENCE_END.split(text.strip()) if s]


def _as_sentences(lines: list[str]) -> list[str]:
    """Strip list markers from ``lines``; a list item without end punctuation gets a full stop.

    A list of short items (names, not sentences) becomes one comma-separated run instead.
    """
    items = [(line, _BULLET.sub("", line).strip()) for line in lines]
    bullets = [item for line, item in items if item and item != line.strip()]
    if len(bullets) >= 3 and all(len(item.split()) <= 3 for item in bullets):
        prose = [item for line, item in items if item and item == line.strip()]
        return [*prose, ", ".join(item.rstrip(".;,") for item in bullets) + "."]
    out: list[str] = []
    for line, item in items:
        if item != line.strip() and item and not item.endswith((".", "!", "?", ":")):
            item += "."
        out.append(item)
    return out


def _says_something(text: str, title: str) -> bool:
    words = re.findall(r"\w+", text.lower())
    if len(words) < 5 or _JUNK.match(text.strip()):
        return False
    title_words = set(re.findall(r"\w+", title.lower()))
    novel = [w for w in words if w not in title_words]
    return len(novel) >= 3


def _cut(text: str, max_chars: int) -> str:
    """Shorten ``text`` at a word boundary to at most ``max_chars`` characters, with an ellipsis."""
    if len(text) <= max_chars:
        return text
    cut = text[: max_chars - 1].rsplit(" ", 1)[0].rstrip(" ,;:-(")
    return cut + "…"
