"""Action items: what a team lead can do tomorrow, derived from what the changes say.

Each item opens with an imperative, names its audience by what they use (a backend, a
code directory, a package), says what to do and why, and never quotes a title. The
recipe is chosen from the change's facts (a new required version, a removal, a measured
speed-up, a revert, new support ...), most specific first; no two items of an edition
open with the same verb, so none repeats another's template.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from msgspec import Struct

from digest.models import Urgency
from digest.summarize.base import Item, Story
from digest.summarize.classify import GRAVE, ROUTINE_KINDS, SEVERE
from digest.summarize.kinds import marked_breaking
from digest.summarize.phrasing import fit, lower_first, parse_title, plain, say_count
from digest.summarize.releases import ReleaseNote, notable_notes, notes_carry, release_notes
from digest.summarize.sentences import retell, stands_alone
from digest.summarize.stories import (
    ADDS,
    area_of,
    bumps_version,
    older_line_of,
    phrase_of,
    removes,
    repo_name,
    reverted_title,
    subject,
    taken_back,
    tidy,
)
from digest.summarize.verbs import NON_VERB_OPENERS

MAX_ACTIONS = 5
# Verbs that bring something new to try (or a noun-phrase title: ""); other verbs change
# what is already there.
_CAPABILITY = ADDS | {""}
_THING_LIMIT = 70
#: What a file name ends with: a file is neither a function to call nor a module to import.
_FILE_END = "".join(
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


Recipe = Callable[["_Context"], Action | None]


class _Context(Struct, frozen=True):
    story: Story
    items: tuple[Item, ...]
    rank: int
    #: The version the story's repository released that day ("" for none): a fix merged
    #: before it ships in it.
    released: str = ""
    #: The pull requests that release's notes link (None: it has no notes to tell).
    carried: frozenset[int] | None = None

    @property
    def lead(self) -> Item:
        return self.story.lead

    def act(self, verb: str, text: str, urgency: Urgency, items: tuple[Item, ...] = ()) -> Action:
        """An :class:`Action` of this story resting on ``items`` (default: its cited ones)."""
        return Action(verb, text, urgency, items or self.items, self.story.repo)

    @property
    def audience(self) -> str:
        """What the story's users use: ``the NXP backend``, ``backends/vulkan/``, a repo."""
        return self.audience_of(self.lead)

    def audience_of(self, item: Item) -> str:
        """Who uses what ``item`` changed: the story's named area (a backend, a tool), else
        a package a user installs by name, else the repository: never an internal folder."""
        named = area_of(self.story)
        place = item.facts.place.split("/")
        package = ""
        if len(place) == 2 and place[0] in _USER_PACKAGE_DIRS:
            package = f"the {place[1]} {_USER_PACKAGE_DIRS[place[0]]}"
        if package and (not named or named.lower() in place[1].lower()):
            return package  # "legacy", the scope, is the plugin-legacy package users install
        return named or repo_name(self.story)

    @property
    def thing(self) -> str:
        """What the lead change is about, shortened and never the whole title."""
        return _thing(self.lead)

    def clause_of(self, item: Item, otherwise: str) -> str:
        """``item`` told as a plain clause with the story's subject, in lower case.

        A title that is not an action (``Q4k/Q6k improvements``) would only be repeated,
        so ``otherwise`` is said instead.
        """
        phrase = phrase_of(item)
        if not phrase.verb or tidy(item.headline_title).lower() in phrase.predicate().lower():
            return otherwise  # the title said again, whole: an action item never repeats one
        return plain(phrase.clause(subject(self.story, initial=False)))


#: A development or pre-release version a branch carries ("1.3.0a0", "0.5.0.dev0").
_PRE_RELEASE = re.compile(r"\d[-.]?(a|alpha|b|beta|dev|rc)\.?\d*$", re.I)
#: Folders whose sub-folders are packages users install themselves (a workspace's crates are
#: mostly the tool's own internals: "the ruff_python_parser crate" helps no reader).
_USER_PACKAGE_DIRS = {"packages": "package", "plugins": "plugin"}


def _thing(item: Item) -> str:
    """What ``item`` is about, as a noun phrase of at most 70 characters that is never its
    whole title: by its number when only a cut mid-phrase would do that ("pull request
    #20911", not "channels last more" for "Channels last more ops")."""
    phrase = phrase_of(item)
    title = plain(tidy(item.headline_title))
    if item.kind == "revert":
        title = plain(reverted_title(item))
        phrase = parse_title(title)
    thing = plain(phrase.thing()).split("; ", 1)[0]  # "X; also Y": the first clause names it
    # Never the whole title, not even after "the change to".
    if title.lower() in thing.lower():
        thing = fit(thing, min(_THING_LIMIT, len(thing) - 1), phrases_only=True)
    else:
        thing = fit(thing, _THING_LIMIT)
    if item.kind == "revert":
        if not thing:
            return f"what {_BY_NUMBER}{item.pull.number} reverts"
        return taken_back(phrase.verb, thing)
    return thing or f"{_BY_NUMBER}{item.pull.number}"


#: How an action names a change whose title says nothing shorter than itself.
_BY_NUMBER = "pull request #"


def _removes(item: Item) -> bool:
    """True when ``item`` is a revert of a change that removed something (now back)."""
    return item.kind == "revert" and removes(parse_title(plain(reverted_title(item))).verb)


def _version_name(item: Item) -> str:
    """How an action names the version ``item`` releases: ``version 0.15.1``, ``svelte@5.1``,
    a package's name alone (``pyo3-polars``); ``""`` when it does not say."""
    if "@" in item.version or not item.version_number:
        return item.version
    return f"version {item.version.removeprefix('v')}"


def _package_alone(item: Item) -> bool:
    """True when ``item`` releases a package named without a version (``pyo3-polars``): a
    package of its own, which carries none of the day's other fixes."""
    return bool(item.version) and not item.version_number and "@" not in item.version


def _release(c: _Context) -> Action | None:
    if c.lead.kind != "release":
        return None
    if notes := release_notes(c.lead.pull):
        return _release_by_notes(c, notes)
    if _PRE_RELEASE.search(c.lead.version):
        return None  # a development version on the branch: nothing to upgrade to yet
    cut = _version_name(c.lead) or "the new version"
    # A package named alone ("release pyo3-polars") is upgraded by itself, not with the repo.
    upgraded = "it" if _package_alone(c.lead) else repo_name(c.story)
    if bumps_version(c.lead):
        text = (
            f"Plan your upgrade to {cut} of {repo_name(c.story)}: the main branch now carries "
            "that version, so read its release notes when it is out"
        )
    else:
        text = (
            f"Read the release notes of {cut} before you upgrade {upgraded}: "
            "they say what changes for you"
        )
    return c.act("Read" if not bumps_version(c.lead) else "Plan", text, Urgency.PLAN, (c.lead,))


def _release_by_notes(c: _Context, notes: Sequence[ReleaseNote]) -> Action:
    """Upgrade to the release, for the entry of its notes users most need: check the code
    first for a breaking change, upgrade soon for a security or grave fix, try a pre-release
    on a branch."""
    cut = _version_name(c.lead) or "the new version"
    target = f"to {cut}" if "@" in cut else f"{repo_name(c.story)} to {cut}"
    top = notable_notes(notes, limit=1)[0]
    if top.kind == "upkeep":  # nothing but dependency updates and upkeep
        said = say_count(len(notes), "entry", "entries")
        text = (
            f"Upgrade {target} when you next can: its notes list {said} of dependency "
            "updates and maintenance, nothing you must act on"
        )
        return c.act("Upgrade", text, Urgency.MONITOR, (c.lead,))
    entry = f"\u2018{plain(top.text)}\u2019"
    others = len(notes) - 1
    more = f" and {say_count(others, 'more entry', 'more entries')}" if others else ""
    linked = tuple(notes_carry([top], [i for i in c.story.items if i is not c.lead]))
    items = (c.lead, *linked)
    # Who a fix concerns: what its entry names in code (``spawn_blocking``).
    span = re.search(r"`([\w.:@$/-]{2,40}(?:\(\))?)`", top.text)
    users = f" if you use {plain(span[1])}" if span else ""
    if _PRE_RELEASE.search(c.lead.version):
        text = f"Try {cut} on a branch before the stable release: its notes list {entry}{more}"
        return c.act("Try", text, Urgency.MONITOR, items)
    if top.kind == "breaking":
        text = (
            f"Check your code before you upgrade {target}: its notes list a breaking change, "
            f"{entry}{more}"
        )
        return c.act("Check", text, Urgency.IMMEDIATE, items)
    if top.kind in ("fix", "security"):
        soon = " soon" if top.kind == "security" or top.grave else ""
        urgency = Urgency.IMMEDIATE if soon else Urgency.PLAN
        text = f"Upgrade {target}{soon}{users}: its notes list the fix {entry}{more}"
        if line := older_line_of(c.lead):  # an LTS patch: for those who stay on that line
            also = f" and use {plain(span[1])}" if span else ""
            text = (
                f"Upgrade {target}{soon} if you stay on its {line} line{also}: "
                f"its notes list the fix {entry}{more}"
            )
        return c.act("Upgrade", text, urgency, items)
    return c.act("Upgrade", f"Upgrade {target} to get {entry}{more}", Urgency.PLAN, items)


#: What a user installs or builds with: a new required version of one is theirs to update.
#: A library the project bundles (a bundler, a crate) is updated with the project itself.
_TOOLCHAIN = re.compile(
    r"^(python|pytorch|torch|cuda|cudnn|rocm|node(\.?js)?|rust|rustc|cargo|go|java|jdk|gcc|"
    r"clang|llvm|msvc|xcode|cmake|bazel|buck2?|numpy|triton|jax|ndk|android ndk|"
    r"[\w -]*\b(sdk|ndk|toolchain|compiler|driver)s?)$",
    re.I,
)


def _requirement(c: _Context) -> Action | None:
    for item in c.items:
        need = item.facts.requirement
        if need is not None and _TOOLCHAIN.match(need.name.strip()):
            return c.act(
                "Update",
                f"Update to {need.name} {need.version} wherever you build or test "
                f"{c.audience}: the new code expects it",
                Urgency.PLAN,
                (item,),
            )
    return None


#: The note a description gives of what breaks: a "BC Breaking" or "Breaking changes"
#: heading and its paragraph, or a ``BREAKING CHANGE:`` footer.
_BREAKING_NOTE = re.compile(
    r"^[ \t]*(?:#+[ \t]*|\*\*)?(?:bc[- ]?breaking|breaking[ -]changes?|breaking)\b[^\n]*?"
    r"(?::[ \t]*(?P<inline>\S[^\n]*)|\n+(?P<para>(?:[^\n]+\n?)+))",
    re.I | re.M,
)


def breaking_note(body: str) -> str:
    """The first sentence of what ``body`` says breaks, as plain text; ``""`` when it says
    nothing (or only a heading)."""
    match = _BREAKING_NOTE.search(body)
    if match is None:
        return ""
    text = " ".join((match["inline"] or match["para"] or "").split())
    text = plain(text.replace("**", "")).strip(" -*")
    first = re.split(r"(?<=[.!?])\s+", text, maxsplit=1)[0].rstrip(".")
    if len(first.split()) < 5 or first.lower().startswith(("none", "n/a", "no ")):
        return ""
    return fit(first, 180, phrases_only=True)


def _breaking(c: _Context) -> Action | None:
    """A breaking change its description explains: check your code against what it says."""
    if c.lead.kind != "breaking":
        return None
    note = breaking_note(c.lead.pull.body)
    if not note and marked_breaking(c.lead.pull) and not c.lead.facts.removes:
        # Marked breaking and no more said: what it changes is what to check.
        told = c.clause_of(c.lead, f"{_BY_NUMBER}{c.lead.pull.number} changes it")
        return c.act(
            "Check",
            f"Check what you build on {c.audience} before you next upgrade "
            f"{repo_name(c.story)}: {told}, a change its author marks as breaking",
            Urgency.PLAN,
            (c.lead,),
        )
    if not note:
        return None
    return c.act(
        "Check",
        f"Check your code before you next upgrade {repo_name(c.story)}, as its description "
        f"warns: {lower_first(note)}",
        Urgency.IMMEDIATE if c.lead.facts.api_change or c.lead.facts.names else Urgency.PLAN,
        (c.lead,),
    )


#: A title that drops a platform or a version of one: "drop PyTorch <2.10 support", "Remove
#: support for Python 3.9", "drop PyTorch 2.7 and older support".
_DROPS_PLATFORM = re.compile(
    r"^(?:drop|remove|end)s?\s+(?:support\s+for\s+)?(?P<name>python|pytorch|torch|cuda|rocm|"
    r"node(?:\.?js)?|rust|go|java|numpy|gcc|clang|msvc|ubuntu|macos|windows|ios|android|xcode)"
    r"\s*(?P<below>[<\u2039]=?\s*)?v?(?P<version>\d+(?:\.\d+)*)"
    r"(?P<older>\s+(?:and|or)\s+(?:older|earlier|below|lower))?",
    re.I,
)
_PLATFORM_NAMES = {
    "pytorch": "PyTorch",
    "torch": "PyTorch",
    "cuda": "CUDA",
    "rocm": "ROCm",
    "nodejs": "Node.js",
    "node.js": "Node.js",
    "msvc": "MSVC",
    "gcc": "GCC",
    "numpy": "NumPy",
    "macos": "macOS",
    "ios": "iOS",
    "xcode": "Xcode",
}


def _platform_dropped(c: _Context) -> Action | None:
    """A dropped platform or version: move to a newer one before the next upgrade."""
    match = _DROPS_PLATFORM.match(plain(c.lead.headline_title))
    if match is None or c.lead.kind not in ("breaking", "refactor", "chore", "build"):
        return None
    raw = match["name"]
    name = _PLATFORM_NAMES.get(raw.lower(), raw[:1].upper() + raw[1:])
    version = match["version"]
    if match["below"] and "=" not in match["below"]:
        target, gone = f"{name} {version} or later", f"{name} older than {version}"
    else:
        target, gone = (
            f"a {name} newer than {version}",
            f"{name} {version}" + (" and older" if match["older"] or match["below"] else ""),
        )
    text = (
        f"Move to {target} wherever you use {repo_name(c.story)} before its next release: "
        f"it drops support for {gone}"
    )
    return c.act("Move", text, Urgency.PLAN, (c.lead,))


def _removal(c: _Context) -> Action | None:
    facts = c.lead.facts
    if c.lead.kind != "breaking" or not facts.removes:
        return None
    urgent = facts.api_change or bool(facts.names)
    thing = _removed_thing(c.lead)
    if not thing and not removes(phrase_of(c.lead).verb):
        return None  # its title names no removal and its description no removed thing
    thing = thing or c.thing
    repo = repo_name(c.story)
    instead = replacement(c.lead.pull.body)
    if instead:
        text = (
            f"Migrate your code from {thing} to {instead} before you next upgrade "
            f"{repo}, which removes the former"
        )
        return c.act("Migrate", text, Urgency.IMMEDIATE if urgent else Urgency.PLAN, (c.lead,))
    # "flags", "kernels and APIs": spoken of as they, not it.
    plural = re.search(r"[^suia.'\s]s$| and ", plain(thing).rstrip("`")) is not None
    it, is_ = ("they", "are") if plural else ("it", "is")
    if unstable := _UNSTABLE.search(f"{c.lead.pull.title} {c.lead.facts.place}"):
        # Its own word for it ("prototype", "experimental"): the grounding check reads it.
        said = "" if _UNSTABLE.search(thing) else f" ({unstable[0].lower()})"
        why = f"{it} {is_} gone from the next release"
        thing = f"{thing}{said}"
    elif _SAID_DEPRECATED.search(c.lead.pull.body):
        why = f"deprecated earlier, {it} {is_} now gone"
    else:
        why = f"the next {repo} release no longer has {'them' if plural else 'it'}"
    # How a user stops depending on it: by what it is.
    if _SETTING.search(thing):
        verb, step = "Stop", f"Stop setting {thing} in your {repo} settings and calls"
    elif _MODULE.search(thing):
        verb, step = "Stop", f"Stop importing {thing}"
    else:
        verb, step = "Migrate", f"Migrate your code off {thing}"
    text = f"{step} before you next upgrade {repo}: {why}"
    return c.act(verb, text, Urgency.IMMEDIATE if urgent else Urgency.PLAN, (c.lead,))


#: A module or package path a user imports: ``torchao.sparsity``, ``torchao/prototype/x``.
_MODULE = re.compile(
    r"^`?[a-z_][a-z0-9_]*(?:[./][a-z_][a-z0-9_]*)+" + _FILE_END + r"`?(?:,|$| and )|\bmodules?\b"
)
#: A line of a description that removes something: "* Remove FooConfig", "- Delete `bar`".
_REMOVES_LINE = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+)?(?:remove[sd]?|delete[sd]?|drop(?:s|ped)?)[ \t]+(?P<what>[^\n]{3,60}?)"
    r"[ \t]*$",
    re.I | re.M,
)


def _removed_thing(item: Item) -> str:
    """What ``item`` removes, when its title does not say (a squash "Land 3894, 3887 into
    main") and its description has a line that does ("* Remove FooConfig"); else ``""``."""
    if removes(phrase_of(item).verb):
        return ""
    line = _REMOVES_LINE.search(item.pull.body)
    return plain(line["what"]).rstrip(".") if line else ""


#: What a description names as the way forward: "use `launch()` instead", "in favour of X".
_REPLACEMENT = re.compile(
    r"(?:\buse|switch to|migrate to|replaced (?:by|with)|in favou?r of)\s+"
    r"(`[^`\n]{1,60}`|[A-Za-z_][\w.:/-]*\(\)|[A-Za-z_]\w*(?:[._:/][A-Za-z_]\w*)+)",
    re.I,
)
_SAID_DEPRECATED = re.compile(
    r"\b(was|were|had been|been) deprecated\b|\bdeprecated (in|since)\b", re.I
)


#: Where code comes with no promise to stay.
_UNSTABLE = re.compile(r"\b(prototypes?|experimental|experiments)\b", re.I)


def replacement(body: str) -> str:
    """What ``body`` says to use instead of what a change removes (an identifier), or ``""``."""
    match = _REPLACEMENT.search(body)
    return plain(match[1]) if match else ""


_DEPRECATION_NOTICE = re.compile(
    r"\bdeprecation (?:warnings?|notices?|messages?)\b"
    r"(?:\s+(?:for|on|to|about|when using)\s+(?P<what>`[^`]{1,80}`|[A-Za-z_]\w*(?:\.\w+)+"
    r"|(?-i:[A-Z][a-z0-9]+[A-Z]\w*)))?",
    re.I,
)


def _deprecation(c: _Context) -> Action | None:
    if c.lead.kind != "breaking" or not c.lead.facts.deprecates:
        return None
    # "Add deprecation warning for `X`": what is deprecated is X, not the warning.
    warned = _DEPRECATION_NOTICE.search(c.lead.headline_title)
    thing = plain(warned["what"]) if warned and warned["what"] else c.thing
    return c.act(
        "Plan",
        f"Plan the move away from {thing} in {c.audience}: it is now deprecated",
        Urgency.PLAN,
        (c.lead,),
    )


def _speed(c: _Context) -> Action | None:
    item = next((i for i in c.items if i.facts.speed_claim), None)
    if item is None:
        return None
    return c.act(
        "Re-benchmark",
        f"Re-benchmark your workloads in {c.audience} after upgrading: "
        f"{c.clause_of(item, 'it is a performance change')}, and its author measured "
        f"{item.facts.speed_claim}",
        Urgency.PLAN,
        (item,),
    )


#: The title a revert quotes ('Revert "Fix crash …"'): the words of what it takes back.
_QUOTED_TITLE = re.compile(r"[\"\u201c][^\"\u201d]*[\"\u201d]")
#: A revert that says, in its own words, it mends something: a regression, a hang, a crash.
_MENDS = re.compile(r"\b(to fix|fix(es|ing)?|regressions?|hangs?|crash\w*|deadlocks?)\b", re.I)


def _revert(c: _Context) -> Action | None:
    item = next((i for i in c.items if i.kind == "revert"), None)
    if item is None or not item.code_lines:
        return None  # a revert of tests, CI or docs: nothing users build on came back out
    if _MENDS.search(_QUOTED_TITLE.sub("", item.pull.title)):
        return None  # "revert #7757 to fix a regression": the revert is the fix to take
    if _removes(item):
        text = (
            f"Hold off on moving away from {_thing(item)} in {c.audience_of(item)}: its "
            "removal was reverted, so wait until it lands again"
        )
    else:
        text = (
            f"Hold off on building on {_thing(item)} in {c.audience_of(item)}: it was "
            "reverted, so wait until it lands again"
        )
    return c.act("Hold", text, Urgency.MONITOR, (item,))


def _reland(c: _Context) -> Action | None:
    item = next((i for i in c.items[:2] if i.kind == "reland"), None)
    if item is None:
        return None
    return c.act(
        "Re-test",
        f"Re-test what you run on {c.audience_of(item)} with {_thing(item)}: it is back "
        "after an earlier revert",
        Urgency.PLAN,
        (item,),
    )


def _support(c: _Context) -> Action | None:
    supporting = tuple(i for i in c.items if i.kind == "feature" and i.facts.new_support)
    if c.lead.kind != "feature" or not supporting:
        return None
    lead = supporting[0]
    if _thing(lead).startswith(_BY_NUMBER):
        return None  # "Try pull request #7992" tells a reader nothing to try
    verb, text = _try_it(c, lead)
    return c.act(verb, text, Urgency.PLAN if c.rank < 2 else Urgency.MONITOR, supporting)


def _stable(c: _Context) -> Action | None:
    """A feature made stable: adopt it, or drop the opt-in it needed, with the next release."""
    lead = c.lead
    if lead.kind != "feature" or not lead.facts.stabilizes:
        return None
    thing = _thing(lead)
    if thing.startswith(_BY_NUMBER) or len(thing.split()) > 8:
        return None
    text = (
        f"Plan to adopt {thing}, or drop the preview or unstable opt-in you use it with, "
        f"when the next {repo_name(c.story)} release is out: it is stable on the main branch now"
    )
    return c.act("Plan", text, Urgency.PLAN if c.rank < 2 else Urgency.MONITOR)


#: A title that turns something on or off by default: "Enable X by default", "Don't X".
_TURNED = re.compile(
    r"^(?:(?P<on>enable[sd]?|turn(?:s|ed)? on|use[sd]?|default to)|(?P<off>disable[sd]?|"
    r"turn(?:s|ed)? off|do not|don't|no longer|stop))\b",
    re.I,
)


def _new_default(c: _Context) -> Action | None:
    """A default turned on ("Enable fused QKV by default"): nothing to take up, but what
    users run changes when they update: re-test it."""
    lead = c.lead
    if lead.kind not in ("feature", "perf") or not re.search(r"\bby default\b", lead.pull.title):
        return None
    turned = _TURNED.match(lead.headline_title)
    if turned is None:
        return None  # "Prefetch images by default": what it does says too little
    state = "off" if turned["off"] else "on"
    thing = _thing(lead)
    thing = re.sub(r"\s*\bby default\b", "", thing).strip()
    if turned["off"]:
        thing = plain(lead.headline_title[turned.end() :]).strip()
        thing = re.sub(r"\s*\bby default\b", "", thing).strip()
    if not thing or thing.startswith(_BY_NUMBER):
        return None
    repo = repo_name(c.story)
    where = "" if c.audience == repo else f" on {c.audience}"
    text = (
        f"Re-test what you run{where} when you next update {repo}: it turns {thing} {state} "
        "by default"
    )
    return c.act("Re-test", text, Urgency.PLAN if c.rank < 2 else Urgency.MONITOR)


def _new(item: Item) -> bool:
    """True when ``item``'s title says it brings something new (``Add X``, ``X support``)."""
    phrase = phrase_of(item)
    return phrase.verb in _CAPABILITY and not phrase.instruction


def _feature(c: _Context) -> Action | None:
    """A new capability users call by name (an API, a flag, an option): try it. A feature
    without a name a user could type is news, not an instruction."""
    lead = c.lead
    if lead.kind not in ("feature", "reland") or not _new(lead) or not _named(lead):
        return None
    if c.thing.startswith(_BY_NUMBER):
        return None  # "Try pull request #7992" tells a reader nothing to try
    verb, text = _try_it(c, lead)
    return c.act(verb, text, Urgency.PLAN if c.rank < 2 else Urgency.MONITOR)


#: What a new thing is, by its title and name, and how a user takes it up: a lint rule is
#: enabled, a setting set, a command run, a function called; anything else tried.
_RULE = re.compile(r"\brules?\b|^`?(?:no|use)[A-Z]\w+`?$")
_SETTING = re.compile(
    r"\b(options?|flags?|settings?|environment variables?|env vars?|config(?:uration)? keys?)\b"
    r"|(?<![\w-])--[a-z][\w-]+|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"
)
_SETTING_NAME = re.compile(r"(?<![\w-])--[a-z][\w-]+|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")
_COMMAND = re.compile(r"\b(commands?|subcommands?)\b")
_CALLABLE = re.compile(
    r"^`?[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+" + _FILE_END + r"(?:\(\))?`?$|^`?[A-Za-z_]\w*\(\)`?$"
)


def _try_it(c: _Context, item: Item) -> tuple[str, str]:
    """How a user takes up the new thing ``item`` adds, and why now: (verb, text)."""
    thing = _thing(item)
    title = f"{item.pull.title} {thing}"
    why = _why_new(item)
    repo = repo_name(c.story)
    if re.match(r"(on|for|in|to|via|with|at)\b", thing) and item.area:
        # "float8: enable on ROCm": what is new is float8 on ROCm.
        return "Try", f"Try {item.area} {thing} in {c.audience}: {why}"
    if _RULE.search(title) or _RULE.search(thing):
        rule = thing if re.search(r"\brules?\b", thing) else f"{thing} rule"
        return "Enable", f"Enable {_the_new(rule)} in your {repo} configuration: {why}"
    # A setting is what is new only when the thing added is one ("an environment variable
    # for X", "`--dry-run` flag"), not "TOML examples to `--config` help text".
    head = re.split(r" (?:to|in|for|on|of) (?!`?[A-Z][A-Z0-9]*_)", thing, maxsplit=1)[0]
    if _SETTING.search(head):
        named = _SETTING_NAME.search(plain(thing))
        setting = named[0] if named else _the_new(thing)
        return "Set", f"Set {setting} where you run {c.audience} to use it: {why}"
    if _COMMAND.search(title):
        return "Run", f"Run {_the_new(thing)} from {c.audience}: {why}"
    if _CALLABLE.match(thing):
        return "Call", f"Call {thing} in code that uses {c.audience}: {why}"
    return "Try", f"Try {_the_new(thing)} in {c.audience}: {why}"


#: What a user types: a code span, a call, a flag, a dotted or snake_case name, CamelCase.
_NAMED = re.compile(
    r"`[^`]+`|\b\w+\(\)|(?<!\w)--?[a-z][\w-]+|\b[A-Za-z_]\w*\.[A-Za-z_]\w+|\b[a-z]+_[a-z0-9_]+"
    r"|\b[A-Z][a-z]+[A-Z]\w*"
)


def _named(item: Item) -> bool:
    """True when ``item``'s title names something a user calls or sets."""
    return bool(item.facts.names) or bool(_NAMED.search(item.headline_title))


def described(item: Item) -> str:
    """What ``item``'s description says it does, in its first sentence that stands alone
    for a reader (plain, lower-cased first letter, at most 160 characters), or ``""``."""
    title = plain(tidy(item.headline_title)).lower()
    for sentence in retell(item.summary):
        said = plain(sentence)
        if (
            stands_alone(said)
            and len(said) <= 160
            and said.lower() != title
            and _SAYS_WHAT_IT_DOES.search(said)
            and not _NOT_YET.search(said)
        ):
            return lower_first(said)
    return ""


#: A sentence that says what a change lets users do: "This enables users to move imports",
#: "Adds a flag that …", "X can now …".
_SAYS_WHAT_IT_DOES = re.compile(
    r"\b(enables?|allows?|lets|makes it possible|can now|now (supports?|works?|accepts?|"
    r"handles?|returns?|reports?|runs?))\b|^(adds|supports|introduces|exposes|implements)\b",
    re.I,
)
#: What a description says is still to come or outside the change.
_NOT_YET = re.compile(r"\b(later|future|upcoming|follow-?ups?|not yet|eventually|todo)\b", re.I)


def _why_new(item: Item) -> str:
    """Why trying ``item`` is worth it now: what its description says it does, else where it
    shows how (an example or a page of documentation it adds), else its facts."""
    if said := described(item):
        return f"{said}, on the main branch for the next release"
    if shown := _shown_in(item):
        return f"{shown} shows how, on the main branch for the next release"
    what = "a new public API" if item.facts.api_change else "new"
    # Tested already: something to rely on. No tests found says nothing (they may live where
    # no path tells).
    tested = ", with tests," if _tested(item) else ""
    return f"it is {what} on the main branch{tested} for the next release"


def _tested(item: Item) -> bool:
    """True when ``item`` adds or extends tests (a test file it grows)."""
    return any(
        (f.additions or 0) > 0
        and re.search(
            r"(^|/)(tests?|testing|mdtests?|specs?|__tests__)/|(^|/)test_|_test\.|\.(test|spec)\."
            r"|\.snap$",
            f.path,
        )
        for f in item.pull.files
    )


def _shown_in(item: Item) -> str:
    """The example, else the documentation page, ``item`` adds or extends (``the example
    examples/fp8_attention.py``), or ``""``."""
    grown = [f.path for f in item.pull.files if (f.additions or 0) > (f.deletions or 0)]
    for path in grown:
        example = re.search(r"(^|/)examples?/", path, re.I) and re.search(
            r"\.(py|rs|ts|js|cpp|ipynb)$", path
        )
        if example and not path.endswith("__init__.py"):
            return f"the example {path}"
    for path in grown:
        if re.search(r"(^|/)docs?/", path, re.I) and re.search(r"\.(md|rst|mdx)$", path):
            return f"the page {path}"
    return ""


def _the_new(thing: str) -> str:
    """``thing`` as the new thing it is: ``an abort mode`` -> ``the new abort mode``;
    ``initial X`` -> ``the initial X``; ``the X`` as it is."""
    first, _, rest = thing.partition(" ")
    if thing.startswith(_BY_NUMBER):
        return thing
    if first in ("a", "an") and rest:
        return f"the new {rest}"
    if first == "the":
        return thing
    return f"the {thing}" if first in NON_VERB_OPENERS else f"the new {thing}"


def _fix(c: _Context) -> Action | None:
    """A fix of what users hit (a crash, a wrong result, a hang): re-test where it was."""
    if c.lead.kind != "fix" or not SEVERE.search(f"{c.lead.pull.title}\n{c.lead.summary}"):
        return None
    grave = GRAVE.search(f"{c.lead.pull.title}\n{c.lead.summary}")
    fault = _symptom(f"{c.lead.pull.title}\n{c.lead.summary}") if grave else ""
    symptom = fault or "a bug users hit"
    # A title that reads as no clause is named, quoted, as the fix it is.
    named = f"it carries the fix \u2018{plain(tidy(c.lead.headline_title)).rstrip('.')}\u2019"
    told = c.clause_of(
        c.lead, named if not fault else f"{repo_name(c.story)} fixes {symptom} there"
    )
    if c.released and c.carried is not None:  # the release's notes say whether it is in
        if c.lead.pull.number in c.carried:
            text = (
                f"Re-test what you run on {c.audience} after upgrading to {c.released}, out "
                f"today: {told}, and the release's notes list the fix"
            )
        else:
            text = (
                f"Re-test what you run on {c.audience} with the release after {c.released}: "
                f"{told}, merged after the notes of {c.released} were written"
            )
    elif c.released:  # the day's release may carry it: say so, never "not yet released"
        text = (
            f"Re-test what you run on {c.audience} once you are on {c.released} or later: "
            f"{told}, merged the day {c.released} was cut"
        )
    else:
        text = (
            f"Re-test what you run on {c.audience} with the next {repo_name(c.story)} "
            f"release: {told}, merged and not yet released"
        )
    return c.act("Re-test", text, Urgency.PLAN if c.rank < 2 else Urgency.MONITOR)


#: Each recipe turns a fact of the day into an instruction; a day whose facts support no
#: instruction gets none from here (see :func:`watch_action`): never a template.
_RECIPES: tuple[Recipe, ...] = (
    _release,
    _platform_dropped,
    _breaking,
    _removal,
    _deprecation,
    _requirement,
    _stable,
    _revert,
    _reland,
    _speed,
    _new_default,
    _support,
    _feature,
    _fix,
)


_STRONG_RECIPES = (
    _release,
    _platform_dropped,
    _breaking,
    _removal,
    _deprecation,
    _requirement,
    _stable,
    _revert,
    _speed,
)


def draft_actions(
    leads: Sequence[Story], members: dict[Story, tuple[Item, ...]], extra: Sequence[Story] = ()
) -> list[Action]:
    """Draft 0 to 5 actions for ``leads`` (best first), then ``extra`` stories if room.

    ``members`` holds each story's cited items, which an action rests on.
    """
    actions: list[Action] = []
    used: set[str] = set()
    releases = {
        story.repo: story.lead
        for story in reversed([*leads, *extra])
        if story.kind == "release"
        and not bumps_version(story.lead)
        and story.lead.version
        and not _package_alone(story.lead)
    }
    released = {repo: _version_name(lead) for repo, lead in releases.items()}
    # What each release's notes say it carries: the pull requests they link.
    carried = {
        repo: frozenset(n for note in notes for n in note.numbers)
        for repo, lead in releases.items()
        if (notes := release_notes(lead.pull))
    }
    for rank, story in enumerate([*leads, *extra]):
        if len(actions) >= MAX_ACTIONS:
            break
        items = members.get(story) or (story.lead,)
        context = _Context(
            story=story,
            items=tuple(items),
            rank=rank,
            released=released.get(story.repo, ""),
            carried=carried.get(story.repo),
        )
        # Past the top three stories, only what a team must act on earns an item.
        for recipe in _RECIPES if rank < 3 else _STRONG_RECIPES:
            drafted = recipe(context)
            if drafted is not None and drafted.verb not in used:
                used.add(drafted.verb)
                actions.append(drafted)
                break
    return actions


#: Why a change of each kind may reach users, for a day with nothing else to act on.
_REACH = {
    "feature": "it adds something users can call",
    "perf": "it changes the speed of code users run",
    "fix": "it fixes a bug users may have hit",
    "breaking": "it changes what users call",
    "refactor": "it reworks code that others build on",
    "docs": "it changes what the documentation tells users",
}


#: What a fix's title says went wrong, as the noun phrase a reader hit.
_SYMPTOMS = (
    (r"cve-\d+|vulnerab|security", "a security hole"),
    (
        r"(?:header|command|sql|code|script|html) injection|smuggling|xss|csrf|ssrf",
        "a security hole",
    ),
    (r"path traversal|privilege escalation", "a security hole"),
    (r"use[- ]after[- ]free|double free|out[- ]of[- ]bounds|memory safety", "a memory-safety bug"),
    (r"undefined behaviou?r|unsound", "undefined behaviour"),
    (r"corrupt|data loss|loses data", "data corruption"),
    (r"segfault", "a segfault"),
    (r"non-?determinis", "non-deterministic results"),
    (r"silently", "a silent failure"),
    (r"crash", "a crash"),
    (r"panic", "a panic"),
    (r"hang|deadlock", "a hang"),
    (r"leak", "a leak"),
    (r"race", "a race"),
    (r"regression", "a regression"),
    (r"wrong|incorrect|inconsistent", "wrong results"),
    (r"fail", "a failure"),
    (r"error|exception|raise", "an error"),
)


def _symptom(text: str) -> str:
    """What ``text`` (a fix's title and summary) says users hit (``a panic``), else ``""``."""
    lower = text.lower()
    return next((said for pattern, said in _SYMPTOMS if re.search(rf"\b(?:{pattern})", lower)), "")


def watch_action(item: Item, name: str, changes: int) -> Action:
    """The one item of a day whose facts support no instruction: watch for ``item``, the
    change most likely to reach users of the repository written ``name``, and say why."""
    why = _REACH.get(item.kind, "it changes how the project is built or tested")
    symptom = _symptom(f"{item.pull.title}\n{item.summary}") if item.kind == "fix" else ""
    if item.facts.reconfigures:
        why = "it changes the options users set"
    elif symptom:
        why = f"it fixes {symptom} users may have hit"
    elif item.kind == "feature" and item.facts.names:
        why = f"it adds {plain(item.facts.names[0])}, which users can call"
    elif item.kind == "feature" and not _named(item):
        why = "it changes what the next release does"  # nothing named a user could call
    among = "the day's one change" if changes == 1 else f"the day's {say_count(changes, 'change')}"
    phrase = phrase_of(item)
    said = plain(phrase.predicate())
    if not phrase.verb or plain(tidy(item.headline_title)).lower() in said.lower():
        thing = _thing(item)  # never the title again, whole
        said = f"is {thing}" if thing.startswith(_BY_NUMBER) else f"is about {thing}"
    if item.kind in ROUTINE_KINDS and item.kind != "refactor":
        # Documentation, tests and upkeep only: say so, rather than make one of them news.
        text = (
            f"Skip today's {name} changes if you only use {name}: none of {among} "
            f"changes what users run (the one most likely to is the change that {said})"
        )
        if changes == 1:
            text = (
                f"Skip today's {name} change if you only use {name}: it changes "
                f"nothing users run (it {said})"
            )
        return Action("Skip", text, Urgency.MONITOR, (item,), item.pull.repo)
    if told := described(item):  # what its description says it lets users do
        text = f"Watch for the change that {said} in the next {name} release: {told}"
    else:
        text = (
            f"Watch for the change that {said} in the next {name} release: of {among} it is "
            f"the one most likely to reach users, as {why}"
        )
    return Action("Watch", text, Urgency.MONITOR, (item,), item.pull.repo)
