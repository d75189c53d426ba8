"""Who a change is for, told as the condition a reader checks against their own use: "your
biome configuration enables noUnreachable", "you run uv tool list", "you call scan_csv()",
"you run tokio on Windows", "you use biome on Astro files"."""

from __future__ import annotations

import re

from digest.summarize.base import Item
from digest.summarize.extractive.drafting import FILE_END

#: A lint rule as projects name them: ``noUnreachable``, ``useSortedClasses`` (biome's
#: camelCase) or a code in brackets, ``(UP032)``, ``(`PLE2510`, …)``.
_RULE_NAME = re.compile(r"^(?:no|use)[A-Z][A-Za-z0-9]+$")
_RULE_CODE = re.compile(r"\(`?([A-Z]{1,4}\d{3,4})`?|\b(?:for|to|of) `([A-Z]{1,4}\d{3,4})`")
#: A code span that is a call, or a dotted or path name a program types (a snake_case
#: name alone may be a parameter or a variable: no one calls it).
_CALL = re.compile(
    r"`\.?((?:[A-Za-z_]\w*(?:\.|::))+[A-Za-z_]\w*" + FILE_END + r"(?:\(\))?|[A-Za-z_]\w*\(\))`"
)
#: A code span a change is "for" or "in": what it concerns, even as a bare name
#: ("perf: Streaming cloud download for `scan_csv`").
_FOR_NAME = re.compile(r"\b(?:for|in|of) `([A-Za-z_]\w*)`")
#: A function a change gives a new parameter: "Add build side preference parameter for join".
_PARAMETER_OF = re.compile(
    r"\b(?:parameter|argument|kwarg|keyword argument)s? (?:for|of|in) "
    r"(?!(?:an?|the|th[eo]se|this|that|each|every|all|any|some)\b)"
    r"`?([a-z_][\w.]*?)(?:\(\))?`?(?=$|[\s,;:])"
)
#: A function a fix names as what it mends, as code names functions: "Fix
#: to_edge_transform_and_lower to respect preserve_ops" (two underscores or more: a name).
_FIXED_CALL = re.compile(r"(?i:fix(?:e[sd])?)\s+([a-z][a-z0-9]*(?:_[a-z0-9]+){2,})\b(?![./])")
#: Where a fix says the fault was: "in forks", "inside IDE features" (plain words only).
_WHERE = re.compile(r"\b(?:in|inside|within) ((?:[A-Za-z][a-z]+ ){0,2}[a-z]{2,}[^su]s)$")
#: A setting or flag a user sets: "`line-length` setting", "`--no-sync`".
_SETTING = re.compile(r"`([\w.-]+)` (?:setting|option|config(?:uration)? key|field)\b")
_FLAG = re.compile(r"`(--[a-z][\w-]*)")
#: Where a program runs, as titles name it.
_PLATFORM = re.compile(
    r"\b(Windows|macOS|Linux|FreeBSD|OpenBSD|NetBSD|Hurd|illumos|Solaris|Android|iOS|musl|"
    r"WASM|WebAssembly|WASI|aarch64|ARM64|x86(?:-64)?|ROCm|CUDA|XPU|MPS|TPUs?|CPUs?|Blackwell|"
    r"Hopper|Apple silicon)\b"
)
#: Kinds of files a tool reads, as titles name them.
_FILE_KINDS = [
    "Astro",
    "Svelte",
    "Vue",
    "JSX",
    "TSX",
    "CSS",
    "SCSS",
    "Sass",
    "Less",
    "HTML",
    "Markdown",
    "GraphQL",
    "JSON",
    "JSONC",
    "YAML",
    "TOML",
    "NDJSON",
    "Parquet",
    "CSV",
    "Avro",
    "IPC",
    "Excel",
    "Jupyter",
    "JavaScript",
    "TypeScript",
]
#: Short names of those kinds, as areas say them ("feat(md)", "js_analyze").
_FILE_KIND_SHORT = {"md": "Markdown", "js": "JavaScript", "ts": "TypeScript", "yml": "YAML"}
_FILE_KIND = re.compile(rf"(?<![\w.-])({'|'.join(_FILE_KINDS)})\b", re.I)


def who_uses(item: Item, name: str, audience: str, adds: bool = False) -> str:
    """The condition under which ``item`` concerns a reader of ``name`` (the project as
    its items name it), as a clause after "If", from the first of: a rule their
    configuration enables; a command they run; the function a new parameter is for; a
    function, setting or flag they use (not when it is what ``item`` ``adds``); the command
    its area names; the platform they run on; the kind of files they use it on (said, or an
    area's short name: ``md``, ``js_analyze``); else ``audience`` or the area (a backend, a
    tool, a module its files sit in) when it is a named part of ``name``; for a fix, where
    it says the fault was (``in forks``). ``""`` when nothing says who."""
    title = item.pull.title
    area = item.area.strip("`")
    if _RULE_NAME.match(area):
        return f"your {name} configuration enables {area}"
    codes = list(dict.fromkeys(a or b for a, b in _RULE_CODE.findall(title)))
    if codes:
        listed = codes[0] if len(codes) == 1 else f"any of {', '.join(codes[:3])}"
        return f"your {name} configuration selects {listed}"
    spans = re.findall(r"`([^`]+)`", title)
    command = next((s for s in spans if s.split(" ", 1)[0] == name and " " in s), "")
    if command and not adds:
        return f"you run {command}"
    parameter = _PARAMETER_OF.search(title)
    if parameter:
        return f"you call {parameter[1]}()"  # the function is there already, even when new
    call = _CALL.search(title) or _FOR_NAME.search(title)
    fixed = _FIXED_CALL.match(item.headline_title) if item.kind == "fix" else None
    if fixed and not call:
        return f"you call {fixed[1]}"  # "Fix to_edge_transform_and_lower to respect …"
    owner = _FOR_NAME.search(title)
    if owner and adds:  # "Add merge function for `Ledger`": what is new is for a Ledger
        return f"you use {owner[1]}"
    if call and not adds:
        return f"you call {call[1]}" if call[1].endswith(")") else f"you use {call[1]}"
    if (setting := _SETTING.search(title)) and not adds:
        return f"you set {setting[1]}"
    if (flag := _FLAG.search(title)) and not adds:
        return f"you pass {flag[1]}"
    if area.lower().startswith(f"{name.lower()} ") and len(area.split()) == 2:
        return f"you run {area.lower()}"  # "uv audit: `--ignore`": the command it changes
    if platform := _PLATFORM.search(title):
        return f"you run {name} on {platform[1]}"
    # The files it reads, when the change is about them: its area ("css"), "X files" said,
    # or a fault on them ("fix: svelte missing expression crash").
    head = re.split(r"[_/ -]", area.lower(), maxsplit=1)[0]  # "js_analyze", "css"
    kind = _FILE_KIND_SHORT.get(head) or next((k for k in _FILE_KINDS if k.lower() == head), "")
    said = re.search(rf"{_FILE_KIND.pattern}\s+files", title, re.I)
    if said is None and item.kind == "fix":
        said = _FILE_KIND.search(title)
    if said is not None:
        kind = said[1]
    if kind and kind.lower() != name.lower():  # not "you use svelte on Svelte files"
        kind = next(k for k in _FILE_KINDS if k.lower() == kind.lower())
        return f"you use {name} on {kind} files"
    folders = {part for f in item.pull.files for part in f.path.lower().split("/")[:-1]}
    if not audience or audience.lower() in (name.lower(), f"the {name.lower()} package"):
        audience = ""
    if audience.lower() == area.lower() or (not audience and area[:1].isupper()):
        audience = area  # "[Pallas]" as its title spells it
    named = audience.startswith("the ") or audience != audience.lower() or " " in audience
    new = adds and audience.lower() in item.headline_title.lower()  # "[kimi k2] Add Kimi K2"
    if audience and named and not new:
        return f"you use {audience}"  # "the NXP backend", "ET-VK", "hot module replacement"
    for module in (audience, area.lower()):
        if module and module != name.lower() and _module_of(item, module, folders):
            return f"you use {name}'s {module} module"  # tokio/src/time/: "tokio's time module"
    if item.kind == "fix" and (where := _WHERE.search(item.headline_title)):
        return f"you use {where[1]}"  # "fix: defer error boundary rendering in forks"
    return ""


def _module_of(item: Item, module: str, folders: set[str]) -> bool:
    """True when ``module`` is a folder of the code ``item`` changes (``time`` for
    ``tokio/src/time_alt/``), and not a product of its own (``crates/ty_python/``)."""
    own = any(
        re.match(rf"(?:crates|packages)/{re.escape(module)}(?:\b|_)", f.path)
        for f in item.pull.files
    )
    return not own and any(f == module or f.startswith(f"{module}_") for f in folders)
