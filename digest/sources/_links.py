"""Turn what change messages say about other changes into links: shared by every source.

A :class:`~digest.sources._gitlog.Message` carries hints (a number, a sha, a title) about
what it reverts or re-lands; :class:`Linker` resolves them against the day's other changes
and any older ones a source looked up, so every source links reverts and re-lands alike.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence

from digest.models import ChangeLink
from digest.sources._gitlog import Hint, Message


class Linker:
    """Turns what messages say about other changes into :class:`ChangeLink` records.

    ``day`` are the day's parsed commits, ``looked_up`` the older ones read by sha, and
    ``landed`` (when the source knows it) the shas on the branch.
    """

    def __init__(
        self,
        repo: str,
        day: Sequence[Message],
        looked_up: Mapping[str, Message],
        landed: Container[str] | None = None,
    ):
        self.repo = repo
        self.day = day
        self.looked_up = looked_up
        #: The commits on the branch, when the source knows them: a sha a body alone names
        #: links only to one of these.
        self.landed = landed
        links = [(m.reverts, self.reverts(m.reverts)) for m in day if m.reverts]
        self._reverted: dict[Hint, ChangeLink | None] = dict(links)
        self.day_reverts = [link for _, link in links if link is not None]

    def links(self, message: Message) -> tuple[ChangeLink | None, ChangeLink | None]:
        """Return what ``message`` reverts and what it re-lands (None: nothing or unknown).

        Reverts of the day's messages were resolved when the linker was made and are reused.
        """
        hint = message.reverts
        reverts = None
        if hint is not None:
            reverts = self._reverted[hint] if hint in self._reverted else self.reverts(hint)
        relands = self.relands(message.relands) if message.relands else None
        return reverts, relands

    def find(self, sha: str | None) -> Message | None:
        """Return the commit ``sha`` (possibly abbreviated) names, if it is known."""
        if not sha:
            return None
        in_day = next((m for m in self.day if m.sha.startswith(sha)), None)
        return in_day or self.looked_up.get(sha)

    def reverts(self, hint: Hint) -> ChangeLink | None:
        """Return the link to what ``hint`` reverts, completed from the reverted commit.

        None when only a body mentioned a sha and it is no commit of this repository.
        """
        target = self.find(hint.sha)
        landed = self.landed
        if hint.weak and target is not None and landed is not None and target not in self.day:
            target = target if target.sha in landed else None  # a branch's own, never landed
        if target is None:
            return None if hint.weak else ChangeLink(self.repo, hint.number, hint.sha, hint.title)
        number = target.number if target.number is not None else hint.number
        return ChangeLink(self.repo, number, target.sha, target.title)

    def relands(self, hint: Hint) -> ChangeLink:
        """Return the link to what ``hint`` re-lands.

        In order: the commit it reverts when that is a revert (``Reapply``), the number the
        title or body gives, a revert of the day with the same title, any link to a pull
        request of the repository in the body, else the title alone.
        """
        reverted = self.find(hint.sha)
        link = self.reverts(reverted.reverts) if reverted and reverted.reverts else None
        if link is not None:
            number = hint.number if hint.number is not None else link.number
            return ChangeLink(self.repo, number, link.sha, link.title or hint.title)
        if hint.number is not None:
            return ChangeLink(self.repo, hint.number, title=hint.title)
        same = next((r for r in self.day_reverts if _same_title(r.title, hint.title)), None)
        if same is not None:
            return same
        return ChangeLink(self.repo, hint.loose, title=hint.title)


def _same_title(reverted: str | None, reland: str | None) -> bool:
    """Tell whether two titles name the same change (case-blind; ``…`` ends a prefix)."""
    if not reverted or not reland:
        return False
    a, b = (" ".join(t.casefold().split()) for t in (reverted, reland))
    return a == b or (a.endswith("…") and b.startswith(a[:-1].rstrip()))
