"""The default writer: builds the edition from the records alone, offline and deterministic.

Every sentence it writes is made of a record's title or body and cites that record. A
story is told whole: its notable changes share one sentence, each cited where its part
ends; the lead's body adds up to two retold sentences.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence

import msgspec
from msgspec import Struct, field

from digest.models import ActionItem, Digest, FaqEntry, Reference, Urgency
from digest.summarize.base import Brief, Item, Story, WriterContext
from digest.summarize.checks import (
    BRIEF_LABEL,
    HEADLINE_LIMIT,
    MAX_REFERENCES,
    problems,
    terms_of,
)
from digest.summarize.classify import ROUTINE_KINDS, SEVERE, split_title
from digest.summarize.clean import in_short
from digest.summarize.extractive.actions import (
    breaking_note,
    draft_actions,
    plain_watch,
    watch_action,
)
from digest.summarize.extractive.drafting import Action, Context
from digest.summarize.extractive.mend import mend
from digest.summarize.kinds import NOTES_KEPT, claimed, marked_breaking, says_repair, symptom
from digest.summarize.naming import opens_with_area, opens_with_name
from digest.summarize.phrasing import (
    count,
    ends_dangling,
    fit,
    headline_case,
    join_words,
    long_date,
    lower_first,
    md_escape,
    parse_title,
    plain,
    say_count,
    upper_first,
)
from digest.summarize.releases import (
    ReleaseNote,
    count_by_kind,
    notable_notes,
    notes_carry,
    release_notes,
    upkeep_kinds,
)
from digest.summarize.select import lead_stories
from digest.summarize.sentences import in_the_past, retell, stands_alone
from digest.summarize.stories import (
    area_of,
    names_place,
    phrase_of,
    place_told,
    product_of,
    reads_as_clause,
    reverted_title,
    reverts_item,
    story_sentence,
    subject,
    tidy,
    told_item,
)
from digest.summarize.verbs import BASE_FORMS

_LOG = logging.getLogger("digest.summarize")
#: At most this many changes of one story share its sentence.
MEMBERS_PER_STORY = 3
#: One-change stories told together in one sentence at most (the rest are listed).
MAX_BRIEFS_TOLD = 3
#: How a sentence about a change the day's release ships opens.
_CARRIED_OPENER = "Also in the release"
#: The score (see :mod:`digest.summarize.classify`) a second story needs to share the
#: headline: about that of a new capability users call, or a fix of a fault they hit.
SECOND_HEADLINE_SCORE = 8.0
#: A change told in a sentence with others says this many words at most: a longer title,
#: or one naming code, reads as pasted in there; the closing list names it as written.
_BRIEF_WORDS = 8
#: Changes the closing list names at most (more when a repository's briefs need room).
MAX_LISTED = 5
#: References kept for routine examples and actions outside the lead stories.
_SPARE_REFERENCES = 1
#: A clause longer than this tells a revert or re-land by what it is about.
_SHORT_CLAUSE = 70
#: A title that says it fixes something ("Fix X", "Avoid a panic", "Don't drop Y").
_FIX_OPENING = re.compile(
    r"(fix|fixes|fixed|avoid|prevent|handle|correct|resolve|repair|restore|reject|"
    r"don'?t|do not|no longer|stop|ensure|guard|preserve)\b",
    re.I,
)
#: How a sentence counts a release's notes of each kind.
NOTE_NOUNS = {
    "breaking": ("change that can break code", "changes that can break code"),
    "security": ("security fix", "security fixes"),
    "fix": ("fix", "fixes"),
    "feature": ("new feature", "new features"),
    "perf": ("performance change", "performance changes"),
    "other": ("other change", "other changes"),
    "upkeep": ("dependency or maintenance change", "dependency and maintenance changes"),
    "any": ("change", "changes"),
}
_URGENCY_WORD = {
    Urgency.IMMEDIATE: "Now",
    Urgency.PLAN: "Plan",
    Urgency.MONITOR: "Monitor",
}


class ExtractiveWriter:
    """Writes an edition by selecting and retelling the records' own words."""

    name = "extractive"

    def __init__(self, context: WriterContext | None = None) -> None:
        self._context = context

    def write(self, brief: Brief) -> Digest:
        """Return the edition for ``brief``: headline, dek, cited body, action items, FAQ."""
        if not brief.items:
            raise ValueError("a brief with no changes has no edition")
        pulls = [item.pull for item in brief.items]
        drafted = _Draft(brief).digest()
        # A day is never lost to a check: what breaks a rule is left out, and said in the log.
        digest, notes = mend(drafted, pulls, problems)
        if digest is drafted and notes and any(n.startswith("action item") for n in notes):
            # Leaving parts out left no edition (its one action item broke a rule): the
            # items the facts support give way to the one change to watch.
            first = [f"gave up the drafted action items: {n}" for n in notes]
            watching = _Draft(brief, watch_only=True).digest()
            digest, notes = mend(watching, pulls, problems)
            if digest is watching and any(n.startswith("action item") for n in notes):
                # Even the change to watch broke a rule: it is named by its number alone.
                first += [f"gave up the item to watch: {n}" for n in notes]
                plain_item = _Draft(brief, watch_only=True, by_number=True).digest()
                digest, notes = mend(plain_item, pulls, problems)
            notes = first + notes
        if found := problems(digest, pulls):
            # What leaving parts out cannot mend (the headline, the dek, an FAQ answer) is
            # said in the plainest words the day's counts give, and mended again.
            digest, more = mend(_plainer(digest, brief, found), pulls, problems)
            notes += [f"said plainly: {note}" for note in more]
        if found := problems(digest, pulls):
            # Still a rule broken: the day's changes are named by their titles alone, under
            # a headline and a dek of its counts, with the one change to watch by number.
            listed = _Draft(brief, watch_only=True, by_number=True, listed=True).digest()
            digest = _plainer(listed, brief, ["headline", "dek", *problems(listed, pulls)])
            notes += [f"listed by titles: {problem}" for problem in found]
        for note in notes:
            _LOG.warning("%s %s: %s", brief.project_slug, brief.date, note)
        return digest


class _Draft(Struct):
    brief: Brief
    #: Action items: only the one change to watch (when those drafted broke a rule).
    watch_only: bool = False
    #: The one item to watch names its change by number only, in words every edition uses.
    by_number: bool = False
    #: The body names the day's changes by their titles only (when what it told broke a rule).
    listed: bool = False
    cited: list[Item] = field(default_factory=list)
    #: The day's changes a release's notes sentence quotes (see :meth:`_quoted_by_releases`).
    quoted: list[Item] = field(default_factory=list)
    #: Sentences told so far about changes a release of the day ships.
    carried_told: int = 0
    #: Sentences told so far about a repository's other small changes ("In other changes").
    others_told: int = 0

    def cite(self, item: Item) -> str:
        """Return `` [n]`` for ``item``, numbering it on first citation."""
        if item not in self.cited:
            self.cited.append(item)
        return f" [{self.cited.index(item) + 1}]"

    def digest(self) -> Digest:
        # A change a release's notes quote is told by the release: never a story again.
        self.quoted = self._quoted_by_releases()
        quoted = {id(item) for item in self.quoted}
        leads = lead_stories([s for s in self.brief.stories if id(s.lead) not in quoted])
        members = self._members(leads)
        routine = self._routine_examples(leads, members)
        body = self._body(leads, members, routine)
        actions = self._action_items(leads, members)
        return Digest(
            project=self.brief.project,
            project_slug=self.brief.project_slug,
            date=self.brief.date,
            headline=(headline := self._headline(leads)),
            dek=self._dek(leads, headline),
            body=body,
            action_items=actions,
            references=tuple(
                Reference(
                    n=n,
                    repo=item.pull.repo,
                    number=item.pull.number,
                    title=item.pull.title,
                    url=item.pull.url,
                    in_short=in_short(item.pull.body, item.pull.title),
                )
                for n, item in enumerate(self.cited, start=1)
            ),
            faq=self._faq(leads, actions),
            writer="extractive",
            repo_names=self.brief.repo_names,
        )

    # Selection.
    def _members(self, leads: list[Story]) -> dict[Story, tuple[Item, ...]]:
        """Which changes of each lead story are cited, within the reference budget.

        Every lead is cited; then, story by story in rank order, reverts and re-lands,
        then the next notable member of each story, round after round.
        """
        # The changes a release's notes sentence cites take their references first.
        budget = MAX_REFERENCES - _SPARE_REFERENCES - len(self.quoted)
        deep = leads[:2]  # The top stories may cite a third member.
        chosen: dict[Story, list[Item]] = {story: [story.lead] for story in leads}
        total = len(leads)
        candidates = {
            story: [
                item
                for item in sorted(
                    story.items[1:], key=lambda i: i.kind not in ("revert", "reland")
                )
                if item.kind not in ROUTINE_KINDS
            ]
            for story in leads
        }
        for round_ in range(MEMBERS_PER_STORY - 1):
            for story in leads if round_ == 0 else deep:
                if candidates[story] and total < budget:
                    chosen[story].append(candidates[story].pop(0))
                    total += 1
        return {story: tuple(items) for story, items in chosen.items()}

    def _routine_examples(
        self, leads: list[Story], members: dict[Story, tuple[Item, ...]]
    ) -> list[Item]:
        """The day's next changes the stories do not tell, best first, within the references
        left: the body's closing list names them by their titles."""
        quoted = self.quoted
        room = MAX_REFERENCES - sum(len(items) for items in members.values()) - len(quoted) - 1
        told = {id(item) for items in members.values() for item in items}
        told |= {id(item) for item in quoted}
        # A commit that only wrote the notes of a release of the day is told by that release.
        released = {item.pull.repo for item in self.brief.items if item.kind == "release"}
        told |= {
            id(item)
            for item in self.brief.items
            if item.pull.notes and item.kind != "release" and item.pull.repo in released
        }
        rest = [item for item in self.brief.items if id(item) not in told]
        # A lead story's changes its sentence could not tell come first: the story is theirs.
        in_leads = {id(item) for story in leads for item in story.items}
        rest.sort(key=lambda item: id(item) not in in_leads)
        # Tests, CI and chores only when nothing else is left to list.
        notable = [item for item in rest if item.kind not in ROUTINE_KINDS] or rest
        return notable[: max(0, min(room, MAX_LISTED))]

    # Body.
    def _body(
        self,
        leads: list[Story],
        members: dict[Story, tuple[Item, ...]],
        routine: list[Item],
    ) -> str:
        if self.listed:
            named = [item for story in leads for item in members[story]]
            return "\n\n".join(self._brief_list([*named, *(i for i in routine if i not in named)]))
        paragraphs = []
        several_repos = len({story.repo for story in leads}) > 1
        position = following = alsos = 0  # stories told; after a repository's first, as below
        listed: list[Item] = []
        last_subject = ""  # "It also …" only after a sentence with the same subject
        shipped = self._shipped_by_releases()
        quiet = all(s.kind in ROUTINE_KINDS for s in leads)  # nothing but upkeep to tell
        for stories in _by_repo(leads).values():
            # After a repository's first story, its one-change stories are told together
            # (below); stories whose lead's title reads as no clause are listed as written.
            # The first release told tells what its notes list (of one package's, the newest:
            # they are one story); a second release of the repository is brief.
            first_release = next((s for s in stories if s.kind == "release"), None)
            briefs = [
                s
                for s in stories[1:]
                if (
                    len(members[s]) == 1
                    and _is_brief(s, s is first_release)
                    and not (s.lead.kind != "release" and self._retold(s.lead))
                )
                or not reads_as_clause(s.lead)
                or s.kind in ROUTINE_KINDS  # upkeep after the first story: never a paragraph
                # "In development mode, vite disables extglobs for consistency": a fix told
                # by its mechanism alone, with no description to say what it repairs.
                or (len(members[s]) == 1 and _mechanism_only(s.lead) and not self._retold(s.lead))
            ]
            for story in [s for s in stories if s not in briefs]:
                # A member whose title reads as no clause is listed, not bent into the sentence.
                told = tuple(m for m in members[story] if _told_with(m, story.lead))
                # The first story of a repository opens its part; a later one follows it.
                if position == 0 or (several_repos and story is stories[0]):
                    following = alsos = 0
                else:  # one more story; how many, with this one, say "also" (no place)
                    alsos += 0 if place_told(story, told) else 1
                    if subject(story) != last_subject:
                        alsos = min(alsos, 1)  # "The ruff project also …" after a ty sentence
                    following = max(alsos, 1)
                position += 1
                listed += [m for m in members[story] if m not in told]
                # A change the day's release of its repository ships is told as the release's.
                carried = story.kind != "release" and story.lead.pull.number in shipped.get(
                    story.repo, ()
                )
                paragraphs.append(self._story_paragraph(story, told, following, carried))
                last_subject = subject(story)
            # Up to three one-change stories that read as clauses share a sentence; the
            # rest are listed by their titles.
            told_briefs = [s for s in briefs if _told_in_brief(s, quiet)]
            said = [phrase_of(s.lead).predicate() for s in told_briefs]
            if len(said) <= 2 or not _pattern(said)[0]:  # one pattern is one phrase
                told_briefs = told_briefs[:MAX_BRIEFS_TOLD]
            # Those the day's release ships are told as its; the others as other changes.
            ships = shipped.get(stories[0].repo, frozenset())
            carried_briefs = [
                s for s in told_briefs if s.kind != "release" and s.lead.pull.number in ships
            ]
            others = [s for s in told_briefs if s not in carried_briefs]
            for group, carried in ((carried_briefs, True), (others, False)):
                # One subject a sentence: "create-vite uses X" is not "… and updates rolldown".
                for who in dict.fromkeys(subject(s) for s in group):
                    same = [s for s in group if subject(s) == who]
                    paragraphs.append(self._briefs_paragraph(same, carried))
            listed += [item for s in briefs if s not in told_briefs for item in members[s]]
        listed += [item for item in routine if item not in listed]
        if listed:
            paragraphs += self._brief_list(listed)
        return "\n\n".join(paragraphs)

    def _carried_opening(self) -> tuple[str, str]:
        """How a sentence about a change the day's release ships opens: (opener, subject).
        The first says "Also in the release"; a later one has the release
        for its subject ("The release also …")."""
        self.carried_told += 1
        return (_CARRIED_OPENER, "") if self.carried_told == 1 else ("", "The release also")

    def _shipped_by_releases(self) -> dict[str, frozenset[int]]:
        """The numbers of the changes each repository's releases of the day list in their
        notes, by repository."""
        releases = Counter(i.pull.repo for i in self.brief.items if i.kind == "release")
        return {
            item.pull.repo: frozenset(n for note in release_notes(item.pull) for n in note.numbers)
            for item in self.brief.items
            # Of two releases the same day, "the release" would not say which.
            if item.kind == "release" and releases[item.pull.repo] == 1
        }

    def _story_paragraph(
        self, story: Story, members: tuple[Item, ...], following: int = 0, carried: bool = False
    ) -> str:
        told = [m for m in members if m.kind != "revert" or m is story.lead]
        opener, who = self._carried_opening() if carried else ("", "")
        # The lead's own details come right after its part, before the others' parts.
        details = self._retold(story.lead) if story.lead.kind != "release" else []
        apart = len(told) > 1 and bool(details)
        # "X and Y [1]. It also Z [2]": what the description says of [1] comes before Z.
        sentence, then = story_sentence(
            story, told, self.cite, following, md_escape, opener, who, apart=apart
        )
        sentences = [f"{sentence}."]
        # A release's description is its changelog: what it says is told from its notes.
        if story.lead.kind == "release":
            whose = "Its notes"
            if sum(1 for m in told if m.kind == "release") > 1:
                # "releases 0.136.3 [1] and 0.136.2 [2]. Its notes": whose, then?
                version = story.lead.version
                named = version if "@" in version else f"version {version.lstrip('vV')}"
                whose = f"The notes of {named}"
            if contents := self._release_contents(story.lead, whose):
                sentences.append(contents)
        else:
            if (
                story.lead.kind == "breaking"
                and not story.lead.facts.removes
                and marked_breaking(story.lead.pull)
            ):
                sentences.append(f"Its author marks the change as breaking{self.cite(story.lead)}.")
            warned = breaking_note(story.lead.pull.body) if story.lead.kind == "breaking" else ""
            if warned:  # what breaks, as its description says: not only in an action item
                warning = md_escape(lower_first(warned))
                sentences.append(f"Its description warns: {warning}{self.cite(story.lead)}.")
            if warned:
                details = [d for d in details if not _largely_said(d, warned)]
            said = md_escape(phrase_of(story.lead).predicate())
            # "biome adds `X` [2]. It adds a new nursery rule `X` that prefers …": the
            # description says the title's claim and more, so it is said once, its way.
            fuller = says_again(details[0], story.lead) if len(told) == 1 and details else ""
            if fuller and said in sentence:
                # The fuller clause is news enough: no "on the main branch" to lengthen it.
                padded = f"{said} on the main branch"
                said = padded if padded in sentence else said
                sentences[0] = f"{sentence.replace(said, md_escape(fuller), 1)}."
                details = details[1:]
            for detail in details:
                sentences.append(f"{md_escape(detail)}{self.cite(story.lead)}.")
        if then:  # after what the description says of the first, its subject is named again
            who_then = "It" if len(sentences) == 1 else md_escape(subject(story, initial=True))
            sentences.append(f"{who_then} also {then}.")
        for item in members:
            if item.kind != "revert" or item is story.lead:
                continue
            # Only a revert paired with the lead takes it back; any other is told as itself.
            if reverts_item(item, story.lead):
                sentences.append(f"The change was reverted the same day{self.cite(item)}.")
            else:
                said = md_escape(phrase_of(item).predicate())
                sentences.append(f"A related change {said}{self.cite(item)}.")
        return " ".join(sentences)

    def _quoted_by_releases(self) -> list[Item]:
        """The day's changes that the entries a release's notes sentence quotes link to."""
        quoted = []
        first: dict[str, Story] = {}  # a repository's first release is told with its notes
        for story in self.brief.stories:
            if story.kind == "release":
                first.setdefault(story.repo, story)
        for story in first.values():
            if notes := release_notes(story.lead.pull):
                same_repo = [i for i in self.brief.items if i.pull.repo == story.repo]
                quoted += [
                    i for i in notes_carry(notable_notes(notes), same_repo) if i is not story.lead
                ]
        return quoted

    def _release_contents(self, release: Item, whose: str = "Its notes") -> str:
        """One sentence on what ``release``'s notes list: how many entries of each kind and
        the two a user most needs to hear of, quoted; cited by the release and the day's
        changes those two link; ``whose`` opens it. ``""`` when the release has no notes."""
        notes = release_notes(release.pull)
        if not notes:
            return ""
        kinds = count_by_kind(notes)
        if [kind for kind, _ in kinds] == ["upkeep"]:
            said = say_count(len(notes), "change")
            cite = self.cite(release)
            if len(notes) == 1:  # "one change, internal refactoring: “Refactor X”"
                entry = md_escape(notes[0].text)
                return f"{whose} list {said}, {upkeep_kinds(notes)}: \u201c{entry}\u201d{cite}."
            return f"{whose} list {said}, all {upkeep_kinds(notes)}{cite}."
        if [kind for kind, _ in kinds] == ["other"]:
            kinds = [("any", len(notes))]  # "three changes", not "three other changes"
        named = [(kind, n) for kind, n in kinds if kind not in ("other", "upkeep")]
        rest = sum(n for kind, n in kinds if kind in ("other", "upkeep"))
        if named and rest:  # "one fix, two new features and four other entries"
            kinds = named
        counts = join_words(
            [say_count(n, *NOTE_NOUNS[kind]) for kind, n in kinds]
            + ([say_count(rest, "other entry", "other entries")] if named and rest else [])
        )
        picks = notable_notes(notes)
        quoted = join_words([f"\u201c{md_escape(note.text)}\u201d" for note in picks])
        linked = notes_carry(
            picks, [i for i in self.brief.items if i.pull.repo == release.pull.repo]
        )
        cites = self.cite(release) + "".join(self.cite(i) for i in linked if i is not release)
        if len(notes) == 1:
            return f"{whose} list {counts}: {quoted}{cites}."
        return f"{whose} list {counts}, among them {quoted}{cites}."

    def _retold(self, item: Item) -> list[str]:
        """Up to two sentences of ``item``'s description, leaving out any that opens with a
        repository's name spelt otherwise than the edition spells it ("Executorch now …")
        or with an area as its subject ("RL lands …")."""
        names = [self.brief.shown(repo) for repo in self.brief.repos]
        lowered = [name for name in names if name.islower()]  # "uv pip uninstall …" opens one
        areas = {i.area for i in self.brief.items if i.area}
        # What the sentence told already: the title, or the note it was told by.
        title = terms_of(f"{item.headline_title} {phrase_of(item).predicate()}")
        # Another of the day's changes, told by its own title: "The change extends X" when
        # the change that extends X is told next to it.
        others = [terms_of(o.headline_title) for o in self.brief.items if o is not item]
        retold = []
        for sentence in retell(item.summary, lowered):
            if any(sentence.startswith(f"{name} ") for name in lowered):
                # "uv pip uninstall … could end up deleting site-packages": a fix's
                # description of the fault, told as what was so before it; any other
                # sentence would open with a name a sentence cannot capitalise.
                if item.kind != "fix" or not _WAS_SO.search(sentence):
                    continue
                if (past := in_the_past(sentence)) is None:
                    continue
                sentence = f"Before the fix, {past}"
            elif (
                item.kind in ("perf", "fix")
                and (_COST_BEFORE if item.kind == "perf" else _FAULT_NOW).search(sentence)
                and not _SAYS_CHANGE.search(sentence)
                and not sentence.startswith("`")
            ):
                # "The visitor runs on every node and calls structuredClone each time", "Three
                # tests fail with X because Deno never registers it": what a description tells
                # in the present is the cost or the fault the change removes.
                before = "the change" if item.kind == "perf" else "the fix"
                # "This allocates a Box for every write": "this" is the code as it was.
                sentence = re.sub(r"^This (?=[a-z]+s\b)", "The code ", sentence)
                if (past := in_the_past(sentence)) is None or _TELLS_FIX.search(sentence):
                    continue  # "Note that X fails", "It fixes a panic": no fault told
                sentence = f"Before {before}, {lower_first(past, item.summary)}"
            elif _CURRENTLY.search(sentence) and not _SAYS_CHANGE.search(sentence):
                # "Python tooling can currently build sdists": so until this change.
                before = "the fix" if item.kind == "fix" else "the change"
                if (past := in_the_past(_CURRENTLY.sub("", sentence, 1))) is None:
                    continue  # "Currently, note that …": an instruction
                sentence = f"Before {before}, {lower_first(past, item.summary)}"
            if (told := _INSTRUCTED.match(sentence)) and told["verb"] in BASE_FORMS:
                continue  # "When X is called, replay the buffer": the author's to-do
            if (
                item.kind == "perf"
                and sentence.startswith("The change")
                and _COST_BEFORE.search(sentence)
            ):
                continue  # "The change allocates a Box for every write": the cost it removes,
                # told as what it does
            # "Before the fix, previously, …": said once.
            sentence = re.sub(r"^(Before the (?:fix|change)), previously,? ", r"\1, ", sentence)
            retold.append(sentence)
        # "They have a texture format": a first sentence about someone or something it
        # does not name leans on what the reader was not shown.
        while retold and _UNNAMED_SUBJECT.match(retold[0]):
            retold.pop(0)
        return [
            sentence
            for sentence in retold
            if stands_alone(sentence, lowered)
            and not any(
                len(content_words(sentence) - {"change"} - other - _stems(sentence, other)) <= 1
                for other in others
            )
            # "The change refactors MXFP8 model converter" after the title said as much.
            and len(content_words(sentence) - {"change"} - title - _stems(sentence, title)) >= 2
            # "The change adds a neutral X custom op" after "adds a functional X op": the
            # title's claim again, with a word or two more.
            and not _restates(sentence, item, title)
            and not any(opens_with_name(sentence, name) for name in names)
            and not any(opens_with_area(sentence, area) for area in areas)
            # "The code in question looks like this": it pointed at what is not retold.
            and not _POINTS_AHEAD.search(sentence)
        ][:2]

    def _briefs_paragraph(self, briefs: list[Story], carried: bool = False) -> str:
        """One sentence for several one-change stories of a repository: ``In other
        changes, X does A [n], B [m] …``; ``carried`` when the day's one release of the
        repository ships them all ("Also in the release, …")."""
        who = md_escape(subject(briefs[0], initial=False))
        said = [phrase_of(s.lead).predicate() for s in briefs]
        opener = "In other changes"
        if carried:
            opener, also = self._carried_opening()
            if also:  # "The release also freezes X [4]": said once, the opener is not
                parts = [
                    f"{md_escape(p)}{self.cite(s.lead)}" for p, s in zip(said, briefs, strict=True)
                ]
                return f"{also} {join_words(parts)}."
        else:
            if self.others_told:  # "In other changes" once: "create-vite also uses X [7]"
                opener, who = "", f"{md_escape(subject(briefs[0]))} also"
            self.others_told += 1
        head, middles, tail = _pattern(said) if len(said) > 2 else ("", said, "")
        parts = [f"{md_escape(m)}{self.cite(s.lead)}" for m, s in zip(middles, briefs, strict=True)]
        if head:  # "updates translations for es [2], pt [3] and uk [4] (add-missing)"
            ending = f" {md_escape(tail)}" if tail else ""
            told = f"{who} {md_escape(head)} {join_words(parts)}{ending}."
        else:
            told = f"{who} {join_words(parts)}."
        return f"{opener}, {told}" if opener else told

    def _brief_list(self, items: list[Item]) -> list[str]:
        """The body's closing list: its label, then each of ``items`` by its title as
        written (area and markers split off, the area said after it), cited. Three or more
        titles written from one pattern ("Update translations for de", "… for pt") share a
        line that says the pattern once."""
        several = len(self.brief.repos) > 1
        lines = []
        for run in _runs(items):
            item = run[0]
            where = [self.brief.shown(item.pull.repo)] if several else []
            if item.area:
                where.append(md_escape(tidy(item.area)))
            said = f" ({', '.join(where)})" if where else ""
            titles = [self._listed_title(i) for i in run]
            if len(run) > 1 and len(set(titles)) == 1:
                # "Update release notes" three times: one line, every one cited (never
                # "Update release notes [7], notes [8] and notes [9]").
                cites = "".join(self.cite(i) for i in run)
                lines.append(f"- {upper_first(md_escape(titles[0]))}{said}{cites}")
                continue
            if len(run) > 1:
                head, middles, tail = _pattern(titles)
                parts = [f"{md_escape(m)}{self.cite(i)}" for m, i in zip(middles, run, strict=True)]
                ending = f" {md_escape(tail)}" if tail else ""
                lines.append(f"- {upper_first(md_escape(head))} {join_words(parts)}{ending}{said}")
                continue
            title = upper_first(md_escape(self._listed_title(item)))
            line = f"- {title}{said}"
            if lines and lines[-1].startswith(f"{line} ["):
                # "Update release notes" twice: one line, both cited.
                lines[-1] = f"{lines[-1]}{self.cite(item)}"
                continue
            lines.append(f"{line}{self.cite(item)}")
        untold = len(self.brief.items) - len(self.cited)
        label = BRIEF_LABEL + (
            f" ({say_count(untold, 'more change')} not listed)" if untold else ""
        )
        return [label, "\n".join(lines)]

    @staticmethod
    def _listed_title(item: Item) -> str:
        """``item``'s title as the closing list gives it: a fix whose title names only the
        bug ("Incorrect length check on zip") is marked as one."""
        title = tidy(item.headline_title).rstrip(".")
        named_fix = re.search(r"\bfix(?:es)?\b", title, re.I)  # "Minor fix to X": said
        opens = _FIX_OPENING.match(title)
        if item.kind == "fix" and not opens and not named_fix and not parse_title(title).verb:
            title = f"Fix: {title}"
        return title

    # Headline, dek, FAQ: plain text.
    def _clause(self, story: Story, initial: bool = True) -> str:
        """``story`` in one plain clause, as headlines, deks and the FAQ tell it.

        A revert or re-land is told whole when that is short enough, else by what it is about.
        """
        who = subject(story, initial=initial)
        if area_of(story) == "the documentation":
            who = f"{who}'s documentation"  # "fastapi's documentation removes X": not fastapi
        whole = plain(phrase_of(told_item(story)).clause(who))
        if len(whole) > _SHORT_CLAUSE:
            whole = plain(phrase_of(told_item(story), short=True).clause(who))
        place = area_of(story)
        if place and not names_place(whole, place, inside_words=True):
            if re.search(r" in \S+$", whole):  # "… kernels in torchao in MXFP8": said first
                whole = f"In {place}, {lower_first(whole)}"  # "…, the torchtitan project"
            else:
                whole = f"{whole} in {place}"  # "ExecuTorch adds FP16 support in the Arm backend"
        if story.kind == "release" and (notes := release_notes(story.lead.pull)):
            # "tokio releases version 1.51.1 with three fixes": what the release brings.
            kinds = [(k, n) for k, n in count_by_kind(notes) if k not in ("other", "upkeep")][:2]
            fixes = [note for note in notes if note.kind == "fix"]
            if kinds == [("fix", 1)] and (fault := _headline_fault(fixes[0].text)):
                whole = f"{whole} with a fix for {fault}"  # "… 1.52.1 with a fix for a hang"
                named = re.search(r"`([\w.:]+(?:\(\))?)`", fixes[0].text)
                if named and len(f"{whole} in {named[1]}") <= HEADLINE_LIMIT:
                    whole = f"{whole} in {named[1]}"  # "… a fix for a hang in spawn_blocking"
            elif kinds == [("breaking", 1)] and (broken := self._breaking_said(notes, whole)):
                whole = broken  # "… 0.136.3, which no longer accepts underscore headers"
            elif kinds:
                said = join_words([say_count(n, *NOTE_NOUNS[k]) for k, n in kinds])
                whole = f"{whole} with {said}"
        return whole

    @staticmethod
    def _breaking_said(notes: Sequence[ReleaseNote], whole: str) -> str:
        """``whole``, a release's clause, with what its one breaking note changes ("…,
        which no longer accepts underscore headers"), when that reads as a clause and fits a
        headline; else ``""``."""
        note = next(n for n in notes if n.kind == "breaking")
        phrase = parse_title(split_title(note.text)[1] or note.text)
        if not phrase.verb:
            return ""
        room = HEADLINE_LIMIT - len(whole) - len(", which ")
        said = fit(plain(phrase.predicate()), room, phrases_only=True)
        return f"{whole}, which {said}" if len(said.split()) >= 4 else ""

    def _headline(self, leads: list[Story]) -> str:
        """The top story and the next one (from another repository when there is one).

        Two stories with one subject share it: ``torchtitan removes X and Y``. Clauses
        are shortened at phrase boundaries to fit the limit.
        """
        top = leads[0]
        # A second story whose title reads as no clause would be bent ("lands X"): left out;
        # so is a minor one (a default path, a tile size): the dek tells it.
        said = [s for s in leads[1:] if reads_as_clause(told_item(s)) and _headline_worthy(s)]
        # Nor one that says most of what the top story says again ("adds an FP8 attention
        # API and FP8 attention with a patched SDPA path").
        mine = content_words(plain(phrase_of(told_item(top)).predicate()))
        said = [s for s in said if not _largely_repeats(s, mine)]
        others = [s for s in said if s.repo != top.repo] or said
        # A headline may open with a lower-case name ("uv adds …"): it is a title, not a
        # sentence of the body, and pages set it in capitals.
        if not others:
            alone = self._clause(top, initial=False)
            breaks = re.search(r"\b(?:remov|deprecat|drop|break|renam|no longer)", alone, re.I)
            if top.kind == "breaking" and not breaks:
                # "torchtitan adds configurable RMSNorm …": its description says it breaks.
                marked = f"{alone}, a breaking change"
                alone = marked if len(marked) <= HEADLINE_LIMIT else alone
            return self._cased(fit(alone, HEADLINE_LIMIT))
        second = others[0]
        if subject(second, initial=False) == subject(top, initial=False):
            return self._cased(_shared_subject_headline(top, second))
        clauses = [self._clause(story, initial=False) for story in (top, second)]
        if len(", ".join(clauses)) <= HEADLINE_LIMIT:
            return self._cased(", ".join(clauses))
        for share in (10, 6):
            first = fit(clauses[0], HEADLINE_LIMIT * share // 10, phrases_only=True)
            rest = fit(clauses[1], HEADLINE_LIMIT - len(first) - 2, phrases_only=True)
            # A second clause cut to its verb and a word or two ("adds custom sharding")
            # says nothing: the headline keeps to the top story.
            whole = rest == clauses[1] or len(rest.split()) >= 5
            if len(first.split()) >= 3 and len(rest.split()) >= 3 and whole:
                return self._cased(f"{first}, {rest}")
        return self._cased(fit(clauses[0], HEADLINE_LIMIT))

    def _cased(self, headline: str) -> str:
        """``headline`` in sentence case, the repositories' names as the edition writes them."""
        names = {self.brief.shown(i.pull.repo) for i in self.brief.items}
        return headline_case(headline, names | {product_of(s) for s in self.brief.stories} - {""})

    def _dek(self, leads: list[Story], headline: str) -> str:
        """One sentence that adds to ``headline``: the day's next stories, or its scale by
        kind of change, never the headline's words again."""
        brief = self.brief
        said = content_words(headline)
        things: list[str] = []
        # Two stories told plainly; else one that reads as a clause, which says more of the
        # day than its count by kind.
        for plainly in (True, False):
            for story in leads[1:]:  # the stories the edition tells and cites
                phrase = phrase_of(told_item(story))
                thing = f"one {plain(phrase.relative())}"
                if story.kind in ROUTINE_KINDS or len(thing) > 90 or content_words(thing) & said:
                    continue
                item = told_item(story)
                if not phrase.verb or not reads_as_clause(item) or _mechanism_only(item):
                    continue  # a title that reads as no clause is named in the list, not here
                if plainly and not (_matters(item) or _plainly_told(item)):
                    continue  # nor one that would read as pasted in ("fixes X of Y with Z")
                things.append(thing)
                said |= content_words(thing)
                if len(things) == 2 or not plainly:
                    break
            if things:
                break
        where = ""
        if len(brief.repos) > 1:
            names = [brief.shown(r) for r in brief.repos]
            if not content_words(" ".join(names)) & content_words(headline):
                where = f" in {join_words(names)}"
        day = long_date(brief.date)
        counted = say_count(len(brief.items), "change")
        # "… with four fixes" in the headline: the day's count is said without its number.
        clash = bool((content_words(counted) - {"change", "changes"}) & content_words(headline))
        if things:
            merged = "the day's changes" if clash else f"the {counted}"
            if len(brief.items) == 1:
                merged = "the day's one change"
            return f"Also among {merged} merged{where} on {day}: {join_words(things)}."
        merged = "The day's changes" if clash else upper_first(counted)
        # The changes the headline did not tell, by kind: "one release" beside a headline
        # that tells the release would be its news again, as a tally.
        told = [leads[0], *(s for s in leads[1:2] if _headline_tells(s, said))]
        # A headline's release tells, and counts, what its notes list.
        shipped = self._shipped_by_releases() if leads[0].kind == "release" else {}
        # The changes the headline tells, not every change of their stories (a docs change
        # grouped with the lead is still one the headline never names).
        headlined = {told_item(s).pull.key for s in told} | {s.lead.pull.key for s in told}
        rest = tuple(
            item
            for item in brief.items
            if item.pull.key not in headlined
            and item.pull.number not in shipped.get(item.pull.repo, ())
        )
        if rest and len(rest) < len(brief.items):
            also = "the day's changes" if clash else f"the {counted}"
            kinds = _by_kind(rest, said, headline)
            # Not "Also among …: four other changes", which says nothing of what they are.
            if len(kinds) > 1 or (kinds and not kinds[-1].endswith("other changes")):
                return f"Also among {also} merged{where} on {day}: {join_words(kinds)}."
        kinds = _by_kind(brief.items, said, headline)
        if kinds == [say_count(len(brief.items), "other change")]:
            return f"{merged} merged{where} on {day}."  # never "Six changes …: six other changes"
        if kinds and content_words(kinds[-1]) & said and kinds[-1].endswith("other changes"):
            # "… with three fixes", then "three other changes": those the headline counted
            # go unsaid, the rest are among the day's.
            if not kinds[:-1]:
                return f"{merged} merged{where} on {day}."
            return f"{merged} merged{where} on {day}, among them {join_words(kinds[:-1])}."
        return f"{merged} merged{where} on {day}: {join_words(kinds)}."

    def _action_items(
        self, leads: list[Story], members: dict[Story, tuple[Item, ...]]
    ) -> tuple[ActionItem, ...]:
        notable = [s for s in self.brief.stories if s not in leads and s.kind not in ROUTINE_KINDS]
        extra = [s for s in notable if any(i.facts.requirement for i in s.items)][:1]
        drafted = [] if self.watch_only else draft_actions(leads, members, extra)
        if not drafted and self.by_number:
            top = leads[0].lead
            drafted.append(plain_watch(top, self.brief.shown(top.pull.repo)))
        if not drafted or all(action.weak for action in drafted):
            # Nothing the facts support, or only what any change would: one change to
            # watch, and why, when that says more (what to run again, a page, who).
            top = leads[0].lead
            repo = top.pull.repo
            watch = watch_action(
                top,
                product_of(leads[0]) or self.brief.shown(repo),
                sum(1 for i in self.brief.items if i.pull.repo == repo),
                Context(story=leads[0], items=(top,), rank=0).audience,
            )
            # A bare "Try X" gives way to a better word on the same change.
            tries = all(a.verb == "Try" and top in a.items for a in drafted)
            if not drafted or (tries and not watch.weak):
                drafted = [watch]
        ordered = sorted(drafted, key=lambda a: list(Urgency).index(a.urgency))
        return tuple(self._action(a) for a in ordered)

    def _action(self, action: Action) -> ActionItem:
        for item in action.items:
            self.cite(item)
        refs = tuple(sorted(self.cited.index(item) + 1 for item in action.items))
        return ActionItem(text=action.text, repo=action.repo, urgency=action.urgency, refs=refs)

    def _faq(self, leads: list[Story], actions: tuple[ActionItem, ...]) -> tuple[FaqEntry, ...]:
        brief = self.brief
        project, date = brief.project, long_date(brief.date)
        # One sentence per subject: "The uv project adds X, fixes Y and drops Z."
        runs: list[tuple[str, list[str]]] = []
        # A story whose title reads as no clause is not bent into one ("lands X now does Y").
        told = [s for s in leads[:3] if s is leads[0] or reads_as_clause(told_item(s))]
        for story in told:
            opener, clause = subject(story), self._clause(story)
            if runs and runs[-1][0] == opener and clause.startswith(f"{opener} "):
                runs[-1][1].append(clause.removeprefix(f"{opener} "))
            else:
                runs.append((opener, [clause]))
        clauses = [
            f"{parts[0]}." if len(parts) == 1 else f"{join_words(parts)}." for _, parts in runs
        ]
        changed = " ".join(clauses)
        todo = " ".join(f"{_URGENCY_WORD[a.urgency]}: {a.text}." for a in actions)
        per_repo = Counter(item.pull.repo for item in brief.items)
        shipped = join_words(
            [f"{brief.shown(repo)} ({count(per_repo[repo], 'change')})" for repo in brief.repos]
        )
        if brief.failed:
            unread = join_words([failure.repo for failure in brief.failed])
            shipped += f". Not covered, because they could not be read: {unread}"
        shipped = f"Changes landed in {shipped}"
        entries = [
            FaqEntry(f"What changed in {project} on {date}?", changed),
            FaqEntry(f"What should {project} teams do about it?", todo),
            FaqEntry(f"Which {project} repositories shipped on {date}?", shipped + "."),
        ]
        reverted = [i for i in self.cited if i.kind == "revert"]
        if reverted:
            listed = join_words(
                [
                    f"{brief.shown(i.pull.repo)} reverted "
                    f"{plain(phrase_of(i).rest) if phrase_of(i).rest else reverted_title(i)}"
                    for i in reverted
                ]
            )
            entries.append(
                FaqEntry(f"Was anything reverted in {project} on {date}?", f"Yes: {listed}.")
            )
        return tuple(entries)


#: What the day's changes are, by kind, as a dek counts them (the order it says them in).
_KIND_GROUPS = (
    ("release", ("release",)),
    ("breaking change", ("breaking",)),
    ("fix", ("fix",)),
    ("new feature", ("feature",)),
    ("performance change", ("perf",)),
    ("revert", ("revert",)),
    ("re-land", ("reland",)),
    ("documentation change", ("docs",)),
    ("maintenance change", ("refactor", "deps", "build", "test", "ci", "chore")),
)
#: Words of a headline that say nothing a dek could repeat.
_FUNCTION_WORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "from",
        "into",
        "onto",
        "that",
        "this",
        "its",
        "their",
        "new",
        "now",
        "also",
        "among",
        "one",
        "two",
        "change",
        "changes",
        "merged",
        "lands",
        "land",
        "adds",
        "add",
        "fixes",
        "fix",
        "more",
        "less",
        "than",
        "then",
        "after",
        "before",
        "over",
        "under",
    ]
)


def content_words(text: str) -> set[str]:
    """The words of ``text`` that carry its content, lower-cased (names, nouns, verbs)."""
    words = re.findall(r"[a-z0-9][a-z0-9_.+-]*[a-z0-9]|[a-z0-9]", text.lower())
    return {w for w in words if len(w) > 2 and w not in _FUNCTION_WORDS}


def _plainer(digest: Digest, brief: Brief, found: list[str]) -> Digest:
    """``digest`` with each of its headline, dek and FAQ answers that the problems ``found``
    in it blame said in the day's counts instead (``rocket merges six changes``; ``Six
    changes merged on May 1, 2026: two fixes and …``): words no title lends, that every
    edition may use."""
    merged = say_count(len(brief.items), "change")
    counted = f"{upper_first(merged)} merged on {long_date(brief.date)}: "
    counted += f"{join_words(_by_kind(brief.items, set()))}."
    # A problem any text may have ("text has an @-mention …: '@x'") is the field's that holds
    # what it quotes.
    quoted = [m[1] for p in found if (m := re.search(r"'([^']+)'$", p)) and p.startswith("text")]
    fields: dict[str, object] = {}
    blamed = [
        *found,
        *(f"headline {q}" for q in quoted if q in digest.headline),
        *(f"dek {q}" for q in quoted if q in digest.dek),
        *(
            f"FAQ answer {i} {q}"
            for i, e in enumerate(digest.faq, 1)
            for q in quoted
            if q in e.answer
        ),
    ]
    if any(problem.startswith("headline") for problem in blamed):
        fields["headline"] = headline_case(f"{brief.project} merges {merged}", {brief.project})
    if any(problem.startswith(("headline", "dek")) for problem in blamed):
        fields["dek"] = counted
    broken = {int(n) for p in blamed for n in re.findall(r"^FAQ answer (\d+)", p)}
    if broken:
        first = digest.action_items[0] if digest.action_items else None
        todo = f"{_URGENCY_WORD[first.urgency]}: {first.text}." if first else counted
        fields["faq"] = tuple(
            msgspec.structs.replace(entry, answer=todo if i == 2 else counted)
            if i in broken
            else entry
            for i, entry in enumerate(digest.faq, start=1)
        )
    return msgspec.structs.replace(digest, **fields)


def _headline_fault(entry: str) -> str:
    """The fault a release's one fix ``entry`` repairs, as a headline names it ("a hang", "a
    build error"); ``""`` when all it says is "an error", which tells a reader nothing."""
    fault = symptom(entry)
    if fault != "an error":
        return fault
    kind = re.search(
        r"\b(build|type|runtime|syntax|compile|import|parse|network)\s+error", entry, re.I
    )
    return f"a {kind[1].lower()} error" if kind else ""


def _headline_tells(story: Story, said: set[str]) -> bool:
    """True when a headline whose content words are ``said`` tells ``story`` too ("… and
    create-vite@9.0.6"): all but one of the words its clause would use are among them."""
    words = content_words(plain(phrase_of(told_item(story)).predicate()))
    return bool(words) and len(words - said) <= 1


def _by_kind(items: tuple[Item, ...], said: set[str], headline: str = "") -> list[str]:
    """``items`` counted by kind (``["two fixes", "one new feature", ...]``); a kind whose
    name the headline already ``said``, or whose count ``headline`` says ("with three
    fixes"), is counted among "other changes"."""
    counted, others = [], 0
    # A deprecation warns of a removal to come: it breaks nothing yet.
    deprecations = sum(1 for i in items if i.kind == "breaking" and _deprecates_only(i))
    for noun, kinds in (*_KIND_GROUPS[:2], ("deprecation", ()), *_KIND_GROUPS[2:]):
        if noun == "deprecation":
            n = deprecations
        elif noun == "breaking change":
            n = sum(1 for i in items if i.kind == "breaking" and not _deprecates_only(i))
        else:
            n = sum(1 for item in items if item.kind in kinds)
        plural = "fixes" if noun == "fix" and n != 1 else f"{noun}s" if n != 1 else noun
        if not n:
            continue
        number = say_count(n, "x").rsplit(" ", 1)[0]
        # "… with three fixes" in the headline: "three fixes" again is its words again.
        if content_words(f"{noun} {plural}") & said or f"{number} {plural}" in headline.lower():
            others += n
            continue
        counted.append(f"{number} {plural}")
    if others:
        counted.append(say_count(others, "other change"))
    return counted


def _deprecates_only(item: Item) -> bool:
    """True when ``item`` deprecates something and removes nothing."""
    return item.facts.deprecates and not item.facts.removes


def _by_repo(leads: list[Story]) -> dict[str, list[Story]]:
    """``leads`` grouped by repository, repositories in the order of their best story."""
    groups: dict[str, list[Story]] = {}
    for story in leads:
        groups.setdefault(story.repo, []).append(story)
    return groups


_POINTS_AHEAD = re.compile(
    r"\b(?:the following|as follows)\b|\b(?:like this|below|here)\s*[.:]?$", re.I
)


def _largely_repeats(story: Story, words: set[str]) -> bool:
    """True when two in five or more of the content words of ``story``'s clause (hyphened
    words taken apart) are in ``words``."""
    own = _parts(content_words(plain(phrase_of(told_item(story)).predicate())))
    return bool(own) and len(own & _parts(words)) * 5 >= len(own) * 2


def _parts(words: set[str]) -> set[str]:
    """``words`` with each hyphened one split: ``low-precision`` -> ``low``, ``precision``."""
    return {part for word in words for part in word.split("-") if len(part) > 2}


def _runs(items: list[Item]) -> list[list[Item]]:
    """``items`` in order, those written from one pattern (three or more of one kind and
    area whose titles open with the same two words and differ after a shared opening)
    gathered at the first of them."""
    keyed: dict[tuple[str, str, str], list[Item]] = {}
    for item in items:
        opening = " ".join(tidy(item.headline_title).lower().split()[:2])
        keyed.setdefault((item.kind, item.area, opening), []).append(item)
    runs: list[list[Item]] = []
    placed: set[int] = set()
    for item in items:
        if id(item) in placed:
            continue
        group = keyed[
            (item.kind, item.area, " ".join(tidy(item.headline_title).lower().split()[:2]))
        ]
        titles = [tidy(i.headline_title).rstrip(".") for i in group]
        run = group if len(group) >= 3 and _pattern(titles)[0] else [item]
        placed.update(id(i) for i in run)
        runs.append(run)
    return runs


def _pattern(titles: list[str]) -> tuple[str, list[str], str]:
    """The opening all ``titles`` share (two words or more, never all of one), what each
    says in between, and the ending all share: ``("Update translations for", ["de", "pt"],
    "(update-outdated)")``; ``("", titles, "")`` when they share no such opening."""
    split = [t.split() for t in titles]
    shortest = min(len(words) for words in split)
    head = 0
    while head < shortest - 1 and len({w[head].lower() for w in split}) == 1:
        head += 1
    tail = 0
    while tail < shortest - head - 1 and len({w[-1 - tail].lower() for w in split}) == 1:
        tail += 1
    if head < 2:
        return "", titles, ""
    middles = [" ".join(words[head : len(words) - tail]) for words in split]
    return " ".join(split[0][:head]), middles, " ".join(split[0][len(split[0]) - tail :])


def _told_in_brief(story: Story, quiet: bool = False) -> bool:
    """True when ``story``'s one change is told in the sentence one-change stories share:
    it matters (see :func:`_matters`) or reads plainly there (see :func:`_plainly_told`);
    upkeep only on a ``quiet`` day, when there is nothing but upkeep to tell."""
    if story.kind in ROUTINE_KINDS and not quiet:
        return False  # "updates rust crates" beside real news: listed, not told
    if NOTES_KEPT.match(story.lead.headline_title):
        return False  # "updates release notes": the project's bookkeeping, never news
    return reads_as_clause(story.lead) and (_matters(story.lead) or _plainly_told(story.lead))


def _matters(item: Item) -> bool:
    """True when a reader needs ``item`` told, not listed, however its title reads: a fix of
    a fault users hit (a panic, a wrong result) or a change that matters as much as a new
    capability (see :data:`SECOND_HEADLINE_SCORE`)."""
    fault = item.kind == "fix" and SEVERE.search(claimed(f"{item.pull.title}\n{item.summary}"))
    return bool(fault) or (item.kind not in ROUTINE_KINDS and item.score >= SECOND_HEADLINE_SCORE)


#: A cost said in the present: "runs on every AST node", "calls X each time", "allocates".
_COST_BEFORE = re.compile(
    r"\b(?:each|every) (?:`[^`]+` )?(?:time|call|node|iteration|request|row|frame|write|read)s?\b"
    r"|\bon every\b"
    r"|\b(?:repeatedly|redundant(?:ly)?|twice|always (?:re)?\w+s)\b",
    re.I,
)
#: A fault told in the present: "three tests fail with …", "the parser crashes on …".
_FAULT_NOW = re.compile(
    r"\b(?:fail|fails|crash|crashes|panic|panics|hang|hangs|throws|raises|errors? out"
    r"|returns? (?:the )?(?:wrong|incorrect|stale))\b",
    re.I,
)
#: What says the change itself: "now", "instead", "this PR", "reduces".
_SAYS_CHANGE = re.compile(
    r"\b(?:now|no longer|instead|the change|this change|this pr|reduces?|avoids?|skips?"
    r"|caches?|only|faster|speeds?)\b",
    re.I,
)
#: "currently" in a description: what is so until the change lands.
_CURRENTLY = re.compile(
    r"(?<=\S )currently (?=\w)|^(?:Currently|At present|Presently|Right now|As of now),? (?=\w)"
)
#: A sentence whose main clause, after an opening "When …," or "In X," is an instruction.
_INSTRUCTED = re.compile(
    r"^(?:When|If|Once|After|Before|While|In|For|On|With|Instead of) [^,]{1,80}, (?P<verb>[a-z]+) "
)
#: A sentence whose subject is a pronoun for what only the one before it names.
_UNNAMED_SUBJECT = re.compile(r"^(?:They|These|Those|He|She|Both|Neither)\b")
#: A sentence that tells the fix itself: "It fixes a parser panic".
_TELLS_FIX = re.compile(r"\b(?:fix|fixes|fixed|resolves?|addresses)\b", re.I)
#: What a fix's description says was so before it: "could resolve", "would hang", "was lost".
_WAS_SO = re.compile(r"\b(?:could|would|was|were|did|used to)\b")


def _headline_worthy(story: Story) -> bool:
    """True when ``story`` may share the headline with the top one: it matters about as much
    as a new capability (see :func:`digest.summarize.classify.classify`'s score) and names
    no code identifier a headline would set in capitals."""
    said = phrase_of(told_item(story)).predicate()
    return story.lead.score >= SECOND_HEADLINE_SCORE and not re.search(r"_\w", said)


def _largely_said(sentence: str, said: str) -> bool:
    """True when most content words of ``sentence`` are in ``said`` already."""
    words = content_words(sentence) - {"change"}
    return len(words & content_words(said)) * 2 >= len(words)


def _told_with(item: Item, lead: Item) -> bool:
    """True when ``item``, a change of ``lead``'s story, is told in its sentence: the lead
    itself, a change that says what it does plainly, or one done the same way (``enables
    `throttle` [1] and `gimbal` [2] with the new flight flow``)."""
    if item is lead or (reads_as_clause(item) and _matters(item)) or _plainly_told(item):
        return True
    said, led = phrase_of(item), phrase_of(lead)
    return (
        reads_as_clause(item)
        and bool(said.verb)
        and said.verb == led.verb
        and len(said.rest.split()) <= _BRIEF_WORDS
    )


def _plainly_told(item: Item) -> bool:
    """True when ``item`` reads plainly as one part of a sentence told with others: a
    clause of a few words and no code ("fixes an incorrect length check on streaming zip";
    not "renders `:catch` of `#await` block with correct key")."""
    said = phrase_of(item).predicate()
    return (
        reads_as_clause(item)
        and len(said.split()) <= _BRIEF_WORDS
        and not re.search(r"_\w|\(\)", said)  # snake_case or calls: jargon in a list
        and not _mechanism_only(item)
    )


def _mechanism_only(item: Item) -> bool:
    """True when ``item`` is a fix whose title tells only how it was done, not what it
    repairs ("visit synthetic value node during ssr"): told as a clause, it reads as news of
    a mechanism, so it is listed by its title."""
    return item.kind == "fix" and not says_repair(item.headline_title)


def _is_brief(story: Story, newest_release: bool = False) -> bool:
    """True when ``story`` is told under its repository's name alone, with no place in it,
    and has nothing more to tell (the ``newest_release`` of its repository tells what its
    notes list)."""
    # A place only its files give (backends/cadence/) makes no paragraph of a small change.
    placed = area_of(story, from_files=False)
    return not placed and not (newest_release and release_notes(story.lead.pull))


def _shared_subject_headline(top: Story, second: Story) -> str:
    """Two stories with one subject in one clause: ``torchtitan removes X and Y``."""
    who = plain(subject(top, initial=False))
    first, then = phrase_of(told_item(top), short=True), phrase_of(told_item(second), short=True)
    shared = first.verb == then.verb and not (first.instruction or then.instruction)
    # "adds X and Y"; "lands X and Y" when neither title has a verb.
    said = (
        f"{first.predicate()} and {then.rest if then.verb else then.thing()}"
        if shared
        else f"{first.predicate()} and {then.predicate()}"
    )
    whole = f"{who} {plain(said)}"
    if len(whole) <= HEADLINE_LIMIT:
        return whole
    # The second story cut mid-way ("fixes an issue where files were") is left out instead.
    alone = f"{who} {plain(first.predicate())}"
    cut = fit(whole, HEADLINE_LIMIT, phrases_only=True)
    # "… and adds custom sharding": a second story cut to its verb and a word or two.
    kept = len(cut[len(alone) :].split()) >= 6
    if len(cut) > len(alone) + 15 and kept and not ends_dangling(cut):
        return cut
    return fit(alone, HEADLINE_LIMIT)


#: A retold sentence that says what the change does: "It adds …", "The change adds …".
_SAYS_WHAT = re.compile(r"^(?:It|The change|This change)\s+(?P<verb>[a-z]+)\s+(?P<rest>.+)$")


def _restates(sentence: str, item: Item, title: set[str]) -> bool:
    """True when ``sentence``, retold from ``item``'s description, makes its title's claim
    with the same verb and adds at most four words to the ``title`` terms (and is not the
    fuller claim :func:`says_again` tells instead)."""
    told = _SAYS_WHAT.match(sentence)
    if not told or told["verb"] != phrase_of(item).verb or says_again(sentence, item):
        return False
    return len(content_words(sentence) - {"change"} - title - _stems(sentence, title)) <= 4


def says_again(detail: str, item: Item) -> str:
    """What ``detail``, a retold sentence of ``item``'s description, says ``item`` does,
    as a predicate, when it makes the title's claim with the same verb and every word of
    its title and more ("adds a new nursery rule `X` that prefers …" for "Add `X`"), else
    ``""``."""
    told = _SAYS_WHAT.match(detail)
    phrase = phrase_of(item)
    if not told or told["verb"] != phrase.verb or not terms_of(phrase.rest) <= terms_of(detail):
        return ""
    return f"{told['verb']} {told['rest']}"


def _stems(sentence: str, title_terms: set[str]) -> set[str]:
    """The words of ``sentence`` whose stems ``title_terms`` (a title's) already hold."""
    return {word for word in content_words(sentence) if terms_of(word) & title_terms}
