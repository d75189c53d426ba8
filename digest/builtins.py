"""Registers the sources and writers that ship with the Wire.

This is the same hook an outside plugin provides (see :mod:`digest.registry`). Each
factory imports its module when first called, so a command that only renders never
loads PyGithub or the openai SDK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from digest.registry import Registry

if TYPE_CHECKING:
    from digest.sources.base import Source, SourceContext
    from digest.summarize.base import Writer, WriterContext


def git_source(context: SourceContext) -> Source:
    """The source reading a local git clone's first-parent history."""
    from digest.sources.git import GitSource

    return GitSource(context)


def github_source(context: SourceContext) -> Source:
    """The source reading the GitHub API (github.com or GitHub Enterprise)."""
    from digest.sources.github import GitHubSource

    return GitHubSource(context)


def extractive_writer(context: WriterContext) -> Writer:
    """The offline writer: editions made of what the changes themselves say."""
    from digest.summarize.extractive import ExtractiveWriter

    return ExtractiveWriter(context)


def openai_writer(context: WriterContext) -> Writer:
    """The writer asking any OpenAI-compatible server, checked against the same rules."""
    from digest.summarize.llm import OpenAIWriter

    return OpenAIWriter(context)


def register(registry: Registry) -> None:
    """Add the built-in sources and writers to ``registry``."""
    registry.add_source("git", git_source)
    registry.add_source("github", github_source)
    registry.add_writer("extractive", extractive_writer)
    registry.add_writer("openai", openai_writer)
