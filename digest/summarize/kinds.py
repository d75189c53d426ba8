"""What kind of change a pull request is, from every piece of evidence it carries.

The title's first word is the weakest evidence. In order: a revert or re-land (its title
or its link), a release (a version cut, named with its version), the labels, the files
(a change that touches only tests is a test change whatever its title says), the title's
markers (conventional-commit types such as ``fix(ssr)!:``, tags such as ``[NFC]`` or
``[Bugfix]``), the body (a ``BREAKING CHANGE:`` section, "no behaviour change"), and
last the title's words.
"""

from __future__ import annotations

import re

from digest.models import PullRequest
from digest.summarize.facts import Facts

#: How much each kind matters to someone who uses the project (the base of the score).
KIND_WEIGHT = {
    "breaking": 9.0,
    "release": 8.5,
    "perf": 7.0,
    "feature": 6.0,
    "revert": 6.0,
    "reland": 4.5,
    "fix": 4.5,
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

#: A change, or a release entry, that only keeps the project's records: "Update release
#: notes", "Edit the changelog".
NOTES_KEPT = re.compile(
    r"^(?:update[sd]?|add(?:s|ed)?|edit(?:s|ed)?|bump(?:s|ed)?)\s+(?:the\s+)?"
    r"(?:release\s+notes|changelog|news)\b",
    re.I,
)
#: A fix that says what a result had wrong without the word: "Do not reverse dataframes
#: when sorting …", "Preserve null placement when …".
WRONGLY_DONE = (
    r"(?:do|does) ?n[o']t (?:reverse|reorder|drop|duplicate|swap|truncate)\w* \w+"
    r"|preserv\w+ (?:the )?(?:[\w.-]+ ){0,2}(?:order|placement|nulls?|dtypes?|precision)"
    # "Fix `json_schema_extra` dict being dropped when …": what users gave went missing.
    r"|(?:being|is|are|was|were|gets?|got) (?:silently )?(?:dropped|lost|discarded|ignored"
    r"|overwritten|truncated)"
)
WRONGLY = re.compile(rf"\b(?:{WRONGLY_DONE})\b", re.I)
#: What a fix says users were hitting.
_SEVERE_WORDS = re.compile(
    r"\b(crash\w*|panic\w*|segfault\w*|hangs?|hanging|deadlock\w*|data loss|corrupt\w*|"
    r"wrong|incorrect\w*|unsound\w*|race\w*|memory barrier|security|vulnerab\w+|cve-\d+|"
    r"instead of failing|fails?|failing|failures?|errors? (when|on|with)|regression|"
    r"nan|overflow\w*|leak\w*|lost|silently \w+|out[- ]of[- ]bounds|use[- ]after[- ]free|"
    rf"undefined behaviou?r|memory safety|double free|{WRONGLY_DONE})\b",
    re.I,
)
#: The faults a fix can end that users must hear of, each as the pattern that names it, what
#: a reader hit, and whether it is a *hole* (memory or data damaged, something exposed:
#: worse than what users see, a crash or a hang) or *grave* (the process dies or stalls,
#: results are silently wrong).
FAULTS = (
    (r"cve-\d+|vulnerab\w+|security", "a security hole", "hole"),
    (
        r"(?:header|command|sql|code|script|html) injection|request smuggling|xss|csrf|ssrf",
        "a security hole",
        "hole",
    ),
    (
        r"path traversal|privilege escalation|leak\w* (?:credentials|secrets|tokens)",
        "a security hole",
        "hole",
    ),
    (
        r"use[- ]after[- ]free|double free|out[- ]of[- ]bounds|memory safety"
        r"|uninitiali[sz]ed (?:memory|reads?|values?)",
        "a memory-safety bug",
        "hole",
    ),
    (r"undefined behaviou?r|unsound\w*", "undefined behaviour", "hole"),
    (r"corrupt\w*|data loss|loses data", "data corruption", "hole"),
    # "Prevent uninstalling site-packages for …", "Avoid deleting files outside the cache":
    # what users had is gone.
    (
        r"(?:prevent\w*|avoid\w*|stop\w*|(?:do|does) ?n[o']t|never|no longer) "
        r"(?:accidentally |wrongly |incorrectly )?(?:uninstall|delet|remov|wip|eras|overwrit"
        r"|clobber)\w* (?:all |the |user |your |existing )?(?:site-packages|files?|director"
        r"\w+|folders?|data|environments?|packages|installations?|home|cache)",
        "data loss",
        "hole",
    ),
    (r"segfault\w*", "a segfault", "grave"),
    (r"non-?determinis\w+", "non-deterministic results", "grave"),
    # "silently drops the rows", "silently returns stale data"; not "silently invokes the
    # callback" (what Node does) or "errors that silently get skipped" (by design).
    (
        r"silently (?:\w+ly )?(?:drop|ignor|discard|los|truncat|fail|corrupt|return|produc"
        r"|overwrit|break|skip|scaffold|us)\w*",
        "a silent failure",
        "grave",
    ),
    (r"crash\w*", "a crash", "grave"),
    (r"panic\w*", "a panic", "grave"),
    (r"hangs?|hanging|deadlock\w*", "a hang", "grave"),
    (r"data race|race condition|memory barrier", "a race", "grave"),
    # What users run stops them: "installing packages fails", "fails to start on Windows".
    (
        r"install\w* (?:\w+ ){0,3}(?:fails?|failed|failures?)|fail(?:s|ed|ing)? to install",
        "a failed install",
        "grave",
    ),
    (
        r"(?:start\w*|launch\w*) (?:\w+ ){0,3}(?:fails?|failed|failures?)"
        r"|fail(?:s|ed|ing)? to (?:start|launch)\b",
        "a failure to start",
        "grave",
    ),
    (
        r"(?:wrong|incorrect) (?:results?|values?|outputs?|answers?|gradients?|data)"
        r"|(?:returns?|returned|produces?|produced|computes?|computed) (?:the )?"
        r"(?:wrong|incorrect)",
        "wrong results",
        "grave",
    ),
)
#: Milder faults a fix may name, after ``FAULTS``: what a reader hit.
MILD_FAULTS = (
    (r"leak", "a leak"),
    (r"race", "a race"),
    (r"regression", "a regression"),
    (rf"wrong|incorrect|inconsistent|{WRONGLY_DONE}", "wrong results"),
    (r"fail", "a failure"),
    (r"error|exception|raise", "an error"),
)


def _faults(tiers: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(
        r"\b(?:" + "|".join(p for p, _, tier in FAULTS if tier in tiers) + r")\b", re.I
    )


#: The worst of what ``SEVERE`` names (``FAULTS``). A fix of one of these leads over most news.
GRAVE = _faults(("hole", "grave"))
#: The gravest of ``GRAVE``: a hole or memory gone wrong.
HOLE = _faults(("hole",))
#: What a fix's title or summary says users hit, the worst (``GRAVE``) or not.
SEVERE = re.compile(f"{_SEVERE_WORDS.pattern}|{GRAVE.pattern}", re.I)


#: Faults a text says did not happen: "completed the check without crashing, panicking, or
#: timing out".
_DENIED = re.compile(
    r"\bwithout\s+(?:\w+ing\b(?:,?\s+(?:or\s+|and\s+)?(?=\w+ing\b))?)+"
    # "the underlying file is not corrupt": a state said not to be so.
    r"|\b(?:is|are|was|were)\s+not\s+(?:corrupt\w*|broken|lost|leaked)\b"
    r"|\b(?:isn't|aren't|wasn't|weren't)\s+(?:corrupt\w*|broken|lost|leaked)\b",
    re.I,
)


def claimed(text: str) -> str:
    """``text`` without the faults it says did not happen (``without crashing``), so what is
    left names only faults that did."""
    return _DENIED.sub("", text)


def symptom(text: str) -> str:
    """What ``text`` (a fix's title and summary) says users hit (``a panic``), else ``""``."""
    lower = claimed(text).lower()
    named = [(p, said) for p, said, _ in FAULTS] + list(MILD_FAULTS)
    return next((said for p, said in named if re.search(rf"\b(?:{p})", lower)), "")


#: Title markers (a tag, a conventional-commit type, a prefix) that say what kind of change
#: it is, not where it is; ``""`` marks a word that is neither kind nor area.
KIND_MARKERS = {
    "ci": "ci",
    "ci/build": "ci",
    "benchmark ci": "ci",
    "docs": "docs",
    "doc": "docs",
    "documentation": "docs",
    "test": "test",
    "tests": "test",
    "testing": "test",
    "bench": "test",
    "benchmark": "test",
    "benchmarks": "test",
    "be": "chore",
    "ez": "chore",
    "chore": "chore",
    "style": "chore",
    "nit": "chore",
    "lint": "chore",
    "typing": "chore",
    "misc": "chore",
    "nfc": "refactor",
    "nfci": "refactor",
    "reland": "reland",
    "re-land": "reland",
    "revert": "revert",
    "fix": "fix",
    "fixes": "fix",
    "bugfix": "fix",
    "bug": "fix",
    "hotfix": "fix",
    "security": "fix",
    "feat": "feature",
    "feature": "feature",
    "perf": "perf",
    "performance": "perf",
    "refactor": "refactor",
    "build": "build",
    "deps": "deps",
    "dep": "deps",
    "depr": "breaking",
    "deprecation": "breaking",
    "breaking": "breaking",
    "bc-breaking": "breaking",
    "bc breaking": "breaking",
    "bc-break": "breaking",
    "breaking change": "breaking",
    "release": "release",
    "rfc": "",
    "wip": "",
    "pr": "",
    "skip ci": "",
    "ci skip": "",
    "ghstack-poisoned": "",
    # Headings of a description pasted into the title: no area, no kind.
    "summary": "",
    "description": "",
    "title": "",
    "context": "",
    "motivation": "",
}

#: ``Revert "X"``, ``Revert #N``, ``Revert <sha>``, ``Revert D123``: a revert of a named change.
#: The emoji of gitmoji titles ("✨ Add X") and the kind each says; a variation selector
#: may follow. Emoji that say nothing of the kind (🎉, 🚀) are left in the title.
GITMOJI_KINDS = {
    "✨": "feature",
    "💄": "feature",
    "🐛": "fix",
    "🚑": "fix",
    "🩹": "fix",
    "🔒": "fix",
    "⚡": "perf",
    "📝": "docs",
    "✏": "docs",
    "🌐": "docs",
    "💡": "docs",
    "🔖": "release",
    "⬆": "deps",
    "⬇": "deps",
    "📌": "deps",
    "\u2795": "deps",  # heavy plus: a dependency added
    "\u2796": "deps",  # heavy minus: a dependency removed
    "♻": "refactor",
    "🎨": "chore",
    "🔥": "refactor",
    "🚚": "refactor",
    "✅": "test",
    "🧪": "test",
    "👷": "ci",
    "💚": "ci",
    "🔧": "chore",
    "🔨": "chore",
    "🚨": "chore",
    "👥": "chore",
    "🙈": "chore",
    "🏗": "build",
    "📦": "build",
    "💥": "breaking",
    "⏪": "revert",
    "🗑": "breaking",
    "\u26b0": "refactor",  # coffin: dead code removed
    "🔇": "chore",
    "🔊": "chore",
    "🏷": "chore",  # types
    "🥅": "fix",  # errors caught
    "🚸": "feature",  # user experience
    "♿": "feature",  # accessibility
    "🍱": "chore",  # assets
    "🚀": "ci",  # deployment
    "🧱": "ci",  # infrastructure
    "📸": "test",  # snapshots
    "🤡": "test",  # mocks
    "🚩": "feature",  # feature flags
    "🧵": "perf",  # concurrency
    "📄": "chore",  # licence
    "🔀": "chore",  # merge
    "💬": "docs",  # text and literals
}

#: A gitmoji opening a title or a release entry (a variation selector may follow it).
GITMOJI = re.compile(
    "^\\s*(" + "|".join(map(re.escape, sorted(GITMOJI_KINDS, key=len, reverse=True))) + ")"
    "\ufe0f?\\s*"
)

_REVERT_TITLE = re.compile(
    r'^\s*(revert|back\s?out)\b\s*(:\s*)?(["“#]|pr\s*#|[0-9a-f]{7,40}\b|D\d+)', re.I
)
# A re-land says so up front ("Reland ...", "[Reland]", "Reapply ...") or in a "(re-land)"
# marker; "re-landed" in the middle of a title is a word, not the kind.
_RELAND_TITLE = re.compile(
    r"^\s*(\[?re-?land(ed|ing)?\]?|reapply)\b|\((re-?land(ed)?|reapply)\)", re.I
)
_VERSION = r"v?\d+\.\d+(?:\.\d+)*(?:[-.]?(?:a|b|rc|alpha|beta|dev|post)\.?\d*)?"
#: A title that cuts a release: "Bump version to 0.12.0", "Release v2.3.0", "Bump 0.16.4",
#: "chore: prepare Tokio v1.53.0", "release: v8.2.2", "Version Packages" (changesets).
_RELEASE_TITLE = re.compile(
    rf"^(?:release|releasing|cut|prepare|preparing)\b(?:\s+(?:for|to\s+release|the|release))*"
    rf"\s+(?:(?P<pkg>[\w.-]+)\s+)?(?:version\s+)?(?P<a>{_VERSION})\s*$"
    rf"|^(?:bump|update|set)\s+(?:the\s+)?(?:package\s+|crate\s+|project\s+)?version"
    rf"(?:\s+(?:number|string))?\s+(?:from\s+{_VERSION}\s+)?to\s+(?P<b>{_VERSION})\b"
    rf"|^bump\s+(?P<c>{_VERSION})\s*$"
    rf"|^(?:release|releasing|publish)\s*:?\s+(?:[\w.-]+@)?(?P<d>{_VERSION})\s*$"
    rf"|^(?:[\w.-]+\s+)?(?P<e>{_VERSION})\s+release\s*$"
    rf"|^merge\s+(?:tag|branch)?\s*['\"]?[a-z][\w.-]*?[-_ ](?P<f>{_VERSION})['\"]?"
    r"|^(?P<packages>version packages)\b"
    r"|^(?:release|publish)\s+(?P<crate>[a-z][\w-]*)\s*$",
    re.I,
)
_VERSION_NUMBER = re.compile(r"v?\d+(\.\d+)+", re.I)
#: What a title marked ``release:`` says: ``v8.2.2``, ``create-vite@9.0.6``.
_BARE_VERSION = re.compile(rf"^((?:[@\w./-]+@)?{_VERSION})$")
#: "## svelte@5.38.1" or "## 5.38.1" in a changesets release body.
_PACKAGE_VERSION = re.compile(r"^#{1,3}\s+(?:([@\w./-]+)@)?(\d+\.\d+\.\d+[\w.-]*)\s*$", re.M)
_BREAKING_SECTION = re.compile(r"^\s*(?:#+\s*)?BREAKING[ -]CHANGES?\s*:?", re.M)
#: A conventional-commit title its author marks as breaking: ``feat(legacy)!: ...``.
_BANG = re.compile(r"^[A-Za-z]+(?:\([^)]*\))?!:")


def marked_breaking(pull: PullRequest) -> bool:
    """True when ``pull``'s author marks it as breaking: a ``type!:`` title or a ``BREAKING
    CHANGE`` section or footer."""
    return bool(_BANG.match(pull.title) or _BREAKING_SECTION.search(pull.body))


#: Lint as the project's own upkeep; a "lint rule" or a "lint check" is what a linter's
#: users get.
_LINT = r"lint(?:s|ers?)?(?!\s+(?:rules?|checks?|diagnostics?)\b)"
_NO_BEHAVIOUR_CHANGE = re.compile(
    r"\b(no (functional|behaviou?r(al)?|user[- ]facing|semantic) changes?( intended)?|"
    r"nfci?|non[- ]functional change|pure refactor|no-op refactor)\b",
    re.I,
)
_REMOVAL = re.compile(r"^(remove[sd]?|delete[sd]?|drop(s|ped)?)\b", re.I)
_LABEL_KINDS = (
    (re.compile(r"bc[- ]?breaking|breaking|deprecat", re.I), "breaking"),
    (re.compile(r"perf|performance", re.I), "perf"),
    (re.compile(r"new feature|enhancement|feature", re.I), "feature"),
    (re.compile(r"^(bug|bugfix|fix)", re.I), "fix"),
)
#: A title whose change is about tests, benchmarks, CI, the build or the repository's own
#: tooling: what it adds or fixes is for the developers of the project, not its users.
#: A title that merges one branch into another ("Merge branch 'x'", "Merging gh/u/15/base to
#: main", "Merge remote-tracking branch …"): bookkeeping of the history.
_BRANCH_MERGE = re.compile(
    r"^merg(?:e|es|ed|ing)\s+(?:branch\b|remote-tracking\b|upstream\b|"
    r"['\"]?[\w.-]+/[\w./-]+['\"]?\s+(?:in)?to\b)",
    re.I,
)
_INTERNAL_TITLE = re.compile(
    r"^(add|adds|added|fix|fixes|update|updates|improve|extend|enable|re-?enable|skip|bring|restore|"
    r"unskip|xfail|mark|port|move|split|clean ?up|refactor|increase|reduce|relax|tighten|"
    r"make|run|use|expand|optimi[sz]e|speed ?up|shard|paralleli[sz]e)\s+"
    r"(?:(?!(?:when|if|after|because|while|where|that|so)\b)[\w`.:-]+\s+){0,3}?(unit\s+|integration\s+|e2e\s+|regression\s+|"
    r"snapshot\s+|smoke\s+|loom\s+)?(tests?|testing|test cases?|benchmarks?|coverage|mdtests?|"
    r"snapshots?|ut)\b"
    r"|^(test|tests|benchmark)\s+\w|\b(flaky|flakey)\b"
    r"|\b(for|in|of|on|from)\s+(?:the\s+)?(?:[\w`.:-]+\s+){0,3}?"
    r"(tests?|unit tests?|ut|ci|benchmarks?|ecosystem checks?|build jobs?|jobs?|pre-commit)\b"
    r"|\b(ci|pre-commit|ecosystem check|todo|todos|pyrefly|pyre|mypy|clippy|" + _LINT + r"|"
    r"typing errors?|type errors|buck|bazel|docker|dockerfile|codeowners|claude|agents\.md|"
    r"compare script|test snapshot|test files?|bots?)\b",
    re.I,
)
#: A dependency swapped for another: what users get stays the same.
_SWAP = re.compile(
    r"^(use|switch to|move to|migrate to)\s+(the\s+)?(\w+\s+)?[\w`.-]+\s+(crate|library|package)\b",
    re.I,
)
#: A title that documents: its verb, or docs as its object.
_DOCS_TITLE = re.compile(
    r"^(document|documents|clarify|clarifies|explain|explains|describe|reword)\b"
    r"|^(add|adds|update|updates|improve|improves|fix|fixes|expand|rewrite|correct|remove)\s+"
    r"(?:[\w`.:-]+\s+){0,3}?(docs?|documentation|docstrings?|doc comments?|readme|guide|"
    r"dead links?|broken links?|links? definitions?|typos? in (?:the )?(?:[\w`.:-]+\s+){0,2}?"
    r"(?:docs?|docstrings?|documentation|guide))\b"
    # "correct `tick` to `tick_op` in set_readiness internal docs": where it ends is the docs.
    r"|\bin\s+(?:[\w`.:-]+\s+){0,3}?(docs?|documentation|docstrings?|doc comments?)$"
    # "Change the letter Q to D in comments", "Fix duplicated words in v1 comments".
    r"|\bin\s+(?:the\s+)?(?:[\w`.:-]+\s+)?(?:code\s+)?comments$"
    # "add extension.md", "Update CONTRIBUTING.rst": a page of documentation, named.
    r"|^(add|adds|update|updates|improve|improves|expand|rewrite)\s+`?[\w./-]+\.(md|rst|mdx)`?$",
    re.I,
)
#: A first word that says the change repairs behaviour.
_FIX_VERB = re.compile(
    r"^(fix(es|ed)?|hotfix|avoid|prevent|reject|handle[sd]?|correct\w*|guard|repair|resolve[sd]?|"
    r"restore[sd]?|preserve[sd]?|ensure[sd]?|keep|stop|tolerate|validate[sd]?|disallow|"
    r"honou?r|respect|don'?t|do not|no longer|never|work ?around|unbreak|revive)\b"
    r"|^propagate[sd]?\b|^treat\b.*\bas\b"
    r"|^(make|treat)\b.*\b(consistent\w*|correct\w*|work|as expected|properly|again)\b",
    re.I,
)
_CODE_SPAN = re.compile(r"`[^`]*`")
#: Words anywhere in a title that say something was broken.
_FIX_WORDS = re.compile(
    r"\b(fix(es)?|bugs?|crash\w*|panic\w*|segfault\w*|hangs?|deadlocks?|regressions?|"
    r"unsound\w*|incorrect\w*|wrong|broken|overflows?|leaks?|race conditions?|races|"
    r"vulnerab\w+|cve-\d+|error when|fails? (to|when|on|with)|missing|again|correctly|properly)\b"
    # A fault named in a name: "deepseekv3_671b IntOverflow in triton kernels".
    r"|(?-i:[a-z0-9](?:Overflow|Crash|Panic|Leak|Deadlock)s?\b)",
    re.I,
)


def says_repair(title: str) -> bool:
    """True when ``title`` (a change's title, its tags removed) says what it repairs: it
    opens with a repairing verb ("Handle …", "Avoid …") or names what was wrong ("… with
    correct key", "missing top_p"); not a fix told by its mechanism alone ("visit synthetic
    value node during ssr", "disable extglobs for consistency")."""
    return bool(
        _FIX_VERB.match(title)
        or _SEEN_VERB.match(title)
        or _FIX_WORDS.search(title)
        or _MILD_FAULT.search(title)
    )


#: A first word that says what users see the fixed code do: "detect misleading returns",
#: "render X with the right key" (not "visit a node", "disable extglobs").
_SEEN_VERB = re.compile(
    r"(?:detect|report|recogni[sz]e|flag|warn|show|display|accept|allow|support|emit|print"
    r"|infer|parse|format|render|return|include|exclude|resolve"
    # What users lose or must now do is seen too: "disable extglobs", "require a name".
    r"|disable|remove|drop|restrict|require)s?\b",
    re.I,
)


_MILD_FAULT = re.compile(
    r"\b(?:" + "|".join(p for p, _ in MILD_FAULTS) + r")\w*|\b(?:with|the) correct\b", re.I
)


#: How a change makes things faster: its mechanism, wherever the title names it.
_PERF_MECHANISM = re.compile(
    r"\b(optimi[sz]\w*|speed ?ups?|speeds? up|faster|accelerat\w*|vectori[sz]\w*|"
    r"autovectori[sz]\w*|paralleli[sz]\w*|parallel|fast[- ]?paths?|hot (loops?|paths?)|"
    r"prefetch\w*|hoist\w*|spill\w*|fus(e|ing)|memchr|simd|"
    r"reduce (memory|overhead|time|allocations?|copies|contention)|"
    r"fewer (allocations?|copies|clones?|parses|lookups?|scans?|syscalls?)|"
    r"(avoid|remove|skip|eliminate)s? (an? |the )?(unnecessary |redundant |extra |trivial |"
    r"needless |repeated )?([\w`]+ ){0,2}?(allocations?|clones?|copy|copies|lookups?|"
    r"lookaheads?|scans?|parses|syncs?|locks?|round[- ]?trips?|recompil\w+)|"
    r"(avoid|skip|eliminate)s? (an? )?(unnecessary|redundant|needless|repeated|trivial)|"
    r"single global \w+ cache|monomorphi[sz]ations?|^cache[sd]?|^intern(s|ed)?)\b",
    re.I,
)
#: A title that says it is about speed, whatever its marker ("feat: optimize X").
_STRONG_PERF = re.compile(
    r"^(optimi[sz]\w*|speed ?up|accelerat\w*|vectori[sz]\w*|paralleli[sz]\w*)\b|\bfaster\b",
    re.I,
)
#: What a change measures: speed words that may also name a new metric ("add latency metric").
_PERF_MEASURE = re.compile(r"\b(perf(ormance)?|latency|throughput)\b", re.I)
#: The project's own upkeep ("fix lint", "silence warnings").
_CHORE_TITLE = re.compile(
    rf"\b(typo|typos|{_LINT}|spelling|nit|pyre|pyrefly|mypy|flake8|clippy|warnings?)\b", re.I
)
#: A title or release-note entry that takes away support users had: "Drop support for
#: Pydantic v1", "Remove support for Python 3.9".
DROPS_SUPPORT = re.compile(r"(?:drop|remove|end)(?:s|ped|d)?\s+support\s+(?:for\s+)?\S", re.I)
_DEPS_TITLE = re.compile(
    r"^(bump|pin(ned|s)?|upgrade\b(?=.*\b(to|from) v?\d)|update (the )?\S+ (version|pin|commit)|"
    r"update (all )?((non-)?major |minor |patch )?(dependency|dependencies|deps|lockfile|rust|"
    r"toolchain))\b"
    r"|\b(nightly pin|version to|to v?\d+\.\d+)\b",
    re.I,
)
_FEATURE_VERB = re.compile(
    r"^(add(s|ed|ing)?|support(s|ed)?|enable[sd]?|introduc\w+|implement\w*|new|"
    r"expose[sd]?|allow(s|ed)?|initial|create[sd]?|accept[sd]?|recogni[sz]e[sd]?|"
    r"infer[sd]?|emit[sd]?|show[sn]?|warn[sd]?|report[sd]?|stabili[sz]e[sd]?)\b",
    re.I,
)
_REFACTOR_TITLE = re.compile(
    r"^(refactor\w*|rework\w*|clean ?ups?|cleans up|move[sd]?|simplif\w*|rename[sd]?|"
    r"reorgani[sz]\w*|extract\w*|splits?|merges?|unif(y|ies)|consolidates?|inlines?|de-?duplicat\w*|dedup\w*|"
    r"tid(y|ies)|reimplement\w*|"
    r"migrat(e|es)|prefers?|replaces?|centrali[sz]es?|restructures?|decouples?|"
    r"generali[sz]es?)\b"
    # "Eliminate two-phase initialization of X": a way of building it goes, not a feature.
    r"|^eliminat\w*\b(?!.*\b(?:crash|panic|deadlock|hang|leak|race|overhead|copies|copy|"
    r"allocation|sync|latency|recompil\w*|graph breaks?)\b)"
    r"|\b(remove[sd]?|delete[sd]?|drop(s|ped)?) (the )?(unused|dead|redundant|stale|"
    r"duplicated?|obsolete|leftovers?|old|debug|extra|unnecessary|orphaned|shadowed|private)\b"
    r"|\bleftovers?\b",
    re.I,
)
#: A clean-up of what users read ("Remove duplicate paths in install errors", "strip ANSI
#: codes from the log"): a fix of the output, not a removal of an API.
_OUTPUT_CLEANUP = re.compile(
    r"(remove|drop|avoid|strip|hide|dedup\w*)s? (the )?((duplicated?|redundant|extra|spurious|"
    r"repeated|double)\b.*\b|.*\bfrom (the )?([\w-]+ )?)"
    r"(errors?|messages?|output|warnings?|diagnostics?|logs?|hints?)\b",
    re.I,
)
# Authors whose changes are automated. Not merge bots such as pytorchbot: they land
# people's work under their own name.
BOT = re.compile(r"(\[bot\]|dependabot|renovate|github-actions|pre-commit-ci)", re.I)


def is_version_number(text: str) -> bool:
    """True when ``text`` is a version number (``v0.12.5``, ``1.3.0a0``), not a name."""
    return bool(_VERSION_NUMBER.match(text))


#: A version a branch carries while it is developed, not one users install: ``1.2.0a0``,
#: ``0.5.0.dev0``, ``2.0.0-dev``.
_DEV_VERSION = re.compile(r"\d(?:a0|\.?dev\d*|-dev(?:\.\d+)?)$", re.I)
_DEV_BUMP = re.compile(r"(?:bump|update|set)\b", re.I)


#: A project's changelog file: "Releases.md", "CHANGELOG.md", "docs/release-notes.md".
_CHANGELOG_FILE = re.compile(
    r"(?:^|/)(?:changelog|changes|releases?|release[-_]notes|news|history)(?:\.\w+)?$", re.I
)


def release_version(pull: PullRequest, title: str, markers: tuple[str, ...] = ()) -> str | None:
    """Return the version ``pull`` (display title ``title``, kind ``markers`` split off)
    cuts, ``""`` when it cuts one without saying which, or None when it is no release."""
    if title.strip().lower() in ("release", "releases", "publish"):
        return _body_versions(pull.body)  # changesets' "ci: release" pull request
    bare = _BARE_VERSION.match(title.strip())
    # "2.7.0" alone as a title, its changelog written in the same change: the release.
    logged = any(_CHANGELOG_FILE.search(f.path) for f in pull.files)
    if bare and ("release" in markers or (logged and not _DEV_VERSION.search(bare[1]))):
        return bare[1] if bare[1][0].lower() == "v" or "@" in bare[1] else f"v{bare[1]}"
    match = _RELEASE_TITLE.match(title.strip())
    # "Python Polars 1.43.1": the project's name (for a language) and the version, alone.
    name = re.escape(pull.repo.split("/")[-1])
    named = re.match(
        rf"^(?:(?:python|rust|node|js)\s+)?{name}\s+({_VERSION})$", title.strip(), re.I
    )
    if match is None and named is not None:
        return named[1] if named[1][0].lower() == "v" else f"v{named[1]}"
    if match is None:
        return None
    if match.group("crate"):
        return match.group("crate")  # "release pyo3-polars": a package of the repository
    if match.group("packages"):
        return _body_versions(pull.body)
    version = next(v for v in match.group("a", "b", "c", "d", "e", "f") if v)
    package = (match.group("pkg") or "").lower()
    if package and package not in (pull.repo.split("/")[-1].lower(), "version", "release"):
        return f"{match.group('pkg')}@{version.lstrip('vV')}"  # "prepare tokio-macros v2.7.1"
    return version if version[0].lower() == "v" else f"v{version}"


def _body_versions(body: str) -> str:
    """The versions a changesets release body lists (``## svelte@5.38.1``), or ``""``."""
    found = _PACKAGE_VERSION.findall(body)
    named = [f"{name}@{version}" if name else version for name, version in found]
    return ", ".join(dict.fromkeys(named[:3]))


def kind_of(
    pull: PullRequest,
    title: str,
    markers: tuple[str, ...],
    by_path: set[str],
    facts: Facts,
) -> str:
    """Return the kind of ``pull``: its display ``title`` (area and markers split off), the
    kinds of the files it touches (``by_path``: ``code``, ``test``, ``docs`` ...) and its
    ``facts``. See the module docstring for the order of evidence."""
    # Taking back or landing again a chore, CI or docs is that chore, CI or docs change (a
    # test taken back says something about the code it tests: still a revert).
    in_code = not by_path or bool(by_path & {"code", "test"})
    reverts = _REVERT_TITLE.match(pull.title) or _REVERT_TITLE.match(title)  # "[rl] Revert X"
    if (pull.reverts is not None or reverts) and in_code:
        return "revert"
    relands = pull.relands is not None or "reland" in markers or _RELAND_TITLE.search(pull.title)
    if relands and in_code:
        return "reland"
    if (version := release_version(pull, title, markers)) is not None:
        if _DEV_BUMP.match(title) and _DEV_VERSION.search(version) and not pull.notes:
            return "chore"  # "Bump version to 1.2.0a0": the branch's next development version
        return "release"
    for label in pull.labels:
        for pattern, kind in _LABEL_KINDS:
            if pattern.search(label):
                return kind
    if by_path and "code" not in by_path:
        # Only tests, docs, CI or build files: what it touches says what it is. A build or
        # dependency change the author calls a feature or a fix is one (a bundled
        # dependency's new major version, a build users hit that fails).
        told = bool(set(markers) & {"feature", "fix", "perf"}) or bool(_FIX_VERB.match(title))
        for kind in ("ci", "deps", "build", "docs", "test", "chore"):
            if by_path == {kind} or (kind in by_path and by_path <= {kind, "test", "docs"}):
                if kind in ("deps", "build") and told:
                    break
                return kind
        else:
            # A mix of them (a CI script and a requirements file) is internal, whatever its
            # title says, unless it bundles a dependency or builds what users install.
            if not (told and by_path & {"deps", "build"}):
                return next(
                    k for k in ("ci", "deps", "build", "test", "docs", "chore") if k in by_path
                )
    if "breaking" in markers or _BREAKING_SECTION.search(pull.body):
        return "breaking"
    if BOT.search(pull.author) and not markers:
        return "deps"
    if _NO_BEHAVIOUR_CHANGE.search(f"{title}\n{pull.body[:1500]}") and markers[:1] != ("fix",):
        return "refactor"
    if not markers and style_only(pull):
        return "chore"  # "Run ruff format": what users run is the same
    collective = r"(dependencies|deps|lockfile|crates|packages|modules|actions)"
    if "deps" in markers and re.match(rf"(update|bump)\b.*\b{collective}$", title):
        # "fix(deps): update all non-major dependencies", "… rust crates": a bot's upkeep
        # (one it names, a bundler's new version, may be news).
        return "deps"
    kind = _marked(markers[0], title, facts) if markers else _titled(pull, title, facts)
    if kind in ("refactor", "chore") and facts.stabilizes:
        return "feature"  # "[refactor] graduate X to core": users can now rely on X
    if kind == "refactor" and facts.reconfigures:
        # "refactor model converter" whose description adds or replaces an option users set:
        # a restructuring users see in their configuration.
        return "breaking" if facts.reconfigures == "replaced" else "feature"
    return kind


def _titled(pull: PullRequest, title: str, facts: Facts) -> str:
    """The kind ``title`` says, when nothing stronger did: what the change is for (tests,
    CI, docs), then its first verb, then the words it uses."""
    if _INTERNAL_TITLE.search(title):
        return "ci" if re.search(r"\bci\b", title, re.I) else "test"
    if _BRANCH_MERGE.match(title):
        return "chore"  # "Merging gh/user/15/base to main": the branch, not a change of its own
    if _DOCS_TITLE.search(title):
        return "docs"
    if _SWAP.search(title):
        return "refactor"
    if _OUTPUT_CLEANUP.match(title):
        return "fix"  # what users read had something wrong in it
    if (
        _REFACTOR_TITLE.search(title)
        and not _FIX_VERB.match(title)
        and not _PERF_MECHANISM.search(title)
    ):
        return "refactor"
    if _PERF_MECHANISM.search(title) or facts.speed_claim:
        return "perf"
    if (facts.removes or facts.deprecates) and not _FIX_VERB.match(title):
        return "breaking"  # "Fix Python 3.14 compatibility" mends what its body says was removed
    if _REMOVAL.match(title):
        return "refactor"  # A removal that breaks nothing: a warning, a workaround, dead code.
    if _DEPS_TITLE.search(title):
        return "deps"
    if _PERF_MEASURE.search(title) and not _FEATURE_VERB.match(title):
        return "perf"
    if _FIX_VERB.match(title):
        return "chore" if _CHORE_TITLE.search(title) else "fix"
    # A word quoted as code names something ("`missing-type-argument`"): it says nothing broke.
    prose = _CODE_SPAN.sub("", title)
    if _CHORE_TITLE.search(title) and not _FIX_WORDS.search(prose):
        return "chore"
    if _FEATURE_VERB.match(title):
        return "fix" if re.search(r"\bmissing\b", prose, re.I) else "feature"
    if _FIX_WORDS.search(prose):
        return "fix"
    if NEW_DEFAULT.search(prose):
        return "feature"  # "make `x` ignored by default": what users get changes, however small
    return "refactor" if mechanical(pull) else "feature"


#: A title that changes what users get without asking: "make `x` ignored by default".
NEW_DEFAULT = re.compile(r"\b(?:by|as(?: the)?) default\b|\bdefaults? to\b", re.I)
#: What a change may turn off without breaking anyone: tests, checks, logs, warnings.
HARMLESS_OFF = re.compile(
    r"\b(tests?|ci|flak\w*|warnings?|logs?|logging|telemetry|lint\w*|debug\w*|checks?|"
    r"jobs?|workflows?|benchmarks?|coverage|verifiers?|validations?|asserts?|assertions?)\b",
    re.I,
)
#: A title that turns off something users may use ("disable extglobs for consistency").
TURNS_OFF = re.compile(r"^(?:disable|turn off)\s+(?P<rest>.+)$", re.I)


def turns_off(title: str) -> bool:
    """True when ``title`` (its area and markers split off) turns off something users may
    rely on: not a test, a check or a log, and not a default ("disable X by default")."""
    match = TURNS_OFF.match(title.strip())
    rest = match["rest"] if match else ""
    return bool(rest) and not HARMLESS_OFF.search(rest) and not NEW_DEFAULT.search(rest)


def _marked(marker: str, title: str, facts: Facts) -> str:
    """The kind a title ``marker`` gives, refined by the title where the marker is loose:
    a ``feat:`` that removes something breaks it, a ``chore:`` that bumps is a dependency."""
    if (marker == "feature" and facts.removes) or (
        marker in ("feature", "refactor") and facts.deprecates
    ):
        return "breaking"
    if marker in ("deps", "chore", "build", "refactor") and DROPS_SUPPORT.match(title):
        return "breaking"  # "(heavy minus) Drop support for Pydantic v1": its users must move
    if marker in ("chore", "build") and _DEPS_TITLE.search(title):
        return "deps"
    if marker == "build" and _FIX_VERB.match(title):
        return "fix"  # a build that failed for those who build from source
    if marker == "refactor" and re.match(
        r"(do not|don'?t|no longer|reject|prevent)\b", title, re.I
    ):
        return "fix"  # "♻️ Do not accept X": what users could do, they can no longer
    if marker in ("feature", "refactor", "chore") and _STRONG_PERF.search(title):
        return "perf"
    return marker


#: A change of form only: its title marks it as style (gitmoji 🎨, a ``style:`` type or tag)
#: or says it runs a formatter over the code.
_STYLE_ONLY = re.compile(
    r"^\s*(?:\U0001f3a8|style(?:\([^)]*\))?!?:|\[(?:style|format|formatting|lint)\])"
    # "Arm backend: Format Arm passes (group 7)": an area prefix first, the project's own code.
    r"|^(?:\[[^\]]{1,30}\]\s*|[\w ./-]{1,30}:\s+)?(?:re)?format(?:ted|ting)?\s+(?:the\s+)?"
    r"(?:code(?:base)?|files?|sources?|all|everything|(?:[\w-]+\s+)?(?:passes|modules|headers))\b"
    r"|\b(?:apply|run|ran)\s+(?:ruff|black|prettier|docformatter|"
    r"clang-format|rustfmt|cargo fmt|isort|biome format)\b",
    re.I,
)


def style_only(pull: PullRequest) -> bool:
    """True when ``pull``'s title says it changes the form of code only (formatting, style)."""
    return bool(_STYLE_ONLY.search(pull.title))


def mechanical(pull: PullRequest) -> bool:
    """True when the change looks like a rename or move: as many lines out as in, many files."""
    total = pull.additions + pull.deletions
    return (
        pull.changed_files >= 5 and total > 0 and abs(pull.additions - pull.deletions) < 0.1 * total
    )
