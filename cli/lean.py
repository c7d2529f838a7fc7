"""Importing msgspec without what the fast paths never use (`qry search`, `qry grep`, `qry index`).

Its own module, free of option tables, so `qry grep` does not import `qry search`'s fast path for it.
"""

from __future__ import annotations


def import_msgspec_lean() -> None:
    """Import msgspec without typing_extensions, then put things back.

    msgspec tries `typing_extensions` first and falls back to `typing` (its own documented fallback);
    typing_extensions pulls in inspect, ast, dis and tokenize, ~15 ms of CPU in a one-shot query, for
    TypedDict forms our Structs never use. Only the fast path does this, and only if nothing imported
    typing_extensions yet; afterwards the module can be imported normally again.
    """
    import sys

    if "msgspec" in sys.modules or "typing_extensions" in sys.modules:
        return
    sys.modules["typing_extensions"] = None  # type: ignore[assignment]
    try:
        import msgspec  # noqa: F401
    finally:
        if sys.modules.get("typing_extensions", 0) is None:
            del sys.modules["typing_extensions"]
