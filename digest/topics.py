"""Which configured topics a change belongs to: one rule set for the summarize stage (an
edition's topics, its topic leads) and the render stage (a topic's action items).

It needs only the settings and the records, so rendering loads none of the summarize stage.
"""

from __future__ import annotations

from collections.abc import Sequence
from fnmatch import fnmatch

from digest.config import TopicSettings
from digest.models import PullRequest


def match_topics(topics: Sequence[TopicSettings], pulls: Sequence[PullRequest]) -> tuple[str, ...]:
    """Return the slugs of ``topics`` (in configuration order) that any of ``pulls`` matches."""
    return tuple(
        topic.slug or "" for topic in topics if any(matches(topic, pull) for pull in pulls)
    )


def matches(topic: TopicSettings, pull: PullRequest) -> bool:
    """True when ``pull`` belongs to ``topic`` (by label, title prefix or changed path)."""
    labels = {label.lower() for label in pull.labels}
    if any(label.lower() in labels for label in topic.labels):
        return True
    title = pull.title.lower()
    if any(title.startswith(prefix.lower()) for prefix in topic.title_prefixes):
        return True
    return any(
        change.path.startswith(pattern) if not _is_glob(pattern) else fnmatch(change.path, pattern)
        for pattern in topic.paths
        for change in pull.files
    )


def _is_glob(pattern: str) -> bool:
    return any(ch in pattern for ch in "*?[")
