"""Where the package's log goes: stderr, above any progress bar, each warning said once.

The CLI sets it up per command (:func:`setup`) and, at the end, says how often the lines
it held back were repeated (:func:`repeats`): a range whose every day fails the same way,
or a check failing alike for every repository, prints its long line once, with a count.
"""

from __future__ import annotations

import logging
import sys
from collections import Counter

from digest.errors import TRACEBACKS

#: How much of a repeated line the count at the end quotes.
QUOTED = 80


class StderrHandler(logging.Handler):
    """Writes records to the current ``sys.stderr``, above any progress bar.

    A warning or error identical to one already written is counted, not written again.
    """

    def __init__(self) -> None:
        super().__init__()
        self.said: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        # A bar can only be showing when tqdm was loaded: do not load it (and what it
        # loads) to write a line of a command without one.
        bars = sys.modules.get("tqdm")
        try:
            line = self.format(record)
            if record.levelno >= logging.WARNING:
                self.said[line] += 1
                if self.said[line] > 1:
                    return
            if bars is None:
                print(line, file=sys.stderr)
            else:
                bars.tqdm.write(line, file=sys.stderr)
        except Exception:
            self.handleError(record)


def setup(level: int, *, debug: bool = False) -> None:
    """Send the package's log to stderr at the level ``-v``/``-q`` chose (default INFO).

    Tracebacks (:data:`~digest.errors.TRACEBACKS`) are shown with ``debug`` only, which
    also says everything ``-v`` does. Forgets the lines said by an earlier command.
    """
    logger = logging.getLogger("digest")
    levels = {-2: logging.ERROR, -1: logging.WARNING, 0: logging.INFO}
    logger.setLevel(logging.DEBUG if debug else levels.get(max(-2, level), logging.DEBUG))
    TRACEBACKS.disabled = not debug
    handler = _handler()
    if handler is None:
        handler = StderrHandler()
        handler.setFormatter(logging.Formatter("digest: %(message)s"))
        logger.addHandler(handler)
    handler.said.clear()


def repeats() -> list[str]:
    """One line per warning or error said more than once since :func:`setup`, with its count."""
    handler = _handler()
    if handler is None:
        return []
    return [
        f"digest: {times} times in all: {_quoted(line.removeprefix('digest: '))}"
        for line, times in handler.said.items()
        if times > 1
    ]


def _quoted(line: str) -> str:
    """The start of ``line``, enough to tell which it is (a path or URL is cut, not dropped)."""
    return line if len(line) <= QUOTED else line[: QUOTED - 1] + "…"


def _handler() -> StderrHandler | None:
    found = (h for h in logging.getLogger("digest").handlers if isinstance(h, StderrHandler))
    return next(found, None)
