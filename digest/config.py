"""Load and validate ``digest.yaml``.

The file is parsed with PyYAML and validated by pydantic models that forbid unknown
keys. Any problem becomes one :class:`~digest.errors.ConfigError` naming the file,
the key and the line, with a suggestion when a key looks like a typo.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from digest.errors import ConfigError
from digest.text import slugify

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
        "robots",
        "search",
        "sitemap",
        "static",
        "style",
        "topics",
    }
)
# Control characters (tab and newline are kept), bidi and invisible format characters and
# lone surrogates: in a title they make a feed ill-formed XML or a page read falsely.
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064"
    "\u2066-\u2069\ufeff\ufff9-\ufffb\ud800-\udfff]"
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    @field_validator("*", mode="after")
    @classmethod
    def _printable(cls, value: Any) -> Any:
        """Refuse a string (or a string in a list, or a path) with an unprintable character."""
        texts = value if isinstance(value, tuple) else (value,)
        for text in texts:
            if isinstance(text, str | Path) and (bad := _UNPRINTABLE.search(str(text))):
                raise ValueError(
                    f"contains the unprintable character U+{ord(bad.group()):04X}; remove it"
                )
        return value


NonEmpty = Annotated[str, Field(min_length=1)]


def _with_slug(data: Any) -> Any:
    """Fill in ``slug`` from ``name`` in raw input that has a name but no slug."""
    if isinstance(data, dict) and not data.get("slug") and isinstance(data.get("name"), str):
        return {**data, "slug": slugify(data["name"])}
    return data


def _valid_slug(value: str | None) -> str | None:
    if value is not None and not SLUG.match(value):
        raise ValueError(f"slug {value!r} must be lower-case letters, digits and dashes")
    return value


def _project_slug(value: str | None) -> str | None:
    """A valid slug that is not the name of one of the site's own pages or folders."""
    if value in RESERVED_SLUGS:
        raise ValueError(
            f"slug {value!r} is taken by the site's own pages "
            f"({', '.join(sorted(RESERVED_SLUGS))}); set another `slug:`"
        )
    return _valid_slug(value)


class SiteSettings(_Strict):
    """How the published site presents itself."""

    title: NonEmpty = "The Wire"
    publisher: NonEmpty = "The Wire"
    #: Absolute URL the site is served from; feeds need absolute links.
    base_url: NonEmpty = "https://example.invalid/"
    description: str = "Daily news of what busy open-source repositories merged."
    #: How many editions the front page lists.
    recent: Annotated[int, Field(ge=1, le=100)] = 10
    #: How many editions each RSS feed carries.
    feed_items: Annotated[int, Field(ge=1, le=500)] = 30
    #: A folder of templates that override the shipped ones (relative to the config file).
    templates: Path | None = None

    @field_validator("base_url")
    @classmethod
    def _absolute_url(cls, value: str) -> str:
        if not re.match(r"^https?://[^/\s]+", value):
            raise ValueError("must be an absolute http(s) URL, e.g. https://news.example.org/")
        return value if value.endswith("/") else value + "/"


class TopicSettings(_Strict):
    """A named subject; an edition belongs to it when one of its changes matches a rule."""

    name: NonEmpty
    slug: str | None = None
    description: str = ""
    labels: tuple[str, ...] = ()
    #: Path prefixes or globs (``backends/arm/``, ``**/*.md``).
    paths: tuple[str, ...] = ()
    #: Title prefixes, case-insensitive (``Arm backend:``, ``[MLX]``).
    title_prefixes: tuple[str, ...] = ()

    _derive_slug = model_validator(mode="before")(lambda data: _with_slug(data))
    _check_slug = field_validator("slug")(lambda value: _valid_slug(value))

    @model_validator(mode="after")
    def _has_rules(self) -> TopicSettings:
        if not (self.labels or self.paths or self.title_prefixes):
            raise ValueError("a topic needs at least one of labels, paths, title_prefixes")
        return self


class GitHubSettings(_Strict):
    """How the GitHub source talks to the API."""

    #: API root; default ``GITHUB_API_URL`` from the environment, else https://api.github.com.
    api_url: str | None = None
    #: Seconds per HTTP request.
    timeout: Annotated[float, Field(gt=0, le=600)] = 30.0
    #: Retries of a 5xx, a connection error or a secondary rate limit.
    retries: Annotated[int, Field(ge=0, le=20)] = 5
    #: Longest wait for an exhausted primary rate limit to reset before giving up on a repo.
    max_reset_wait: Annotated[int, Field(ge=0, le=3600)] = 300
    #: Seconds one repository may take in all (requests, retries, waits) before it is given up.
    deadline: Annotated[float, Field(gt=0, le=86400)] = 120.0


class OpenAISettings(_Strict):
    """How the ``openai`` writer talks to an OpenAI-compatible server."""

    model: NonEmpty = "gpt-4o-mini"
    #: Server root; default ``OPENAI_BASE_URL`` from the environment, else OpenAI's.
    base_url: str | None = None
    temperature: Annotated[float, Field(ge=0, le=2)] = 0.2
    #: Most tokens (prompt and answer) one edition may use; fits an 8k-context model.
    token_budget: Annotated[int, Field(ge=1000, le=1_000_000)] = 6000
    #: Seconds per request.
    timeout: Annotated[float, Field(gt=0, le=600)] = 60.0
    #: Retries of a 429 or 5xx by the SDK before the writer falls back.
    max_retries: Annotated[int, Field(ge=0, le=10)] = 2
    #: How to ask for JSON: ``json_schema`` (strict structured output), ``json_object``
    #: (JSON mode, the schema in the system message: llama.cpp, older servers), or ``auto``:
    #: ``json_schema`` until the server refuses it, then ``json_object`` for the run.
    response_format: Literal["auto", "json_schema", "json_object"] = "auto"


class RepoSettings(_Strict):
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

    @field_validator("name")
    @classmethod
    def _owner_repo(cls, value: str) -> str:
        if not REPO_NAME.match(value):
            raise ValueError(f"{value!r} is not of the form owner/repo")
        return value

    @field_validator("url")
    @classmethod
    def _web_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("https", "http") or not parts.netloc:
            raise ValueError(f"{value!r} is not an http(s) URL")
        return value.rstrip("/")

    @property
    def web_url(self) -> str:
        """Where the repository is browsed: ``url``, else its page on github.com."""
        return self.url or f"https://github.com/{self.name}"

    @model_validator(mode="before")
    @classmethod
    def _derive_source(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("source") is None:
            return {**data, "source": "git" if data.get("git") else "github"}
        return data


class ProjectSettings(_Strict):
    """A project: one edition a day covering all of its repositories."""

    name: NonEmpty
    #: How pages and editions write the project's name (brand casing: ``ExecuTorch``).
    display_name: NonEmpty | None = None
    slug: str | None = None
    description: str = ""
    repos: Annotated[tuple[RepoSettings, ...], Field(min_length=1)]

    _derive_slug = model_validator(mode="before")(lambda data: _with_slug(data))
    _check_slug = field_validator("slug")(lambda value: _project_slug(value))

    @model_validator(mode="after")
    def _unique_repos(self) -> ProjectSettings:
        names = [repo.name.lower() for repo in self.repos]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"repository listed twice: {', '.join(dupes)}")
        return self

    @property
    def shown(self) -> str:
        """The project's name as editions write it: ``display_name``, else ``name``."""
        return self.display_name or self.name

    @property
    def key(self) -> str:
        """The project's slug (always set after validation)."""
        assert self.slug is not None
        return self.slug


class Settings(_Strict):
    """The whole configuration file."""

    site: SiteSettings = SiteSettings()
    data_dir: Path = Path("data")
    site_dir: Path = Path("site")
    #: The writer used unless ``--writer`` says otherwise.
    writer: NonEmpty = "extractive"
    github: GitHubSettings = GitHubSettings()
    openai: OpenAISettings = OpenAISettings()
    topics: tuple[TopicSettings, ...] = ()
    projects: Annotated[tuple[ProjectSettings, ...], Field(min_length=1)]

    @model_validator(mode="after")
    def _unique(self) -> Settings:
        for kind, slugs in (
            ("project", [p.key for p in self.projects]),
            ("topic", [t.slug or "" for t in self.topics]),
        ):
            dupes = sorted({s for s in slugs if slugs.count(s) > 1})
            if dupes:
                raise ValueError(f"two {kind}s share the slug {', '.join(dupes)}")
        return self

    def project(self, slug: str) -> ProjectSettings:
        for project in self.projects:
            if project.key == slug:
                return project
        known = ", ".join(p.key for p in self.projects)
        raise ConfigError("--project", f"no project {slug!r}; configured: {known}")


def load_settings(path: Path) -> Settings:
    """Read, validate and return the configuration at ``path``.

    Relative paths in it (``data_dir``, ``site_dir``, ``git``, ``site.templates``) are
    resolved against the file's folder. Raises :class:`ConfigError` on any problem.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(path, "no such file (pass --config PATH)") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(path, f"cannot read: {error}") from None
    try:
        root = yaml.compose(text, Loader=_LOADER)
        _reject_duplicate_keys(path, root)
        raw = yaml.load(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as error:
        line = error.problem_mark.line + 1 if error.problem_mark else "?"
        raise ConfigError(path, f"line {line}: invalid YAML: {error.problem}") from None
    except yaml.YAMLError as error:
        raise ConfigError(path, f"invalid YAML: {error}") from None
    if not isinstance(raw, dict):
        raise ConfigError(path, "must be a mapping with at least a 'projects' key")
    try:
        settings = Settings.model_validate(raw)
    except ValidationError as error:
        raise _explain(path, root, error) from None
    settings = _resolve_paths(settings, path.parent.resolve())
    _refuse_dangerous_dirs(path, settings)
    templates = settings.site.templates
    if templates is not None and not templates.is_dir():
        # Checked here, before any stage writes: a build would fail only after collecting.
        what = "is not a folder" if templates.exists() else "no such folder"
        raise ConfigError(path, f"{what}: {templates}", "site.templates")
    return settings


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
        project.model_copy(
            update={
                "repos": tuple(
                    repo.model_copy(update={"git": resolve(repo.git)}) if repo.git else repo
                    for repo in project.repos
                )
            }
        )
        for project in settings.projects
    )
    site = settings.site
    if site.templates is not None:
        site = site.model_copy(update={"templates": resolve(site.templates)})
    return settings.model_copy(
        update={
            "data_dir": resolve(settings.data_dir),
            "site_dir": resolve(settings.site_dir),
            "projects": projects,
            "site": site,
        }
    )


#: libyaml's loader where PyYAML was built with it: the same documents, parsed faster.
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _reject_duplicate_keys(path: Path, node: yaml.Node | None) -> None:
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


def _explain(path: Path, root: yaml.Node | None, error: ValidationError) -> ConfigError:
    """Turn pydantic's first error into a message naming the key, the line and a fix."""
    # A misspelt key also shows up as a missing one; the typo is the useful message.
    first = min(error.errors(), key=lambda e: e["type"] != "extra_forbidden")
    loc = [part for part in first["loc"] if not str(part).startswith(("function-", "model"))]
    key = ".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in loc).replace(".[", "[")
    node, parent = _node_at(root, loc)
    target = node or parent
    line = f"line {target.start_mark.line + 1}: " if target is not None else ""
    kind = first["type"]
    if kind == "extra_forbidden":
        model = _model_at(loc[:-1])
        known = sorted(model.model_fields) if model else []
        hint = difflib.get_close_matches(str(loc[-1]), known, n=1)
        suggestion = f"; did you mean {hint[0]!r}?" if hint else f"; known keys: {', '.join(known)}"
        return ConfigError(path, f"{line}unknown key{suggestion}", key or None)
    if kind == "missing":
        return ConfigError(path, f"{line}required key is missing", key or None)
    message = str(first["msg"]).removeprefix("Value error, ")
    return ConfigError(path, f"{line}{message}", key or None)


def _node_at(root: yaml.Node | None, loc: list[Any]) -> tuple[yaml.Node | None, yaml.Node | None]:
    """Walk the YAML node tree along ``loc``; return (node, deepest parent found)."""
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


def _model_at(loc: list[Any]) -> type[BaseModel] | None:
    """The pydantic model that validates the mapping at ``loc``."""
    model: type[BaseModel] = Settings
    for part in loc:
        if isinstance(part, int):
            continue
        annotation = model.model_fields[part].annotation if part in model.model_fields else None
        nested = _first_model(annotation)
        if nested is None:
            return None
        model = nested
    return model


def _first_model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _first_model(arg)
        if found is not None:
            return found
    metadata_origin = getattr(annotation, "__origin__", None)
    return _first_model(metadata_origin) if metadata_origin not in (None, annotation) else None
