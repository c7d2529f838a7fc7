"""The code graph end to end: edges from real parsing, expansion, diffusion, related, graph queries."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from indexlib import (
    BuildOptions,
    GraphQueryError,
    SearchOptions,
    UsageError,
    build_index,
    graph_query,
    open_engine,
    related,
    resolve_symbol,
)


@pytest.fixture(scope="module")
def callchain(fixture_copy: Callable[[str], Path]) -> Path:
    repo = fixture_copy("callchain")
    build_index(repo, BuildOptions(embed="none"))
    return repo


def test_on_path_context_brings_the_middle_of_a_call_chain(callchain: Path) -> None:
    engine = open_engine(callchain / ".qry")
    plain = engine.search("refund", SearchOptions(top_k=5))
    assert not any(h.symbol.endswith("prepare_reversal") for h in plain.results)
    res = engine.search("refund", SearchOptions(top_k=5, diffuse=True))
    fused = [h for h in res.results if not h.context]
    context = [h for h in res.results if h.context]
    assert [h.uid for h in fused] == [h.uid for h in plain.results]  # diffusion never displaces a hit
    assert any(h.symbol.endswith("prepare_reversal") for h in context), [h.symbol for h in res.results]


def test_expansion_attaches_callers_and_callees_with_true_kinds(callchain: Path) -> None:
    # top_k=1: a related node that is itself a hit is not listed again under another hit.
    res = open_engine(callchain / ".qry").search("prepare_reversal", SearchOptions(graph=True, top_k=1))
    top = res.results[0]
    assert top.symbol.endswith("prepare_reversal")
    rel = {(r.symbol.rsplit(".", 1)[-1], r.edge, r.direction) for r in top.related}
    assert ("request_refund", "calls", "in") in rel
    assert ("post_credit_memo", "calls", "out") in rel
    assert all(r.line > 0 for r in top.related if r.edge == "calls")


def test_related_follows_calls_across_files_through_imports(callchain: Path) -> None:
    res = related(open_engine(callchain / ".qry"), "post_credit_memo", callers=False, callees=True, depth=1)
    assert res.node is not None
    callees = {(r.symbol, r.path) for r in res.related if r.direction == "out"}
    assert ("write_entry", "app/store.py") in callees
    deep = related(open_engine(callchain / ".qry"), "write_entry", callers=True, callees=False, depth=3)
    callers = [r.symbol.rsplit(".", 1)[-1] for r in deep.related if r.direction == "in"]
    assert callers[:3] == ["post_credit_memo", "prepare_reversal", "request_refund"]


def test_graph_query_and_its_bounds(callchain: Path) -> None:
    engine = open_engine(callchain / ".qry")
    res = graph_query(
        engine,
        "MATCH (f:function {name: $name})<-[:calls*1..2]-(g) RETURN g.name ORDER BY g.name",
        {"name": "post_credit_memo"},
    )
    assert [r[0] for r in res.rows] == ["prepare_reversal", "request_refund"]
    with pytest.raises(GraphQueryError) as info:
        graph_query(engine, "MATCH (n) DETACH DELETE n", {})
    assert info.value.code == "read_only"


def test_edges_follow_reindexing(callchain: Path, tmp_path: Path) -> None:
    import shutil

    repo = tmp_path / "cc"
    shutil.copytree(callchain, repo, ignore=shutil.ignore_patterns(".qry"))
    build_index(repo, BuildOptions(embed="none"))
    ledger = repo / "app" / "ledger.py"
    ledger.write_text(ledger.read_text().replace("return post_credit_memo(key, -amount_cents)", "return key"))
    build_index(repo, BuildOptions(embed="none"))
    res = related(open_engine(repo / ".qry"), "post_credit_memo", callers=True, callees=False, depth=1)
    assert not [r for r in res.related if r.direction == "in" and r.edge == "calls"]


def test_a_busy_class_keeps_its_members_and_says_it_was_cut(tmp_path: Path) -> None:
    """Sixty callers of a class must not push its members out of `related`'s fifty rows, and a cut
    answer says so."""
    hub = "class Hub:\n" + "".join(f"    def step_{i}(self):\n        return {i}\n\n" for i in range(4))
    users = "from hub import Hub\n\n" + "".join(f"def use_{i}():\n    return Hub()\n\n" for i in range(60))
    (tmp_path / "hub.py").write_text(hub)
    (tmp_path / "users.py").write_text(users)
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    res = related(open_engine(tmp_path / ".qry"), "Hub")
    members = [r.symbol for r in res.related if r.edge == "contains"]
    assert members == [f"Hub.step_{i}" for i in range(4)], res.related
    assert len(res.related) == 50 and res.truncated
    few = related(open_engine(tmp_path / ".qry"), "Hub.step_1")
    assert not few.truncated
    # --limit lists more, up to its bound, and refuses what is out of it.
    every = related(open_engine(tmp_path / ".qry"), "Hub", limit=100)
    assert len(every.related) == 64 and not every.truncated
    with pytest.raises(UsageError, match="--limit must be between 1 and 1000"):
        related(open_engine(tmp_path / ".qry"), "Hub", limit=0)


def test_a_partial_class_is_one_definition(tmp_path: Path) -> None:
    """A C# class declared in two files (`partial`) is one definition: the part in its own file."""
    (tmp_path / "Capturing").mkdir()
    (tmp_path / "Capturing" / "Converter.cs").write_text(
        "namespace App.Capturing\n{\n    partial class Converter\n    {\n"
        "        public int Convert(int x) { return x; }\n    }\n}\n"
    )
    (tmp_path / "Capturing" / "DepthLimiter.cs").write_text(
        "namespace App.Capturing\n{\n    partial class Converter\n    {\n"
        "        class DepthLimiter { }\n    }\n}\n"
    )
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    res = related(open_engine(tmp_path / ".qry"), "App.Capturing.Converter")
    assert not res.ambiguous and res.node is not None, res
    assert res.node.path == "Capturing/Converter.cs"
    assert [c.path for c in res.candidates] == ["Capturing/DepthLimiter.cs"]


def test_a_generic_partial_class_is_another_type_than_its_non_generic_namesake(tmp_path: Path) -> None:
    """C# `partial class Policy` and `partial class Policy<TResult>`, each in parts, are two types
    (as in Polly): two definitions, each answered by the part in the file named after it alone
    (`Policy.cs` before `Policy.Keys.cs`), each with its own parts' members only."""
    parts = {
        "Policy.cs": "partial class Policy\n{\n    public void Run() { }\n}\n",
        "Policy.Keys.cs": (
            "partial class Policy\n{\n    public void WithKey() { }\n}\n"
            "partial class Policy<TResult>\n{\n    public void WithKeyOf() { }\n}\n"
        ),
        "Policy.TResult.cs": "partial class Policy<TResult>\n{\n    public TResult Get() => default;\n}\n",
    }
    for name, text in parts.items():
        (tmp_path / name).write_text("namespace App\n{\n" + text + "}\n")
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    engine = open_engine(tmp_path / ".qry")
    res = related(engine, "App.Policy")
    assert res.ambiguous and sorted(c.path for c in res.candidates) == ["Policy.TResult.cs", "Policy.cs"]
    members = {}
    for path in ("Policy.cs", "Policy.TResult.cs"):
        one = related(engine, f"{path}:Policy")
        assert one.node is not None and one.node.path == path, one
        members[path] = {r.symbol for r in one.related if r.edge == "contains" and r.direction == "out"}
    assert members == {
        "Policy.cs": {"App.Policy.Run", "App.Policy.WithKey"},
        "Policy.TResult.cs": {"App.Policy.Get", "App.Policy.WithKeyOf"},
    }
    # The type arguments written pick the type as C# does (`qry related 'Policy<TResult>'` found no
    # definition): one of them, the generic one; none written is still both.
    for written in ("Policy<TResult>", "App.Policy<T>", "Policy <TResult>"):
        generic = related(engine, written)
        assert generic.node is not None and generic.node.path == "Policy.TResult.cs", (written, generic)
    assert related(engine, "Policy<A, B>").ambiguous  # no type of two parameters: as if none were written


def test_a_csharp_reference_names_the_type_of_the_arity_it_writes(tmp_path: Path) -> None:
    """`new Pipeline<T>(...)` and `: Pipeline<T>` are the generic type's, `new Pipeline()` and
    `: Pipeline` the other's: one edge each, none of them ambiguous (every one was, between both)."""
    files = {
        "Pipeline.cs": "public class Pipeline\n{\n    public Pipeline() { }\n}\n",
        "PipelineT.cs": "public class Pipeline<T>\n{\n    public Pipeline(int x) { }\n}\n",
        "Use.cs": (
            "public class Plain : Pipeline\n{\n    public object Make() => new Pipeline();\n}\n"
            "public class Typed : Pipeline<string>\n{\n"
            "    public object Make() => new Pipeline<Dictionary<string, int>>(1);\n}\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).write_text("namespace App\n{\n" + text + "}\n")
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    engine = open_engine(tmp_path / ".qry")
    for path, typed, wanted in (
        ("Pipeline.cs", "App.Plain", "App.Plain"),
        ("PipelineT.cs", "App.Typed", "App.Typed"),
    ):
        res = related(engine, f"{path}:Pipeline")
        assert res.node is not None and res.node.path == path, res
        edges = {(r.edge, r.symbol, r.ambiguous) for r in res.related if r.direction == "in"}
        assert edges == {("inherits", typed, False), ("calls", f"{wanted}.Make", False)}, edges


@pytest.mark.parametrize(
    ("files", "name"),
    [
        ({"a/pool.py": "class Pool:\n    def take(self):\n        return 1\n"}, "Pool"),
        ({"a/Pool.kt": "package a\nobject Pool {\n  fun take(): Int = 1\n}\n"}, "Pool"),
    ],
)
def test_same_named_types_in_two_files_are_ambiguous(
    tmp_path: Path, files: dict[str, str], name: str
) -> None:
    """Two Python modules' `class Pool` (or two Kotlin packages' `object Pool`) are two types, not
    parts of one: `related Pool` guesses neither, as `related Pool.take` does not."""
    for path, text in files.items():
        for folder in ("a", "b"):
            (tmp_path / folder).mkdir(exist_ok=True)
            (tmp_path / path.replace("a/", f"{folder}/", 1)).write_text(
                text.replace("package a", f"package {folder}")
            )
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    engine = open_engine(tmp_path / ".qry")
    for symbol in (name, f"{name}.take"):
        res = related(engine, symbol)
        assert res.ambiguous and res.node is None, (symbol, res)
        assert [c.path.split("/")[0] for c in res.candidates] == ["a", "b"]


def test_a_scala_type_and_its_companion_object_are_one_answer(tmp_path: Path) -> None:
    """A Scala class (or trait) and its companion object are one type: the class answers, with the
    members of both, and a companion's member names the class as its container."""
    (tmp_path / "Parser.scala").write_text(
        "class Parser(n: Int) {\n  def parse(): Int = n\n}\n"
        'object Parser {\n  def builder: Parser = new Parser(1)\n  def usage(): String = "u"\n}\n'
        "trait Mode\nobject Mode {\n  case object One extends Mode\n}\n"
    )
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    engine = open_engine(tmp_path / ".qry")
    res = related(engine, "Parser")
    assert not res.ambiguous and res.node is not None and res.node.start_line == 1, res
    members = [r.symbol for r in res.related if r.edge == "contains"]
    assert members == ["Parser.parse", "Parser.builder", "Parser.usage"], res.related
    assert [c.start_line for c in res.candidates] == [4]
    container = [
        (r.symbol, r.start_line) for r in related(engine, "Parser.builder").related if r.edge == "contains"
    ]
    assert container == [("Parser", 1)]
    mode = related(engine, "Mode")
    assert not mode.ambiguous and mode.node is not None and mode.node.kind == "trait", mode
    assert [r.symbol for r in mode.related if r.edge == "contains"] == ["Mode.One"]


def test_a_member_calling_its_class_is_listed_as_a_member_too(tmp_path: Path) -> None:
    """`Widget.clone` returns `Widget()`: it is a caller of the class and one of its members, and
    `related Widget` lists both rows."""
    (tmp_path / "w.py").write_text(
        "class Widget:\n    def clone(self):\n        return Widget()\n\n    def size(self):\n        return 1\n"
    )
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    rows = [
        (r.direction, r.edge, r.symbol) for r in related(open_engine(tmp_path / ".qry"), "Widget").related
    ]
    assert rows == [
        ("in", "calls", "Widget.clone"),
        ("out", "contains", "Widget.clone"),
        ("out", "contains", "Widget.size"),
    ]


def test_a_class_split_into_parts_is_related_whole(tmp_path: Path) -> None:
    """A class too long for one node is split into windows; `related` gives its whole span."""
    body = "".join(f"    def step_{i}(self):\n        return {i}\n\n" for i in range(150))
    (tmp_path / "big.py").write_text("class Big:\n" + body)
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    engine = open_engine(tmp_path / ".qry")
    stored = engine.snapshot().lookup("name_exact", "big")
    assert len(stored) > 1, "the fixture must be long enough to be split"
    # The graph has one node for it, spanning every window.
    rows = graph_query(engine, 'MATCH (n:class) WHERE n.name = "Big" RETURN n.start_line, n.end_line', {})
    assert rows.rows == [[1, 450]], rows.rows
    res = related(engine, "Big")
    assert res.node is not None and (res.node.start_line, res.node.end_line) == (1, 450), res.node
    # Search answers with the definition too, whichever window matched: its uid, its whole span.
    for text in ("Big", "Big step_140"):
        hit = next(h for h in engine.search(text, SearchOptions(top_k=20)).results if h.symbol == "Big")
        assert (hit.uid, hit.start_line, hit.end_line) == (res.node.uid, 1, 450), (text, hit)
    assert related(engine, res.node.uid).related


def test_resolve_symbol_and_candidates_give_a_split_class_whole(tmp_path: Path) -> None:
    """`resolve_symbol` (the MCP tool) and an ambiguous name's candidates spanned only a split
    definition's first window (gson's TypeAdapter: 30-270 of 30-323) while `related` and search gave
    the whole: an agent reading the lines it was told missed the end of the class."""
    body = "".join(f"    def step_{i}(self):\n        return {i}\n\n" for i in range(150))
    (tmp_path / "big.py").write_text("class Big:\n" + body)
    (tmp_path / "other.py").write_text("class Big:\n" + body)
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    engine = open_engine(tmp_path / ".qry")
    whole = {("big.py", 1, 450), ("other.py", 1, 450)}
    for name, want in (("Big", whole), ("big.py:Big", {("big.py", 1, 450)})):
        spans = {
            (m.path, m.start_line, m.end_line) for m in resolve_symbol(engine, name) if m.kind == "class"
        }
        assert spans == want, name
    res = related(engine, "Big")
    assert res.ambiguous and {(c.start_line, c.end_line) for c in res.candidates} == {(1, 450)}, res


def test_a_javascript_private_method_has_its_callers(tmp_path: Path) -> None:
    (tmp_path / "ky.ts").write_text(
        "export class Ky {\n  #calculateDelay(n: number): number {\n    return n * 2;\n  }\n\n"
        "  async retry(n: number) {\n    return this.#calculateDelay(n);\n  }\n}\n"
    )
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    engine = open_engine(tmp_path / ".qry")
    for name in ("#calculateDelay", "Ky.#calculateDelay"):
        res = related(engine, name)
        assert res.node is not None, (name, res)
        assert [r.symbol for r in res.related if r.edge == "calls"] == ["Ky.retry"], res.related


def test_related_of_a_module_level_object_lists_the_members_assigned_to_it(tmp_path: Path) -> None:
    """A CommonJS module builds its API on an object (`res.send = function`): the object answers
    with its members, as a class does, and a member with its container."""
    (tmp_path / "response.js").write_text(
        "var res = Object.create(proto);\n\n"
        "res.status = function status(code) { this.statusCode = code; return this; };\n\n"
        "res.send = function send(body) { return this.status(200).end(body); };\n"
    )
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    engine = open_engine(tmp_path / ".qry")
    members = [(r.symbol, r.direction) for r in related(engine, "res").related if r.edge == "contains"]
    assert members == [("res.status", "out"), ("res.send", "out")]
    container = [(r.symbol, r.direction) for r in related(engine, "res.send").related if r.edge == "contains"]
    assert container == [("res", "in")]


def test_ruby_bang_methods_self_calls_and_reopened_classes_resolve(tmp_path: Path) -> None:
    from indexlib import BuildOptions, build_index, open_engine, related

    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "base.rb").write_text(
        "class Base\n  def route!(base)\n    route!(base.superclass)\n  end\n\n"
        "  def route(path)\n    path\n  end\n\n  def dispatch!\n    route!(self)\n    process_route(1)\n  end\n\n"
        "  def process_route(x)\n    x\n  end\nend\n"
    )
    (tmp_path / "lib" / "extra.rb").write_text(
        "class Base\n  def helper_zz\n    process_route(2)\n  end\nend\n"
    )
    (tmp_path / "buffer.rs").write_text(
        "pub struct Buffer { n: usize }\n\nimpl Buffer {\n    pub fn new() -> Self {\n        Self::with(0)\n    }\n\n"
        "    fn with(n: usize) -> Self {\n        Buffer { n }\n    }\n\n    fn flush(&mut self) {}\n\n"
        "    fn done(&mut self) {\n        self.flush();\n    }\n}\n"
    )
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    engine = open_engine(tmp_path / ".qry")

    def callers(name: str) -> set[str]:
        return {r.symbol for r in related(engine, name).related if r.edge == "calls" and r.direction == "in"}

    # `route!` is not `route`: `dispatch!` calls the one (and `route!` itself), nothing the other.
    assert callers("Base.route!") == {"Base.dispatch!", "Base.route!"}
    assert callers("Base.route") == set()
    # A method of a class reopened in another file calls the class's method.
    assert callers("Base.process_route") == {"Base.dispatch!", "Base.helper_zz"}
    # `Self::with(0)` and `self.flush()` (a name builtin types have too) call the own type's methods.
    assert callers("Buffer.with") == {"Buffer.new"}
    assert callers("Buffer.flush") == {"Buffer.done"}


def test_related_takes_a_path_and_line_for_two_definitions_of_one_name(tmp_path: Path) -> None:
    from indexlib import BuildOptions, build_index, open_engine, related

    (tmp_path / "base.rb").write_text(
        "class Base\n  def self.settings\n    self\n  end\n\n  def settings\n    self.class.settings\n  end\nend\n"
    )
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    engine = open_engine(tmp_path / ".qry")
    assert related(engine, "base.rb:Base.settings").ambiguous
    for line, start in ((3, 2), (7, 6)):
        rel = related(engine, f"base.rb:{line}")
        assert rel.node is not None and rel.node.start_line == start and not rel.ambiguous, rel


def test_a_definition_split_into_windows_calls_from_all_of_them(tmp_path: Path) -> None:
    """A function too long for one node is indexed as windows; its callees are those of every
    window, and it is one caller however many of its windows call."""
    filler = "".join(f"  echo step {i}\n" for i in range(450))
    (tmp_path / "deploy.sh").write_text(
        "helper_a() {\n  echo a\n}\n\nhelper_b() {\n  echo b\n}\n\n"
        f"deploy() {{\n  helper_a\n{filler}  helper_b\n  helper_a\n}}\n"
    )
    build_index(tmp_path, BuildOptions(embed="none"))
    engine = open_engine(tmp_path / ".qry")
    res = related(engine, "deploy", callers=False, callees=True, depth=1)
    assert {r.symbol for r in res.related if r.direction == "out"} == {"helper_a", "helper_b"}
    callers = related(engine, "helper_a", callers=True, callees=False, depth=1)
    assert [(r.symbol, r.start_line) for r in callers.related if r.direction == "in"] == [("deploy", 9)]


def test_a_type_member_no_type_declares_hints_the_definitions_of_the_member(tmp_path: Path) -> None:
    """`Builder.AddRetry`, a C# extension method of Builder, is no member of Builder: no definition
    (exit 1), and the closest names start with the `AddRetry` methods, the one whose signature names
    Builder first, before near spellings of the whole name (`AddRetryBuilder`)."""
    (tmp_path / "Builder.cs").write_text(
        "namespace App\n{\n    public class Builder { }\n    public static class Other\n    {\n"
        "        public static void AddRetry(this string s) { }\n        public static void AddRetryBuilder() { }\n"
        "    }\n    public static class RetryExtensions\n    {\n"
        "        public static Builder AddRetry(this Builder builder) => builder;\n    }\n}\n"
    )
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    res = related(open_engine(tmp_path / ".qry"), "Builder.AddRetry")
    assert res.node is None and not res.ambiguous, res
    assert [c.symbol for c in res.closest[:2]] == ["App.RetryExtensions.AddRetry", "App.Other.AddRetry"]


RUST_WORKSPACE = {
    "app/src/lib.rs": "mod json;\npub mod routing;\nmod direct;\nmod viaroot;\n"
    "pub use self::json::Json;\npub use self::routing::Router;\n",
    "app/src/json.rs": "pub struct Json<T>(pub T);\n",
    "app/src/routing/mod.rs": "pub struct Router {}\n\nimpl Router {\n    pub fn new() -> Self {\n        Router {}\n    }\n}\n",
    "app/src/direct.rs": "use crate::routing::Router;\nuse crate::json::Json;\n\n"
    "pub fn direct_caller() {\n    let r = Router::new();\n    let j = Json(1);\n}\n",
    "app/src/viaroot.rs": "use crate::{Json, Router};\n\n"
    "pub fn root_caller() {\n    let r = Router::new();\n    let j = Json(2);\n}\n",
    # Another crate's types of the same names: a call resolved by name alone would be ambiguous.
    "other/src/lib.rs": "pub struct Json<T>(pub T);\npub struct Router {}\n\n"
    "impl Router {\n    pub fn new() -> Self {\n        Router {}\n    }\n}\n",
    "examples/demo/src/main.rs": "use app::{Json, Router};\n\nfn main() {\n    let r = Router::new();\n    let j = Json(3);\n}\n",
}


@pytest.mark.parametrize("caller", ["direct_caller", "root_caller", "examples/demo/src/main.rs:main"])
def test_a_rust_type_imported_by_use_is_called_through_its_module_or_crate_root(
    tmp_path: Path, caller: str
) -> None:
    """`use crate::routing::Router; Router::new()` made no edge (the resolver looked for a module
    `routing/Router`), nor did `use crate::{Json, Router}` (a crate root passing them on from its
    modules) or `use app::Router` from another crate of the workspace: axum's `Router::new()` and
    `Json(..)` lacked most of their callers."""
    from tests.repokit import make_repo

    engine = open_engine(make_repo(tmp_path, RUST_WORKSPACE) / ".qry")
    callees = [(r.symbol, r.path, r.ambiguous) for r in related(engine, caller, callers=False).related]
    assert callees == [
        ("Router.new", "app/src/routing/mod.rs", False),
        ("Json", "app/src/json.rs", False),
    ]


def test_a_python_class_imported_by_name_is_called_through_its_module_or_package(tmp_path: Path) -> None:
    """`from pkg.models import Klass; Klass.make()` (or `from pkg import Klass`, which the package
    passes on) made no edge: the resolver looked for a module `pkg/models/Klass`."""
    from tests.repokit import make_repo

    files = {
        "pkg/__init__.py": "from .models import Klass\n",
        "pkg/models.py": "class Klass:\n    @classmethod\n    def make(cls):\n        return cls()\n",
        "pkg/direct.py": "from pkg.models import Klass\n\n\ndef direct():\n    return Klass.make()\n",
        "pkg/aliased.py": "from pkg.models import Klass as K\n\n\ndef aliased():\n    return K.make()\n",
        "pkg/viapkg.py": "from pkg import Klass\n\n\ndef viapkg():\n    return Klass.make()\n",
        "other/models.py": "class Klass:\n    @classmethod\n    def make(cls):\n        return cls()\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    for caller in ("direct", "aliased", "viapkg"):
        callees = [(r.symbol, r.path, r.ambiguous) for r in related(engine, caller, callers=False).related]
        assert callees == [("Klass.make", "pkg/models.py", False)], caller


def test_a_name_written_as_a_call_names_the_definition(tmp_path: Path) -> None:
    """`Session.send()` is how prose, commit messages and agents write a method: `related` answers for
    `Session.send` (search and resolve_symbol already read it so; related found no definition and
    named the right one only as the closest). A name that really ends in `()` is tried first."""
    (tmp_path / "client.py").write_text(
        "class Session:\n    def send(self, req):\n        return prepare(req)\n\n\n"
        "def prepare(req):\n    return req\n"
    )
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    engine = open_engine(tmp_path / ".qry")
    for written in ("Session.send()", "client.py:Session.send()", "prepare()"):
        res = related(engine, written)
        assert res.node is not None and res.node.symbol == written.rpartition(":")[2][:-2], (written, res)
    assert related(engine, "Session.send").node is not None
    assert related(engine, "missing()").node is None
