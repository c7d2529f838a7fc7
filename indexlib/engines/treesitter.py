"""The only importer of tree-sitter and its language pack: bytes -> syntax tree, with a deadline.

Owns: per-thread parser and compiled-query caches, the parse timeout, and running a query. It knows no
language's node types (that is `extract.py`) and builds no records.

Why a read callback: in tree-sitter 0.26 only the callback form of `Parser.parse` accepts a
`progress_callback`, which is the one way to stop a runaway parse. A cancelled parse raises
`ValueError` and leaves the parser mid-parse, so the next `parse` would resume it: the parser is
reset after every cancellation. Query cursors also accept a progress callback, but in py-tree-sitter
0.26.1 passing one crashes the interpreter (SIGSEGV, even when it never cancels), so queries run
without one; callers check the deadline between phases instead.
"""

from __future__ import annotations

import threading
import time

from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree
from tree_sitter_language_pack import get_language

from indexlib.errors import QryError

__all__ = ["Deadline", "Node", "ParseTimeout", "Tree", "captures", "parse"]

# Bytes handed to tree-sitter per read callback: large enough that the callback overhead is noise.
_READ_CHUNK = 1 << 16


class ParseTimeout(QryError):
    """Parsing one file took longer than its budget; the caller falls back to line windows."""

    code = "parse_timeout"


class Deadline:
    """A monotonic-clock budget shared by the phases of parsing one file."""

    __slots__ = ("_end",)

    def __init__(self, timeout_ms: int) -> None:
        self._end = time.monotonic() + max(timeout_ms, 1) / 1000.0

    def expired(self) -> bool:
        return time.monotonic() >= self._end

    def check(self, phase: str) -> None:
        """Raise ParseTimeout if the budget is spent."""
        if self.expired():
            raise ParseTimeout(
                f"parsing exceeded its time budget during {phase}",
                hint="raise the parse timeout, or exclude the file if it is generated",
            )


class _Cache(threading.local):
    """Parsers are not thread-safe, so each thread keeps its own; compiled queries likewise."""

    def __init__(self) -> None:
        self.parsers: dict[str, Parser] = {}
        self.queries: dict[tuple[str, str], Query] = {}


_cache = _Cache()
_languages: dict[str, Language] = {}
_languages_lock = threading.Lock()


def _language(name: str) -> Language:
    language = _languages.get(name)
    if language is None:
        with _languages_lock:
            language = _languages.get(name)
            if language is None:
                language = get_language(name)  # type: ignore[arg-type]
                _languages[name] = language
    return language


def _parser(name: str) -> Parser:
    parser = _cache.parsers.get(name)
    if parser is None:
        parser = Parser(_language(name))
        _cache.parsers[name] = parser
    return parser


def query(language: str, source: str) -> Query:
    """The compiled query for `source` in `language`, cached per thread."""
    key = (language, source)
    compiled = _cache.queries.get(key)
    if compiled is None:
        compiled = Query(_language(language), source)
        _cache.queries[key] = compiled
    return compiled


def parse(data: bytes, language: str, deadline: Deadline) -> Tree:
    """Parse `data` with the `language` grammar, giving up when `deadline` passes.

    Raises ParseTimeout on expiry. A syntax error is not a failure: tree-sitter returns a tree with
    ERROR nodes, and extraction takes what it can from it.
    """
    parser = _parser(language)
    view = memoryview(data)
    end = len(data)

    def read(offset: int, _point: object) -> memoryview:
        return view[offset : min(offset + _READ_CHUNK, end)]

    def progress(_offset: int, _has_error: bool) -> bool:
        return deadline.expired()

    try:
        return parser.parse(read, progress_callback=progress)
    except ValueError as exc:  # "Parsing failed": cancelled by the progress callback
        parser.reset()
        raise ParseTimeout(
            f"parsing exceeded its time budget ({exc})",
            hint="raise the parse timeout, or exclude the file if it is generated",
        ) from exc
    except BaseException:
        parser.reset()
        raise


def captures(language: str, source: str, node: Node) -> dict[str, list[Node]]:
    """Run the query `source` over `node`: capture name -> nodes (NOT in source order)."""
    return QueryCursor(query(language, source)).captures(node)
