"""Parse what git prints for :mod:`digest.sources.git`; pure functions, no processes.

Three kinds of input are read here: the output of ``git log`` (a custom format framed
by markers that carry a random nonce, each record followed by a ``--numstat -z`` or
``--raw -z`` section), the output of ``git cat-file``, and commit messages (PR numbers,
titles, bodies, and what a revert or re-land points at).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from msgspec import Struct

from digest.models import FileChange
from digest.text import neutralise, one_line

#: Longest body and title kept; hostile commits can carry megabytes of text.
MAX_BODY = 200_000
MAX_TITLE = 1_000
_CUT = " [… truncated]"

_HEX = r"[0-9a-fA-F]"
_OWN_NUMBER = re.compile(r"\s*\(#([0-9]{1,9})\)\s*$")
_MERGE_PR = re.compile(r"^Merge pull request #([0-9]{1,9}) from \S+")
_RESOLVED = re.compile(
    r"^[ \t]*Pull[- ]Request(?:[ \t]+resolved)?:[ \t]*https?://github\.com/"
    r"([\w.-]+/[\w.-]+)/pull/([0-9]{1,9})\b",
    re.IGNORECASE | re.MULTILINE,
)
_REVERT_SUBJECT = re.compile(r"^(?:revert(?:ed|ing)?|back[ -]?out)\b[ \t]*:?[ \t]*(.*)$", re.I)
_THIS_REVERTS = re.compile(rf"\bThis reverts commit ({_HEX}{{7,64}})\b")
#: ``#N``, ``owner/repo#N`` or a pull request URL (one capture group).
_PR_REF = (
    r"(?:pr[ \t]*)?(#[0-9]{1,9}|[\w.-]+/[\w.-]+#[0-9]{1,9}"
    r"|https?://github\.com/[\w.-]+/[\w.-]+/pull/[0-9]{1,9})"
)
_REVERTS_PR = re.compile(rf"^[ \t]*reverts[ \t]+{_PR_REF}", re.I | re.M)
_RELAND_WORD = r"re-?(?:re-?)*(?:land|apply)\w*"
_RELAND_TAG = re.compile(rf"[ \t]*[\[(][ \t]*{_RELAND_WORD}\b[^\])]*[\])][ \t]*", re.I)
_RELAND_LEAD = re.compile(
    rf"^((?:\[[^\]]*\][ \t]*)*){_RELAND_WORD}\b"
    r"(?:[ \t]+(?:of|the[ \t]+PR[ \t]+of)\b)?[ \t]*:?[ \t]*(.*)$",
    re.I,
)
_RELAND_OF = re.compile(
    r"\b(?:re-?lands?|re-?land(?:ing|ed)?(?:[ \t]+of)?|reapplies|reapply(?:ing)?|originally"
    rf"|original[ \t]+(?:pr|pull[ \t]+request)|actually[ \t]+landing)\b[ \t]*:?[ \t]*{_PR_REF}",
    re.I,
)
_ORIGINALLY = re.compile(r"[ \t]*\(originally #([0-9]{1,9})\)", re.I)
_PULL_URL = re.compile(r"https?://github\.com/([\w.-]+/[\w.-]+)/pull/([0-9]{1,9})\b")
_HASH_PREFIX = re.compile(r"^#([0-9]{1,9})[ \t]*:[ \t]*(.*)$")
_DIFF_PREFIX = re.compile(r"^D[0-9]+[ \t]*:[ \t]*(?=\")")
_QUOTED = re.compile(r'^"(.*)"(?:[ \t]+v[0-9]+)?$')
_LIST_OF_QUOTED = re.compile(r'"[ \t]*(?:,|&|and)[ \t]*"', re.I)


class RawCommit(Struct, frozen=True):
    """One commit as ``git log`` printed it; ``committed`` is the committer time (epoch s)."""

    sha: str
    committed: int
    author: str
    message: str
    files: tuple[FileChange, ...]
    #: Blob ids the diff reads (filled from ``--raw`` output only).
    blobs: tuple[str, ...] = ()


class Hint(Struct, frozen=True):
    """What a message says about another change; every part may be unknown.

    ``loose`` is a weaker guess at the number (any link to a pull request of the repo);
    ``weak`` marks a sha read from a body alone (bumps quote other repositories' logs).
    """

    number: int | None = None
    sha: str | None = None
    title: str | None = None
    loose: int | None = None
    weak: bool = False


class Message(Struct, frozen=True):
    """A parsed commit message: own number, title, body and links to other changes."""

    sha: str
    number: int | None
    title: str
    body: str
    reverts: Hint | None
    relands: Hint | None


class LogFormat:
    """The ``--format`` of the log run and the parser of its output, framed by ``nonce``.

    Commit text cannot forge the markers because it cannot know the nonce.
    """

    def __init__(self, nonce: str) -> None:
        self.start = f"\x1e{nonce}\x1e"
        self.sep = f"\x1f{nonce}\x1f"
        self.end = f"\x1d{nonce}\x1d"

    def pretty(self) -> str:
        """Return the ``--format=`` value: sha, committer time, author name, raw message."""
        sep = _escape(self.sep)
        return f"tformat:{_escape(self.start)}%H{sep}%ct{sep}%an{sep}%B{_escape(self.end)}"

    def parse(self, text: str, numstat: bool) -> list[RawCommit]:
        """Split the log output ``text`` into commits, newest first as git printed them.

        ``numstat`` says whether file sections are ``--numstat -z`` (else ``--raw -z``).
        Records that do not parse are skipped.
        """
        commits = []
        for record in text.split(self.start)[1:]:
            head, _, files = record.partition(self.end)
            fields = head.split(self.sep)
            if len(fields) != 4 or not _is_number(fields[1]):
                continue
            sha, committed, author, message = fields
            section = files.lstrip("\x00\n")
            found, blobs = (parse_numstat(section), ()) if numstat else parse_raw(section)
            author = one_line(author) or "unknown"
            commits.append(RawCommit(sha.strip(), int(committed), author, message, found, blobs))
        return commits


def _escape(marker: str) -> str:
    """Return ``marker`` with control characters written as git's ``%xNN`` placeholders."""
    return "".join(f"%x{ord(c):02x}" if ord(c) < 0x20 else c for c in marker)


def parse_numstat(section: str) -> tuple[FileChange, ...]:
    """Parse ``--numstat -z`` entries (``a\\td\\tpath\\0`` or ``a\\td\\t\\0old\\0new\\0``)."""
    tokens = section.split("\x00")
    files: list[FileChange] = []
    i = 0
    while i < len(tokens):
        parts = tokens[i].split("\t", 2)
        i += 1
        if len(parts) != 3:
            continue
        adds, dels, path = parts
        if not path:  # a rename or copy: the old and the new path follow
            path = tokens[i + 1] if i + 1 < len(tokens) else ""
            i += 2
        if path:
            files.append(FileChange(neutralise(path), _count(adds), _count(dels)))
    return tuple(files)


def parse_raw(section: str) -> tuple[tuple[FileChange, ...], tuple[str, ...]]:
    """Parse ``--raw --no-renames -z`` entries (``:mode mode old new S\\0path\\0``).

    Return the changed files, line counts unknown, and the blob ids a diff would read
    (neither submodule commits nor the all-zero id of an absent side).
    """
    tokens = section.split("\x00")
    files: list[FileChange] = []
    blobs: list[str] = []
    for header, path in zip(tokens[::2], tokens[1::2], strict=False):
        fields = header.lstrip(":").split()
        if len(fields) < 5 or not path:
            continue
        files.append(FileChange(neutralise(path)))
        for mode, oid in ((fields[0], fields[2]), (fields[1], fields[3])):
            if mode != "160000" and oid.strip("0"):
                blobs.append(oid)
    return tuple(files), tuple(blobs)


def parse_missing(output: str) -> set[str]:
    """Return the ids ``git cat-file --batch-check=%(objectname)`` reported missing."""
    return {line.split()[0] for line in output.splitlines() if line.endswith(" missing")}


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _count(text: str) -> int | None:
    """Return a numstat count as an int, or None for ``-`` (binary) and anything odd."""
    return int(text) if _is_number(text) else None


def _batch_objects(data: bytes, asked: list[str]) -> Iterator[tuple[str, bytes, bytes, bytes]]:
    """Walk ``git cat-file --batch`` output for the names ``asked`` (in order), yielding
    ``(asked name, object id, type, content)`` for those found; missing and ambiguous
    names are skipped."""
    pos = 0
    for name in asked:
        newline = data.find(b"\n", pos)
        if newline < 0:
            break
        header = data[pos:newline].split()
        pos = newline + 1
        if len(header) != 3 or not header[2].isdigit():
            continue
        size = int(header[2])
        content, pos = data[pos : pos + size], pos + size + 1
        yield name, header[0], header[1], content


def parse_batch(data: bytes, asked: list[str]) -> dict[str, tuple[str, str]]:
    """Read ``git cat-file --batch`` output for the names ``asked`` (in order).

    Return ``{asked name: (full sha, commit message)}`` for the names that are commits;
    missing, ambiguous and non-commit objects are left out.
    """
    return {
        name: (
            sha.decode("ascii", "replace"),
            content.partition(b"\n\n")[2].decode("utf-8", "replace"),
        )
        for name, sha, kind, content in _batch_objects(data, asked)
        if kind == b"commit"
    }


def parse_message(sha: str, message: str, repo: str) -> Message:
    """Parse the raw commit ``message`` of ``sha`` in ``repo`` (``owner/name``)."""
    subject, _, rest = message.lstrip("\n").partition("\n")
    if _ESCAPED_BREAK in subject:
        # "Fix X (#17704)\\n\\nCSS modules …": a message squashed onto one line with its
        # breaks written out; the title ends where its first paragraph did.
        subject, _, spilled = subject.partition(_ESCAPED_BREAK)
        rest = f"{spilled.replace(_ESCAPED_LINE, chr(10))}\n{rest}"
    merge = _MERGE_PR.match(subject)
    if merge:  # GitHub merge commit: the PR title is the first line of the body
        title_line, _, rest = rest.strip("\n").partition("\n")
        subject = f"{title_line} (#{merge[1]})" if title_line.strip() else subject
    head, own = split_number(subject)
    number = own if own is not None else _resolved_number(rest, repo)
    title = _clip(one_line(head), MAX_TITLE)
    body = _clip(neutralise(rest).strip(), MAX_BODY)
    title = title or "(no commit message)"
    # A re-land ("Reapply X" reverting a revert) is reported as a re-land, not a revert.
    reland = None if _REVERT_SUBJECT.match(title) else reland_hint(title, body, repo, number)
    revert = None if reland else revert_hint(title, body, repo)
    return Message(sha, number, title, body, revert, reland)


#: A line break, and a paragraph break, written out as text in a subject line.
_ESCAPED_LINE = "\\n"
_ESCAPED_BREAK = _ESCAPED_LINE * 2


def _clip(text: str, limit: int) -> str:
    """Return ``text`` cut to ``limit`` characters, saying so when it was cut."""
    return text if len(text) <= limit else text[:limit] + _CUT


def _resolved_number(body: str, repo: str) -> int | None:
    """Return N of the first ``Pull Request resolved: …/repo/pull/N`` line of ``body``."""
    numbers = [int(n) for name, n in _RESOLVED.findall(body) if name.lower() == repo.lower()]
    return numbers[0] if numbers else None


def revert_hint(title: str, body: str, repo: str) -> Hint | None:
    """Return what the change titled ``title`` reverts, or None when it is not a revert.

    The sha comes from ``This reverts commit <sha>.``; the title and number from a quoted
    ``Revert "X (#N)"`` subject, or ``Revert #N``, or a ``Reverts owner/repo#N`` line.
    """
    sha = _reverted_sha(body)
    subject = _REVERT_SUBJECT.match(title)
    if subject is None:
        return Hint(sha=sha, weak=True) if sha else None
    rest = subject[1]
    inner, number = (None, None)
    if rest.startswith('"'):
        inner, number = split_number(_unquote(rest))
    elif bare := re.match(r"(?:pr[ \t]*)?#([0-9]{1,9})\b", rest, re.I):
        number = int(bare[1])
    if number is None:
        number = next((_ref_number(r, repo) for r in _REVERTS_PR.findall(body)), None)
    if sha is None and number is None and not inner:
        return None
    return Hint(number=number, sha=sha, title=inner or None)


def _reverted_sha(body: str) -> str | None:
    """Return the sha of the first ``This reverts commit <sha>`` in ``body``, lower-cased."""
    shas = _THIS_REVERTS.findall(body)
    return shas[0].lower() if shas else None


def _unquote(text: str) -> str:
    """Return the text of ``"X"`` (the first of ``"X" and "Y"``; an open quote is fine)."""
    inner = text[1:-1] if len(text) > 1 and text.endswith('"') else text[1:]
    return _LIST_OF_QUOTED.split(inner, maxsplit=1)[0].strip()


def split_number(title: str) -> tuple[str, int | None]:
    """Split a trailing ``(#N)`` off ``title``; return the rest and N (or None)."""
    own = _OWN_NUMBER.search(title)
    return (title[: own.start()].strip(), int(own[1])) if own else (title.strip(), None)


def _ref_number(ref: str, repo: str) -> int | None:
    """Return N of ``#N``, ``owner/repo#N`` or a pull URL when it is about ``repo``."""
    if ref.startswith("#"):
        return int(ref[1:])
    url = _PULL_URL.match(ref)
    name, number = (url[1], url[2]) if url else ref.split("#", 1)
    return int(number) if name.lower() == repo.lower() else None


def reland_hint(title: str, body: str, repo: str, own: int | None) -> Hint | None:
    """Return what the change titled ``title`` (number ``own``) re-lands, or None.

    Recognises ``Reland "X"``, ``Re-land X``, ``Reapply "X"``, ``[reland] X``,
    ``X (re-land)``. The number comes from the title (``"X (#N)"``, ``#N: X``,
    ``(originally #N)``) or the body (``Reland of #N``, ``original PR: #N``).
    """
    stripped = _strip_reland(title)
    if stripped is None:
        return None
    originally = _ORIGINALLY.search(stripped)
    numbers = [int(originally[1])] if originally else []
    stripped, tail = split_number(_ORIGINALLY.sub("", stripped))
    if hashed := _HASH_PREFIX.match(stripped):
        numbers.append(int(hashed[1]))
        stripped = hashed[2]
    quoted = _QUOTED.match(_DIFF_PREFIX.sub("", stripped))
    stripped, in_quotes = split_number(quoted[1] if quoted else stripped)
    numbers += [n for n in (in_quotes, tail) if n is not None]
    in_title = next((n for n in numbers if n != own), None)
    number = in_title or _body_number(_RELAND_OF.findall(body), repo, own)
    loose = _body_number([m.group(0) for m in _PULL_URL.finditer(body)], repo, own)
    sha = _reverted_sha(body)
    return Hint(number=number, sha=sha, title=stripped or title, loose=loose)


def _strip_reland(title: str) -> str | None:
    """Return ``title`` without its re-land marker, or None when it has none."""
    lead = _RELAND_LEAD.match(title)
    if lead:
        return f"{lead[1]}{lead[2]}".strip()
    tag = _RELAND_TAG.search(title)
    if tag:
        return " ".join(f"{title[: tag.start()]} {title[tag.end() :]}".split())
    return None


def _body_number(refs: list[str], repo: str, own: int | None) -> int | None:
    """Return the first of ``refs`` that names a pull request of ``repo`` other than ``own``."""
    for ref in refs:
        number = _ref_number(ref, repo)
        if number is not None and number != own:
            return number
    return None


#: A changelog file: ``CHANGELOG.md``, ``docs/en/docs/release-notes.md``, ``NEWS.rst``.
_CHANGELOG_NAME = re.compile(
    r"^(changelog|changes|history|news|releases|release[-_]?notes)([-_.][\w.-]*)?\.(md|rst|txt|markdown)$",
    re.I,
)
#: A subject that cuts a release: it names a version, or says "release"/"version packages".
_CUTS_RELEASE = re.compile(r"\bv?\d+\.\d+(\.\d+)?\b|\brelease\b|\bversion packages\b", re.I)
#: A subject that writes the notes of a release to come.
_WRITES_NOTES = re.compile(r"\b(release[- ]notes|changelog|news)\b", re.I)
#: Most of a release's notes kept: a long release's every entry (ruff's, biome's run to
#: 10-20 kB), not a changelog's whole history pasted in at once.
MAX_NOTES = 32_000


def cut_notes(text: str, limit: int = MAX_NOTES) -> str:
    """``text`` cut to at most ``limit`` characters at the end of a line, so that no entry
    of the notes is left half-written (a link cut open drops the entry from every count)."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    return head.rsplit("\n", 1)[0] if "\n" in head else head


#: Where a change leaves a note for its release, written for users: a changeset, a news or
#: changelog fragment (towncrier, scriv).
_FRAGMENT_DIRS = (".changeset/", "changelog.d/", "news/", "changes/", "newsfragments/")
_FRAGMENT_NAME = re.compile(r"(\.(md|rst|txt|markdown)|/[^/.]+\.[a-z]+(\.\d+)?)$", re.I)


def fragment_paths(files: Sequence[FileChange]) -> tuple[str, ...]:
    """The release-note fragments a change adds or extends (``.changeset/x.md``)."""
    return tuple(
        f.path
        for f in files
        if f.path.startswith(_FRAGMENT_DIRS)
        and _FRAGMENT_NAME.search(f.path)
        and (f.additions is None or f.additions > 0)
        and not f.path.lower().endswith(("readme.md", "readme.rst", "config.json"))
    )


#: A page of the project's documentation: prose for users, in a folder of documentation.
_DOC_PAGE = re.compile(
    r"(?:^|/)(?:docs?|documentation|user-guide|guide)/(?:[^/]+/)*[^/]+\.(?:md|rst)$", re.I
)


def doc_paths(title: str, body: str, files: Sequence[FileChange]) -> tuple[str, ...]:
    """The documentation pages a change titled ``title`` with no description of its own
    (``body``, its message after the title) adds prose to: what it tells users is there;
    ``()`` for a change that describes itself, or one about the documentation itself ("Fix
    links in docs", whose pages say nothing of it), or a revert."""
    if _ABOUT_DOCS.search(title):
        return ()
    pages = [f for f in files if _DOC_PAGE.search(f.path)]
    # Pages written with code: the documentation of what the change brings. A page changed
    # alone is the documentation's own news, and a translation is no English a summary quotes.
    code = [f for f in files if f not in pages and not _NOT_CODE.search(f.path)]
    if not _TRAILERS_ONLY.fullmatch(body) or not code:
        return ()
    return tuple(
        f.path
        for f in pages
        if not _CHANGELOG_NAME.match(f.path.rsplit("/", 1)[-1])
        and not _TRANSLATED.search(f.path)
        and (f.additions is None or f.additions >= 3)
    )


#: Files that are not the project's code: tests, CI, lockfiles, other documentation.
_NOT_CODE = re.compile(
    r"(?:^|/)(?:tests?|testing|\.github|ci|benchmarks?|examples?|docs?|docs_src|documentation)/"
    r"|(?:^|/)test_|_test\.|\.lock$"
    r"|\.(?:md|mdx|rst|txt|markdown|ya?ml|toml|json|lock|cfg|ini)$",
    re.I,
)
#: A page in a language folder other than English ("docs/ru/docs/…", "docs/zh-hant/…").
_TRANSLATED = re.compile(r"(?:^|/)(?!en/)[a-z]{2}(?:[-_][a-z]{2,4})?/", re.I)


#: A title about the documentation, its links or its words, or one that takes a change back.
_ABOUT_DOCS = re.compile(
    r"^(?:docs?\b|\U0001f4dd|revert\b)|\b(?:docs?|documentation|links?|typos?|readme|wording)\b",
    re.I,
)
#: A message body with nothing but trailers ("Co-authored-by: …") and blank lines.
_TRAILERS_ONLY = re.compile(r"(?:\s*(?:[A-Za-z-]+-by|Change-Id):[^\n]*)*\s*")
#: Markup a paragraph of documentation quotes code or links with (RST and Markdown).
_RST_ROLE = re.compile(r":(?P<role>[\w:]+):`~?(?:([^`<]+?)\s*<[^`>]+>|([^`]+))`")
_RST_LITERAL = re.compile(r"``([^`]+)``")
_MD_LINK_TEXT = re.compile(r"\[([^\]\n]+)\]\([^)\s]+\)")


def doc_paragraph(added: str) -> str:
    """The first paragraph of prose in ``added``, lines a change adds to a documentation
    page: whole sentences of a dozen words or more, not a heading, a list, a table, code or a
    directive; its markup made plain Markdown (``x`` and :ref:`X <y>` read `x` and X);
    ``""`` when there is none."""
    paragraphs = re.split(r"\n\s*\n", added)
    for paragraph in paragraphs:
        lines = [line.rstrip() for line in paragraph.splitlines() if line.strip()]
        if not lines or any(_NOT_PROSE.match(line) for line in lines):
            continue
        text = " ".join(line.strip() for line in lines)
        text = _RST_LITERAL.sub(r"`\1`", text)
        text = _RST_ROLE.sub(_role_said, text)
        text = _MD_LINK_TEXT.sub(r"\1", text).replace("**", "")
        opens = text[:1].isupper() or text[:1] == "`"  # not a paragraph's tail a hunk cut
        latin = sum(c.isascii() for c in text) >= 0.95 * len(text)
        if not (opens and latin):
            continue
        if len(text.split()) >= 12 and text.endswith((".", ":")) and not text.endswith("::"):
            return text.rstrip(":") + ("" if text.endswith(".") else ".")
    return ""


def _role_said(role: re.Match[str]) -> str:
    """An RST role as plain Markdown: a page it links to by its title (``:ref:``, ``:doc:``),
    code by its last name (:py:class:`~a.b.C` reads `C`)."""
    said = (role[2] or role[3]).strip()
    if role["role"].rsplit(":", 1)[-1] in ("ref", "doc", "term"):
        return said
    return f"`{said.rsplit('.', 1)[-1]}`"


#: A line of a page that is not running prose: a heading or its underline, a list item, a
#: table row, code, a directive, an HTML or template tag.
_NOT_PROSE = re.compile(
    r"^(?:\s{2,}|\t|#|[=~^\"'`*+-]{3,}\s*$|\s*[-*+]\s|\s*\d+[.)]\s|\s*\||\.\. |```|:::|<|\{[%{])"
)


#: A changeset's front matter: the packages it bumps and how (``"svelte": patch``).
_FRONT_MATTER = re.compile(r"\A\s*---\n.*?\n---\s*\n?", re.S)


def fragment_text(added: str) -> str:
    """The note a fragment's ``added`` lines say, without a changeset's front matter."""
    return _FRONT_MATTER.sub("", added).strip()


def cuts_release(title: str) -> bool:
    """True when a commit titled ``title`` cuts a release: it names a version or says so."""
    return bool(_CUTS_RELEASE.search(title))


def own_changelog(path: str, repo: str) -> bool:
    """True when ``path``, a changelog, is the repository ``repo``'s own (``owner/name``): at
    its top, or in a folder named after it (``packages/astro/CHANGELOG.md``)."""
    parts = path.split("/")
    return len(parts) == 1 or parts[-2].lower() == repo.rsplit("/", 1)[-1].lower()


def changelog_paths(title: str, files: Sequence[FileChange]) -> tuple[str, ...]:
    """The changelog files a commit titled ``title`` adds release notes to, when its title
    cuts a release or it only writes the notes ("Update release notes"); ``()`` otherwise."""
    paths = tuple(f.path for f in files if _CHANGELOG_NAME.match(f.path.rsplit("/", 1)[-1]))
    if _CUTS_RELEASE.search(title):
        return paths
    if _WRITES_NOTES.search(title) and paths and len(paths) == len(files):
        return paths  # the entries of the release to come, written one change at a time
    return ()


#: A changelog line that heads a release: ``# 1.47.4 (April 2nd, 2026)``, ``## [0.15.1]``,
#: ``## v2.3.0``, or an RST title line ``1.2.3 (2026-01-01)``.
_RELEASE_HEADING = re.compile(
    r"^(?:(?:#{1,6}\s+|\*\*)\[?(?:[\w.-]+[\s@-])?|\[)?v?(?P<version>\d+(?:\.\d+){1,3})\b"
    r"(?![-.]\w*\d|\.[x*]\b)"
)


def _heading_version(line: str) -> tuple[int, ...] | None:
    match = _RELEASE_HEADING.match(line)
    return tuple(int(part) for part in match["version"].split(".")) if match else None


def older_line(title: str, notes: str, changelogs: Sequence[str]) -> bool:
    """True when the commit titled ``title`` releases a patch of an older line: its title
    names the version its ``notes`` (the lines it added) open with, and every changelog it
    wrote them into (``changelogs``, whole, as of the commit) is headed by a version newer
    than any the notes head ("1.47.4" written below "1.51.0": an LTS release merged
    forward)."""
    headed = [match for match in map(_RELEASE_HEADING.match, notes.splitlines()) if match]
    if not headed or not changelogs:
        return False
    if not re.search(rf"(?<![\d.]){re.escape(headed[0]['version'])}(?![\d.]*\d)", title):
        return False  # "Archive the 0.7.x changelog", "Add dates to release notes"
    own = {v for v in map(_heading_version, notes.splitlines()) if v}
    for changelog in changelogs:
        newest = next((v for v in map(_heading_version, changelog.splitlines()) if v), None)
        if newest is None or newest in own or newest < max(own):
            return False
    return True


def parse_blobs(data: bytes, asked: list[str]) -> dict[str, str]:
    """Read ``git cat-file --batch`` output for the blob names ``asked`` (in order):
    ``{name: text}``, missing objects and other kinds left out."""
    return {
        name: content.decode("utf-8", "replace")
        for name, _, kind, content in _batch_objects(data, asked)
        if kind == b"blob"
    }


def parse_added_lines(text: str, marker: str) -> dict[str, dict[str, str]]:
    """Split the output of ``git log --format=<marker>%H -p --unified=0`` into the lines each
    commit adds to each file (``{sha: {path: text}}``), neutralised and cut by
    :func:`cut_notes`."""
    added: dict[str, dict[str, str]] = {}
    for record in text.split(marker)[1:]:
        sha, _, patch = record.partition("\n")
        files: dict[str, list[str]] = {}
        lines: list[str] = []
        for line in patch.splitlines():
            if line.startswith("+++ "):
                lines = files.setdefault(_patch_path(line[4:]), [])
            elif line.startswith("+"):
                lines.append(line[1:])
        for path, kept in files.items():
            # Leading spaces kept: an indented line is a sub-entry of one written earlier.
            text_added = neutralise("\n".join(kept).strip("\n").rstrip())
            if text_added:
                added.setdefault(sha.strip(), {})[path] = cut_notes(text_added)
    return added


def _patch_path(name: str) -> str:
    """The path a ``+++`` line of a patch names (``b/CHANGELOG.md`` or git's quoted form)."""
    if name.startswith('"') and name.endswith('"'):
        name = name[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
        name = name.encode("latin-1", "replace").decode("utf-8", "replace")
    return name[2:] if name.startswith("b/") else name
