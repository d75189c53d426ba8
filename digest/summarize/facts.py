"""What a pull request says that a team lead can act on, read from its title, body and files.

Each signal is a plain pattern over the record: a measured speed-up quoted in the body
("2.7x faster"), a new required version ("bump the Vulkan SDK to 1.4.350.0"), a removal
or deprecation of something users call, new operator/backend/platform support, a change
to an option or API, and the code directory the change lives in.
"""

from __future__ import annotations

import re
from collections import Counter

from msgspec import Struct

from digest.models import PullRequest

_NUMBER = r"(?<![\w.])(\d+(?:\.\d+)?)"
_SPEED = re.compile(
    _NUMBER + r"\s?(?:[x\u00d7]|times|%)\s+(faster|speed-?ups?|less memory|lower latency|"
    r"(?:higher|more) throughput|smaller binar(?:y|ies)|fewer (?:allocations|copies|"
    r"kernel launches|instructions)|memory reduction|reduction in (?:memory|latency|"
    r"runtime|compile time)|(?:latency|memory|runtime) reduction)\b"
    r"|speed-?up of " + _NUMBER + r"\s?([x\u00d7%])",
    re.I,
)
_REQUIREMENT = re.compile(
    r"\b(?:bump(?:s|ed|ing)?|upgrad(?:e|es|ed|ing)|updat(?:e|es|ed|ing)|pin(?:s|ned)?|"
    r"requir(?:e|es|ed|ing)|needs? bumping of|rais(?:e|es|ed|ing))\s+(?:the\s+)?"
    r"(?:(?:minimum|required)\s+)?(?:version\s+of\s+)?"
    r"(?P<name>[A-Za-z][\w.+*-]*(?:\s+[A-Za-z][\w.+*-]*){0,2}?)\s+"
    r"(?:(?:version|pin|requirement|dependency)\s+)?(?:from\s+\S+\s+)?to\s+v?"
    r"(?P<version>\d+(?:\.\d+)+(?:[-.]?[a-z]+\d*)?)\b",
    re.I,
)
# Cheap tests that let most bodies skip the slower patterns.
_SPEED_HINT = re.compile(r"\d\s?(?:[x\u00d7%]|times)|speed-?up of", re.I)
_BREAKING_WORDS = ("breaking", "incompatible", "no longer supported", "removed", "deprecated")
_TESTS = re.compile(r"\btest(s|ing)?\b", re.I)
_WITH_TESTS = re.compile(r"\b(and|with|\+|plus)\s+(unit\s+)?tests?\b", re.I)
_FILE_NAME = re.compile(r"\w\.(txt|py|toml|cfg|json|ya?ml|cmake|bzl|sh|lock)\b|/", re.I)
_NOT_A_PACKAGE = frozenset(
    {"main", "version", "it", "this", "the", "package", "branch", "release", "docs"}
)
_REMOVAL_TITLE = re.compile(
    r"^(remove|delete|drop)\b(?! (the )?(unused|dead|redundant|stale|"
    r"duplicated?|obsolete|leftover|old|debug|extra|unnecessary|temporary|test|tests|"
    r"comment|comments|todo|xfail|skip|workaround|hack|print|logging|noise|warning)\b)",
    re.I,
)
_DEPRECATION_TITLE = re.compile(r"^deprecate\b|\bdeprecate (the )?\w", re.I)
_BREAKING_BODY = re.compile(
    r"\b(bc[- ]breaking|breaking change|backwards?[- ]incompatible|no longer supported|"
    r"has been removed|have been removed|is deprecated|are deprecated|will be removed)\b",
    re.I,
)
#: What says a change breaks nothing: "no breaking change", "not BC-breaking", "non-breaking".
_NOT_BREAKING = re.compile(
    r"\b(?:no|not an?|non|without(?: any)?|is not an?|isn't an?)[\s-]+(?:bc[- ]breaking|"
    r"breaking changes?|backwards?[- ]incompatible\w*)",
    re.I,
)
_SUPPORT = re.compile(
    r"^(support|enable[sd]?|add(?:s|ed)?|implement\w*|introduc\w+|lower\w*|delegat\w+)\b[^:]*"
    r"\b(ops?|operators?|kernels?|backends?|platforms?|devices?|models?|dtypes?|bf16|bfloat16|"
    r"fp16|fp8|int4|int8|quantiz\w+|windows|macos|android|ios|linux|cuda|rocm|metal|vulkan|"
    r"webgpu)\b",
    re.I,
)
#: "Add support for Azure request signing", "Support for X": support for anything named.
_SUPPORT_FOR = re.compile(
    r"^(?:(?:add(?:s|ed)?|introduc\w+|implement\w*)\s+)?(?:initial\s+|experimental\s+|basic\s+|"
    r"native\s+|preliminary\s+|first-class\s+)?support\s+(?:for|of)\s+\S",
    re.I,
)
_ENABLING = re.compile(r"(support|enable|add|implement|lower|delegate)\w*\b", re.I)
_API = re.compile(
    r"\b(options?|flags?|arguments?|args|parameters?|params|config(uration)?|settings?|"
    r"defaults?|environment variables?|env vars?|api|apis|cli|interface)\b",
    re.I,
)
#: A line of the description that changes what users configure: "- Add `pad_groups` config
#: option", "Make `inner_attention` a python config, instead of string `attn_backend`".
_RECONFIGURES = re.compile(
    r"^[\s*+-]*(?:add(?:s|ed)?|introduc\w+|expose[sd]?|make[sd]?|rename[sd]?|replace[sd]?|"
    r"remove[sd]?|new)\b[^\n.]{0,40}?`[\w.-]+`[^\n.]{0,40}?\b(?:config(?:uration)?|option|"
    r"flag|argument|setting|parameter|environment variable)s?\b(?P<rest>[^\n]*)",
    re.I | re.M,
)
_REPLACES = re.compile(r"\b(instead of|replac\w+|renam\w+|no longer|remov\w+)\b", re.I)
_OPS = re.compile(r"`([^`\s][^`]{0,40})`|\b((?:aten|torch|tosa)\.[\w.]+\w)")
_NON_CODE_DIRS = frozenset(
    [
        "test",
        "tests",
        "testing",
        "doc",
        "docs",
        ".github",
        ".ci",
        "ci",
        "scripts",
        "example",
        "examples",
        "benchmark",
        "benchmarks",
    ]
)
_NON_CODE_SUFFIXES = (".md", ".rst", ".txt", ".yml", ".yaml", ".json", ".cfg", ".toml", ".lock")


class Requirement(Struct, frozen=True):
    """A version the change needs: ``name`` (``Vulkan SDK``) at ``version`` (``1.4.350.0``)."""

    name: str
    version: str


class Facts(Struct, frozen=True):
    """Signals a pull request gives about what its users should do."""

    #: A measured improvement quoted from the PR, e.g. ``2.7x faster``; ``""`` when none.
    speed_claim: str = ""
    requirement: Requirement | None = None
    #: It removes or breaks something users call (a removal title, or breaking language).
    removes: bool = False
    deprecates: bool = False
    #: It adds support for an operator, backend, platform, device, model or dtype.
    new_support: bool = False
    #: It touches an option, flag, default, config or API.
    api_change: bool = False
    #: Operator or identifier names the title mentions (``aten.bmm``, ``split``).
    names: tuple[str, ...] = ()
    #: Its description adds (``"added"``) or replaces (``"replaced"``) an option users set.
    reconfigures: str = ""
    #: The code directory most of the change lives in (``backends/arm``), or ``""``.
    place: str = ""
    #: It makes an experimental, preview or unstable feature part of the stable product.
    stabilizes: bool = False


# Removing a restriction, a check, a workaround or dead code helps users; it breaks nothing.
_HARMLESS_REMOVAL = re.compile(
    r"\b(restrictions?|limitations?|limits?|constraints?|requirements?|workarounds?|hacks?|"
    r"checks?|asserts?|assertions?|guards?|validations?|issues?|bugs?|errors?|failures?|"
    r"problems?|licen[cs]es?|pyre\S*|noqa|type: ?ignore|suppressions?|"
    r"warnings?|unused|dead|inexistent|nonexistent|non-existent|legacy code|copies|copy|"
    r"overhead|duplicat\w+|redundan\w+|"
    r"dependency on|skips?|xfails?|flak\w+|temp|temporary|build files|leftovers?|stale|"
    r"(not|no longer) (needed|used)|fix(es)? not needed|artifacts?|"
    # A status or gate taken away lifts it: "Remove `Preview` rule status" makes rules stable.
    r"(?:preview|experimental|unstable|beta|nightly|alpha)\W*(?:\w+\s+)?(?:status|gates?|"
    r"labels?|markers?|tags?))\b",
    re.I,
)


#: A removal of the project's own internals: an include, a use of something, a helper, a
#: compiler pass, a private (``_name``, ``name_``) member, an example or benchmark.
_INTERNAL_REMOVAL = re.compile(
    r"\b(includes?|usages?|uses? of|deps? on|dependency on|helpers?|pass|passes|no-?ops?|"
    r"permutes?|ivars?|submodules?|examples?|benchmarks?|marks?|comments?|scripts?|tests?|"
    r"code ?paths?|from [\w/.-]+\.(?:py|cpp|cc|h|rs|ts|js)|wrapping|initiali[sz]ers?|internal|"
    r"specifiers?|dispatch|logic|build (?:config\w*|files?|scripts?)|invalid|incorrect|wrong|"
    r"being generated)\b"
    r"|(?<![\w.])_[a-z]\w*|\b[a-z]\w*_(?!\w)|\b[A-Z]\w*Pass(?:es)?\b",
    re.I,
)
#: What a removal takes from users when a title names it: a name from the code, a file, a
#: kind of thing users call or set, a support, a platform; "Remove slice creation" or
#: "Remove last remnants of requantize kernels" names none of them.
_USER_FACING = re.compile(
    r"`|\b[A-Za-z_]\w*\.[A-Za-z_]\w*|\b[a-z]+_[a-z0-9_]+\b|\b[A-Z][a-z0-9]+[A-Z]\w*|"
    r"\b(?i:support|options?|flags?|settings?|arguments?|parameters?|kwargs?|apis?|commands?|"
    r"subcommands?|modules?|packages?|functions?|methods?|class(?:es)?|config\w*|fields?|"
    r"attributes?|propert(?:y|ies)|aliases?|deprecated|python|platforms?|targets?|backends?|"
    r"features?|rules?|variables?|env|endpoints?|hooks?|plugins?|extras?|formats?|modes?)\b"
)
_QUIETS = re.compile(r"(?:suppress|silence|hide|filter|ignore|mute|fix)\w*\b", re.I)
#: A title that adds a deprecation warning, and what it warns of when it names it ("Add
#: deprecation warning for `Float8Config`"): it removes nothing yet.
DEPRECATION_NOTICE = re.compile(
    r"\bdeprecation (?:warnings?|notices?|messages?)\b"
    r"(?:\s+(?:for|on|to|about|when using)\s+(?P<what>`[^`]{1,80}`|[A-Za-z_]\w*(?:\.\w+)+"
    r"|(?-i:[A-Z][a-z0-9]+[A-Z]\w*)))?",
    re.I,
)
#: A title that makes something users could only try behind a flag, a preview or an
#: experimental namespace part of the stable product: "Stabilize `LocalRuntime`", "Graduate
#: qwen3 from experiments to core", "Move CPU kernels out of experimental". Steadying a test,
#: a seed or a benchmark ("Stabilize VGF fp16 test") is not one.
_STABILIZES = re.compile(
    r"^(?:stabili[sz]e[sd]?|graduate[sd]?)\b(?![^\n]*\b(?:tests?|flak\w*|seeds?|ci|benchmark\w*|"
    r"numerics?|computations?|cache keys?|ordering|output|hash\w*|memory|usage|timings?|builds?|"
    r"performance|latency|throughput|results?|behaviou?r|names?|ids?)\b)"
    r"|\bout of (?:the )?(?:[\w.]+\.)?(?:experimental|experiments?|preview|unstable|beta|"
    r"nightly|prototype)\b"
    r"|\bfrom (?:the )?(?:experimental|experiments?|prototype)\b[^\n]{0,30}\bto\b"
    r"|^(?:promote[sd]?|mark(?:s|ed)?|move[sd]?|make[sd]?)\b[^\n]{0,50}\b(?:to|as) stable\b"
    r"|\bno longer (?:experimental|unstable|in preview|a preview)\b",
    re.I,
)


def facts_of(pull: PullRequest, title: str, body: str) -> Facts:
    """Read :class:`Facts` from ``pull``'s display ``title`` and cleaned ``body``."""
    names = tuple(dict.fromkeys(a or b for a, b in _OPS.findall(title)))
    text = f"{title}\n{body[:2500]}"
    lower = text.lower()
    breaking = any(word in lower for word in _BREAKING_WORDS) and bool(
        _BREAKING_BODY.search(_NOT_BREAKING.sub("", text))
    )
    deprecates = bool(_DEPRECATION_TITLE.search(title) or DEPRECATION_NOTICE.search(title))
    # "Suppress deprecation warnings from #4074": the project's own noise, nothing deprecated.
    deprecates = deprecates and not _QUIETS.match(title)
    removal = (
        bool(_REMOVAL_TITLE.match(title))
        and not _HARMLESS_REMOVAL.search(title)
        and not _INTERNAL_REMOVAL.search(title)
        and bool(_USER_FACING.search(title))
    )
    return Facts(
        speed_claim=_speed_claim(text) if _SPEED_HINT.search(text) else "",
        requirement=_requirement(text[: len(title) + 800]),
        # A deprecation warns of a removal to come: it removes nothing yet.
        removes=(removal or breaking) and not deprecates,
        deprecates=deprecates,
        # Tests of a dtype or op are not support for it ("Add bfloat16 tests"); support
        # "and tests" is.
        new_support=bool(
            _SUPPORT.search(title)
            or _SUPPORT_FOR.match(title)
            or (names and _ENABLING.match(title))
        )
        and not (_TESTS.search(title) and not _WITH_TESTS.search(title)),
        api_change=bool(_API.search(title)),
        reconfigures=_reconfigures(body[:2500]),
        names=names,
        place=_place(pull),
        stabilizes=bool(_STABILIZES.search(title)),
    )


def _reconfigures(body: str) -> str:
    """``"replaced"`` when a line of ``body`` swaps or renames a named option users set,
    ``"added"`` when one adds or reshapes it, ``""`` when none does."""
    found = ""
    for match in _RECONFIGURES.finditer(body):
        if _REPLACES.search(match.group(0)):
            return "replaced"
        found = "added"
    return found


def _speed_claim(text: str) -> str:
    """The first measured improvement in ``text`` as a noun phrase: ``a 2.7x speed-up``."""
    match = _SPEED.search(text)
    if not match:
        return ""
    if match.group(1):
        number, what = match.group(1), match.group(2).lower()
        unit = "%" if "%" in match.group(0) else "x"
    else:
        number, unit, what = match.group(3), match.group(4).replace("\u00d7", "x"), "speed-up"
    if what in ("faster",) or what.startswith("speed"):
        article = "an" if re.match(r"(8|11|18)(\D|$)", number) else "a"
        return f"{article} {number}{unit} speed-up"
    return f"{number}{unit} {what}"


def _requirement(text: str) -> Requirement | None:
    for match in _REQUIREMENT.finditer(text):
        name = re.sub(r"\s+(version|pin|requirement)$", "", match.group("name").strip(), flags=re.I)
        if name.lower() in _NOT_A_PACKAGE or name.lower().startswith(("to ", "from ")):
            continue
        # A file ("bump version.txt to 1.0") holds the project's own version: nothing to install.
        if not _FILE_NAME.search(name):
            return Requirement(name=name, version=match.group("version").rstrip("."))
    return None


def _place(pull: PullRequest) -> str:
    """The directory (two levels at most) holding most changed lines of product code."""
    lines: Counter[str] = Counter()
    for change in pull.files:
        path = change.path.lower()
        parts = path.split("/")
        name = parts.pop()
        if (
            not parts
            or not _NON_CODE_DIRS.isdisjoint(parts)
            or name.startswith("test_")
            or "_test." in name
            or name.endswith(_NON_CODE_SUFFIXES)
        ):
            continue
        parts = change.path.split("/")[:-1][:2]
        lines["/".join(parts)] += (change.additions or 0) + (change.deletions or 0) + 1
    if not lines:
        return ""
    return max(sorted(lines), key=lambda place: lines[place])
