"""The ``openai`` writer: an edition written by a model behind an OpenAI-compatible API.

``prompt.py`` says what is sent and expected back; ``writer.py`` asks, with one repair
request; ``screen.py`` leaves out what the day's records do not support (checks shared with
every writer live in :mod:`digest.summarize`); ``verify.py`` is the optional second check by
the model; ``cache.py`` keeps accepted answers.
"""

from digest.summarize.llm.writer import (
    DECLINED,
    REASONS,
    REFUSED,
    REJECTED,
    TOO_LARGE,
    UNREACHABLE,
    UNREADABLE,
    OpenAIWriter,
    Probe,
)

__all__ = [
    "DECLINED",
    "REASONS",
    "REFUSED",
    "REJECTED",
    "TOO_LARGE",
    "UNREACHABLE",
    "UNREADABLE",
    "OpenAIWriter",
    "Probe",
]
