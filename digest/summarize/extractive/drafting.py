"""What every action item is drafted from: the story it rests on and how an item names a
change (never by its whole title)."""

from __future__ import annotations

import re
from collections.abc import Callable

from msgspec import Struct

from digest.models import Urgency
from digest.summarize.base import Item, Story
from digest.summarize.phrasing import fit, parse_title, plain
from digest.summarize.stories import (
    ADDS,
    area_of,
    phrase_of,
    product_of,
    repo_name,
    reverted_title,
    subject,
    taken_back,
    tidy,
)

# Verbs that bring something new to try (or a noun-phrase title: ""); other verbs change
# what is already there.
CAPABILITY = ADDS | {""}
THING_LIMIT = 70
#: What a file name ends with: a file is neither a function to call nor a module to import.
FILE_END = "".join(
    rf"(?<!\.{ext})"
    for ext in [
        "md",
        "rst",
        "py",
        "txt",
        "json",
        "yml",
        "yaml",
        "toml",
        "cfg",
        "lock",
        "ini",
        "sh",
        "cu",
        "cpp",
        "cc",
        "h",
        "rs",
        "ts",
        "js",
    ]
)


class Action(Struct, frozen=True):
    """A drafted action item: its text, urgency, and the story items it rests on."""

    verb: str
    text: str
    urgency: Urgency
    items: tuple[Item, ...]
    repo: str
    #: Its reason says nothing the reader could not guess ("it is new on the main branch",
    #: "re-test what you run"): kept only when a day has no better item.
    weak: bool = False
    #: An invitation to take up something new ("Try X", "Enable rule Y"): what a day offers
    #: when nothing needs doing, one item too many beside an upgrade or a fix users hit.
    invites: bool = False


Recipe = Callable[["Context"], Action | None]


class Context(Struct, frozen=True):
    story: Story
    items: tuple[Item, ...]
    rank: int
    #: The version the story's repository released that day ("" for none): a fix merged
    #: before it ships in it.
    released: str = ""
    #: The pull requests that release's notes link (None: it has no notes to tell).
    carried: frozenset[int] | None = None
    #: Every change the day's stories tell (a revert's replacement may be among them).
    day: tuple[Item, ...] = ()

    @property
    def lead(self) -> Item:
        return self.story.lead

    def act(
        self,
        verb: str,
        text: str,
        urgency: Urgency,
        items: tuple[Item, ...] = (),
        weak: bool = False,
        invites: bool = False,
    ) -> Action:
        """An :class:`Action` of this story resting on ``items`` (default: its cited ones),
        ``weak`` when its reason is one any change would have (see :attr:`Action.weak`),
        ``invites`` when it invites users to take up something new."""
        repo = self.story.repo
        return Action(verb, text, urgency, items or self.items, repo, weak, invites)

    @property
    def audience(self) -> str:
        """What the story's users use: ``the NXP backend``, ``backends/vulkan/``, a repo."""
        return self.audience_of(self.lead)

    def audience_of(self, item: Item) -> str:
        """Who uses what ``item`` changed: the story's named area (a backend, a tool), else
        a package a user installs by name, else the repository: never an internal folder."""
        named = area_of(self.story) or product_of(self.story)  # "the NXP backend", "ty"
        place = item.facts.place.split("/")
        package = ""
        if len(place) == 2 and place[0] in USER_PACKAGE_DIRS and not place[1].startswith("@"):
            # (not "packages/@biomejs": a scope of packages, and an @-word besides)
            package = f"the {place[1]} {USER_PACKAGE_DIRS[place[0]]}"
        if package and (not named or named.lower() in place[1].lower()):
            return package  # "legacy", the scope, is the plugin-legacy package users install
        return named or repo_name(self.story)

    @property
    def thing(self) -> str:
        """What the lead change is about, shortened and never the whole title."""
        return thing_of(self.lead)

    def clause_of(self, item: Item, otherwise: str) -> str:
        """``item`` told as a plain clause with the story's subject, in lower case.

        A title that is not an action (``Q4k/Q6k improvements``) would only be repeated,
        so ``otherwise`` is said instead.
        """
        phrase = phrase_of(item)
        if not phrase.verb or tidy(item.headline_title).lower() in phrase.predicate().lower():
            return otherwise  # the title said again, whole: an action item never repeats one
        return plain(phrase.clause(subject(self.story, initial=False)))


#: Folders whose sub-folders are packages users install themselves (a workspace's crates are
#: mostly the tool's own internals: "the ruff_python_parser crate" helps no reader).
USER_PACKAGE_DIRS = {"packages": "package", "plugins": "plugin"}


def thing_of(item: Item) -> str:
    """What ``item`` is about, as a noun phrase of at most 70 characters that is never its
    whole title: by its number when only a cut mid-phrase would do that ("pull request
    #20911", not "channels last more" for "Channels last more ops")."""
    phrase = phrase_of(item)
    title = plain(tidy(item.headline_title))
    if item.kind == "revert":
        title = plain(reverted_title(item))
        phrase = parse_title(title)
    thing = plain(phrase.thing()).split("; ", 1)[0]  # "X; also Y": the first clause names it
    # "reduce_range as it is not relevant for HTP": what it is, not why.
    thing = _WHY.sub("", thing) or thing
    # Never the whole title, not even after "the change to".
    if title.lower() in thing.lower():
        thing = fit(thing, min(THING_LIMIT, len(thing) - 1), phrases_only=True)
    else:
        thing = fit(thing, THING_LIMIT)
    if item.kind == "revert":
        if not thing:
            return f"what {BY_NUMBER}{item.pull.number} reverts"
        return taken_back(phrase.verb, thing)
    return thing or f"{BY_NUMBER}{item.pull.number}"


#: A reason a title gives after what it names: "as it is not relevant", "since X is gone".
_WHY = re.compile(r",?\s+(?:as|since|because)\s+(?:it|they|this|that|these)\b.*$", re.I)


#: How an action names a change whose title says nothing shorter than itself.
BY_NUMBER = "pull request #"
