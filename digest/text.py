"""Small, pure helpers for untrusted text shared by every stage."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

# Bidirectional overrides/isolates and other invisible format characters that can make
# text read differently from what it is ("Trojan Source").
_BIDI_AND_INVISIBLE = re.compile(
    "[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb]"
)
# Control characters, and lone surrogates (a JSON "\\ud800" decodes to one): no UTF-8
# encoding exists for them, so one would make every later write fail.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def neutralise(text: str) -> str:
    """Return ``text`` NFC-normalised, without bidi controls, invisible or control characters.

    Lone surrogates are dropped too; newlines and tabs are kept; carriage returns become
    newlines.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.isascii():
        # Most text: nothing to normalise, no bidi or invisible character possible.
        return text if text.isprintable() else _CONTROL.sub("", text)
    text = _CONTROL.sub("", _BIDI_AND_INVISIBLE.sub("", text))
    return unicodedata.normalize("NFC", text)


def one_line(text: str) -> str:
    """Return ``text`` neutralised with every run of whitespace collapsed to one space."""
    return " ".join(neutralise(text).split())


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``count(1, "change")`` -> ``1 change``; ``count(3, "change")`` -> ``3 changes``."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def slugify(name: str) -> str:
    """Return a URL-safe lower-case slug of ``name`` (``PyTorch Core`` -> ``pytorch-core``)."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def shorten(text: str, limit: int) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters, with an ellipsis."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:") + "…"


def neutralise_strings(value: Any) -> Any:
    """Return the JSON value ``value`` with every string in it (keys too) neutralised."""
    if isinstance(value, str):
        return neutralise(value)
    if isinstance(value, list):
        return [neutralise_strings(item) for item in value]
    if isinstance(value, dict):
        return {neutralise(str(k)): neutralise_strings(v) for k, v in value.items()}
    return value
