"""How a story is named and told in one sentence, for every part of an edition.

A story's *subject* is its area (``the NXP backend``, ``MLX``) or its repository; each
change in it reads as a predicate (``enables `split` support``). Several changes of a
story are told in one sentence, sharing their verb and common ending when they have
them: ``The NXP backend enables `MM` [1], `aten.bmm` [2] and `split` [3] with the new
Neutron flow``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence

import msgspec.structs

from digest.summarize.base import Item, Story
from digest.summarize.classify import REVERT_QUOTE, SEVERE, path_kind, split_title
from digest.summarize.kinds import is_version_number
from digest.summarize.phrasing import (
    NOUN_OR_VERB,
    Phrase,
    join_words,
    lower_first,
    parse_title,
    with_article,
    with_places,
)
from digest.summarize.sentences import split_sentences
from digest.summarize.verbs import (
    AUXILIARIES,
    BASE_FORMS,
    is_finite,
    is_present,
    third_of,
    third_person,
)

_PART_SUFFIX = re.compile(
    r"\s*[-\u2013:,]?\s*(\((pt|part)\.?\s*\d+([-\u2013/]\w+)?\)|\b(pt|part)\.?\s*\d+([-\u2013/]\w+)?"
    r"|\[\d+/\d+\]|\(\d+/\d+\)"
    r"|\(group id:[^)]*\))\s*$",
    re.I,
)
#: "1/N Add X", "[2/3] Add X", "PR2/N — Add X", "PR 1/N - Add X": a part of a series.
_PART_PREFIX = re.compile(
    r"^\s*(?:(?:pr\s*)?\(?\d+/\d*n?\)?|\[\d+/\d*n?\]|pr\s*\d+(?=\s*[-\u2013\u2014:]))"
    r"(?:\s*[-\u2013\u2014:]\s*|\s+)",
    re.I,
)
_RAW_URL = re.compile(r"<?https?://\S+>?|\bwww\.\S+")
_TRAILING_PR = re.compile(r"\s*\(#\d+\)\s*$")
_RELAND_MARK = re.compile(
    r"^\s*(\[re-?land\]\s*|re-?land(ed)?\s*:?\s*|reapply\s*)|\s*\((re-?land|reland)\)\s*$", re.I
)
# Areas that name a kind of work rather than a place; their stories take the repo's name.
_NOT_A_SUBJECT = frozenset(
    [
        "examples",
        "example",
        "docs",
        "doc",
        "tests",
        "test",
        "ci",
        "benchmarks",
        "benchmark",
        "utils",
        "misc",
        # Catch-all parts of a repository ("fix(core): …"): no place a reader knows.
        "core",
        "common",
        "general",
        "internal",
        "shared",
        "qol",
        "build",
        "infra",
        "tools",
        "scripts",
        "script",
        "tooling",
        "release",
        "codegen",
        "bot",
        "chore",
        "typing",
        "lint",
        # A language's bindings ("fix(rust): …"): which API, not a place a sentence names.
        "rust",
        "python",
        "py",
        "js",
        "ts",
        "cpp",
    ]
)
#: A tag that ends on a kind of work ("Attention Perf", "Export Fixes"): the title's topic.
_KIND_TAG_END = re.compile(
    r"\s(?:perf|performance|fix|fixes|refactor|cleanup|tests?|docs?|bench|benchmarks?|ci|chore|"
    r"wip|follow-?up|improvements?)$",
    re.I,
)
_COMMON_NOUN_AREA = re.compile(
    r"\b(backend|flow|runtime|compiler|exporter|partitioner|quantizer|delegate|api|team|parser|"
    r"formatter|linter|analyzer|lexer|resolver|scheduler|allocator|loader|server|client|planner|"
    r"optimizer|engine|executor|profiler|tracer|tokenizer|trainer|installer)$",
    re.I,
)


#: The issue a title says it closes ("(fixes #2537)", "- closes #12"): the references link it.
_CLOSES = re.compile(
    r"\s*[-\u2013(,]?\s*\b(fix(es|ed)?|close[sd]?|resolve[sd]?)\s+#\d+"
    r"(?:\s*(?:,|and)\s*#\d+)*\)?\s*$",
    re.I,
)


def _url_named(url: re.Match[str]) -> str:
    """A raw URL in a title as what it names: a GitHub repository (``sveltejs/template``),
    else its site (``tokioconf.com``)."""
    found = re.match(r"<?(?:https?://)?(?:www\.)?([^/\s>]+)(?:/([^/\s>#?]+)/([^/\s>#?]+))?", url[0])
    if found is None:
        return ""
    if found[1].lower() == "github.com" and found[2] and found[3]:
        return f"{found[2]}/{found[3]}"
    return found[1]


def tidy(title: str) -> str:
    """``title`` without part numbers, group suffixes, a trailing ``(#N)`` or ``(fixes #N)``,
    or raw URLs."""
    title = _PART_SUFFIX.sub("", _TRAILING_PR.sub("", title))
    # "[GenAI Pipeline] PR3: X" keeps its tag and loses its part ("[3/4]" is a part).
    tags = re.match(r"(?:\s*\[(?!\d+/)[^\]]*\])*\s*", title)
    end = tags.end() if tags else 0
    title = title[:end] + _PART_PREFIX.sub("", title[end:])
    title = _CLOSES.sub("", title)
    title = " ".join(_RAW_URL.sub(_url_named, title).split()).rstrip(" .:;,")
    title = re.sub(r"^[-\u2013\u2014:]+\s+", "", title)  # "[RL] - X": the dash of the tag
    return title or "an untitled change"


def repo_name(story: Story) -> str:
    """How the edition writes ``story``'s repository: its display name (a brand's own casing,
    ``ExecuTorch``, ``torchao``), else its name as its owner writes it (``executorch``)."""
    return story.repo_label or story.repo.split("/", 1)[1]


def subject(story: Story, initial: bool = True) -> str:
    """Who a sentence about ``story`` is about: the product of the repository its area
    names (``ty``, built from ruff's ``crates/ty_*``), else the repository, as the project
    writes it. A lower-case name is never capitalised: at a sentence's start (``initial``) it
    reads ``The torchao project``."""
    name = product_of(story) or repo_name(story)
    if initial and name[:1].islower():
        return f"The {name} project"
    return name


#: Workspace folders whose sub-folders are products of their own, named by their folder
#: (``crates/ty``, ``crates/ty_python_semantic``, ``packages/create-vite``).
_PRODUCT_DIRS = frozenset(["crates", "packages"])


def product_of(story: Story) -> str:
    """The product of its repository that ``story``'s area names, as its folder spells it
    (``[ty]`` over ``crates/ty_ide/``: ``ty``), or ``""``: an area is a product, and so a
    subject, only when the lead's files sit in that product's own workspace folders."""
    area = story.area.strip("`'\" ")
    if not area or area.lower() in _NOT_A_SUBJECT or not re.fullmatch(r"[A-Za-z][A-Za-z-]*", area):
        return ""
    for changed in story.lead.pull.files:
        parts = changed.path.split("/")
        if len(parts) > 2 and parts[0] in _PRODUCT_DIRS:
            folder = parts[1]
            if folder.lower() == area.lower() or re.match(
                rf"{re.escape(area.lower())}[_-]", folder.lower()
            ):
                return folder[: len(area)]
    return ""


def area_of(story: Story, from_files: bool = True) -> str:
    """Where in its repository ``story`` happened, as a place a sentence can name (``the NXP
    backend``, ``MLX``, ``pylint``), or ``""`` when its area names a kind of work (``CI``), a
    file, or the product that is the sentence's subject (``ty``). Other areas are places,
    never subjects: "In MLX, ExecuTorch adds …". With ``from_files``, a story with no area
    of its own is placed in the backend its code is in (see :func:`_backend_of`)."""
    area = story.area.strip("`'\" ")  # "[`pylint`]" names the place pylint
    if story.kind == "docs" and area.lower() in ("", "doc", "docs", "documentation"):
        # "Remove Python 3.9 specific files" in the docs: not a change to what users run.
        return "the documentation"
    if not area and from_files and not product_of(story):
        return _backend_of(story)  # "support MXFP8" in backends/mlx/: in the MLX backend
    if not area or area.lower() in _NOT_A_SUBJECT or product_of(story):
        return ""
    if re.search(r"\b\d+/(?:\d+|n)\b", area, re.I):
        return ""  # "[et device 1/n]": a series of changes, not a place
    if _KIND_TAG_END.search(area):
        # "Attention Perf: …": a topic and a kind of work, not a place; the example it
        # changes is one ("examples/attention.py": the attention example).
        return example_of(story)
    if named := place_named(area):
        return named
    if _NUMBER_FORMAT.fullmatch(area):
        return area.upper()  # "[mxfp8] refactor model converter": in MXFP8, as MLX is a place
    if re.search(r"[_\d]", area) and " " not in area:
        return ""
    if "/" in area:
        return ""  # "parse/html/foo", "examples/arduino": a path, no place a reader knows
    if package := _package_of(story, area):
        return package  # "fix(legacy)" on packages/plugin-legacy/: the plugin-legacy package
    if not _COMMON_NOUN_AREA.search(area):
        return area
    # "[Compiler]" is the compiler; "Arm backend" keeps its name's capital.
    return f"the {area.lower() if re.fullmatch(r'[A-Z][a-z]+', area) else area}"


#: A number format a tag names ("mxfp8", "fp8", "int4", "bf16"): a topic readers know.
_NUMBER_FORMAT = re.compile(r"(?:mx|nv)?(?:fp|int|uint|bf)\d{1,2}", re.I)
#: Terse lower-case scopes ("lsp", "fmt", "rt") as the places they name for a reader.
_PLACES = {
    "lsp": "the language server",
    "metal": "the Metal backend",
    "compile": "the compiler",
    "cli": "the CLI",
    "ssr": "server-side rendering",
    "hmr": "hot module replacement",
    "rt": "the runtime",
    "runtime": "the runtime",
    "net": "networking",
    "fs": "the file system API",
    "io": "I/O",
    "semantic": "the semantic model",
    "diagnostic": "the diagnostics",
    "diagnostics": "the diagnostics",
    "config": "the configuration",
    "configuration": "the configuration",
    "rocm": "ROCm",
    "cuda": "CUDA",
    "mps": "MPS",
    "xpu": "XPU",
    "lib": "library mode",
    "dev": "development mode",
    "types": "the type definitions",
    "sync": "the sync module",  # "In sync, …" reads as an idiom
    "task": "the task module",
    "signal": "signal handling",
}
#: The tools of a language a compound scope names ("format/html": the HTML formatter).
_TOOLS = {
    "fmt": "formatter",
    "format": "formatter",
    "formatter": "formatter",
    "lint": "linter",
    "linter": "linter",
    "parse": "parser",
    "parser": "parser",
    "lexer": "lexer",
    "analyzer": "analyzer",
    "analyze": "analyzer",
}
_LANGUAGES = {
    "css": "CSS",
    "scss": "SCSS",
    "html": "HTML",
    "js": "JavaScript",
    "javascript": "JavaScript",
    "ts": "TypeScript",
    "typescript": "TypeScript",
    "md": "Markdown",
    "markdown": "Markdown",
    "json": "JSON",
    "yaml": "YAML",
    "graphql": "GraphQL",
    "vue": "Vue",
    "svelte": "Svelte",
    "astro": "Astro",
    "grit": "GritQL",
}


def _package_of(story: Story, area: str) -> str:
    """The package of a monorepo that ``area`` names and ``story``'s lead changes
    (``legacy`` on ``packages/plugin-legacy/``: ``the plugin-legacy package``), or ``""``."""
    tag = area.lower()
    folders = {
        parts[1]
        for changed in story.lead.pull.files
        if len(parts := changed.path.split("/")) > 2 and parts[0] == "packages"
    }
    named = [f for f in folders if f != tag and re.search(rf"(?:^|[-_]){re.escape(tag)}$", f)]
    return f"the {named[0]} package" if len(folders) == 1 and named else ""


def example_of(story: Story) -> str:
    """The example ``story``'s lead changes, when all its code is one example's
    (``examples/attention.py``: ``the attention example``), else ``""``."""
    code = [f.path for f in story.lead.pull.files if path_kind(f.path.lower()) != "test"]
    examples = [p.split("/") for p in code if p.startswith(("examples/", "example/"))]
    stems = {re.sub(r"\.\w+$", "", parts[1]).replace("_", " ") for parts in examples}
    whole = bool(code) and len(examples) == len(code)
    return f"the {stems.pop()} example" if whole and len(stems) == 1 else ""


def _backend_of(story: Story) -> str:
    """The backend where the changes of ``story``, with no area of their own, have most of
    their code files, all of their backend code in it (``backends/mlx/``: ``the MLX
    backend``), spelt as its changes spell it ("XNNPACK", "Cortex-M"); else ``""``."""
    code = [
        f.path
        for item in story.items
        for f in item.pull.files
        if "/test" not in f.path and f.path.endswith(_CODE_SUFFIXES)
    ]
    backends = {path.split("/")[1] for path in code if path.startswith("backends/")}
    within = sum(path.startswith("backends/") for path in code)
    if len(backends) != 1 or within * 2 < len(code) or not code:
        return ""
    folder = backends.pop()
    if folder in _SHARED_BACKEND_DIRS:
        return ""  # "backends/transforms": passes every backend shares, no backend
    if folder in _BACKEND_NAMES:
        return f"the {_BACKEND_NAMES[folder]} backend"
    told = " ".join(f"{item.pull.title} {item.summary}" for item in story.items)
    pattern = r"[-_ ]?".join(map(re.escape, re.split(r"[-_]", folder)))
    spelt = re.search(rf"(?<![\w/.]){pattern}(?![\w/.])", told, re.I)
    if spelt and spelt[0] != spelt[0].lower():
        return f"the {spelt[0]} backend"  # as its authors write it: "OpenVINO"
    return place_named(f"backends/{folder}")


#: How the products a ``backends/`` folder is named for are written.
_BACKEND_NAMES = {
    **{"xnnpack": "XNNPACK", "cortex_m": "Cortex-M", "arm": "Arm", "coreml": "Core ML"},
    **{"nxp": "NXP", "mediatek": "MediaTek", "openvino": "OpenVINO", "webgpu": "WebGPU"},
    **{"qualcomm": "Qualcomm", "vulkan": "Vulkan", "cadence": "Cadence", "apple": "Apple"},
}
#: Folders of ``backends/`` that hold what all backends share, not one backend.
_SHARED_BACKEND_DIRS = frozenset({"transforms", "common", "utils", "shared", "test", "tests"})
#: Files of code a backend is written in, not its build files or docs.
_CODE_SUFFIXES = (".py", ".cpp", ".h", ".hpp", ".c", ".cc", ".mm", ".m", ".glsl", ".cu", ".rs")


def place_named(area: str) -> str:
    """A terse lower-case scope as a reader's place: ``lsp`` -> ``the language server``,
    ``format/html`` -> ``the HTML formatter``, ``parse/html/svelte`` -> ``the Svelte
    parser`` (the narrowest language), ``lint/noUselessFragments`` -> ``the
    `noUselessFragments` rule``, ``fmt`` -> ``the formatter``; else ``""``."""
    parts = [part for part in re.split(r"[/:]", area) if part]
    if len(parts) == 1 and re.fullmatch(r"[a-z]+(?:_[a-z]+)+", parts[0]):
        parts = parts[0].split("_")  # "markdown_parser": the Markdown parser
    if len(parts) == 1:
        part = parts[0]
        if part != part.lower():
            return ""
        if part in _PLACES:
            return _PLACES[part]
        if part in _TOOLS:
            return f"the {_TOOLS[part]}"
        return _LANGUAGES.get(part, "")
    if len(parts) == 2 and parts[0] in ("backends", "examples"):
        # "backends/mlx": the MLX backend; "examples/arduino": the arduino example.
        name = _PLACES.get(parts[1], parts[1]).removeprefix("the ")
        name = name.upper() if re.fullmatch(r"[a-z]{2,3}", name) else name  # "mlx": MLX
        if parts[0] == "backends" and name.islower():
            name = name.capitalize()  # a backend is named for a product: "the Cadence backend"
        return f"the {name} {parts[0].removesuffix('s')}"
    tools = [_TOOLS[p] for p in parts if p in _TOOLS]
    languages = [_LANGUAGES[p] for p in parts if p in _LANGUAGES]
    rules = [p for p in parts if re.fullmatch(r"(?:no|use)[A-Z][A-Za-z]+", p)]
    if tools == ["linter"] and len(rules) == 1:
        return f"the `{rules[0]}` rule"
    if len(tools) == 1 and languages and len(tools) + len(languages) == len(parts):
        return f"the {languages[-1]} {tools[0]}"
    return ""


def told_item(story: Story) -> Item:
    """The change a one-clause summary of ``story`` tells: a same-day revert of one of its
    changes wins (a revert that only shares its area is one change of it among others)."""
    return next(
        (
            item
            for item in story.items
            if item.kind == "revert" and any(reverts_item(item, other) for other in story.items)
        ),
        story.lead,
    )


#: A summary its release-note fragment gave in a changelog's voice, made a sentence: "It
#: fixes an LSP crash that could corrupt file content." (see ``summarize_fragment``).
_NOTED = re.compile(r"^It (?P<verb>[a-z]+s) (?P<rest>(?:[^.!?]|\.(?=\S)){8,140}?)\.?$")


def _noted(item: Item) -> Phrase | None:
    """What ``item`` does as its note for users says it (a changeset: "Fixed an LSP crash
    that could corrupt file content"), when that note is one plain sentence; else None."""
    if not item.pull.fragment or item.kind not in ("fix", "feature", "perf"):
        return None
    first = split_sentences(item.summary)[:1]
    match = _NOTED.match(first[0]) if first else None
    if match is None or third_person(match["verb"]) != match["verb"]:
        return None
    return Phrase(verb=match["verb"], rest=match["rest"])


def phrase_of(item: Item, short: bool = False, quote: bool = False) -> Phrase:
    """``item``'s title read as a predicate (see :func:`_read`), its authors' "we" and
    "our" said of the project ("so it can control X", "its own backend")."""
    phrase = _read(item, short, quote)
    if phrase.rest.startswith("\u201c"):
        return phrase  # a title quoted is quoted as written
    rest = with_places(_FIRST_PERSON.sub(_said_of_it, phrase.rest))
    return phrase if rest == phrase.rest else msgspec.structs.replace(phrase, rest=rest)


#: The authors speaking of the project, with the verb that follows "we".
_FIRST_PERSON = re.compile(r"\b(?:(?P<we>we)(?: (?P<verb>[a-z']+))?|(?P<our>our)|(?P<us>us))\b")
_WE_VERBS = {"are": "is", "were": "was", "have": "has", "do": "does", "don't": "doesn't"}


def _said_of_it(match: re.Match[str]) -> str:
    """One first-person word of a title as the project's: "we would" -> "it would", "we
    use" -> "it uses", "our" -> "its", "us" -> "it"."""
    if match["our"]:
        return "its"
    if match["us"]:
        return "it"
    verb = match["verb"]
    if not verb:
        return "it"
    if verb in _WE_VERBS:
        return f"it {_WE_VERBS[verb]}"
    return f"it {third_of(verb)}" if verb in BASE_FORMS else f"it {verb}"


def _read(item: Item, short: bool = False, quote: bool = False) -> Phrase:
    """``item``'s title read as a predicate; reverts and re-lands read as such.

    ``short`` (for headlines) names what a revert or re-land is about instead of telling
    the whole change: ``brings back real TOSA ops`` for ``re-lands the change that adds``.
    """
    if item.kind == "revert":
        if short:
            return _short_revert(item)
        return Phrase(verb="reverts", rest=_reverted_thing(item))
    if item.kind == "release":
        if bumps_version(item):  # the version a branch carries, not yet a release
            return Phrase(verb="bumps", rest=f"the version to {item.version.removeprefix('v')}")
        line = older_line_of(item)
        rest = f"{_version_phrase(item.version)} for its older {line} line" if line else ""
        return Phrase(verb="releases", rest=rest or _version_phrase(item.version))
    if item.kind == "reland":
        inner = parse_title(relanded_title(item), item.pull.body)
        if inner.verb and not short:
            return Phrase(verb="re-lands", rest=f"the change that {inner.predicate()}")
        return Phrase(verb="brings back", rest=inner.thing())
    if told := _noted(item):
        return told
    title = tidy(item.headline_title)
    phrase = parse_title(title, item.pull.body)
    # "fix: changes file corruption" names the bug, not what the fix does: never told as
    # "biome changes file corruption"; named as written instead (below).
    bug = bool(phrase.verb) and _describes_the_bug(item, phrase)
    if item.kind == "fix" and (right := _RIGHT_STATE.match(title)):
        # "Covariance with constant is zero, not NaN": the state the fix leaves, not its bug.
        what = lower_first(right["what"]) if right["what"][:2].istitle() else right["what"]
        return Phrase(verb="makes", rest=f"{what} {right['good']}, not {right['bad']}")
    if item.kind == "fix" and phrase.verb in ("fixes", ""):
        fixed = phrase.rest if phrase.verb else title
        if said := _fixed_so(fixed) or _bug_told(fixed):
            return Phrase(verb="fixes", rest=said)  # "a bug where scan is not resolving X"
        if phrase.verb:  # "Fix OSS models breakage fix": the fix is said once
            phrase = Phrase(verb="fixes", rest=_CHANGE_NOUN_END.sub("", phrase.rest))
    if phrase.verb and not bug:
        return phrase
    if bug:
        phrase = Phrase(verb="", rest=title)
    # A title the lexicon cannot read as an action: a sentence ("SvelteMap incorrectly handles
    # keys"), a noun phrase or an unknown verb. Where text may quote (``quote``: the body),
    # it is named as written, marked as a title, rather than bent into a clause.
    # A known verb after the first word makes it a sentence ("X incorrectly handles keys").
    words = title.split()
    # "a panic where we would X" is no sentence: a relative clause's verb is not the title's.
    main = _INNER_CLAUSE.split(title, maxsplit=1)[0].split()[1:]
    sentence = any(
        is_present(word.strip(",;:()")) or word.lower() in AUXILIARIES for word in main
    ) or bool(_PAST_VERB.search(" ".join(words[1:])))
    if item.kind == "fix" and _CHANGE_NOUN_END.search(title) and len(words) <= 5:
        sentence = False  # "`RunGeometry` bounds fix": a fix named by what it mends
    # A title cut inside brackets cannot be quoted whole: it is told as a phrase.
    quote = quote and title.count("(") == title.count(")") and title.count("[") == title.count("]")
    if item.kind == "fix" and not phrase.verb and _BETTER.match(title):
        # "fix(resolver): better hint when …" names what it gives, not what it fixes.
        return Phrase(verb="gives", rest=f"a {lower_first(_BETTER.sub('', title))}")
    if item.kind == "fix":
        # "fix: regression in tracking scopes" names the problem: the change fixes it.
        quoted = quote and (sentence or phrase.instruction or bug)
        rest = (
            f"\u201c{title}\u201d"
            if quoted
            else with_article("fixes", lower_first(_CHANGE_NOUN_END.sub("", phrase.rest)))
        )
        return Phrase(verb="fixes", rest=rest)
    # "AioSource now employs IO Safety" is a sentence whose verb the lexicon does not know.
    told_now = re.search(r"\b(?:now|no longer|always|never)\b", title, re.I)
    if not (sentence or phrase.instruction or phrase.verb or told_now) and (
        named := _named_change(title)
    ):
        return named  # "taffy 0.10 update": updates taffy to 0.10, not "adds taffy 0.10 update"
    if not (sentence or phrase.instruction or phrase.verb or told_now) and _ADDED_NOUNS.get(
        item.kind
    ):
        # "Autotuner heuristics", "Jagged row-tile building blocks": a feature named by what
        # it brings is told as bringing it, not as "lands autotuner heuristics"; a speed-up
        # named by what got faster ("startup time (22ms -> 15ms)") improves it.
        if item.kind == "perf":
            if faster := re.match(r"(?:faster|quicker|speedier)\s+(?=\S)", phrase.rest, re.I):
                # "Faster `Series::is_sorted` for X": speeds it up, not "improves faster X".
                return Phrase(verb="speeds up", rest=phrase.rest[faster.end() :])
            return Phrase(verb="improves", rest=lower_first(phrase.rest))
        return Phrase(verb="adds", rest=with_article("adds", lower_first(phrase.rest)))
    if quote and (sentence or phrase.instruction or len(title.split()) > 3):
        return Phrase(verb="lands", rest=f"\u201c{title}\u201d")
    return phrase


#: A fix's title that says what is now right and what was wrong: "X is zero, not NaN".
_RIGHT_STATE = re.compile(
    r"^(?P<what>[^,]{3,80}?) (?:is|are) (?P<good>[^,]{1,40}), not (?P<bad>[^,]{1,40})$"
)
#: A fix's title that names what it gives: "better hint when …", "clearer error for …".
_BETTER = re.compile(r"^(?:an? )?(?=(?:better|improved|clearer|nicer|friendlier)\s)", re.I)


#: Kinds whose title, when it is a noun phrase, names what the change adds.
_ADDED_NOUNS = {"feature": True, "perf": True}


#: A verb in the past before what follows a verb, not a noun: "X looked different",
#: "Y failed to parse", "Z returned wrong values" (a title that tells the bug as a sentence).
_PAST_VERB = re.compile(
    r"\b[a-z]{3,}ed (different|differently|to|when|with|incorrectly|wrong|empty|instead|"
    r"silently|twice|again|as)\b|\b(was|were|did|didn't|wasn't|weren't)\b"
)


# Not "should": "X should be Y" tells what the fix makes so, not the bug.
_AUXILIARY_WORDS = "is are was were does do did has have had can cannot could will would"
_SENTENCE_AUXILIARIES = frozenset(_AUXILIARY_WORDS.split())
#: Where a bug's sentence turns to when it happens: its verb comes before.
_WHEN = re.compile(r"\s(?:when|if|while|after|before|because|since|unless|until|during)\s")
#: A verb after an adverb that says it went wrong ("incorrectly returned", "always fails").
_WRONGLY_DONE = re.compile(
    r"\b(?:incorrectly|wrongly|erroneously|accidentally|silently|always|never|not|"
    r"sometimes|still)\s+[a-z]{3,}(?:ed|es|s)\b"
)
#: Where a title's main clause ends and a clause of its own begins ("inform clients that
#: X should be watched": "should" is the inner clause's, the title an instruction).
_INNER_CLAUSE = re.compile(r"\s(?:that|which|who|where|so|whether)\s")


#: A fix's title that tells what its subject does once fixed ("X no longer flags Y",
#: "the parser now accepts Z"): the subject, then the state the fix leaves.
_FIXED_STATE = re.compile(
    r"^(?P<subject>(?:[^\s]+\s+){0,4}?[^\s]+)\s+"
    r"(?P<state>(?:(?:is|are)\s+)?(?:no longer|now)\s+(?:[a-z]+ly\s+)?[a-z]{3,}\b.*)$"
)
#: A title that names a change by its noun: "taffy 0.10 update", "bsn! macro code quality
#: improvements: codegen, error handling", "scheduler cleanup".
_CHANGE_NOUN_TITLE = re.compile(
    r"^(?P<what>[^:]{3,80}?)\s+(?P<noun>updates?|upgrades?|bumps?|improvements?|enhancements?"
    r"|cleanups?|clean-ups?|refactor(?:ing)?|rework|optimi[sz]ations?|tweaks?)(?::\s.*)?$",
    re.I,
)
_CHANGE_NOUN_VERBS = {
    **dict.fromkeys(("update", "upgrade", "bump"), "updates"),
    **dict.fromkeys(("improvement", "enhancement", "tweak"), "improves"),
    **dict.fromkeys(("cleanup", "clean-up"), "cleans up"),
    **dict.fromkeys(("refactor", "refactoring", "rework"), "reworks"),
    **dict.fromkeys(("optimization", "optimisation"), "optimizes"),
}
#: Words that say how big a change is, not what it changes.
_SIZE_WORDS = frozenset(
    {"minor", "small", "various", "misc", "miscellaneous", "general", "some", "more", "few"}
    | {"several", "quick", "tiny"}
)
_TRAILING_VERSION = re.compile(r"^(?P<name>.+?)\s+(?P<version>v?\d+(?:\.\d+)+\S*)$")


def _named_change(title: str) -> Phrase | None:
    """``title``, a noun phrase that names a change by its noun ("taffy 0.10 update"), as
    the clause it names: "updates taffy to 0.10", "improves bsn! macro code quality";
    None for any other title."""
    match = _CHANGE_NOUN_TITLE.match(title.strip())
    if match is None:
        return None
    noun = match["noun"].lower()
    verb = _CHANGE_NOUN_VERBS[noun.rstrip("s") if noun != "refactoring" else noun]
    words = match["what"].split()
    while words and words[-1].lower() in _SIZE_WORDS:  # "README minor cleanup"
        words.pop()
    while words and words[0].lower() in _SIZE_WORDS:  # "small perf improvements"
        words.pop(0)
    what = lower_first(" ".join(words))
    if not what or "," in what:
        return None  # "more export, small perf improvements": a list, no one thing
    if verb == "updates" and (versioned := _TRAILING_VERSION.match(what)):
        return Phrase(verb=verb, rest=f"{versioned['name']} to {versioned['version']}")
    if verb == "updates":
        return None  # "Dependency updates": which, to what, it does not say
    return Phrase(verb=verb, rest=with_article("improves", what))


#: A change noun that ends a fix's title and says "fix" a second time.
_CHANGE_NOUN_END = re.compile(r"\s+(?:fix|fixes|bugfix)$", re.I)


#: A fix's title that says what its subject should do ("`X` should return `false`").
_SHOULD = re.compile(r"^(?P<subject>(?:[^\s]+\s+){0,4}?[^\s]+)\s+should\s+(?P<verb>[a-z]+)\b")


def _fixed_so(text: str) -> str:
    """``text``, a fix's title that says what its subject does once fixed, as what the fix
    does to it: "X no longer flags Y" -> "X so it no longer flags Y", "X should return Y"
    -> "X so it returns Y"; ``""`` otherwise."""
    should = _SHOULD.match(text)
    told = _FIXED_STATE.match(text)
    if should and should["verb"] not in ("not", "be", "have"):  # "should be buffer empty"
        subject, state = should["subject"], ""  # said once it is known to be one or many
    elif told:
        subject, state = told["subject"], told["state"]
    else:
        return ""
    if any(map(is_finite, subject.split())):
        return ""
    subject = re.sub(r"^(?:the )?fix(?:es)? (?:for|to|of) ", "", subject, flags=re.I)
    last = subject.split()[-1]
    # "gauge readings" are they; "useSortedAttributes", a name, is it.
    plural = last.endswith("s") and not last.endswith("ss") and last.isalpha() and last.islower()
    if should and not state:
        verb = should["verb"] if plural else third_of(should["verb"])
        state = f"{verb}{text[should.end() :]}"
    return f"{subject} so {'they' if plural else 'it'} {state}"


def _main_clause(text: str) -> str:
    """``text`` before the clause it turns to (when, if; that, where): "X should be empty"
    stays whole, "panic where we would Y" is "panic"."""
    return _INNER_CLAUSE.split(_WHEN.split(text, maxsplit=1)[0], maxsplit=1)[0]


def _bug_told(text: str) -> str:
    """``text``, a fix's title that tells its bug as a sentence ("ssrTransform incorrectly
    rewrites `meta` …", "scan is not resolving X when Y"), as what the fix fixes: "a bug
    where scan is not resolving X when Y"; ``""`` for a noun phrase ("a panic when X")."""
    main = _main_clause(text)
    words = main.split()
    if len(words) < 2 or words[0].lower() in ("a", "an", "the"):
        return ""
    if re.search(r"\b(?:now|no longer)\b", main):
        return ""  # the state the fix leaves ("X is now supported"), not the bug
    head = " ".join(words[1:])
    # An auxiliary makes it a sentence ("scan is not resolving X"), or a verb said to go
    # wrong ("incorrectly rewrites"); a word like "writes" or "calls" alone may be a noun
    # ("barrier for first-use writes"), and a relative clause's verb ("a crash that could
    # corrupt X") is no sentence's.
    finite = any(
        word.lower() in _SENTENCE_AUXILIARIES and before.lower() not in ("that", "which", "who")
        for before, word in itertools.pairwise(words)
    )
    if finite or _WRONGLY_DONE.search(head) or _PAST_VERB.search(head):
        # "X being silently rejected": a title's participle is the bug's past ("X was …").
        told = re.sub(r"^((?:\S+ ){0,5}(\S+) )being\b", _was, text, count=1)
        return f"a bug where {lower_first(told)}"
    return ""


def _was(match: re.Match[str]) -> str:
    """What comes before "being" in a bug's title, with "was" (or "were", after a plural)."""
    plural = re.search(r"[^aeiou's]s$", match[2]) is not None  # ops, not bias or status
    return f"{match[1]}{'were' if plural else 'was'}"


def bumps_version(item: Item) -> bool:
    """True when the release ``item`` sets the version its branch carries ("Bump version to
    0.19.0") rather than saying it releases one ("Release v2.3.0", "Version Packages")."""
    if item.pull.notes:
        return False  # it adds the release's notes to the changelog: the release is cut
    return bool(item.version) and bool(re.match(r"(bump|update|set)\b", item.headline_title, re.I))


def older_line_of(item: Item) -> str:
    """The line (``1.47``) an older line's patch release ``item`` belongs to, else ``""``."""
    if not item.pull.older_line or not item.version_number:
        return ""
    return ".".join(item.version.lstrip("vV").split(".")[:2])


def _version_phrase(version: str) -> str:
    """What a release cuts: ``version 0.12.5``, ``svelte@5.38.1``, or ``a new version``."""
    if not version:
        return "a new version"
    if "@" in version or not is_version_number(version):
        return version  # "svelte@5.38.1"; "pyo3-polars", a package named without a version
    return f"version {version.removeprefix('v').removeprefix('V')}"


def reverts_item(revert: Item, target: Item) -> bool:
    """True when ``revert`` takes back ``target``, paired exactly: by the number or sha its
    link names, else by ``target``'s exact title quoted in the revert's."""
    link = revert.pull.reverts
    pull = target.pull
    if link is not None and link.repo == pull.repo:
        if link.number is not None and link.number == pull.number:
            return True
        if link.sha and pull.sha and pull.sha.startswith(link.sha[:12]):
            return True
    quoted = REVERT_QUOTE.match(revert.pull.title)
    return quoted is not None and _same(quoted["inner"], pull.title)


def _same(a: str, b: str) -> bool:
    """Two titles name the same change: equal but for case, spaces and a trailing ``(#N)``."""
    return " ".join(_TRAILING_PR.sub("", a).casefold().split()) == " ".join(
        _TRAILING_PR.sub("", b).casefold().split()
    )


def relanded_title(item: Item) -> str:
    """The display title of what a re-land lands again, without its re-land marks."""
    bare = _RELAND_MARK.sub("", tidy(item.headline_title))
    bare = re.sub(r'(["”])\s*\(?v\d+\)?\s*$', r"\1", bare)  # 'Reland "X" v2'
    bare = _RELAND_MARK.sub("", bare.strip('"“” ')).strip('"“” ')
    bare = re.sub(r'^(revert\s+)?["“]?revert\s+["“](.*)["”]["”]?$', r"\2", bare, flags=re.I)
    return tidy(split_title(bare)[1])


def reverted_title(item: Item) -> str:
    """The display title of what a revert reverts (from its ``Revert "..."`` title)."""
    inner = REVERT_QUOTE.match(item.pull.title)
    if not inner:
        bare = re.sub(r"^\s*(revert|back\s?out)\s*:?\s*", "", item.headline_title, flags=re.I)
        if number := re.match(r"#(\d+)\b", bare.strip()):
            # "revert #7757 to fix a hang": what it reverts is that pull request, by number.
            return f"#{number[1]}"
        return tidy(bare.strip('"“”'))
    return tidy(split_title(inner.group("inner"))[1])


#: Verbs of a change that repairs something: a revert takes back the repair, not the
#: problem it names ("reverts the fix for a crash", never "reverts a crash").
_REPAIRS = frozenset(
    ("fixes", "resolves", "corrects", "repairs", "patches", "addresses", "avoids", "prevents")
)
#: Verbs of a change that brings something new: a revert takes that thing away.
ADDS = frozenset(
    {"adds", "introduces", "enables", "implements", "supports", "creates", "exposes"}
    | {"provides", "integrates", "extends", "allows", "brings back"}
)
#: Verbs of a change that takes something away: a revert brings it back.
_REMOVALS = frozenset(("removes", "deletes", "drops"))


def taken_back(verb: str, thing: str) -> str:
    """What a revert of a change opening with ``verb`` takes back, ``thing`` being what the
    change is about: its fix when it repaired ``thing`` (``the fix for crash on NaN``:
    taking a fix back is not taking the problem back), ``thing`` itself when it added or
    removed it, else the change (``the change that caps the number of warps``, not ``the number of
    warps``)."""
    if verb in _REPAIRS or verb.startswith("works around"):
        return f"the fix for {thing}"
    if verb and verb not in ADDS and verb not in _REMOVALS:
        return f"the change that {verb} {thing}"
    return thing


def removes(verb: str) -> bool:
    """True when a change whose title opens with ``verb`` (third person) takes something away."""
    return verb in _REMOVALS


def _short_revert(item: Item) -> Phrase:
    """A revert as headlines tell it: what it takes back, or what it brings back."""
    inner = parse_title(reverted_title(item))
    if removes(inner.verb):
        return Phrase(verb="restores", rest=inner.thing())
    return Phrase(verb="reverts", rest=taken_back(inner.verb, inner.thing()))


def _reverted_thing(item: Item) -> str:
    inner = parse_title(reverted_title(item))
    return f"the change that {inner.predicate()}" if inner.verb else inner.thing()


#: Verbs a fix's title may open with to say what the fix does.
_FIXING_VERBS = frozenset(
    [
        "fixes",
        "avoids",
        "prevents",
        "handles",
        "corrects",
        "ensures",
        "makes",
        "uses",
        "adds",
        "allows",
        "removes",
        "skips",
        "keeps",
        "stops",
        "restores",
        "rejects",
        "resolves",
        "guards",
        "preserves",
        "returns",
        "respects",
        "supports",
        "checks",
        "validates",
        "updates",
        "sets",
        "reverts",
        "clears",
        "closes",
        "catches",
        "escapes",
        "reports",
        "raises",
        "retries",
        "treats",
        "addresses",
        "mitigates",
        "repairs",
        "patches",
    ]
)


def _describes_the_bug(item: Item, phrase: Phrase) -> bool:
    """True when a fix's title reads as its bug ("changes file corruption", "causes a
    crash"): a verb no fix opens with, before the fault it fixes."""
    first = tidy(item.headline_title).split(" ", 1)[0].lower()
    return (
        item.kind == "fix"
        # "gracefully handles panics": the adverb goes with a verb a fix opens with.
        and phrase.verb.rsplit(" ", 1)[-1] not in _FIXING_VERBS
        # "Do not deduplicate nondeterministic nodes": what stops happening is the fix.
        and not phrase.verb.startswith("no longer")
        and bool(SEVERE.search(phrase.rest))
        # "Give a specific error when X": an instruction says what the fix does; so does
        # "Pass panics to the fallback handler".
        and first not in BASE_FORMS
        and first not in NOUN_OR_VERB
    )


def reads_as_clause(item: Item) -> bool:
    """True when ``item``'s title reads as what its repository did (``adds X``), not only as
    a title to name as written (a sentence, a noun phrase, an unknown verb, or a verb
    before a pile of bare nouns no reader can parse: "enables formatter ir debugger")."""
    phrase = phrase_of(item, quote=True)
    return (
        not phrase.rest.startswith("\u201c")
        and not _noun_pile(phrase.rest)
        and not _UNPARSABLE.search(phrase.rest)
    )


#: What no sentence can carry from a title: parts joined by "+" ("pipeline + dispatch-grid +
#: vec4-align helpers"), the author's own history ("a regression in the previous refactor"),
#: a verb that lost its object ("instead of treating as JS").
_UNPARSABLE = re.compile(
    r"\w \+ \w"
    r"|\b(?:previous|last|earlier|prior|recent) (?:refactor\w*|prs?|pull requests?|commits?"
    r"|changes?|patch\w*|fix\w*|migration|rewrite)\b"
    r"|\b(?:of|without|by|when) (?!being\b)\w+ing as\b",
    re.I,
)


#: Words that start or break up a noun phrase a reader can parse.
_PHRASE_BREAK_WORDS = """
    a an the this that these those its their our your some any all each every no one two
    several many more most other in for to of on with from by at into via as and or when
    if after before during without over under between against per
"""
_PHRASE_BREAKS = frozenset(_PHRASE_BREAK_WORDS.split())


def _noun_pile(rest: str) -> bool:
    """True when ``rest``, what a title's verb acts on, opens with three or more bare words
    and nothing to parse them by (no article, preposition or code: "formatter ir debugger",
    "tensor subclass emulated param name")."""
    words = rest.split()
    opening = []
    for word in words:
        if word.lower() in _PHRASE_BREAKS or not re.fullmatch(r"[a-z][a-z-]*", word):
            break
        opening.append(word)
    # Three words are a compound a reader knows ("compiler analysis phase") unless one is
    # an abbreviation ("formatter ir debugger").
    jargon = any(len(word) <= 2 for word in opening)
    return len(opening) >= 4 or (len(opening) == 3 == len(words) and jargon)


def place_told(story: Story, members: Sequence[Item]) -> str:
    """The place a sentence telling ``members`` of ``story`` opens with (``the NXP backend``),
    or ``""``: none when the story has none or its changes name it themselves (never "In
    semantic, biome resolves X in the semantic model")."""
    place = area_of(story)
    told = " ".join(phrase_of(item, quote=True).predicate() for item in members)
    return "" if not place or names_place(told, place) else place


def names_place(text: str, place: str, inside_words: bool = False) -> bool:
    """True when ``text`` names ``place`` already: "adds the MLX delegate" names "the MLX
    backend", "resolves X in the semantic model" names "the semantic model"; with
    ``inside_words``, a word that holds it does too ("LinesCodec" names the codec)."""
    name = place.removeprefix("the ").removesuffix(" backend")
    if inside_words:  # "task dumps" names the taskdump module too
        squeezed = re.sub(r"[\s_-]", "", text.lower())
        return name.lower() in text.lower() or re.sub(r"[\s_-]", "", name.lower()) in squeezed
    return bool(re.search(rf"\b{re.escape(name)}\b", text, re.I))


def story_sentence(
    story: Story,
    members: Sequence[Item],
    cite: Callable[[Item], str],
    following: int = 0,
    escape: Callable[[str], str] = str,
    opener: str = "",
    who_said: str = "",
    apart: bool = False,
) -> tuple[str, str]:
    """One sentence telling ``members`` of ``story``, each cited where its part ends, and
    what is left to tell in a second one (``""`` when all is told).

    Members sharing a verb share it (``enables A [1] and B [2]``), and a common ending is
    said once. ``cite`` returns the citation text for an item; the sentence opens with the
    story's place (``In the Metal backend,``) when it has one, and says ``also`` when it is
    ``following`` others of its repository (how many) and has none (``It also`` past the
    second); ``escape`` is applied to all text but the citations. An ``opener`` given
    ("Also in the release") opens it instead of a place or "also"; a
    ``who_said`` given ("The release also") is its subject instead of the story's. With
    ``apart`` (the lead has more to tell), the lead's part ends a sentence of its own and the
    other parts are left for the second ("Y [2] and Z [3]", to follow "It also"); so they
    are when the lead's part has an "and" of its own.
    """
    opener = f"{opener}," if opener else ""
    phrases = [phrase_of(item, quote=True) for item in members]
    then = ""
    also = ""
    if not opener and (place := place_told(story, members)):
        opener = f"In {place},"  # "In the NXP backend, ExecuTorch enables …"
    elif not opener and following:
        also = " also"  # "biome also resolves …": one more story, with no filler before it
    who = escape(subject(story, initial=not opener)) + also
    if also and following > 1:
        who = "It also"  # the third story of a repository: its name a third time is too many
    who = who_said or who
    verbs = {phrase.verb for phrase in phrases}
    # Titles without a verb share "lands": "lands X [1] and Y [2]".
    nouns = all(not (phrase.verb or phrase.instruction) for phrase in phrases)
    # "fixes X by using Y [1] and Z [2]" would read as using Z: a means keeps its own verb.
    means = any(re.search(r" by \w+ing\b", phrase.rest) for phrase in phrases)
    if len(members) > 1 and not means and (nouns or (len(verbs) == 1 and "" not in verbs)):
        rests = [phrase.thing() if nouns else phrase.rest for phrase in phrases]
        # A quoted title is named whole: no ending of it is shared with another.
        quoted = any(rest.startswith("\u201c") for rest in rests)
        heads, ending = (rests, "") if quoted else _shared_ending(rests)
        parts = [f"{escape(head)}{cite(item)}" for head, item in zip(heads, members, strict=True)]
        tail = f" {escape(ending)}" if ending else ""
        said = f"{who} {'lands' if nouns else phrases[0].verb} {join_words(parts)}{tail}"
    else:
        # "ExecuTorch uploads javadoc" is too short to read as news on its own.
        # A release is news whatever its length ("releases svelte@5.55.2").
        short = (
            len(members) == 1
            and len(phrases[0].predicate().split()) < 3
            and members[0].kind != "release"
            # "adds `JoinMap::try_join_next`", "adds LazyFrame.gather": a name is news enough,
            # in a sentence of four words or more ("ExecuTorch enables X" is three).
            and not (
                re.search(r"`|\w\.\w|::|\w_\w|[a-z][A-Z]", phrases[0].rest)
                and len(f"{who} {phrases[0].predicate()}".split()) >= 4
            )
        )
        where = " on the main branch" if short else ""
        parts = [
            f"{escape(p.predicate() + where)}{cite(item)}"
            for p, item in zip(phrases, members, strict=True)
        ]
        said = f"{who} {join_words(parts)}"
        if len(parts) > 1 and (apart or re.search(r"\band\b", phrases[0].predicate())):
            # "uses X and supports Y [3] and includes Z [4]": two "and"s, one sentence too many.
            said, then = f"{who} {parts[0]}", join_words(parts[1:])
    return (f"{escape(opener)} {said}" if opener else said), then


def _shared_ending(rests: list[str]) -> tuple[list[str], str]:
    """Split ``rests`` into their own heads and the ending they all share (two words or more)."""
    split = [rest.split(" ") for rest in rests]
    shared = 0
    while (
        all(len(words) > shared + 1 for words in split)
        and len({words[-1 - shared].lower() for words in split}) == 1
    ):
        shared += 1
    if shared < 2:
        return rests, ""
    return [" ".join(words[:-shared]) for words in split], " ".join(split[0][-shared:])
