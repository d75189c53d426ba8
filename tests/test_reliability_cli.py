"""The command line and the deployment under handled failures (issue 24, items 7 and 8).

Part of the reliability tier: `-v` says more but never a traceback; the data branch is
written by git alone; a placeholder base_url is never deployed; an error repeated by
every check is said once.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from digest.cli import main
from tests.fake_github import FakeGitHub, FakePull, Fault
from tests.gitrepo import at, run_git
from tests.test_daily import checkout, daily, origin  # noqa: F401 (a fixture)
from tests.test_github_cli import DAY, digest, write_config
from tests.test_workflows import WORKFLOWS, load, steps

pytestmark = pytest.mark.reliability


@pytest.mark.parametrize("fault", ["refused token", "server error"])
def test_verbose_shows_more_lines_but_no_traceback_and_debug_shows_it(
    tmp_path: Path,
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    fault: str,
) -> None:
    fake_github.add("acme/rocket", FakePull(101, "Add gimbal control", at(DAY, 9)))
    fake_github.add("acme/ground", FakePull(7, "Pour the launch pad", at(DAY, 8)))
    if fault == "refused token":
        fake_github.token = "another-token-entirely"
    else:
        fake_github.faults = {n: Fault.server_error(502) for n in range(1, 40)}
    config = write_config(tmp_path, retries=0)

    assert digest(config, fake_github, "collect", "--date", str(DAY), "-v") == 1
    verbose = capsys.readouterr().err
    assert "digest: acme/rocket: " in verbose
    assert "Traceback" not in verbose and 'File "' not in verbose
    quiet_lines = len(verbose.splitlines())

    assert digest(config, fake_github, "collect", "--date", str(DAY), "--refresh", "--debug") == 1
    debug = capsys.readouterr().err
    assert "Traceback (most recent call last)" in debug
    assert len(debug.splitlines()) > quiet_lines


def test_the_data_branch_is_pushed_by_a_step_of_git_alone_from_a_bundle(
    origin: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    # The build (a read-only token) commits data_dir into a bundle; a fresh checkout with
    # no digest installed (the save job, the only one that can write) pushes it.
    build = checkout(origin, tmp_path / "build-1")
    bundle = tmp_path / "wire-data.bundle"
    done = daily(build, "2026-03-05T06:00:00Z", "--date", "2026-03-03", "--bundle", str(bundle))
    assert done.returncode == 0, done.stderr
    assert "into " + str(bundle) in done.stdout
    assert run_git(origin, "branch", "--list", "wire-data") == ""  # nothing pushed by the build

    bare = {"PATH": "/usr/bin:/bin"}  # no digest command on this runner
    save = checkout(origin, tmp_path / "save-1")
    done = daily(save, "", "push", "--bundle", str(bundle), env=bare)
    assert done.returncode == 0, done.stderr
    first = run_git(origin, "rev-parse", "wire-data").strip()
    assert "collected/acme/rocket/2026-03-03.json" in run_git(
        origin, "ls-tree", "-r", "--name-only", "wire-data"
    )

    # The next day: the bundle holds only the new commit, on top of the branch restored.
    build = checkout(origin, tmp_path / "build-2")
    done = daily(build, "2026-03-05T06:00:00Z", "--date", "2026-03-04", "--bundle", str(bundle))
    assert done.returncode == 0, done.stderr
    save = checkout(origin, tmp_path / "save-2")
    done = daily(save, "", "push", "--bundle", str(bundle), env=bare)
    assert done.returncode == 0, done.stderr
    assert run_git(origin, "rev-parse", "wire-data~1").strip() == first
    for runner in ("build-1", "save-1", "build-2", "save-2"):
        assert "extraheader" not in (tmp_path / runner / ".git/config").read_text()

    # Nothing changed: no bundle, and the push step has nothing to do.
    build = checkout(origin, tmp_path / "build-3")
    done = daily(build, "2026-03-05T06:00:00Z", "--date", "2026-03-04", "--bundle", str(bundle))
    assert done.returncode == 0 and "nothing to save" in done.stdout
    done = daily(checkout(origin, tmp_path / "save-3"), "", "push", "--bundle", str(bundle))
    assert done.returncode == 0 and "nothing to push" in done.stdout


def test_a_deploying_run_refuses_the_placeholder_base_url_in_one_line(
    origin: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    runner = checkout(origin, tmp_path / "runner")
    config = runner / "digest.yaml"
    config.write_text(config.read_text().replace("news.example.org", "wire.example.org"))
    done = daily(runner, "2026-03-05T06:00:00Z", "--date", "2026-03-04", "--deploy")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "digest: error: digest.yaml: site.base_url: https://wire.example.org/ is a placeholder; "
        "set it to the address the site is served from (GitHub Pages: "
        "https://<owner>.github.io/<repository>/) before deploying"
    ]
    assert not (runner / "site").exists()
    assert run_git(origin, "branch", "--list", "wire-data") == ""

    config.write_text(config.read_text().replace("wire.example.org", "acme.github.io/wire"))
    done = daily(runner, "2026-03-05T06:00:00Z", "--date", "2026-03-04", "--deploy")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("base_url", "placeholder"),
    [
        ("https://wire.example.org/", True),
        ("https://example.com/news/", True),
        ("https://example.invalid/", True),
        ("http://wire.test/", True),
        ("https://acme.github.io/wire/", False),
        ("https://news.examples.org/", False),
    ],
)
def test_doctor_warns_of_a_placeholder_base_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], base_url: str, placeholder: bool
) -> None:
    config = tmp_path / "digest.yaml"
    config.write_text(
        f"site:\n  base_url: {base_url}\nprojects:\n  - name: Rocket\n"
        "    repos:\n      - name: acme/rocket\n        git: rocket\n"
    )
    main(["doctor", "--config", str(config)], env={})
    out = capsys.readouterr().out
    warned = f"warn  site.base_url: {base_url} is a placeholder" in out
    assert warned == placeholder, out
    if placeholder:
        assert f"fix: set site.base_url in {config} to the address the site is served from" in out


def test_offline_doctor_says_the_same_error_once_with_a_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import socket

    def no_dns(*args: object, **kwargs: object) -> object:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    config = write_config(tmp_path, retries=0)
    assert digest(config, "http://api.github.test", "doctor") == 1
    out = capsys.readouterr().out.splitlines()
    failures = [line for line in out if line.startswith("FAIL")]
    assert len(failures) == 1, out
    assert failures[0].startswith(
        "FAIL  GitHub API, GitHub GraphQL, acme/rocket, acme/ground (4 times): network unreachable"
    )
    assert sum("fix:" in line for line in out) == 1
    assert out[-1] == "digest doctor: 4 problems"


@pytest.mark.parametrize("name", ["wire.yml", "wire-scale-out.yml"])
def test_no_code_but_git_runs_with_a_token_that_can_write_and_actions_are_pinned(
    name: str,
) -> None:
    text = (WORKFLOWS / name).read_text()
    for line in text.splitlines():
        if "uses:" in line:  # owner/action@<commit> # vX.Y.Z
            assert re.search(r"uses: [\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$", line), line
    jobs = load(name)["jobs"]
    for job_name, job in jobs.items():
        for step in steps(job):
            if step.get("uses", "").startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False, job_name
    # The one job that can write to the repository: its checkout and its push step only.
    (writer,) = [job for job in jobs.values() if job["permissions"].get("contents") == "write"]
    holders = [s for s in steps(writer) if "secrets.GITHUB_TOKEN" in json.dumps(s)]
    assert [s["run"] for s in holders] == [
        'scripts/daily push --bundle "$RUNNER_TEMP/wire-data/wire-data.bundle"'
    ]
    assert not any(s.get("run", "").startswith(("pip", "python")) for s in steps(writer))
    # Where pip and digest run, the token can only read, and the site is refused a
    # placeholder base_url.
    for job in jobs.values():
        for step in steps(job):
            if "scripts/daily" in step.get("run", "") and " push " not in step["run"]:
                assert job["permissions"].get("contents") in (None, "read")
    built = [s for j in jobs.values() for s in steps(j) if "WIRE_DATA_BUNDLE" in s.get("env", {})]
    assert built and all(s["env"]["WIRE_DEPLOY"] == "true" for s in built)


def test_a_range_failing_the_same_way_every_day_says_it_once_with_a_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "digest.yaml"
    config.write_text(
        "site:\n  base_url: https://acme.github.io/wire/\nprojects:\n  - name: Rocket\n"
        "    repos:\n      - name: acme/rocket\n        git: nowhere\n"
    )
    args = ["collect", "--since", "2026-03-01", "--until", "2026-03-05", "--config", str(config)]
    assert main(args, env={"WIRE_NOW": "2026-03-10T06:00:00Z"}) == 1
    lines = capsys.readouterr().err.splitlines()
    said = f"digest: acme/rocket: no such folder {tmp_path / 'nowhere'} (the 'git:' path"
    assert [line for line in lines if line.startswith(said)] == [lines[0]]
    assert lines[-1].startswith("digest: 5 times in all: acme/rocket: no such folder ")
    assert len(lines) == 2
