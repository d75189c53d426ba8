"""The parsed configuration kept between commands (issue 28: a build with nothing to do).

The CLI keeps the data of the configuration file it parsed in the user's cache folder and,
while the file is the very one (same bytes, same inode and change time), validates that
instead of parsing the YAML again: a build with nothing to do then loads no YAML parser. An
entry is never believed for another file or other bytes, and what it holds is validated as
the file's data is.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from digest import config
from digest.cli import main
from digest.config import config_cache, load_settings
from digest.errors import ConfigError
from digest.store import Store
from tests.factories import edition_series, save_all

GOOD = """\
site:
  title: Rocket Wire
  base_url: https://news.example.org/wire
projects:
  - name: Rocket Science
    repos:
      - name: acme/rocket
        git: clones/rocket
"""


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def write(folder: Path, text: str = GOOD) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "digest.yaml"
    path.write_text(text)
    return path


def entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.json")) if cache.is_dir() else []


def no_yaml(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make parsing the file fail: a load that succeeds used the kept data."""

    def refuse(path: Path, data: bytes) -> None:
        raise AssertionError("parsed the YAML")

    monkeypatch.setattr(config, "_parse_yaml", refuse)


def test_a_second_load_validates_the_kept_data_without_parsing_the_file(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "repo")
    first = load_settings(path, cache=cache)
    [entry] = entries(cache)
    assert json.loads(entry.read_text())["raw"]["site"]["title"] == "Rocket Wire"
    no_yaml(monkeypatch)
    checked = []
    parse = config.parse_settings
    monkeypatch.setattr(config, "parse_settings", lambda raw: checked.append(raw) or parse(raw))
    assert load_settings(path, cache=cache) == first
    assert checked, "the kept data is validated"
    assert first.projects[0].repos[0].git == tmp_path / "repo/clones/rocket"


def test_without_a_cache_folder_nothing_is_kept(tmp_path: Path) -> None:
    path = write(tmp_path)
    load_settings(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["digest.yaml"]


@pytest.mark.parametrize("keep_times", [False, True])
def test_an_edit_is_parsed_even_with_its_size_and_times_kept(
    tmp_path: Path, cache: Path, keep_times: bool
) -> None:
    path = write(tmp_path)
    load_settings(path, cache=cache)
    before = path.stat()
    path.write_text(GOOD.replace("Rocket Wire", "Rocket Wir2"))
    if keep_times:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert load_settings(path, cache=cache).site.title == "Rocket Wir2"
    # And the entry is now the edited file's.
    assert json.loads(entries(cache)[0].read_text())["raw"]["site"]["title"] == "Rocket Wir2"


def test_an_entry_made_for_another_copy_of_the_file_is_not_believed(
    tmp_path: Path, cache: Path
) -> None:
    """A restored cache (or a copy of the configuration): the entry names a file with the
    same bytes but another inode and change time, so the file itself is parsed."""
    path = write(tmp_path)
    load_settings(path, cache=cache)
    [entry] = entries(cache)
    forged = json.loads(entry.read_text())
    forged["raw"]["site"]["title"] = "Forged Wire"
    forged["raw"]["site_dir"] = str(tmp_path / "elsewhere")
    entry.write_text(json.dumps(forged))
    copy = tmp_path / "copy.yaml"
    shutil.copy2(path, copy)
    copy.replace(path)  # the same bytes and times, a new file
    settings = load_settings(path, cache=cache)
    assert settings.site.title == "Rocket Wire"
    assert settings.site_dir == tmp_path / "site"
    assert "Forged" not in entry.read_text()


@pytest.mark.parametrize(
    "tamper",
    [
        lambda kept: {**kept, "raw": {**kept["raw"], "site": {"base_url": "not a url"}}},
        lambda kept: {**kept, "raw": ["not", "a", "mapping"]},
        lambda kept: {**kept, "raw": {**kept["raw"], "extra": 1}},
        lambda kept: {**kept, "sha256": "0" * 64},
        lambda kept: {**kept, "format": 0},
        lambda kept: {**kept, "config": "/elsewhere/digest.yaml"},
        lambda kept: "not an entry",
    ],
    ids=[
        "invalid",
        "not-a-mapping",
        "unknown-key",
        "other-bytes",
        "other-format",
        "other-file",
        "text",
    ],
)
def test_an_entry_that_is_not_valid_or_not_this_file_s_is_ignored(
    tmp_path: Path, cache: Path, tamper: object
) -> None:
    path = write(tmp_path)
    expected = load_settings(path, cache=cache)
    [entry] = entries(cache)
    assert callable(tamper)
    entry.write_text(json.dumps(tamper(json.loads(entry.read_text()))))
    assert load_settings(path, cache=cache) == expected


@pytest.mark.parametrize(
    "garbage", [b"", b"{not json", b"\xff\xfe", b"null", b"[" * 100_000 + b"]" * 100_000]
)
def test_an_unreadable_entry_is_ignored(tmp_path: Path, cache: Path, garbage: bytes) -> None:
    path = write(tmp_path)
    expected = load_settings(path, cache=cache)
    [entry] = entries(cache)
    entry.write_bytes(garbage)
    assert load_settings(path, cache=cache) == expected
    assert json.loads(entry.read_text())["raw"]["site"]["title"] == "Rocket Wire"


def test_data_json_would_change_is_not_kept(tmp_path: Path, cache: Path) -> None:
    """A YAML date (here in a description) would come back from JSON as text: the file
    is parsed every time, and says the same."""
    path = write(tmp_path, GOOD + "    description: 2026-03-04\n")
    with pytest.raises(ConfigError, match="description"):
        load_settings(path, cache=cache)
    assert entries(cache) == []
    path = write(
        tmp_path, GOOD.replace("title: Rocket Wire", "title: 'Rocket Wire'") + "x: !!set {}\n"
    )
    with pytest.raises(ConfigError, match="unknown key"):
        load_settings(path, cache=cache)
    assert config._json_exact({"a": [1, 2.5, True, None, "x"]})
    assert not config._json_exact({1: "a"})
    assert not config._json_exact({"a": float("nan")})
    assert not config._json_exact({"a": float("inf")})


def test_an_invalid_file_is_not_kept_and_says_the_same(tmp_path: Path, cache: Path) -> None:
    path = write(tmp_path, GOOD.replace("    repos:", "    reops:"))
    for _ in range(2):
        with pytest.raises(ConfigError, match=r"line 6: unknown key; did you mean 'repos'\?"):
            load_settings(path, cache=cache)
    assert entries(cache) == []


def test_a_folder_that_cannot_be_written_is_no_error(tmp_path: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the folder would be")
    path = write(tmp_path / "repo")
    assert load_settings(path, cache=blocker / "config").site.title == "Rocket Wire"
    assert load_settings(path, cache=blocker / "config").site.title == "Rocket Wire"


def test_the_cache_folder_is_the_user_s(tmp_path: Path) -> None:
    assert config_cache({"XDG_CACHE_HOME": "/x/cache", "HOME": "/h"}) == Path(
        "/x/cache/the-wire/config"
    )
    # A relative XDG_CACHE_HOME is ignored, as the XDG rules say.
    assert config_cache({"XDG_CACHE_HOME": "rel", "HOME": "/h"}) == Path(
        "/h/.cache/the-wire/config"
    )
    assert config_cache({"HOME": "/h"}) == Path("/h/.cache/the-wire/config")
    assert config_cache({}) is None
    assert config_cache({"HOME": ""}) is None


def test_the_command_keeps_the_file_s_data_in_the_user_s_cache(tmp_path: Path) -> None:
    path = write(tmp_path / "repo", GOOD.replace("        git: clones/rocket\n", ""))
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg"), "WIRE_NOW": "2026-03-06T07:00:00Z"}
    assert main(["config", "--config", str(path)], env=env) == 0
    assert len(entries(tmp_path / "xdg/the-wire/config")) == 1
    assert main(["config", "--config", str(path)], env=env) == 0
    assert len(entries(tmp_path / "xdg/the-wire/config")) == 1


def test_a_build_with_nothing_to_do_loads_no_yaml_jinja2_or_typing_extensions(
    tmp_path: Path,
) -> None:
    """In a fresh process, as ``digest render`` runs: the second build finds the site
    current; it needs neither the YAML parser (the kept configuration), nor the renderer,
    nor ``typing_extensions`` (which msgspec can do without on Python 3.11)."""
    path = write(
        tmp_path / "repo",
        textwrap.dedent(
            """\
            site: {base_url: "https://news.example.org/", search: false}
            projects:
              - {name: Rockets, slug: rockets, repos: [{name: acme/rockets}]}
              - {name: Ground Station, slug: ground, repos: [{name: acme/antenna}]}
            """
        ),
    )
    save_all(Store(tmp_path / "repo/data"), edition_series(4))
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).parents[1]), env.get("PYTHONPATH", "")])
    script = textwrap.dedent(
        f"""\
        import sys
        from digest.cli import main
        status = main(["render", "--config", {str(path)!r}, "-qq"])
        print(status, " ".join(sorted(sys.modules)))
        """
    )
    for _ in range(2):  # a full build, then one with nothing to do
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
        )
        status, modules = done.stdout.split(" ", 1)
        assert status == "0", done.stderr
    loaded = set(modules.split())
    assert {"digest.render.stamp", "msgspec"} <= loaded
    assert not loaded & {"yaml", "jinja2", "markdown", "typing_extensions"}
    import typing_extensions  # still importable by whatever needs it

    assert typing_extensions.Required
