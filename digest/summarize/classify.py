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
from digest.summarize.clean import summarize_body
from digest.summarize.facts import Facts, facts_of
from digest.summarize.verbs import third_person
from digest.text import one_line

KIND_WEIGHT = {
    "breaking": 9.0,
    "perf": 7.0,
    "feature": 6.0,
    "revert": 6.0,
    "reland": 4.5,
    "fix": 4.0,
    "refactor": 2.0,
    "deps": 2.0,
    "build": 1.5,
    "docs": 1.5,
    "test": 1.0,
    "ci": 0.5,
    "chore": 0.5,
}
#: Kinds that never lead a headline while something else happened.
ROUTINE_KINDS = frozenset({"refactor", "deps", "build", "docs", "test", "ci", "chore"})

# Title markers that say what kind of change it is, not where it is.
_KIND_MARKERS = {
    "ci": "ci",
    "benchmark ci": "ci",
    "docs": "docs",
    "doc": "docs",
    "test": "test",
    "tests": "test",
    "be": "chore",
    "ez": "chore",
    "chore": "chore",
    "nit": "chore",
    "lint": "chore",
    "typing": "chore",
    "reland": "reland",
    "re-land": "reland",
    "revert": "revert",
    "fix": "fix",
    "bugfix": "fix",
    "feat": "feature",
    "feature": "feature",
    "perf": "perf",
    "refactor": "refactor",
    "build": "build",
    "rfc": "",
    "wip": "",
    # Headings of a description pasted into the title: no area, no kind.
    "summary": "",
    "description": "",
    "title": "",
    "context": "",
    "motivation": "",
}
_PREFIX = re.compile(
    r"^\s*(?:\[(?P<bracket>[^\]]{1,40})\]\s*:?\s*"
    r"|(?P<colon>[A-Za-z][\w .+/-]{0,38}?)\s*:\s+"
    r"|(?P<dash>[A-Z][\w .+/-]{2,38}?)\s+-\s+)"
)
_CI_TITLE = re.compile(
    r"\b(to|in|on|for|from) (the )?ci\b"
    r"|\bci (jobs?|workflows?|runs?|failures?|errors?|breakages?)\b",
    re.I,
)
_REMOVAL = re.compile(r"^(remove[sd]?|delete[sd]?|drop(s|ped)?)\b", re.I)
_REVERT_TITLE = re.compile(r"^\s*(revert|back\s?out)\b", re.I)
# A re-land says so up front ("Reland ...", "[Reland]", "Reapply ...") or in a "(re-land)"
# marker; "re-landed" in the middle of a title is a word, not the kind.
_RELAND_TITLE = re.compile(
    r"^\s*(\[?re-?land(ed|ing)?\]?|reapply)\b|\((re-?land(ed)?|reapply)\)", re.I
)
_LABEL_KINDS = (
    (re.compile(r"bc[- ]?breaking|breaking|deprecat", re.I), "breaking"),
    (re.compile(r"perf|performance", re.I), "perf"),
    (re.compile(r"new feature|enhancement|feature", re.I), "feature"),
    (re.compile(r"^(bug|bugfix|fix)", re.I), "fix"),
)
_TITLE_KINDS = (
    (
        re.compile(
            r"\b(remove[sd]?|delete[sd]?|drop(s|ped)?) (the )?(unused|dead|redundant|stale|"
            r"duplicated?|obsolete|leftover|old|debug|extra|unnecessary)\b",
            re.I,
        ),
        "refactor",
    ),
    (
        re.compile(
            r"\b(bump|pin(ned|s)?|upgrade|update (the )?\S+ (version|pin|commit)|"
            r"nightly|version to)\b",
            re.I,
        ),
        "deps",
    ),
    (
        re.compile(
            r"\b(optimi[sz]\w*|speed ?up|faster|perf(ormance)?|latency|throughput|"
            r"reduce (memory|overhead|time)|vectori[sz]\w*|accelerat\w*)\b",
            re.I,
        ),
        "perf",
    ),
    (
        re.compile(r"\b(typo|lint|format(ting)?|spelling|nit|pyre|mypy|flake8|ruff)\b", re.I),
        "chore",
    ),
    (
        re.compile(
            r"^(add(s|ed|ing)?|support(s|ed)?|enable[sd]?|introduc\w+|implement\w*|new|"
            r"expose[sd]?|allow(s|ed)?|initial|create[sd]?)\b",
            re.I,
        ),
        "feature",
    ),
    (
        re.compile(
            r"\b(fix(es|ed)?|bug|crash\w*|correct\w*|handle[sd]?|resolve[sd]?|workaround|"
            r"regression|broken|error)\b",
            re.I,
        ),
        "fix",
    ),
    (
        re.compile(
            r"\b(refactor\w*|clean ?up|move[sd]?|simplif\w*|rename[sd]?|reorgani[sz]\w*)\b", re.I
        ),
        "refactor",
    ),
)
_TEST_PATH = ("test/", "tests/", "testing/", "/test/", "/tests/", "test_", "_test.", "conftest.py")
_DOC_DIRS = ("docs/", "doc/")
# Images go with the pages that show them.
_DOC_SUFFIXES = (".md", ".rst", ".markdown", ".png", ".jpg", ".jpeg", ".gif", ".svg")
# Files about the repository itself: who owns what, what git ignores.
_CHORE_FILES = frozenset(
    (
        "codeowners",
        ".gitignore",
        ".gitattributes",
        ".mailmap",
        ".editorconfig",
        ".git-blame-ignore-revs",
    )
)
_DEPS_FILES = (
    "requirements",
    "constraints",
    "package.json",
    "package-lock.json",
    "poetry.lock",
    "uv.lock",
    "pinned",
    ".pin",
    "environment.yml",
)
_TEST_MARK = re.compile("|".join(map(re.escape, _TEST_PATH)))
_DEPS_MARK = re.compile("|".join(map(re.escape, _DEPS_FILES)))
_CI_PATH = (".github/", ".ci/", "ci/", ".circleci/", "scripts/ci", ".buckconfig", "docker/")
_BUILD_PATH = ("cmakelists.txt", ".cmake", "buck", "targets", "setup.py", "pyproject.toml", ".bzl")
# Authors whose changes are automated. Not merge bots such as pytorchbot: they land
# people's work under their own name.
_BOT = re.compile(r"(\[bot\]|dependabot|renovate|github-actions|pre-commit-ci)", re.I)


def classify(pull: PullRequest) -> Item:
    """Return ``pull`` as an :class:`Item`: its kind, area, display title, summary and score."""
    area, title, markers = split_title(pull.title)
    code_lines, kinds_by_path = _measure(pull)
    body, summary = summarize_body(pull.body, pull.title)
    facts = facts_of(pull, title, body)
    kind = _kind(pull, title, markers, kinds_by_path, facts)
    return Item(
        pull=pull,
        kind=kind,
        area=area,
        headline_title=title,
        summary=summary,
        code_lines=code_lines,
        score=_score(pull, kind, code_lines, summary, facts),
        facts=facts,
    )


def split_title(title: str) -> tuple[str, str, tuple[str, ...]]:
    """Split ``title`` into (area, remaining title, kind markers).

    ``"[ROCm][CI] Switch runner"`` gives ``("ROCm", "Switch runner", ("ci",))``;
    ``"Arm backend: Add ops"`` gives ``("Arm backend", "Add ops", ())``.
    """
    rest = one_line(title)
    area = ""
    markers: list[str] = []
    while match := _PREFIX.match(rest):
        label = (
            match.group("bracket") or match.group("colon") or match.group("dash") or ""
        ).strip()
        if len(label.split()) > 5:
            break
        marker = _KIND_MARKERS.get(label.lower())
        if marker is None and not _is_area(label):
            break  # "Add coreml_compute_plan.py: report ...": the colon is part of the title.
        if marker is not None:
            if marker:
                markers.append(marker)
        elif area:
            break  # A second area-like prefix is part of the title ("Pass migration - part 1").
        else:
            area = label
        rest = rest[match.end() :]
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
        kind = _path_kind(path)
        if kind:
            kinds.add(kind)
            continue
        kinds.add("code")
        code += (change.additions or 0) + (change.deletions or 0)
    return code, kinds


def _path_kind(path: str) -> str:
    """What a lower-cased ``path`` is when it is not product code: ci, test, deps, build,
    docs or chore (the repository's own files: CODEOWNERS, .gitignore)."""
    name = path.rsplit("/", 1)[-1]
    if path.startswith(_CI_PATH) or "/.github/" in path:
        return "ci"
    if _TEST_MARK.search(path) or "_test." in name:
        return "test"
    if _DEPS_MARK.search(name) or "ci_commit_pins" in path:
        return "deps"
    if name.endswith(_BUILD_PATH):
        return "build"
    if path.startswith(_DOC_DIRS) or name.endswith(_DOC_SUFFIXES) or name.startswith("readme"):
        return "docs"
    if name in _CHORE_FILES:
        return "chore"
    return ""


def _kind(
    pull: PullRequest, title: str, markers: tuple[str, ...], by_path: set[str], facts: Facts
) -> str:
    if pull.reverts is not None or _REVERT_TITLE.match(pull.title):
        return "revert"
    if pull.relands is not None or "reland" in markers or _RELAND_TITLE.search(pull.title):
        return "reland"
    for label in pull.labels:
        for pattern, kind in _LABEL_KINDS:
            if pattern.search(label):
                return kind
    if by_path and "code" not in by_path:
        # Only tests, docs, CI or build files: what it touches says what it is.
        for kind in ("ci", "deps", "build", "docs", "test", "chore"):
            if by_path == {kind} or (kind in by_path and by_path <= {kind, "test", "docs"}):
                return kind
    if _BOT.search(pull.author) and not markers:
        return "chore"
    if markers:
        return markers[0]
    if _CI_TITLE.search(title):
        return "ci"
    if facts.removes or facts.deprecates:
        return "breaking"
    if _REMOVAL.match(title):
        return "refactor"  # A removal that breaks nothing: a warning, a workaround, dead code.
    for pattern, kind in _TITLE_KINDS:
        if pattern.search(title):
            return "perf" if facts.speed_claim and kind in ("feature", "fix") else kind
    if facts.speed_claim:
        return "perf"
    return "refactor" if _mechanical(pull) else "feature"


def _mechanical(pull: PullRequest) -> bool:
    """True when the change looks like a rename or move: as many lines out as in, many files."""
    total = pull.additions + pull.deletions
    return (
        pull.changed_files >= 5 and total > 0 and abs(pull.additions - pull.deletions) < 0.1 * total
    )


def _score(pull: PullRequest, kind: str, code_lines: int, summary: str, facts: Facts) -> float:
    """How much ``pull`` matters to the project's users; see the module docstring."""
    score = KIND_WEIGHT.get(kind, 1.0)
    score += min(math.log2(1 + code_lines), 12.0) / 3.0
    if kind == "reland" and code_lines >= 200:
        score += 2.5  # A large feature is back: news as much as when it first landed.
    if facts.speed_claim:
        score += 2.0
    if facts.new_support and kind in ("feature", "reland"):
        score += 1.5
    if facts.api_change and kind not in ROUTINE_KINDS:
        score += 0.75
    if summary:
        score += 0.5
    if _BOT.search(pull.author):
        score -= 3.0
    if _mechanical(pull):
        score -= 1.5
    approvals = sum(1 for review in pull.reviews if review.state == "APPROVED")
    score += min(approvals, 3) * 0.2 + min(pull.comments or 0, 20) * 0.05
    score += min(pull.review_comments or 0, 20) * 0.03 + min(len(pull.participants), 8) * 0.1
    return round(score, 4)
