"""The Wire: a daily news page, index and RSS feed of what busy repositories merged."""

import sys

__version__ = "0.1.0"


def _import_msgspec() -> None:
    """Import msgspec without ``typing_extensions`` (5-7 ms of every command's start-up).

    msgspec tries ``typing_extensions`` for ``get_type_hints``, ``Required`` and
    ``NotRequired`` and falls back to :mod:`typing`'s when it cannot import it. On Python
    3.11 and later those are the very objects ``typing_extensions`` hands out
    (``get_type_hints`` with ``include_extras=True``, which msgspec always passes, is
    ``typing.get_type_hints`` itself), so msgspec works the same; the block lasts only
    while msgspec is imported, and any module can import ``typing_extensions`` after.
    Nothing is done when either module is already loaded.
    """
    if "msgspec" in sys.modules or "typing_extensions" in sys.modules:
        return
    sys.modules["typing_extensions"] = None  # type: ignore[assignment]  # import fails
    try:
        import msgspec  # noqa: F401
    finally:
        if "typing_extensions" in sys.modules and sys.modules["typing_extensions"] is None:
            del sys.modules["typing_extensions"]


_import_msgspec()
