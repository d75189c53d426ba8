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
