"""Unit tests of indexlib/graph/query.py: the bounded openCypher profile over a MemoryGraph."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexlib.errors import GraphQueryError, QryError
from indexlib.graph.expand import GraphNode, uid_hex
from indexlib.graph.query import (
    GraphQuery,
    Param,
    parse_graph_query,
    run_graph_query,
    validate,
)
from indexlib.records import Edge
from tests.graphkit import MemoryGraph

INJECTION = "x'}) DETACH DELETE n //"


class Code:
    """A small billing code base: calls, imports, a class with members."""

    def __init__(self) -> None:
        self.graph = MemoryGraph()
        self.uid: dict[str, int] = {}

    def add(self, qname: str, kind: str, path: str, line: int, parent: str = "", signature: str = "") -> None:
        uid = 0x1000 + len(self.uid)
        self.uid[qname] = uid
        self.graph.add_node(
            GraphNode(
                uid=uid,
                kind=kind,
                name=qname.rsplit(".", 1)[-1],
                qualified_name=qname,
                path=path,
                language="python",
                start_line=line,
                end_line=line + 9,
                signature=signature,
                parent_uid=self.uid[parent] if parent else 0,
            )
        )

    def edge(self, src: str, dst: str, kind: str = "calls", line: int = 1, ambiguous: bool = False) -> None:
        self.graph.add_edge(
            Edge(src=self.uid[src], dst=self.uid[dst], kind=kind, line=line, ambiguous=ambiguous)
        )


@pytest.fixture()
def code() -> Code:
    c = Code()
    c.add("billing.pay", "module", "billing/pay.py", 1)
    c.add("billing.retry", "module", "billing/retry.py", 1)
    c.add("billing.pay.charge", "function", "billing/pay.py", 10, signature="def charge(amount)")
    c.add("billing.pay.log", "function", "billing/pay.py", 30)
    c.add("billing.retry.RetryPolicy", "class", "billing/retry.py", 5)
    c.add(
        "billing.retry.RetryPolicy.should_retry",
        "method",
        "billing/retry.py",
        8,
        parent="billing.retry.RetryPolicy",
    )
    c.add("billing.retry.retry_charge", "function", "billing/retry.py", 20)
    c.add("billing.hooks.handle_webhook", "function", "billing/hooks.py", 3)
    c.add("app.main.main", "function", "app/main.py", 1)
    c.add(INJECTION, "function", "weird.py", 1)
    c.edge("billing.retry.retry_charge", "billing.pay.charge", line=22)
    c.edge("billing.retry.retry_charge", "billing.retry.RetryPolicy.should_retry", line=21)
    c.edge("billing.retry.retry_charge", "billing.pay.log", line=25, ambiguous=True)
    c.edge("billing.pay.charge", "billing.pay.log", line=12)
    c.edge("billing.hooks.handle_webhook", "billing.retry.retry_charge", line=4)
    c.edge("app.main.main", "billing.hooks.handle_webhook", line=2)
    c.edge("billing.retry", "billing.pay", kind="imports", line=1)
    return c


def run(
    code: Code, text: str, params: Mapping[str, object] | None = None, **kw: object
) -> list[list[object]]:
    return run_graph_query(code.graph, text, params or {}, **kw).rows  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------------
# The documented example and the basics


def test_the_example_query_returns_callers_up_to_two_hops(code: Code) -> None:
    res = run_graph_query(
        code.graph,
        "MATCH (f:function {name: $name})<-[:calls*1..2]-(g) RETURN g.qualified_name, g.path LIMIT 20",
        {"name": "charge"},
    )
    assert res.columns == ["g.qualified_name", "g.path"]
    assert res.rows == [
        ["billing.retry.retry_charge", "billing/retry.py"],
        ["billing.hooks.handle_webhook", "billing/hooks.py"],
    ]
    assert res.truncated is False
    assert res.elapsed_ms >= 0.0


def test_nodes_come_back_as_property_dicts_with_hex_uids(code: Code) -> None:
    rows = run(code, "MATCH (f:function {name: 'charge'}) RETURN f")
    assert rows == [
        [
            {
                "uid": uid_hex(code.uid["billing.pay.charge"]),
                "name": "charge",
                "qualified_name": "billing.pay.charge",
                "kind": "function",
                "path": "billing/pay.py",
                "language": "python",
                "start_line": 10,
                "end_line": 19,
                "signature": "def charge(amount)",
            }
        ]
    ]
    uid = uid_hex(code.uid["billing.pay.log"])
    assert run(code, "MATCH (n {uid: $u}) RETURN n.name", {"u": uid}) == [["log"]]
    assert run(code, "MATCH (n) WHERE n.uid = $u RETURN n.name", {"u": uid}) == [["log"]]
    assert run(code, "MATCH (n {uid: 'not-hex'}) RETURN n.name") == []


def test_keywords_labels_and_types_are_case_insensitive(code: Code) -> None:
    rows = run(
        code, "match (F:Function {name: 'charge'})<-[:CALLS]-(g) return g.name as Caller order by Caller"
    )
    assert rows == [["retry_charge"]]


def test_relationship_variables_directions_and_alternation(code: Code) -> None:
    rows = run(
        code,
        "MATCH (a:function {name: 'retry_charge'})-[r:calls]->(b) RETURN b.name, r.line, r.ambiguous, type(r) "
        "ORDER BY r.line",
    )
    assert rows == [
        ["should_retry", 21, False, "calls"],
        ["charge", 22, False, "calls"],
        ["log", 25, True, "calls"],
    ]
    undirected = run(code, "MATCH (a {name: 'charge'})-[:calls]-(b) RETURN b.name ORDER BY b.name")
    assert undirected == [["log"], ["retry_charge"]]
    both = run(code, "MATCH (a)-[:calls|imports]->(b:module) RETURN a.qualified_name, b.qualified_name")
    assert both == [["billing.retry", "billing.pay"]]
    anytype = run(code, "MATCH (a {name: 'retry'})-->(b) RETURN b.name")
    assert anytype == [["pay"]]
    edge = run(code, "MATCH (:module)-[r:imports]->(:module) RETURN r")[0][0]
    assert edge == {
        "kind": "imports",
        "src": uid_hex(code.uid["billing.retry"]),
        "dst": uid_hex(code.uid["billing.pay"]),
        "line": 1,
        "ambiguous": False,
    }
    assert run(code, "MATCH (a)-[r:calls {ambiguous: true}]->(b) RETURN a.name, b.name") == [
        ["retry_charge", "log"]
    ]


def test_contains_edges_follow_parent_uid(code: Code) -> None:
    rows = run(code, "MATCH (k:class)-[:contains]->(m:method) RETURN k.name, m.name")
    assert rows == [["RetryPolicy", "should_retry"]]


def test_variable_length_forms(code: Code) -> None:
    q = "MATCH (m:function {name: 'main'})-[:calls{}]->(x) RETURN x.name"
    assert run(code, q.replace("{}", "*2")) == [["retry_charge"]]
    assert run(code, q.replace("{}", "*..2")) == [["handle_webhook"], ["retry_charge"]]
    assert run(code, q.replace("{}", "*0..1")) == [["main"], ["handle_webhook"]]
    four = run(code, q.replace("{}", "*1..4") + " ORDER BY x.name")
    assert four == [["charge"], ["handle_webhook"], ["log"], ["log"], ["retry_charge"], ["should_retry"]]
    # One row per path: log is reached through charge and directly from retry_charge.
    paths = run(code, "MATCH (r {name: 'retry_charge'})-[:calls*1..2]->(x {name: 'log'}) RETURN x.name")
    assert paths == [["log"], ["log"]]
    lists = run(code, "MATCH ({name: 'main'})-[p:calls*2]->(x) RETURN p")
    assert [[e["line"] for e in lists[0][0]]] == [[2, 4]]


def test_relationships_are_unique_within_a_match(code: Code) -> None:
    # Two different edges into log: c can be charge, but never the same edge twice (a = c).
    rows = run(
        code, "MATCH (a)-[:calls]->(l {name: 'log'})<-[:calls]-(c) RETURN a.name, c.name ORDER BY a.name"
    )
    assert rows == [["charge", "retry_charge"], ["retry_charge", "charge"]]


def test_comma_separated_paths_and_several_match_clauses(code: Code) -> None:
    rows = run(code, "MATCH (a {name: 'retry_charge'}), (b {name: 'charge'}) RETURN a.path, b.path")
    assert rows == [["billing/retry.py", "billing/pay.py"]]
    rows = run(code, "MATCH (a {name: 'main'}) MATCH (a)-[:calls]->(b) RETURN b.name")
    assert rows == [["handle_webhook"]]
    cyc = run(code, "MATCH (a)-[:calls]->(b), (b)-[:calls]->(a) RETURN a.name")
    assert cyc == []


def test_where_operators(code: Code) -> None:
    def names(where: str, params: Mapping[str, object] | None = None) -> list[object]:
        return [
            r[0] for r in run(code, f"MATCH (n:function) WHERE {where} RETURN n.name ORDER BY n.name", params)
        ]

    assert names("n.name STARTS WITH 'retry'") == ["retry_charge"]
    assert names("n.name ENDS WITH 'charge'") == ["charge", "retry_charge"]
    assert names("n.qualified_name CONTAINS '.pay.'") == ["charge", "log"]
    assert names("n.name IN ['log', 'main', 42]") == ["log", "main"]
    assert names("n.name IN $names", {"names": ["log"]}) == ["log"]
    assert names("n.path = 'billing/pay.py' AND NOT n.name = 'log'") == ["charge"]
    assert names("(n.name = 'log' OR n.name = 'main') AND n.start_line < 5") == ["main"]
    assert names("n.start_line >= 20 AND n.start_line <= 30") == ["log", "retry_charge"]
    assert names("n.start_line > 25 OR n.name <> n.name") == ["log"]
    assert names("n.signature <> '' ") == ["charge"]
    assert names("n.name = 1 OR n.start_line = 'x'") == []  # no cross-type equality
    assert names("n.start_line < -1") == []


def test_null_semantics_and_is_null(code: Code) -> None:
    q = "MATCH (f:function) OPTIONAL MATCH (f)<-[:calls]-(c) RETURN f.name, c.name ORDER BY f.name, c.name"
    rows = run(code, q)
    assert rows[-1] == [INJECTION, None]
    assert ["main", None] in rows and ["charge", "retry_charge"] in rows
    orphans = run(
        code,
        "MATCH (f:function) OPTIONAL MATCH (f)<-[:calls]-(c) MATCH (x {name: 'log'}) WHERE c IS NULL "
        "RETURN f.name ORDER BY f.name",
    )
    assert orphans == [["main"], [INJECTION]]
    # A MATCH on a variable bound to null by OPTIONAL MATCH drops the row.
    assert run(code, "OPTIONAL MATCH (z {name: 'nope'}) MATCH (z)-->(y) RETURN y") == []
    # OPTIONAL MATCH's own WHERE filters the optional part, not the row.
    rows = run(
        code,
        "MATCH (f {name: 'charge'}) OPTIONAL MATCH (f)<-[:calls]-(c) WHERE c.name = 'nobody' RETURN f.name, c",
    )
    assert rows == [["charge", None]]


def test_optional_match_first_and_null_comparisons(code: Code) -> None:
    assert run(code, "OPTIONAL MATCH (z {name: 'nope'}) RETURN z, z.name") == [[None, None]]
    assert run(code, "MATCH (n {name: 'charge'}) WHERE NOT (n.name = null) RETURN n.name") == []
    assert run(code, "MATCH (n {name: 'charge'}) WHERE n.name = null OR true RETURN n.name") == [["charge"]]
    assert run(code, "MATCH (n {name: 'charge'}) WHERE n.signature IS NOT NULL RETURN n.name") == [["charge"]]


def test_order_by_skip_limit(code: Code) -> None:
    base = "MATCH (n:function) RETURN n.name AS name ORDER BY name DESC"
    all_rows = [r[0] for r in run(code, base)]
    assert all_rows == sorted(all_rows, reverse=True)
    assert run(code, base + " SKIP 1 LIMIT 2") == [[all_rows[1]], [all_rows[2]]]
    assert run(code, base + " SKIP $s LIMIT $l", {"s": 2, "l": 1}) == [[all_rows[2]]]
    by_two = run(
        code, "MATCH (n:function) RETURN n.path, n.name ORDER BY n.path ASC, n.start_line DESC LIMIT 3"
    )
    assert by_two == [
        ["app/main.py", "main"],
        ["billing/hooks.py", "handle_webhook"],
        ["billing/pay.py", "log"],
    ]
    # ORDER BY an expression that is not returned (no DISTINCT, no count): evaluated on the match.
    assert run(code, "MATCH (n:function) RETURN n.name ORDER BY n.start_line DESC LIMIT 1") == [["log"]]


def test_count_distinct_and_grouping(code: Code) -> None:
    assert run(code, "MATCH (n:function) RETURN count(*)") == [[6]]
    assert run(code, "MATCH (n:function {name: 'nope'}) RETURN count(*) AS n") == [[0]]
    rows = run(
        code,
        "MATCH (a)-[:calls]->(b) RETURN b.name AS callee, count(*) AS callers ORDER BY callers DESC, callee",
    )
    assert rows == [
        ["log", 2],
        ["charge", 1],
        ["handle_webhook", 1],
        ["retry_charge", 1],
        ["should_retry", 1],
    ]
    assert run(code, "MATCH (a)-[:calls]->(b) RETURN count(DISTINCT a), count(a)") == [[4, 6]]
    assert run(code, "MATCH (f:function) OPTIONAL MATCH (f)<-[:calls]-(c) RETURN count(c)") == [[5]]
    paths = run(code, "MATCH (a)-[:calls]->(b) RETURN DISTINCT a.path ORDER BY a.path")
    assert paths == [["app/main.py"], ["billing/hooks.py"], ["billing/pay.py"], ["billing/retry.py"]]
    # Without ORDER BY, rows come in start-node uid order; DISTINCT stops once it has enough.
    first_two = run(code, "MATCH (a)-[:calls]->(b) RETURN DISTINCT a.path LIMIT 2")
    assert first_two == [["billing/pay.py"], ["billing/retry.py"]]


# --------------------------------------------------------------------------------------------------
# Parameters


def test_parameters_bind_as_values_never_as_text(code: Code) -> None:
    q = "MATCH (n:function {name: $name}) RETURN n.path"
    assert run(code, q, {"name": "charge"}) == [["billing/pay.py"]]
    # The injection string is a value: it matches the one node literally named so, and deletes nothing.
    assert run(code, q, {"name": INJECTION}) == [["weird.py"]]
    assert run(code, "MATCH (n) WHERE n.name = $name RETURN count(*)", {"name": INJECTION + "!"}) == [[0]]
    assert len(code.graph) == 10
    parsed = parse_graph_query(q)
    assert parsed.matches[0].paths[0].nodes[0].props == (("name", Param("name")),)


def test_a_missing_parameter_is_an_error(code: Code) -> None:
    with pytest.raises(GraphQueryError) as info:
        run(code, "MATCH (n {name: $name}) RETURN n")
    assert info.value.code == "param_missing"
    assert "$name" in info.value.message and "params" in info.value.hint


def test_parameters_of_other_types_are_rejected(code: Code) -> None:
    with pytest.raises(GraphQueryError) as info:
        run(code, "MATCH (n {name: $name}) RETURN n", {"name": {"nested": 1}})
    assert info.value.code == "param_type"


def test_a_property_equal_to_a_list_is_an_error_naming_in(code: Code) -> None:
    """A property holds one value, so `= $names` with a list (or `{name: $names}`) would match nothing:
    the error says so and shows the IN form, which matches any of the list."""
    names = {"names": ["charge", "log"]}
    for query, target in (
        ("MATCH (n:function {name: $names}) RETURN n.path", "n.name"),
        ("MATCH (:function {name: $names}) RETURN 1", "n.name"),
        ("MATCH (n) WHERE n.name = $names RETURN n.path", "n.name"),
        ("MATCH (n) WHERE ['a', 'b'] <> n.path RETURN n.path", "n.path"),
    ):
        with pytest.raises(GraphQueryError) as info:
            run(code, query, names)
        assert info.value.code == "param_type", query
        assert "list" in info.value.message and f"WHERE {target} IN" in info.value.hint, query
    assert run(
        code, "MATCH (n) WHERE n.name IN $names RETURN n.qualified_name ORDER BY n.start_line", names
    ) == [
        ["billing.pay.charge"],
        ["billing.pay.log"],
    ]


# --------------------------------------------------------------------------------------------------
# Rejected forms: one case each, each with its rule code, a message naming it and a hint.

REJECTED = [
    ("CREATE (n:function {name: 'x'}) RETURN n", "read_only"),
    ("MERGE (n:function {name: 'x'}) RETURN n", "read_only"),
    ("MATCH (n) SET n.name = 'x' RETURN n", "read_only"),
    ("MATCH (n) DELETE n", "read_only"),
    ("MATCH (n) DETACH DELETE n", "read_only"),
    ("MATCH (n) REMOVE n.name RETURN n", "read_only"),
    ("CALL db.labels()", "read_only"),
    ("CALL { MATCH (n) RETURN n } RETURN n", "read_only"),
    ("LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line", "read_only"),
    ("MATCH (n) FOREACH (x IN [1] | SET n.name = 'x')", "read_only"),
    ("CREATE INDEX idx FOR (n:function) ON (n.name)", "read_only"),
    ("CREATE CONSTRAINT c FOR (n:function) REQUIRE n.uid IS UNIQUE", "read_only"),
    ("DROP INDEX idx", "read_only"),
    ("UNWIND [1, 2] AS x RETURN x", "unsupported"),
    ("MATCH (n) WITH n RETURN n", "unsupported"),
    ("MATCH (n) RETURN n UNION MATCH (m) RETURN m", "unsupported"),
    ("MATCH (n:Person) RETURN n", "unknown_label"),
    ("MATCH (a)-[:KNOWS]->(b) RETURN b", "unknown_relationship"),
    ("MATCH (a)-[:calls|friends]->(b) RETURN b", "unknown_relationship"),
    ("MATCH (a)-[:calls*]->(b) RETURN b", "unbounded_length"),
    ("MATCH (a)-[:calls*2..]->(b) RETURN b", "unbounded_length"),
    ("MATCH (a)-[:calls*1..5]->(b) RETURN b", "depth_cap"),
    ("MATCH (a)-[:calls*7]->(b) RETURN b", "depth_cap"),
    ("MATCH (a)-[:calls*3..2]->(b) RETURN b", "invalid_range"),
    ("MATCH (n {colour: 'red'}) RETURN n", "unknown_property"),
    ("MATCH (n) WHERE n.colour = 'red' RETURN n", "unknown_property"),
    ("MATCH (n) RETURN n.body", "unknown_property"),
    ("MATCH (a)-[r:calls]->(b) RETURN r.weight", "unknown_property"),
    ("MATCH (a)-[:calls {weight: 1}]->(b) RETURN b", "unknown_property"),
    ("MATCH (n) RETURN m", "unknown_variable"),
    ("MATCH (n)-[n:calls]->(m) RETURN m", "variable_conflict"),
    ("MATCH (n) RETURN n.name, n.name", "duplicate_column"),
    ("MATCH (n) RETURN toLower(n.name)", "unsupported"),
    ("MATCH (n) WHERE count(*) > 1 RETURN n", "unsupported"),
    ("MATCH (a)-[p:calls*1..2]->(b) RETURN p.line", "unsupported"),
    ("MATCH (n) RETURN DISTINCT n.name ORDER BY n.path", "unsupported"),
    ("MATCH (n) RETURN n LIMIT $l", "param_missing"),
    ("MATCH (n) RETURN n LIMIT -1", "syntax"),
    ("MATCH (n) RETURN", "syntax"),
    ("MATCH (n RETURN n", "syntax"),
    ("MATCH (n) RETURN n;", "syntax"),
    ("RETURN 1", "syntax"),
    ("MATCH (n) RETURN n // " + "x" * 10_000, "too_long"),
]


@pytest.mark.parametrize(("text", "code_"), REJECTED, ids=[f"{c}:{t[:40]}" for t, c in REJECTED])
def test_rejected_forms_name_their_rule(code: Code, text: str, code_: str) -> None:
    with pytest.raises(GraphQueryError) as info:
        run_graph_query(code.graph, text, {})
    err = info.value
    assert err.code == code_
    assert err.message.startswith(f"{code_}: ")
    assert err.hint
    as_dict = err.to_dict()
    assert as_dict["isError"] is True and as_dict["code"] == code_ and as_dict["hint"] == err.hint


def test_invalid_limit_values_are_rejected(code: Code) -> None:
    for value in (-1, "10", 1.5, True):
        with pytest.raises(GraphQueryError) as info:
            run(code, "MATCH (n) RETURN n LIMIT $l", {"l": value})
        assert info.value.code == "invalid_limit"


def test_depth_cap_follows_max_depth(code: Code) -> None:
    q = "MATCH (a {name: 'main'})-[:calls*1..3]->(b) RETURN b.name"
    assert len(run(code, q)) == 5
    with pytest.raises(GraphQueryError) as info:
        run(code, q, max_depth=2)
    assert info.value.code == "depth_cap" and "*1..2" in info.value.hint


def test_graph_query_errors_are_qry_errors() -> None:
    with pytest.raises(QryError):
        parse_graph_query("MATCH (n) DETACH DELETE n")


def test_read_only_message_names_the_clause_and_the_fix() -> None:
    with pytest.raises(GraphQueryError) as info:
        parse_graph_query("MATCH (n)\n DETACH DELETE n")
    assert "DETACH DELETE" in info.value.message and "line 2" in info.value.message
    assert "MATCH" in info.value.hint
    with pytest.raises(GraphQueryError) as info:
        parse_graph_query("CREATE INDEX i FOR (n:function) ON (n.name)")
    assert "schema" in info.value.message


def test_strings_with_keywords_and_comments_are_not_clauses(code: Code) -> None:
    rows = run(
        code,
        "MATCH (n) // DELETE n\n WHERE n.name = 'x DETACH DELETE n' /* SET */ OR n.name = \"it's\" RETURN n",
    )
    assert rows == []


# --------------------------------------------------------------------------------------------------
# Parse and validate separately


def test_parse_and_validate_are_separately_usable() -> None:
    q = parse_graph_query(
        "MATCH (f:function {name: $name})<-[:calls*1..2]-(g) RETURN g.qualified_name LIMIT 20"
    )
    assert isinstance(q, GraphQuery)
    rel = q.matches[0].paths[0].rels[0]
    assert (rel.direction, rel.types, rel.min_hops, rel.max_hops, rel.variable) == (
        "in",
        ("calls",),
        1,
        2,
        True,
    )
    assert q.items[0].column == "g.qualified_name"
    validate(q, {"name": "x"})
    with pytest.raises(GraphQueryError) as info:
        validate(q, {})
    assert info.value.code == "param_missing"
    unbounded = parse_graph_query("MATCH (a)-[:calls*]->(b) RETURN b")  # parses: the rule is validation's
    with pytest.raises(GraphQueryError) as info:
        validate(unbounded, {})
    assert info.value.code == "unbounded_length"


def test_string_escapes_and_numbers_parse() -> None:
    q = parse_graph_query("MATCH (n) WHERE n.name = 'it\\'s \\u00e9' AND n.start_line > -2.5 RETURN n")
    where = q.matches[0].where
    assert where.left.right.value == "it's é"
    assert where.right.right.value == -2.5


# --------------------------------------------------------------------------------------------------
# Row cap, truncation, budget, planning


def numbered_graph(n: int) -> MemoryGraph:
    return MemoryGraph(
        GraphNode(
            uid=i,
            kind="function",
            name=f"f{i:05d}",
            qualified_name=f"m.f{i:05d}",
            path="m.py",
            language="python",
            start_line=i,
            end_line=i,
        )
        for i in range(1, n + 1)
    )


BIG_BUDGET = 60_000


def test_row_cap_and_truncated_flag() -> None:
    # A generous budget: this test is about rows, and a loaded machine must not turn it into a timeout.
    g = numbered_graph(1500)
    default = run_graph_query(g, "MATCH (n:function) RETURN n.name", {}, budget_ms=BIG_BUDGET)
    assert len(default.rows) == 100 and default.truncated is True
    most = run_graph_query(g, "MATCH (n:function) RETURN n.name LIMIT 1000", {}, budget_ms=BIG_BUDGET)
    assert len(most.rows) == 1000 and most.truncated is True
    with pytest.raises(GraphQueryError, match="limit_cap: LIMIT 5000 is over the cap of 1000 rows"):
        run_graph_query(g, "MATCH (n:function) RETURN n.name LIMIT 5000", {}, budget_ms=BIG_BUDGET)
    exact = run_graph_query(
        g, "MATCH (n:function) WHERE n.start_line <= 10 RETURN n.name LIMIT 10", {}, budget_ms=BIG_BUDGET
    )
    assert len(exact.rows) == 10 and exact.truncated is False
    fewer = run_graph_query(
        g, "MATCH (n:function) WHERE n.start_line <= 3 RETURN n.name", {}, budget_ms=BIG_BUDGET
    )
    assert len(fewer.rows) == 3 and fewer.truncated is False
    ordered = run_graph_query(
        g, "MATCH (n) RETURN n.name ORDER BY n.name DESC SKIP 1490", {}, budget_ms=BIG_BUDGET
    )
    assert [r[0] for r in ordered.rows] == [
        f"f{i:05d}" for i in range(10, 0, -1)
    ] and ordered.truncated is False
    small = run_graph_query(
        g, "MATCH (n) RETURN n.name", {}, limit_default=7, limit_cap=5, budget_ms=BIG_BUDGET
    )
    assert len(small.rows) == 5 and small.truncated is True
    with pytest.raises(GraphQueryError) as over:
        run_graph_query(g, "MATCH (n) RETURN n.name LIMIT 6", {}, limit_cap=5, budget_ms=BIG_BUDGET)
    assert over.value.code == "limit_cap" and "LIMIT 6 is over the cap of 5" in over.value.message


def test_the_wall_clock_budget_aborts_a_dense_traversal() -> None:
    g = numbered_graph(3000)
    rng = random.Random(3)
    for src in range(1, 3001):
        for dst in rng.sample(range(1, 3001), 8):
            g.add_edge(Edge(src=src, dst=dst, kind="calls"))
    with pytest.raises(GraphQueryError) as info:
        run_graph_query(g, "MATCH (a)-[:calls*1..4]->(b) RETURN count(*)", {}, budget_ms=1)
    assert info.value.code == "timeout"
    assert "budget" in info.value.message and info.value.hint


class RecordingView:
    """Wraps a MemoryGraph and records every find() call."""

    def __init__(self, inner: MemoryGraph) -> None:
        self.inner = inner
        self.finds: list[tuple[str | None, dict[str, object]]] = []

    def node(self, uid: int) -> GraphNode | None:
        return self.inner.node(uid)

    def edges(self, uid: int, kinds: Collection[str], direction: str) -> list[Edge]:
        return self.inner.edges(uid, kinds, "out" if direction == "out" else "in")

    def find(self, *, kind: str | None, props: Mapping[str, object], limit: int) -> list[int]:
        self.finds.append((kind, dict(props)))
        return self.inner.find(kind=kind, props=props, limit=limit)

    def degree(self, uid: int, kinds: Collection[str]) -> int:
        return self.inner.degree(uid, kinds)


def test_matching_starts_from_the_most_selective_node(code: Code) -> None:
    view = RecordingView(code.graph)
    res = run_graph_query(view, "MATCH (g)-[:calls]->(f:function {name: 'charge'}) RETURN g.name", {})
    assert res.rows == [["retry_charge"]]
    assert view.finds == [("function", {"name": "charge"})]  # never a full scan from (g)
    view.finds.clear()
    run_graph_query(view, "MATCH (a:function), (b {name: 'log', start_line: 30}) RETURN count(*)", {})
    assert view.finds == [(None, {"name": "log"}), ("function", {})]
    view.finds.clear()
    run_graph_query(
        view, "MATCH (a {uid: $u})<-[:calls]-(b) RETURN b.name", {"u": uid_hex(code.uid["billing.pay.log"])}
    )
    assert view.finds == []


# --------------------------------------------------------------------------------------------------
# Robustness: whatever the text, the answer is rows or a GraphQueryError, never another exception.

TOKENS = [
    "MATCH",
    "OPTIONAL",
    "WHERE",
    "RETURN",
    "DISTINCT",
    "ORDER",
    "BY",
    "SKIP",
    "LIMIT",
    "DESC",
    "AND",
    "OR",
    "NOT",
    "IS",
    "NULL",
    "IN",
    "STARTS",
    "WITH",
    "CONTAINS",
    "AS",
    "DELETE",
    "CREATE",
    "count",
    "type",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ":",
    ",",
    ".",
    "..",
    "*",
    "-",
    "->",
    "<-",
    "<",
    ">",
    "=",
    "<>",
    "|",
    "n",
    "m",
    "r",
    "function",
    "calls",
    "name",
    "path",
    "start_line",
    "$p",
    "$q",
    "'x'",
    "1",
    "2",
    "5",
    "-3",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=25))
def test_token_soup_gives_rows_or_a_graph_query_error(tokens: list[str]) -> None:
    g = Code()
    g.add("a.f", "function", "a.py", 1)
    g.add("a.g", "function", "a.py", 5)
    g.edge("a.f", "a.g")
    try:
        res = run_graph_query(g.graph, " ".join(tokens), {"p": "f", "q": 2}, budget_ms=1000)
    except GraphQueryError as err:
        assert err.code and err.hint
    else:
        assert len(res.columns) == len(res.rows[0]) if res.rows else True


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_arbitrary_text_parses_or_raises_a_graph_query_error(text: str) -> None:
    try:
        parse_graph_query(text)
    except GraphQueryError as err:
        assert err.code in {"syntax", "read_only", "unsupported", "too_long"}


# --------------------------------------------------------------------------------------------------
# Nesting depth (each NOT, [ or AND/OR term is one level; Python's stack must never be the limit)


def _nested(shape: str, n: int) -> str:
    if shape == "not":
        return "MATCH (f:function) WHERE " + "NOT " * n + "f.name = 'charge' RETURN f.name"
    if shape == "list":
        return "MATCH (f:function {name: 'charge'}) RETURN " + "[" * n + "1" + "]" * n + " AS x"
    return "MATCH (f:function) WHERE " + " AND ".join(["f.name <> 'x'"] * n) + " RETURN f.name"


@pytest.mark.parametrize("shape", ["not", "list", "and"])
def test_nesting_under_the_bound_runs_and_over_it_is_too_deep(code: Code, shape: str) -> None:
    from indexlib.graph.query import MAX_NESTING

    n = MAX_NESTING - 20  # a plain query's tree is ~10 levels: this is just under the bound
    assert n % 2 == 0  # so the NOTs cancel out
    rows = run(code, _nested(shape, n))
    if shape == "list":
        value: object = 1
        for _ in range(n):
            value = [value]
        assert rows == [[value]]
    else:
        assert rows == run(code, _nested(shape, 0 if shape == "not" else 1)) and rows
    for deep in (MAX_NESTING + 1, 500):  # 500 used to exhaust the stack (RecursionError)
        with pytest.raises(GraphQueryError) as info:
            run(code, _nested(shape, deep))
        assert info.value.code == "too_deep" and str(MAX_NESTING) in info.value.hint


def test_validating_a_hand_built_deep_query_is_too_deep_not_a_recursion_error() -> None:
    import msgspec

    from indexlib.graph.query import Not

    q = parse_graph_query("MATCH (f:function) WHERE f.name = 'charge' RETURN f.name")
    where: object = q.matches[0].where
    for _ in range(20_000):
        where = Not(where)
    deep = msgspec.structs.replace(q, matches=(msgspec.structs.replace(q.matches[0], where=where),))
    with pytest.raises(GraphQueryError) as info:
        validate(deep, {})
    assert info.value.code == "too_deep"
