"""Print the messages the openai writer would send for one labelled day.

Usage: python bench/capture_prompt.py OWNER/NAME YYYY-MM-DD [--budget TOKENS]
       python bench/capture_prompt.py --records FILE [--display NAME] OWNER/NAME YYYY-MM-DD

The day's records are collected from the fetched repositories' clones (``$WIRE_MIRRORS``)
or read from ``../shared/data`` (PyTorch); with ``--records``, read from that file (an
invented day of ``tests/fixtures/answers/``, one record a line). Prints the system
message, then the user message (the day as JSON), then the prompt's size: what a model is
given, to write answers for the stand-in server's fixtures (``tests/fixtures/answers/``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.evaluate_facts import load_labelled_days, load_records
from digest.config import ProjectSettings, RepoSettings
from digest.summarize.llm.prompt import build_prompt
from digest.summarize.select import make_brief

#: How the fixtures' projects write their repositories.
DISPLAY = {"pytorch/executorch": "ExecuTorch", "pytorch/ao": "torchao"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repo")
    parser.add_argument("date", type=dt.date.fromisoformat)
    parser.add_argument("--budget", type=int, default=8192)
    parser.add_argument("--records", type=Path, help="read the day from this records file")
    parser.add_argument("--display", help="how the project writes the repository")
    args = parser.parse_args()
    if args.records is not None:
        pulls = load_records(args.records)
    else:
        pulls = load_labelled_days()[(args.repo, args.date)]
    display = args.display or DISPLAY.get(args.repo)
    repo = RepoSettings(name=args.repo, display_name=display)
    project = ProjectSettings(name=args.repo.split("/")[1], repos=(repo,))
    prompt = build_prompt(make_brief(project, args.date, pulls), args.budget)
    for message in prompt.messages:
        print(f"===== {message['role']} =====")
        print(message["content"])
    print(
        f"===== {len(prompt.inputs)} of {len(pulls)} changes listed, about {prompt.tokens} tokens"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
