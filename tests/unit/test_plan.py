"""The search plan, the request contract and the filter spec: pure, tested without any engine."""

from __future__ import annotations

import pytest

from indexlib import SERVED_BOUNDS, SearchRequest, UsageError
from indexlib.records import Node
from indexlib.retrieval.filters import FilterSpec, NoMatchingPaths, filter_spec
from indexlib.retrieval.plan import VectorState, plan, settle
from indexlib.retrieval.query import Route, parse_query
from indexlib.retrieval.request import TimeWindow


def test_the_plan_is_decided_from_the_query_and_the_mode() -> None:
    p = plan(parse_query("ParseConfig"), SearchRequest())
    assert (p.route, p.lexical, p.dense) == (Route.IDENTIFIER, ("bm25", "symbol"), True)
    assert p.weights is not None and p.weights["symbol"] > p.weights["vector"]
    assert plan(parse_query("x"), SearchRequest(mode="symbol")).lexical == ("symbol",)
    semantic = plan(parse_query("x"), SearchRequest(mode="semantic"))
    assert semantic.lexical == () and semantic.dense and semantic.weights is None


def test_settle_reroutes_prose_that_spells_a_name_and_skips_the_dense_stream() -> None:
    q = parse_query("do open")
    p = plan(q, SearchRequest())
    assert p.route is Route.NATURAL
    settled = settle(p, q, SearchRequest(), name_lead=True, vectors=VectorState(present=True))
    assert settled.route is Route.KEYWORDS and not settled.dense
    assert settled.notes == [
        "routed as keywords: the words spell a definition's name",
        "dense stream skipped: the query names a definition (model not loaded)",
    ]
    kept = settle(p, q, SearchRequest(skip_dense_on_exact=False), name_lead=True, vectors=VectorState(True))
    assert kept.dense and kept.route is Route.KEYWORDS


def test_settle_without_vectors_notes_it_or_refuses_a_semantic_search() -> None:
    q = parse_query("how are charges retried")
    none = VectorState(present=False)
    hybrid = settle(plan(q, SearchRequest()), q, SearchRequest(), name_lead=False, vectors=none)
    assert not hybrid.dense and hybrid.notes[-1].startswith("dense stream skipped: the index has no vectors")
    semantic = SearchRequest(mode="semantic")
    with pytest.raises(UsageError, match="this index has no vectors yet"):
        settle(plan(q, semantic), q, semantic, name_lead=False, vectors=VectorState(False, "40% done"))


def test_request_bounds_and_wording_depend_on_who_asks() -> None:
    with pytest.raises(UsageError, match=r"^--top-k must be between 1 and 1000, not 0$"):
        SearchRequest(caller="cli", top_k=0).validate("x")
    # the library and qry serve's HTTP clients set fields, so the error names the field
    with pytest.raises(UsageError, match=r"^top_k must be between 1 and 1000, not 0$") as lib:
        SearchRequest(top_k=0).validate("x")
    assert "--" not in lib.value.hint
    with pytest.raises(UsageError, match=r"^budget_tokens must be at least 1, not 0$"):
        SearchRequest(budget_tokens=0).validate("x")
    SearchRequest(top_k=500).validate("x")
    with pytest.raises(UsageError) as served:
        SearchRequest(caller="agent", top_k=500).validate("x")
    hi = SERVED_BOUNDS.top_k.hi
    assert served.value.code == "bound" and f"(server bound: 1 <= top_k <= {hi})" in served.value.message
    with pytest.raises(UsageError, match="the query is empty"):
        SearchRequest(caller="cli").check_query("  ")
    SearchRequest().check_query("  ")  # the library answers a blank query with a note instead
    assert SearchRequest(for_program=True).wants_graph and not SearchRequest().wants_graph
    assert not SearchRequest(for_program=True, graph=False).wants_graph


def _node(path: str, *, language: str = "python", kind: str = "function", changed: int = 100) -> Node:
    return Node(
        uid=1, content_hash=1, path=path, language=language, kind=kind, name="f", qualified_name="f", start_line=1,
        end_line=2, start_byte=0, end_byte=1, text="", changed_at=changed, created_at=changed,
    )  # fmt: skip


def test_the_filter_spec_resolves_globs_once_and_admits_nodes_as_tantivy_would() -> None:
    files = ["src/a.py", "src/b.go", "tests/t.py"]
    spec = filter_spec(files, parse_query("x path:src/** lang:py"), TimeWindow(since=50))
    assert spec.paths == frozenset({"src/a.py", "src/b.go"}) and spec.langs == ("python",)
    assert spec.admits(_node("src/a.py")) and not spec.admits(_node("tests/t.py"))
    assert not spec.admits(_node("src/b.go", language="go"))
    assert not spec.admits(_node("src/a.py", changed=10))
    excluded = filter_spec(files, parse_query("x -path:tests"))
    assert excluded.paths is None and excluded.excluded == frozenset({"tests/t.py"})
    assert FilterSpec().admits(_node("anything.py"))
    with pytest.raises(NoMatchingPaths):
        filter_spec(files, parse_query("x path:src/** -path:src"))
