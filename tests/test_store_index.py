"""The store's index of each folder of records, and what reads it (issue 28, item 4)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

import pytest
from msgspec.structs import replace

from digest.cli import main
from digest.models import RepoDay
from digest.store import INDEX, Store, read_index
from tests.factories import make_digest
from tests.test_cli import NOW, site  # noqa: F401  (the fixture)

DAY = dt.date(2026, 1, 5)


def _entry(path: Path) -> tuple[str, int]:
    data = path.read_bytes()
    return hashlib.sha256(data).hexdigest(), len(data)


def test_saving_a_record_indexes_it_in_the_same_step(tmp_path: Path) -> None:
    store = Store(tmp_path)
    path = store.save_digest(make_digest(date=DAY))
    day = RepoDay("acme/rockets", DAY, "git", (), dt.datetime(2026, 1, 6, tzinfo=dt.UTC))
    collected = store.save_repo_day(day)
    assert read_index(path.parent) == {path.name: _entry(path)}
    assert read_index(collected.parent) == {collected.name: _entry(collected)}
    assert store.index_problems() == []

    changed = store.save_digest(make_digest(date=DAY, headline="CHANGED"))
    assert read_index(path.parent) == {path.name: _entry(changed)}
    assert store.delete_digest("rockets", DAY) and not path.exists()
    assert read_index(path.parent) == {}
    assert not store.delete_digest("rockets", DAY)


def test_the_index_is_deterministic_and_lists_records_only(tmp_path: Path) -> None:
    store = Store(tmp_path)
    for n in (3, 1, 2):
        store.save_digest(make_digest(date=dt.date(2026, 1, n)))
    folder = store.digest_path("rockets", DAY).parent
    (folder / "notes.txt").write_text("not a record")
    raw = (folder / INDEX).read_bytes()
    assert list(json.loads(raw)["files"]) == [f"2026-01-0{n}.json" for n in (1, 2, 3)]
    assert raw.endswith(b"\n") and b" " not in raw
    store.reindex()
    assert (folder / INDEX).read_bytes() == raw


def test_a_stale_entry_is_healed_by_saving_the_same_record_again(tmp_path: Path) -> None:
    """A run killed between the record and its index entry leaves the entry stale; the
    next run writes the same record (the file is left as it is) and mends the entry."""
    store = Store(tmp_path)
    digest = make_digest(date=DAY)
    path = store.save_digest(digest)
    index = path.parent / INDEX
    stale = index.read_bytes()
    store.save_digest(replace(digest, headline="NEWER"))
    index.write_bytes(stale)  # as if killed before the index was written
    assert store.index_problems() != []
    store.save_digest(replace(digest, headline="NEWER"))
    assert store.index_problems() == []


def test_a_folder_without_an_index_is_indexed_from_its_files(tmp_path: Path) -> None:
    """Data written by an earlier version (or copied in) has no index: it is made."""
    store = Store(tmp_path)
    path = store.save_digest(make_digest(date=DAY))
    (path.parent / INDEX).unlink()
    assert dict(store.index("digests")) == {"digests/rockets": {path.name: _entry(path)}}
    assert read_index(path.parent) == {path.name: _entry(path)}


def test_edits_by_hand_are_found_on_request_and_reindexed(tmp_path: Path) -> None:
    store = Store(tmp_path)
    for n in (1, 2, 3, 4, 5):
        store.save_digest(make_digest(date=dt.date(2026, 1, n)))
    folder = store.digest_path("rockets", DAY).parent
    (folder / "2026-01-01.json").write_text("{edited")
    (folder / "2026-01-02.json").unlink()
    (folder / "2026-01-09.json").write_text("{}")
    (problem,) = store.index_problems()
    assert problem == (
        "digests/rockets: 3 files not as indexed (2026-01-01.json, 2026-01-02.json, "
        "2026-01-09.json)"
    )
    assert store.reindex() == ["digests/rockets"]
    assert store.index_problems() == [] and store.reindex() == []


def test_doctor_checks_the_index_on_request_and_render_full_mends_it(
    site: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = ["--config", str(site / "digest.yaml")]
    assert main(["run", "--date", "2026-03-04", *config], env=NOW) == 0
    edition = site / "data/digests/rocket/2026-03-04.json"
    page = site / "site/rocket/2026-03-04.html"
    edited = json.loads(edition.read_text())
    edited["headline"] = "EDITED BY HAND"
    edition.write_text(json.dumps(edited, indent=2, sort_keys=True) + "\n")
    capsys.readouterr()

    assert main(["doctor", *config], env=NOW) == 0  # not asked: the index is not read
    assert "data index" not in capsys.readouterr().out
    assert main(["doctor", "--index", *config], env=NOW) == 1
    out = capsys.readouterr().out
    assert "data index: digests/rocket: 1 file not as indexed (2026-03-04.json)" in out
    assert "fix: digest render --full" in out

    assert main(["render", *config], env=NOW) == 0
    assert "EDITED BY HAND" not in page.read_text()  # the index says nothing changed
    assert main(["render", "--full", *config], env=NOW) == 0
    assert "EDITED BY HAND" in page.read_text()
    assert main(["doctor", "--index", *config], env=NOW) == 0
    assert "every record as indexed" in capsys.readouterr().out


def test_doctor_checks_the_site_on_request_and_render_full_mends_it(
    site: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The site as the input: a plain render trusts its builds folder as it left it, so a
    page edited in place is left; `doctor --site` names it and `render --full` writes it
    again."""
    config = ["--config", str(site / "digest.yaml")]
    for day in ("2026-03-02", "2026-03-03", "2026-03-04"):  # the third build trusts
        assert main(["run", "--date", day, *config], env=NOW) == 0
    page = site / "site/rocket/2026-03-04.html"
    original = page.read_bytes()
    page.write_bytes(original.replace(b"<h1", b"<h1 data-edited"))  # in place
    capsys.readouterr()

    assert main(["doctor", *config], env=NOW) == 0  # not asked: the site is not read
    assert "site:" not in capsys.readouterr().out
    assert main(["render", *config], env=NOW) == 0
    assert b"data-edited" in page.read_bytes()
    assert main(["doctor", "--site", *config], env=NOW) == 1
    out = capsys.readouterr().out
    assert "rocket/2026-03-04.html (changed)" in out
    assert "fix: digest render --full" in out

    assert main(["render", "--full", *config], env=NOW) == 0
    assert page.read_bytes() == original
    assert main(["doctor", "--site", *config], env=NOW) == 0
    assert "as last built" in capsys.readouterr().out
