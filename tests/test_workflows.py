"""The GitHub Actions workflows: what a fork relies on when it enables them.

actionlint (run by `make lint`) checks their syntax, expressions and shell; these tests
check the choices: when they run, with what inputs, rights, state and publishing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

WORKFLOWS = Path(__file__).resolve().parent.parent / ".github" / "workflows"


def load(name: str) -> dict[str, Any]:
    workflow: dict[Any, Any] = yaml.safe_load((WORKFLOWS / name).read_text())
    workflow["on"] = workflow.pop(True)  # YAML 1.1 reads the key `on` as true
    return workflow


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    return list(job["steps"])


def uses(job: dict[str, Any]) -> list[str]:
    return [step["uses"].split("@")[0] for step in steps(job) if "uses" in step]


@pytest.mark.parametrize("name", ["wire.yml", "wire-scale-out.yml"])
def test_one_build_at_a_time_with_no_rights_but_those_each_job_asks_for(name: str) -> None:
    workflow = load(name)
    assert workflow["concurrency"] == {"group": "the-wire", "cancel-in-progress": False}
    assert workflow["permissions"] == {}
    inputs = workflow["on"]["workflow_dispatch"]["inputs"]
    assert set(inputs) == {"date", "since", "until", "refresh"}
    assert inputs["refresh"]["type"] == "boolean"
    writers = {
        name: job["permissions"]
        for name, job in workflow["jobs"].items()
        if "write" in job["permissions"].values()
    }
    pages = {"pages": "write", "id-token": "write"}
    # Only the save job writes to the repository (issue 24: see test_reliability_cli.py).
    assert writers == {"save": {"contents": "write"}, "deploy": pages}
    for job in workflow["jobs"].values():
        assert job["timeout-minutes"] <= 120


def test_the_daily_workflow_runs_after_the_day_settled_and_publishes_even_on_exit_1() -> None:
    workflow = load("wire.yml")
    (schedule,) = workflow["on"]["schedule"]
    minute, hour, *every_day = schedule["cron"].split()
    assert every_day == ["*", "*", "*"]
    assert int(hour) * 60 + int(minute) >= 60  # not before 01:00 UTC
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    daily = next(step for step in steps(build) if step.get("id") == "daily")
    assert daily["run"] == 'scripts/daily || [ "$?" -eq 1 ]'
    env = daily["env"]
    assert "secrets.GITHUB_TOKEN" in env["GITHUB_TOKEN"]
    assert env["OPENAI_API_KEY"] == "${{ secrets.OPENAI_API_KEY }}"
    assert env["WIRE_DATA_BRANCH"] == "wire-data"
    assert {"actions/setup-python", "actions/upload-pages-artifact"} <= set(uses(build))
    setup = next(s for s in steps(build) if s.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"]["cache"] == "pip"
    # The last run's site comes back from the cache before the build, so it renders only
    # what changed; both paths come from the config, through `scripts/daily where`.
    names = [s.get("id") or s.get("uses", "").split("@")[0] for s in steps(build)]
    assert names.index("where") < names.index("actions/cache") < names.index("daily")
    cache = next(s for s in steps(build) if s.get("uses", "").startswith("actions/cache"))
    assert cache["with"]["path"].splitlines() == [
        "${{ steps.where.outputs.site_dir }}",
        "${{ steps.where.outputs.site_builds }}",
    ]
    assert cache["with"]["restore-keys"] == "wire-site-"
    assert deploy["needs"] == "build"
    assert deploy["environment"]["name"] == "github-pages"
    # The site is deployed first; then a left-out repository fails the run.
    assert [s.get("uses", "run").split("@")[0] for s in steps(deploy)] == [
        "actions/deploy-pages",
        "run",
    ]
    assert steps(deploy)[1]["if"] == "needs.build.outputs.status != '0'"


def test_the_scale_out_template_collects_per_project_and_publishes_once() -> None:
    workflow = load("wire-scale-out.yml")
    assert "schedule" not in workflow["on"]  # a template: it runs only when asked
    jobs = workflow["jobs"]
    collect = jobs["collect"]
    matrix = collect["strategy"]["matrix"]
    assert matrix["project"] == "${{ fromJSON(needs.plan.outputs.projects) }}"
    assert collect["strategy"]["fail-fast"] is False
    assert "actions/upload-artifact" in uses(collect)
    assert "!cancelled()" in jobs["publish"]["if"]
    assert {"actions/download-artifact", "actions/upload-pages-artifact"} <= set(
        uses(jobs["publish"])
    )
    assert uses(jobs["deploy"]) == ["actions/deploy-pages"]
    publish = [s.get("id") or s.get("uses", "").split("@")[0] for s in steps(jobs["publish"])]
    assert publish.index("restore") < publish.index("actions/cache") < publish.index("publish")
