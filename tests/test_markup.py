"""Edition text to safe HTML: citations, raw HTML, hostile links, invisible characters."""

from __future__ import annotations

import pytest
from html5lib import HTMLParser

from digest.render.markup import MarkupRenderer, safe_url


@pytest.fixture(scope="module")
def markup() -> MarkupRenderer:
    return MarkupRenderer()


def tree(html: str):  # type: ignore[no-untyped-def]
    """Parse an HTML fragment strictly and return its root element."""
    return HTMLParser(strict=True, namespaceHTMLElements=False).parseFragment(html)


def links(html: str) -> list[dict[str, str]]:
    return [dict(a.attrib) for a in tree(html).iter("a")]


def text_of(html: str) -> str:
    return "".join(tree(html).itertext())


def test_citations_link_to_existing_references_only(markup: MarkupRenderer) -> None:
    html = markup.block("Fast now [1]. Also [2][3]. Unknown [9].", {1, 2, 3})
    assert [a["href"] for a in links(html)] == ["#ref-1", "#ref-2", "#ref-3"]
    assert all(a["class"] == "cite" and "rel" not in a for a in links(html))
    assert "Unknown [9]." in text_of(html)


def test_citations_in_code_stay_code(markup: MarkupRenderer) -> None:
    html = markup.block("Index with `a[1]` then cite [1].", {1})
    assert [a["href"] for a in links(html)] == ["#ref-1"]
    assert tree(html).find(".//code").text == "a[1]"


def test_citation_base_prefixes_links(markup: MarkupRenderer) -> None:
    html = markup.block("See [2].", {2}, "https://news.example.org/x/2026-01-01.html")
    assert links(html) == [
        {"class": "cite", "href": "https://news.example.org/x/2026-01-01.html#ref-2"}
    ]


@pytest.mark.parametrize(
    "hostile",
    [
        "<script>alert(1)</script>",
        '<img src="x" onerror="alert(1)">',
        "<div onclick=alert(1)>\nblock\n</div>",
        "<iframe src=https://evil.example></iframe>",
        "<style>body{display:none}</style>",
        "<!-- hidden --><a href='javascript:alert(1)'>x</a>",
    ],
)
def test_raw_html_becomes_text(markup: MarkupRenderer, hostile: str) -> None:
    html = markup.block(f"Before {hostile} after [1].", {1})
    root = tree(html)
    tags = {el.tag for el in root.iter()} - {"DOCUMENT_FRAGMENT"}
    assert tags <= {"p", "a"}
    assert all(not name.startswith("on") for el in root.iter() for name in el.attrib)
    assert [a.get("href") for a in root.iter("a")] == ["#ref-1"]
    # The markup survives as visible text, so a reader sees what the author wrote.
    assert "<" in text_of(html)


@pytest.mark.parametrize(
    "source",
    [
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        "[click](data:text/html;base64,PHNjcmlwdD4=)",
        "[click](vbscript:msgbox(1))",
        "[click](/etc/passwd)",
        "[click](../relative/page.html)",
        "[click][evil]\n\n[evil]: javascript:alert(1)",
        "![img](https://tracker.example/pixel.png)",
    ],
)
def test_unsafe_links_lose_their_href(markup: MarkupRenderer, source: str) -> None:
    html = markup.block(source, set())
    assert all("href" not in a for a in links(html))
    assert tree(html).find(".//img") is None


def test_external_links_are_kept_with_rel(markup: MarkupRenderer) -> None:
    html = markup.block(
        "[docs](https://docs.example.org/a?b=1) and <https://x.example/> and "
        "[mail](mailto:desk@example.org) and [top](#ref-1)",
        set(),
    )
    assert links(html) == [
        {"href": "https://docs.example.org/a?b=1", "rel": "noopener noreferrer"},
        {"href": "https://x.example/", "rel": "noopener noreferrer"},
        {"href": "mailto:desk@example.org", "rel": "noopener noreferrer"},
        {"href": "#ref-1"},
    ]


def test_markdown_formatting_survives(markup: MarkupRenderer) -> None:
    html = markup.block("Some *emphasis* and **weight**.\n\n- one\n- two\n\n> quoted", set())
    tags = [el.tag for el in tree(html).iter()]
    for tag in ("p", "em", "strong", "ul", "li", "blockquote"):
        assert tag in tags


def test_disallowed_markdown_is_flattened(markup: MarkupRenderer) -> None:
    html = markup.block("# Big heading\n\nText\n\n---", set())
    tags = {el.tag for el in tree(html).iter()} - {"DOCUMENT_FRAGMENT"}
    assert tags <= {"p"}
    assert "Big heading" in text_of(html)


def test_bidi_and_invisible_characters_are_stripped(markup: MarkupRenderer) -> None:
    sneaky = "admin\u202e\u2066txt.exe\u2069\u200b [1]"
    for html in (markup.block(sneaky, {1}), markup.inline(sneaky, {1})):
        assert not any(ch in html for ch in "\u202e\u2066\u2069\u200b")
        assert "admintxt.exe" in text_of(html)


def test_inline_escapes_and_cites(markup: MarkupRenderer) -> None:
    html = markup.inline("Check <b onmouseover=x>this</b> & that [2] [5]", {2})
    root = tree(html)
    assert root.find(".//b") is None
    assert links(html) == [{"class": "cite", "href": "#ref-2"}]
    assert text_of(html) == "Check <b onmouseover=x>this</b> & that [2] [5]"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://github.com/acme/rockets/pull/1", "https://github.com/acme/rockets/pull/1"),
        ("  http://example.org/x  ", "http://example.org/x"),
        ("HTTPS://EXAMPLE.ORG/", "HTTPS://EXAMPLE.ORG/"),
        ("javascript:alert(1)", None),
        ("data:text/html,hi", None),
        ("//evil.example/x", None),
        ("/relative", None),
        ("https://", None),
        ("https://exa mple.org/", None),
        ("http://[broken", None),
    ],
)
def test_safe_url(url: str, expected: str | None) -> None:
    assert safe_url(url) == expected


def test_titles_show_code_spans_as_code_and_nothing_else_as_markup() -> None:
    from digest.render.markup import title_html

    html = title_html("Use `torch.compile` for <b>fast</b> `paths` and a lone ` tick")
    assert str(html) == (
        "Use <code>torch.compile</code> for &lt;b&gt;fast&lt;/b&gt; <code>paths</code>"
        " and a lone ` tick"
    )
    assert str(title_html("`<script>alert(1)</script>`")) == (
        "<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>"
    )


@pytest.mark.parametrize(
    "base",
    [
        "https://news.example.org/wire/rocket/2026-03-04.html",
        'https://news.example.org/a&b/it\'s "here"/<x>.html',
        "rocket/2026-03-04.html",
    ],
)
@pytest.mark.parametrize(
    "text",
    [
        "Valves open [1] and close [2][3], see [9] and [the notes](#ref-2).",
        "- a list [1]\n- with `[2]` in code\n\n**bold** [3] and [a link](https://example.org/x?a=1&b=2).",
        '<a class="cite" href="#ref-1">[1]</a> typed by hand [1]',
    ],
)
def test_a_body_converted_once_reads_as_converted_for_each_base(
    markup: MarkupRenderer, text: str, base: str
) -> None:
    page = markup.block(text, {1, 2, 3})
    again = markup.block(text, {1, 2, 3}, base)
    # The reference: Markdown run again with the base, as before conversions were shared.
    assert again == MarkupRenderer()._convert(text, {1, 2, 3}, base)
    assert page == MarkupRenderer()._convert(text, {1, 2, 3}, "")


def test_what_an_edition_escapes_shows_without_its_backslash(markup: MarkupRenderer) -> None:
    from digest.summarize.phrasing import md_escape

    said = "It saves ~4.6 MB, keeps a | b and shows <b>bold</b> as text"
    assert md_escape("~4.6 MB") == "\\~4.6 MB"  # escaped in the text an edition stores
    html = markup.block(md_escape(said), set())
    assert text_of(html) == said, html
    assert not tree(html).findall(".//b")
