"""The search request: what every surface (the CLI, its fast path, the MCP server, the library) asks a
search for, checked once, here, against the bounds table.

Owns: the `SearchRequest` Struct and its defaults (read from `bounds.py`), the rules a request must
keep and their error texts (the CLI's `--flag` wording; the server's `name must be between ...
(server bound: ...)` wording for agents), and the defaults that depend on who asks: graph expansion
is on when a program reads the answer (JSON, JSONL, an agent), off for people. Surfaces only
translate their inputs into a request. Does not own: the numbers (bounds.py), running a search
(search.py), or output formats (cli/).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import msgspec

from indexlib.errors import UsageError
from indexlib.retrieval.bounds import DEFAULT_MODE, SEARCH_BOUNDS, SEARCH_MODES, SERVED_BOUNDS, Bound
from indexlib.retrieval.fusion import CANDIDATE_CAP
from indexlib.retrieval.query import Query
from indexlib.retrieval.signals import Signals

TERM_BOOST_MIN, TERM_BOOST_MAX = 0.01, 100.0  # SearchRequest.term_boosts: a factor, never 0 or unbounded
LIBRARY, CLI, AGENT = "library", "cli", "agent"  # who asks: decides wording and which bounds apply
T = TypeVar("T")


def _default(bound: Bound) -> int:
    assert bound.default is not None
    return bound.default


class TimeWindow(NamedTuple):
    """--since/--until/--as-of as unix seconds (None: not asked)."""

    since: int | None = None
    until: int | None = None
    as_of: int | None = None


class SearchRequest(msgspec.Struct, kw_only=True):
    """Everything a search may be asked for; the defaults are the bounds table's.

    Times are unix seconds, or the text a person wrote (`2 weeks ago`, a git ref), which is read
    against the indexed repository when the search runs.
    """

    top_k: int = _default(SEARCH_BOUNDS.top_k)
    mode: str = DEFAULT_MODE
    snippet_chars: int = _default(SEARCH_BOUNDS.snippet_chars)
    rrf_k: int = _default(SEARCH_BOUNDS.rrf_k)
    cap: int = CANDIDATE_CAP
    explain: bool = False
    graph: bool | None = None  # None: on when `for_program`
    graph_depth: int = _default(SEARCH_BOUNDS.graph_depth)
    diffuse: bool = False
    langs: list[str] = msgspec.field(default_factory=list)
    paths: list[str] = msgspec.field(default_factory=list)
    excludes: list[str] = msgspec.field(default_factory=list)
    kinds: list[str] = msgspec.field(default_factory=list)
    # `--repo`: regular expressions over a workspace's repository names, as `repo:` in the query
    repos: list[str] = msgspec.field(default_factory=list)
    root: str | None = None
    model_dir: str | None = None
    signals: Signals = msgspec.field(default_factory=Signals)
    budget_tokens: int | None = None
    since: int | str | None = None
    until: int | str | None = None
    as_of: int | str | None = None
    recency: bool = False
    # One hit per file, its best, and `top_k` files (`-l`, as `rg -l` lists files, not matches).
    per_file: bool = False
    # BM25 multipliers per analysed query term. A workspace search passes each index the ratio of the
    # workspace-wide idf to the index's own (indexlib/workspace/collection.py), so its BM25 scores as
    # one index over every repository would; empty (the default) for a search of one index.
    term_boosts: dict[str, float] = msgspec.field(default_factory=dict)
    # A workspace fan-out asks each index for every stream's ranked scores (SearchMeta.stream_scores),
    # so the merge can count how many of this index's candidates beat another index's hit.
    stream_scores: bool = False
    # The workspace repository this index answers as, set by the fan-out: the workspace has already
    # applied the query's repo filters, which one index alone cannot (it has no repository name).
    member: str | None = None
    skip_dense_on_exact: bool = True
    reranker: Any = None  # an indexlib.retrieval.rerank.Reranker; None (the default) = no rerank pass
    caller: str = LIBRARY  # LIBRARY, CLI or AGENT
    for_program: bool = False  # a program reads the answer (JSON, JSONL, an agent)

    @property
    def wants_graph(self) -> bool:
        """Callers, callees and parents on each hit: asked for, or by default for programs (for people
        it is noise in a table)."""
        return self.for_program if self.graph is None else self.graph

    def check_query(self, text: str) -> None:
        """The query text's own rules: never empty (the CLI and agents), bounded in length (agents)."""
        if self.caller == CLI and not text.strip() and not self.filtered:
            raise UsageError("the query is empty", hint="say what to look for, e.g. qry search parse_config")
        if self.caller == AGENT:
            if not text or not text.strip():
                raise UsageError("query is empty", hint='pass what to look for, e.g. "retry_failed_charge"')
            assert SERVED_BOUNDS.query_chars is not None
            served_check(
                "query length", len(text), SERVED_BOUNDS.query_chars, "shorten the query to its key terms"
            )

    @property
    def filtered(self) -> bool:
        """Whether an option filters the search (--lang, --path, --kind, --since, ...): with one, an
        empty query lists what the filters admit."""
        return any((self.langs, self.paths, self.excludes, self.kinds, self.repos)) or self.windowed

    @property
    def windowed(self) -> bool:
        """Whether a time window is asked for (--since, --until or --as-of)."""
        return any(x is not None for x in (self.since, self.until, self.as_of))

    def lists(self, q: Query) -> bool:
        """Whether `q`, with no words to search for, lists what its filters admit (listing.py): it has
        a filter (lang:, path:, kind:, repo: or their exclusions) or a time window. Exclusions alone
        do not list: `-foo` would be every node of the index."""
        filters = q.langs or q.paths or q.excludes or q.kinds or q.repos or q.exclude_repos
        return q.is_blank and bool(filters or self.windowed)

    def check_words(self, q: Query) -> None:
        """A query of exclusions only (`-foo`), or of nothing, asks for nothing: an error for the CLI
        and for agents, who correct their call on an error (an empty result that is not one reads as
        "there is no such code"); the library answers it with an empty result and a note. A query of
        filters lists what they admit (`lists`)."""
        if self.caller in (CLI, AGENT) and q.is_blank and not self.lists(q):
            what, hint = q.nothing_to_search()
            if self.caller == AGENT:
                hint = 'add what to look for to query, e.g. "retry -charge": -word exclusions only narrow a search'
            raise UsageError(what, hint=hint)

    def validate(self, text: str) -> None:
        """Every rule of the request, in a fixed order; raises UsageError naming the first one broken."""
        self.check_query(text)
        if self.caller == AGENT:
            self._check_served()
        if self.mode not in SEARCH_MODES:
            raise UsageError(f"unknown mode {self.mode!r}", hint=f"use one of: {', '.join(SEARCH_MODES)}")
        b = SEARCH_BOUNDS
        top_k, snippet, rrf_k, depth, budget_name = map(
            self.option, ("top_k", "snippet_chars", "rrf_k", "graph_depth", "budget_tokens")
        )
        rules = (
            (
                self.top_k,
                b.top_k,
                f"{top_k} must be between {_range(b.top_k)}, not {self.top_k}",
                f"e.g. {top_k}",
            ),
            (
                self.snippet_chars,
                b.snippet_chars,
                f"{snippet} must be between {_range(b.snippet_chars)}, not {self.snippet_chars}",
                "the default is",
            ),
            (self.rrf_k, b.rrf_k, f"{rrf_k} must be at least {b.rrf_k.lo}", "the default is"),
            (
                self.graph_depth,
                b.graph_depth,
                f"{depth} must be between {_range(b.graph_depth)}",
                "the default is",
            ),
        )
        for value, bound, message, hint in rules:
            if not within(value, bound):
                raise UsageError(message, hint=f"{hint} {bound.default}")
        budget = b.budget_tokens
        if self.budget_tokens is not None and budget is not None and not within(self.budget_tokens, budget):
            raise UsageError(
                f"{budget_name} must be at least {budget.lo}, not {self.budget_tokens}",
                hint=f"a budget is about N tokens of whole results (4 characters each), e.g. "
                f"{budget_name} 2000; leave it out for no budget",
            )
        if self.model_dir is not None and not (Path(self.model_dir) / "model.onnx").is_file():
            # Checked here, not when the model loads: a query that never embeds (an exact name, a
            # lexical one) would otherwise take a mistyped --model without a word.
            raise UsageError(
                f"{'--model' if self.caller == CLI else 'model_dir'} {self.model_dir!r} holds no model.onnx",
                hint="point it at a folder with model.onnx and tokenizer.json, or leave it out for the default model",
            )
        if any(not (TERM_BOOST_MIN <= b <= TERM_BOOST_MAX) for b in self.term_boosts.values()):
            raise UsageError(
                f"term_boosts must lie between {TERM_BOOST_MIN} and {TERM_BOOST_MAX}",
                hint="leave term_boosts empty for plain BM25",
            )

    def option(self, field: str) -> str:
        """An option as the caller spells it: the flag for the CLI, the field for the library, an
        agent's MCP call and `qry serve`'s HTTP clients (whose JSON has `top_k`, not `--top-k`)."""
        return "--" + field.replace("_", "-") if self.caller == CLI else field

    def given(self, field: str) -> str:
        """An option and its value as the caller wrote them: `--since 2 weeks ago`, `since='2 weeks ago'`."""
        value = getattr(self, field)
        return f"{self.option(field)} {value}" if self.caller == CLI else f"{field}={value!r}"

    def _check_served(self) -> None:
        """The server's tighter bounds, worded for an agent that will call again."""
        lim = SERVED_BOUNDS
        served_check(
            "top_k",
            self.top_k,
            lim.top_k,
            f"call search again with top_k between {lim.top_k.lo} and {lim.top_k.hi} (default "
            f"{lim.top_k.default}); to reach more results, narrow the query with lang, path or kind",
        )
        snippet = lim.snippet_chars
        served_check(
            "snippet_chars",
            self.snippet_chars,
            snippet,
            f"call search again with snippet_chars between {snippet.lo} and {snippet.hi} "
            f"(default {snippet.default})",
        )
        if self.budget_tokens is not None and lim.budget_tokens is not None:
            budget = lim.budget_tokens
            served_check(
                "budget_tokens",
                self.budget_tokens,
                budget,
                f"call search again with budget_tokens between {budget.lo} and {budget.hi}, "
                "or leave it out for no budget",
            )

    def window(self, source_root: Callable[[], Path]) -> TimeWindow:
        """The times as unix seconds; text is read as `parse_when` reads it, git refs in `source_root()`."""
        from indexlib.timeparse import parse_when

        def when(value: int | str | None, *, end_of_day: bool = False) -> int | None:
            if not isinstance(value, str):
                return value
            return parse_when(value, source_root(), end_of_day=end_of_day) if value else None

        window = TimeWindow(when(self.since), when(self.until, end_of_day=True), when(self.as_of))
        if window.since is not None and window.until is not None and window.since > window.until:
            raise UsageError(
                f"{self.given('since')} is after {self.given('until')}: no time is in both",
                hint="swap them, or leave one out",
            )
        return window


SearchOptions = SearchRequest  # the name before the request was the library's one contract


def bound_error(name: str, value: object, lo: int, hi: int, hint: str) -> UsageError:
    """A broken server bound, named so a model can fix its call: `top_k must be between 1 and 100, not 1000`."""
    return UsageError(
        f"{name} must be between {lo} and {hi}, not {value} (server bound: {lo} <= {name} <= {hi})",
        hint=hint,
        code="bound",
    )


def _range(bound: Bound) -> str:
    return f"{bound.lo} and {bound.hi}"


def within(value: int, bound: Bound) -> bool:
    return bound.lo <= value and (bound.hi is None or value <= bound.hi)


def served_check(name: str, value: object, bound: Bound, hint: str) -> int:
    """`value` if it is an int within `bound` (a bool is not a number here), else the bound's error."""
    if isinstance(value, bool) or not isinstance(value, int) or not within(value, bound):
        raise bound_error(name, value, bound.lo, bound.hi if bound.hi is not None else value, hint)  # type: ignore[arg-type]
    return value


def top_of(items: Sequence[T], k: int, *, per_file: bool, key: Callable[[T], object]) -> list[T]:
    """The first `k` items, or with `per_file` the first item of each of the first `k` distinct
    keys (a file: its path, or in a workspace its repository and path)."""
    if not per_file:
        return list(items[:k])
    seen: set[object] = set()
    out: list[T] = []
    for item in items:
        if (file := key(item)) not in seen:
            seen.add(file)
            out.append(item)
            if len(out) == k:
                break
    return out
