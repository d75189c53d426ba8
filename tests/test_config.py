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
    with pytest.raises(ConfigError, match=r"line 3: invalid YAML: expected"):
        load_settings(write(tmp_path, "projects:\n  - name: [unclosed\n"))
    with pytest.raises(ConfigError, match="no such file"):
        load_settings(tmp_path / "absent.yaml")
    with pytest.raises(ConfigError, match="must be a mapping"):
        load_settings(write(tmp_path, "- just a list\n"))
