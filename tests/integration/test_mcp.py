"""`qry mcp` end to end: the SDK's own stdio client drives a real server process over a real index.

The server runs as `python -m cli.main mcp --index-dir ...` over a copy of fixtures/polyglot indexed
without vectors. One server process serves the module (an anyio blocking portal keeps the client
session open between tests), so the tests also prove the connection survives errors. The per-call
limits (wall clock, calls in flight) and the failure paths are checked in process on `QryTools`, with
small limits and functions that block on events, never on timings.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

import anyio  # after the skip: anyio comes with the mcp extra
import anyio.to_thread
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import ClientSession, StdioServerParameters, stdio_client

from cli.mcp_tools import Limits, QryTools
from indexlib import BuildOptions, build_index

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {"search", "grep", "resolve_symbol", "get_related", "query_graph", "index_status", "reindex", "route"}


@dataclass
class Server:
    """A live client session to one `qry mcp` process, callable from synchronous tests."""

    portal: BlockingPortal
    session: ClientSession
    repo: Path
    index_dir: Path

    def call(self, tool: str, args: dict[str, Any] | None = None) -> tuple[bool, Any]:
        """Call a tool; returns (isError, the decoded JSON of its text content)."""
        res = self.portal.call(self.session.call_tool, tool, args or {})
        assert len(res.content) == 1 and res.content[0].type == "text"
        text = res.content[0].text
        try:
            return bool(res.is_error), json.loads(text)
        except json.JSONDecodeError:
            return bool(res.is_error), text  # the SDK's own argument-validation message

    def ok(self, tool: str, args: dict[str, Any] | None = None) -> Any:
        is_error, data = self.call(tool, args)
        assert not is_error, data
        return data

    def error(self, tool: str, args: dict[str, Any] | None = None) -> Any:
        is_error, data = self.call(tool, args)
        assert is_error, data
        return data


@contextmanager
def _start(index_dir: Path, errlog: Path) -> Iterator[tuple[BlockingPortal, ClientSession]]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "cli.main", "mcp", "--index-dir", str(index_dir)], cwd=str(ROOT)
    )
    with (
        errlog.open("w") as log,
        start_blocking_portal() as portal,
        portal.wrap_async_context_manager(stdio_client(params, errlog=log)) as (read, write),
        portal.wrap_async_context_manager(ClientSession(read, write)) as session,
    ):
        portal.call(session.initialize)
        yield portal, session


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, fixture_copy: Callable[[str], Path]) -> Iterator[Server]:
    repo = fixture_copy("polyglot")
    index_dir = tmp_path_factory.mktemp("mcp") / "index"
    build_index(repo, BuildOptions(embed="none", index_dir=index_dir))
    with _start(index_dir, index_dir.parent / "server.log") as (portal, session):
        yield Server(portal, session, repo, index_dir)


# -- the protocol surface ----------------------------------------------------------------------------


def test_lists_eight_tools_with_schemas_and_descriptions(server: Server) -> None:
    tools = {t.name: t for t in server.portal.call(server.session.list_tools).tools}
    assert set(tools) == TOOLS
    for t in tools.values():
        assert t.description and len(t.description) > 80, t.name
        assert t.input_schema["type"] == "object"
    props = tools["search"].input_schema["properties"]
    assert {
        "query",
        "top_k",
        "mode",
        "lang",
        "path",
        "kind",
        "snippet_chars",
        "budget_tokens",
        "since",
    } <= set(props)
    assert tools["search"].input_schema["required"] == ["query"]
    assert props["top_k"]["maximum"] == 100 and props["top_k"]["default"] == 10
    assert (props["snippet_chars"]["minimum"], props["snippet_chars"]["maximum"]) == (80, 4000)
    assert props["mode"]["enum"] == ["hybrid", "lexical", "semantic", "symbol"]
    assert tools["get_related"].input_schema["properties"]["depth"]["maximum"] == 4
    assert {"symbol", "callers", "callees", "depth", "repo", "limit"} == set(
        tools["get_related"].input_schema["properties"]
    )
    assert {"query", "params", "repo"} == set(tools["query_graph"].input_schema["properties"])
    assert tools["search"].annotations is not None and tools["search"].annotations.read_only_hint
    assert tools["reindex"].annotations is not None and not tools["reindex"].annotations.read_only_hint


def test_descriptions_name_what_an_agent_acts_on(server: Server) -> None:
    """A model calls from the descriptions alone: query_graph's listed every node label but `type`,
    `constant` and `field` (the profile accepts them), search's hit fields left out `line` (the line to
    open, as `path:line:` prints it), and budget_tokens advertised no range while the others do."""
    from indexlib.graph.query.profile import NODE_LABELS

    tools = {t.name: t for t in server.portal.call(server.session.list_tools).tools}
    graph = tools["query_graph"].description or ""
    labels = re.search(r"Node labels: ([^.]*)\.", graph)
    assert labels is not None, graph
    named = {w.strip().split(" ")[0] for w in labels.group(1).replace("\n", " ").split(",")}
    assert named == set(NODE_LABELS), named ^ set(NODE_LABELS)
    assert re.search(r"\bline\b", (tools["search"].description or "").split("Returns", 1)[1])
    assert re.search(r"\bline\b", (tools["get_related"].description or "").split("Returns", 1)[1])
    budget = tools["search"].input_schema["properties"]["budget_tokens"]
    assert (budget["minimum"], budget["maximum"]) == (100, 100_000), budget


# -- each tool answers for real ----------------------------------------------------------------------


def test_search_finds_the_python_definition(server: Server) -> None:
    data = server.ok("search", {"query": "retry_failed_charge", "lang": ["python"], "top_k": 5})
    top = data["results"][0]
    assert top["path"] == "python/billing/retry.py" and top["symbol"] == "retry_failed_charge"
    assert top["kind"] == "function" and "def retry_failed_charge" in top["snippet"]["text"]
    assert any(r["symbol"] == "parse_config" and r["direction"] == "out" for r in top["related"])  # graph on
    assert data["meta"]["root"] and data["meta"]["mode"] == "hybrid"
    assert len(data["results"]) <= 5


def test_search_json_is_the_libraries_result(server: Server) -> None:
    """Same schema as `qry search --json`: the SearchResult Struct decodes it strictly."""
    import msgspec

    from indexlib import SearchResult

    _err, raw = server.call("search", {"query": "parse config", "kind": "function", "path": "python/**"})
    res = msgspec.json.decode(json.dumps(raw).encode(), type=SearchResult)
    assert res.results and all(h.kind == "function" and h.path.startswith("python/") for h in res.results)


def test_search_budget_packs_whole_results_and_reports_the_rest(server: Server) -> None:
    full = server.ok("search", {"query": "charge", "top_k": 20})
    packed = server.ok("search", {"query": "charge", "top_k": 20, "budget_tokens": 400})
    assert 0 < len(packed["results"]) < len(full["results"])
    assert packed["meta"]["truncated_by_budget"] == len(full["results"]) - len(packed["results"])
    assert full["meta"]["truncated_by_budget"] == 0
    by_uid = {h["uid"]: h for h in full["results"]}
    for h in packed["results"]:  # kept whole, never cut
        assert h["snippet"]["text"] == by_uid[h["uid"]]["snippet"]["text"]


def test_search_since_and_snippet_chars(server: Server) -> None:
    data = server.ok("search", {"query": "retry_failed_charge", "since": "2000-01-01", "snippet_chars": 80})
    assert data["results"] and all(len(h["snippet"]["text"]) <= 200 for h in data["results"])
    assert server.ok("search", {"query": "retry_failed_charge", "since": "now"})["results"] == []


def test_grep_is_exhaustive_and_bounded(server: Server) -> None:
    import msgspec

    from indexlib import GrepResult

    data = server.ok("grep", {"pattern": "charge", "ignore_case": True})
    result = msgspec.convert(data, GrepResult, strict=False)
    assert result.lines and not result.summary.truncated and result.summary.index_used
    assert all("charge" in ln.text.lower() for ln in result.lines)
    assert len({ln.path for ln in result.lines}) > 1
    first = server.ok("grep", {"pattern": "charge", "ignore_case": True, "max_lines": 1})
    assert first["summary"]["truncated"] and first["lines"] == data["lines"][:1]  # a prefix of the answer
    assert (first["summary"]["lines_matched"], first["summary"]["files_matched"]) == (1, 1)  # what it holds
    assert result.summary.lines_matched == len(result.lines) > 1
    small = server.ok("grep", {"pattern": "charge", "ignore_case": True, "max_bytes": 10})
    assert small["summary"]["truncated"] and small["lines"] == []
    assert (small["summary"]["lines_matched"], small["summary"]["files_matched"]) == (0, 0)
    py = server.ok("grep", {"pattern": "def ", "lang": "python", "glob": "!**/tests/**"})
    assert py["lines"] and all(ln["path"].endswith(".py") for ln in py["lines"])
    err = server.error("grep", {"pattern": "charge", "max_lines": 5000})
    assert err["code"] == "bound" and "max_lines must be between 1 and 2000" in err["error"]
    bad = server.error("grep", {"pattern": "a("})
    assert bad["error"].startswith("invalid regular expression")
    # the trial: the hint said qry grep's `-F`, which an agent cannot pass; it names the argument
    assert "fixed=true" in bad["hint"] and "-F" not in bad["hint"], bad


def test_grep_time_bound_truncates(server: Server) -> None:
    tools = QryTools(server.index_dir, Limits(grep_seconds=0.0))
    out = tools.grep("e")
    assert out["summary"]["truncated"] and out["summary"]["files_matched"] == 1


def test_search_with_since_and_no_result_says_what_the_window_keeps(server: Server) -> None:
    """Walkthrough section 20: MCP said only "no result: ... function words ..."; the CLI said how
    much of the index the time window keeps. Both now get the library's note."""
    data = server.ok("search", {"query": "charge", "since": "2099-01-01"})
    assert data["results"] == []
    # in the tool's own words: `since` is its parameter, `--since` the CLI's
    assert "no indexed file changed within since='2099-01-01'" in data["meta"]["notes"], data["meta"]


def test_resolve_symbol(server: Server) -> None:
    data = server.ok("resolve_symbol", {"name": "retry_failed_charge"})
    paths = {d["path"] for d in data["definitions"]}
    assert "python/billing/retry.py" in paths and "rust/src/retry.rs" in paths
    assert all(d["match"] in ("exact", "joined", "qualified", "fuzzy") for d in data["definitions"])
    assert server.ok("resolve_symbol", {"name": "no_such_symbol_xyz"})["definitions"] == []


def test_get_related_by_uid_and_ambiguity(server: Server) -> None:
    amb = server.ok("get_related", {"symbol": "retry_failed_charge"})
    assert amb["ambiguous"] and amb["node"] is None and "uid" in amb["hint"]
    py = next(c for c in amb["candidates"] if c["path"] == "python/billing/retry.py")
    data = server.ok("get_related", {"symbol": py["uid"], "callers": False, "depth": 2})
    assert data["node"]["path"] == "python/billing/retry.py"
    callees = {r["symbol"] for r in data["related"] if r["direction"] == "out"}
    assert "parse_config" in callees
    assert not any(r["direction"] == "in" and r["edge"] == "calls" for r in data["related"])


def test_query_graph_with_params(server: Server) -> None:
    data = server.ok(
        "query_graph",
        {
            "query": "MATCH (f:function {name: $name})-[:calls]->(g) RETURN DISTINCT g.name ORDER BY g.name",
            "params": {"name": "retry_failed_charge"},
        },
    )
    assert data["columns"] == ["g.name"]
    assert ["parse_config"] in data["rows"]


def test_index_status(server: Server) -> None:
    data = server.ok("index_status")
    assert data["files"] >= 20 and data["nodes"] > 50
    assert data["by_language"]["python"] > 0 and data["model"] is None and data["vectors"] == 0
    assert data["index_dir"] == str(server.index_dir.resolve())
    assert {"modified_count", "added_count", "deleted_count"} <= set(data["changes"])


# -- bounds and errors: isError results, and the connection stays up -------------------------------


def test_top_k_over_the_bound_is_a_tool_error_naming_it(server: Server) -> None:
    err = server.error("search", {"query": "charge", "top_k": 1000})
    assert err["code"] == "bound" and "top_k" in err["error"] and "100" in err["error"]
    assert "top_k" in err["hint"]
    assert server.ok("search", {"query": "charge", "top_k": 100})["results"]  # still connected


def test_snippet_chars_and_budget_bounds(server: Server) -> None:
    for args, name in [
        ({"snippet_chars": 10}, "snippet_chars"),
        ({"snippet_chars": 5000}, "snippet_chars"),
        ({"budget_tokens": 5}, "budget_tokens"),
        ({"top_k": 0}, "top_k"),
    ]:
        err = server.error("search", {"query": "charge", **args})
        assert err["code"] == "bound" and name in err["error"], err


def test_depth_over_the_bound(server: Server) -> None:
    rows = server.error("get_related", {"symbol": "parse_config", "limit": 500})
    assert rows["code"] == "bound" and "limit" in rows["error"] and "200" in rows["error"], rows
    err = server.error("get_related", {"symbol": "parse_config", "depth": 9})
    assert err["code"] == "bound" and "depth" in err["error"] and "4" in err["error"]
    assert server.ok("resolve_symbol", {"name": "parse_config"})["definitions"]


def test_graph_write_is_rejected_with_the_rule(server: Server) -> None:
    err = server.error("query_graph", {"query": "CREATE (n:function {name: 'x'}) RETURN n"})
    assert err["code"] == "read_only" and "CREATE" in err["error"] and err["hint"]
    err = server.error("query_graph", {"query": "MATCH (a)-[:calls*]->(b) RETURN b LIMIT 5"})
    assert err["code"] == "unbounded_length" and err["hint"]
    err = server.error("query_graph", {"query": "MATCH (a)-[:teaches]->(b) RETURN b"})
    assert err["code"] == "unknown_relationship" and "teaches" in err["error"]
    assert server.ok("query_graph", {"query": "MATCH (f:function) RETURN count(f)"})["rows"]


def test_bad_arguments_and_library_errors_are_tool_errors(server: Server) -> None:
    is_error, text = server.call("search", {"query": "charge", "mode": "telepathy"})
    assert is_error and "mode" in str(text)
    err = server.error("search", {"query": "charge", "mode": "semantic"})  # no vectors in this index
    assert "vectors" in err["error"] and err["hint"]
    err = server.error("search", {"query": "charge", "since": "the day before the flood"})
    assert err["code"] == "usage" and "date" in err["error"]
    err = server.error("search", {"query": "   "})
    assert err["code"] == "usage"
    # Exclusions alone ask for nothing: an error to correct, not an empty answer.
    err = server.error("search", {"query": "-charge"})
    assert err["code"] == "usage" and "nothing to search for" in err["error"], err
    assert "qry search" not in err["hint"] and "add what to look for" in err["hint"], err
    # Filters alone list what they admit, in file order.
    listed = server.ok("search", {"query": "lang:python kind:class"})["results"]
    assert listed and all(h["language"] == "python" and h["kind"] == "class" for h in listed), listed
    assert [(h["path"], h["start_line"]) for h in listed] == sorted(
        (h["path"], h["start_line"]) for h in listed
    )
    is_error, text = server.call("no_such_tool", {})
    assert is_error
    assert server.ok("index_status")["files"] > 0


def test_an_argument_the_tool_does_not_take_is_an_error_naming_the_nearest(server: Server) -> None:
    """The SDK drops unknown arguments and answers as if they were not sent (`top-k: 1` gave ten
    hits): the call is refused, naming the argument, the nearest one and all the tool takes."""
    err = server.error("search", {"query": "charge", "top-k": 1})
    assert err["code"] == "usage" and "'top-k'" in err["error"]
    assert err["hint"].startswith("did you mean 'top_k'?") and "snippet_chars" in err["hint"]
    err = server.error("get_related", {"symbol": "charge", "caller": True, "depht": 2})
    assert "'caller', 'depht'" in err["error"] and "callers" in err["hint"]
    assert server.ok("search", {"query": "charge", "top_k": 1})["results"]


# -- answers come from the newest root, without a restart --------------------------------------------


def test_reindex_then_search_finds_the_new_file(server: Server) -> None:
    assert server.ok("search", {"query": "reconcile_ledger_entries"})["results"] == []
    (server.repo / "python" / "billing" / "ledger.py").write_text(
        'def reconcile_ledger_entries(entries):\n    """Match ledger entries to charges."""\n    return entries\n'
    )
    status = server.ok("index_status")
    assert "python/billing/ledger.py" in status["changes"]["added"]
    report = server.ok("reindex")
    assert report["published"] and report["added"] == 1 and report["embed"] == "none"
    assert report["source_root"] == str(server.repo.resolve())
    hits = server.ok("search", {"query": "reconcile_ledger_entries"})["results"]
    assert hits[0]["path"] == "python/billing/ledger.py"
    assert server.ok("reindex")["published"] is False  # nothing changed since


def test_an_index_built_elsewhere_is_seen_at_once(server: Server) -> None:
    """A `qry index` run in a shell publishes a root; the running server answers from it."""
    before = server.ok("index_status")["root"]
    (server.repo / "go" / "billing" / "refund.go").write_text(
        "package billing\n\n// IssueRefundVoucher refunds a charge.\nfunc IssueRefundVoucher(id string) error {\n"
        "\treturn nil\n}\n"
    )
    build_index(server.repo, BuildOptions(embed="none", index_dir=server.index_dir))
    data = server.ok("search", {"query": "IssueRefundVoucher"})
    assert data["results"][0]["path"] == "go/billing/refund.go"
    assert data["meta"]["root"] != before


# -- limits around a call (in process: QryTools without a transport) ---------------------------------


def test_wall_clock_limit_returns_an_error_and_the_slot_is_held_until_the_work_ends(tmp_path: Path) -> None:
    tools = QryTools(tmp_path, Limits(timeouts={"search": 0.05}, in_flight=1, admission_wait=0.0))
    release = threading.Event()

    async def scenario() -> tuple[tuple[bool, str], tuple[bool, str]]:
        first = await tools.call("search", lambda: release.wait(30))
        busy = await tools.call("search", lambda: "never runs")  # the runaway call still holds the slot
        return first, busy

    first, busy = anyio.run(scenario)
    assert (
        first[0] and json.loads(first[1])["code"] == "timeout" and "search" in json.loads(first[1])["error"]
    )
    assert busy[0] and json.loads(busy[1])["code"] == "busy"
    assert json.loads(busy[1])["error"].startswith("server busy: 1 call already in flight ")  # not "1 calls"
    release.set()
    for _ in range(1000):  # the worker thread releases its slot when it ends
        if tools.running == 0:
            break
        threading.Event().wait(0.01)
    assert anyio.run(tools.call, "search", lambda: {"ok": 1}) == (False, '{"ok":1}')


def test_calls_beyond_in_flight_wait_for_a_slot(tmp_path: Path) -> None:
    tools = QryTools(tmp_path, Limits(in_flight=2, admission_wait=30.0))
    gate = threading.Event()
    started = threading.Semaphore(0)
    results: list[tuple[bool, str]] = []

    def slow(i: int) -> int:
        started.release()
        gate.wait(30)
        return i

    async def scenario() -> None:
        async def one(i: int) -> None:
            results.append(await tools.call("search", lambda: slow(i)))

        async with anyio.create_task_group() as tg:
            for i in range(3):
                tg.start_soon(one, i)
            await anyio.to_thread.run_sync(started.acquire)
            await anyio.to_thread.run_sync(started.acquire)
            assert tools.running == 2  # the third waits for a slot
            gate.set()

    anyio.run(scenario)
    assert sorted(results) == [(False, "0"), (False, "1"), (False, "2")]


def test_a_crash_is_an_internal_error_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tools = QryTools(tmp_path)

    def boom() -> None:
        raise ZeroDivisionError("division by zero")

    is_error, text = anyio.run(tools.call, "search", boom)
    err = json.loads(text)
    assert is_error and err["code"] == "internal" and "ZeroDivisionError" in err["error"]
    assert "ZeroDivisionError" in capsys.readouterr().err  # the traceback goes to the server's stderr


@pytest.mark.model
def test_missing_index_is_reported_per_call_and_reindex_creates_it(
    tmp_path: Path, fixture_copy: Callable[[str], Path]
) -> None:
    repo = fixture_copy("polyglot")
    tools = QryTools(repo / ".qry")
    is_error, text = anyio.run(tools.call, "search", lambda: tools.search("charge"))
    assert is_error and json.loads(text)["code"] == "index_not_found"
    is_error, text = anyio.run(tools.call, "reindex", tools.reindex)
    report = json.loads(text)
    assert not is_error and report["published"], text
    # As `qry index` builds: with vectors (embedded now, or served by the session's shared vector
    # cache when an earlier test embedded the same fixture).
    assert report["embed"] == "onnx" and report["embedded"] + report["embed_cached"] > 0, text
    assert (
        tools.search("retry_failed_charge", lang="python")["results"][0]["path"] == "python/billing/retry.py"
    )
    shutil.rmtree(repo)


@pytest.mark.model
def test_without_any_index_the_server_starts_and_reindex_builds_one(
    tmp_path: Path, fixture_copy: Callable[[str], Path]
) -> None:
    """Issue 12: `qry mcp` with no --index-dir where no index exists used to exit 2 at start-up (the
    client only saw "connection closed"); it serves, tools answer index_not_found, reindex builds ./.qry."""
    repo = fixture_copy("polyglot")
    params = StdioServerParameters(command=sys.executable, args=["-m", "cli.main", "mcp"], cwd=str(repo))
    with (
        (tmp_path / "server.log").open("w") as log,
        start_blocking_portal() as portal,
        portal.wrap_async_context_manager(stdio_client(params, errlog=log)) as (read, write),
        portal.wrap_async_context_manager(ClientSession(read, write)) as session,
    ):
        portal.call(session.initialize)
        srv = Server(portal, session, repo, repo / ".qry")
        assert srv.error("search", {"query": "charge"})["code"] == "index_not_found"
        report = srv.ok("reindex")
        # Vectors may come from the user-level shared cache (the server's environment is the SDK's
        # minimal one, so it sees the real cache): embedded or cached, every node gets one.
        assert report["published"] and report["embed"] == "onnx", report
        assert report["embedded"] + report["embed_cached"] > 0, report
        assert (repo / ".qry" / "HEAD").is_file()
        assert srv.ok("index_status")["vectors"] > 0
        assert srv.ok("search", {"query": "retry_failed_charge"})["results"]
    shutil.rmtree(repo)


# -- with the real model ------------------------------------------------------------------------------


@pytest.mark.model
def test_semantic_search_and_reindex_keep_the_model(polyglot_onnx: Path, tmp_path: Path) -> None:
    with _start(polyglot_onnx / ".qry", tmp_path / "server.log") as (portal, session):
        srv = Server(portal, session, polyglot_onnx, polyglot_onnx / ".qry")
        data = srv.ok("search", {"query": "give up after too many declined payments", "mode": "semantic"})
        assert data["results"] and data["meta"]["model_loaded"]
        assert srv.ok("index_status")["vectors"] > 0
        report = srv.ok("reindex")
        assert report["embed"] == "onnx" and report["published"] is False
        again = srv.ok("search", {"query": "where are failed charges retried", "top_k": 5})
        assert any("retry" in h["path"] for h in again["results"])


def test_without_the_mcp_extra_the_command_says_what_to_install(tmp_path: Path) -> None:
    import subprocess

    code = (
        "import runpy, sys; sys.modules['mcp'] = None; "
        f"sys.argv = ['qry', 'mcp', '--index-dir', {str(tmp_path)!r}]; "
        "runpy.run_module('cli.main', run_name='__main__')"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 2, proc.stderr
    # A source checkout: the extra of this checkout, never `qry[mcp]` (an unrelated project on PyPI).
    assert "qry: error:" in proc.stderr and f"pip install -e '{ROOT}[mcp]'" in proc.stderr, proc.stderr
    assert not re.search(r"(?<![/\w-])qry\[mcp\]", proc.stderr)  # the checkout's path may end in /qry
    assert proc.stdout == ""
