"""The command line under handled failures: `-v` says more but never a traceback.

Part of the reliability tier (issue 24, item 7).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fake_github import FakeGitHub, FakePull, Fault
from tests.gitrepo import at
from tests.test_github_cli import DAY, digest, write_config

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
