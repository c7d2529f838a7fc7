"""The QryError hierarchy.

Owns: every error the library raises on purpose. Each carries a `hint` saying what to do next, and a
`code` naming the rule that was broken, so the CLI and the MCP server can print or return it without
knowing the cause. The library never prints or exits.
"""

from __future__ import annotations


class QryError(Exception):
    """Base of all deliberate qry errors: a message, a hint, a machine-readable code."""

    code: str = "error"

    def __init__(self, message: str, hint: str = "", *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        if code is not None:
            self.code = code

    def to_dict(self) -> dict[str, object]:
        return {"isError": True, "error": self.message, "hint": self.hint, "code": self.code}


class UsageError(QryError):
    """Bad arguments or query text."""

    code = "usage"


class IndexNotFound(QryError):
    code = "index_not_found"


class IndexCorrupt(QryError):
    """A file of the index is missing, truncated or altered."""

    code = "index_corrupt"


class FormatVersionError(QryError):
    """A manifest written by another on-disk format version (`found`, when it could be read)."""

    code = "format_version"
    found: object = None


class LockBusy(QryError):
    """Another writer holds the index lock."""

    code = "lock_busy"


class ModelError(QryError):
    """The embedding model is missing, unreadable, or differs from the one the index was built with."""

    code = "model"


class GraphQueryError(QryError):
    """A graph query broke one of the bounded profile's rules; `code` names the rule."""

    code = "graph_query"


class QueryTimeout(QryError):
    code = "timeout"


class DiskFull(QryError):
    """A write failed because the file system is full (ENOSPC) or the user's quota is spent."""

    code = "disk_full"


DISK_FULL_HINT = (
    "free space on that file system (`qry gc --keep 1` removes old roots and leftovers; it works on a "
    "full disk), or put the index elsewhere with --index-dir"
)
_DISK_FULL_ERRNOS = (28, 122)  # ENOSPC, EDQUOT (Linux numbering; macOS EDQUOT is 69, also below)
_DISK_FULL_TEXTS = ("no space left on device", "os error 28", "disk quota exceeded")


def disk_full(exc: BaseException, where: str) -> DiskFull | None:
    """A DiskFull for `exc` if it (or an exception it was raised from) is a full-disk failure.

    Python's OSError carries the errno; Tantivy's errors arrive as ValueError/RuntimeError whose text
    names the OS error ("No space left on device (os error 28)"), so both are recognised. `where` is
    the path being written (or the index directory).
    """
    import errno
    import os

    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, OSError) and cur.errno in (*_DISK_FULL_ERRNOS, errno.ENOSPC, errno.EDQUOT):
            path = os.fsdecode(cur.filename) if isinstance(cur.filename, str | bytes | os.PathLike) else where
            return DiskFull(f"no space left on device writing {path}", hint=DISK_FULL_HINT)
        if any(t in str(cur).lower() for t in _DISK_FULL_TEXTS):
            return DiskFull(f"no space left on device writing {where}", hint=DISK_FULL_HINT)
        cur = cur.__cause__ or cur.__context__
    return None
