"""Action items: what a team lead can do tomorrow, derived from what the changes say.

Each item opens with an imperative, names its audience by what they use (a backend, a
code directory, a package), says what to do and why, and never quotes a title. The
recipe is chosen from the change's facts (a new required version, a removal, a measured
speed-up, a revert, new support ...), most specific first; no two items of an edition
open with the same verb, so none repeats another's template.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

from digest.models import Urgency
from digest.summarize.base import Item, Story
from digest.summarize.classify import GRAVE, ROUTINE_KINDS, SEVERE
from digest.summarize.extractive.audience import who_uses
from digest.summarize.extractive.drafting import (
    BY_NUMBER,
    CAPABILITY,
    FILE_END,
    THING_LIMIT,
    Action,
    Context,
    Recipe,
    thing_of,
)
from digest.summarize.extractive.takeup import (
    RULE,
    SETTING,
    described,
    feature,
    new_default,
    shown_in,
    stable,
    support,
    tested_in,
    unstable_home,
)
from digest.summarize.facts import DEPRECATION_NOTICE
from digest.summarize.kinds import HARMLESS_OFF, WRONGLY, claimed, marked_breaking, symptom
from digest.summarize.phrasing import (
    ends_dangling,
    fit,
    lower_first,
    parse_title,
    plain,
    say_count,
)
from digest.summarize.releases import (
    ReleaseNote,
    notable_notes,
    notes_carry,
    release_notes,
    upkeep_kinds,
    upkeep_only,
)
from digest.summarize.select import version_numbers
from digest.summarize.stories import (
    ADDS,
    bumps_version,
    older_line_of,
    phrase_of,
    removes,
    repo_name,
    reverted_title,
    reverts_item,
    tidy,
)

MAX_ACTIONS = 5
#: A development or pre-release version a branch carries ("1.3.0a0", "0.5.0.dev0").
_PRE_RELEASE = re.compile(r"\d[-.]?(a|alpha|b|beta|dev|rc)\.?\d*$", re.I)


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


def _release(c: Context) -> Action | None:
    if c.lead.kind != "release":
        return None
    if notes := release_notes(c.lead.pull):
        drafted = _release_by_notes(c, notes)
        if newer := _reshipped_by(c):
            # "2.7.1" cut the same day with no entries of its own: the one to take.
            cut = _version_name(c.lead)
            text = drafted.text.replace(f" to {cut}", f" to {_version_name(newer)}", 1)
            text = text.replace("its notes", f"the notes of {cut}", 1)
            return msgspec.structs.replace(drafted, text=text, items=(*drafted.items, newer))
        return drafted
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
    verb = "Read" if not bumps_version(c.lead) else "Plan"
    return c.act(verb, text, Urgency.PLAN, (c.lead,), weak=True)  # no notes to tell from


def _concerned(entry: str) -> re.Match[str] | None:
    """The name in code a release ``entry`` is about, as users call it: an API anywhere
    (``spawn_blocking``, ``Chan::recv_many``, ``run()``), any other name only as what the
    entry opens with (``SvelteMap`` incorrectly handles …); a property named in passing
    ("take into account `nodeName` case sensitivity on XHTML pages") concerns no one."""
    text = re.sub(r"^(?:fixed|fixes|fix)?\s*#\d+:\s*", "", entry, flags=re.I)
    for span in re.finditer(r"`([\w.:@$/-]{2,40}(?:\(\))?)`", text):
        name = span[1]
        if re.search(r"_|::|\(\)|\.", name) or len(text[: span.start()].split()) < 3:
            return span
    return None


#: A fault a release entry names and when it happens: "panic when parsing t-strings",
#: "no longer panics when parsing Svelte files".
_FAULT_WHEN = re.compile(
    r"\b(?:panic|crash|hang|overflow|leak|deadlock|segfault)\w*\s+"
    r"((?:when|while|on|in|with|for|after|during)\s[^;]{6,80})$",
    re.I,
)


def _hit_when(entry: str) -> str:
    """The fault a fix ``entry`` names, with when users hit it (``a panic when parsing
    t-strings``), or ``""``."""
    found = _FAULT_WHEN.search(plain(entry).rstrip(" ."))
    fault = symptom(entry)
    return f"{fault} {found[1]}" if found and fault else ""


def _reshipped_by(c: Context) -> Item | None:
    """A newer release of ``c``'s story with no notes of its own (``2.7.1`` after the
    day's ``2.7.0``), which ships what the lead's notes list; else None."""
    mine = version_numbers(c.lead.version)
    return next(
        (
            item
            for item in c.story.items
            if item.kind == "release"
            and item is not c.lead
            and item.pull.notes is not None
            and not release_notes(item.pull)
            and mine
            and version_numbers(item.version) > mine
        ),
        None,
    )


def _release_by_notes(c: Context, notes: Sequence[ReleaseNote]) -> Action:
    """Upgrade to the release, for the entry of its notes users most need: check the code
    first for a breaking change, upgrade soon for a security or grave fix, try a pre-release
    on a branch."""
    cut = _version_name(c.lead) or "the new version"
    target = f"to {cut}" if "@" in cut else f"{repo_name(c.story)} to {cut}"
    top = notable_notes(notes, limit=1)[0]
    if top.kind == "upkeep":  # nothing but dependency updates and upkeep
        said = say_count(len(notes), "entry", "entries")
        text = (
            f"Upgrade {target} when you next can: its notes list {said} of "
            f"{upkeep_kinds(notes)}, nothing you must act on"
        )
        return c.act("Upgrade", text, Urgency.MONITOR, (c.lead,), weak=True)
    entry = f"\u2018{plain(top.text)}\u2019"
    # Upkeep ("fix all tests are skipped on Windows") is no reason to upgrade: counted apart
    # from the entries users get, so that the count still matches the notes a reader opens.
    others = sum(1 for note in notes if note is not top and note.kind != "upkeep")
    upkeep = sum(1 for note in notes if note is not top and note.kind == "upkeep")
    if others and upkeep:
        more = f" and {say_count(others, 'more entry', 'more entries')} for users"
    else:
        more = f" and {say_count(others, 'more entry', 'more entries')}" if others else ""
    linked = tuple(notes_carry([top], [i for i in c.story.items if i is not c.lead]))
    items = (c.lead, *linked)
    # Who a fix concerns: what its entry names in code (``spawn_blocking``, ``SvelteMap``),
    # else who hit the fault it names, and when ("a panic when parsing t-strings").
    span = _concerned(top.text)
    users = f" if you use {plain(span[1])}" if span else ""
    if not users and top.kind in ("fix", "security") and (when := _hit_when(top.text)):
        users = f" if you have hit {when}"
    if _PRE_RELEASE.search(c.lead.version):
        text = f"Try {cut} on a branch before the stable release: its notes list {entry}{more}"
        if previewed := re.match(r"v?(\d+)\.(\d+)", c.lead.version.rsplit("@", 1)[-1]):
            # Who a pre-release is for: those moving to the line it previews.
            major, minor = previewed.groups()
            previews = major if minor == "0" else f"{major}.{minor}"
            text = f"If you plan to move to {repo_name(c.story)} {previews}, {lower_first(text)}"
        # An invitation: beside a deprecation or a fix users hit it is one item too many.
        return c.act("Try", text, Urgency.MONITOR, items, invites=True)
    if top.kind == "breaking":
        text = (
            f"Check your code before you upgrade {target}: its notes list a change that can "
            f"break code, {entry}{more}"
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


def _requirement(c: Context) -> Action | None:
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
    r"(?::[ \t]*(?P<inline>\S[^\n]*(?:\n[^\n]*\S[^\n]*)*)|\n+(?P<para>(?:[^\n]+\n?)+))",
    re.I | re.M,
)
#: A sentence of a breaking note that says what still works, not what breaks ("For BC, we
#: keep around the old names").
_REASSURES = re.compile(
    r"^(?:for bc|to keep bc|for backward)|\b(?:we keep|kept around|still works?|remains? "
    r"(?:available|supported)|backwards?[- ]compatib\w*(?! break))",
    re.I,
)


def breaking_note(body: str) -> str:
    """The first sentence of what ``body`` says breaks, as plain text; ``""`` when it says
    nothing (or only a heading)."""
    match = _BREAKING_NOTE.search(body)
    if match is None:
        return ""
    text = " ".join((match["inline"] or match["para"] or "").split())
    text = plain(text.replace("**", "")).strip(" -*")
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if not _REASSURES.search(s)]
    first = re.sub(r"^(?:however|but),?\s+", "", sentences[0] if sentences else "", flags=re.I)
    first = first.rstrip(".")
    if len(first.split()) < 5 or first.lower().startswith(("none", "n/a", "no ")):
        return ""
    return fit(first, 180, phrases_only=True)


_WHY_OFF = re.compile(r" (?:for|to|in|on|when|if|by|with|because) ")


def _disables(c: Context) -> Action | None:
    """A change that turns off something users may rely on ("disable extglobs for
    consistency"): check whether they do before the next upgrade."""
    lead = c.lead
    phrase = phrase_of(lead)
    if lead.kind not in ("fix", "feature", "refactor", "perf") or phrase.verb != "disables":
        return None
    if HARMLESS_OFF.search(phrase.rest) or "by default" in phrase.rest:
        return None  # turned off by default: new_default says what to re-test
    thing = _WHY_OFF.split(plain(phrase.rest), maxsplit=1)[0]  # "extglobs", not "… for X"
    if not thing or len(thing.split()) > 6:
        return None
    text = (
        f"Check whether you rely on {thing} before you next upgrade {repo_name(c.story)}: "
        f"{c.clause_of(lead, f'{BY_NUMBER}{lead.pull.number} turns it off')}"
    )
    return c.act("Check", text, Urgency.PLAN, (lead,))


def _breaking(c: Context) -> Action | None:
    """A breaking change its description explains: check your code against what it says."""
    if c.lead.kind != "breaking":
        return None
    note = breaking_note(c.lead.pull.body)
    if not note and marked_breaking(c.lead.pull) and not c.lead.facts.removes:
        # Marked breaking and no more said: what it changes is what to check.
        told = c.clause_of(c.lead, f"{BY_NUMBER}{c.lead.pull.number} changes it")
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


def _platform_dropped(c: Context) -> Action | None:
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


def _removal(c: Context) -> Action | None:
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
    if RULE.search(thing) or RULE.search(c.lead.headline_title):
        verb, step = "Drop", f"Drop {thing} from the rules your {repo} configuration selects"
    elif SETTING.search(thing):
        verb, step = "Stop", f"Stop setting {thing} in your {repo} settings and calls"
    elif _MODULE.search(thing):
        verb, step = "Stop", f"Stop importing {thing}"
    else:
        verb, step = "Migrate", f"Migrate your code off {thing}"
    text = f"{step} before you next upgrade {repo}: {why}"
    return c.act(verb, text, Urgency.IMMEDIATE if urgent else Urgency.PLAN, (c.lead,))


#: A module or package path a user imports: ``torchao.sparsity``, ``torchao/prototype/x``.
_MODULE = re.compile(
    r"^`?[a-z_][a-z0-9_]*(?:[./][a-z_][a-z0-9_]*)+" + FILE_END + r"`?(?:,|$| and )|\bmodules?\b"
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
    r"(?:\b(?:please|should|now|instead) use|\buse(?=\s+\S+\s+instead\b)|switch to|migrate to|"
    r"replaced (?:by|with)|in favou?r of)\s+"
    r"(`[^`\n]{1,60}`|[A-Za-z_][\w.:/-]*\(\)|[A-Za-z_]\w*(?:[._:/][A-Za-z_]\w*)+"
    r"|(?-i:[A-Z][a-z0-9]+[A-Z]\w*))",
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


def _deprecation(c: Context) -> Action | None:
    if c.lead.kind != "breaking" or not c.lead.facts.deprecates:
        return None
    # "Add deprecation warning for `X`": what is deprecated is X, not the warning.
    warned = DEPRECATION_NOTICE.search(c.lead.headline_title)
    thing = plain(warned["what"]) if warned and warned["what"] else c.thing
    if warned and not warned["what"] and (said := _WARNED_OF.search(c.lead.headline_title)):
        thing = plain(said[1])  # "a deprecation warning for float8 delayed scaling"
    if (instead := replacement(c.lead.pull.body)) and instead not in thing:
        text = f"Move from {thing} to {instead} in {c.audience}: {thing} is now deprecated"
        return c.act("Move", text, Urgency.PLAN, (c.lead,))
    if versioned := _OLD_VERSION.match(thing):  # "v1 of `Int4WeightOnlyConfig`"
        version, what = versioned.groups()
        text = (
            f"Check which version of {what} your code builds and move off {version}: "
            f"{c.audience} deprecates {version}"
        )
        return c.act("Check", text, Urgency.PLAN, (c.lead,))
    return c.act(
        "Plan",
        f"Plan the move away from {thing} in {c.audience}: it is now deprecated",
        Urgency.PLAN,
        (c.lead,),
    )


#: What a deprecation warning is for, said in plain words.
_WARNED_OF = re.compile(
    r"\bdeprecation (?:warnings?|notices?|messages?)\s+(?:for|on|to|about|when using)\s+(.+)$",
    re.I,
)
#: A deprecated version of something: "v1 of Int4WeightOnlyConfig".
_OLD_VERSION = re.compile(r"^(?:the )?(v\d+|version \d+) of (\S.*)$", re.I)


def _speed(c: Context) -> Action | None:
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


#: What a revert's description says the change it takes back did: "caused X to fail".
_BROKE = re.compile(r"\b(?:caus(?:ed|ing|es)|broke|broken|breaks|breaking|regress\w*)\b", re.I)


def _revert(c: Context) -> Action | None:
    item = next((i for i in c.items if i.kind == "revert"), None)
    if item is None or not item.code_lines:
        return None  # a revert of tests, CI or docs: nothing users build on came back out
    if _MENDS.search(_QUOTED_TITLE.sub("", item.pull.title)):
        return None  # "revert #7757 to fix a regression": the revert is the fix to take
    if _BROKE.search(item.summary) and SEVERE.search(claimed(item.summary)):
        return None  # "reverts a change … that caused `astro build` to fail": the fix
    if _WORDING.search(item.pull.title):
        return None  # "Revert 'Fix duplicated words in v1 comments'": no one builds on it
    others = [i for i in c.day if i.kind != "revert" and not reverts_item(item, i)]
    if any(_redoes(other, item) for other in others):
        return None  # done again another way the same day: nothing to wait for
    if _removes(item):
        text = (
            f"Hold off on moving away from {thing_of(item)} in {c.audience_of(item)}: its "
            "removal was reverted, so wait until it lands again"
        )
    else:
        text = (
            f"Hold off on building on {thing_of(item)} in {c.audience_of(item)}: it was "
            "reverted, so wait until it lands again"
        )
    return c.act("Hold", text, Urgency.MONITOR, (item,))


#: A change to how the code or its docs read, not to what it does.
_WORDING = re.compile(
    r"\b(?:comments?|typos?|spelling|wording|docstrings?|docs|documentation|words)\b", re.I
)


def _redoes(other: Item, revert: Item) -> bool:
    """True when ``other`` does again what ``revert`` took back, another way: its title
    shares three or more of the reverted title's words, and half of them or more ("Emit
    folding ranges for an entire block" after "Revert 'Emit folding ranges for block
    headers'")."""
    taken = _words(reverted_title(revert))
    shared = taken & _words(other.headline_title)
    return len(shared) >= 3 and len(shared) >= len(taken) / 2


def _words(title: str) -> set[str]:
    """The words of ``title`` (a plural as its singular), without those any title may use."""
    return {w.removesuffix("s") for w in re.findall(r"[a-z0-9]+", title.lower())} - _FILLER_WORDS


#: Words every title may use: they say nothing of what two changes share.
_FILLER = "the a an of for in on to from with and or by fix add support"
_FILLER_WORDS = frozenset(_FILLER.split())


def _reland(c: Context) -> Action | None:
    item = next((i for i in c.items[:2] if i.kind == "reland"), None)
    if item is None:
        return None
    return c.act(
        "Re-test",
        f"Re-test what you run on {c.audience_of(item)} with {thing_of(item)}: it is back "
        "after an earlier revert",
        Urgency.PLAN,
        (item,),
    )


#: A fix's subject that names what users hit ("a panic in X", "incorrect schema order for
#: Y", "missing memory barrier for Z"): a reader can tell whether it is theirs.
_FAULT_NAMED = re.compile(
    r"^(?:(?:an?|the)\s+)?(?:[\w.'-]+\s+){0,3}?(?:(?:panic|crash|hang|deadlock|leak|race|"
    r"overflow|segfault|error|regression|failure|bug)(?:e?s)?|incorrect|wrong|missing|broken|"
    r"invalid|spurious|false|duplicated?|infinite|stale|lost|unexpected|unhandled|undefined|"
    r"inconsistent|corrupt\w*|out[- ]of[- ]bounds|use[- ]after[- ]free|nan)\b",
    re.I,
)


#: Words that name a fault by what is wrong with a thing ("missing memory barrier"): its
#: noun, if singular, takes an article.
_FAULTY = re.compile(
    r"^(?:missing|broken|invalid|spurious|duplicated?|stale|unexpected|unhandled|infinite|"
    r"incorrect|wrong|inconsistent|undefined)\s",
    re.I,
)


def _counted(fault: str) -> str:
    """``fault`` with the article its noun takes: ``missing memory barrier for X`` -> ``a
    missing memory barrier for X``; ``wrong results`` as it is."""
    if not _FAULTY.match(fault):
        return fault
    head = re.split(r"\s(?:for|in|on|of|with|when|after|during|from|to|at|by|that|which)\s", fault)
    noun = head[0].split()[-1]
    if noun.endswith("s") or noun.lower() in ("behaviour", "behavior", "data", "output"):
        return fault
    return _one(fault)


def _one(noun_phrase: str) -> str:
    """``noun_phrase`` after the indefinite article its first letter takes: "an accuracy
    regression", "a panic"."""
    return f"{'an' if noun_phrase[0].lower() in 'aeiou' else 'a'} {noun_phrase}"


#: A fix told as what no longer happens, as the fault users hit.
_STOPPED_FAULT = {
    "no longer panics": "a panic",
    "no longer crashes": "a crash",
    "no longer hangs": "a hang",
    "no longer deadlocks": "a deadlock",
    "no longer leaks": "a leak of",
    "no longer fails": "a failure",
    "no longer errors": "an error",
    "no longer segfaults": "a segfault",
}


def _hit_by(c: Context) -> tuple[str, bool]:
    """Who a fix is for, as what they hit, and whether that names the fault itself: the
    fault its title names, where it was when that is a named place (``a missing barrier
    in ET-VK``, True), else the fault its text names where it was (``a leak in the
    runtime``, False), or ``("", False)`` when neither can be said."""
    lead = c.lead
    thing = thing_of(lead)
    phrase = phrase_of(lead)
    fixing = phrase.verb in ("fixes", "avoids", "prevents", "resolves", "corrects", "")
    full = plain(phrase.thing())
    if stopped := _STOPPED_FAULT.get(phrase.verb):  # "no longer panics for `uv init /`"
        full = f"{stopped} {plain(phrase.rest)}"
        thing = fit(full, THING_LIMIT, phrases_only=True)
        fixing = bool(thing) and phrase.rest[:1].islower()
    if fixing and _FAULT_NAMED.match(thing) and not thing.startswith(BY_NUMBER):
        # What was hit, not how the fix ends it ("panics in X via cycle detection").
        hit = re.split(r"\s(?:via|by|using|through)\s", thing, maxsplit=1)[0]
        while ends_dangling(hit) and " " in hit:  # "errors when" before "using X"
            hit = hit.rsplit(" ", 1)[0]
        hit = _counted(hit)
        bare = re.match(r"(?:an? )?(?P<what>.+\b(?:bug|issue|problem))$", hit)
        if bare and (seen := symptom(claimed(lead.summary))) and "bug" not in seen:
            # "an Adreno 740 bug" says where, not what users saw: "wrong results from …".
            hit = f"{seen} from the {bare['what']}"
        where = c.audience.removeprefix("the ")
        whole = hit.lower() == _counted(full).lower()  # never after a cut ("on aliased")
        if c.audience != repo_name(c.story) and where.lower() not in hit.lower() and whole:
            hit = f"{hit} in {c.audience}"  # "… on aliased tensors in the Vulkan backend"
        return hit, True
    if fixing and (named := _FAULT_LAST.match(full)) and not thing.startswith(BY_NUMBER):
        # "int8 quantization accuracy regression from X": an accuracy regression in int8
        # quantization from X.
        fault = named["fault"].lower()
        fault = fault if fault.endswith("s") else _one(fault)
        told = fit(f"{fault} in {named['what']}{named['rest']}", 100, phrases_only=True)
        if told:
            return told, True
    text = claimed(f"{lead.pull.title}\n{lead.summary}")
    # A result it had wrong is grave, though the title never says "wrong" ("do not reverse").
    if (GRAVE.search(text) or WRONGLY.search(text)) and (fault := symptom(text)):
        # When users hit it, as the title or description says: "wrong results when sorting
        # with all-null key columns", "a failed install when too many hardlinks were created".
        if when := _WHEN_HIT.search(full) or _CASE_HIT.search(lead.summary):
            scoped = f"{fault} when {when['when'].rstrip('. ')}"
            # Never the title again, whole ("a crash when the gauge reads NaN").
            if plain(tidy(lead.headline_title)).lower() not in scoped.lower():
                return scoped, True
        return f"{fault} in {c.audience}", False
    return "", False


#: When a fix's title says users hit its fault: "… when sorting with all-null key columns".
_WHEN_HIT = re.compile(r"\b(?:when|while) (?P<when>[^,;:()]{8,70})$")
#: The same, as a description says it: "handles the case where too many hardlinks were
#: created".
_CASE_HIT = re.compile(r"\bthe case (?:where|when) (?P<when>[^,;:()]{8,70}?)(?: and\b|[,.;]|$)")


#: A fix's subject that names its fault after what it hit ("int8 quantization accuracy
#: regression from v2 migration", "scheduler deadlock on shutdown").
_FAULT_LAST = re.compile(
    r"^(?P<what>(?:[\w.`-]+\s+){0,5}?[\w.`-]+)\s+(?P<fault>(?:accuracy |performance |memory )?"
    r"(?:regression|crash|panic|hang|deadlock|leak|race|segfault|overflow)s?)\b(?P<rest>.*)$",
    re.I,
)


def _fix(c: Context) -> Action | None:
    """A fix of what users hit (a crash, a wrong result, a hang): who hit it upgrades to the
    release that carries it, or re-tests where it was when what they hit cannot be named."""
    if c.lead.kind != "fix" or not SEVERE.search(claimed(f"{c.lead.pull.title}\n{c.lead.summary}")):
        return None
    if phrase_of(c.lead).verb == "reverts":
        return None  # a fix taken back brings its fault back: no one upgrades for it
    urgency = Urgency.PLAN if c.rank < 2 else Urgency.MONITOR
    repo = repo_name(c.story)
    hit, says_what = _hit_by(c)
    carries = f"it carries the fix \u2018{plain(tidy(c.lead.headline_title)).rstrip('.')}\u2019"
    if hit:
        # "a leak in the runtime" says where, not what: the change's own clause says what.
        told = "" if says_what else f"{c.clause_of(c.lead, carries)}, "
        now, then = (told, told) if told else ("the fix is ", "the fix was ")
        if c.released and c.carried is not None and c.lead.pull.number in c.carried:
            step, why = f"Take {c.released}, out today,", f"{now}listed in its notes"
        elif c.released and c.carried is not None:
            step = f"Take the {repo} release after {c.released} when it is out"
            why = f"{then}merged after the notes of {c.released} were written"
        elif c.released:
            step, why = f"Take {c.released} or later", f"{then}merged the day it was cut"
        else:
            step = f"Take the next {repo} release when it is out"
            why = f"{now}merged and not yet released"
        if hit.startswith("a security hole"):
            # No one "hits" an advisory: everyone who runs the code takes the fix, soon.
            soon = step.replace(" when it is out", " as soon as it is out")
            soon = soon if soon != step else f"{step.rstrip(',')} soon"
            text = f"{soon}: it carries a security fix; {lower_first(why)}"
            return c.act("Re-test", text, Urgency.IMMEDIATE, (c.lead,))
        if hit.startswith(("a memory-safety bug", "undefined behaviour")):
            # No one sees memory go wrong until it is damaged: whoever runs the code takes it.
            fault = hit.removesuffix(f" in {c.audience}")
            text = f"{step} if you use {c.audience}: it fixes {fault}; {lower_first(why)}"
            return c.act("Re-test", text, urgency, (c.lead,))
        # Where the fault is said only as the project's, who uses what it touches says more.
        who = "" if says_what else who_uses(c.lead, repo, c.audience)
        condition = f"you have hit {hit}"
        if who:  # "if you use biome on Svelte files and have hit a crash there"
            fault = hit.removesuffix(f" in {c.audience}")
            have = "you have" if who.startswith("your ") else "have"
            condition = f"{who} and {have} hit {fault} there"
        # The fix alone: what else its story tells is no reason to upgrade.
        return c.act("Re-test", f"{step} if {condition}: {why}", urgency, (c.lead,))
    told = c.clause_of(c.lead, carries)
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
            f"Re-test what you run on {c.audience} with the next {repo} release: {told}, "
            "merged and not yet released"
        )
    return c.act("Re-test", text, urgency, weak=True)  # no fault a reader could recognise


#: Each recipe turns a fact of the day into an instruction; a day whose facts support no
#: instruction gets none from here (see :func:`watch_action`): never a template.
_RECIPES: tuple[Recipe, ...] = (
    _release,
    _platform_dropped,
    _breaking,
    _removal,
    _deprecation,
    _requirement,
    stable,
    _revert,
    _reland,
    _speed,
    new_default,
    _disables,
    support,
    feature,
    _fix,
)


_STRONG_RECIPES = (
    _release,
    _platform_dropped,
    _breaking,
    _removal,
    _deprecation,
    _requirement,
    stable,
    _revert,
    _speed,
)


def _one_upgrade(actions: list[Action], released: dict[str, str]) -> list[Action]:
    """``actions`` with no second item to take a release an upgrade item already asks for
    ("Upgrade tokio to version 1.51.1 …" and "Take version 1.51.1, out today, if you have
    hit …"): the upgrade item rests on the fix's change too."""
    first: dict[str, int] = {}
    for i, action in enumerate(actions):
        if action.verb == "Upgrade" and released.get(action.repo):
            first.setdefault(action.repo, i)
    kept = list(actions)
    dropped: set[int] = set()
    for i, action in enumerate(actions):
        at = first.get(action.repo)
        again = f"Take {released.get(action.repo, '')}, out today,"
        if at is None or i == at or not action.text.startswith(again):
            continue
        upgrade = kept[at]
        merged = (*upgrade.items, *(item for item in action.items if item not in upgrade.items))
        kept[at] = msgspec.structs.replace(upgrade, items=merged)
        dropped.add(i)
    return [action for i, action in enumerate(kept) if i not in dropped]


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
        # Upkeep only: no one's fix rides on it ("Take the release after markdoc@2.0.4").
        and not upkeep_only(release_notes(story.lead.pull))
    }
    released = {repo: _version_name(lead) for repo, lead in releases.items()}
    # What each release's notes say it carries: the pull requests they link.
    carried = {
        repo: frozenset(n for note in notes for n in note.numbers)
        for repo, lead in releases.items()
        if (notes := release_notes(lead.pull))
    }
    told = tuple(item for story in [*leads, *extra] for item in story.items)
    for rank, story in enumerate([*leads, *extra]):
        if len(actions) >= MAX_ACTIONS:
            break
        items = members.get(story) or (story.lead,)
        context = Context(
            story=story,
            items=tuple(items),
            rank=rank,
            released=released.get(story.repo, ""),
            carried=carried.get(story.repo),
            day=told,
        )
        # Past the top three stories, only what a team must act on earns an item.
        for recipe in _RECIPES if rank < 3 else _STRONG_RECIPES:
            drafted = recipe(context)
            if drafted is not None and drafted.verb not in used:
                used.add(drafted.verb)
                actions.append(drafted)
                break
    actions = _one_upgrade(actions, released)
    # An item any change would have is kept only when the day has no better one: a fix of
    # what users hit, told further down, is one ("fixes X dropping configs that fail").
    strong = [action for action in actions if not action.weak]
    # What someone must do comes alone: an invitation to try something new beside it is
    # one item too many for a reader to weigh.
    needed = [action for action in strong if not action.invites]
    for rank, story in enumerate([*leads, *extra][3:] if not needed else [], start=3):
        context = Context(
            story=story,
            items=tuple(members.get(story) or (story.lead,)),
            rank=rank,
            released=released.get(story.repo, ""),
            carried=carried.get(story.repo),
            day=told,
        )
        drafted = _fix(context)
        if drafted is not None and drafted.text.startswith("Take"):  # what users hit, named
            return [drafted]
    return needed or strong or actions[:1]


#: Why a change of each kind may reach users, for a day with nothing else to act on.
_REACH = {
    "feature": "it adds something users can call",
    "perf": "it changes the speed of code users run",
    "fix": "it fixes a bug users may have hit",
    "breaking": "it changes what users call",
    "refactor": "it reworks code that others build on",
    "docs": "it changes what the documentation tells users",
    "revert": "it takes back a change users may have started to build on",
}


#: What a change touches, and what its users run again after it: the speed of what a
#: compiler, autotuner or kernel produces; what a formatter writes; what a checker reports.
_RECHECKS = (
    (
        re.compile(
            r"autotun|heuristic|codegen|lowering|inductor|fusion|kernel|schedul|allocator|caching",
            re.I,
        ),
        "Re-benchmark",
        "Re-benchmark {what} when the next {name} release is out: {who} may change their speed",
    ),
    (
        # A formatter, its formatting, or a change scoped to it: "(format)", not "format chars".
        re.compile(r"(?:\b|_)format(?:ter|ting)\b|[(\[]format[)\]]", re.I),
        "Review",
        "Review what {name} format changes in your code after the next {name} release: {who} "
        "may change its output",
    ),
    (
        re.compile(r"\blint|\brules?\b|diagnostic|type ?check|narrow|\binfer", re.I),
        "Review",
        "Review what {name} reports on your code after the next {name} release: {who} may "
        "change its results",
    ),
)


def _change_said(said: str, about: str = "the change to") -> str:
    """A change as a noun, from ``said``, its predicate: "the change that fixes X"; "is pull
    request #7" gives "pull request #7", "is about X" gives "the change to X" (``about``)."""
    if not said.startswith("is "):
        return f"the change that {said}"
    thing = said.removeprefix("is ")
    if thing.startswith("about the change "):
        return thing.removeprefix("about ")  # "about the change to invert X": said once
    return thing.replace("about ", f"{about} ", 1)


def _recheck(item: Item, name: str, said: str) -> tuple[str, str] | None:
    """What users of ``name`` run again once ``item`` ships, by what its title, area and
    place say it touches (verb, text), or None. Fixes and features of a known kind only."""
    if item.kind not in ("feature", "fix", "perf", "refactor"):
        return None
    who = _change_said(said)
    where = f"{item.pull.title} {item.area} {item.facts.place}"
    # Something added (a function, a kernel) leaves the speed of what users run as it was;
    # a check added may still change what a checker reports.
    # (As its title says it: "Autotuner heuristics" is told as added, yet reworks a part.)
    adds = item.kind == "feature" and parse_title(tidy(item.headline_title)).verb in ADDS
    # A message reworded or an overflow mended leaves the speed of what users run as it was.
    no_speed = adds or bool(_NOT_SPEED.search(item.pull.title))
    # Only a change made for speed is re-benchmarked (an autotuner's choices are speed): a
    # refactor or a fix of a kernel leaves "may change their speed" a guess.
    tunes = re.search(r"autotun|heuristic", where, re.I)
    no_speed = no_speed or (item.kind != "perf" and not tunes)
    for pattern, verb, text in _RECHECKS:
        if (found := pattern.search(where)) and not (no_speed and verb == "Re-benchmark"):
            # Named only in words the change itself uses (what an item says is checked).
            text_of = f"{where} {item.summary} {' '.join(f.path for f in item.pull.files)}"
            what = next(
                (
                    runs
                    for word, runs, needs in _WORKLOADS
                    if word.match(found[0]) and all(n in text_of.lower() for n in needs)
                ),
                "your workloads",
            )
            return verb, text.format(name=name, who=who, what=what.format(name=name))
    return None


#: A change to what users read or to a fault, not to the speed of anything.
_NOT_SPEED = re.compile(
    r"\b(?:error|warning|log|exception)s? messages?\b|\bmessages?\b|\bwording\b|\btypos?\b"
    r"|overflow|\bcrash\w*|\bpanic\w*|\bnan\b|\bdtypes?\b",
    re.I,
)


#: What a user runs that a change of each part touches, by the word that named the part.
_WORKLOADS = (
    (
        re.compile(r"autotun|heuristic", re.I),
        "the kernels you autotune with {name}",
        ("kernel", "autotune"),
    ),
    (
        re.compile(r"codegen|lowering|inductor|fusion", re.I),
        "the models you compile with {name}",
        ("model", "compile"),
    ),
    (re.compile(r"kernel", re.I), "the kernels you run with {name}", ("kernel",)),
)


def plain_watch(item: Item, name: str) -> Action:
    """The last resort of a day whose every drafted item broke a rule: watch ``item`` by its
    number (or the change's short sha), in words every edition may use."""
    named = f"pull request #{item.pull.number}" if item.pull.number else "the day's lead change"
    text = (
        f"Watch for {named} in the next {name} release: of the day's changes it is the one "
        "most likely to reach users"
    )
    return Action("Watch", text, Urgency.MONITOR, (item,), item.pull.repo)


#: What a reader who uses what a change touches does when the next release is out, by the
#: change's kind.
_NEXT_STEP = {
    "fix": "take the next {name} release when it is out",
    "feature": "try the next {name} release when it is out",
    "perf": "benchmark your code again on the next {name} release",
}
#: What to do about a feature that changes how something behaves rather than adding a
#: capability ("treats enum hooks conservatively", "truncates the list of files").
_CHECK_STEP = "check what it changes for you in the next {name} release"


def watch_action(item: Item, name: str, changes: int, audience: str = "") -> Action:
    """The one item of a day whose facts support no instruction: watch for ``item``, the
    change most likely to reach users of the repository written ``name``, and say why;
    addressed to who uses what it touches (see :func:`who_uses`; ``audience``, the area
    its story names) when that can be told."""
    why = _REACH.get(item.kind, "it changes how the project is built or tested")
    hit = symptom(f"{item.pull.title}\n{item.summary}") if item.kind == "fix" else ""
    if item.facts.reconfigures:
        why = "it changes the options users set"
    elif hit:
        why = f"it fixes {hit} users may have hit"
    elif (
        item.kind == "feature"
        and item.facts.names
        and phrase_of(item).verb in CAPABILITY
        # What it adds is the thing named, not more of what it has ("more derives for X").
        and re.match(
            rf"(?:(?:a|an|the|new)\s+)*{re.escape(plain(item.facts.names[0]))}(?!\w)",
            plain(thing_of(item)),
        )
    ):
        why = f"it adds {plain(item.facts.names[0])}, which users can call"
    elif (
        item.kind == "feature"
        and phrase_of(item).verb in CAPABILITY
        and (test := tested_in(item, use="use"))
    ):
        why = test  # code to read, where nothing is named
    elif item.kind == "feature":
        why = ""  # nothing named a user could call: no reason beyond its rank is said
    among = "the day's one change" if changes == 1 else f"the day's {say_count(changes, 'change')}"
    phrase = phrase_of(item)
    said = plain(phrase.predicate())
    if not phrase.verb or plain(tidy(item.headline_title)).lower() in said.lower():
        thing = thing_of(item)  # never the title again, whole
        said = f"is {thing}" if thing.startswith(BY_NUMBER) else f"is about {thing}"
    if item.kind in ROUTINE_KINDS and item.kind != "refactor":
        # Documentation, tests and upkeep only: say so, rather than make one of them news.
        text = (
            f"Skip today's {name} changes if you only use {name}: none of {among} "
            f"touches what users run; the one most likely to is {_change_said(said)}"
        )
        if changes == 1:
            text = (
                f"Skip today's {name} change if you only use {name}: it changes "
                f"nothing users run (it {said})"
            )
        return Action("Skip", text, Urgency.MONITOR, (item,), item.pull.repo)
    who = ""
    if item.kind in _NEXT_STEP and not said.startswith("is ") and phrase.verb != "reverts":
        who = who_uses(item, name, audience, adds=phrase.verb in CAPABILITY)
    if told := described(item):  # what its description says it lets users do
        text = f"Watch for {_change_said(said)} in the next {name} release: {told}"
        if who:
            text = f"If {who}, watch for {_change_said(said)} in the next {name} release: {told}"
    elif page := shown_in(item):  # where the change tells users what it means for them
        change = _change_said(said, about="the change about")
        shows = "shows how to use" if page.startswith("the example") else "documents"
        text = f"Read {page} before the next {name} release: it {shows} {change}"
        if who:
            text = f"If {who}, {lower_first(text)}"
    elif recheck := _recheck(item, name, said):  # what to run again, by what it touches
        return Action(recheck[0], recheck[1], Urgency.MONITOR, (item,), item.pull.repo)
    elif who:  # who it concerns, what they do, and what the change does for them
        step = _NEXT_STEP[item.kind]
        if item.kind == "feature" and phrase.verb not in CAPABILITY:
            step = _CHECK_STEP
        text = f"If {who}, {step.format(name=name)}: it {said}"
        if unstable := unstable_home(item):
            text = f"{text}; it lands in {unstable}, so it may still change"
    elif changes == 1:
        text = f"Watch for {_change_said(said)} in the next {name} release"
        text = f"{text}: {why}" if why else text
        return Action("Watch", text, Urgency.MONITOR, (item,), item.pull.repo, weak=True)
    else:
        text = (
            f"Watch for {_change_said(said)} in the next {name} release: of {among} it is "
            f"the one most likely to reach users"
        )
        if why:  # "…, as it fixes a bug"; a test that shows it is a pointer, not a cause
            pointer = why.startswith(("the tests it", "its tests in"))
            text = f"{text}; {why}" if pointer else f"{text}, as {why}"
        return Action("Watch", text, Urgency.MONITOR, (item,), item.pull.repo, weak=True)
    verb = "Read" if text.startswith("Read ") else "Watch"
    return Action(verb, text, Urgency.MONITOR, (item,), item.pull.repo)
