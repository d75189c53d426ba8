from digest.summarize.clean import clean_body, summary_of

TEMPLATE_BODY = """<!-- Thanks for contributing! Describe your change below. -->
### Summary
Adds a retry loop around the telemetry uplink, so transient radio drops no longer abort
the mission log. See https://example.com/design for the design.

![diagram](https://example.com/d.png)

```python
for attempt in range(3):
    send()
```

### Test plan
Ran `pytest tests/uplink` 40 times.

Stack from [ghstack](https://github.com/ezyang/ghstack):
* #1204
* __->__ #1203

- [ ] docs updated
cc @alice @bob
Differential Revision: D99887766
Pull Request resolved: https://github.com/acme/rocket/pull/1203
Signed-off-by: Dana Example
"""


def test_clean_body_drops_template_trailers_and_markup() -> None:
    cleaned = clean_body(TEMPLATE_BODY)
    assert cleaned.startswith("Adds a retry loop around the telemetry uplink")
    for leftover in (
        "<!--",
        "###",
        "cc @",
        "Differential Revision",
        "Pull Request resolved",
        "Signed-off-by",
        "ghstack",
        "#1204",
        "[ ]",
        "pytest tests/uplink",
        "```",
        "diagram",
        "https://",
    ):
        assert leftover not in cleaned, leftover


def test_summary_is_first_prose_sentence_without_broken_link_sentences() -> None:
    summary = summary_of(TEMPLATE_BODY, "Retry telemetry uplink")
    assert summary == (
        "Adds a retry loop around the telemetry uplink, so transient radio drops no longer "
        "abort the mission log."
    )


def test_summary_empty_when_body_adds_nothing() -> None:
    assert summary_of("", "Fix typo") == ""
    assert summary_of("init", "Guard target") == ""
    assert summary_of("Fix typo in the docs.", "Fix typo in the docs") == ""
    assert summary_of("Authored with Codex.", "Fix binding") == ""


def test_summary_joins_bullets_as_sentences_and_caps_length() -> None:
    body = "## Changes\n- Add an API to set the quant config per submodule\n- Refine the setters\n"
    assert summary_of(body, "Quantizer settings") == (
        "Add an API to set the quant config per submodule. Refine the setters."
    )
    long = "This change " + "really " * 100 + "matters."
    assert len(summary_of(long, "x", max_chars=120)) <= 121


def test_unterminated_comment_and_bidi_are_removed() -> None:
    text = "Moves the \u202egnirts\u202c parser to a new module for clarity and reuse.\n<!-- open"
    assert (
        summary_of(text, "Move parser")
        == "Moves the gnirts parser to a new module for clarity and reuse."
    )


def test_neutralise_drops_lone_surrogates_and_keeps_real_pairs() -> None:
    from digest.text import neutralise, neutralise_strings

    assert neutralise("a\ud800b\udfffc \U0001f680") == "abc \U0001f680"
    assert neutralise_strings({"k\ud800": ["x\udc00", 3]}) == {"k": ["x", 3]}


def test_a_section_label_in_front_of_its_text_is_dropped() -> None:
    from digest.summarize.clean import summary_of

    body = "Summary: The planner reuses buffers across graph partitions now.\n\nDescription: none"
    assert summary_of(body, "Reuse buffers") == (
        "The planner reuses buffers across graph partitions now."
    )


def test_neutralise_treats_plain_ascii_as_any_other_text() -> None:
    import unicodedata

    from digest.text import _BIDI_AND_INVISIBLE, _CONTROL, neutralise

    def everything(text: str) -> str:  # the path non-ASCII text takes
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        return unicodedata.normalize("NFC", _CONTROL.sub("", _BIDI_AND_INVISIBLE.sub("", text)))

    every_ascii = "".join(map(chr, range(128)))
    samples = [every_ascii, "plain title", "a\r\nb\rc\n", "tab\tand\x00nul\x1b[31m", ""]
    samples += [every_ascii[i : i + 3] for i in range(126)]
    for text in samples:
        assert neutralise(text) == everything(text), repr(text)


def test_a_pr_template_checklist_is_dropped_with_its_wrapped_lines() -> None:
    body = (
        "Closes #17\n\n"
        "### Before submitting the PR, please make sure you do the following\n\n"
        "- [x] It's really useful if your PR references an issue where it is\n"
        "discussed ahead of time. In many cases, features are absent for a\n"
        "reason.\n"
        "- [ ] Run the tests with `pnpm test` and lint the project.\n\n"
        "Gauges now read their sensors once per tick, which halves the bus traffic.\n"
    )
    cleaned = clean_body(body)
    assert "discussed ahead" not in cleaned and "absent" not in cleaned
    assert "Gauges now read their sensors once per tick" in cleaned
    unlabelled = body.replace(
        "### Before submitting the PR, please make sure you do the following\n\n", ""
    )
    assert "discussed ahead" not in clean_body(unlabelled)


def test_text_struck_through_is_what_the_author_took_back() -> None:
    cleaned = clean_body("Stages now vent early ~~and log every valve~~ when pressure drops.")
    assert cleaned == "Stages now vent early when pressure drops."


def test_a_code_span_glued_to_the_word_before_it_opens_where_its_code_starts() -> None:
    body = "Uninstalling against a legacy` .pad-info` stage with an empty` fuel.txt` wiped it."
    assert "a legacy `.pad-info` stage with an empty `fuel.txt` wiped it" in clean_body(body)
    assert clean_body("Use `pad` and `fuel` here.") == "Use `pad` and `fuel` here."
