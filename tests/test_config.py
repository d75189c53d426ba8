from pathlib import Path

import pytest

from digest.config import load_settings
from digest.errors import ConfigError

GOOD = """\
site:
  title: Rocket Wire
  base_url: https://news.example.org/wire
projects:
  - name: Rocket Science
    repos:
      - name: acme/rocket
        git: clones/rocket
      - name: acme/pad
        branch: trunk
topics:
  - name: Boosters
    paths: [stages/booster/]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "digest.yaml"
    path.write_text(text)
    return path


def test_good_config_resolves_paths_and_derives_slugs(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, GOOD))
    project = settings.projects[0]
    assert project.key == "rocket-science"
    assert project.repos[0].git == tmp_path / "clones/rocket"
    assert project.repos[0].source == "git"
    assert project.repos[1].source == "github"
    assert project.repos[1].branch == "trunk"
    assert settings.data_dir == tmp_path / "data"
    assert settings.site_dir == tmp_path / "site"
    assert settings.site.base_url == "https://news.example.org/wire/"
    assert settings.topics[0].slug == "boosters"


@pytest.mark.parametrize(
    ("text", "key", "message"),
    [
        (GOOD.replace("    repos:", "    reops:"), "projects[0].reops", "did you mean 'repos'?"),
        (
            GOOD.replace("name: acme/pad", "name: not a repo"),
            "projects[0].repos[1].name",
            "line 9: 'not a repo' is not of the form owner/repo",
        ),
        (
            GOOD.replace("name: acme/pad", "name: acme/../x"),
            "projects[0].repos[1].name",
            "owner/repo",
        ),
        (GOOD.replace("  title: Rocket Wire", "  title: [1, 2]"), "site.title", "line 2"),
        ("site:\n  title: x\n", "projects", "required key is missing"),
        (
            GOOD.replace("        branch: trunk", "        branch: trunk\n        branch: main"),
            "branch",
            "key given twice",
        ),
        (
            GOOD.replace("https://news.example.org/wire", "news.example.org"),
            "site.base_url",
            "absolute http(s) URL",
        ),
        (
            GOOD.replace("    paths: [stages/booster/]", "    description: x"),
            "topics[0]",
            "at least one of labels",
        ),
        (
            GOOD + "  - name: Boosters\n    labels: [x]\n",
            None,
            "two topics share the slug boosters",
        ),
        (
            GOOD.replace("  title: Rocket Wire", "  recent: 0"),
            "site.recent",
            "line 2: expected a whole number >= 1",
        ),
        (
            GOOD.replace("  title: Rocket Wire", "  title: [1, 2]"),
            "site.title",
            "expected text, got a list",
        ),
        (
            GOOD.replace("  title: Rocket Wire", '  title: "  "'),
            "site.title",
            "line 2: must not be empty",
        ),
        (
            GOOD.replace("        git: clones/rocket", "        git: 5"),
            "projects[0].repos[0].git",
            "line 8: expected text, got a whole number",
        ),
        (
            GOOD.replace("        branch: trunk", "        flavour: x"),
            "projects[0].repos[1].flavour",
            "line 10: unknown key; known keys: branch, display_name, git",
        ),
        (
            "openai:\n  response_format: xml\n" + GOOD,
            "openai.response_format",
            "line 2: must be one of auto, json_schema, json_object",
        ),
        ("7: seven\n" + GOOD, None, "expected text (a key)"),
        (
            GOOD.replace("    repos:", "    3: x\n    repos:"),
            "projects[0]",
            "line 5: expected text (a key)",
        ),
        (
            "projects:\n  - name: Empty\n    repos: []\n",
            "projects[0].repos",
            "line 3: needs at least one entry",
        ),
    ],
)
def test_bad_config_names_key_and_line(
    tmp_path: Path, text: str, key: str | None, message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(write(tmp_path, text))
    assert caught.value.key == key
    assert message in str(caught.value)
    assert str(caught.value).startswith(str(tmp_path / "digest.yaml"))


def test_unreadable_yaml_and_missing_file(tmp_path: Path) -> None:
    # PyYAML says "expected ',' or ']'", libyaml "did not find expected ',' or ']'".
    with pytest.raises(ConfigError, match=r"line 3: invalid YAML: (did not find )?expected"):
        load_settings(write(tmp_path, "projects:\n  - name: [unclosed\n"))
    with pytest.raises(ConfigError, match="no such file"):
        load_settings(tmp_path / "absent.yaml")
    with pytest.raises(ConfigError, match="must be a mapping"):
        load_settings(write(tmp_path, "- just a list\n"))


@pytest.mark.reliability
@pytest.mark.parametrize(
    ("dirs", "message"),
    [
        ("data_dir: out\nsite_dir: out\n", "site_dir: data_dir and site_dir are the same folder"),
        ("data_dir: site/data\nsite_dir: site\n", "site_dir: data_dir .* is inside .*published"),
        ("data_dir: .site.builds/x\nsite_dir: site\n", "is inside .*\\.site\\.builds"),
        ("data_dir: data\nsite_dir: data/site\n", "site_dir .* is inside data_dir"),
        ("data_dir: data\nsite_dir: /\n", "site_dir: / is a filesystem root"),
        ("data_dir: /\nsite_dir: site\n", "data_dir: / is a filesystem root"),
        ('data_dir: data\nsite_dir: "~"\n', "site_dir: .* is the home folder"),
    ],
)
def test_dangerous_directories_are_refused_before_anything_is_written(
    tmp_path: Path, dirs: str, message: str
) -> None:
    path = write(tmp_path, dirs + GOOD)
    with pytest.raises(ConfigError, match=message):
        load_settings(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["digest.yaml"]


@pytest.mark.reliability
@pytest.mark.parametrize("slug", ["archive", "topics", "index", "feed"])
def test_a_project_slug_taken_by_a_site_page_is_refused(tmp_path: Path, slug: str) -> None:
    text = GOOD.replace("  - name: Rocket Science\n", f"  - name: {slug.title()}\n")
    with pytest.raises(ConfigError, match=f"projects\\[0\\].slug: .*{slug!r} is taken"):
        load_settings(write(tmp_path, text))


@pytest.mark.reliability
@pytest.mark.parametrize("char", ["\\x07", "\\x1b", "\\u202e", "\\x85"])
def test_unprintable_characters_in_config_strings_are_refused(tmp_path: Path, char: str) -> None:
    text = GOOD.replace("title: Rocket Wire", f'title: "Rocket{char}Wire"')
    with pytest.raises(ConfigError, match=r"site\.title: line 2: contains the unprintable"):
        load_settings(write(tmp_path, text))
