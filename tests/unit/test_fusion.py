"""RRF and ranking signals (pure)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from indexlib.declaration import declared_standing
from indexlib.pathroles import is_test_code, is_test_path
from indexlib.records import Provenance, StreamHit, is_deprecated
from indexlib.retrieval.fusion import Candidate, apply_signals, rrf
from indexlib.retrieval.scope import module_files, scope_paths
from indexlib.retrieval.signals import Signals


def hits(*uids: int) -> list[StreamHit]:
    return [StreamHit(uid=u, score=float(100 - i)) for i, u in enumerate(uids)]


def test_rrf_formula_and_provenance() -> None:
    out = rrf({"bm25": hits(1, 2, 3), "vector": hits(3, 1)}, k=60)
    by = {c.uid: c for c in out}
    assert abs(by[1].score - (1 / 61 + 1 / 62)) < 1e-12
    assert abs(by[3].score - (1 / 63 + 1 / 61)) < 1e-12
    assert abs(by[2].score - 1 / 62) < 1e-12
    assert by[1].provenance.bm25_rank == 1 and by[1].provenance.vector_rank == 2
    assert by[2].provenance.vector_rank is None
    assert by[3].provenance.vector_score == 100.0
    assert [c.uid for c in out] == [1, 3, 2]


def test_rrf_cap_cuts_each_stream() -> None:
    out = rrf({"bm25": hits(*range(10))}, cap=3)
    assert [c.uid for c in out] == [0, 1, 2]


def test_rrf_weights() -> None:
    out = rrf({"bm25": hits(1), "symbol": hits(2)}, weights={"bm25": 1.0, "symbol": 2.0})
    assert out[0].uid == 2


def test_ties_break_on_uid() -> None:
    out = rrf({"bm25": hits(9), "vector": hits(4)})
    assert [c.uid for c in out] == [4, 9]


@given(
    st.dictionaries(
        st.sampled_from(["bm25", "vector", "symbol"]),
        st.lists(st.integers(min_value=0, max_value=50), max_size=30),
    )
)
def test_rrf_is_order_independent_and_loses_no_id(streams: dict[str, list[int]]) -> None:
    built = {k: hits(*v) for k, v in streams.items()}
    a = rrf(built)
    b = rrf(dict(reversed(list(built.items()))))
    assert [(c.uid, c.score) for c in a] == [(c.uid, c.score) for c in b]
    assert {c.uid for c in a} == {u for v in streams.values() for u in v}


def cand(
    uid: int,
    path: str,
    kind: str = "function",
    name: str = "f",
    score: float = 1.0,
    bm25: bool = True,
    vscore: float | None = None,
) -> Candidate:
    p = Provenance(bm25_rank=1 if bm25 else None, vector_score=vscore, vector_rank=1 if vscore else None)
    return Candidate(uid=uid, score=score, provenance=p, path=path, kind=kind, name=name, qualified_name=name)


def test_definition_boost_puts_the_definition_first() -> None:
    cs = [
        cand(1, "a.py", kind="module", name="a", score=1.0),
        cand(2, "b.py", name="parse_config", score=0.6),
    ]
    out = apply_signals(cs, identifier="parse_config", query_words=["parse_config"])
    assert out[0].uid == 2
    assert any("definition" in e for e in out[0].explain)


def test_a_name_nothing_defines_puts_every_node_spelling_it_first() -> None:
    """No definition: a test spelling `CURLOPT_SSL_VERIFYPEER` comes before code holding only its
    words, whatever the test penalty; among those spelling it and those not, scores decide."""
    words = ["curlopt", "ssl", "verifypeer"]

    def cands() -> list[Candidate]:
        cs = [
            cand(1, "src/factory.php", score=1.0),
            cand(2, "src/stream.php", score=0.9),
            cand(3, "tests/FactoryTest.php", score=0.6),
            cand(4, "tests/OtherTest.php", score=0.5),
            cand(5, "src/options.php", score=0.4),
        ]
        for c in cs:
            c.mentions = c.uid in (1, 3, 4)
        return cs

    out = apply_signals(cands(), identifier="CURLOPT_SSL_VERIFYPEER", query_words=words)
    assert [c.uid for c in out] == [1, 3, 4, 2, 5]
    # Something defines it: scores alone order the rest (the test penalty applies again).
    defined = [*cands(), cand(6, "src/consts.php", kind="constant", name="CURLOPT_SSL_VERIFYPEER")]
    out = apply_signals(defined, identifier="CURLOPT_SSL_VERIFYPEER", query_words=words)
    assert [c.uid for c in out][2:] == [2, 5, 3, 4]


def test_a_definition_found_only_in_tests_or_fixtures_still_comes_first() -> None:
    # Mentions in code score higher before the signals; the only definition lives in fixtures/.
    def cands() -> list[Candidate]:
        return [
            cand(1, "src/load.py", score=1.0),
            cand(2, "src/cli.py", score=0.9),
            cand(3, "fixtures/app/config.py", name="parse_config", score=0.6),
        ]

    out = apply_signals(cands(), identifier="parse_config", query_words=["parse_config"])
    assert out[0].uid == 3 and any("defined only there" in e for e in out[0].explain)
    # With a definition in code too, the one in fixtures keeps its penalty and the code one leads.
    both = [*cands(), cand(4, "src/config.py", name="parse_config", score=0.55)]
    out = apply_signals(both, identifier="parse_config", query_words=["parse_config"])
    assert [c.uid for c in out][:1] == [4]
    assert [c.uid for c in out].index(3) > [c.uid for c in out].index(1)


def test_a_deprecated_definition_yields_to_a_current_one_of_its_name() -> None:
    """Overloads of one name, the older marked deprecated where declared: the current one is meant;
    alone, a deprecated definition keeps its whole boost."""
    old = cand(1, "Config.swift", name="init", score=1.0)
    old.deprecated = old.mentions = True  # a Kotlin extension spells `Moshi.adapter` whole: no matter
    current = cand(2, "Config.swift", name="init", score=0.8)
    out = apply_signals([old, current], identifier="init", query_words=["init"])
    assert [c.uid for c in out] == [2, 1]
    alone = cand(1, "Config.swift", name="init", score=1.0)
    alone.deprecated = True
    mention = cand(3, "Main.swift", kind="module", name="Main", score=1.5)
    out = apply_signals([alone, mention], identifier="init", query_words=["init"])
    assert out[0].uid == 1 and any("x2" in e for e in out[0].explain if "definition" in e)


def test_the_declaring_definition_comes_before_overrides_and_private_ones() -> None:
    """Methods named as the query, each a member: the declaring one first, then an override of it,
    then a private helper of the name, whatever their fused scores; the places they hold are
    refilled, so the module between them stays where it was."""

    def member(uid: int, path: str, score: float) -> Candidate:
        c = cand(uid, path, kind="method", name="peek", score=score)
        c.qualified_name = f"{path.split('.')[0]}.peek"
        return c

    helper, override, api = (
        member(1, "Writer.java", 1.0),
        member(2, "TreeReader.java", 0.9),
        member(3, "Reader.java", 0.5),
    )
    helper.private, override.overrides = True, True
    between = cand(
        4, "Peeks.java", kind="function", name="peeks", score=0.7 * (1 + Signals().definition_boost)
    )
    out = apply_signals([helper, override, between, api], identifier="peek", query_words=["peek"])
    assert [c.uid for c in out] == [3, 2, 4, 1]
    assert any("private" in e for e in out[3].explain)  # moved, so --explain says why
    # a test's public definition does not take the place of a private one in code
    test = cand(5, "src/test/ReaderTest.java", kind="method", name="peek", score=0.1)
    test.qualified_name = "ReaderTest.peek"
    out = apply_signals([member(1, "Writer.java", 1.0), test], identifier="peek", query_words=["peek"])
    out[0].private = True
    assert [c.uid for c in apply_signals(out, identifier="peek", query_words=["peek"])] == [1, 5]


def is_private(name: str, text: str) -> bool:
    return declared_standing(name, text)[0]


def is_override(name: str, text: str) -> bool:
    return declared_standing(name, text)[1]


def test_private_and_override_are_read_on_the_declaring_line() -> None:
    assert is_private("peek", "  private int peek() {")
    assert is_private("peek", "fileprivate func peek() -> Token")
    assert is_private("x", "private[this] def x = 1")
    assert not is_private("x", "private(set) var x = 0")  # a private setter: the getter is public
    assert not is_private("peek", "/** Not private. */\npublic Token peek() {")
    # the declaring line, not a doc comment that mentions the name first
    assert is_private(
        "peek", '/**\n * Returns peek\'s value.\n */\n@SuppressWarnings("x")\nprivate int peek() {'
    )
    assert not is_override("peek", "/** Peek; subclasses override it. */\npublic Token peek() {")
    assert is_override("peek", "@Override\npublic JsonToken peek() throws IOException {")
    assert is_override("Peek", "public override JsonToken Peek()")
    assert is_override("peek", "void peek() const override;")
    assert not is_override("peek", "def peek(self):\n    return override(self)")


def test_deprecation_is_read_where_a_definition_is_declared() -> None:
    assert is_deprecated("init", "@available(*, deprecated)\npublic init(name: String) {", "")
    assert is_deprecated(
        "OldClient", "// Deprecated: use NewClient.\nfunc OldClient() int {", "Deprecated: use NewClient."
    )
    assert is_deprecated("load", '#[deprecated(since = "2.0")]\npub fn load() {}', "")
    assert is_deprecated("get", "/** @deprecated use fetch */\nget() {}", "@deprecated use fetch")
    assert not is_deprecated(
        "warn_deprecated", "def warn_deprecated():\n    warnings.warn('@Deprecated')", ""
    )


def test_test_penalty_unless_query_asks_for_tests() -> None:
    cs = [cand(1, "tests/test_a.py", score=1.0), cand(2, "src/a.py", score=0.8)]
    assert apply_signals(list(cs), identifier=None, query_words=["charge"])[0].uid == 2
    cs = [cand(1, "tests/test_a.py", score=1.0), cand(2, "src/a.py", score=0.8)]
    assert apply_signals(cs, identifier=None, query_words=["charge", "tests"])[0].uid == 1


def test_generated_code_ranks_as_supporting_code() -> None:
    """A file with a generated-code marker is demoted like a test, unless the query asks for mocks or
    generated code, or the identifier is defined only there (a protobuf message, a mock constructor)."""

    def cands() -> list[Candidate]:
        mock = cand(1, "internal/mocks/checker.go", name="NewChecker", score=1.0)
        mock.generated = True
        return [mock, cand(2, "internal/checker.go", name="check", score=0.8)]

    out = apply_signals(cands(), identifier=None, query_words=["creates", "checker"])
    assert [c.uid for c in out] == [2, 1]
    assert any(e == "generated code: x0.3" for e in out[1].explain)
    out = apply_signals(cands(), identifier=None, query_words=["creates", "mock", "checker"])
    assert [c.uid for c in out] == [1, 2]
    out = apply_signals(cands(), identifier="NewChecker", query_words=["NewChecker"])
    assert out[0].uid == 1 and any("generated code, but the identifier is defined only there" in e
                                   for e in out[0].explain)  # fmt: skip


def test_a_fragment_only_tests_and_docs_hold_is_not_penalised_there() -> None:
    """`new Client(['base_uri'` is held as typed by a test and a doc's example, by no code: they are
    the answer, as rg's lines would be. Once code holds it too, they yield to it again."""

    def cands() -> list[Candidate]:
        cs = [
            cand(1, "src/Client.php", name="buildUri", score=0.035),
            cand(2, "tests/ClientTest.php", name="testSend", score=0.016),
            cand(3, "docs/quickstart.rst", kind="section", name="quickstart.rst", score=0.012),
        ]
        cs[1].literal = cs[2].literal = True
        return cs

    out = apply_signals(cands(), identifier=None, query_words=["new", "client", "base_uri"])
    assert [c.uid for c in out] == [2, 3, 1], [(c.uid, c.explain) for c in out]
    assert "test/example/vendored path, but the code is held as typed only there: x1" in out[0].explain
    held = cands()
    held[0].literal = True
    out = apply_signals(held, identifier=None, query_words=["new", "client", "base_uri"])
    assert out[0].uid == 1, [(c.uid, c.explain) for c in out]
    assert "test/example/vendored path: x0.3" in next(c for c in out if c.uid == 2).explain
    assert "docs, not code: x0.5" in next(c for c in out if c.uid == 3).explain


def test_file_saturation_damps_hits_of_a_file_past_the_allowance() -> None:
    cs = [cand(i, "a.py", score=1.0 - i / 100) for i in range(1, 4)] + [cand(9, "b.py", score=0.9)]
    out = apply_signals(cs, identifier=None, query_words=[], signals=Signals(saturation_after=2))
    assert [c.uid for c in out] == [1, 2, 9, 3]
    assert any("hit 3 of a.py" in e for e in out[3].explain)
    out = apply_signals(
        [cand(i, "a.py", score=1.0 - i / 100) for i in range(1, 7)],
        identifier=None,
        query_words=[],
        signals=Signals(),
    )
    assert [any("hit" in e for e in c.explain) for c in out] == [False] * 5 + [True]


def test_keyword_queries_find_the_definition_spelled_out() -> None:
    cs = [cand(1, "a.py", kind="module", name="a", score=1.0), cand(2, "b.py", name="ParseConfig", score=0.7)]
    out = apply_signals(cs, identifier="parse_config", query_words=["parse", "config"])
    assert out[0].uid == 2


def test_dense_floor_drops_weak_dense_only() -> None:
    cs = [cand(1, "a.py", bm25=False, vscore=0.1), cand(2, "b.py", bm25=False, vscore=0.6)]
    out = apply_signals(cs, identifier=None, query_words=[])
    assert [c.uid for c in out] == [2]


def test_path_signal_is_off_by_default_and_can_be_switched_on() -> None:
    cs = [cand(1, "src/a.py", score=1.0), cand(2, "billing/b.py", score=0.9)]
    assert apply_signals(list(cs), identifier=None, query_words=["billing"])[0].uid == 1
    cs = [cand(1, "src/a.py", score=1.0), cand(2, "billing/b.py", score=0.9)]
    assert (
        apply_signals(cs, identifier=None, query_words=["billing"], signals=Signals().with_("path"))[0].uid
        == 2
    )


def test_signals_can_be_switched_off() -> None:
    cs = [cand(1, "tests/test_a.py", score=1.0), cand(2, "src/a.py", score=0.8)]
    out = apply_signals(cs, identifier=None, query_words=["x"], signals=Signals().without("tests"))
    assert out[0].uid == 1


def test_is_test_path() -> None:
    for p in [
        "tests/a.py",
        "pkg/foo_test.go",
        "src/a.test.ts",
        "x/test_y.py",
        "examples/demo.rs",
        "node_modules/x/index.js",
        "FooTest.java",
        "conftest.py",
        "test.c",
        "src/tests.rs",
        "packages/bench/bench-invalid.ts",  # zod: its `safeParse` came before the library's
        "benches/search.rs",  # cargo's benchmark folder
        "benchmarks/run.py",
        # Vendored copies: spdlog's fmt outranked spdlog's own `registry::get` for a commit title.
        "include/spdlog/fmt/bundled/format.h",
        "src/pip/_vendor/rich/text.py",
        "third-party/zlib/inflate.c",
        "3rdparty/json.hpp",
        "lib/thirdparty/lua/lapi.c",
        "playground/worker/vite.config.js",  # an end-to-end suite's apps
        "e2e/login.spec.ts",
        "apps/web/e2e/fixtures.ts",
        "_examples/simple/main.go",  # Go's tools skip a folder whose name starts with `_`
        "pkg/_testdata/a.go",
    ]:
        assert is_test_path(p), p
    for p in [
        "src/testing_utils_core.py",
        "src/attest.py",
        "contest/a.py",
        "src/latest.c",
        "contest.c",
        "src/benchmark.rs",
        "workbench/a.ts",
        "src/bundler/pack.ts",
        "src/vendors.py",
        "packages-private/sfc-playground/src/App.vue",  # a product named after a playground
        "src/e2ee/keys.ts",
        "src/_example_utils.py",
        "lib/_internal/examples.go",
    ]:
        assert not is_test_path(p), p
    # Test helpers by name, as a file or a folder.
    for p in ["crates/searcher/src/testutil.rs", "internal/testutil/run.go", "src/test_helpers.py"]:
        assert is_test_path(p), p


def test_is_test_code_sees_test_modules_inside_source_files() -> None:
    # Rust's `#[cfg(test)] mod tests` beside the code: its functions are tests, the code is not.
    assert is_test_code("crates/regex/src/matcher.rs", "tests.case_smart")
    assert is_test_code("src/lib.rs", "tests.helpers.build")
    assert not is_test_code("crates/regex/src/matcher.rs", "RegexMatcher.new")
    assert not is_test_code("src/contest.rs", "contests.run")  # a container merely containing "test"
    assert not is_test_code("src/api.py", "Tests.run")  # upper case: more often a real type
    assert is_test_code("tests/a.py", "helper")
    assert is_test_code("src/fmt/mod.rs", "fmt_tests.parse_only_brace_escapes")  # `mod fmt_tests`
    assert is_test_code("src/filter.rs", "test_parse.sizes")
    assert not is_test_code("src/owner.rs", "owner_parsing.parse")


def test_inline_rust_tests_are_demoted_below_the_code() -> None:
    test_fn = cand(1, "crates/printer/src/standard.rs", score=1.0)
    test_fn.qualified_name = "tests.max_columns"
    code = cand(2, "crates/printer/src/standard.rs", score=0.8)
    code.qualified_name = "StandardBuilder.max_columns"
    out = apply_signals([test_fn, code], identifier=None, query_words=["max", "columns"], signals=Signals())
    assert [c.uid for c in out] == [2, 1]


def test_an_identifier_typed_with_capitals_matches_case_first() -> None:
    # Smart case, as rg -S: `Searcher` is the type; the method `searcher` is only spelled alike.
    def pair() -> list[Candidate]:
        method = cand(1, "crates/core/flags/hiargs.rs", name="searcher", score=1.0)
        method.qualified_name = "HiArgs.searcher"
        struct = cand(2, "crates/searcher/src/searcher/mod.rs", kind="class", name="Searcher", score=0.95)
        return [method, struct]

    out = apply_signals(pair(), identifier="Searcher", query_words=["Searcher"])
    assert [c.uid for c in out] == [2, 1]
    # Typed in lower case, a definition spelled to the letter is the one meant; the type is alike.
    out = apply_signals(pair(), identifier="searcher", query_words=["searcher"])
    assert [(c.uid, c.defines) for c in out] == [(1, "exact"), (2, "spelled")]
    # With no definition spelled as typed, any case matches.
    out = apply_signals(pair()[1:], identifier="searcher", query_words=[])
    assert [(c.uid, c.defines) for c in out] == [(2, "exact")]


def test_a_module_constant_spelled_as_typed_leads_a_type_of_other_case_and_a_local() -> None:
    # `const ky = createInstance()` at module level is what `ky` asks for: not the class `Ky`, nor a
    # local function `ky` inside `createInstance`, which score higher on their own.
    def three() -> list[Candidate]:
        cls = cand(1, "source/core/Ky.ts", kind="class", name="Ky", score=1.0)
        local = cand(2, "source/index.ts", name="ky", score=0.95)
        local.qualified_name, local.local = "createInstance.ky", True
        const = cand(3, "source/index.ts", kind="constant", name="ky", score=0.8)
        return [cls, local, const]

    out = apply_signals(three(), identifier="ky", query_words=["ky"])
    assert [c.uid for c in out] == [3, 1, 2]
    # A constant still yields to a function of its name at top level (a flag `var List bool`).
    fn = cand(4, "list.go", name="List", score=0.6)
    flag = cand(5, "flags.go", kind="constant", name="List", score=0.7)
    assert [c.uid for c in apply_signals([fn, flag], identifier="List", query_words=[])] == [4, 5]
    # ... and to a method of its name (a flag `Status bool` to `Executor.Status`).
    method = cand(6, "status.go", kind="method", name="Status", score=0.6)
    method.qualified_name = "Executor.Status"
    flag = cand(7, "flags.go", kind="constant", name="Status", score=0.7)
    assert [c.uid for c in apply_signals([method, flag], identifier="Status", query_words=[])] == [6, 7]
    # A struct field of the name yields as a constant does (`Options.List bool` to `func List`).
    field = cand(8, "options.go", kind="field", name="List", score=0.7)
    field.qualified_name = "Options.List"
    assert [c.uid for c in apply_signals([fn, field], identifier="List", query_words=[])] == [4, 8]


def test_a_path_qualified_name_is_defined_where_its_folders_say() -> None:
    # `clap_builder::Command`: the crate folder qualifies the struct, whose qualified name is `Command`.
    def pair() -> list[Candidate]:
        method = cand(1, "clap_builder/src/derive.rs", kind="method", name="command", score=1.0)
        method.qualified_name = "CommandFactory.command"
        struct = cand(2, "clap_builder/src/builder/command.rs", kind="class", name="Command", score=0.9)
        return [method, struct]

    for ident in ("clap_builder::Command", "clap_builder::builder::Command", "crate::builder::Command"):
        out = apply_signals(pair(), identifier=ident, query_words=[ident])
        assert [c.uid for c in out] == [2, 1] and out[0].defines == "exact", ident
    # A workspace crate named after its project and its folder: `grep_searcher` in `crates/searcher/`.
    struct = cand(3, "crates/searcher/src/searcher/mod.rs", kind="class", name="Searcher")
    assert apply_signals([struct], identifier="grep_searcher::Searcher", query_words=[])[0].defines == "exact"
    # ... and a facade crate's module re-exports it: `grep::searcher::Searcher`.
    struct = cand(3, "crates/searcher/src/searcher/mod.rs", kind="class", name="Searcher")
    assert (
        apply_signals([struct], identifier="grep::searcher::Searcher", query_words=[])[0].defines == "exact"
    )
    # A qualifier that names neither a container nor a folder is another type's `Command`.
    for ident in ("clap_lex::Command", "parser::Command", "ab::Command"):
        out = apply_signals(pair(), identifier=ident, query_words=[ident])
        assert not any(c.defines for c in out), ident
    # A Python module qualifies its function the same way.
    for ident, defined in (("helpers.get_root_path", "exact"), ("views.get_root_path", "")):
        fn = cand(4, "src/flask/helpers.py", name="get_root_path")
        assert apply_signals([fn], identifier=ident, query_words=[])[0].defines == defined, ident


def test_a_camel_case_qualifier_is_a_type_not_a_project_prefix_before_a_folder() -> None:
    # `HTTPAdapter.send` where no HTTPAdapter exists: `BunServerWebSocket.send` under `adapter/` is
    # not its definition (the folder suffix rule is for crate names, `grep_searcher` -> `searcher/`).
    for ident in ("HTTPAdapter.send", "HTTPAdapter::send", "httpadapter::send"):
        method = cand(1, "src/adapter/bun/websocket.ts", kind="method", name="send")
        method.qualified_name = "BunServerWebSocket.send"
        assert apply_signals([method], identifier=ident, query_words=[])[0].defines == "", ident
    # A snake_case crate still ends in its folder, and a vendor namespace before a file's name.
    for ident, path in (
        ("grep_searcher::Searcher", "crates/searcher/src/searcher/mod.rs"),
        ("grep-searcher::Searcher", "crates/searcher/src/lib.rs"),
        ("GuzzleHttp::Client::send", "src/Client.php"),
    ):
        last = ident.rsplit("::", 1)[-1]
        node = cand(2, path, kind="class" if last[0].isupper() else "method", name=last)
        node.qualified_name = "Client.send" if last == "send" else last
        assert apply_signals([node], identifier=ident, query_words=[])[0].defines == "exact", ident


def test_explain_names_a_similarity_factor_only_where_one_applied() -> None:
    # 1.4/(60+10) x 70 is not 1.4 in floats: a BM25 term read "x34.44 alike" (its raw score).
    bm25 = [StreamHit(uid=i, score=34.44) for i in range(1, 11)]
    near = [StreamHit(uid=10, score=0.4)]
    out = {c.uid: c for c in rrf({"bm25": bm25, "symbol": near}, weights={"bm25": 1.4, "symbol": 1.5})}
    assert out[10].explain == [
        "rrf bm25: 1.4/(60+10) = 0.02000",
        "rrf symbol: 1.5/(60+1) x0.40 alike = 0.00984",
    ]


def test_a_qualified_name_is_matched_by_whole_parts() -> None:
    # moshi: `JsonAdapter.Factory` is the interface in JsonAdapter.kt, not the companion object
    # `RecordJsonAdapter.Factory`, whose qualifier merely ends in the same letters.
    companion = cand(1, "internal/RecordJsonAdapter.kt", kind="class", name="Factory", score=1.0)
    companion.qualified_name = "RecordJsonAdapter.Factory"
    interface = cand(2, "JsonAdapter.kt", kind="interface", name="Factory", score=0.9)
    interface.qualified_name = "JsonAdapter.Factory"
    out = apply_signals([companion, interface], identifier="JsonAdapter.Factory", query_words=[])
    assert [(c.uid, c.defines) for c in out] == [(2, "exact"), (1, "")]


def test_scope_paths_names_the_files_under_a_scope() -> None:
    files = ["packages/compiler-core/src/parse.ts", "packages/runtime-core/src/h.ts", "src/KeepAlive.ts"]
    assert scope_paths(files, "compiler-core") == ["packages/compiler-core/src/parse.ts"]
    assert scope_paths(files, "keep-alive") == ["src/KeepAlive.ts"]
    assert scope_paths(files, "core") == files[:2]
    assert scope_paths(files, "ts") == []  # too short to name an area inside a name (`parse.ts`)
    assert scope_paths(files, "src") == []  # names every file: nothing to prefer
    assert scope_paths(files, "") == []


def test_a_scope_matches_from_a_word_boundary_of_a_name() -> None:
    files = ["src/runtime/park.rs", "src/time/sleep.rs", "clap_mangen/src/render.rs", "src/timeout.rs"]
    # `time` is a word of `time/` and begins `timeout.rs`, but only ends `runtime/`.
    assert scope_paths(files, "time") == ["src/time/sleep.rs", "src/timeout.rs"]
    assert scope_paths(files, "man") == ["clap_mangen/src/render.rs"]
    assert scope_paths(files, "runtime") == ["src/runtime/park.rs"]


def test_a_two_letter_scope_names_a_whole_folder_or_file() -> None:
    """`io: ...` and `fs: ...` name tokio's `io/` and `fs/` folders; inside a longer name (`ratio.rs`,
    `offset.rs`) two letters match by accident, so they count only as a whole name."""
    files = ["src/io/read.rs", "src/fs/file.rs", "src/ratio.rs", "src/offset.rs", "gin/fs.go", "src/rt.rs"]
    assert scope_paths(files, "io") == ["src/io/read.rs"]
    assert scope_paths(files, "fs") == ["gin/fs.go", "src/fs/file.rs"]
    assert scope_paths(files, "ui") == []
    c = cand(1, "src/io/read.rs", name="read", score=0.02)
    out = apply_signals([c], identifier=None, query_words=["do", "not", "drop", "reads"], scope="io")
    assert "path lies in scope 'io': x1.3" in out[0].explain


def test_a_commit_scope_naming_examples_asks_for_examples() -> None:
    example = cand(1, "examples/view-constructor/github-view.js", score=1.0)
    lib = cand(2, "lib/view.js", score=0.9)
    out = apply_signals(
        [example, lib], identifier=None, query_words=["fix", "reference", "error"], scope="examples"
    )
    assert [c.uid for c in out] == [1, 2], [c.explain for c in out]
    out = apply_signals(
        [cand(1, "examples/view-constructor/github-view.js", score=1.0), cand(2, "lib/view.js", score=0.9)],
        identifier=None,
        query_words=["fix", "reference", "error"],
        scope="view",
    )
    assert [c.uid for c in out] == [2, 1]


def test_a_node_holding_the_code_fragment_as_typed_leads() -> None:
    # `cacheCleared := false`: the long function holding it scores below the small nodes named by
    # its words (`ChunkCache`); holding the fragment as typed is the stronger evidence.
    def pair() -> list[Candidate]:
        named = cand(1, "cache.go", kind="struct", name="ChunkCache", score=0.035)
        holder = cand(2, "matcher.go", kind="method", name="Loop", score=0.0165)
        holder.literal = True
        return [named, holder]

    out = apply_signals(pair(), identifier=None, query_words=["cacheCleared", ":=", "false"])
    assert [c.uid for c in out] == [2, 1] and "holds the code as typed: x3" in out[0].explain
    off = apply_signals(pair(), identifier=None, query_words=[], signals=Signals().without("literal"))
    assert [c.uid for c in off] == [1, 2]


def test_a_rust_fn_without_pub_is_private_where_pub_could_be_written() -> None:
    def rust_private(text: str) -> bool:
        return declared_standing("is_match", text, private_by_default=True)[0]

    assert rust_private("fn is_match(&self) -> bool {")
    assert rust_private("/// Doc.\n#[inline]\nconst unsafe fn is_match() {}")
    assert rust_private('extern "C" fn is_match() {}')
    assert not rust_private("pub fn is_match(&self) -> bool {")
    assert not rust_private("pub(crate) async fn is_match() {}")
    assert not rust_private("macro_rules! is_match {")  # a macro is exported by attribute, not `pub`
    assert not declared_standing("is_match", "fn is_match() {}")[0]  # elsewhere no keyword, no private


def test_a_changelog_yields_to_code_even_when_docs_are_asked_for() -> None:
    """A changelog's section lists past commit titles, so it holds the words of the next one ("docs:
    improve the error's message") better than the code it changes. Docs words lift the docs
    penalty from prose, not from a changelog; a query naming the changelog asks for it."""

    def cands() -> list[Candidate]:
        return [
            cand(1, "packages/app/CHANGELOG.md", kind="section", name="2.1.0", score=0.040),
            cand(2, "packages/app/src/errors.ts", name="formatError", score=0.025),
            cand(3, "docs/errors.md", kind="section", name="Errors", score=0.030),
        ]

    words = ["docs", "improve", "error", "message"]
    out = apply_signals(cands(), identifier=None, query_words=words)
    assert [c.uid for c in out] == [3, 2, 1], [(c.uid, c.explain) for c in out]
    assert out[2].explain[-1] == "release history, not code: x0.5"
    out = apply_signals(cands(), identifier=None, query_words=["improve", "error"])
    assert [c.uid for c in out] == [2, 3, 1], [(c.uid, c.explain) for c in out]
    assert out[2].explain[-2:] == ["docs, not code: x0.5", "release history, not code: x0.5"]
    out = apply_signals(cands(), identifier=None, query_words=["error", "changelog"])
    assert out[0].uid == 1


def test_a_template_word_asks_for_code_not_docs() -> None:
    """ "Template" in code search is an engine's input, a component's markup or a scaffold a generator
    copies: "add eslint to the react template" asks for the generator, not its README."""
    cs = [
        cand(1, "packages/create-app/README.md", kind="section", name="Templates", score=0.030),
        cand(2, "packages/create-app/src/index.ts", name="copyTemplate", score=0.020),
    ]
    out = apply_signals(cs, identifier=None, query_words=["add", "eslint", "react", "template"])
    assert [c.uid for c in out] == [2, 1], [(c.uid, c.explain) for c in out]


def test_a_module_in_backticks_names_a_folders_module_file() -> None:
    """`tokio::fs` is `tokio/src/fs/mod.rs`, `tokio_util::io` is `tokio-util/src/io/mod.rs`, a package
    `click` its `__init__.py`, a folder `router` its `index.ts`, a crate its `lib.rs`: a module is
    named as code names it, without `src/` and with the crate's underscore; a sibling file of the
    folder is not the module."""
    files = [
        "tokio/src/fs/mod.rs",
        "tokio/src/fs/file.rs",
        "tokio/src/lib.rs",
        "tokio-util/src/io/mod.rs",
        "src/click/__init__.py",
        "src/click/core.py",
        "web/router/index.ts",
        "web/router/link.ts",
    ]
    assert module_files(files, ["tokio::fs"]) == ["tokio/src/fs/mod.rs"]
    assert module_files(files, ["tokio_util::io"]) == ["tokio-util/src/io/mod.rs"]
    assert module_files(files, ["click"]) == ["src/click/__init__.py"]
    assert module_files(files, ["router"]) == ["web/router/index.ts"]
    assert module_files(files, ["tokio"]) == ["tokio/src/lib.rs"]
    assert module_files(files, ["click.core"]) == ["src/click/core.py"]
    assert module_files(files, ["src"]) == []


def test_a_scope_written_as_a_path_names_the_paths_holding_its_steps_in_order() -> None:
    """`ignore/types: add Lean` changes `crates/ignore/src/default_types.rs`: no one folder or file
    name holds `ignoretypes`, so the scope named nothing; its steps, in order, name the file."""
    files = [
        "crates/ignore/src/default_types.rs",
        "crates/ignore/src/types.rs",
        "crates/ignore/src/walk.rs",
        "crates/core/types/ignore.rs",
        "pkg/brew/ripgrep-bin.rb",
        "net/http/server.go",
        "net/url/url.go",
    ]
    assert scope_paths(files, "ignore/types") == files[:2]
    assert scope_paths(files, "pkg/brew") == ["pkg/brew/ripgrep-bin.rb"]
    assert scope_paths(files, "net/http") == ["net/http/server.go"]  # `http` is 4 letters: any word start
    c = cand(1, "crates/ignore/src/default_types.rs", name="DEFAULT_TYPES", score=0.02)
    out = apply_signals([c], identifier=None, query_words=["add", "lean"], scope="ignore/types")
    assert "path lies in scope 'ignore/types': x1.3" in out[0].explain
