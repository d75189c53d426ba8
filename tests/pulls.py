"""Builders for pull-request records used by the summarize tests (made-up content)."""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
from typing import Any

from digest.models import ChangeLink, FileChange, PullRequest

DAY = dt.date(2026, 3, 4)
_numbers = itertools.count(1000)


def make_pull(
    title: str,
    body: str = "",
    *,
    repo: str = "acme/rocket",
    files: dict[str, tuple[int | None, int | None]] | None = None,
    number: int | str | None = "auto",
    author: str = "Dana Example",
    minute: int = 0,
    **extra: Any,
) -> PullRequest:
    """A merged change on DAY with ``files`` mapping path -> (additions, deletions)."""
    files = files if files is not None else {"src/rocket/engine.py": (40, 5)}
    changes = tuple(FileChange(path, a, d) for path, (a, d) in files.items())
    n = next(_numbers) if number == "auto" else number
    assert n is None or isinstance(n, int)
    # A full-length sha, distinct from its first characters on (as git's are).
    sha = hashlib.sha1(repr((title, repo, minute)).encode()).hexdigest()
    return PullRequest(
        repo=repo,
        number=n,
        title=title,
        body=body,
        url=f"https://github.com/{repo}/pull/{n}"
        if n is not None
        else f"https://github.com/{repo}/commit/{sha}",
        merged_at=dt.datetime.combine(DAY, dt.time(10, minute % 60), tzinfo=dt.UTC),
        author=author,
        sha=sha,
        files=changes,
        additions=sum(a or 0 for a, _ in files.values()),
        deletions=sum(d or 0 for _, d in files.values()),
        changed_files=len(changes),
        **extra,
    )


def revert_of(
    pull: PullRequest, reason: str = "It broke the nightly build on two platforms."
) -> PullRequest:
    return make_pull(
        f'Revert "{pull.title} (#{pull.number})"',
        f"This reverts commit {pull.sha}.\n\n{reason}",
        repo=pull.repo,
        files={f.path: (f.deletions, f.additions) for f in pull.files},
        reverts=ChangeLink(repo=pull.repo, number=pull.number, sha=pull.sha, title=pull.title),
        minute=59,
    )


def busy_day() -> list[PullRequest]:
    """A day like a busy real one: a feature stack, a perf win, a revert, chores and CI."""
    boosters = [
        make_pull(
            f"Booster stage: Add {what} support",
            "### Summary\nThe booster stage can now drive the "
            f"{what} path, so missions no longer need a custom fork for it.\n\n"
            "### Test plan\nRan the simulator.\n\ncc @alice @bob",
            files={
                f"stages/booster/{what}.py": (120 + i, 10),
                f"stages/booster/test_{what}.py": (80, 0),
            },
            minute=i,
        )
        for i, what in enumerate(["throttle", "gimbal", "staging"])
    ]
    perf = make_pull(
        "[Guidance] Speed up trajectory solver by caching Jacobians",
        "Caches the Jacobian between solver steps, which cuts solve time by 40% on the "
        "reference mission.\n\nDifferential Revision: D123456\nPull Request resolved: "
        "https://github.com/acme/rocket/pull/999",
        files={"guidance/solver.py": (60, 30)},
        minute=10,
    )
    removed = make_pull(
        "Remove deprecated `launch_legacy()` entry point",
        "<!-- Please describe your change -->\nThe legacy entry point has warned for two "
        "releases; callers should use `launch()` instead.\n\n- [x] I added tests",
        files={"src/rocket/launch.py": (2, 140)},
        minute=12,
    )
    chores = [
        make_pull(
            f"Bump telemetry-lib to 2.{i}.0", "", files={"requirements.txt": (1, 1)}, minute=20 + i
        )
        for i in range(3)
    ]
    ci = [
        make_pull(
            f"CI: cache wheels in job {i}",
            "",
            files={".github/workflows/ci.yml": (4, 2)},
            minute=30 + i,
        )
        for i in range(4)
    ]
    bad = make_pull(
        "Fix crash when the fuel sensor reports NaN", "Guard against NaN readings.", minute=40
    )
    return [*boosters, perf, removed, *chores, *ci, bad, revert_of(bad)]
