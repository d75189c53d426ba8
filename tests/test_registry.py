"""Registering sources and writers: built-ins first, installed plugins when first needed."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from digest.errors import UsageError, WireError
from digest.registry import ENTRY_POINT_GROUP, Registry, default_registry


@dataclass
class FakeEntryPoint:
    """What ``importlib.metadata.entry_points`` lists for one installed plugin."""

    name: str
    hook: Callable[[Registry], None]

    def load(self) -> Callable[[Registry], None]:
        return self.hook


def install(monkeypatch: pytest.MonkeyPatch, *plugins: FakeEntryPoint) -> list[str]:
    """Make ``plugins`` look installed; return the list of groups looked up, as they are."""
    looked: list[str] = []

    def entry_points(*, group: str) -> list[FakeEntryPoint]:
        looked.append(group)
        return list(plugins) if group == ENTRY_POINT_GROUP else []

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    return looked


def svn_source(context: Any) -> Any:
    raise AssertionError("not called here")


def test_built_in_sources_and_writers_need_no_plugin_lookup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    looked = install(monkeypatch)
    registry = default_registry()
    assert {"git", "github"} <= set(registry.sources)
    assert {"extractive", "openai"} <= set(registry.writers)
    assert looked == []  # building the site never asks for a source or writer


def test_an_installed_plugin_is_found_once_when_first_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    looked = install(monkeypatch, FakeEntryPoint("svn", lambda r: r.add_source("svn", svn_source)))
    registry = default_registry()
    assert registry.source("svn") is svn_source
    assert registry.source("git") is registry.sources["git"]
    registry.writer("extractive")
    assert looked == [ENTRY_POINT_GROUP]


def test_a_plugin_taking_a_built_in_name_or_an_unknown_name_is_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    install(monkeypatch, FakeEntryPoint("git", lambda r: r.add_source("git", svn_source)))
    with pytest.raises(WireError, match="two plugins register the source 'git'"):
        default_registry().source("git")
    install(monkeypatch)
    with pytest.raises(UsageError, match="unknown writer 'poet'; available: extractive, openai"):
        default_registry().writer("poet")
    assert "svn" not in default_registry(plugins=False).sources
