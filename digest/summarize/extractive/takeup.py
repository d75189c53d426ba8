"""Action items for something new: how a user takes it up (enable a rule, set a
variable, run a command, call a function, try it), and why now."""

from __future__ import annotations

import re

from digest.models import Urgency
from digest.summarize.base import Item
from digest.summarize.checks import terms_of
from digest.summarize.classify import path_kind, split_title
from digest.summarize.extractive.audience import who_uses
from digest.summarize.extractive.drafting import (
    BY_NUMBER,
    CAPABILITY,
    FILE_END,
    Action,
    Context,
    thing_of,
)
from digest.summarize.phrasing import lower_first, plain
from digest.summarize.sentences import retell, stands_alone
from digest.summarize.stories import phrase_of, repo_name, tidy
from digest.summarize.verbs import ACTION_VERBS, BASE_FORMS, NON_VERB_OPENERS, gerund_of


def support(c: Context) -> Action | None:
    supporting = tuple(i for i in c.items if i.kind == "feature" and i.facts.new_support)
    if c.lead.kind != "feature" or not supporting:
        return None
    lead = supporting[0]
    if thing_of(lead).startswith(BY_NUMBER):
        return None  # "Try pull request #7992" tells a reader nothing to try
    return _invitation(c, lead, supporting)


def stable(c: Context) -> Action | None:
    """A feature made stable: adopt it, or drop the opt-in it needed, with the next release."""
    lead = c.lead
    if lead.kind != "feature" or not lead.facts.stabilizes:
        return None
    thing = thing_of(lead)
    if thing.startswith(BY_NUMBER) or len(thing.split()) > 8:
        return None
    text = (
        f"Plan to adopt {thing}, or drop the preview or unstable opt-in you use it with, "
        f"when the next {repo_name(c.story)} release is out: it is stable on the main branch now"
    )
    return c.act("Plan", text, Urgency.PLAN if c.rank < 2 else Urgency.MONITOR)


#: How a title says a default: "by default", "as default", "as the default".
_BY_DEFAULT = re.compile(r"\s*\b(?:by|as(?: the)?) default\b", re.I)
#: A title that turns something on or off by default: "Enable X by default", "Don't X".
_TURNED = re.compile(
    r"^(?:(?P<on>enable[sd]?|turn(?:s|ed)? on|switch(?:es|ed)? on|use[sd]?|default to)|"
    r"(?P<off>disable[sd]?|switch(?:es|ed)? off|"
    r"turn(?:s|ed)? off|do not|don't|no longer|stop"
    # "make `x` ignored by default": what it makes so is turned off.
    r"|make[sd]?(?= \S+ (?:ignored|silent|hidden|disabled|opt-in)\b)))\b",
    re.I,
)


def new_default(c: Context) -> Action | None:
    """A default turned on ("Enable fused QKV by default"): nothing to take up, but what
    users run changes when they update: re-test it."""
    lead = c.lead
    if lead.kind not in ("feature", "perf") or not _BY_DEFAULT.search(lead.pull.title):
        return None
    turned = _TURNED.match(lead.headline_title)
    if turned is None:
        return None  # "Prefetch images by default": what it does says too little
    state = "off" if turned["off"] else "on"
    thing = thing_of(lead)
    thing = re.sub(r"^(?:on|off)\s+", "", _BY_DEFAULT.sub("", thing).strip())  # "turn on X"
    if turned["off"]:
        thing = plain(lead.headline_title[turned.end() :]).strip()
        thing = _BY_DEFAULT.sub("", thing).strip()
        thing = re.sub(r"\s+(?:ignored|silent|hidden|disabled|opt-in)$", "", thing)
    if not thing or thing.startswith(BY_NUMBER):
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
    return phrase.verb in CAPABILITY and not phrase.instruction


def feature(c: Context) -> Action | None:
    """A new capability users call by name (an API, a flag, an option): try it. A feature
    without a name a user could type is news, not an instruction."""
    lead = c.lead
    if lead.kind not in ("feature", "reland") or not _new(lead) or not named(lead):
        return None
    if c.thing.startswith(BY_NUMBER):
        return None  # "Try pull request #7992" tells a reader nothing to try
    return _invitation(c, lead)


def _invitation(c: Context, lead: Item, items: tuple[Item, ...] = ()) -> Action | None:
    """The item inviting users to take up ``lead``, new in ``c``'s story, resting on ``items``
    (default: the story's cited ones); None when it says nothing of why and its title names
    no thing a user could try."""
    if _MORE_OF.match(plain(thing_of(lead))):
        return None  # "adds more derives for X": more of what was there is nothing to try
    verb, text = _try_it(c, lead)
    urgency = Urgency.PLAN if c.rank < 2 else Urgency.MONITOR
    told = verb in ("Enable", "Re-export") or _reasoned(lead)  # who, what and why
    if not told and not _names_a_thing(thing_of(lead)):
        return None  # "Try the new error on unsupported --cert": a title, not a thing
    return c.act(verb, text, urgency, items, weak=not told, invites=True)


_MORE_OF = re.compile(r"(?:more|less|fewer|additional|extra|further|several|some)\b", re.I)


#: What a new thing is, by its title and name, and how a user takes it up: a lint rule is
#: enabled, a setting set, a command run, a function called; anything else tried.
RULE = re.compile(
    # "a lint rule", "the nursery rule", "rule for X": not "gated delta rule custom op".
    r"\b(?:lint|linter|nursery|new|the|an?|\w+ing) rules?\b|^rules?\b|\brules? (?:for|to|that)\b"
    r"|`[^`]+` rules?\b|\b[a-z]+[A-Z]\w* rules?\b"
    r"|^`?(?:no|use)[A-Z]\w+`?$|\(`?[A-Z]{1,4}\d{3,4}`?\)"
)
SETTING = re.compile(
    r"\b(options?|flags?|settings?|environment variables?|env vars?|config(?:uration)? keys?)\b"
    r"|(?<![\w-])--[a-z][\w-]+|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"
)
_SETTING_NAME = re.compile(r"(?<![\w-])--[a-z][\w-]+|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")
_ENV_NAME = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")


def _sets(head: str, repo: str) -> bool:
    """True when ``head``, a new thing, is a setting a user sets: said to be one (an option,
    a flag, a variable), or named as the project names its variables (``UV_NO_PROJECT`` in
    uv); a constant such as ``SO_ERROR`` is no setting of theirs."""
    without = _ENV_NAME.sub("", head)
    if SETTING.search(without):
        return True
    prefix = re.sub(r"\W", "", repo).upper()
    return any(name.startswith(f"{prefix}_") for name in _ENV_NAME.findall(head))


_COMMAND = re.compile(r"\b(commands?|subcommands?)\b")
_CALLABLE = re.compile(
    r"^`?[A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)+" + FILE_END + r"(?:\(\))?`?$"
    r"|^`?[A-Za-z_]\w*\(\)`?$"
)


def _added_for(thing: str, verb: str) -> str:
    """``thing``, what a change adds, with where it is added said as what it is for: "X to
    unix::pipe types" -> "X for unix::pipe types" (not "to support X": a purpose stays)."""
    if verb not in ("adds", "introduces", "exposes") or " to " not in thing:
        return thing
    what, where = thing.split(" to ", 1)
    if where.split(" ", 1)[0].lower() in BASE_FORMS or not _ADDED_THING.search(what):
        return thing  # "to support X": a purpose; "a PyTorch to ExecuTorch mapping": a name
    return f"{what} for {where}"


#: What a change adds to something else: a function, an op, an option ("X method to Y").
_ADDED_THING = re.compile(
    r"(?:\b(?:functions?|methods?|ops?|operators?|class(?:es)?|fields?|attributes?|"
    r"propert(?:y|ies)|parameters?|arguments?|options?|flags?|helpers?|hooks?|variants?|"
    r"apis?|support)|[`'])$",
    re.I,
)


def _try_it(c: Context, item: Item) -> tuple[str, str]:
    """How a user takes up the new thing ``item`` adds, and why now: (verb, text)."""
    thing = _added_for(thing_of(item), phrase_of(item).verb)
    title = f"{item.pull.title} {thing}"
    why = _why_new(item)
    repo = repo_name(c.story)
    if re.match(r"(on|for|in|to|via|with|at)\b", thing) and item.area:
        # "float8: enable on ROCm": what is new is float8 on ROCm.
        return "Try", f"Try {item.area} {thing} in {c.audience}: {why}"
    # "Add fix for `X` (`RUF036`)": an autofix for a rule users have, not a rule to enable.
    autofix = re.match(r"(?:an? |the )?(?:auto)?fix(?:es)? for\b", plain(thing), re.I)
    # A rule the change adds, not one whose behaviour it changes ("Allow subclassing
    # builtins in stub files (FURB189)": FURB189 was there before).
    if (
        (RULE.search(title) or RULE.search(thing))
        and not autofix
        and (re.search(r"\brules?\b", title, re.I) or phrase_of(item).verb in _ADDS_A_RULE)
    ):
        thing = re.split(r",? (?:which|that) ", thing, maxsplit=1)[0]  # what it checks: below
        rule = thing if re.search(r"\brules?\b", thing) else f"{thing} rule"
        if checks := _rule_checks(item):  # what it reports is why a team turns it on
            why = f"it {checks}, from the next release"
        return "Enable", f"Enable {the_new(rule)} in your {repo} configuration: {why}"
    head = re.split(r" (?:to|in|for|on|of) (?!`?[A-Z][A-Z0-9]*_)", thing, maxsplit=1)[0]
    if passed := _PARAMETER.match(plain(thing)):  # "infer_schema_files parameter to scan_csv"
        name, kind, target = passed.group("name", "kind", "target")
        return "Pass", f"Pass {the_new(f'{name} {kind}')} to {target} where you need it: {why}"
    # A setting is what is new only when the thing added is one ("an environment variable
    # for X", "`--dry-run` flag"), not "TOML examples to `--config` help text".
    if SETTING.search(head) and _sets(head, repo):
        named = _SETTING_NAME.search(plain(thing))
        # "the new TY and RUFF env vars" (for providing …: what they are for is said after).
        said = head if re.match(r" for \w+ing\b", thing[len(head) :]) else thing
        setting = named[0] if named else the_new(said)
        # "`--find-links` support for `uv pip list`": a flag that command now takes.
        if command := _FLAG_FOR_COMMAND.search(item.pull.title):
            flag, run = command.groups()
            return "Pass", f"Pass {flag} to {run} where you need it: {why}"
        return "Set", f"Set {setting} where you run {c.audience}: {why}"
    if exported := _re_export(c, item, thing):
        return "Re-export", exported
    if _KERNEL.search(head):  # a kernel is taken up for speed: measured against one's own
        return "Benchmark", f"Benchmark {the_new(thing)} against what you run now: {why}"
    if hardware := _HARDWARE.search(thing):
        return "Test", f"Test {the_new(thing)} on your {hardware[1]} machines: {why}"
    if _COMMAND.search(title):
        return "Run", f"Run {the_new(thing)} from {c.audience}: {why}"
    # Code that calls a function uses the package, not a tag's bare area ("task").
    user = c.audience if c.audience[:1].isupper() or " " in c.audience else repo
    if _CALLABLE.match(thing):
        return "Call", f"Call {thing} in code that uses {user}: {why}"
    if _SNAKE.fullmatch(head) and f"`{head}`" in item.pull.title:
        # "`trace_with` for customized task dumps": a function, as code names one.
        return "Call", f"Call {thing} in code that uses {user}: {why}"
    text = f"Try {the_new(thing)} in {c.audience}: {why}"
    if re.search(rf"\b{re.escape(c.audience)}\b", thing):
        text = f"Try {the_new(thing)}: {why}"  # "the new MTP module … in MTP": where, once
    if user := supported_users(item):  # "support for typing_extensions.Sentinel"
        text = f"If {user}, {lower_first(text)}"
    elif who := who_uses(item, repo, c.audience, adds=True):
        if c.audience != repo:  # who it is for says where: "If you use tokio's net module"
            text = text.replace(f" in {c.audience}: ", ": ", 1)
        text = f"If {who}, {lower_first(text)}"  # nothing says what it does: say for whom
    return "Try", text


#: The verbs of a title that brings a new rule.
_ADDS_A_RULE = frozenset({"adds", "implements", "introduces", "creates", "ports"})
_KERNEL = re.compile(r"\bkernels?\b", re.I)
#: What a backend gains to run more of a model: an op, its lowering, a dtype for ops.
_OP_ADDED = re.compile(r"\b(?:ops?|operators?|dtypes?)\b|\baten\.\w", re.I)
#: The op a title names: ``aten.view_copy``, a code span, ``quantized_div``, ``RESIZE`` (not
#: a backend's initials before its own word: "QNN HadamardTransform"), or the word a title
#: adds as an op ("Add cat op"; not "Add TOSA dialect shape ops": a kind of op).
_OP_NAME = re.compile(
    r"\b(aten\.[\w.]+)|`([^`]+)`|\b([a-z][a-z0-9]*_[a-z0-9_]+)\b"
    r"|\b([A-Z]{3,}[A-Z0-9_]*)\b(?! backend| delegate| [A-Z][a-z])"
    r"|^(?i:add|support|implement|introduce)s?\s+(?:an?\s+)?([a-z][\w-]+)\s+(?:op|operator)s?\b"
)
#: A backend a title names after a preposition: "Support cosine operator on XNNPACK".
_ON_BACKEND = re.compile(r"\b(?:on|for|to|in) (?:the )?([A-Z][A-Za-z0-9-]+)(?: backend)?\b")
#: Short words titles write in capitals that name no op.
_NOT_AN_OP = frozenset({"TOSA", "MLIR", "API", "CPU", "GPU", "AOT", "JIT", "INT", "FP"})


def _re_export(c: Context, item: Item, thing: str) -> str:
    """For a backend of a project whose models are exported to backends (its code sits in
    ``backends/``) that gains an op: re-export the models that use it once it ships; ``""``
    when the change adds no op or names no backend."""
    title = item.headline_title
    if not _OP_ADDED.search(f"{title} {thing}") or not any(
        "backends/" in f.path for f in item.pull.files
    ):
        return ""
    backend = c.audience if c.audience.endswith(" backend") else ""
    if not backend and (on := _ON_BACKEND.search(title)) and on[1] not in _NOT_AN_OP:
        backend = on[1]
    if not backend and item.area[:1].isupper():
        backend = item.area  # "Cadence: Support quantized_w8a32_conv"
    # The most name-like first: ``aten.x``, a code span, a snake_case name, a word in capitals
    # ("a tosa-dialect op for SLICE" is SLICE), then the word a title adds as an op.
    found = [
        (match.lastindex or 0, match[match.lastindex or 0])
        for match in _OP_NAME.finditer(title)
        if not (match[4] and (match[4] in _NOT_AN_OP or match[4] in backend))
    ]
    ops = [name for _, name in sorted(found, key=lambda pair: pair[0])]
    if not backend or not ops:
        return ""
    said = f"it {plain(phrase_of(item).predicate())}"
    shown = " ".join(split_title(item.pull.title)[1].lower().rstrip(" .").split())
    if shown in " ".join(said.lower().split()):
        said = f"from that release on, {backend} supports it"  # never a whole title again
    op = ops[0].rstrip(".")
    return (
        f"Re-export the models that use {op} for {backend} once the next "
        f"{repo_name(c.story)} release is out: {said}"
    )


#: An existing flag a command now takes: "`--find-links` support for `uv pip list`".
_FLAG_FOR_COMMAND = re.compile(r"`(--[\w-]+)`(?: support)? (?:for|to|in) `([\w-]+ [\w -]+)`")
_SNAKE = re.compile(r"[a-z][a-z0-9]*_[a-z0-9_]+")
#: A new parameter of a function: passed to it.
_PARAMETER = re.compile(
    r"^(?:an? |the )?(?P<name>[\w.`-]+) (?P<kind>parameter|argument|keyword argument|kwarg)s? "
    r"(?:to|for|in|of) (?P<target>[\w.`()-]+(?: \w+)?)$"
)
#: Machines a new thing is for: "qkv-fusion pass for x86", "GroupedExperts on Blackwell".
_HARDWARE = re.compile(
    r"\b(?:on|for)\s+(x86(?:-64)?|aarch64|arm64|ROCm|AMD|Blackwell|Hopper|Ampere|SM\d+\+?|"
    r"H100|H200|B200|GB200|MI\d{3}X?|Apple silicon|Windows|macOS|Linux|CPUs?|GPUs?|TPUs?)\b"
)
#: What a user types: a code span, a call, a flag, a dotted or snake_case name, CamelCase.
_NAMED = re.compile(
    r"`[^`]+`|\b\w+\(\)|(?<!\w)--?[a-z][\w-]+|\b[A-Za-z_]\w*\.[A-Za-z_]\w+|\b[a-z]+_[a-z0-9_]+"
    r"|\b[A-Z][a-z]+[A-Z]\w*"
)


#: What a change supports that users already use: a dotted name, a code span or a PEP.
_SUPPORT_FOR = re.compile(
    r"\bsupport(?:s|ing)? for (?:the )?(`[^`]+`|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|PEP \d+)"
)


def supported_users(item: Item) -> str:
    """Who already uses what ``item`` adds support for, as a clause after "If" (``you use
    typing_extensions.Sentinel``), read from its title, then its description; or ``""``."""
    for text in (item.pull.title, described(item), *retell(item.summary)[:3]):
        if found := _SUPPORT_FOR.search(text):
            return f"you use {plain(found[1])}"
    return ""


def named(item: Item) -> bool:
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
            # More than the title again ("the change adds a pass to replace some ops"); a
            # sentence making the title's claim again says six things more, or is no reason.
            and len(terms_of(said) - terms_of(f"{title} the change"))
            >= (6 if _claims(said, item) else 3)
            and _SAYS_WHAT_IT_DOES.search(said)
            and not _NOT_YET.search(said)
        ):
            return lower_first(said)
    return ""


def _claims(sentence: str, item: Item) -> bool:
    """True when ``sentence`` opens with the verb ``item``'s title opens with ("The change
    adds …" for "Add …")."""
    verb = phrase_of(item).verb
    return (
        bool(verb)
        and re.match(rf"(?:the change |it )?{re.escape(verb)}\b", sentence, re.I) is not None
    )


#: A sentence that says what a change lets users do: "This enables users to move imports",
#: "Adds a flag that …", "X can now …".
_SAYS_WHAT_IT_DOES = re.compile(
    r"\b(enables?|allows?|lets|makes it possible|can now|now (supports?|works?|accepts?|"
    r"handles?|returns?|reports?|runs?))\b"
    r"|^(?:the change )?(adds|supports|introduces|exposes|implements|provides)\b",
    re.I,
)
#: What a description says is still to come or outside the change.
_NOT_YET = re.compile(r"\b(later|future|upcoming|follow-?ups?|not yet|eventually|todo)\b", re.I)


#: Words that make what a title adds a clause, not a thing a user could try ("X when Y",
#: "X and applied to Y", "error on X", "comments to clarify").
_NOT_A_THING = re.compile(
    r"\s(?:when|if|instead|that|which|and \w+ed)\s|^(?:error|errors|comments?|docs?|tests?)\b",
    re.I,
)


def _names_a_thing(thing: str) -> bool:
    """True when ``thing``, what a title adds, is a thing a user could try by its name alone
    ("the quantized_div op", "NVFP4 quantization converter"): a few words, no clause, and
    not opening with a verb ("discover versioned Python executables")."""
    words = plain(thing).split()
    return (
        0 < len(words) <= 8
        and not _NOT_A_THING.search(plain(thing))
        and (words[0].lower() not in BASE_FORMS or words[0].lower() == "support")
    )


def _reasoned(item: Item) -> bool:
    """True when why to take up ``item`` says more than that it is new (and where): what
    its description says it does, or an example, page or test that shows how. (A new lint rule
    needs neither: its name says what it checks, and enabling it is the whole step.)"""
    return bool(described(item) or shown_in(item) or tested_in(item))


#: What a lint rule's description says it reports: "… rule `noX` that disallows raw text
#: outside of `<Text>` components".
_RULE_CHECKS = re.compile(
    r"\brule\b[^.]*?\b(?:which|that),? ((?:disallows|reports|flags|enforces|prefers|"
    r"requires|detects|warns|checks|validates|forbids|catches|suggests)\b[^.]{8,140})",
    re.I,
)


def _rule_checks(item: Item) -> str:
    """What ``item``'s new lint rule checks, as its description says (``disallows raw text
    outside of `<Text>` components``), or ``""``."""
    for sentence in retell(item.summary):
        if found := _RULE_CHECKS.search(sentence):
            return plain(found[1]).rstrip(" .,;")
    return ""


def _why_new(item: Item) -> str:
    """Why trying ``item`` is worth it now, and what to expect: what its description says it
    does, else where it shows how (an example or a page of documentation it adds); and a
    warning when it lands where nothing is promised to stay (``torchao/prototype/mx``)."""
    unstable = unstable_home(item)
    warned = f"; it lands in {unstable}, so it may still change" if unstable else ""
    if said := described(item):
        return f"{said}, on the main branch for the next release{warned}"
    if shown := shown_in(item):
        return f"{shown} shows how, on the main branch for the next release{warned}"
    if test := tested_in(item):
        return f"{test}, on the main branch for the next release{warned}"
    if unstable:
        return f"it lands in {unstable} on the main branch, so it may still change"
    what = "a new public API" if item.facts.api_change else "new"
    return f"it is {what} on the main branch for the next release"


#: A folder of code that comes with no promise to stay.
_UNSTABLE_DIR = re.compile(r"^(?:prototypes?|experimental|experiments|contrib|unstable|labs?)$")


def unstable_home(item: Item) -> str:
    """The experimental folder ``item``'s code mostly lands in (``torchao/prototype/mx``:
    down to the folder under the experimental one), or ``""``."""
    grown = sorted(
        (f for f in item.pull.files if path_kind(f.path.lower()) != "test"),
        key=lambda f: -((f.additions or 0) + (f.deletions or 0)),
    )
    for changed in grown[:1]:
        parts = changed.path.split("/")[:-1]
        for i, part in enumerate(parts):
            if _UNSTABLE_DIR.match(part.lower()):
                return "/".join(parts[: i + 2])
    return ""


def shown_in(item: Item) -> str:
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
    for path in grown:  # a folder's own README, beside the code it explains
        if re.search(r"(^|/)readme\.(md|rst)$", path, re.I) and path_kind(path.lower()) != "test":
            return f"the page {path}"
    return ""


#: The least a test file must grow by to show how a new thing is called.
_TEST_LINES = 15


def tested_in(item: Item, use: str = "call") -> str:
    """The test file that grows most with ``item``, a new thing, when it grows by at least
    ``_TEST_LINES``, as a clause that points to it (``the tests it adds to test/test_ops.py
    show how to call it``, by ``use``): code a user can read to see the new thing at work;
    else ``""``."""
    grown = [
        (f.additions or 0, f.path)
        for f in item.pull.files
        if path_kind(f.path.lower()) == "test"
        and re.search(r"\.(py|rs|ts|js|cpp|cc)$", f.path)
        and (f.additions or 0) - (f.deletions or 0) >= _TEST_LINES
    ]
    if not grown:
        return ""
    path = max(grown)[1]
    # A test file named for what the title names is the new thing's own ("persistent
    # reductions": test_reductions.py); another is told by what the change adds to it.
    stem = re.sub(r"\.\w+$", "", path.rsplit("/", 1)[-1]).lower()
    named = {w[:6] for w in re.findall(r"[a-z]{4,}", item.headline_title.lower())}
    if any(part[:6] in named for part in re.findall(r"[a-z]{4,}", stem)):
        return f"its tests in {path} show how to {use} it"
    return f"the tests it adds to {path} show how to {use} it"


#: Every action verb's gerund ("passing", "using", "running").
_GERUNDS = frozenset(gerund_of(verb) for verb in ACTION_VERBS)
#: Words after a gerund that make it a noun ("mapping for X", "logging of Y").
_LINKS = frozenset({"for", "of", "by", "in", "on", "to", "with", "and", "from"})


def the_new(thing: str) -> str:
    """``thing`` as the new thing it is: ``an abort mode`` -> ``the new abort mode``;
    ``initial X`` -> ``the initial X``; ``the X`` as it is."""
    first, _, rest = thing.partition(" ")
    if thing.startswith(BY_NUMBER):
        return thing
    gerund = first in _GERUNDS
    if gerund and rest and rest.split(" ", 1)[0] not in _LINKS:
        return thing  # "passing X to Y" is tried as itself, never "the new passing X"
    if first in ("a", "an") and rest:
        return the_new(rest) if rest.startswith("new ") else f"the new {rest}"
    if first == "the":
        # "the 'try_read' method" (the article its name takes): what is added is new.
        return f"the new {rest}" if rest[:1] in ("'", "`", "@") else thing
    if first.endswith(("'s", "\u2019s")) and rest:
        return f"{first} new {rest}"  # "SQL's implicit JOIN syntax": SQL's new one
    return f"the {thing}" if first in NON_VERB_OPENERS else f"the new {thing}"
