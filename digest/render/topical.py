"""Which configured topics each action item of an edition is about.

A topic's desk and page carry the action items of its changes: an item belongs to a topic
when a change it cites matches one of the topic's rules (label, title prefix, changed path),
as the summarize stage matches an edition's changes. The rules need the collected record of
the change (labels and paths are not in the digest), so an edition's collected days are read
once, when the build first parses the edition; the manifest keeps the answer.

The rules are those of :mod:`digest.topics`, which the summarize stage uses too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

from digest.config import TopicSettings
from digest.errors import WireError
from digest.models import Digest, PullRequest
from digest.store import Store
from digest.topics import matches

#: Given an edition, each of its action items' topics.
Tagger = Callable[[Digest], tuple[tuple[str, ...], ...]]


def tagger(topics: Sequence[TopicSettings], store: Store) -> Tagger | None:
    """A function giving each action item of an edition its topics (None: no topics)."""
    if not topics:
        return None

    def tag(digest: Digest) -> tuple[tuple[str, ...], ...]:
        touched = [t for t in topics if (t.slug or "") in digest.topics]
        if not touched or not digest.action_items:
            return tuple(() for _ in digest.action_items)
        by_ref = {ref.n: (ref.repo, ref.number) for ref in digest.references}
        pulls = _pulls(store, {repo for repo, _ in by_ref.values()}, digest.date)
        found = []
        for item in digest.action_items:
            cited = [pulls.get(by_ref[n]) for n in item.refs if n in by_ref]
            found.append(
                tuple(
                    t.slug or ""
                    for t in touched
                    if any(p is not None and matches(t, p) for p in cited)
                )
            )
        return tuple(found)

    return tag


def _pulls(
    store: Store, repos: set[str], day: dt.date
) -> dict[tuple[str, int | None], PullRequest]:
    """The pull requests collected for ``repos`` on ``day``, by (repository, number)."""
    found: dict[tuple[str, int | None], PullRequest] = {}
    for repo in sorted(repos):
        try:
            collected = store.load_repo_day(repo, day)
        except WireError:
            continue  # unreadable: the items are then of no topic
        for pull in collected.pulls if collected else ():
            found[pull.repo, pull.number] = pull
    return found
