"""Secrets (the GitHub token, the OpenAI key): checked at start-up, redacted everywhere.

A library that fails on a header may quote the token raw, ``repr``-escaped, URL-encoded or
inside a Basic-auth value; :class:`Redactor` replaces every one of those spellings, so no
message carries a secret into a log line, a digest or a page. A token quoted in a pull
request (a commit message pasting a command line) is replaced too, by
:func:`redact_records`, before the collection is stored.
"""

from __future__ import annotations

import base64
import functools
import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import quote, quote_plus

import msgspec

from digest.errors import UsageError

#: Environment variables whose values are secrets.
SECRET_VARIABLES = ("GITHUB_TOKEN", "GH_TOKEN", "OPENAI_API_KEY")
#: What a secret is replaced with, in a log line or in a record's text.
REDACTED = "[redacted]"
#: Secrets shorter than this are not looked for in pull-request text: no real token is so
#: short (``OPENAI_API_KEY=local`` serves a local model server), and redacting one would
#: blank ordinary words of titles and descriptions.
RECORD_SECRET_MIN = 8
R = TypeVar("R", bound=msgspec.Struct)
#: User names a client may pair a token with in Basic auth.
_BASIC_USERS = ("", "x-access-token", "token", "x-oauth-basic", "git")


def check_secrets(env: Mapping[str, str]) -> None:
    """Raise UsageError (exit 2) naming the first secret variable in ``env`` that is malformed.

    A token is printable ASCII without whitespace; surrounding whitespace (a trailing newline
    from a file) is forgiven, as everywhere the token is read it is stripped.
    """
    for name in SECRET_VARIABLES:
        value = env.get(name, "").strip()
        bad = next((c for c in value if not (c.isascii() and c.isprintable()) or c.isspace()), None)
        if bad is not None:
            kind = "whitespace" if bad.isspace() else "a character that is not printable ASCII"
            raise UsageError(
                f"{name} contains {kind} (at position {value.index(bad) + 1} of {len(value)}); "
                f"a token is printable ASCII without spaces or line breaks: set it again"
            )


def spellings(secret: str) -> set[str]:
    """Return every way ``secret`` may be written in a message (raw, escaped, encoded, Basic)."""
    if not secret:
        return set()
    found = {
        secret,
        repr(secret)[1:-1],
        json.dumps(secret)[1:-1],
        secret.encode("unicode_escape").decode("ascii"),
        quote(secret, safe=""),
        quote_plus(secret, safe=""),
        quote(secret),
        secret.encode("utf-8", "backslashreplace").decode("latin-1"),
        str(secret.encode("utf-8", "backslashreplace"))[2:-1],
    }
    for user in _BASIC_USERS:
        for pair in (f"{user}:{secret}", f"{secret}:{user}"):
            found.add(base64.b64encode(pair.encode("utf-8")).decode("ascii"))
    found.add(base64.b64encode(secret.encode("utf-8")).decode("ascii"))
    for line in secret.splitlines():  # A message cut at a line break still holds each part.
        if len(line) >= 8:
            found.add(line)
    return {s for s in found if s}


class Redactor(logging.Filter):
    """Replaces every spelling of some secrets in text and in log records."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self._spellings: list[str] = []
        for secret in secrets:
            self.add(secret)

    def add(self, secret: str) -> None:
        """Redact ``secret`` (and its stripped form) from now on."""
        found = set(self._spellings) | spellings(secret) | spellings(secret.strip())
        self._spellings = sorted(found, key=len, reverse=True)  # Longest first: no partial leak.

    def redact(self, text: str) -> str:
        """Return ``text`` with every spelling of every secret replaced by ``[redacted]``."""
        for spelling in self._spellings:
            if spelling in text:
                text = text.replace(spelling, REDACTED)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite ``record``'s message, and any traceback, without secrets."""
        message = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        cleaned = self.redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        return True


#: The process's redactor: the CLI adds the environment's secrets at start-up.
REDACTOR = Redactor()


def redact(text: str) -> str:
    """Return ``text`` without any secret the process knows of."""
    return REDACTOR.redact(text)


def install(env: Mapping[str, str]) -> Redactor:
    """Check the secrets in ``env``, register them, and filter every log handler through them."""
    check_secrets(env)
    for name in SECRET_VARIABLES:
        if env.get(name, "").strip():
            REDACTOR.add(env[name])
    for logger in (logging.getLogger(), logging.getLogger("digest"), logging.getLogger("github")):
        for handler in logger.handlers:
            if REDACTOR not in handler.filters:
                handler.addFilter(REDACTOR)
        if REDACTOR not in logger.filters:
            logger.addFilter(REDACTOR)
    return REDACTOR


def redact_records(records: Sequence[R], env: Mapping[str, str]) -> tuple[R, ...]:
    """Return ``records`` with every secret of ``env`` replaced in each string they hold.

    Titles, bodies, labels, file paths, authors: anything a source stored. A record with
    nothing to replace is returned as it is.
    """
    redactor = _record_redactor(
        tuple(
            sorted(
                value
                for name in SECRET_VARIABLES
                if len(value := env.get(name, "").strip()) >= RECORD_SECRET_MIN
            )
        )
    )
    if redactor is None:
        return tuple(records)
    return tuple(_redacted(record, redactor) for record in records)


@functools.lru_cache(maxsize=4)
def _record_redactor(secrets: tuple[str, ...]) -> Redactor | None:
    """One redactor per set of secrets (working out the spellings costs a little)."""
    return Redactor(secrets) if secrets else None


def _redacted(record: R, redactor: Redactor) -> R:
    """``record`` with each of its strings redacted; ``record`` itself if none changed."""
    changed = False

    def clean(value: Any) -> Any:
        nonlocal changed
        if isinstance(value, str):
            text = redactor.redact(value)
            changed = changed or text != value
            return text
        if isinstance(value, dict):
            return {key: clean(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [clean(item) for item in value]
        return value

    cleaned = clean(msgspec.to_builtins(record))
    return msgspec.convert(cleaned, type(record)) if changed else record
