"""Registers the sources and writers that ship with the Wire.

This is the same hook an outside plugin provides (see :mod:`digest.registry`).
"""

from __future__ import annotations

from digest.registry import Registry
from digest.sources.git import GitSource
from digest.sources.github import GitHubSource
from digest.summarize.extractive import ExtractiveWriter
from digest.summarize.llm import OpenAIWriter


def register(registry: Registry) -> None:
    """Add the built-in sources and writers to ``registry``."""
    registry.add_source("git", GitSource)
    registry.add_source("github", GitHubSource)
    registry.add_writer("extractive", ExtractiveWriter)
    registry.add_writer("openai", OpenAIWriter)
