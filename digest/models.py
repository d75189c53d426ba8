"""The records the pipeline stages hand to each other.

Every record is a frozen msgspec struct: sources produce :class:`PullRequest` records,
the summarizer turns a day of them into a :class:`Digest`, and the renderer reads
digests. Nothing else crosses a stage boundary. Structs rather than dataclasses: the
store decodes them straight from JSON, and defining one costs microseconds where a
dataclass costs a millisecond of every start-up.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum

from msgspec import Struct


class Urgency(StrEnum):
    """How soon a team should act on an action item."""

    IMMEDIATE = "immediate"
    PLAN = "plan"
    MONITOR = "monitor"


class FileChange(Struct, frozen=True):
    """One file touched by a pull request."""

    path: str
    #: Lines added; ``None`` when unknown (binary file, or contents missing from the clone).
    additions: int | None = None
    #: Lines deleted; ``None`` when unknown.
    deletions: int | None = None


class Review(Struct, frozen=True):
    """One review left on a pull request (only sources that know reviews fill these)."""

    author: str
    #: GitHub's review state: APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED.
    state: str


class ChangeLink(Struct, frozen=True):
    """A pointer from one change to another (what a revert reverts, what a re-land re-lands)."""

    repo: str
    number: int | None = None
    sha: str | None = None
    title: str | None = None


class PullRequest(Struct, frozen=True):
    """A merged change, normalised from whichever source collected it."""

    repo: str
    #: Pull request number; ``None`` for a direct push with no PR.
    number: int | None
    title: str
    body: str
    #: Link to the pull request, or to the commit when there is no PR.
    url: str
    merged_at: dt.datetime
    author: str
    sha: str | None = None
    labels: tuple[str, ...] = ()
    files: tuple[FileChange, ...] = ()
    additions: int = 0
    deletions: int = 0
    changed_files: int = 0
    #: False when the source could not read every changed file (``files`` is short).
    files_complete: bool = True
    #: Reviews, when the source knows them (the GitHub API does; git does not).
    reviews: tuple[Review, ...] = ()
    comments: int | None = None
    review_comments: int | None = None
    participants: tuple[str, ...] = ()
    linked_issues: tuple[int, ...] = ()
    #: Set when this change reverts another.
    reverts: ChangeLink | None = None
    #: Set when this change lands again something that was reverted.
    relands: ChangeLink | None = None
    #: What a release commit adds to the changelog (its release notes); ``""`` for every
    #: other change.
    notes: str = ""
    #: True when it releases an older line (an LTS patch release merged forward): the
    #: changelog it writes to is already headed by a newer version.
    older_line: bool = False
    #: What the change's own release-note fragment tells users (a changeset, a news
    #: fragment), its front matter dropped; ``""`` when it adds none.
    fragment: str = ""

    @property
    def key(self) -> str:
        """A short identifier unique within a day: ``owner/repo#N`` or ``owner/repo@sha``."""
        if self.number is not None:
            return f"{self.repo}#{self.number}"
        return f"{self.repo}@{(self.sha or '')[:12]}"


class RepoDay(Struct, frozen=True):
    """What one source collected for one repository and one UTC day."""

    repo: str
    date: dt.date
    source: str
    pulls: tuple[PullRequest, ...]
    #: When the collection ran (from the injected clock).
    collected_at: dt.datetime
    #: The source settings it was collected with (the clone and branch, the API root,
    #: ``merged_label``...): a day collected with others is collected again. None in
    #: collections stored before they were recorded (reused as they are).
    settings: dict[str, str] | None = None


class Reference(Struct, frozen=True):
    """A numbered reference of an edition; ``n`` is what ``[n]`` in the text points at."""

    n: int
    repo: str
    number: int | None
    title: str
    url: str
    #: The sentences the change's own page opens with (its description's first ones worth
    #: reading); None in digests written before they were stored.
    in_short: tuple[str, ...] | None = None


class ActionItem(Struct, frozen=True):
    """Something a team lead should do, tied to a repository and citing references."""

    text: str
    repo: str
    urgency: Urgency
    refs: tuple[int, ...]


class FaqEntry(Struct, frozen=True):
    question: str
    answer: str


class ChangeSummary(Struct, frozen=True):
    """One line of the full list of a day's changes shown under the story."""

    repo: str
    number: int | None
    title: str
    url: str
    #: The kind the summarizer assigned (feature, fix, revert, ci, ...).
    kind: str
    #: False when the collected list of the change's files is short (some could not be read).
    files_complete: bool = True


class FailureReason(StrEnum):
    """Why a repository is left out of an edition, in words fit for the public page.

    A closed list: the details of a failure (paths, server messages) go to the log only,
    never to a page, a feed or a stored edition.
    """

    NOT_FOUND = "repository not found"
    MOVED = "repository moved"
    NOT_A_REPOSITORY = "not a git repository"
    NO_BRANCH = "branch not found"
    ACCESS_DENIED = "access denied"
    RATE_LIMITED = "rate limited"
    SERVER_ERROR = "server error"
    NETWORK_UNREACHABLE = "network unreachable"
    TIMED_OUT = "timed out"
    UNREADABLE_ANSWER = "unreadable answer"
    NOT_COLLECTED = "not collected"
    #: A shallow clone whose history does not reach back to the day.
    HISTORY_MISSING = "history not fetched"
    UNREADABLE = "could not be read"


class RepoFailure(Struct, frozen=True):
    """A repository that could not be read for the edition, and why (in public words)."""

    repo: str
    reason: FailureReason


class TopicLead(Struct, frozen=True):
    """What an edition says about one topic: the sentence a topic's page leads with."""

    #: The configured topic's slug.
    topic: str
    #: Plain text (no Markdown, no citations).
    text: str


class FollowUp(Struct, frozen=True):
    """A change of the day that reverts or re-lands an earlier one (for corrections)."""

    #: ``revert`` or ``reland``.
    kind: str
    #: What it reverts or re-lands: repository and PR number.
    repo: str
    number: int
    #: The change that does it.
    by_number: int | None
    by_url: str


class Newcomer(Struct, frozen=True):
    """An author whose first merged pull request in a repository an edition reports."""

    repo: str
    author: str
    number: int | None
    url: str


class RepoName(Struct, frozen=True):
    """How pages write a repository whose configuration sets ``display_name``."""

    repo: str
    display_name: str


class Digest(Struct, frozen=True):
    """One edition: a project's news for one UTC day."""

    project: str
    project_slug: str
    date: dt.date
    headline: str
    dek: str
    #: Markdown; every sentence cites at least one ``[n]``.
    body: str
    action_items: tuple[ActionItem, ...]
    references: tuple[Reference, ...]
    faq: tuple[FaqEntry, ...]
    #: Repositories with at least one merged change that day, in config order.
    repos: tuple[str, ...] = ()
    #: Configured topic slugs this edition touches.
    topics: tuple[str, ...] = ()
    #: Every change of the day, most important first.
    changes: tuple[ChangeSummary, ...] = ()
    #: Which writer produced the text ("extractive", "openai", ...).
    writer: str = "extractive"
    #: Why the writer differs from the one asked for (e.g. a fallback), else empty.
    writer_note: str = ""
    failed_repos: tuple[RepoFailure, ...] = ()
    #: Changes of the day that revert or re-land earlier ones, cited or not.
    follow_ups: tuple[FollowUp, ...] = ()
    #: Authors merging for the first time in a repository, as far back as ``history_since``.
    newcomers: tuple[Newcomer, ...] = ()
    #: The first collected day newcomers are measured against (None: no earlier history).
    history_since: dt.date | None = None
    #: When the edition was written (from the injected clock); kept across identical re-runs.
    filed_at: dt.datetime | None = None
    #: For each topic it touches, what the edition says about that topic first.
    topic_leads: tuple[TopicLead, ...] = ()
    #: Display names of the repositories that have one (``pytorch/ao`` is ``torchao``).
    repo_names: tuple[RepoName, ...] = ()

    def shown(self, repo: str) -> str:
        """How pages write ``repo``: its display name, else ``owner/repo``."""
        return next((n.display_name for n in self.repo_names if n.repo == repo), repo)

    @property
    def change_count(self) -> int:
        return len(self.changes)
