"""New contributors, measured against the collected history and saying how far back it goes."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from digest.models import RepoDay
from digest.newcomers import newcomers
from digest.store import Store
from tests.pulls import make_pull

START = dt.date(2026, 5, 1)


def collect(store: Store, day: dt.date, *authors: str) -> list:  # type: ignore[type-arg]
    pulls = [make_pull(f"Change by {a}", author=a, minute=i) for i, a in enumerate(authors)]
    store.save_repo_day(RepoDay("acme/rocket", day, "git", tuple(pulls), dt.datetime(2026, 6, 1)))
    return pulls


def test_first_merges_are_named_against_the_history_collected(tmp_path: Path) -> None:
    store = Store(tmp_path)
    collect(store, START, "Ada", "Bo")
    collect(store, START + dt.timedelta(days=1), "Bo", "dependabot[bot]")
    day = START + dt.timedelta(days=2)
    pulls = collect(store, day, "Ada", "Cy", "Cy", "dependabot[bot]")
    found, since = newcomers(tmp_path, day, pulls)
    assert [(n.author, n.number) for n in found] == [("Cy", pulls[1].number)]
    assert since == START


def test_without_earlier_history_nobody_is_called_new(tmp_path: Path) -> None:
    store = Store(tmp_path)
    pulls = collect(store, START, "Ada")
    assert newcomers(tmp_path, START, pulls) == ((), None)


def test_the_index_reads_only_new_collected_days(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(tmp_path)
    collect(store, START, "Ada")
    day = START + dt.timedelta(days=1)
    pulls = collect(store, day, "Bo")
    newcomers(tmp_path, day, pulls)
    index = json.loads((tmp_path / "authors/acme/rocket.json").read_text())
    assert index["2026-05-01"]["authors"] == ["Ada"]
    reads: list[Path] = []
    original = Path.read_bytes

    def counting(path: Path) -> bytes:
        reads.append(path)
        return original(path)

    monkeypatch.setattr(Path, "read_bytes", counting)
    assert [n.author for n in newcomers(tmp_path, day, pulls)[0]] == ["Bo"]
    assert [p.name for p in reads] == [".index"]  # the store's index; the authors' in memory
    reads.clear()
    monkeypatch.setattr("digest.newcomers._memo", {})  # a new process
    assert [n.author for n in newcomers(tmp_path, day, pulls)[0]] == ["Bo"]
    assert [p.name for p in reads] == ["rocket.json", ".index"]  # the indexes only
