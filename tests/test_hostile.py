"""Hostile and unlucky pull-request text: every title and body still yields an edition.

Titles and bodies that look like the edition's own syntax (``sizes[0]``, ``www.``,
``## token``, ``cc @``, trailers, ``**kwargs``, escapes) are defused before the writer
reads them, so the day's edition keeps every rule and no citation can be forged.
"""

from __future__ import annotations

import itertools

import pytest

from digest.config import ProjectSettings, RepoSettings
from digest.render.markup import MarkupRenderer
from digest.summarize.checks import CITE, problems
from digest.summarize.extractive import ExtractiveWriter
from digest.summarize.select import make_brief
from digest.summarize.untrusted import defuse, defuse_text
from tests.pulls import DAY, make_pull

pytestmark = pytest.mark.reliability

PROJECT = ProjectSettings(
    name="Rocket", repos=(RepoSettings(name="acme/rocket"), RepoSettings(name="acme/pad"))
)

TITLES = (
    "Fix out-of-bounds read of sizes[0] in reshape",
    "Use www.download.example.org mirror",
    "Fix ## token pasting in the preprocessor",
    "Fix [1] being read as a footnote in docs",
    "Handle `[2]` and [10] indices in the scheduler",
    'Revert "Fix sizes[0]"',
    "Fix issue #123 and [0]",
    "cc @alice please look at the fuser",
    "Signed-off-by: Bob Example <bob@example.invalid>",
    "Fix ### heading markers <!-- in docs",
    "Remove deprecated `www.` prefix handling",
    "Support **kwargs and *args in the dispatcher",
    "Add std::vector<int> support to the loader",
    "Fix \\<script> escaping in render",
    "![diagram](https://example.invalid/a.png)",
    "Fix crash in parser\x00 on empty input",
    "Use https://example.invalid/path as the mirror",
    "Fix [link](http://example.invalid) in titles",
    "Add @torch.compile decorator support",
    "Fix a|b table pipes in the report",
    "```python unterminated fence in the title",
    "Stack from [ghstack](https://example.invalid): refactor the loader",
    "Differential Revision: D12345678",
)
BODIES = (
    "",
    "cc @alice @bob",
    "Signed-off-by: Carol <carol@example.invalid>",
    "Fix the sizes[0] read. See www.example.invalid for more about the loader today.",
    "This fixes [1] and [2] in the scheduler so that reshape works again for all users.",
    "\\<script>alert(1)</script> escapes are handled correctly across all renderers now.",
    "Visit www.download.example.org mirror for faster wheels and more reliable installs.",
    "The ## operator pastes tokens; this fixes the preprocessor so that it handles it well.",
    "Pass **kwargs through the dispatcher so that callers keep their keyword arguments.",
)


def _edition(title: str, body: str):  # type: ignore[no-untyped-def]
    pulls = [
        make_pull(title, body, files={"src/rocket/engine.py": (300, 50)}),
        make_pull("Tidy the launch pad guide", "", repo="acme/pad", files={"docs/pad.md": (3, 1)}),
    ]
    return ExtractiveWriter().write(make_brief(PROJECT, DAY, pulls)), pulls


@pytest.mark.parametrize("title", TITLES)
def test_every_hostile_title_and_body_yields_an_edition_that_keeps_the_rules(title: str) -> None:
    for body in BODIES:
        digest, pulls = _edition(title, body)
        assert problems(digest, pulls) == [], (title, body)


def test_a_title_with_brackets_forges_no_citation() -> None:
    # The forged "[2]" would point at the second change if it were taken for a citation.
    digest, _ = _edition("Fix [2] and [1] handling in reshape", "")
    plain_texts = [
        digest.headline,
        digest.dek,
        *(a.text for a in digest.action_items),
        *(f.answer for f in digest.faq[:1]),
    ]
    for text in plain_texts:
        assert "[2]" not in text and "[1] handling" not in text, text
    markup = MarkupRenderer()
    known = {ref.n for ref in digest.references}
    for action in digest.action_items:
        assert 'class="cite"' not in str(markup.inline(action.text, known))
    assert "\uff3b2\uff3d" in digest.body  # the index reads as written, in look-alike brackets


def test_defuse_keeps_markdown_emphasis_and_body_headings() -> None:
    body = "## Summary\nThis is **important** for users.\n\n## Test plan\nRun a ## b."
    assert (
        defuse_text(body)
        == "## Summary\nThis is **important** for users.\n\n## Test plan\nRun a ##b."
    )


def test_an_image_only_title_gets_a_name_not_an_empty_quote() -> None:
    pull = make_pull("![](https://example.invalid/x.png)", number=77)
    assert defuse(pull).title == "Untitled change #77"
    digest, _ = _edition("![](https://example.invalid/x.png)", "")
    assert "“”" not in digest.headline + digest.dek and '""' not in digest.body


def test_two_hostile_titles_on_one_day_yield_an_edition() -> None:
    # Every pairing of the corpus, in both repositories' order: still one edition each.
    for title, other in itertools.islice(itertools.permutations(TITLES, 2), 40):
        pulls = [
            make_pull(title, "", files={"src/rocket/engine.py": (200, 10)}),
            make_pull(other, "", repo="acme/pad", files={"src/pad/arm.py": (150, 5)}),
        ]
        digest = ExtractiveWriter().write(make_brief(PROJECT, DAY, pulls))
        assert problems(digest, pulls) == [], (title, other)
        assert all(int(n) <= len(digest.references) for n in CITE.findall(digest.body))


def test_a_type_in_angle_brackets_is_kept_and_stray_escapes_go() -> None:
    digest, pulls = _edition(
        "Add std::vector<int> support to the loader",
        "\\<script>alert(1)</script> The loader now accepts vectors of any integer type.",
    )
    assert problems(digest, pulls) == []
    assert "std::vector\u2039int\u203a" in digest.headline
    assert "\\" not in digest.body and "<script" not in digest.body
    # What the author escaped is text, and a sentence that opens with it no sentence to retell.
    assert "alert" not in digest.body


def test_defused_bodies_still_lose_templates_trailers_and_stacks() -> None:
    from digest.summarize.clean import clean_body

    body = (
        "<!-- Describe your change -->\nStack from [ghstack](https://example.invalid):\n"
        "* __->__ #12\n\nThe loader now reads vectors of any integer type.\n\n"
        "Signed-off-by: Ada <ada@example.invalid>\nDifferential Revision: D1234"
    )
    expected = "The loader now reads vectors of any integer type."
    assert clean_body(defuse_text(body)) == clean_body(body) == expected
