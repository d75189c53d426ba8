"""The interface every writer implements, and the brief it is handed."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Mapping
from typing import Protocol

from msgspec import Struct, field

from digest.clock import Clock
from digest.config import Settings
from digest.models import Digest, PullRequest, RepoFailure, RepoName
from digest.summarize.facts import Facts
from digest.summarize.kinds import is_version_number


class Item(Struct, frozen=True):
    """A pull request as the selector sees it: what kind of change, where, how much it matters."""

    pull: PullRequest
    #: feature, perf, breaking, fix, release, revert, reland, refactor, deps, build, ci,
    #: test, docs, chore.
    kind: str
    #: Display name of the area (``Arm backend``, ``MLX``), or ``""`` when none is evident.
    area: str
    #: The title without its area prefix and kind markers.
    headline_title: str
    #: One or two sentences from the cleaned body, or ``""`` when it says nothing useful.
    summary: str
    #: Lines changed outside tests, docs and CI.
    code_lines: int
    score: float
    #: What the change says a team lead can act on.
    facts: Facts = field(default_factory=Facts)
    #: For a release: the version it cuts (``v0.12.5``, ``svelte@5.38.1``, or a package's
    #: name alone: ``pyo3-polars``), ``""`` if unsaid.
    version: str = ""

    @property
    def package_release(self) -> bool:
        """True when it releases a package of the repository, not the repository's own."""
        return self.kind == "release" and (
            "@" in self.version or (bool(self.version) and not self.version_number)
        )

    @property
    def version_number(self) -> bool:
        """True when ``version`` is a number (``v0.12.5``), not a package's name."""
        return is_version_number(self.version)


class Story(Struct, frozen=True):
    """Related changes told together; ``items[0]`` is the lead."""

    repo: str
    area: str
    kind: str
    score: float
    items: tuple[Item, ...]
    #: How the text names the repository: its display name, else its short name.
    repo_label: str = ""

    @property
    def lead(self) -> Item:
        return self.items[0]


class Brief(Struct, frozen=True):
    """Everything a writer gets for one project and one day."""

    project: str
    project_slug: str
    date: dt.date
    #: Repositories with changes that day, in configuration order.
    repos: tuple[str, ...]
    #: Ranked, most important first.
    stories: tuple[Story, ...]
    #: Every change of the day as a ranked item (story order, lead first).
    items: tuple[Item, ...]
    failed: tuple[RepoFailure, ...] = ()
    topics: tuple[str, ...] = ()
    #: Display names of the repositories that have one (``pytorch/ao`` is ``torchao``).
    repo_names: tuple[RepoName, ...] = ()

    def shown(self, repo: str) -> str:
        """How the edition writes ``repo``: its display name, else its name (``executorch``)."""
        named = next((n.display_name for n in self.repo_names if n.repo == repo), "")
        return named or repo.split("/", 1)[-1]


class WriterContext(Struct, frozen=True):
    """What a writer factory may use to build a writer."""

    settings: Settings
    clock: Clock
    env: Mapping[str, str] = field(default_factory=dict)
    log: logging.Logger = field(default_factory=lambda: logging.getLogger("digest.summarize"))


class Writer(Protocol):
    """Turns a brief into an edition."""

    def write(self, brief: Brief) -> Digest:
        """Return the edition for ``brief``; never returns an edition that fails the checks."""
        ...


WriterFactory = Callable[[WriterContext], Writer]
