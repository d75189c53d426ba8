"""Decide what kind of change a pull request is, where it belongs and how much it matters.

The score ranks changes by what matters to someone who *uses* the project: new
capabilities, speed, removals and breaking changes and reverts rise; version bumps,
lint, CI-only, test-only, typo and bot changes sink. Size counts only outside tests,
docs and CI, and on a logarithmic scale so one huge rename does not win the day.
"""

from __future__ import annotations

import math
import re

from digest.models import PullRequest
from digest.summarize.base import Item
from digest.summarize.clean import summarize_body, summarize_fragment
from digest.summarize.facts import Facts, facts_of
from digest.summarize.kinds import (
    BOT,
    GITMOJI,
    GITMOJI_KINDS,
    GRAVE,
    HOLE,
    KIND_MARKERS,
    KIND_WEIGHT,
    NEW_DEFAULT,
    NOTES_KEPT,
    ROUTINE_KINDS,
    SEVERE,
    claimed,
    kind_of,
    mechanical,
    release_version,
    style_only,
    turns_off,
)
from digest.summarize.releases import notes_version, release_notes, upkeep_only
from digest.summarize.verbs import third_person
from digest.text import one_line

__all__ = [
    "GRAVE",
    "REVERT_QUOTE",
    "ROUTINE_KINDS",
    "SEVERE",
    "area_key",
    "classify",
    "split_title",
]

#: Conventional-commit types that say little: their scope, when it is a kind, says more.
_LOOSE_TYPES = frozenset({"chore", "ci", "build", "style"})
_PREFIX = re.compile(
    r"^\s*(?:\[(?P<bracket>[^\]]{1,40})\]\s*:?\s*"
    # "Fix: render X": a type some projects write capitalised.
    r"|(?P<conventional>[a-z]+|Fix|Feat|Docs|Chore|Refactor|Perf)"
    r"(?:\((?P<scope>[^)]{1,40})\))?(?P<bang>!)?:\s+"
    r"|(?P<colon>[A-Za-z][\w .+/-]{0,38}?)\s*:\s+"
    r"|(?P<dash>[A-Z][\w .+/-]{2,38}?)\s+-\s+)"
)
#: Folders and names of tests, their fixtures and snapshots, and benchmarks.
_TEST_PART = re.compile(
    r"(^|/)(tests?|testing|__tests__|test[-_]?data|test[-_]?utils|fixtures|snapshots|"
    r"mdtests?|e2e|benches|benchmarks?|bench|asv_bench|playground|[\w-]+[_-]tests?)/"
    r"|(^|/)(test_[^/]*|[^/]*_tests?\.\w+|[^/]*\.(test|spec|bench)\.\w+|conftest\.py|pytest\.ini|"
    r"[^/]*\.snap(\.new)?)$"
)
_DOC_DIRS = ("docs/", "doc/", "documentation/", "site/content/", "website/")
#: A top folder of documentation by another name: ``docs_src/``, ``doc-site/``.
_DOC_TOP = re.compile(r"^(docs?|documentation)[_-][\w-]+/")
# Images go with the pages that show them.
_DOC_SUFFIXES = (".md", ".mdx", ".rst", ".markdown", ".png", ".jpg", ".jpeg", ".gif", ".svg")
# Files about the repository itself: who owns what, what git ignores, release notes to be.
_CHORE_FILES = frozenset(
    (
        "codeowners",
        ".gitignore",
        ".gitattributes",
        ".mailmap",
        ".editorconfig",
        ".git-blame-ignore-revs",
        ".pre-commit-config.yaml",
        "typos.toml",
        "_typos.toml",
        ".typos.toml",
        "dprint.json",
        ".prettierrc",
    )
)
#: File names that pin or list dependencies (``requirements-dev.txt``, ``Cargo.lock``); a
#: source file that merely shares the word (``constraints.rs``) is code.
_DEPS_MARK = re.compile(
    r"^((requirements|constraints)[\w.-]*\.(txt|in)|package(-lock)?\.json|pnpm-lock\.yaml|"
    r"yarn\.lock|cargo\.lock|poetry\.lock|uv\.lock|pinned[\w.-]*|[\w.-]*\.pin|"
    r"environment\.ya?ml|rust-toolchain(\.toml)?|renovate\.json5?|"
    r"install[_-](requirements|deps|dependencies)[\w.-]*)$"
)
#: The configuration of the tools that cut and publish releases (cargo-dist, release-plz,
#: GoReleaser, git-cliff): the release pipeline, as CI is.
_RELEASE_TOOLING = frozenset(
    [
        *("dist-workspace.toml", "dist.toml", "release-plz.toml"),
        *(".goreleaser.yml", ".goreleaser.yaml", "cliff.toml"),
    ]
)
_CI_PATH = (
    ".github/",
    ".ci/",
    "ci/",
    ".circleci/",
    "scripts/ci",
    ".buckconfig",
    "docker/",
    ".buildkite/",
    ".gitlab-ci",
    "azure-pipelines",
)
_BUILD_PATH = (
    "cmakelists.txt",
    ".cmake",
    "buck",
    "targets",
    "setup.py",
    "pyproject.toml",
    ".bzl",
    "cargo.toml",
    "makefile",
    "justfile",
    "build.rs",
)
#: What a fix adds to its score when its title or summary names a ``GRAVE`` fault, and when
#: it names a milder one users still hit (an error, a failure, an incorrect check).
GRAVE_FIX_BONUS = 5.0
#: A feature that only adds or words a message: "Warn when …", "Add spans for toml
#: reading", "Improve the 403 hint".
_MESSAGE_ONLY = re.compile(
    r"(?:warn(?:s|ing)?\b|(?:add|emit|show|print|log)s? (?:an? |more )?(?:\w+ )?"
    r"(?:warnings?|hints?|notes?|spans?|log(?:ging| messages?)?)\b|improves? (?:the )?"
    r"(?:[\w-]+ ){0,2}(?:hints?|messages?|warnings?|wording)\b)",
    re.I,
)
SEVERE_FIX_BONUS = 1.5
#: A feature that only gives a setting another name: "Add an environment variable for
#: `UV_VENV_RELOCATABLE`", "Add an alias for `--frozen`".
_ANOTHER_WAY = re.compile(
    r"(?:add|expose)s? (?:an? |the )?(?:environment variable|env var|alias|short flag|flag) "
    r"(?:for|to set|matching)\b",
    re.I,
)
#: What a grave fix adds again when the fault is a hole or corrupted memory (``HOLE``).
HOLE_FIX_BONUS = 1.0
#: Instructions for coding assistants: the repository's tooling, not its documentation.
_AGENT_FILES = frozenset(
    ("claude.md", "agents.md", "gemini.md", "copilot-instructions.md", "skill.md", ".agents")
)
_AGENT_DIRS = (".claude/", ".cursor/", ".agents/", ".codex/")
#: What the title of a change that cuts a release says after its "ci(release):": a version,
#: "version packages", or nothing but "release" or "publish".
_NAMES_RELEASE = re.compile(
    r"\bv?\d+\.\d+|\bversion packages\b|^\s*(?:release|publish)(?:\s+\S+)?\s*$", re.I
)
#: Notes that go with a change into its release (changesets, news fragments).
_RELEASE_NOTE_DIRS = (".changeset/", "changelog.d/", "news/", "changes/", "newsfragments/")


#: A revert titled by the title it takes back, in quotes: 'Revert "[ty] Emit X"'.
REVERT_QUOTE = re.compile(r'^\s*(?:revert|back\s?out)\s+["“](?P<inner>.*)["”]\s*$', re.I | re.S)


def classify(pull: PullRequest) -> Item:
    """Return ``pull`` as an :class:`Item`: its kind, area, display title, summary and score."""
    area, title, markers = split_title(pull.title)
    if area and area_key(area) == area_key(pull.repo.rsplit("/", 1)[-1]):
        # "[ExecuTorch][WebGPU] Shared helpers": the project's own name is no area of it.
        area, title, more = split_title(title)
        markers = (*markers, *more)
    code_lines, kinds_by_path = _measure(pull)
    body, summary = summarize_body(pull.body, pull.title)
    if pull.fragment:  # its note for users says what it means to them
        summary = summarize_fragment(pull.fragment, pull.title) or summary
    facts = facts_of(pull, title, body)
    if not markers and re.search(r"\bperf(ormance)?$", area, re.I):
        markers = ("perf",)  # "Attention Perf: transpose K early": the tag says what it is for
    kind = kind_of(pull, title, markers, kinds_by_path, facts)
    if kind == "revert" and not area and (quoted := REVERT_QUOTE.match(pull.title)):
        area = split_title(quoted["inner"])[0]  # 'Revert "[ty] Emit X"': a change of ty
    version = (release_version(pull, title, markers) or "") if kind == "release" else ""
    if kind == "release" and not version:
        version = notes_version(pull)  # "ci: release" whose changelog is headed "## 2.4.13"
    if kind == "release":
        version = _with_package(pull, version)
    return Item(
        pull=pull,
        kind=kind,
        area=area,
        headline_title=title,
        summary=summary,
        code_lines=code_lines,
        score=_score(pull, kind, code_lines, summary, facts),
        facts=facts,
        version=version,
    )


def _with_package(pull: PullRequest, version: str) -> str:
    """``version`` named with its package (``markdoc@2.0.4``) when ``pull`` writes only the
    changelogs of a monorepo's other packages ("[ci] release v2.0.4" in withastro/astro
    releases @astrojs/markdoc, not astro); as it is when it names one, or when a changelog
    is the repository's own (at the top, or in the folder named after it)."""
    if not version or "@" in version:
        return version
    logs = [f.path for f in pull.files if f.path.rsplit("/", 1)[-1].lower() == "changelog.md"]
    own = pull.repo.rsplit("/", 1)[-1].lower()
    if not logs or any("/" not in p or p.split("/")[-2].lower() == own for p in logs):
        return version
    return f"{logs[0].split('/')[-2]}@{version.lstrip('vV')}"


def split_title(title: str) -> tuple[str, str, tuple[str, ...]]:
    """Split ``title`` into (area, remaining title, kind markers).

    ``"[ROCm][CI] Switch runner"`` gives ``("ROCm", "Switch runner", ("ci",))``;
    ``"Arm backend: Add ops"`` gives ``("Arm backend", "Add ops", ())``.
    """
    rest = one_line(title)
    area = ""
    markers: list[str] = []
    if emoji := GITMOJI.match(rest):  # "✨ Add X", "🔖 Release version 1.2.3"
        markers.append(GITMOJI_KINDS[emoji.group(1)])
        rest = rest[emoji.end() :]
    while match := _PREFIX.match(rest):
        kind = KIND_MARKERS.get((match.group("conventional") or "").lower())
        if kind:
            markers += ["breaking", kind] if match.group("bang") else [kind]
            scope = (match.group("scope") or "").strip()
            scoped = KIND_MARKERS.get(scope.lower())
            if scoped == "release" and not _NAMES_RELEASE.search(rest[match.end() :]):
                # "chore(release): update versions.json in bucket on release": the release
                # tooling, not a release, which names its version or its packages.
                scoped = None
            if scoped and kind in _LOOSE_TYPES:
                markers.insert(len(markers) - 1, scoped)  # chore(deps), ci(release): the scope
            elif scoped:
                markers.append(scoped)
            elif scope and scoped is None and not area and _is_area(scope):
                area = scope
            rest = rest[match.end() :]
            continue
        label = (
            match.group("bracket")
            or match.group("conventional")
            or match.group("colon")
            or match.group("dash")
            or ""
        ).strip()
        if len(label.split()) > 5:
            break
        marker = KIND_MARKERS.get(label.lower())
        if marker is None and re.match(r"(?:re-?land|reapply)\b", label, re.I):
            marker = "reland"  # "[reland without ghstack]": how it landed, not where
        after = rest[match.end() :]
        # "sync: fix X", "rt: add Y": a lower-case word before a lower-case title is a place.
        terse = label.islower() and " " not in label and after[:1].islower()
        # A bracketed tag is a place even when it is a verb's word ("[compile] X").
        bracketed = bool(match.group("bracket")) and " " not in label
        if marker is None and not terse and not bracketed and not _is_area(label):
            break  # "Add coreml_compute_plan.py: report ...": the colon is part of the title.
        if marker is not None:
            if marker:
                markers.append(marker)
        elif area:
            break  # A second area-like prefix is part of the title ("Pass migration - part 1").
        else:
            area = label
        rest = after
    rest = rest.strip() or one_line(title)
    return area, rest, tuple(markers)


def _is_area(label: str) -> bool:
    """True when a title prefix names a place (``Arm backend``), not an action or a file."""
    first = label.split(" ", 1)[0]
    if third_person(first) is not None and first[1:] == first[1:].lower():
        return False
    return not re.search(r"\.(py|cpp|cc|h|hpp|c|cu|md|txt|yaml|yml|json|sh|toml)\b", label)


def area_key(area: str) -> str:
    """Normalise an area name for grouping: ``Arm Backend`` and ``Arm backend`` are one."""
    key = re.sub(r"[^a-z0-9]+", " ", area.lower()).strip()
    return re.sub(r"\s+(backend|support)$", "", key)


def _measure(pull: PullRequest) -> tuple[int, set[str]]:
    """Return (lines changed in code files, the kinds of non-code files touched)."""
    code = 0
    kinds: set[str] = set()
    for change in pull.files:
        path = change.path.lower()
        if path.startswith(_RELEASE_NOTE_DIRS):
            continue  # a note for the next release goes with any kind of change
        kind = path_kind(path)
        if kind:
            kinds.add(kind)
            continue
        kinds.add("code")
        code += (change.additions or 0) + (change.deletions or 0)
    return code, kinds


def path_kind(path: str) -> str:
    """What a lower-cased ``path`` is when it is not product code: ci, test, deps, build,
    docs or chore (the repository's own files: CODEOWNERS, .gitignore)."""
    name = path.rsplit("/", 1)[-1]
    if path.startswith(_CI_PATH) or "/.github/" in path or name in _RELEASE_TOOLING:
        return "ci"
    if _TEST_PART.search(path):
        return "test"
    if _DEPS_MARK.match(name) or "ci_commit_pins" in path or "/requirements/" in f"/{path}":
        return "deps"
    if name.endswith(_BUILD_PATH):
        return "build"
    if name in _AGENT_FILES or path.startswith(_AGENT_DIRS):
        return "chore"
    if (
        path.startswith(_DOC_DIRS)
        or _DOC_TOP.match(path)
        or name.endswith(_DOC_SUFFIXES)
        or name.startswith("readme")
    ):
        return "docs"
    if name in _CHORE_FILES or path.startswith(_AGENT_DIRS) or name in _AGENT_FILES:
        return "chore"
    return ""


def _score(pull: PullRequest, kind: str, code_lines: int, summary: str, facts: Facts) -> float:
    """How much ``pull`` matters to the project's users; see the module docstring."""
    score = KIND_WEIGHT.get(kind, 1.0)
    score += min(math.log2(1 + code_lines), 12.0) / 3.0
    if kind == "release" and pull.older_line:
        score -= 3.0  # A patch of an older line: its users need it, most users are past it.
    if kind == "release" and upkeep_only(release_notes(pull)):
        score -= 3.0  # Dependency updates and upkeep only: nothing new for users.
    if kind == "reland" and code_lines >= 200:
        score += 2.5  # A large feature is back: news as much as when it first landed.
    if facts.speed_claim:
        score += 2.0
    elif kind == "perf":
        score -= 2.5  # Faster by an unsaid amount: less news than a new capability.
    told = claimed(f"{pull.title}\n{summary}")  # not "completed it without crashing"
    if kind == "fix" and GRAVE.search(told):
        score += GRAVE_FIX_BONUS  # A crash, a wrong result, a hang, a hole: users must know.
        if HOLE.search(told):
            score += HOLE_FIX_BONUS
    elif kind == "fix" and SEVERE.search(told):
        score += SEVERE_FIX_BONUS  # Users hit it, though it did not take them down.
    if facts.stabilizes and kind == "feature":
        score += 2.5  # What users waited for behind a flag is now for everyone.
    elif facts.new_support and kind in ("feature", "reland"):
        score += 1.5
    if facts.api_change and kind not in ROUTINE_KINDS:
        score += 0.75
    if NOTES_KEPT.match(split_title(pull.title)[1]):
        score -= 3.0  # "Update release notes": the project's bookkeeping, never the day's news
    if kind == "feature" and NEW_DEFAULT.search(split_title(pull.title)[1]):
        score += 2.0  # What users get changes without their asking: they must hear of it.
    elif kind in ("fix", "feature", "refactor") and turns_off(split_title(pull.title)[1]):
        score += 1.0  # What users may rely on is gone when they update: news, if less than
        # a new default (most are a pass or a path of the project's own)
    if kind == "feature" and _MESSAGE_ONLY.match(split_title(pull.title)[1]):
        score -= 1.5  # A new warning or hint: what users read, not what they can do.
    elif kind == "feature" and _ANOTHER_WAY.match(split_title(pull.title)[1]):
        score -= 1.5  # A second way to set what users could set already: less than news.
    if summary:
        score += 0.5
    if BOT.search(pull.author):
        score -= 3.0
    if mechanical(pull) or style_only(pull):
        score -= 1.5  # Moved or reformatted: what users run is the same.
    approvals = sum(1 for review in pull.reviews if review.state == "APPROVED")
    score += min(approvals, 3) * 0.2 + min(pull.comments or 0, 20) * 0.05
    score += min(pull.review_comments or 0, 20) * 0.03 + min(len(pull.participants), 8) * 0.1
    return round(score, 4)
