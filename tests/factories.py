"""Builders of made-up Digest records and settings for tests (invented text only)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import html5lib
from msgspec.structs import replace

from digest.config import Settings, parse_settings
from digest.models import (
    ActionItem,
    ChangeSummary,
    Digest,
    FailureReason,
    FaqEntry,
    Reference,
    RepoFailure,
    Urgency,
)
from digest.store import Store

DAY = dt.date(2026, 3, 2)


def make_reference(n: int, **overrides: Any) -> Reference:
    """Return reference ``n`` to a made-up pull request of ``acme/rockets``."""
    values: dict[str, Any] = {
        "n": n,
        "repo": "acme/rockets",
        "number": 400 + n,
        "title": f"Tune the fuel valve controller, part {n}",
        "url": f"https://github.com/acme/rockets/pull/{400 + n}",
    }
    return Reference(**(values | overrides))


def make_digest(**overrides: Any) -> Digest:
    """Return a small but complete edition of project ``rockets``; ``overrides`` replace fields."""
    digest = Digest(
        project="Rockets",
        project_slug="rockets",
        date=DAY,
        headline="Valve controller rewrite lands, launch checks get faster",
        dek="The fuel valve controller moves to a state machine and checks run in half the time.",
        body=(
            "The valve controller now runs as an explicit state machine [1]. "
            "Launch checks skip redundant sensor sweeps [2][3].\n\n"
            "Telemetry gains a `--dry-run` flag for rehearsals [3]."
        ),
        action_items=(
            ActionItem(
                "Re-run valve calibration on test stands", "acme/rockets", Urgency.IMMEDIATE, (1,)
            ),
            ActionItem("Schedule the telemetry flag rollout", "acme/telemetry", Urgency.PLAN, (3,)),
            ActionItem(
                "Watch check durations on the nightly run", "acme/rockets", Urgency.MONITOR, (2,)
            ),
        ),
        references=(
            make_reference(1),
            make_reference(2, title="Skip redundant sensor sweeps during checks"),
            make_reference(
                3,
                repo="acme/telemetry",
                number=77,
                title="Add a dry-run flag",
                url="https://github.com/acme/telemetry/pull/77",
            ),
        ),
        faq=(
            FaqEntry("What changed in Rockets today?", "The valve controller was rewritten [1]."),
            FaqEntry("Which repositories shipped?", "acme/rockets and acme/telemetry."),
        ),
        repos=("acme/rockets", "acme/telemetry"),
        topics=("valves",),
        changes=(
            ChangeSummary(
                "acme/rockets",
                401,
                "Tune the fuel valve controller, part 1",
                "https://github.com/acme/rockets/pull/401",
                "feature",
            ),
            ChangeSummary(
                "acme/rockets",
                402,
                "Skip redundant sensor sweeps during checks",
                "https://github.com/acme/rockets/pull/402",
                "perf",
            ),
            ChangeSummary(
                "acme/telemetry",
                77,
                "Add a dry-run flag",
                "https://github.com/acme/telemetry/pull/77",
                "feature",
            ),
            ChangeSummary(
                "acme/rockets",
                None,
                "Fix a typo in the launch checklist",
                "https://github.com/acme/rockets/commit/abc123",
                "docs",
            ),
        ),
        writer="extractive",
        filed_at=dt.datetime(2026, 3, 3, 6, 30, tzinfo=dt.UTC),
    )
    return replace(digest, **overrides)


def make_settings(tmp: Path, **site: Any) -> Settings:
    """Return settings of two projects and two topics; data in tmp/data, site in tmp/site."""
    raw: dict[str, Any] = {
        "site": {
            "title": "The Test Wire",
            "publisher": "Test Desk",
            "base_url": "https://news.example.org/wire/",
            **site,
        },
        "data_dir": str(tmp / "data"),
        "site_dir": str(tmp / "site"),
        "topics": [
            {
                "name": "Valves",
                "slug": "valves",
                "description": "Fuel and oxidiser valves",
                "paths": ["valves/"],
            },
            {"name": "Telemetry", "paths": ["telemetry/"]},
        ],
        "projects": [
            {
                "name": "Rockets",
                "slug": "rockets",
                "description": "Launch vehicles",
                "repos": [{"name": "acme/rockets"}, {"name": "acme/telemetry"}],
            },
            {"name": "Ground Station", "slug": "ground", "repos": [{"name": "acme/antenna"}]},
        ],
    }
    return parse_settings(raw)


def failure(
    repo: str = "acme/antenna", reason: FailureReason = FailureReason.NOT_FOUND
) -> RepoFailure:
    """Return a made-up repository failure."""
    return RepoFailure(repo, reason)


def edition_series(count: int, *, start: dt.date = dt.date(2026, 1, 1)) -> list[Digest]:
    """Return ``count`` editions alternating between projects, one date each, oldest first."""
    digests = []
    for i in range(count):
        day = start + dt.timedelta(days=i // 2)
        slug, name = ("rockets", "Rockets") if i % 2 == 0 else ("ground", "Ground Station")
        digests.append(
            make_digest(
                project=name,
                project_slug=slug,
                date=day,
                headline=f"{name} edition number {i}",
                dek=f"What {name} merged on {day.isoformat()}.",
                topics=("valves",) if i % 3 == 0 else ("telemetry",),
                filed_at=dt.datetime.combine(
                    day + dt.timedelta(days=1), dt.time(6, i % 60), tzinfo=dt.UTC
                ),
            )
        )
    return digests


def save_all(store: Store, digests: list[Digest]) -> None:
    """Store every digest of ``digests``."""
    for digest in digests:
        store.save_digest(digest)


def parse_page(path: Path) -> Any:
    """Parse the page at ``path`` with html5lib in strict mode (any parse error raises)."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(path.read_bytes())


def text(element: Any) -> str:
    """Return the text content of ``element`` with whitespace runs collapsed."""
    return " ".join("".join(element.itertext()).split())


def past_the_stamp(settings: Settings) -> None:
    """Make the next build go past the stamp (see digest.render.stamp) with no input changed:
    the published build loses its stamp (kept beside it in the builds folder)."""
    from digest.render import stamp

    found = stamp.published(settings.site_dir)
    assert found is not None and found.is_file(), "no published build with a stamp"
    found.unlink()


def site_files(site: Path, *, stamp: bool = False) -> dict[str, bytes]:
    """Return every file under ``site`` keyed by relative path; the build stamp only when
    asked (it records the inode numbers of this machine's files)."""
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in site.rglob("*")
        if p.is_file() and (stamp or p.name != ".wire-stamp.json")
    }


def manifest_path(settings: Any) -> Path:
    """Where the build manifest of ``settings``' site is (beside its builds, not in it)."""
    site: Path = settings.site_dir
    return site.parent / f".{site.name}.builds" / "manifest.sqlite"


def executable_scripts(root: Any) -> list[Any]:
    """The ``<script>`` elements of a parsed page other than JSON-LD data blocks."""
    return [s for s in root.iter("script") if s.get("type") != "application/ld+json"]
