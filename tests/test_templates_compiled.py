"""The shipped templates compiled ahead of time, into modules of the package itself."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from digest.config import Settings, SiteSettings
from digest.render import compiled
from digest.render.stamp import shipped_templates
from digest.render.templating import (
    COMPILED,
    Precompiled,
    compiled_modules,
    make_environment,
    template_error,
)

SHIPPED = sorted(name for name in compiled.TEMPLATES)


def _settings(tmp_path: Path, templates: Path | None = None) -> Settings:
    return Settings(
        projects=(),
        data_dir=tmp_path / "data",
        site_dir=tmp_path / "site",
        site=SiteSettings(templates=templates),
    )


def test_the_compiled_modules_are_those_of_the_templates_as_they_are() -> None:
    made = compiled_modules()
    kept = {path.name: path.read_text(encoding="utf-8") for path in COMPILED.glob("*.py")}
    stale = sorted(name for name in made.keys() | kept.keys() if made.get(name) != kept.get(name))
    assert not stale, f"digest/render/compiled/ is stale ({', '.join(stale)}): run `make templates`"


def test_every_shipped_template_has_a_module() -> None:
    names = {p.name for p in shipped_templates().iterdir() if p.suffix in (".html", ".xml")}
    assert names == set(SHIPPED)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_module_holds_the_code_the_build_would_compile(name: str, tmp_path: Path) -> None:
    env = make_environment(_settings(tmp_path))
    assert env.loader is not None
    source, filename, _ = env.loader.get_source(env, name)
    code = Precompiled().code(name, filename, source)
    assert code is not None
    fresh = env.compile(source, name, filename)
    assert code == fresh and code.co_filename == fresh.co_filename == filename


def test_the_shipped_templates_load_without_compiling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = make_environment(_settings(tmp_path))

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a shipped template was compiled by the build")

    monkeypatch.setattr(env, "compile", refuse)
    for name in SHIPPED:
        assert env.get_template(name).name == name
    assert env.get_template("shipped/base.html").name == "base.html"


def test_a_template_not_as_its_module_was_made_is_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = make_environment(_settings(tmp_path))
    assert env.loader is not None
    source, filename, _ = env.loader.get_source(env, "base.html")
    assert Precompiled().code("base.html", filename, source + "\n") is None
    assert Precompiled().code("shipped.html", filename, source) is None
    monkeypatch.setattr(compiled, "JINJA2", "0.0")  # made by another Jinja2
    assert Precompiled().code("base.html", filename, source) is None


def test_an_override_is_compiled_and_shipped_templates_extend_it(tmp_path: Path) -> None:
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "base.html").write_text("override {% block main %}{% endblock %}\n")
    env = make_environment(_settings(tmp_path, folder))
    page = env.get_template("404.html").render(page={"root": ""})
    assert page.startswith("override ")
    assert env.get_template("shipped/base.html").filename == str(shipped_templates() / "base.html")


def test_an_error_in_a_compiled_template_names_its_file_and_line(tmp_path: Path) -> None:
    env = make_environment(_settings(tmp_path))
    page = dict.fromkeys(("title", "description", "canonical", "kind", "root"), "")
    with pytest.raises(jinja2.TemplateError) as caught:
        env.get_template("pull.html").render(
            page={**page, "feeds": ()}, site={"title": ""}, chrome={"masthead": "", "footer": ""}
        )
    error = str(template_error(caught.value))
    assert error.startswith(f"template {shipped_templates() / 'pull.html'}, line 5: "), error
    assert "'pull' is undefined" in error


def test_nothing_is_written_for_a_template_compiled_by_the_build(tmp_path: Path) -> None:
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "index.html").write_text("mine\n")
    env = make_environment(_settings(tmp_path, folder))
    assert env.get_template("index.html").render() == "mine\n"
    assert [p.name for p in folder.iterdir()] == ["index.html"]
    assert not any(p.name.startswith("__jinja2_") for p in tmp_path.rglob("*"))
