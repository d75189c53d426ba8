"""Fixtures shared by several test modules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fake_github import FakeGitHub, serve


@pytest.fixture
def fake_github() -> Iterator[FakeGitHub]:
    """A fake GitHub API on 127.0.0.1, with no repositories until the test adds some."""
    with serve() as fake:
        yield fake


@pytest.fixture(autouse=True)
def _cache_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands the tests run keep what they cache for the user (parsed configuration
    files, see :func:`digest.config.config_cache`) in a folder of the test session's,
    not in the user's own cache folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "cache-home"))
