"""Where msgspec found data not of the shape asked for, as keys and list positions.

msgspec says where in its message (``Expected `int`, got `str` - at `$.refs[0].n```);
the config, the store and the readers of GitHub's and the LLM's answers turn that into a
location their own messages can name.
"""

from __future__ import annotations

import re

import msgspec

#: Where in nested data: keys and list positions from the top (``projects``, 0, ``slug``).
Location = tuple[str | int, ...]

_STEP = re.compile(r"\.(\w+)|\[(\d+)\]")
#: Where a key of a mapping is wrong, msgspec says `` - at `key` in `$.a```.
_AT = re.compile(r" - at (`key` in )?`\$([^`]*)`$")


def problem(error: msgspec.DecodeError) -> tuple[Location, str]:
    """Split ``error``'s message into where (empty: the whole input) and what."""
    said = str(error)
    at = _AT.search(said)
    if at is None:
        return (), said
    what = said[: at.start()] + (" (a key)" if at.group(1) else "")
    loc = tuple(int(index) if index else name for name, index in _STEP.findall(at.group(2)))
    return loc, what


def dotted(loc: Location) -> str:
    """Write ``loc`` as a key path: ``projects[0].repos[1].name``."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)[1:]


def described(error: msgspec.DecodeError, whole: str) -> str:
    """``error`` as ``where: what``, ``where`` being ``whole`` for the whole input."""
    loc, what = problem(error)
    return f"{dotted(loc) or whole}: {what}"
