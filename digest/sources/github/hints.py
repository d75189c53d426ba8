"""Tell when a repository's ``merged_label`` setting does not match how it lands changes.

Some repositories (pytorch/pytorch) never merge through GitHub: a merge bot pushes the
commit, closes the pull request and labels it (``Merged``). Searched for GitHub merges,
such a repository has none; searched by a label, a repository that merges through GitHub
has none either. Both look like a quiet day. When a day (or, for ``digest doctor``, a
week) comes back empty, one search for the other kind of landing tells which it is.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter

from msgspec import Struct

from digest.config import RepoSettings
from digest.errors import WireError
from digest.sources.github.client import Client
from digest.sources.github.query import _Shape, shaped
from digest.text import count, one_line

#: Label names a merge bot puts on a pull request it landed by closing it.
MERGED_STYLE = re.compile(r"\b(?:merged|landed)\b", re.IGNORECASE)
_SECOND = dt.timedelta(seconds=1)


class ModeHint(Struct, frozen=True):
    """What the other kind of search found, and the configuration change it calls for."""

    detail: str
    fix: str


class _Label(_Shape, frozen=True):
    name: str


class _Item(_Shape, frozen=True):
    labels: tuple[_Label, ...] = ()
    pull_request: dict[str, object] | None = None


class _Page(_Shape, frozen=True):
    total_count: int
    items: list[_Item]


def search_query(repo: RepoSettings, start: dt.datetime, end: dt.datetime) -> str:
    """Return the search query for the merges of ``repo`` in ``[start, end)`` (whole seconds)."""
    label = repo.merged_label
    if label is None:
        return f"repo:{repo.name} is:pr is:merged merged:{span(start, end)}"
    if '"' in label:
        raise WireError(f"{repo.name}: merged_label {label!r} cannot contain a double quote")
    return f'repo:{repo.name} is:pr is:closed label:"{label}" closed:{span(start, end)}'


def span(start: dt.datetime, end: dt.datetime) -> str:
    """Return GitHub's search range for ``[start, end)``, whole seconds, both ends included."""
    return f"{iso(start)}..{iso(end - _SECOND)}"


def iso(moment: dt.datetime) -> str:
    """Return ``moment`` in UTC as GitHub's search writes it."""
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def landed(client: Client, repo: RepoSettings, start: dt.datetime, end: dt.datetime) -> int:
    """Return how many pull requests landed in ``repo`` in ``[start, end)`` as configured."""
    return _search(client, search_query(repo, start, end), 1).total_count


def mode_hint(
    client: Client, repo: RepoSettings, start: dt.datetime, end: dt.datetime, when: str
) -> ModeHint | None:
    """Return the fix when ``repo``, with nothing landed as configured in ``[start, end)``,
    shows the other kind of landing there (one search request); ``when`` names the period.
    """
    label = repo.merged_label
    if label is not None:
        merged = _search(client, f"repo:{repo.name} is:pr is:merged merged:{span(start, end)}", 1)
        if merged.total_count == 0:
            return _other_label(client, repo, label, start, end, when)
        return ModeHint(
            f"none closed with the label {label!r} {when}, but "
            f"{count(merged.total_count, 'pull request')} merged through GitHub",
            f"remove 'merged_label: {_yaml(label)}' from {repo.name} in the configuration",
        )
    _, labels = _closed_unmerged(client, repo, start, end)
    if not labels:
        return None
    (name, landed), *_ = labels.most_common(1)
    return ModeHint(
        f"none merged through GitHub {when}, but {count(landed, 'pull request')} closed "
        f"with the label {name!r} (a merge bot lands them so)",
        f"put 'merged_label: {_yaml(name)}' under {repo.name} in the configuration",
    )


def _other_label(
    client: Client,
    repo: RepoSettings,
    label: str,
    start: dt.datetime,
    end: dt.datetime,
    when: str,
) -> ModeHint | None:
    """The hint for a labelled repository with nothing closed with ``label`` and nothing
    merged: other pull requests closed in ``[start, end)`` mean the label is likely wrong.
    """
    closed, labels = _closed_unmerged(client, repo, start, end)
    if closed == 0:
        return None  # a quiet day: nothing closed at all
    said = (
        f"none closed with the label {label!r} {when}, but {count(closed, 'pull request')} closed"
    )
    other = next((name for name, _ in labels.most_common() if name.lower() != label.lower()), None)
    if other is not None:
        return ModeHint(
            f"{said}, {labels[other]} of them with the label {other!r}",
            f"put 'merged_label: {_yaml(other)}' under {repo.name} in the configuration",
        )
    return ModeHint(
        f"{said} without it",
        f"check 'merged_label: {_yaml(label)}' under {repo.name}: it must be the label the "
        "merge bot puts on the pull requests it lands",
    )


def _closed_unmerged(
    client: Client, repo: RepoSettings, start: dt.datetime, end: dt.datetime
) -> tuple[int, Counter[str]]:
    """Return how many pull requests of ``repo`` were closed unmerged in ``[start, end)``, and
    the merge-bot-style labels (``Merged``, ``landed``) among the first 100 (one request).
    """
    query = f"repo:{repo.name} is:pr is:closed is:unmerged closed:{span(start, end)}"
    page = _search(client, query, 100)
    labels = Counter(
        one_line(tag.name)
        for item in page.items
        if item.pull_request is not None
        for tag in item.labels
        if MERGED_STYLE.search(tag.name)
    )
    return page.total_count, labels


def _search(client: Client, query: str, per_page: int) -> _Page:
    """Return the first page of the issue search ``query``."""
    _, data = client.github.requester.requestJsonAndCheck(
        "GET", "/search/issues", parameters={"q": query, "per_page": per_page}
    )
    return shaped(data, _Page)


def _yaml(label: str) -> str:
    """Return ``label`` as a YAML scalar: plain when that reads back the same, else quoted."""
    return label if re.fullmatch(r"[A-Za-z0-9_][\w .\-/]*", label) else json.dumps(label)
