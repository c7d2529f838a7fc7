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
