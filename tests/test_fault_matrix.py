"""The fault matrix: every kind of GitHub failure, at the first, middle and last request of a
repository-day, through GraphQL and through REST, run end to end with ``digest collect``.

Each case starts from a day collected earlier (two pull requests), asks for it again with
``--refresh`` after a third was merged, and breaks one request. The outcome is either the
day recovered with exactly the three right pull requests (exit 0), or the repository
reported failed with a clear one-line reason and the earlier collection kept byte for byte
(exit 1). No case may print or store the token. Waits go to a recording ``sleep`` and
backoffs are scaled down, so the whole matrix takes seconds; only the hang waits out the
one-second request timeout for real.

``WIRE_FAULT_MATRIX=path pytest tests/test_fault_matrix.py`` also writes the outcomes as
the Markdown table printed in README.md.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import digest.sources.github
from digest.cli import main
from digest.sources.github import GitHubSource
from tests.fake_github import FakeGitHub, FakePull, Fault, serve

pytestmark = pytest.mark.reliability

DAY = dt.date(2026, 3, 4)
TOKEN = "ghp_FAKE0matrix0token0SECRET0never0shown"
STORED = Path("data/collected/acme/rocket/2026-03-04.json")
OTHER_DAY = Path("data/collected/acme/rocket/2026-03-03.json")
CONFIG = """\
site: {title: Rocket Wire, base_url: "https://news.example.org/"}
github: {retries: 2, timeout: 1}
projects: [{name: Rocket, repos: [{name: acme/rocket}]}]
"""


def at(hour: int, day: dt.date = DAY) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour), tzinfo=dt.UTC)


#: Each kind of fault, made afresh for each case (a rate limit's reset is a clock time).
FAULTS: dict[str, Callable[[], Fault]] = {
    "502": lambda: Fault.server_error(502),
    "503": lambda: Fault.server_error(503),
    "secondary rate limit": lambda: Fault.secondary(403, retry_after=None),
    "primary rate limit, reset in 30 s": lambda: Fault.exhausted(reset_in=30),
    "429 Retry-After": lambda: Fault.secondary(429, retry_after=7),
    "hang (timeout)": lambda: Fault.slow(3.0),
    "invalid JSON": lambda: Fault.malformed(b'{"data": {"search": {"issueCount": 3, "nodes": ['),
    "connection reset": Fault.hang_up,
}
POSITIONS = ("first", "middle", "last")
APIS = ("GraphQL", "REST")
NOT_JSON = "GitHub's answer is not valid JSON"
#: The cases that fail the repository, and the reason they must give; all others recover.
#: A broken page of a big pull request's files is asked for again (GraphQL), so only the
#: day's search itself cannot survive an answer that is not JSON; REST has no such retry.
FAILS: dict[tuple[str, str, str], str] = {
    ("invalid JSON", "first", "GraphQL"): NOT_JSON,
    **{("invalid JSON", position, "REST"): NOT_JSON for position in POSITIONS},
}


def day_of(fake: FakeGitHub, *, later: bool) -> None:
    """acme/rocket on DAY: two merges (one of 250 files), and a third ``later`` in the day."""
    pulls = [
        FakePull(101, "Add gimbal control", at(9), reviews=(("linus", "APPROVED", 1),)),
        FakePull(
            102,
            "Rewrite the engine map",
            at(11),
            files=tuple((f"maps/engine_{n:03}.json", 2, 1) for n in range(250)),
        ),
        FakePull(90, "Yesterday's change", at(16, DAY - dt.timedelta(days=1))),
    ]
    if later:
        pulls.append(FakePull(103, "Fix the fuel gauge", at(15)))
    fake.add("acme/rocket", *pulls)


@dataclass
class Outcome:
    exit: int
    recovered: bool
    requests: int
    #: Seconds of waits asked for (recorded, not slept).
    waited: float


#: Every case's outcome, for the README table.
RESULTS: dict[tuple[str, str, str], Outcome] = {}


@pytest.fixture(scope="module", autouse=True)
def _table() -> Iterator[None]:
    yield
    target = os.environ.get("WIRE_FAULT_MATRIX")
    if target and RESULTS:
        Path(target).write_text(table(RESULTS))


def table(results: dict[tuple[str, str, str], Outcome]) -> str:
    """The outcomes as a Markdown table: a row per fault, a column per API and position."""
    head = [f"{api}, {position}" for api in APIS for position in POSITIONS]
    lines = ["| fault | " + " | ".join(head) + " |", "| --- |" + " --- |" * len(head)]
    for kind in FAULTS:
        cells = []
        for api in APIS:
            for position in POSITIONS:
                found = results.get((kind, position, api))
                if found is None:
                    cells.append("not run")
                    continue
                if found.recovered:
                    cells.append(f"recovered: {found.requests} req., {found.waited:.0f} s waits")
                else:
                    cells.append(
                        f"failed: earlier day kept (exit 0), else reported (exit {found.exit})"
                    )
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


class Matrix:
    """Runs ``digest collect`` against a fake GitHub with waits recorded, not slept."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sleeps: list[float] = []
        factory = functools.partial(GitHubSource, sleep=self.sleeps.append, backoff_factor=0.001)
        # The built-in factory imports the source when called: replace it where it looks.
        monkeypatch.setattr(digest.sources.github, "GitHubSource", factory)

    def collect(self, folder: Path, fake: FakeGitHub, *args: str) -> int:
        env = {
            "GITHUB_API_URL": fake.url,
            "GITHUB_TOKEN": TOKEN,
            "WIRE_NOW": "2026-03-05T06:00:00Z",
        }
        config = folder / "digest.yaml"
        return main(["collect", *args, "--config", str(config)], env=env)


@pytest.fixture(scope="module")
def earlier(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with DAY and the day before collected (two pull requests on DAY)."""
    folder = tmp_path_factory.mktemp("earlier")
    (folder / "digest.yaml").write_text(CONFIG)
    with pytest.MonkeyPatch.context() as patch, serve() as fake:
        day_of(fake, later=False)
        matrix = Matrix(patch)
        assert matrix.collect(folder, fake, "--since", "2026-03-03", "--until", "2026-03-04") == 0
    return folder


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory, earlier: Path) -> dict[str, Clean]:
    """For each API: what a fault-free refresh stores, and which requests it sends."""
    found = {}
    for api in APIS:
        folder = tmp_path_factory.mktemp(f"clean-{api}")
        shutil.copytree(earlier, folder, dirs_exist_ok=True)
        with pytest.MonkeyPatch.context() as patch, serve() as fake:
            day_of(fake, later=True)
            fake.graphql = api == "GraphQL"
            assert Matrix(patch).collect(folder, fake, "--date", str(DAY), "--refresh") == 0
            # REST's positions are among its own requests, after the one probe of GraphQL.
            numbers = [s.number for s in fake.seen if api == "GraphQL" or s.path != "/graphql"]
        found[api] = Clean(stored_day(folder), numbers)
    return found


def stored_day(folder: Path) -> bytes:
    """The bytes of DAY's collection in ``folder``, the fake server's port made constant.

    A collection records the API root it was read from; each run here starts its own server.
    """
    return re.sub(
        rb"http://127\.0\.0\.1:\d+", b"http://127.0.0.1:PORT", (folder / STORED).read_bytes()
    )


@dataclass(frozen=True)
class Clean:
    stored: bytes
    #: The request numbers of the repository-day a fault may hit.
    requests: list[int]

    def at(self, position: str) -> int:
        index = {"first": 0, "middle": len(self.requests) // 2, "last": -1}[position]
        return self.requests[index]


def attempt(
    folder: Path, matrix: Matrix, api: str, kind: str, hit: int, *args: str
) -> tuple[int, int]:
    """Collect DAY into ``folder`` with request ``hit`` broken by ``kind``; return the exit
    status and the number of requests sent.
    """
    with serve() as fake:
        day_of(fake, later=True)
        fake.graphql = api == "GraphQL"
        fake.faults = {hit: FAULTS[kind]()}
        status = matrix.collect(folder, fake, "--date", str(DAY), *args)
        assert len(fake.seen) >= hit, "the fault was never reached"
        return status, len(fake.seen)


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("kind", list(FAULTS))
def test_a_fault_is_recovered_from_or_reported_and_nothing_stored_is_lost(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    earlier: Path,
    clean: dict[str, Clean],
    kind: str,
    position: str,
    api: str,
) -> None:
    shutil.copytree(earlier, tmp_path, dirs_exist_ok=True)
    before = {path: (tmp_path / path).read_bytes() for path in (STORED, OTHER_DAY)}
    matrix = Matrix(monkeypatch)
    hit = clean[api].at(position)
    status, requests = attempt(tmp_path, matrix, api, kind, hit, "--refresh")
    out, err = capsys.readouterr()
    stored = stored_day(tmp_path)
    expected = FAILS.get((kind, position, api))
    outcome = Outcome(status, stored == clean[api].stored, requests, sum(matrix.sleeps))
    RESULTS[kind, position, api] = outcome

    # Whatever happens, the exit status is 0: the day is either collected afresh, or the
    # earlier collection is kept and used (and said so).
    assert status == 0, err
    assert "Traceback" not in err
    if expected is None:  # recovered: exactly the right pull requests, as a clean run stores
        assert stored == clean[api].stored
        assert not [line for line in err.splitlines() if line.startswith("digest: acme/rocket: ")]
        assert "re-collecting failed" not in err
    else:
        assert (tmp_path / STORED).read_bytes() == before[STORED]  # kept byte for byte
        assert "acme/rocket 2026-03-04: re-collecting failed; kept the collection" in err
        # The same fault on a day never collected: the repository is reported failed.
        (tmp_path / STORED).unlink()
        fresh, _ = attempt(tmp_path, matrix, api, kind, hit)
        more_out, more_err = capsys.readouterr()
        out, err = out + more_out, err + more_err
        outcome.exit = fresh
        assert fresh == 1
        assert not (tmp_path / STORED).exists()
        reported = [line for line in more_err.splitlines() if expected in line]
        assert reported == [f"digest: acme/rocket: {expected} (Expecting value at character 48)"]
    assert (tmp_path / OTHER_DAY).read_bytes() == before[OTHER_DAY]
    everything = out + err + "".join(p.read_text() for p in tmp_path.rglob("*.json"))
    assert TOKEN not in everything
    assert all(wait <= 300 for wait in matrix.sleeps)
