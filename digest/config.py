"""Load and validate ``digest.yaml``.

The file is parsed with PyYAML and converted by msgspec into frozen structs that forbid
unknown keys and check types and ranges; the rules a type cannot say (slugs, URLs,
repository names, printable text) are checked after, each knowing its key. Any problem
becomes one :class:`~digest.errors.ConfigError` naming the file, the key and the line,
with a suggestion when a key looks like a typo.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args
from urllib.parse import urlsplit

import msgspec
from msgspec import Meta, Struct, field
from msgspec.structs import force_setattr, replace

from digest import decoding
from digest.decoding import Location
from digest.errors import ConfigError
from digest.text import slugify

if TYPE_CHECKING:
    import yaml

REPO_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/(?!\.\.?$)[A-Za-z0-9._-]{1,100}$")
SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$")
DEFAULT_CONFIG = "digest.yaml"


#: Top-level names of the site's own pages and folders: a project's folder may not take one.
RESERVED_SLUGS = frozenset(
    {
        "about",
        "actions",
        "archive",
        "assets",
        "feed",
        "index",
        "pagefind",
        "robots",
        "search",
        "sitemap",
        "static",
        "style",
        "subscribe",
        "topics",
    }
)
# Control characters (tab and newline are kept), bidi and invisible format characters and
# lone surrogates: in a title they make a feed ill-formed XML or a page read falsely.
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064"
    "\u2066-\u2069\ufeff\ufff9-\ufffb\ud800-\udfff]"
)


class InvalidSettings(ValueError):
    """Configuration data breaks a rule; ``loc`` says where, the message what."""

    def __init__(self, loc: Location, message: str) -> None:
        super().__init__(message)
        self.loc = loc
        self.message = message


class _Section(Struct, frozen=True, forbid_unknown_fields=True):
    """A part of the configuration: immutable, refusing keys it does not know.

    Subclasses say ``frozen=True`` again for type checkers, and ``kw_only=True`` (msgspec
    applies it per class): fields are named at every call, as in the file.
    """

    def problems(self) -> Iterator[tuple[str | None, str]]:
        """Yield (key, or None for the whole section; message) for each rule broken."""
        return iter(())


NonEmpty = Annotated[str, Meta(min_length=1)]


def _derive_slug(section: TopicSettings | ProjectSettings) -> None:
    """Fill in ``slug`` from ``name`` when the configuration gives none."""
    if not section.slug:
        force_setattr(section, "slug", slugify(section.name))


def _slug_problem(value: str | None) -> str | None:
    if value is not None and not SLUG.match(value):
        return f"slug {value!r} must be lower-case letters, digits and dashes"
    return None


def _project_slug_problem(value: str | None) -> str | None:
    """What is wrong with a project's slug: malformed, or the name of a page of the site."""
    if value in RESERVED_SLUGS:
        return (
            f"slug {value!r} is taken by the site's own pages "
            f"({', '.join(sorted(RESERVED_SLUGS))}); set another `slug:`"
        )
    return _slug_problem(value)


#: What ``site.base_url`` should be, as the placeholder's messages say it.
DEPLOY_HINT = (
    "the address the site is served from (GitHub Pages: https://<owner>.github.io/<repository>/)"
)
#: Top-level domains reserved for examples and tests (RFC 2606, RFC 6761).
_RESERVED_TLDS = frozenset({"example", "invalid", "test", "localhost"})


def placeholder_host(base_url: str) -> str | None:
    """Return the host of ``base_url`` when it is a placeholder, else None.

    A placeholder is a name reserved for examples: ``example.org`` and the like and
    anything under them (``wire.example.org``, the shipped ``digest.yaml``'s), or a
    reserved top-level domain (``example.invalid``, the default). A site deployed with
    one publishes feeds and canonical links that lead nowhere.
    """
    host = (urlsplit(base_url).hostname or "").rstrip(".").lower()
    labels = host.split(".")
    if labels[-1] in _RESERVED_TLDS or (len(labels) >= 2 and labels[-2] == "example"):
        return host
    return None


class SiteSettings(_Section, frozen=True, kw_only=True):
    """How the published site presents itself."""

    title: NonEmpty = "The Wire"
    publisher: NonEmpty = "The Wire"
    #: Absolute URL the site is served from; feeds need absolute links.
    base_url: NonEmpty = "https://example.invalid/"
    description: str = "Daily news of what busy open-source repositories merged."
    #: How many editions the front page lists.
    recent: Annotated[int, Meta(ge=1, le=100)] = 10
    #: How many editions each RSS feed carries.
    feed_items: Annotated[int, Meta(ge=1, le=500)] = 30
    #: A folder of templates that override the shipped ones (relative to the config file).
    templates: Path | None = None
    #: Build the search index (Pagefind, when installed); false leaves it out.
    search: bool = True

    def __post_init__(self) -> None:
        if not self.base_url.endswith("/"):
            force_setattr(self, "base_url", self.base_url + "/")

    def problems(self) -> Iterator[tuple[str | None, str]]:
        if not re.match(r"^https?://[^/\s]+", self.base_url):
            yield "base_url", "must be an absolute http(s) URL, e.g. https://news.example.org/"


class TopicSettings(_Section, frozen=True, kw_only=True):
    """A named subject; an edition belongs to it when one of its changes matches a rule."""

    name: NonEmpty
    slug: str | None = None
    description: str = ""
    labels: tuple[str, ...] = ()
    #: Path prefixes or globs (``backends/arm/``, ``**/*.md``).
    paths: tuple[str, ...] = ()
    #: Title prefixes, case-insensitive (``Arm backend:``, ``[MLX]``).
    title_prefixes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _derive_slug(self)

    def problems(self) -> Iterator[tuple[str | None, str]]:
        if problem := _slug_problem(self.slug):
            yield "slug", problem
        if not (self.labels or self.paths or self.title_prefixes):
            yield None, "a topic needs at least one of labels, paths, title_prefixes"


class GitHubSettings(_Section, frozen=True, kw_only=True):
    """How the GitHub source talks to the API."""

    #: API root; default ``GITHUB_API_URL`` from the environment, else https://api.github.com.
    api_url: str | None = None
    #: Seconds per HTTP request.
    timeout: Annotated[float, Meta(gt=0, le=600)] = 30.0
    #: Retries of a 5xx, a connection error or a secondary rate limit.
    retries: Annotated[int, Meta(ge=0, le=20)] = 5
    #: Longest wait for an exhausted primary rate limit to reset before giving up on a repo.
    max_reset_wait: Annotated[int, Meta(ge=0, le=3600)] = 300
    #: Seconds one repository may take in all (requests, retries, waits) before it is given up.
    deadline: Annotated[float, Meta(gt=0, le=86400)] = 120.0


class OpenAISettings(_Section, frozen=True, kw_only=True):
    """How the ``openai`` writer talks to an OpenAI-compatible server."""

    model: NonEmpty = "gpt-4o-mini"
    #: Server root; default ``OPENAI_BASE_URL`` from the environment, else OpenAI's.
    base_url: str | None = None
    temperature: Annotated[float, Meta(ge=0, le=2)] = 0.2
    #: Most tokens one request may use, prompt and answer, with room kept for the one repair
    #: request (which repeats the answer): fits a model with an 8k-token context.
    token_budget: Annotated[int, Meta(ge=1000, le=1_000_000)] = 8000
    #: Seconds per request.
    timeout: Annotated[float, Meta(gt=0, le=600)] = 60.0
    #: Retries of a 429 or 5xx by the SDK before the writer falls back.
    max_retries: Annotated[int, Meta(ge=0, le=10)] = 2
    #: How to ask for JSON: ``json_schema`` (strict structured output), ``json_object``
    #: (JSON mode, the schema in the system message: llama.cpp, older servers), or ``auto``:
    #: ``json_schema`` until the server refuses it, then ``json_object`` for the run.
    response_format: Literal["auto", "json_schema", "json_object"] = "auto"
    #: Ask a second request to check each body sentence against what it cites, and leave
    #: out the ones it says are unsupported (contradictions, invented claims in plain words).
    verify: bool = False


class RepoSettings(_Section, frozen=True, kw_only=True):
    """One repository of a project and where to read it from."""

    name: NonEmpty
    #: How pages write the repository's name (brand casing: ``torchao``); default ``name``.
    display_name: NonEmpty | None = None
    #: Where the repository is browsed: links to its changes are ``<url>/pull/N`` and
    #: ``<url>/commit/<sha>`` (default ``https://github.com/<name>``).
    url: str | None = None
    #: A local clone (bare or not) to read instead of the GitHub API.
    git: Path | None = None
    branch: NonEmpty = "main"
    #: For repositories whose merge bot closes PRs and labels them instead of merging
    #: (pytorch/pytorch: ``merged``): the label that marks a landed PR.
    merged_label: str | None = None
    #: The source to use; derived: ``git`` when ``git`` is set, else ``github``.
    source: str | None = None

    def __post_init__(self) -> None:
        if self.source is None:
            force_setattr(self, "source", "git" if self.git else "github")
        if self.url is not None:
            force_setattr(self, "url", self.url.rstrip("/"))

    def problems(self) -> Iterator[tuple[str | None, str]]:
        if not REPO_NAME.match(self.name):
            yield "name", f"{self.name!r} is not of the form owner/repo"
        if self.url is not None:
            parts = urlsplit(self.url)
            if parts.scheme not in ("https", "http") or not parts.netloc:
                yield "url", f"{self.url!r} is not an http(s) URL"

    @property
    def web_url(self) -> str:
        """Where the repository is browsed: ``url``, else its page on github.com."""
        return self.url or f"https://github.com/{self.name}"


class ProjectSettings(_Section, frozen=True, kw_only=True):
    """A project: one edition a day covering all of its repositories."""

    name: NonEmpty
    #: How pages and editions write the project's name (brand casing: ``ExecuTorch``).
    display_name: NonEmpty | None = None
    slug: str | None = None
    description: str = ""
    repos: Annotated[tuple[RepoSettings, ...], Meta(min_length=1)]

    def __post_init__(self) -> None:
        _derive_slug(self)

    def problems(self) -> Iterator[tuple[str | None, str]]:
        if problem := _project_slug_problem(self.slug):
            yield "slug", problem
        names = [repo.name.lower() for repo in self.repos]
        if dupes := sorted({n for n in names if names.count(n) > 1}):
            yield None, f"repository listed twice: {', '.join(dupes)}"

    @property
    def shown(self) -> str:
        """The project's name as editions write it: ``display_name``, else ``name``."""
        return self.display_name or self.name

    @property
    def key(self) -> str:
        """The project's slug (always set: derived from the name when not given)."""
        assert self.slug is not None
        return self.slug


class Settings(_Section, frozen=True, kw_only=True):
    """The whole configuration file."""

    site: SiteSettings = field(default_factory=SiteSettings)
    data_dir: Path = Path("data")
    site_dir: Path = Path("site")
    #: The writer used unless ``--writer`` says otherwise.
    writer: NonEmpty = "extractive"
    github: GitHubSettings = field(default_factory=GitHubSettings)
    openai: OpenAISettings = field(default_factory=OpenAISettings)
    topics: tuple[TopicSettings, ...] = ()
    projects: Annotated[tuple[ProjectSettings, ...], Meta(min_length=1)]

    def problems(self) -> Iterator[tuple[str | None, str]]:
        for kind, slugs in (
            ("project", [p.key for p in self.projects]),
            ("topic", [t.slug or "" for t in self.topics]),
        ):
            if dupes := sorted({s for s in slugs if slugs.count(s) > 1}):
                yield None, f"two {kind}s share the slug {', '.join(dupes)}"

    def project(self, slug: str) -> ProjectSettings:
        for project in self.projects:
            if project.key == slug:
                return project
        known = ", ".join(p.key for p in self.projects)
        raise ConfigError("--project", f"no project {slug!r}; configured: {known}")


def load_settings(path: Path, *, cache: Path | None = None) -> Settings:
    """Read, validate and return the configuration at ``path``.

    Relative paths in it (``data_dir``, ``site_dir``, ``git``, ``site.templates``) are
    resolved against the file's folder. Raises :class:`ConfigError` on any problem.

    With ``cache`` (a folder, see :func:`config_cache`), the file's parsed data is kept
    there and used again, instead of parsing the YAML, while the file is the very one it
    was parsed from (see :func:`_cached`); it is validated as the parsed file is.
    """
    data, identity = _read(path)
    settings = None
    if cache is not None and (kept := _cached(cache, path, data, identity)) is not None:
        try:
            settings = parse_settings(kept)
        except (InvalidSettings, RecursionError):
            settings = None  # not what the file holds, which is valid: parse the file
    parsed = None
    if settings is None:
        root, parsed = _parse_yaml(path, data)
        try:
            settings = parse_settings(parsed)
        except InvalidSettings as invalid:
            raise _located(path, root, invalid) from None
    settings = _resolve_paths(settings, path.parent.resolve())
    _refuse_dangerous_dirs(path, settings)
    templates = settings.site.templates
    if templates is not None and not templates.is_dir():
        # Checked here, before any stage writes: a build would fail only after collecting.
        what = "is not a folder" if templates.exists() else "no such folder"
        raise ConfigError(path, f"{what}: {templates}", "site.templates")
    if cache is not None and parsed is not None:
        _keep(cache, path, data, identity, parsed)
    return settings


def _read(path: Path) -> tuple[bytes, list[int]]:
    """The bytes of the configuration file and the identity of the file read (see
    :func:`_cached`). Raises ConfigError when it cannot be read."""
    try:
        with path.open("rb") as handle:
            found = os.fstat(handle.fileno())
            data = handle.read()
    except FileNotFoundError:
        raise ConfigError(path, "no such file (pass --config PATH)") from None
    except OSError as error:
        raise ConfigError(path, f"cannot read: {error}") from None
    identity = [found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns]
    return data, identity


def _parse_yaml(path: Path, data: bytes) -> tuple[yaml.Node | None, object]:
    """The YAML node tree of the configuration file's bytes ``data`` and its data.

    Raises ConfigError when they are not UTF-8, not YAML, or give a key twice.
    """
    import yaml  # here: a configuration read from the cache needs no YAML parser

    try:
        # As a file read as text: universal newlines.
        text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as error:
        raise ConfigError(path, f"cannot read: {error}") from None
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, where built with it
    try:
        root = yaml.compose(text, Loader=loader)
        _reject_duplicate_keys(path, root)
        return root, yaml.load(text, Loader=loader)
    except yaml.MarkedYAMLError as error:
        line = error.problem_mark.line + 1 if error.problem_mark else "?"
        raise ConfigError(path, f"line {line}: invalid YAML: {error.problem}") from None
    except yaml.YAMLError as error:
        raise ConfigError(path, f"invalid YAML: {error}") from None


#: The version of the entries :func:`_keep` writes; an entry of another is not used.
_CACHE_FORMAT = 1


def config_cache(env: Mapping[str, str]) -> Path | None:
    """The folder where the CLI keeps parsed configuration files: ``the-wire/config`` in
    the user's cache folder (``$XDG_CACHE_HOME``, else ``~/.cache``); None when ``env``
    names neither (nothing is kept then).

    Not in the site's builds folder: where that is, the configuration says.
    """
    base = Path(env.get("XDG_CACHE_HOME", ""))
    if not base.is_absolute():  # unset, or relative: ignored, as the XDG rules say
        home = Path(env.get("HOME", ""))
        if not home.is_absolute():
            return None
        base = home / ".cache"
    return base / "the-wire" / "config"


def _entry(cache: Path, path: Path) -> tuple[Path, str]:
    """The file in ``cache`` that keeps the parsed configuration at ``path``, and the
    absolute path it is kept for."""
    where = os.path.abspath(path)  # noqa: PTH100  (not resolved: as the file was named)
    name = hashlib.sha256(where.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return cache / f"{name}.json", where


def _cached(cache: Path, path: Path, data: bytes, identity: list[int]) -> object | None:
    """The parsed data kept in ``cache`` for the configuration file at ``path``, when it
    was kept for these very bytes ``data`` (their SHA-256) of this very file (device,
    inode, size, modification and change time: ``identity``); else None.

    An entry is input from outside the run, like any cache, and is not believed: it is
    used only for the file it names, as the file is (a change of even one byte, in place
    with its times kept, is a new SHA-256; an edit, a new checkout or a copy, a new change
    time or inode, which no program can set, and which an entry restored from elsewhere
    cannot know), and what it holds is then validated as the file's data is. Anything
    else (no entry, unreadable, another format, another file) is None: the file is parsed.
    """
    entry, where = _entry(cache, path)
    try:
        kept = json.loads(entry.read_bytes())
    except (OSError, ValueError, RecursionError):  # RecursionError: nested past the limit
        return None
    if (
        not isinstance(kept, dict)
        or kept.get("format") != _CACHE_FORMAT
        or kept.get("config") != where
        or kept.get("file") != identity
        or kept.get("sha256") != hashlib.sha256(data).hexdigest()
    ):
        return None
    return kept.get("raw")


def _keep(cache: Path, path: Path, data: bytes, identity: list[int], raw: object) -> None:
    """Keep in ``cache`` the parsed data ``raw`` of the configuration file at ``path``
    (its bytes ``data``, its file ``identity``), valid settings, for :func:`_cached`.

    Kept only when JSON holds it exactly (no dates, sets or keys other than text);
    written atomically, unsynced (it can be made again); a folder that cannot be written
    is no error: the file is parsed again next time.
    """
    from digest.errors import StorageError
    from digest.store import write_atomic

    if not _json_exact(raw):
        return
    entry, where = _entry(cache, path)
    record = {
        "format": _CACHE_FORMAT,
        "config": where,
        "file": identity,
        "sha256": hashlib.sha256(data).hexdigest(),
        "raw": raw,
    }
    with contextlib.suppress(StorageError, OSError, ValueError):
        write_atomic(entry, json.dumps(record).encode(), sync=False)


def _json_exact(value: object) -> bool:
    """Whether JSON gives ``value`` back as it is: mappings with text keys, lists, text,
    booleans, whole numbers, finite numbers and null only."""
    if value is None or isinstance(value, str | bool | int):
        return True
    if isinstance(value, float):
        return value == value and abs(value) != float("inf")
    if isinstance(value, list):
        return all(_json_exact(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_exact(v) for k, v in value.items())
    return False


def parse_settings(raw: object) -> Settings:
    """Validate ``raw`` (the configuration file's data) into Settings, strings stripped.

    Raises :class:`InvalidSettings` at the first problem: an unprintable character, an
    unknown or missing key, a value of the wrong type or range, then a broken rule.
    """
    if not isinstance(raw, dict):
        raise InvalidSettings((), "must be a mapping with at least a 'projects' key")
    try:
        settings = msgspec.convert(_stripped(raw, ()), Settings, dec_hook=_decode_path)
    except msgspec.ValidationError as error:
        raise _invalid(error) from None
    for loc, message in _problems(settings, ()):
        raise InvalidSettings(loc, message)
    return settings


def _stripped(value: Any, loc: Location) -> Any:
    """``value`` with every string in it stripped of surrounding whitespace.

    Raises InvalidSettings at a string holding an unprintable character.
    """
    if isinstance(value, str):
        if bad := _UNPRINTABLE.search(value):
            problem = f"contains the unprintable character U+{ord(bad.group()):04X}; remove it"
            raise InvalidSettings(loc, problem)
        return value.strip()
    if isinstance(value, dict):
        return {key: _stripped(item, (*loc, key)) for key, item in value.items()}
    if isinstance(value, list):
        return [_stripped(item, (*loc, index)) for index, item in enumerate(value)]
    return value


def _decode_path(kind: type, value: object) -> object:
    """Make a Path of text; refuse anything else in msgspec's words, as it refuses a type."""
    if kind is Path and isinstance(value, str):
        return Path(value)
    said = {bool: "bool", int: "int", float: "float", list: "array", dict: "object"}
    raise TypeError(f"Expected `str`, got `{said.get(type(value), type(value).__name__)}`")


def _problems(section: _Section, loc: Location) -> Iterator[tuple[Location, str]]:
    """Yield (where, message) for each rule ``section`` and the sections in it break."""
    for name in section.__struct_fields__:
        value = getattr(section, name)
        if isinstance(value, _Section):
            yield from _problems(value, (*loc, name))
        elif isinstance(value, tuple):
            for index, item in enumerate(value):
                if isinstance(item, _Section):
                    yield from _problems(item, (*loc, name, index))
    for key, message in section.problems():
        yield ((*loc, key) if key else loc), message


#: msgspec's words for JSON types, as a configuration's writer would say them.
_KINDS = {
    "str": "text",
    "int": "a whole number",
    "float": "a number",
    "bool": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "nothing",
}


def _invalid(error: msgspec.ValidationError) -> InvalidSettings:
    """Turn msgspec's message (``what - at `$.key[0].key```) into InvalidSettings."""
    loc, what = decoding.problem(error)
    if key := re.fullmatch(r"Object contains unknown field `(.+)`", what):
        known = sorted(_section_at(loc).__struct_fields__)
        import difflib  # only to name a likely key in an error

        hint = difflib.get_close_matches(key[1], known, n=1)
        suggestion = f"did you mean {hint[0]!r}?" if hint else f"known keys: {', '.join(known)}"
        return InvalidSettings((*loc, key[1]), f"unknown key; {suggestion}")
    if key := re.fullmatch(r"Object missing required field `(.+)`", what):
        return InvalidSettings((*loc, key[1]), "required key is missing")
    if what == "Expected `str` of length >= 1":
        return InvalidSettings(loc, "must not be empty")
    if what == "Expected `array` of length >= 1":
        return InvalidSettings(loc, "needs at least one entry")
    if what.startswith("Invalid enum value") and loc:
        fields = msgspec.structs.fields(_section_at(loc[:-1]))
        choices = next((get_args(info.type) for info in fields if info.name == loc[-1]), ())
        return InvalidSettings(loc, f"must be one of {', '.join(map(str, choices))}")
    said = re.sub(r"`(\w+)`", lambda kind: _KINDS.get(kind[1], kind[1]), what)
    return InvalidSettings(loc, said[:1].lower() + said[1:])


def _section_at(loc: Location) -> type[_Section]:
    """The section type that reads the mapping at ``loc`` (a valid path into Settings)."""
    section: type[_Section] = Settings
    for part in loc:
        if isinstance(part, int):
            continue
        for info in msgspec.structs.fields(section):
            if info.name == part:
                section = _first_section(info.type) or section
    return section


def _first_section(annotation: Any) -> type[_Section] | None:
    if isinstance(annotation, type) and issubclass(annotation, _Section):
        return annotation
    for arg in get_args(annotation):
        if found := _first_section(arg):
            return found
    return None


def _located(path: Path, root: yaml.Node | None, invalid: InvalidSettings) -> ConfigError:
    """A ConfigError naming ``invalid``'s key and the line of the file it is on."""
    loc = list(invalid.loc)
    key = decoding.dotted(invalid.loc)
    node, parent = _node_at(root, loc)
    target = node or parent
    line = f"line {target.start_mark.line + 1}: " if target is not None and loc else ""
    return ConfigError(path, f"{line}{invalid.message}", key or None)


def _refuse_dangerous_dirs(path: Path, settings: Settings) -> None:
    """Raise ConfigError when ``data_dir`` or ``site_dir`` could destroy or publish data.

    Refused: a filesystem root or the home folder as either; the two the same, or one
    inside the other (collected bodies would be published, or a build would delete data).
    Nothing has been written when this runs.
    """
    data = settings.data_dir.resolve()
    # site_dir is a link each build moves: judge where it is, not where it points.
    site = settings.site_dir.parent.resolve() / settings.site_dir.name
    builds = site.parent / f".{site.name}.builds"
    try:
        home = Path.home().resolve()
    except (RuntimeError, KeyError):
        home = None
    for key, folder in (("data_dir", data), ("site_dir", site)):
        if folder == Path(folder.anchor) or folder == home:
            what = "the home folder" if folder == home else "a filesystem root"
            raise ConfigError(path, f"{folder} is {what}; name a folder of its own", key)
    if data == site:
        raise ConfigError(path, f"data_dir and site_dir are the same folder ({data})", "site_dir")
    for inner, outer, outer_key in ((data, site, "site_dir"), (data, builds, "site_dir")):
        if inner.is_relative_to(outer):
            raise ConfigError(
                path, f"data_dir {data} is inside {outer} (it would be published)", outer_key
            )
    if site.is_relative_to(data) or builds.is_relative_to(data):
        raise ConfigError(
            path, f"site_dir {site} is inside data_dir {data}; keep them apart", "site_dir"
        )


def _resolve_paths(settings: Settings, base: Path) -> Settings:
    def resolve(p: Path) -> Path:
        return p.expanduser() if p.expanduser().is_absolute() else base / p

    projects = tuple(
        replace(
            project,
            repos=tuple(
                replace(repo, git=resolve(repo.git)) if repo.git else repo for repo in project.repos
            ),
        )
        for project in settings.projects
    )
    site = settings.site
    if site.templates is not None:
        site = replace(site, templates=resolve(site.templates))
    return replace(
        settings,
        data_dir=resolve(settings.data_dir),
        site_dir=resolve(settings.site_dir),
        projects=projects,
        site=site,
    )


def _reject_duplicate_keys(path: Path, node: yaml.Node | None) -> None:
    import yaml

    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            name = str(key.value)
            if name in seen:
                raise ConfigError(path, f"line {key.start_mark.line + 1}: key given twice", name)
            seen.add(name)
            _reject_duplicate_keys(path, value)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _reject_duplicate_keys(path, item)


def _node_at(root: yaml.Node | None, loc: list[Any]) -> tuple[yaml.Node | None, yaml.Node | None]:
    """Walk the YAML node tree along ``loc``; return (node, deepest parent found)."""
    import yaml

    node, parent = root, root
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            pair = next(((k, v) for k, v in node.value if k.value == part), None)
            if pair is None:
                return None, node
            key_node, value_node = pair
            # The key's own line is the one to show for the last part (an unknown key).
            parent, node = node, (key_node if part is loc[-1] else value_node)
        elif (
            isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value)
        ):
            parent, node = node, node.value[part]
        else:
            return None, parent
    return node, parent
