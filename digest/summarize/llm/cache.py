"""Accepted LLM answers, stored by what was asked, so a re-run makes no request.

One JSON file per answer under ``<data_dir>/cache/openai/<key>.json``, where the key is a
SHA-256 over everything that shapes the answer: model, temperature, prompt version, the
exact messages and the schema. Only answers that passed the edition checks are stored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from digest.store import dumps, write_atomic


def cache_key(
    *,
    model: str,
    temperature: float,
    version: str,
    messages: Sequence[Mapping[str, object]],
    schema: Mapping[str, Any],
) -> str:
    """Return the hex SHA-256 of the request's inputs, serialised canonically."""
    canonical = json.dumps(
        {
            "model": model,
            "temperature": temperature,
            "prompt_version": version,
            "messages": [dict(m) for m in messages],
            "schema": schema,
        },
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


class AnswerCache:
    """Answers as JSON files in ``folder``, one per key."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def load(self, key: str) -> str | None:
        """Return the stored answer text for ``key``, or None when there is none readable."""
        try:
            return self.path(key).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def save(self, key: str, answer: Mapping[str, Any]) -> Path:
        """Store ``answer`` (JSON-ready) under ``key`` atomically; return the file's path."""
        path = self.path(key)
        write_atomic(path, dumps(answer))
        return path
