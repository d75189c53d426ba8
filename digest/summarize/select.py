"""Group a day's changes into stories and rank them; match configured topics.

Changes belong to one story when they share a repository and an area (a title prefix
such as ``Arm backend:`` or ``[MLX]``), when they are that repository's removals, a title
stem (``Rename build files ... (group ID: 1)`` and ``(group ID: 2)``), or when one reverts
or re-lands the other (by link or by title).
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

import msgspec.structs

from digest.config import ProjectSettings, TopicSettings
from digest.models import PullRequest, RepoFailure, RepoName
from digest.summarize.base import Brief, Item, Story
from digest.summarize.classify import ROUTINE_KINDS, area_key, classify
from digest.summarize.releases import gather_notes, release_notes, upkeep_only
from digest.summarize.stories import relanded_title, reverted_title, reverts_item, tidy
from digest.summarize.untrusted import defuse
from digest.topics import match_topics

#: At most this many stories are told in an edition's body.
MAX_LEAD_STORIES = 5
_STEM_NOISE = re.compile(r"\([^)]*\)|\[[^\]]*\]|\b(pt|part)\.?\s*\d+\b|\d+|[^\w\s]", re.I)


#: What each doubling of a story's changes adds to its score: a busy area is news.
COMPANION_WEIGHT = 0.5


def make_brief(
    project: ProjectSettings,
    day: dt.date,
    pulls: Sequence[PullRequest],
    topics: Sequence[TopicSettings] = (),
    failed: Sequence[RepoFailure] = (),
) -> Brief:
    """Classify ``pulls``, group them into ranked stories and return the writer's brief."""
    # Writers only ever see pull-request text defused: it cannot mimic the edition's syntax.
    # A release whose notes were written ahead of it, one change at a time, gets them.
    items = gather_notes([classify(defuse(pull)) for pull in pulls])
    labels = {repo.name: repo.display_name for repo in project.repos if repo.display_name}
    stories = tuple(
        msgspec.structs.replace(story, repo_label=labels.get(story.repo, ""))
        for story in rank_stories(group_stories(items))
    )
    order = [repo.name for repo in project.repos]
    present = {pull.repo for pull in pulls}
    return Brief(
        project=project.shown,
        project_slug=project.key,
        date=day,
        repos=tuple(name for name in order if name in present),
        stories=stories,
        items=tuple(item for story in stories for item in story.items),
        failed=tuple(failed),
        topics=match_topics(topics, pulls),
        repo_names=tuple(RepoName(name, label) for name, label in labels.items()),
    )


def as_told(brief: Brief, pulls: Sequence[PullRequest]) -> list[PullRequest]:
    """``pulls`` with the notes the brief gave their releases (written ahead of them): what an
    edition written from ``brief`` is checked against."""
    notes = {item.pull.key: item.pull.notes for item in brief.items}
    return [msgspec.structs.replace(p, notes=notes.get(p.key, p.notes)) for p in pulls]


def group_stories(items: Sequence[Item]) -> list[list[Item]]:
    """Partition ``items`` into groups of related changes (union-find over shared keys)."""
    parent = list(range(len(items)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(i: int, j: int) -> None:
        parent[find(i)] = find(j)

    first_with: dict[tuple[str, ...], int] = {}
    by_ref = {
        _ref_key(item.pull.repo, item.pull.number, item.pull.sha): i for i, item in enumerate(items)
    }
    for i, item in enumerate(items):
        for key in _grouping_keys(item):
            if key in first_with:
                join(i, first_with[key])
            else:
                first_with[key] = i
        for link in (item.pull.reverts, item.pull.relands):
            if link is None:
                continue
            for ref in (
                _ref_key(link.repo, link.number, None),
                _ref_key(link.repo, None, link.sha),
            ):
                if ref in by_ref:
                    join(i, by_ref[ref])
    groups: dict[int, list[Item]] = defaultdict(list)
    for i, item in enumerate(items):
        groups[find(i)].append(item)
    return list(groups.values())


def rank_stories(groups: Iterable[list[Item]]) -> tuple[Story, ...]:
    """Return ``groups`` as stories, each led by its best item, best story first.

    A story's score is its lead's plus a little for each companion (a busy area is
    news), with routine leads (CI, tests, bumps) kept below real changes.
    """
    stories = []
    for group in groups:
        ordered = sorted(group, key=_item_order)
        lead = ordered[0]
        if lead.kind == "revert" and any(i.kind not in ROUTINE_KINDS for i in ordered[1:]):
            # A revert is told as part of the story of what it reverts, which leads.
            ordered.remove(lead)
            ordered.insert(1, lead)
            lead = ordered[0]
        score = lead.score + math.log2(len(ordered)) * COMPANION_WEIGHT
        if _unnumbered(lead):
            score -= 3.0  # "release pyo3-polars": a package, no version to upgrade to
        if lead.kind in ROUTINE_KINDS:
            score -= 4.0
        elif any(i.kind == "revert" and reverts_item(i, lead) for i in ordered[1:]):
            score -= 4.0  # taken back the same day: nothing changed for users
        stories.append(
            Story(
                repo=lead.pull.repo,
                area=_story_area(ordered),
                kind=lead.kind,
                score=round(score, 4),
                items=tuple(ordered),
            )
        )
    # A release leads: it is what users of the repository get next; a patch of an older
    # line ranks as the change it is. The repository's own release ("v8.0.10") before a
    # package of it ("create-vite@9.0.6"); of several the same day, the newest first.
    newer = _newer_releases(stories)
    stories.sort(
        key=lambda s: (
            (
                s.kind != "release"
                or s.lead.pull.older_line
                or _unnumbered(s.lead)
                or _upkeep_only(s.lead)
            ),
            s.lead.package_release,
            newer.get(id(s), 0),
            -s.score,
            s.repo,
            s.lead.pull.key,
        )
    )
    return tuple(stories)


def _upkeep_only(item: Item) -> bool:
    """True when ``item`` is a release whose notes list dependency updates and upkeep only
    ("Updates dependency htmlparser2 to v12"): nothing new for users to lead the day with."""
    return item.kind == "release" and upkeep_only(release_notes(item.pull))


def _unnumbered(item: Item) -> bool:
    """True when ``item`` releases a package it names without a version ("release
    pyo3-polars"): news of the package, ranked as any change, not as the day's release."""
    return item.package_release and "@" not in item.version


def _newer_releases(stories: Sequence[Story]) -> dict[int, int]:
    """How many releases of the same repository (and package) in ``stories`` cut a newer
    version than each release story's, by ``id`` of the story: 0 for the newest."""
    versions: dict[int, tuple[str, str, tuple[int, ...]]] = {}
    for story in stories:
        if (
            story.kind == "release"
            and not story.lead.pull.older_line
            and (numbers := version_numbers(story.lead.version))
        ):
            package = story.lead.version.rpartition("@")[0]
            versions[id(story)] = (story.repo, package, numbers)
    return {
        key: sum(
            1
            for repo, package, numbers in versions.values()
            if (repo, package) == mine[:2] and numbers > mine[2]
        )
        for key, mine in versions.items()
    }


def version_numbers(version: str) -> tuple[int, ...]:
    """The numbers of ``version`` (``v0.140.7`` or ``svelte@5.38.1``) to compare releases
    by, ``()`` when it names none."""
    match = re.search(r"(\d+(?:\.\d+)*)", version.rpartition("@")[2])
    return tuple(int(part) for part in match[1].split(".")) if match else ()


def lead_stories(stories: Sequence[Story], limit: int = MAX_LEAD_STORIES) -> list[Story]:
    """The stories an edition tells, best first: real changes before routine ones.

    Every repository with a notable (non-routine) story gets its best one told before a
    second story of a busier repository, so one repository never crowds out the others.
    """
    real = [story for story in stories if story.kind not in ROUTINE_KINDS]
    pool = real or list(stories)
    best_per_repo: dict[str, Story] = {}
    for story in pool:
        best_per_repo.setdefault(story.repo, story)
    picked = list(best_per_repo.values())[:limit]
    picked += [story for story in pool if story not in picked][: limit - len(picked)]
    return sorted(picked, key=pool.index)


def _grouping_keys(item: Item) -> list[tuple[str, ...]]:
    repo = item.pull.repo
    keys: list[tuple[str, ...]] = []
    if item.area:
        keys.append(("area", repo, area_key(item.area)))
    elif item.kind == "breaking" and item.facts.removes:
        keys.append(("removals", repo))  # A day's removals are one story: what is gone.
    if item.kind == "release" and version_numbers(item.version) and not item.pull.older_line:
        # A day's releases of one package are one story, told by the newest.
        keys.append(("releases", repo, item.version.rpartition("@")[0]))
    # A revert or re-land joins what it reverts or re-lands by title when no link says so.
    keys.append(("title", repo, _title_key(item)))
    stem = " ".join(_STEM_NOISE.sub(" ", item.headline_title.lower()).split())
    if len(stem.split()) >= 3:
        keys.append(("stem", repo, stem))
    if item.kind not in ROUTINE_KINDS and not item.area:
        # "new API for fp8 attention using FA3" and "FP8 FA3 attention with the SDPA path":
        # two names of the same work (FP8 and FA3 both) are one story.
        names = sorted({n.lower() for n in _WORK_NAME.findall(item.headline_title)} - _NO_NAME)
        keys += [("names", repo, a, b) for a, b in itertools.combinations(names, 2)]
    return keys


#: A name that marks a piece of work in a title: a word with a digit ("FP8", "FA3", "GEMV")
#: or in capitals ("SDPA"), not a version ("0.15.1").
_WORK_NAME = re.compile(r"\b(?=[A-Za-z]*\d)[A-Za-z][A-Za-z0-9]*\b|\b[A-Z]{3,}\b")
#: Capitals and numbered words too common to mark one piece of work.
_NO_NAME = frozenset(
    {"api", "apis", "cpu", "gpu", "cli", "ci", "pr", "ui", "io", "os", "json", "yaml", "toml"}
    | {"http", "url", "ssr", "hmr", "cuda", "rocm", "aten", "llm", "llms", "todo", "readme"}
    | {"int8", "int4", "int32", "int64", "fp16", "fp32", "bf16", "x86", "arm64", "aarch64"}
)


def _title_key(item: Item) -> str:
    if item.kind == "revert":
        title = reverted_title(item)
    elif item.kind == "reland":
        title = relanded_title(item)
    else:
        title = tidy(item.headline_title)
    return " ".join(re.findall(r"\w+", title.lower()))


def _ref_key(repo: str, number: int | None, sha: str | None) -> tuple[str, str]:
    if number is not None:
        return (repo, f"#{number}")
    return (repo, f"@{(sha or '')[:12]}")


def _item_order(item: Item) -> tuple[bool, bool, tuple[int, ...], float, str]:
    # A repository's own release leads the releases of its packages; the newest leads,
    # unless its notes are empty ("### 2.7.1" alone, cut to re-ship the 2.7.0 of the day).
    release = item.kind == "release"
    newest = tuple(-n for n in version_numbers(item.version)) if release else ()
    empty = release and item.pull.notes is not None and not release_notes(item.pull)
    return (item.package_release, empty, newest, -item.score, item.pull.key)


def _story_area(items: Sequence[Item]) -> str:
    """The area named most often in ``items`` (ties: the lead's)."""
    counts: dict[str, int] = defaultdict(int)
    for item in items:
        if item.area:
            counts[item.area] += 1
    if not counts:
        return ""
    return max(counts, key=lambda area: (counts[area], area == items[0].area))
