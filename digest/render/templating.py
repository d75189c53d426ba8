"""The Jinja2 environment: user overrides first, then the shipped templates; autoescaped.

An override folder (``site.templates``) shadows shipped templates by name; an override
can still extend the original as ``shipped/<name>`` (e.g. ``{% extends "shipped/base.html" %}``).
"""

from __future__ import annotations

import jinja2

from digest.config import Settings
from digest.errors import TemplateError, WireError
from digest.render.stamp import shipped_templates
from digest.text import count


def make_environment(settings: Settings) -> jinja2.Environment:
    """Return the autoescaping, strict environment that renders ``settings``'s site.

    Templates are compiled afresh by every build, never loaded compiled from disk: a
    compiled template is code, and a folder of them beside the site would be saved and
    restored with it by a CI cache, which other code can write. Compiling costs about
    0.07 s a build (README, *Deploy*).
    """
    shipped = jinja2.FileSystemLoader(shipped_templates())
    loaders: list[jinja2.BaseLoader] = []
    override = settings.site.templates
    if override is not None:
        if not override.is_dir():
            raise WireError(f"site.templates: {override} is not a folder")
        loaders.append(jinja2.FileSystemLoader(override))
    loaders += [shipped, jinja2.PrefixLoader({"shipped": shipped})]
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=jinja2.select_autoescape(("html", "xml"), default_for_string=True, default=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    env.globals["count"] = count
    return env


def check_templates(env: jinja2.Environment) -> None:
    """Compile every template ``env`` resolves; raise TemplateError naming the first that fails."""
    for name in env.list_templates():
        if name.endswith((".html", ".xml")):
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
