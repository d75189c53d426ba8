"""Untrusted edition text to safe HTML: Markdown without raw HTML, ``[n]`` citations, nh3.

Everything a digest says (and the pull-request titles inside it) is untrusted. Text is
neutralised, converted by Python-Markdown with raw HTML switched off, its ``[n]``
citations turned into links to the references, and the result cleaned by nh3 against a
small allowlist, so whatever the text contains only ever reaches a page as text.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Collection
from urllib.parse import urlsplit

import markdown
import nh3
from markdown.inlinepatterns import InlineProcessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString
from markupsafe import Markup, escape

from digest.text import neutralise

CITATION = r"\[(\d{1,6})\]"
_CITATION = re.compile(CITATION)
_TAGS = {"p", "a", "code", "pre", "em", "strong", "ul", "ol", "li", "blockquote"}
_LINK_SCHEMES = {"http", "https", "mailto"}
EXTERNAL_REL = "noopener noreferrer"


def safe_url(url: str) -> str | None:
    """Return ``url`` stripped when it is an absolute http(s) URL with a host, else None."""
    url = neutralise(url).strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc or " " in url:
        return None
    return url


def _allowed_href(href: str) -> bool:
    if href.startswith("#"):
        return True
    try:
        parts = urlsplit(href)
    except ValueError:
        return False
    if parts.scheme.lower() == "mailto":
        return bool(parts.path)
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


class _Citations(InlineProcessor):
    """Turns ``[n]`` into a link to reference ``n`` when the edition has one."""

    def __init__(self, md: markdown.Markdown) -> None:
        super().__init__(CITATION, md)
        self.known: Collection[int] = ()
        self.base = ""

    def handleMatch(  # type: ignore[override]
        self, m: re.Match[str], data: str
    ) -> tuple[etree.Element | None, int | None, int | None]:
        """Return an ``<a class=cite>`` for ``m`` or, for an unknown number, no match."""
        n = int(m.group(1))
        if n not in self.known:
            return None, None, None
        link = etree.Element("a", {"class": "cite", "href": f"{self.base}#ref-{n}"})
        link.text = AtomicString(f"[{n}]")
        return link, m.start(0), m.end(0)


class _SafeLinks(Treeprocessor):
    """Drops links nh3 would refuse anyway and marks external links ``rel=noopener``."""

    def run(self, root: etree.Element) -> None:
        """Rewrite every ``<a>`` under ``root`` in place."""
        for link in root.iter("a"):
            href = link.get("href", "")
            cite = link.get("class") == "cite"
            link.attrib.clear()
            if cite:
                link.set("class", "cite")
            if _allowed_href(href):
                link.set("href", href)
                if not (cite or href.startswith("#")):
                    link.set("rel", EXTERNAL_REL)


class MarkupRenderer:
    """Converts edition text to sanitised HTML; one instance is reused for a whole build."""

    def __init__(self) -> None:
        self._md = markdown.Markdown(output_format="html")
        # What md_escape escapes beyond Markdown's own list ("\~4.6MB", "\|", "\<") is
        # unescaped too: never a backslash on the page.
        self._md.ESCAPED_CHARS = [*self._md.ESCAPED_CHARS, "~", "|", "<"]
        # Raw HTML in the text must come out as visible text, never as markup.
        self._md.preprocessors.deregister("html_block")
        self._md.inlinePatterns.deregister("html")
        self._citations = _Citations(self._md)
        # Above 'reference' (170) so "[1][2]" is two citations, below 'backtick' so code stays code.
        self._md.inlinePatterns.register(self._citations, "citation", 175)
        self._md.treeprocessors.register(_SafeLinks(self._md), "safe_links", 15)
        self._cleaner = nh3.Cleaner(
            tags=_TAGS,
            clean_content_tags={"script", "style"},
            attributes={"a": {"href"}},
            allowed_classes={"a": {"cite"}},
            tag_attribute_values={"a": {"rel": {EXTERNAL_REL}}},
            link_rel=None,
            url_schemes=_LINK_SCHEMES,
            url_relative=lambda url: url if url.startswith("#") else None,
        )
        #: Bodies converted this build with citations relative (``#ref-n``), by text and refs:
        #: an edition's page and its feed item (absolute citations) share one conversion.
        self._converted: dict[tuple[str, tuple[int, ...]], str] = {}

    def block(self, text: str, refs: Collection[int], base: str = "") -> Markup:
        """Return Markdown ``text`` as clean HTML; ``[n]`` (n in ``refs``) links ``base#ref-n``."""
        if base and not _PLAIN_URL.fullmatch(base):
            return self._convert(text, refs, base)  # written as the sanitiser would write it
        key = (text, tuple(sorted(refs)))
        if key not in self._converted:
            self._converted[key] = str(self._convert(text, refs, ""))  # str: Markup.replace escapes
        html = self._converted[key]
        if base:
            html = html.replace('<a class="cite" href="#ref-', f'<a class="cite" href="{base}#ref-')
        return Markup(html)

    def _convert(self, text: str, refs: Collection[int], base: str) -> Markup:
        self._citations.known = refs
        self._citations.base = base
        try:
            html = self._md.reset().convert(neutralise(text))
        finally:
            self._citations.known = ()
        return Markup(_join_citations(self._cleaner.clean(html)))

    def inline(self, text: str, refs: Collection[int], base: str = "") -> Markup:
        """Return plain ``text`` escaped; ``[n]`` (n in ``refs``) links to ``base#ref-n``."""

        def cite(match: re.Match[str]) -> str:
            n = int(match.group(1))
            if n not in refs:
                return match.group(0)
            return f'<a class="cite" href="{escape(base)}#ref-{n}">[{n}]</a>'

        return Markup(_join_citations(_CITATION.sub(cite, str(escape(neutralise(text))))))


_CODE_SPAN = re.compile(r"`([^`]+)`")
#: An absolute URL the sanitiser keeps and writes in an attribute as it is (nothing to escape).
_PLAIN_URL = re.compile(r"https?://[A-Za-z0-9:/?#\[\]@!$()*+,;=._~%-]*")


def title_html(text: str) -> Markup:
    """Return a one-line title escaped, its `code` spans (paired backticks) as ``<code>``."""
    escaped = str(escape(neutralise(text)))
    return Markup(_CODE_SPAN.sub(r"<code>\1</code>", escaped))


def _join_citations(html: str) -> str:
    """Put a word joiner between adjacent citations so "[2][3]" never breaks across lines."""
    return html.replace('</a><a class="cite"', '</a>\u2060<a class="cite"')
