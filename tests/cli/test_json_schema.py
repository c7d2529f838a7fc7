"""`--json` / `--jsonl` output decoded with the library's own Structs, strictly, so schema drift fails.

Like ripgrep's tests/json.rs: each document is decoded with `msgspec.json.decode(..., type=T,
strict=True)` and then re-encoded; the bytes must equal what the CLI printed. That catches a renamed or
added field, a changed type (an int where a float was, a number where a string was) and a reordered
field, not just a missing one. Error objects have their own closed shape (`ErrorObject`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import pytest

from indexlib.api import RelatedResult
from indexlib.graph.query import GraphQueryResult
from indexlib.records import DEFINITION_KINDS, Hit, NodeKind, RefKind, SearchResult
from indexlib.status import Status
from indexlib.store.files import Problem
from indexlib.store.gc import GcReport
from indexlib.store.history import RootInfo
from tests.cli.clikit import Run, RunQry, run_qry_process

T = TypeVar("T")
HEX16 = re.compile(r"[0-9a-f]{16}")


class ErrorObject(msgspec.Struct, forbid_unknown_fields=True):
    """What `--json` prints on stdout for any error (QryError.to_dict)."""

    isError: bool
    error: str
    hint: str
    code: str


class VerifyReport(msgspec.Struct, forbid_unknown_fields=True):
    ok: bool
    problems: list[Problem]


def decode_exact(line: str, typ: type[T]) -> T:
    """Decode strictly as `typ` and insist that re-encoding gives back the very same bytes."""
    value = msgspec.json.decode(line, type=typ, strict=True)
    assert msgspec.json.encode(value).decode() == line, f"{typ} does not round-trip: drift in {line[:300]}"
    return value


def one_line(run: Run) -> str:
    lines = run.out.splitlines()
    assert len(lines) == 1, run.describe()
    return lines[0]


def check_hit(h: Hit) -> None:
    assert HEX16.fullmatch(h.uid)
    assert h.kind in {k.value for k in NodeKind}
    assert 1 <= h.start_line <= h.end_line
    assert h.snippet.start_line >= h.start_line and h.snippet.end_line <= h.end_line
    for a, b in h.snippet.highlights:
        assert 0 <= a < b <= len(h.snippet.text)
    assert h.score > 0
    for r in h.related:
        assert HEX16.fullmatch(r.uid) and HEX16.fullmatch(r.via)
        assert r.edge in {k.value for k in RefKind}
        assert r.direction in ("in", "out")
        assert 1 <= r.depth <= 4
    assert not h.path.startswith("/"), "paths are relative to the indexed root"


SEARCHES: dict[str, tuple[str, ...]] = {
    "hybrid": ("charge",),
    "lexical-explain": ("retry failed charge", "--mode", "lexical", "--explain"),
    "symbol": ("StripeGateway", "--mode", "symbol"),
    "diffuse-depth2": ("compute_backoff", "--diffuse", "--graph-depth", "2"),
    "budget-filters": ("gateway lang:typescript -path:ts/ChargeButton.tsx", "--budget-tokens", "200"),
}


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_search_json_decodes_as_search_result(name: str, qry: RunQry) -> None:
    run = qry("search", *SEARCHES[name], "--json")
    assert run.code == 0, run.describe()
    result = decode_exact(one_line(run), SearchResult)
    assert result.query == SEARCHES[name][0]
    assert result.results
    for h in result.results:
        check_hit(h)
    meta = result.meta
    assert re.fullmatch(r"[0-9a-f]{32}", meta.root)
    assert meta.elapsed_ms >= 0 and meta.published_at > 0
    assert meta.mode in ("hybrid", "lexical", "semantic", "symbol")
    assert not meta.model_loaded, "an index without vectors never loads the model"


def test_search_json_with_options_fills_what_they_promise(qry: RunQry) -> None:
    explained = decode_exact(
        one_line(qry("search", "compute_backoff", "--json", "--explain", "-k", "2")), SearchResult
    )
    assert all(h.explain for h in explained.results)
    assert explained.results[0].kind in DEFINITION_KINDS
    graphless = decode_exact(one_line(qry("search", "compute_backoff", "--json", "--no-graph")), SearchResult)
    assert all(h.related == [] for h in graphless.results)
    budget = decode_exact(one_line(qry("search", "charge", "--json", "--budget-tokens", "60")), SearchResult)
    assert budget.meta.truncated_by_budget > 0 and len(budget.results) >= 1


def test_empty_result_is_still_a_search_result(qry: RunQry) -> None:
    run = qry("search", "charge path:no/such/dir/**", "--json")
    assert run.code == 1, run.describe()
    result = decode_exact(one_line(run), SearchResult)
    assert result.results == [] and result.meta.total_candidates == 0


def test_jsonl_lines_decode_as_hits_and_equal_json_results(qry: RunQry) -> None:
    jsonl = qry("search", "retry", "--jsonl", "-k", "5")
    json_run = qry("search", "retry", "--json", "-k", "5")
    assert jsonl.code == 0 and json_run.code == 0
    hits = [decode_exact(line, Hit) for line in jsonl.out.splitlines()]
    assert len(hits) == 5
    for h in hits:
        check_hit(h)
    as_json = decode_exact(one_line(json_run), SearchResult)
    assert [msgspec.json.encode(h) for h in hits] == [msgspec.json.encode(h) for h in as_json.results]


ERRORS: dict[str, tuple[tuple[str, ...], str]] = {
    "top-k": (("search", "charge", "--top-k", "0", "--json"), "usage"),
    "snippet": (("search", "charge", "--snippet-chars", "10", "--json"), "usage"),
    "mode": (("search", "charge", "--mode", "bogus", "--json"), "usage"),
    "lang": (("search", "charge lang:cobol", "--json"), "usage"),
    "both-formats": (("search", "charge", "--json", "--jsonl"), "usage"),
    "root": (("search", "charge", "--root", "ffffffff", "--json"), "usage"),
    "graph-read-only": (("graph", "CREATE (n)", "--json"), "read_only"),
    "related-depth": (("related", "charge", "--depth", "9", "--json"), "usage"),
    "status-root": (("status", "--root", "ffffffff", "--json"), "usage"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_object_on_stdout(name: str, qry: RunQry) -> None:
    args, code = ERRORS[name]
    run = qry(*args)
    assert run.code == 2, run.describe()
    err = decode_exact(one_line(run), ErrorObject)
    assert err.isError is True and err.code == code and err.hint
    # stdout and stderr say the same thing
    assert run.err.splitlines()[:2] == [f"qry: error: {err.error}", f"  hint: {err.hint}"], run.describe()


def test_missing_index_error_object(tmp_path: Path) -> None:
    run = run_qry_process("search", "charge", "--json", cwd=tmp_path)
    err = decode_exact(one_line(run), ErrorObject)
    assert (run.code, err.code) == (2, "index_not_found")
    assert "qry index" in err.hint


def test_status_json_decodes_as_status(qry: RunQry, repo: Path) -> None:
    st = decode_exact(one_line(qry("status", "--json")), Status)
    assert Path(st.source_root) == repo.resolve() or Path(st.source_root) == repo
    assert st.files == 25 and st.nodes == sum(st.by_kind.values()) == sum(st.by_language.values())
    assert st.changes.modified == st.changes.added == st.changes.deleted == []
    assert st.times_from in ("git", "file times")


def test_roots_related_graph_json(qry: RunQry, root_id: str) -> None:
    roots = decode_exact(one_line(qry("roots", "--json")), list[RootInfo])
    assert [r.id for r in roots] == [root_id] and roots[0].is_head
    rel = decode_exact(
        one_line(qry("related", "python/billing/gateway.py:Gateway.charge", "--json")), RelatedResult
    )
    assert rel.node is not None and rel.node.symbol == "Gateway.charge" and not rel.ambiguous
    assert {r.direction for r in rel.related} == {"in"}
    amb_run = qry("related", "charge", "--json")
    amb = decode_exact(one_line(amb_run), RelatedResult)
    assert amb_run.code == 2 and amb.ambiguous and amb.node is None and len(amb.candidates) > 1
    gq = decode_exact(
        one_line(
            qry("graph", "MATCH (f:function) RETURN f.name, f.start_line ORDER BY f.name LIMIT 3", "--json")
        ),
        GraphQueryResult,
    )
    assert gq.columns == ["f.name", "f.start_line"] and len(gq.rows) == 3 and gq.truncated
    assert all(isinstance(a, str) and isinstance(b, int) for a, b in gq.rows)
    # Milliseconds to two decimals everywhere, an empty search's and a graph query's too.
    empty = msgspec.json.decode(one_line(qry("search", "charge path:no/such/dir/**", "--json")))
    for ms in (gq.elapsed_ms, empty["meta"]["elapsed_ms"]):
        assert ms == round(ms, 2), ms


def _field_names(cls: Any) -> set[str]:
    if dataclasses.is_dataclass(cls):
        return {f.name for f in dataclasses.fields(cls)}
    return {f.name for f in msgspec.structs.fields(cls)}


@pytest.fixture(scope="module")
def scratch(fixture_copy: Callable[[str], Path]) -> tuple[Path, Run]:
    """A private copy indexed through the CLI (gc and verify may touch it)."""
    repo = fixture_copy("polyglot")
    return repo, run_qry_process("index", ".", "--embed", "none", "--json", cwd=repo)


def test_index_json_report(scratch: tuple[Path, Run]) -> None:
    from indexlib.index.build import BuildReport

    repo, run = scratch
    assert run.code == 0 and run.err == "", run.describe()
    report = msgspec.json.decode(one_line(run), strict=True)
    assert set(report) == _field_names(BuildReport) | {"elapsed"}
    assert report["published"] is True and report["files"] == report["added"] == 25
    assert isinstance(report["elapsed"], float) and report["index_dir"] == str(repo / ".qry")


def test_gc_and_verify_json(scratch: tuple[Path, Run]) -> None:
    repo, _ = scratch
    verify = run_qry_process("verify", "--json", cwd=repo)
    assert verify.code == 0 and decode_exact(one_line(verify), VerifyReport) == VerifyReport(
        ok=True, problems=[]
    )
    gc = run_qry_process("gc", "--json", cwd=repo)
    report = decode_exact(one_line(gc), GcReport)
    assert gc.code == 0 and len(report.kept_roots) == 1 and report.removed_segments == []
