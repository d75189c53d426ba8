"""A small fixture site compared byte for byte with tests/golden/site/.

Refresh the expected output after an intended change with ``make golden``
(``WIRE_UPDATE_GOLDEN=1 pytest -k golden``) and review the diff.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import msgspec.structs

from digest.models import ActionItem, Digest, Urgency
from digest.render import render_site
from digest.store import Store
from tests.factories import failure, make_digest, make_reference, make_settings, site_files

GOLDEN = Path(__file__).parent / "golden" / "site"


def fixture_digests() -> list[Digest]:
    full = make_digest(failed_repos=(failure(),), writer_note="the server could not be reached")
    earlier = make_digest(
        date=dt.date(2026, 3, 1),
        headline="Quiet Sunday: one fix to the launch checklist",
        dek="A single documentation fix landed.",
        body="The launch checklist lost a duplicated step [1].",
        action_items=(),
        references=(make_reference(1, title="Remove a duplicated checklist step"),),
        faq=(),
        topics=(),
        changes=full.changes[-1:],
        filed_at=None,
    )
    ground = make_digest(
        project="Ground Station",
        project_slug="ground",
        headline="Antenna <b>pointing</b> & tracking fixed",
        dek="Tracking no longer drifts after midnight.",
        body="Pointing uses the right epoch [1]. <script>alert(1)</script>",
        action_items=(
            ActionItem("Re-align dishes after the update", "acme/antenna", Urgency.PLAN, (1,)),
        ),
        references=(make_reference(1, repo="acme/antenna", number=9, title="Use the right epoch"),),
        faq=(),
        topics=("telemetry",),
        changes=(),
        writer="openai",
    )
    return [full, earlier, msgspec.structs.replace(ground, repos=("acme/antenna",))]


def test_golden_site(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    store = Store(settings.data_dir)
    for digest in fixture_digests():
        store.save_digest(digest)
    render_site(settings, store)
    # The search index is Pagefind's output, its bytes those of Pagefind's version: it is
    # checked by tests/test_render_search.py, not kept here.
    actual = {
        name: data
        for name, data in site_files(settings.site_dir).items()
        if not name.startswith("pagefind/")
    }
    if os.environ.get("WIRE_UPDATE_GOLDEN") == "1":
        shutil.rmtree(GOLDEN, ignore_errors=True)
        for name, data in actual.items():
            (GOLDEN / name).parent.mkdir(parents=True, exist_ok=True)
            (GOLDEN / name).write_bytes(data)
    expected = site_files(GOLDEN) if GOLDEN.is_dir() else {}
    assert sorted(actual) == sorted(expected), "file list differs; run `make golden`"
    for name, data in actual.items():
        assert data == expected[name], f"{name} differs from tests/golden/site; run `make golden`"
