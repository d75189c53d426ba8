"""Secrets never reach a log line, a data file or a page, whatever fails and however spelled."""

from __future__ import annotations

import base64
import datetime as dt
import json
import logging
import socket
from pathlib import Path
from urllib.parse import quote

import pytest

from digest.cli import main
from digest.clock import FixedClock
from digest.errors import UsageError
from digest.pipeline import Runtime
from digest.registry import default_registry
from digest.secrets import REDACTED, Redactor, check_secrets, spellings
from tests.factories import make_settings
from tests.fake_github import FakeGitHub, FakePull, Fault
from tests.gitrepo import at

DAY = dt.date(2026, 3, 4)
CONFIG = """\
github:
  retries: 0
projects:
  - name: Rocket
    repos:
      - name: acme/rocket
      - name: acme/ground
"""

#: Valid tokens whose escaped and encoded spellings differ from the raw one.
HOSTILE_VALID = [
    "ghp_PLAIN0sweep0token0SECRET0abc123",
    "ghp_quote'and\"back\\slash0SECRET",
    "ghp_url+enc/od=ed%25&amp;SECRET0x",
    "ghp_<script>alert(1)</script>SECRET",
]
#: Tokens the start-up check refuses: a line break inside, a space, non-Latin-1, a control.
HOSTILE_INVALID = [
    "ghp_FIRST0line0SECRET\nsecondline0SECRET",
    "ghp_with space0SECRET0abcdef",
    "ghp_caf\u00e9\u4e2d\u6587SECRET0abcdef",
    "ghp_tab\there0SECRET0abcdef",
    "ghp_bell\x07SECRET0abcdef",
]


def _echo(token: str) -> Fault:
    """A 401 whose message quotes the token raw, repr-escaped, URL-encoded and as Basic auth."""
    basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
    message = f"Bad credentials {token} {token!r} {quote(token, safe='')} Basic {basic}"
    return Fault(401, {"message": message})


FAULTS = {
    "server-error": lambda token: Fault.server_error(502),
    "echoed-401": _echo,
    "echoed-500": lambda token: Fault(500, {"message": f"boom for token {token!r}"}),
    "malformed": lambda token: Fault.malformed(),
    "echoed-in-data": lambda token: Fault(200, raw=json.dumps({"data": token}).encode()),
}


@pytest.fixture
def api(fake_github: FakeGitHub) -> FakeGitHub:
    fake_github.add("acme/rocket", FakePull(101, "Booster stage: add gimbal control", at(DAY, 9)))
    fake_github.add("acme/ground", FakePull(7, "Pour the launch pad", at(DAY, 8)))
    return fake_github


def _run(tmp_path: Path, url: str, token: str, *extra: str) -> int:
    config = tmp_path / "digest.yaml"
    config.write_text(CONFIG)
    env = {"GITHUB_API_URL": url, "WIRE_NOW": "2026-03-05T06:00:00Z", "GITHUB_TOKEN": token}
    return main(["run", "--date", "2026-03-04", "-v", "-v", *extra, "--config", str(config)], env)


def _leaks(token: str, tmp_path: Path, captured: str) -> list[str]:
    """Return the spellings of ``token`` found in the captured output or any written file."""
    files = [p for p in tmp_path.rglob("*") if p.is_file() and p.name != "digest.yaml"]
    texts = [captured, *(p.read_bytes().decode("utf-8", "replace") for p in files)]
    return sorted({s for s in spellings(token) for text in texts if s in text})


def _closed_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


@pytest.mark.parametrize("token", HOSTILE_VALID)
@pytest.mark.parametrize("fault", [*FAULTS, "unreachable", "none"])
@pytest.mark.parametrize("request_number", [1, 2])
def test_no_spelling_of_the_token_is_written_anywhere(
    tmp_path: Path,
    api: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    token: str,
    fault: str,
    request_number: int,
) -> None:
    caplog.set_level(logging.DEBUG)
    if fault in FAULTS:
        api.faults = {request_number: FAULTS[fault](token)}
    url = _closed_port() if fault == "unreachable" else api.url
    status = _run(tmp_path, url, token)

    assert status == (0 if fault == "none" else 1)
    out = capsys.readouterr()
    assert _leaks(token, tmp_path, out.out + out.err + caplog.text) == []
    if fault not in ("none", "unreachable"):
        edition = json.loads((tmp_path / "data/digests/rocket/2026-03-04.json").read_text())
        assert [f["repo"] for f in edition["failed_repos"]] == [
            ["acme/rocket", "acme/ground"][request_number - 1]
        ]


@pytest.mark.parametrize("token", HOSTILE_INVALID)
@pytest.mark.parametrize("variable", ["GITHUB_TOKEN", "GH_TOKEN", "OPENAI_API_KEY"])
def test_a_malformed_secret_stops_the_run_with_one_line_and_status_2(
    tmp_path: Path,
    api: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    token: str,
    variable: str,
) -> None:
    config = tmp_path / "digest.yaml"
    config.write_text(CONFIG)
    env = {"GITHUB_API_URL": api.url, "WIRE_NOW": "2026-03-05T06:00:00Z", variable: token}
    assert main(["run", "--date", "2026-03-04", "--config", str(config)], env) == 2

    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"digest: error: {variable} contains ")
    assert _leaks(token, tmp_path, err) == []
    assert api.count() == 0  # Refused before any request.
    assert not (tmp_path / "data").exists() and not (tmp_path / "site").exists()


def test_surrounding_whitespace_is_forgiven() -> None:
    check_secrets({"GITHUB_TOKEN": "ghp_abc\n", "OPENAI_API_KEY": "  sk-abc "})
    with pytest.raises(UsageError):
        check_secrets({"GITHUB_TOKEN": "ghp_a\nb"})


@pytest.mark.parametrize(
    "spelled",
    [
        lambda t: t,
        lambda t: repr(t),
        lambda t: json.dumps(t),
        lambda t: quote(t, safe=""),
        lambda t: base64.b64encode(f"x-access-token:{t}".encode()).decode(),
        lambda t: base64.b64encode(f":{t}".encode()).decode(),
        lambda t: str(t.encode()),
    ],
)
@pytest.mark.parametrize("token", [*HOSTILE_VALID, *HOSTILE_INVALID])
def test_every_spelling_is_redacted(spelled: object, token: str) -> None:
    assert callable(spelled)
    text = f"failed: {spelled(token)} (end)"
    cleaned = Redactor([token]).redact(text)
    assert REDACTED in cleaned
    assert not any(s in cleaned for s in spellings(token))


def test_the_runtime_never_shows_the_environment_it_holds(tmp_path: Path) -> None:
    env = {"GITHUB_TOKEN": "ghp_" + "s3cret" * 6, "OPENAI_API_KEY": "sk-" + "k3y" * 10}
    clock = FixedClock(dt.datetime(2026, 3, 5, tzinfo=dt.UTC))
    rt = Runtime(make_settings(tmp_path), default_registry(plugins=False), clock, env)
    assert "s3cret" not in repr(rt) and "k3y" not in repr(rt)
