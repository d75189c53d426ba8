"""Fixtures shared by several test modules."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest

from tests.fake_github import FakeGitHub, serve


@pytest.fixture
def fake_github() -> Iterator[FakeGitHub]:
    """A fake GitHub API on 127.0.0.1, with no repositories until the test adds some."""
    with serve() as fake:
        yield fake


#: The user's cache folder while the tests run, and what XDG_CACHE_HOME was before.
_CACHE_HOME = pytest.StashKey[tuple[str, str | None]]()


def pytest_configure(config: pytest.Config) -> None:
    """Commands the tests run keep what they cache for the user (parsed configuration
    files, see :func:`digest.config.config_cache`) in a folder of the test session's, not
    in the user's own cache folder. Set before any test module is imported: some build
    their subprocesses' environment from ``os.environ`` when imported."""
    folder = tempfile.mkdtemp(prefix="wire-tests-cache-")
    config.stash[_CACHE_HOME] = (folder, os.environ.get("XDG_CACHE_HOME"))
    os.environ["XDG_CACHE_HOME"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    folder, before = config.stash[_CACHE_HOME]
    shutil.rmtree(folder, ignore_errors=True)
    if before is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = before
