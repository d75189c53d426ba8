"""What a model may not invent: claims are found, and supported only by what is cited."""

from __future__ import annotations

import datetime as dt

import pytest

from digest.summarize.attribution import Attribution
from digest.summarize.claims import Sources, claims
from digest.summarize.llm.screen import imperative
from tests.pulls import DAY, make_pull

PULL = make_pull(
    "Add `launch_fast()` to the pad controller (2.5x faster)",
    "Staging is 2.5x faster with 9,500 fewer lines; set ROCKET_FAST=1 or pass --fast. "
    "Needs Metal SDK 3.2.1.0. cc @dana",
    files={"src/rocket/pad/controller.py": (40, 5)},
    number=77,
)
SOURCES = Sources([PULL], ["Rocket", "acme/rocket"], DAY)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("It is 5x faster with enable_turbo() [1].", ["5x", "enable_turbo()"]),
        ("Requires Rust 1.99 and v1.5 of the API [1].", ["1.99", "v1.5"]),
        ("Set `ROCKET_SLOW` or pass --slow [1].", ["`ROCKET_SLOW`", "--slow"]),
        ("See https://x.example and thank @dana [1].", ["https://x.example", "@dana"]),
        ("It cuts 12,000 lines in src/rocket/other.py [1].", ["12,000", "src/rocket/other.py"]),
        ("It fixes #78 [1].", ["#78"]),
    ],
)
def test_invented_claims_are_found(text: str, found: list[str]) -> None:
    assert SOURCES.unsupported(text, [PULL]) == found


@pytest.mark.parametrize(
    "text",
    [
        "The pad gets `launch_fast()`, 2.5x faster, with 9,500 fewer lines [1].",
        "Set ROCKET_FAST=1 or pass --fast; it needs Metal SDK 3.2.1.0 (#77) [1].",
        "Three fixes and 2 features landed on March 4, 2026 in acme/rocket [1].",
        "Together, the changes make launches a more practical target for small pads [1].",
        "The controller lives in src/rocket/pad/controller.py [1].",
    ],
)
def test_claims_its_citations_make_are_supported(text: str) -> None:
    assert SOURCES.unsupported(text, [PULL]) == []


def test_a_mention_is_never_copied_from_a_description() -> None:
    assert SOURCES.unsupported("Thanks to @dana [1].", [PULL]) == ["@dana"]
    decorated = make_pull("Support `@torch.compile` on the pad")
    sources = Sources([decorated], [], dt.date(2026, 3, 4))
    assert sources.unsupported("It supports @torch.compile now [1].", [decorated]) == []


def test_plain_words_make_no_claims() -> None:
    assert claims("Elsewhere, the day was mostly maintenance.") == []


@pytest.mark.parametrize(
    ("word", "is_verb"),
    [
        ("Test", True),
        ("Benchmark", True),
        ("Re-baseline", True),
        ("Audit", True),
        ("Embed", True),
        ("Pin", True),
        ("Adds", False),
        ("Added", False),
        ("The", False),
        ("Quickly", False),
        ("launch", False),
        ("2x", False),
    ],
)
def test_an_instruction_is_told_by_its_form(word: str, is_verb: bool) -> None:
    assert imperative(word) is is_verb


def test_words_joined_by_a_slash_are_no_path_and_a_well_known_file_is_no_invention() -> None:
    assert claims("Wrap parse() in try/catch on CPU/GPU hosts, read/write alike.") == ["parse()"]
    assert claims("See src/pad/valve.py and kernels/portable/.") == [
        "src/pad/valve.py",
        "kernels/portable/",
    ]
    assert SOURCES.unsupported("Review pyproject.toml for the old flag [1].", [PULL]) == []


def test_a_swapped_citation_is_told_by_the_words_each_change_shares() -> None:
    pulls = [
        make_pull("Stop leaking credentials on cross-host redirects", "Drops the auth header."),
        make_pull("Reject negative timeouts", "A negative timeout now raises ValueError."),
        make_pull("Document the proxy settings", "Explains proxy environment variables."),
    ]
    who = Attribution(pulls, ["Rocket"])
    sentence = "Cross-host redirects no longer carry credentials or the auth header"
    assert who.better(sentence, [1]) == 0  # cites the timeout change, is about the redirect
    assert who.better(sentence, [0]) is None
    assert who.better("The day was quiet otherwise", [2]) is None
