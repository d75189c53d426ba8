"""The default writer: builds the edition from the records alone, offline and deterministic.

Every sentence it writes is made of a record's title or body and cites that record.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from digest.models import ActionItem, Digest, FaqEntry, Reference, Urgency
from digest.summarize.base import Brief, Item, Story, WriterContext
from digest.summarize.checks import HEADLINE_LIMIT, MAX_REFERENCES
from digest.summarize.classify import ROUTINE_KINDS, split_title
from digest.summarize.clean import split_sentences
from digest.summarize.phrasing import (
    as_clause,
    count,
    fit,
    join_words,
    long_date,
    md_escape,
    plain,
)

MAX_LEAD_STORIES = 5
_PART_SUFFIX = re.compile(
    r"\s*[-\u2013:,]?\s*(\((pt|part)\.?\s*\d+\)|\b(pt|part)\.?\s*\d+|\[\d+/\d+\]|\(\d+/\d+\)"
    r"|\(group id:[^)]*\))\s*$",
    re.I,
)
_PART_PREFIX = re.compile(r"^\s*(\(?\d+/\d*n?\)?|\[\d+/\d*n?\])\s+", re.I)
_RAW_URL = re.compile(r"<?https?://\S+>?")
_TRAILING_PR = re.compile(r"\s*\(#\d+\)\s*$")
_REVERT_QUOTE = re.compile(r'^\s*revert\s+"(?P<inner>.*)"\s*$', re.I | re.S)
_RELAND_MARK = re.compile(
    r"^\s*(\[re-?land\]\s*|re-?land(ed)?\s*:?\s*|reapply\s*)|\s*\((re-?land|reland)\)\s*$", re.I
)

_OPENERS = ("Elsewhere, ", "Meanwhile, ", "Also, ", "In other changes, ")
_KIND_NOUN = {
    "ci": "CI",
    "test": "test",
    "docs": "documentation",
    "build": "build",
    "deps": "dependency",
    "chore": "maintenance",
    "refactor": "refactoring",
}


class ExtractiveWriter:
    """Writes an edition by selecting and rephrasing the records' own words."""

    name = "extractive"

    def __init__(self, context: WriterContext | None = None) -> None:
        self._context = context

    def write(self, brief: Brief) -> Digest:
        """Return the edition for ``brief``: headline, dek, cited body, action items, FAQ."""
        if not brief.items:
            raise ValueError("a brief with no changes has no edition")
        draft = _Draft(brief)
        return draft.digest()


@dataclass
class _Draft:
    brief: Brief
    cited: list[Item] = field(default_factory=list)

    # Citations.
    def cite(self, item: Item) -> str:
        """Return `` [n]`` for ``item``, numbering it on first citation."""
        if item not in self.cited:
            self.cited.append(item)
        return f" [{self.cited.index(item) + 1}]"

    def digest(self) -> Digest:
        leads = self._lead_stories()
        routine = self._routine_groups(leads)
        plan = self._plan_citations(leads, routine)
        body = self._body(leads, plan, routine)
        actions = self._action_items(leads)
        return Digest(
            project=self.brief.project,
            project_slug=self.brief.project_slug,
            date=self.brief.date,
            headline=self._headline(leads),
            dek=self._dek(leads),
            body=body,
            action_items=actions,
            references=tuple(
                Reference(
                    n=n,
                    repo=item.pull.repo,
                    number=item.pull.number,
                    title=item.pull.title,
                    url=item.pull.url,
                )
                for n, item in enumerate(self.cited, start=1)
            ),
            faq=self._faq(leads, actions),
            writer="extractive",
        )

    # Selection.
    def _lead_stories(self) -> list[Story]:
        """The stories to tell: real changes first, routine ones only when there is nothing else."""
        stories = list(self.brief.stories)
        real = [s for s in stories if s.kind not in ROUTINE_KINDS]
        return (real or stories)[:MAX_LEAD_STORIES]

    def _plan_citations(self, leads: list[Story], routine: dict[str, list[Item]]) -> set[Item]:
        """Choose which items the body cites, within the reference budget."""
        planned: list[Item] = [story.lead for story in leads]
        planned += [i for story in leads for i in story.items[1:] if i.kind == "revert"]
        for items in routine.values():
            if len(planned) < MAX_REFERENCES - 1 or len(planned) < 3:
                planned.append(items[0])
        for story in leads:
            for item in story.items[1:3]:
                if len(planned) < MAX_REFERENCES and item not in planned:
                    planned.append(item)
        return set(planned[:MAX_REFERENCES])

    def _routine_groups(self, leads: list[Story]) -> dict[str, list[Item]]:
        """Routine items outside the lead stories, by kind, biggest kind first."""
        in_leads = {id(item) for story in leads for item in story.items}
        groups: dict[str, list[Item]] = {}
        for item in self.brief.items:
            if id(item) not in in_leads and item.kind in ROUTINE_KINDS | {"fix", "feature", "perf"}:
                key = item.kind if item.kind in ROUTINE_KINDS else "other"
                groups.setdefault(key, []).append(item)
        return dict(sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:3])

    # Text.
    def _subject(self, story: Story) -> str:
        if story.area:
            return story.area
        return story.repo.split("/", 1)[1]

    def _clause(self, story: Story, item: Item | None = None, short: bool = False) -> str:
        """What ``item`` (default: the story's lead) does, as a present-tense clause.

        ``short`` keeps only the first sentence of a title that has several.
        """
        item = item or story.lead
        subject = self._subject(story)
        title = _display_title(item)
        if item.kind == "revert":
            area, what = _revert_target(item)
            return f"{area or subject} reverts “{what}”"
        if item.kind == "reland":
            area, what, _ = split_title(_RELAND_MARK.sub("", title).strip().strip('"“”'))
            return f"{area or subject} re-lands “{_tidy(what)}”"
        return as_clause(subject, _first_sentence(title) if short else title)

    def _headline(self, leads: list[Story]) -> str:
        """The top two stories' clauses, shortened at phrase boundaries to fit the limit."""
        clauses = [plain(self._clause(story, short=True)).upper() for story in leads[:2]]
        if len(", ".join(clauses)) <= HEADLINE_LIMIT:
            return ", ".join(clauses)
        if len(clauses) == 1:
            return fit(clauses[0], HEADLINE_LIMIT)
        first = clauses[0] if len(clauses[0]) <= HEADLINE_LIMIT * 7 // 10 else ""
        second = fit(clauses[1], HEADLINE_LIMIT - len(first) - 2)
        if first and len(second.split()) >= 4:
            return f"{first}, {second}"
        return fit(clauses[0], HEADLINE_LIMIT)

    def _dek(self, leads: list[Story]) -> str:
        brief = self.brief
        clauses = [fit(plain(self._clause(story, short=True)), 80) for story in leads[:2]]
        lead = clauses[0] if len(clauses) == 1 else f"{clauses[0]} and {clauses[1]}"
        lead = lead[:1].upper() + lead[1:]
        total = count(len(brief.items), "change")
        repos = join_words(list(brief.repos))
        return f"{lead}, headlining {total} merged in {repos} on {long_date(brief.date)}."

    def _body(self, leads: list[Story], plan: set[Item], routine: dict[str, list[Item]]) -> str:
        paragraphs = [self._story_paragraph(story, plan, i) for i, story in enumerate(leads)]
        also = self._routine_paragraph(routine, plan)
        if also:
            paragraphs.append(also)
        return "\n\n".join(p for p in paragraphs if p)

    def _story_paragraph(self, story: Story, plan: set[Item], position: int) -> str:
        lead = story.lead
        opener = _OPENERS[(position - 1) % len(_OPENERS)] if position else ""
        sentences = [f"{opener}{md_escape(self._clause(story))}{self.cite(lead)}."]
        for sentence in split_sentences(lead.summary):
            sentences.append(f"{_sentence(md_escape(sentence))}{self.cite(lead)}.")
        for item in story.items[1:]:
            if item.kind == "revert" and item in plan:
                sentences.append(f"It was reverted the same day{self.cite(item)}.")
        companions = [i for i in story.items[1:] if i in plan and i.kind != "revert"]
        more = (
            len(story.items)
            - 1
            - sum(1 for i in story.items[1:] if i.kind == "revert" and i in plan)
        )
        if companions:
            shown = [f"“{md_escape(_display_title(i))}”{self.cite(i)}" for i in companions]
            others = more - len(companions)
            tail = f", with {count(others, 'other')}" if others else ""
            sentences.append(
                f"It comes with {count(more, 'related change')}, "
                f"among them {join_words(shown)}{tail}."
            )
        return " ".join(sentences)

    def _routine_paragraph(self, routine: dict[str, list[Item]], plan: set[Item]) -> str:
        parts = []
        for kind, items in routine.items():
            if items[0] not in plan:
                continue
            noun = _KIND_NOUN.get(kind, "other")
            example = md_escape(_display_title(items[0]))
            parts.append(
                f"{count(len(items), noun + ' change')} such as “{example}”{self.cite(items[0])}"
            )
        if not parts:
            return ""
        return f"Also merged: {join_words(parts)}."

    def _action_items(self, leads: list[Story]) -> tuple[ActionItem, ...]:
        actions: list[ActionItem] = []
        seen: set[str] = set()
        for rank, story in enumerate(leads):
            action = self._action_for(story, rank)
            if action.text not in seen:
                seen.add(action.text)
                actions.append(action)
        if len(actions) < 2:
            busiest = Counter(item.pull.repo for item in self.brief.items).most_common(1)[0][0]
            example = next(
                i for i in self.brief.items if i.pull.repo == busiest and i in self.cited
            )
            actions.append(
                ActionItem(
                    text=(
                        f"Skim the full list of {count(len(self.brief.items), 'change')} "
                        "for anything "
                        "that touches code you own"
                    ),
                    repo=busiest,
                    urgency=Urgency.MONITOR,
                    refs=(self.cited.index(example) + 1,),
                )
            )
        return tuple(actions[:5])

    def _action_for(self, story: Story, rank: int) -> ActionItem:
        """The action a team using the story's area should take; ``rank`` 0 is the top story."""
        lead = story.lead
        users = f"Teams using {self._subject(story)}"
        title = f"“{plain(_display_title(lead))}”"
        refs = tuple(sorted(self.cited.index(i) + 1 for i in story.items if i in self.cited))
        kind = lead.kind
        # Capabilities beyond the top two stories are worth knowing about, not planning for.
        later = Urgency.PLAN if rank < 2 else Urgency.MONITOR
        if kind == "breaking":
            text, urgency = (
                f"{users}: check your code before upgrading past {title}",
                Urgency.IMMEDIATE,
            )
        elif kind == "perf":
            text, urgency = f"{users}: re-run your benchmarks to measure {title}", Urgency.PLAN
        elif kind == "feature":
            text, urgency = f"{users}: evaluate {title} for your workloads", later
        elif kind == "fix":
            text, urgency = f"{users}: upgrade to pick up {title} if the bug affects you", later
        elif kind == "deps":
            text, urgency = f"{users}: match your environment to {title}", Urgency.PLAN
        elif kind == "revert":
            _, what = _revert_target(lead)
            text = (
                f"{users}: don't build on “{plain(what)}”, which was reverted; watch for a re-land"
            )
            urgency = Urgency.MONITOR
        elif kind == "reland":
            text, urgency = (
                f"{users}: re-test what {title} touches now that it is back",
                Urgency.MONITOR,
            )
        else:
            noun = _KIND_NOUN.get(kind, kind)
            text, urgency = (
                f"{users}: note the {noun} change {title}; nothing to do",
                Urgency.MONITOR,
            )
        return ActionItem(text=text, repo=story.repo, urgency=urgency, refs=refs)

    def _faq(self, leads: list[Story], actions: tuple[ActionItem, ...]) -> tuple[FaqEntry, ...]:
        brief = self.brief
        project, date = brief.project, long_date(brief.date)
        changed = [f"{md_escape(self._clause(s))}{self.cite(s.lead)}" for s in leads[:3]]
        todo = " ".join(
            f"{a.urgency.value.capitalize()}: {md_escape(a.text)}{_cites(a.refs)}." for a in actions
        )
        per_repo = Counter(item.pull.repo for item in brief.items)
        shipped = join_words(
            [f"{repo} ({count(per_repo[repo], 'change')})" for repo in brief.repos]
        )
        if brief.failed:
            unread = join_words([failure.repo for failure in brief.failed])
            shipped += f". Not covered, because they could not be read: {unread}"
        entries = [
            FaqEntry(f"What changed in {project} on {date}?", _sentence(join_words(changed)) + "."),
            FaqEntry(f"What should {project} teams do about it?", todo),
            FaqEntry(f"Which {project} repositories shipped on {date}?", shipped + "."),
        ]
        reverted = [i for i in self.cited if i.kind == "revert"]
        if reverted:
            listed = join_words(
                [f"“{md_escape(_revert_target(i)[1])}”{self.cite(i)}" for i in reverted]
            )
            entries.append(
                FaqEntry(f"Was anything reverted in {project} on {date}?", f"Yes: {listed}.")
            )
        return tuple(entries)


def _cites(refs: tuple[int, ...]) -> str:
    return "".join(f" [{n}]" for n in refs)


def _sentence(text: str) -> str:
    """Capitalise ``text`` and drop its final full stop (a citation goes before it)."""
    text = text.rstrip().rstrip(".")
    return text[:1].upper() + text[1:]


def _display_title(item: Item) -> str:
    """The item's title without area prefix, part numbers, group suffixes or raw URLs."""
    return _tidy(item.headline_title)


def _tidy(title: str) -> str:
    """``title`` without part numbers, group suffixes, trailing ``(#N)`` or raw URLs."""
    title = _PART_PREFIX.sub("", _PART_SUFFIX.sub("", _TRAILING_PR.sub("", title)))
    title = " ".join(_RAW_URL.sub("", title).split()).rstrip(" .:;,")
    return title or "untitled change"


def _first_sentence(title: str) -> str:
    """The first sentence of a title that has several."""
    return re.split(r"(?<=[.!?])\s+(?=\S)", title, maxsplit=1)[0].rstrip(".")


def _revert_target(item: Item) -> tuple[str, str]:
    """(area, title) of what a revert reverts, from its ``Revert "..."`` title."""
    inner = _REVERT_QUOTE.match(item.pull.title)
    if not inner:
        return "", item.headline_title
    area, title, _ = split_title(inner.group("inner"))
    return area, _tidy(title)
