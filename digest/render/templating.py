"""The Jinja2 environment: user overrides first, then the shipped templates; autoescaped.

An override folder (``site.templates``) shadows shipped templates by name; an override
can still extend the original as ``shipped/<name>`` (e.g. ``{% extends "shipped/base.html" %}``).

The shipped templates are compiled ahead of time, into Python modules of the package itself
(``digest/render/compiled/``, made by ``make templates`` and checked by the test suite), so
a build does not parse and compile them. That code is part of the package, installed with
it, never read from the site, its builds folder, the data folder or any cache: a template
whose source or Jinja2 version does not match what its module was made from, and every
override, is compiled by the build as before.
"""

from __future__ import annotations

import hashlib
import re
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import CodeType

import jinja2
from jinja2.bccache import Bucket

from digest.config import Settings
from digest.errors import TemplateError, WireError
from digest.render.stamp import shipped_templates
from digest.text import count

#: Where the shipped templates' compiled modules are: a package of this package.
COMPILED = Path(__file__).resolve().with_name("compiled")
_COMPILED_PACKAGE = f"{__package__}.compiled"


def make_environment(settings: Settings) -> jinja2.Environment:
    """Return the autoescaping, strict environment that renders ``settings``'s site.

    Templates are never loaded compiled from disk but from the package itself: a
    compiled template is code, and a folder of them beside the site would be saved and
    restored with it by a CI cache, which other code can write. The shipped templates'
    code comes from the package's own modules (see :class:`Precompiled`); an override
    folder's templates are compiled by every build (README, *Deploy*).
    """
    shipped = jinja2.FileSystemLoader(shipped_templates())
    loaders: list[jinja2.BaseLoader] = []
    override = settings.site.templates
    if override is not None:
        if not override.is_dir():
            raise WireError(f"site.templates: {override} is not a folder")
        loaders.append(jinja2.FileSystemLoader(override))
    loaders += [shipped, jinja2.PrefixLoader({"shipped": shipped})]
    return _environment(jinja2.ChoiceLoader(loaders), Precompiled())


def _environment(
    loader: jinja2.BaseLoader, cache: jinja2.BytecodeCache | None
) -> jinja2.Environment:
    """The environment of every site, with ``loader`` and the code cache ``cache``: its
    options shape the code a template compiles to, so the compiled modules are made with it."""
    env = jinja2.Environment(
        loader=loader,
        autoescape=jinja2.select_autoescape(("html", "xml"), default_for_string=True, default=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        bytecode_cache=cache,
    )
    env.globals["count"] = count
    return env


class Precompiled(jinja2.BytecodeCache):
    """The code of the shipped templates, compiled ahead of time into the package's
    ``compiled`` modules: given to Jinja2 for a template whose name and source are those a
    module was made from (by this version of Jinja2), else nothing (Jinja2 compiles it).

    Nothing is ever written: a template compiled by a build is not kept.
    """

    def __init__(self) -> None:
        self._made: dict[str, tuple[str, str]] | None = None

    def get_bucket(
        self, environment: jinja2.Environment, name: str, filename: str | None, source: str
    ) -> Bucket:
        """A bucket holding ``name``'s compiled code when the package has it for ``source``."""
        bucket = Bucket(environment, name, "")
        bucket.code = self.code(name, filename, source)
        return bucket

    def set_bucket(self, bucket: Bucket) -> None:
        """Keep nothing: a template compiled by the build is not saved."""

    def load_bytecode(self, bucket: Bucket) -> None:
        """Unused (see :meth:`get_bucket`)."""

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Unused (see :meth:`set_bucket`)."""

    def code(self, name: str, filename: str | None, source: str) -> CodeType | None:
        """The code of template ``name`` made from ``source``, from its compiled module, as
        Jinja2 would compile it (named by ``filename``, so errors name the template's file);
        None when no module was made from that source by this Jinja2."""
        if self._made is None:
            self._made = _made()
        module, sha256 = self._made.get(name, ("", ""))
        if not module or hashlib.sha256(source.encode()).hexdigest() != sha256:
            return None
        fullname = f"{_COMPILED_PACKAGE}.{module}"
        # The import system's loader: the module's bytecode is cached beside it, in the
        # package's __pycache__, as for every module of the package.
        code = SourceFileLoader(fullname, str(COMPILED / f"{module}.py")).get_code(fullname)
        return None if code is None else _renamed(code, filename or "<template>")


def _made() -> dict[str, tuple[str, str]]:
    """The compiled modules of the package, by template name: the module and the SHA-256
    of the source it was made from; none when they were made by another Jinja2."""
    try:
        from digest.render import compiled
    except ImportError:
        return {}
    if jinja2.__version__ != compiled.JINJA2:
        return {}
    return dict(compiled.TEMPLATES)


def _renamed(code: CodeType, filename: str) -> CodeType:
    """``code`` and the code inside it as compiled from ``filename`` (Jinja2 compiles a
    template's code under its file's name, which its tracebacks then show)."""
    consts = tuple(_renamed(c, filename) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def compiled_modules() -> dict[str, str]:
    """The text of the package's ``compiled`` modules for the shipped templates as they
    are, with this Jinja2: each module by its file name, and ``__init__.py`` naming them."""
    folder = shipped_templates()
    env = _environment(jinja2.FileSystemLoader(folder), None)
    files: dict[str, str] = {}
    made: list[tuple[str, str, str]] = []
    for name in env.list_templates(filter_func=_is_template):
        source = (folder / name).read_text(encoding="utf-8")
        module = "t_" + re.sub(r"\W", "_", name)
        assert f"{module}.py" not in files, f"two templates would be compiled as {module}"
        code = env.compile(source, name, None, raw=True)
        # Said last: a line before the code would move the lines its debug_info maps.
        end = "" if code.endswith("\n") else "\n"
        files[f"{module}.py"] = f"{code}{end}# Made by `make templates` from templates/{name}.\n"
        made.append((name, module, hashlib.sha256(source.encode()).hexdigest()))
    lines = [
        '"""The shipped templates compiled by Jinja2, one module each (see templating.py).',
        "",
        "Generated by `make templates`: do not edit. Each entry: the template's name, its",
        'module and the SHA-256 of the source it was compiled from."""',
        "",
        f"JINJA2 = {jinja2.__version__!r}",
        "TEMPLATES: dict[str, tuple[str, str]] = {",
        *(f"    {name!r}: ({module!r}, {sha!r})," for name, module, sha in made),
        "}",
        "",
    ]
    files["__init__.py"] = "\n".join(lines)
    return files


def write_compiled(folder: Path = COMPILED) -> None:
    """Write the package's ``compiled`` modules into ``folder`` (see :func:`compiled_modules`),
    deleting those of templates no longer shipped."""
    files = compiled_modules()
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*.py"):
        if old.name not in files:
            old.unlink()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def _is_template(name: str) -> bool:
    """Whether ``name`` is a page template (not the style sheet)."""
    return name.endswith((".html", ".xml"))


def check_templates(env: jinja2.Environment) -> None:
    """Compile every template ``env`` resolves; raise TemplateError naming the first that fails."""
    for name in env.list_templates():
        if _is_template(name):
            try:
                env.get_template(name)
            except jinja2.TemplateError as error:
                raise template_error(error) from None


def template_error(error: jinja2.TemplateError) -> TemplateError:
    """Return the one-line error for ``error``: the template file, the line and what is wrong."""
    if isinstance(error, jinja2.TemplateSyntaxError):
        where = error.filename or error.name or "?"
        return TemplateError(where, error.lineno, error.message or "syntax error")
    # Jinja rewrites the traceback so that template frames carry the template's file and line:
    # the innermost such frame is where the page failed.
    where, line = "?", None
    tb = error.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if not filename.endswith(".py") and not filename.startswith("<"):
            where, line = filename, tb.tb_lineno
        tb = tb.tb_next
    if isinstance(error, jinja2.TemplateNotFound):
        return TemplateError(where, line, f"no template {error.name!r}")
    return TemplateError(where, line, error.message or type(error).__name__)


def template_source(env: jinja2.Environment, name: str) -> str:
    """Return the source of template ``name`` as ``env`` resolves it (overrides first)."""
    assert env.loader is not None
    source, _, _ = env.loader.get_source(env, name)
    return source
