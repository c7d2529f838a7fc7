"""Ranking behaviours on realistic query shapes, over small repositories parsed by real tree-sitter.

Each test builds a tiny repository where a naive ranking picks the wrong answer, then checks that the
right one wins and that `--explain` names the signal responsible. The numbers behind each signal are in
docs/benchmarks.md (the development set); these tests pin the behaviour, not the tuning.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from indexlib import BuildOptions, SearchOptions, build_index, open_engine
from indexlib.retrieval.projectname import project_name_boosts
from indexlib.retrieval.query import Route, classify, parse_query
from indexlib.retrieval.signals import Signals
from tests.repokit import make_repo


def top(repo: Path, text: str, **kw: object) -> list[tuple[str, str]]:
    res = open_engine(repo / ".qry").search(text, SearchOptions(explain=True, **kw))  # type: ignore[arg-type]
    return [(h.symbol, h.path) for h in res.results]


def test_a_doc_sentence_finds_its_function_over_names_that_share_its_words(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path,
        {
            "src/error.rs": "impl Error {\n    /// Print the help message.\n    pub fn display_help(&self) {\n"
            "        print(self.help);\n    }\n}\n",
            "src/arg.rs": "impl Arg {\n    /// Do not display in help the environment variable name.\n"
            "    pub fn hide_env(self, yes: bool) -> Self {\n        self.setting(ArgSettings::HideEnv, yes)\n"
            "    }\n}\n",
        },
    )
    res = open_engine(repo / ".qry").search(
        "Do not display in help the environment variable name.", SearchOptions(explain=True)
    )
    assert res.meta.route == "natural"
    assert res.results[0].symbol == "Arg.hide_env", [h.symbol for h in res.results]
    # The doc comment belongs to the node: its range starts at the comment and its snippet shows it.
    assert res.results[0].start_line == 2
    assert "Do not display in help" in res.results[0].snippet.text
    assert any("quotes" in e for e in res.results[0].explain)
    off = open_engine(repo / ".qry").search(
        "Do not display in help the environment variable name.",
        SearchOptions(signals=Signals().without("quote")),
    )
    assert off.results[0].symbol == "Error.display_help", "the case needs the quote signal"


def test_a_commit_scope_prefers_code_under_that_folder(tmp_path: Path) -> None:
    # Without the scope signal the lexer's function wins: it holds every word of the title.
    repo = make_repo(
        tmp_path,
        {
            "lexer/scan.py": "def handle_empty_input(text):\n    '''Handle empty input.'''\n    return text or None\n",
            "parser/read.py": "def handle_input(text):\n    '''Handle the input text.'''\n    return text.strip()\n",
        },
    )
    engine = open_engine(repo / ".qry")
    res = engine.search("parser: handle empty input", SearchOptions(explain=True))
    assert res.meta.route == "natural", "a commit title with a scope is prose, not a signature"
    assert res.results[0].path == "parser/read.py", [h.path for h in res.results]
    assert any("scope 'parser'" in e for e in res.results[0].explain)
    off = engine.search("parser: handle empty input", SearchOptions(signals=Signals().without("scope")))
    assert off.results[0].path == "lexer/scan.py"
    assert classify(parse_query("lex: allow E in scientific notation")) is Route.NATURAL
    assert parse_query("fix(parser): Don't report conflicting arguments").scope == "parser"


def test_a_commit_scope_brings_its_files_into_the_head(tmp_path: Path) -> None:
    # Sixty nodes outside the scope hold every word of the title, the scoped one only two: without the
    # scope inside the BM25 stream it ranks below the fused head that the scope boost reorders.
    files = {
        f"lexer/scan_{i:02d}.py": f"def scan_empty_input_{i}(text):\n"
        '    """Handle empty input before the parser sees it."""\n    return text or None\n'
        for i in range(60)
    }
    files["parser/read.py"] = 'def read_input(text):\n    """Handle input."""\n    return text.strip()\n'
    repo = make_repo(tmp_path, files)
    engine = open_engine(repo / ".qry")
    res = engine.search("parser: handle empty input", SearchOptions(explain=True))
    assert res.results[0].path == "parser/read.py", [h.path for h in res.results]
    assert "scope 'parser' names 1 file: BM25 x1.3 there" in res.meta.notes
    unscoped = msgspec.structs.replace(Signals(), scope_bm25_boost=0.0)
    off = engine.search("parser: handle empty input", SearchOptions(signals=unscoped))
    assert "parser/read.py" not in [h.path for h in off.results]


def test_a_word_in_backticks_weighs_as_code(tmp_path: Path) -> None:
    # The waker holds two of the title's words, the queue one: typed in backticks, that one is code.
    repo = make_repo(
        tmp_path,
        {
            "src/waker.rs": "/// Wake every waiter when the list is cleared.\n"
            "fn wake_waiters_when_cleared(q: &List) {\n    for w in q.waiters() { w.wake(); }\n}\n",
            "src/delay_queue.rs": "impl DelayQueue {\n    /// Remove every entry.\n    pub fn clear(&mut self) {\n"
            "        self.entries.clear();\n        self.notify();\n    }\n}\n",
        },
    )
    engine = open_engine(repo / ".qry")
    assert parse_query("wake `DelayQueue` when cleared").code_spans == ["DelayQueue"]
    res = engine.search("wake `DelayQueue` when cleared", SearchOptions())
    assert res.results[0].path == "src/delay_queue.rs", [h.path for h in res.results]
    off = engine.search(
        "wake `DelayQueue` when cleared", SearchOptions(signals=Signals().without("code_span"))
    )
    assert off.results[0].path == "src/waker.rs"


def test_a_module_in_backticks_weighs_as_a_scope(tmp_path: Path) -> None:
    # Sixty nodes elsewhere hold the title's words; the module it types in backticks holds one.
    files = {
        f"src/app/view_{i:02d}.py": f"def render_{i}(node):\n"
        '    """Add type annotations for the formatting of instance attributes."""\n    return node\n'
        for i in range(60)
    }
    files["src/app/formatting.py"] = (
        "class HelpFormatter:\n    def __init__(self, width):\n        self.width = width\n"
    )
    files["tests/test_formatting.py"] = "def test_width():\n    assert HelpFormatter(3).width == 3\n"
    repo = make_repo(tmp_path, files)
    engine = open_engine(repo / ".qry")
    title = "Add type annotations for instance attributes in `formatting`"
    res = engine.search(title, SearchOptions(explain=True))
    assert res.results[0].path == "src/app/formatting.py", [h.path for h in res.results]
    assert "a module in backticks names 1 file: BM25 x1.3 there" in res.meta.notes
    plain = engine.search(title.replace("`", ""), SearchOptions())
    assert "src/app/formatting.py" not in [h.path for h in plain.results[:3]], "the case needs the backticks"


def test_one_file_cannot_fill_the_page(tmp_path: Path) -> None:
    many = "".join(f"def charge_retry_{i}(x):\n    return retry_charge(x, {i})\n\n" for i in range(14))
    repo = make_repo(
        tmp_path,
        {"billing/many.py": many, "billing/one.py": "def charge_retry(x):\n    return retry_charge(x)\n"},
    )
    hits = top(repo, "charge retry", top_k=10)
    paths = [p for _s, p in hits]
    assert "billing/one.py" in paths
    assert paths.count("billing/many.py") < len(paths)


def test_docs_and_tests_yield_to_code_unless_asked_for(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path,
        {
            "README.md": "# Usage\n\nCall parse_settings to parse settings from a file. parse settings parse.\n",
            "tests/test_settings.py": "def test_parse_settings():\n    assert parse_settings('a') == {}\n",
            "app/settings.py": "def load(path):\n    '''Parse settings from a file.'''\n    return parse(path)\n",
        },
    )
    hits = top(repo, "how are settings parsed from a file")
    assert hits[0][1] == "app/settings.py", hits
    asked = top(repo, "readme docs parse settings")
    assert asked[0][1] == "README.md", asked


def test_no_evidence_no_result(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path, {"a.js": "/** A short description for logs. */\nfunction describe() { return 1 }\n"}
    )
    res = open_engine(repo / ".qry").search("url_for", SearchOptions())
    assert res.results == []
    assert any(note.startswith("no result") for note in res.meta.notes)
    assert top(repo, "describe")[0][0] == "describe"


@pytest.mark.parametrize(
    ("text", "route"),
    [
        ("Fix bug where # fmt: skip is not being respected with one-liner functions", Route.NATURAL),
        ("Returns the file(s) that match the given pattern", Route.NATURAL),
        ("func (s *Server) Handle(w http.ResponseWriter)", Route.SIGNATURE),
        ("retry failed charge", Route.KEYWORDS),
        ("Server.Handle", Route.IDENTIFIER),
    ],
)
def test_prose_with_punctuation_routes_as_prose(text: str, route: Route) -> None:
    assert classify(parse_query(text)) is route


def test_declarations_and_constants_are_findable(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path,
        {
            "shapes.ts": "/** Anything with an area. */\nexport interface Shape {\n  /** The area in square units. */\n"
            "  area(): number\n}\nexport type ShapeList = Shape[]\nexport const DEFAULT_SIDES = 4\n",
            "config.py": "# Seconds before a request gives up.\nREQUEST_TIMEOUT = 30\n",
        },
    )
    for name, kind in [("ShapeList", "type"), ("DEFAULT_SIDES", "constant"), ("REQUEST_TIMEOUT", "constant")]:
        res = open_engine(repo / ".qry").search(name, SearchOptions())
        assert (res.results[0].symbol, res.results[0].kind) == (name, kind), name
    assert top(repo, "Shape.area")[0][0] == "Shape.area"
    assert top(repo, "the area in square units")[0][0] == "Shape.area"


def test_a_code_fragment_finds_the_function_holding_it_as_written(tmp_path: Path) -> None:
    """`cacheCleared := false` is in one long function; small nodes named by its words (`ChunkCache`,
    `cacheClear`) hold more of them for their length, and lead without the literal signal."""
    loop = "\n".join(f"\t\tstep{i} := work({i})" for i in range(40))
    repo = make_repo(
        tmp_path,
        {
            "cache.go": "package m\n\n// ChunkCache caches chunks.\ntype ChunkCache struct {\n\tcleared bool\n}\n\n"
            "// cacheClear clears the cache.\nfunc cacheClear(c *ChunkCache) {\n\tc.cleared = false\n}\n",
            "matcher.go": f"package m\n\nfunc Loop() {{\n{loop}\n\t\tcacheCleared := false\n\t\t_ = cacheCleared\n}}\n",
        },
    )
    res = open_engine(repo / ".qry").search("cacheCleared := false", SearchOptions(explain=True))
    assert res.meta.route == "signature"
    assert res.results[0].symbol == "Loop", [h.symbol for h in res.results]
    assert "holds the code as typed: x3" in res.results[0].explain
    assert res.results[0].line == 44  # shown by the line holding it
    off = open_engine(repo / ".qry").search(
        "cacheCleared := false", SearchOptions(signals=Signals().without("literal"))
    )
    assert off.results[0].symbol != "Loop", "the case needs the literal signal"


def test_a_python_condition_is_code_and_found_past_the_head(tmp_path: Path) -> None:
    """`if content_type is not None:` reads as English words but is a statement; the one function
    holding it ranks below eighty short ones holding all its words (BM25 rank 81), past the fused head
    a short answer reads: it joins the head for holding the code as typed."""
    short = "".join(
        f"def kind_{i}(content_type, kind):\n    if content_type is not kind:\n        return None\n\n\n"
        for i in range(80)
    )
    body = "".join(f"    step_{i} = work({i})\n" for i in range(40))
    target = f"def lexer_for(response):\n{body}    content_type = response.headers.get('type')\n"
    target += "    if content_type is not None:\n        return content_type\n"
    repo = make_repo(tmp_path, {"kinds.py": short, "main.py": target})
    res = open_engine(repo / ".qry").search("if content_type is not None:", SearchOptions(top_k=2))
    assert res.meta.route == "signature"
    assert res.results[0].symbol == "lexer_for", [h.symbol for h in res.results]
    assert res.results[0].line == 43


def test_a_member_no_definition_has_is_found_in_its_type(tmp_path: Path) -> None:
    """`Response.media_type` is a class attribute, `Arg.help` a struct field, `A.size` a Java field,
    `Cache._templates` a C# field, `Handlers::$stack` a PHP property: no definition of their own, so the
    note says which line of which type declares them."""
    repo = make_repo(
        tmp_path,
        {
            "responses.py": "class Response:\n    media_type = None\n    charset: str = 'utf-8'\n\n"
            "    def render(self):\n        return self.media_type\n\n\n"
            "class HTMLResponse(Response):\n    media_type = 'text/html'\n",
            "arg.rs": "pub struct Arg {\n    /// The id.\n    pub id: Id,\n    help: Option<String>,\n}\n",
            "A.java": "class A {\n    // Not size: sized.\n    private int size = 0;\n}\n",
            # C# and PHP open a type's body on a line of its own; PHP declares a property with `$`.
            "Cache.cs": "namespace N\n{\n    class Cache\n    {\n        readonly Hashtable _templates = new();\n"
            "        public Cache() { }\n    }\n}\n",
            "Handlers.php": "<?php\nnamespace G;\n\nclass Handlers\n{\n    /** @var array */\n    private $stack = [];\n"
            "\n    public function push($h) { $this->stack[] = $h; }\n}\n",
        },
    )
    for query, where in [
        ("Cache._templates", "its class N.Cache declares it at Cache.cs:5"),
        ("Handlers::$stack", "its class G.Handlers declares it at Handlers.php:7"),
        ("Handlers.stack", "its class G.Handlers declares it at Handlers.php:7"),
        ("Response.media_type", "its class Response declares it at responses.py:2"),
        ("Response.charset", "its class Response declares it at responses.py:3"),
        ("Arg.help", "its struct Arg declares it at arg.rs:4"),
        ("A.size", "its class A declares it at A.java:3"),
    ]:
        res = open_engine(repo / ".qry").search(query, SearchOptions())
        assert f"no definition named {query!r}: {where}" in res.meta.notes, (query, res.meta.notes)
    res = open_engine(repo / ".qry").search("Response.status_code", SearchOptions())
    assert not any("declares it" in n for n in res.meta.notes), res.meta.notes


def test_a_typescript_property_is_found_in_its_interface_or_object_type(tmp_path: Path) -> None:
    """execa's `readonly forceKillAfterDelay?: ..` is a property of `type CommonOptions = {..}`, 300
    lines long: `CommonOptions.forceKillAfterDelay` said "the results spelling it come first" (the
    `?` after the name, and the member past the type's first window), and the bare name too, though
    a type among its results declares it."""
    members = "".join(f"\t/** Option {i}. */\n\treadonly option{i}?: number;\n" for i in range(150))
    repo = make_repo(
        tmp_path,
        {
            "options.d.ts": "export type CommonOptions<\n\tIsSync extends boolean = boolean,\n> = {\n"
            f"{members}\treadonly forceKillAfterDelay?: number | boolean;\n}};\n",
            "client.ts": "export interface Client {\n  timeout?: number;\n  retries: number;\n}\n",
            "kill.ts": "export const normalizeForceKillAfterDelay = (forceKillAfterDelay: number) =>\n"
            "  forceKillAfterDelay * 2;\n",
        },
    )
    line = 3 + 2 * 150 + 1
    for query, where in [
        ("Client.timeout", "its interface Client declares it at client.ts:2"),
        ("CommonOptions.forceKillAfterDelay", f"its type CommonOptions declares it at options.d.ts:{line}"),
        ("forceKillAfterDelay", f"the type CommonOptions declares it at options.d.ts:{line}"),
    ]:
        res = open_engine(repo / ".qry").search(query, SearchOptions())
        assert f"no definition named {query!r}: {where}" in res.meta.notes, (query, res.meta.notes)


def test_a_parameter_a_local_or_a_docstring_line_is_no_member_of_the_type(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path,
        {
            "client.py": 'class Client:\n    """A client.\n\n    >>> response = client.get(url)\n    """\n\n'
            "    timeout = 5\n\n    def nonce(self, count: int, seed: bytes) -> bytes:\n        return seed\n\n"
            "    def __init__(\n        self,\n        verify: bool = True,\n    ) -> None:\n        self.verify = verify\n",
            "Policy.java": "/**\n * Policies.\n */\npublic enum Policy {\n  /** Doubles. */\n  DOUBLE {\n"
            "    @Override public Object read() { return 1; }\n  },\n  LONG;\n}\n",
        },
    )
    for query in ("Client.response", "Client.seed", "Client.verify"):
        res = open_engine(repo / ".qry").search(query, SearchOptions())
        assert not any("declares it" in n for n in res.meta.notes), (query, res.meta.notes)
    for query, where in [
        ("Client.timeout", "its class Client declares it at client.py:7"),
        ("Policy.DOUBLE", "its enum Policy declares it at Policy.java:6"),
        ("Policy.LONG", "its enum Policy declares it at Policy.java:9"),
    ]:
        res = open_engine(repo / ".qry").search(query, SearchOptions())
        assert f"no definition named {query!r}: {where}" in res.meta.notes, (query, res.meta.notes)


def test_a_sentence_naming_its_own_project_ranks_by_its_other_words(tmp_path: Path) -> None:
    """`acme_json` is the crate's name (Cargo.toml): written in every doc example's `use` line, it
    says nothing of where escaping is; a definition named like the project keeps its weight."""
    example = "/// ```\n/// # use acme_json::json;\n/// let v = json!({});\n/// ```\n"
    files = {
        "Cargo.toml": '[package]\nname = "acme-json"\nversion = "1.0.0"\n',
        "src/value.rs": "".join(
            f"/// The value of strings #{i}.\n{example}pub fn value_{i}() -> u8 {{ {i} }}\n\n"
            for i in range(4)
        ),
        "src/util.rs": "".join(
            f"/// Step {i} of the reader.\npub fn step_{i}() -> u8 {{ {i} }}\n\n" for i in range(30)
        ),
        "src/ser.rs": "/// Writes a string with its special characters escaped.\n"
        "pub fn format_escaped_str(out: &mut String, s: &str) {\n    for c in s.chars() { out.push(c); }\n}\n",
    }
    repo = make_repo(tmp_path, files)
    engine = open_engine(repo / ".qry")
    question = "where does acme_json escape strings"
    assert top(repo, question)[0][0] == "format_escaped_str", top(repo, question)
    off = engine.search(question, SearchOptions(signals=Signals().without("project")))
    assert off.results[0].symbol != "format_escaped_str", "the test shows what the signal changes"
    weighed = project_name_boosts(engine.snapshot(), parse_query(question), {}, 0.2)
    assert weighed == {"acmejson": 0.2, "acme": 0.2, "json": 0.2}
    assert project_name_boosts(engine.snapshot(), parse_query("acme_json json escape"), {}, 0.2) == {
        "acmejson": 0.2,
        "acme": 0.2,
    }  # `json` is a word of its own there
    ledger = make_repo(
        tmp_path / "ledger",
        {"pyproject.toml": '[project]\nname = "ledger"\n', "ledger.py": "class Ledger:\n    pass\n"},
    )
    named = open_engine(ledger / ".qry").snapshot()
    assert project_name_boosts(named, parse_query("how does ledger post entries"), {}, 0.2) == {}


def test_a_pasted_struct_tag_finds_the_code_holding_it(tmp_path: Path) -> None:
    """`binding:"required"` is a tag as written: its words alone ranked the `Binding` interface first."""
    files = {
        "binding.go": "package binding\n\n// Binding binds a request; required fields are checked.\n"
        "type Binding interface {\n\tBind(required bool) error\n}\n",
        "login.go": 'package app\n\ntype Login struct {\n\tUser string `form:"user" binding:"required"`\n}\n',
        "other.go": 'package app\n\ntype Other struct {\n\tName string `json:"required"`\n}\n',
    }
    for rel, text in files.items():
        (tmp_path / rel).write_text(text)
    build_index(tmp_path, BuildOptions(embed="hash", git_times=False))
    res = open_engine(tmp_path / ".qry").search('binding:"required"', SearchOptions())
    assert {h.path for h in res.results} == {"login.go"}, [(h.symbol, h.path) for h in res.results]


def test_a_quoted_phrase_is_required_of_every_stream(tmp_path: Path) -> None:
    """The symbol and dense streams match names and meaning; a phrase still has to be in each hit, and
    code writes a phrase's words joined as one name (`max_connections`, `maxConnections`)."""
    files = {
        "pool.py": "def release(conn):\n    '''Close the response and release the connection.'''\n    conn.close()\n\n\n"
        "def connection_count(pool):\n    return len(pool)\n\n\nclass Limits:\n"
        "    def __init__(self, max_connections=10):\n        self.max_connections = max_connections\n",
        "client.ts": "export function configure(opts) {\n  return { maxConnections: opts.size }\n}\n",
        "other.py": "def release_all(items):\n    for item in items:\n        item.free()\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).write_text(text)
    build_index(tmp_path, BuildOptions(embed="hash", git_times=False))
    engine = open_engine(tmp_path / ".qry")
    # the hash test embedder's cosines are not calibrated: without the floor its stream returns every node
    loose = SearchOptions(signals=Signals().without("dense_floor"))
    res = engine.search('"release the connection"', loose)
    assert [h.symbol for h in res.results] == ["release"], [(h.symbol, h.provenance) for h in res.results]
    assert engine.search("release the connection", loose).results[1:], "without quotes, more nodes come back"
    joined = engine.search('"max connections"', loose)
    assert {h.symbol for h in joined.results} == {"Limits", "Limits.__init__", "configure"}, joined.results


def test_a_name_no_definition_has_ranks_the_nodes_spelling_it_first(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path,
        {
            "errors.py": "class ConnectError(Exception):\n    '''A connection failed.'''\n",
            "config.py": "class Limits:\n    def __init__(self, max_connections=10, keepalive=5):\n"
            "        self.max_connections = max_connections\n\n\n"
            "DEFAULT_MAX_REDIRECTS = 20\nMAX_URL_LENGTH = 65536\n",
        },
    )
    res = open_engine(repo / ".qry").search("max_connections", SearchOptions(explain=True))
    first = res.results[0]
    assert first.symbol == "Limits.__init__", [(h.symbol, h.explain) for h in res.results]
    assert any("spells 'max_connections' whole" in e for e in first.explain)
    # the symbol stream's near spelling weighs as sure as it is alike
    near = next(h for h in res.results if h.symbol == "ConnectError")
    assert any("alike" in e for e in near.explain), near.explain
    assert "no definition named 'max_connections': the results spelling it come first" in res.meta.notes
    none = open_engine(repo / ".qry").search("max_keepalive_expiry", SearchOptions())
    assert any("no result spells it" in n for n in none.meta.notes), none.meta.notes
    assert top(repo, "Limts")[0][0] == "Limits", "a typo still finds its definition"


def test_an_alias_qualified_name_says_where_its_last_part_is_defined(tmp_path: Path) -> None:
    # `z` is an import alias (and a local constant), no type: the note names the definitions of
    # `object`, the library's first; a real type's member is told by where the type declares it.
    repo = make_repo(
        tmp_path,
        {
            "src/schemas.ts": "export function object(shape: any) {\n  return { shape };\n}\n",
            "src/index.ts": "import * as z from './schemas';\nexport const user = z.object({ name: 1 });\n",
            "tests/object.test.ts": "const z = { object: 1 };\nexport function object() {\n  return z.object;\n}\n",
        },
    )
    notes = open_engine(repo / ".qry").search("z.object", SearchOptions()).meta.notes
    assert any(
        "no definition named 'z.object'" in n
        and "'z' names no type here, 'object' is defined at src/schemas.ts:1, tests/object.test.ts:2" in n
        for n in notes
    ), notes
    typed = make_repo(
        tmp_path / "typed", {"m.py": "class Z:\n    size = 1\n\n\ndef object():\n    return Z.size\n"}
    )
    notes = open_engine(typed / ".qry").search("Z.object", SearchOptions()).meta.notes
    assert not any("names no type" in n for n in notes), notes


def test_a_signature_finds_the_definition_it_declares(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path,
        {
            "command.go": "package cli\n\ntype Command struct{ Name string }\n\n"
            "// Run runs the command.\nfunc (cmd *Command) Run(ctx context.Context, args []string) error {\n"
            "\treturn nil\n}\n\nfunc (cmd *Command) Names() []string { return nil }\n",
            "scripts/build.go": "package main\n\nfunc runCmd(ctx context.Context, arg string, args ...string) error {\n"
            "\tctx := context.Background()\n\treturn run(ctx, arg, args)\n}\n",
        },
    )
    hits = top(repo, "func (cmd *Command) Run(ctx context.Context")
    assert hits[0] == ("Command.Run", "command.go"), hits


def test_a_name_only_the_docs_spell_puts_the_docs_first(tmp_path: Path) -> None:
    """Prose ranks below code for a question, but a name that no code spells is answered where it is
    written, as grep would show it; nodes spelling the name come before nodes holding one of its words
    (`sni`) or a near name (`is_ipv6_hostname`)."""
    docs = "# Extensions\n\n## `sni_hostname`\n\nThe server name to send in the TLS handshake.\n"
    code = (
        "def is_ipv6_hostname(hostname):\n    return ':' in hostname\n\n\ndef sni(host):\n    return host\n"
    )
    repo = make_repo(tmp_path / "a", {"docs/extensions.md": docs, "net.py": code})
    assert top(repo, "sni_hostname")[0][1] == "docs/extensions.md"
    used = code + "\n\ndef connect(sni_hostname):\n    return sni(sni_hostname)\n"
    both = make_repo(tmp_path / "b", {"docs/extensions.md": docs, "net.py": used})
    ranked = [name for name, _path in top(both, "sni_hostname")]
    # the two spelling it (the section named so, the function using it) before names sharing a word
    assert set(ranked[:2]) == {"Extensions > `sni_hostname`", "connect"}, ranked


def test_a_name_found_nowhere_says_when_indexed_files_changed_since(tmp_path: Path) -> None:
    """A function written after `qry index` is not in the index: a search for it says that indexed
    files changed since, with or without results."""
    repo = make_repo(tmp_path, {"util.py": "def parse_header(raw):\n    return raw.split(':')\n"})
    engine = open_engine(repo / ".qry")
    assert not any(
        "changed since" in n for n in engine.search("frobnicate_payload", SearchOptions()).meta.notes
    )
    with (repo / "util.py").open("a") as f:
        f.write("\n\ndef frobnicate_payload(data):\n    return data\n")
    notes = engine.search("frobnicate_payload", SearchOptions()).meta.notes
    assert any("1 indexed file changed since the index (qry index brings them in)" in n for n in notes), notes
    words = engine.search("parse_payload", SearchOptions()).meta.notes  # its word `parse` is indexed
    assert any("no result spells it" in n and "1 indexed file changed" in n for n in words), words


def test_words_opening_with_a_declaring_keyword_still_spell_a_name(tmp_path: Path) -> None:
    """`class unicode range` is the words of `ClassUnicodeRange`, not a declaration of `unicode`."""
    repo = make_repo(
        tmp_path,
        {
            "hir.rs": "pub struct ClassUnicodeRange {\n    start: char,\n}\n\n"
            "pub fn unicode(range: ClassUnicodeRange) -> bool {\n    true\n}\n",
        },
    )
    assert top(repo, "class unicode range")[0][0] == "ClassUnicodeRange"


def test_a_bare_name_puts_the_top_level_definition_before_same_named_members(tmp_path: Path) -> None:
    """`Engine`: the type, not an interface's `Engine()` methods (as `qry related` prefers it)."""
    repo = make_repo(
        tmp_path,
        {
            "binding/binding.go": "package binding\n\ntype StructValidator interface {\n"
            "\tValidateStruct(any) error\n\tEngine() any\n}\n",
            "binding/other.go": "package binding\n\ntype OtherValidator interface {\n\tEngine() any\n}\n",
            "gin.go": "package gin\n\n// Engine is the framework's instance.\ntype Engine struct {\n\tname string\n}\n",
        },
    )
    assert top(repo, "Engine")[0] == ("Engine", "gin.go")
    assert top(repo, "StructValidator.Engine")[0] == ("StructValidator.Engine", "binding/binding.go")


def test_a_file_whose_content_came_back_is_not_changed_after_the_next_index(tmp_path: Path) -> None:
    """`git checkout` restores a file's bytes with a new mtime: the next `qry index` records the new
    mtime (a root of metadata only), so status and search stop calling the file changed."""
    import os

    from indexlib import index_status

    repo = make_repo(tmp_path, {"util.py": "def parse_header(raw):\n    return raw.split(':')\n"})
    path = repo / "util.py"
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    assert index_status(repo / ".qry").changes.modified == ["util.py"]
    again = build_index(repo, BuildOptions(embed="none", git_times=False))
    assert again.changed == 0 and again.touched == 1 and again.published, again
    assert index_status(repo / ".qry").changes.count == 0
    notes = open_engine(repo / ".qry").search("frobnicate_payload", SearchOptions()).meta.notes
    assert not any("changed since" in n for n in notes), notes
    assert not build_index(repo, BuildOptions(embed="none", git_times=False)).published  # now unchanged


def test_a_typed_name_one_edit_off_finds_the_name_it_misspells(tmp_path: Path) -> None:
    """`ShouldBindJSN` means `ShouldBindJSON` (one edit), not `ShouldBind`, the shorter name it contains,
    which BM25 puts first (its comment says "should bind" again)."""
    shortcuts = "\n".join(
        f"// ShouldBind{kind} is a shortcut for c.ShouldBindWith(obj, binding.{kind}) with a {kind} body.\n"
        f"func (c *Context) ShouldBind{kind}(obj any) error {{\n"
        f"\tif obj == nil {{\n\t\treturn errNil\n\t}}\n\treturn c.ShouldBindWith(obj, binding.{kind})\n}}\n"
        for kind in ("XML", "Query", "TOML", "Header", "YAML", "Form", "JSON")
    )
    general = (
        "// ShouldBind picks a binding by the request's method and Content-Type: should bind what it gets.\n"
        "func (c *Context) ShouldBind(obj any) error {\n\treturn c.ShouldBindWith(obj, binding.Default())\n}\n"
    )
    repo = make_repo(tmp_path, {"context.go": "package gin\n\n" + general + "\n" + shortcuts})
    assert top(repo, "ShouldBindJSN")[0] == ("Context.ShouldBindJSON", "context.go")
    notes = open_engine(repo / ".qry").search("ShouldBindJSN", SearchOptions()).meta.notes
    assert any("(did you mean 'Context.ShouldBindJSON'?)" in n for n in notes), notes
    far = open_engine(repo / ".qry").search("ShouldBindingTemplates", SearchOptions()).meta.notes
    assert not any("did you mean" in n for n in far), far
    assert top(repo, "shouldbindyalm")[0] == ("Context.ShouldBindYAML", "context.go")


def test_a_class_comes_before_its_constructor_and_is_shown_by_its_declaration(tmp_path: Path) -> None:
    """A C# constructor is named as its class; the class is what the name means, and its row is the
    `class` line, not a member line holding more of the name's parts."""
    src = (
        "namespace Serilog.Events\n{\n    /// <summary>A log event.</summary>\n    public class LogEvent\n    {\n"
        '        /// <summary>Construct a new <see cref="LogEvent"/>.</summary>\n'
        "        public LogEvent(int level)\n        {\n            Level = level;\n        }\n\n"
        "        public LogEvent Copy()\n        {\n            return new LogEvent(Level);\n        }\n"
        "    }\n}\n"
    )
    repo = make_repo(tmp_path, {"src/Events/LogEvent.cs": src})
    res = open_engine(repo / ".qry").search("LogEvent", SearchOptions())
    assert [h.symbol for h in res.results[:2]] == [
        "Serilog.Events.LogEvent",
        "Serilog.Events.LogEvent.LogEvent",
    ]
    ctor = res.results[1]
    assert "public LogEvent(int level)" in ctor.snippet.text, (
        ctor.snippet
    )  # its declaration, not only its doc


def test_a_cpp_destructor_named_as_written_comes_before_its_constructors(tmp_path: Path) -> None:
    """`logger::~logger` is a C++ destructor's qualified name: the query was no identifier (the `~`),
    so nothing was its definition and spdlog's two `logger` constructors came first (there, where
    other files' words weigh in BM25; here the definition signal is what the test pins)."""
    src = (
        "namespace spdlog {\nclass logger {\npublic:\n    explicit logger(std::string name) : name_(name) {}\n"
        "    logger(std::string name, sink_ptr single_sink) : logger(name, {std::move(single_sink)}) {}\n"
        "    logger(std::string name, sinks_init_list sinks) : logger(name, sinks.begin(), sinks.end()) {}\n"
        "    logger(const logger &other) : logger(other.name_) {}\n"
        "    virtual ~logger() = default;\nprivate:\n    std::string name_;\n};\n}  // namespace spdlog\n"
    )
    repo = make_repo(tmp_path, {"include/spdlog/logger.h": src})
    for query in ("logger::~logger", "~logger"):
        res = open_engine(repo / ".qry").search(query, SearchOptions(explain=True))
        assert res.meta.route == "identifier"
        assert res.results[0].symbol == "spdlog.logger.~logger", [h.symbol for h in res.results]
        assert any(e.startswith(f"definition of '{query}': x") for e in res.results[0].explain)


def test_a_c_function_is_its_body_not_its_header_prototype(tmp_path: Path) -> None:
    from indexlib import related

    repo = make_repo(
        tmp_path,
        {
            "read.h": "/* Feed the reader. */\nint readerFeed(void *r, const char *buf, int len);\n",
            "read.c": '#include "read.h"\n\nint readerFeed(void *r, const char *buf, int len) {\n'
            "    if (buf == 0) return -1;\n    return len;\n}\n",
            "main.c": '#include "read.h"\n\nint main(void) {\n    return readerFeed(0, "x", 1);\n}\n',
        },
    )
    # The header's prototype folds into the body: one hit, then the caller.
    assert top(repo, "readerFeed")[:2] == [("readerFeed", "read.c"), ("main", "main.c")]
    rel = related(open_engine(repo / ".qry"), "readerFeed")
    assert rel.node is not None and rel.node.path == "read.c" and not rel.ambiguous, rel
    callers = [r for r in rel.related if r.symbol == "main"]
    assert callers and not any(r.ambiguous for r in callers), rel.related


def test_a_javascript_method_is_its_body_not_its_typings_declaration(tmp_path: Path) -> None:
    """A package shipping hand-written `index.d.ts` typings declares each method twice: the
    declaration yields to the JavaScript body, in search, in `related` and for a call."""
    from indexlib import related

    repo = make_repo(
        tmp_path,
        {
            "typings/index.d.ts": "export class Help {\n  /** Generate the built-in help text. */\n"
            "  formatHelp(cmd: Command, helper: Help): string;\n  padWidth(cmd: Command): number;\n}\n",
            "lib/help.js": "class Help {\n  formatHelp(cmd, helper) {\n    const width = this.padWidth(cmd);\n"
            "    return cmd.name() + width;\n  }\n\n  padWidth(cmd) {\n    return 2;\n  }\n}\n",
        },
    )
    assert [p for s, p in top(repo, "Help.formatHelp") if s == "Help.formatHelp"] == ["lib/help.js"]
    rel = related(open_engine(repo / ".qry"), "padWidth")
    assert rel.node is not None and rel.node.path == "lib/help.js" and not rel.ambiguous, rel
    callers = [r for r in rel.related if r.symbol == "Help.formatHelp"]
    assert callers and not any(r.ambiguous for r in callers), rel.related


def test_a_doc_sentence_finds_the_body_before_its_typings_declaration(tmp_path: Path) -> None:
    # The typings repeat the body's doc comment on a one-line declaration, which BM25 scores higher.
    doc = "Display error message and exit, or call the exit override."
    repo = make_repo(
        tmp_path,
        {
            "typings/index.d.ts": f"export class Command {{\n  /**\n   * {doc}\n   */\n"
            "  error(message: string): never;\n}\n",
            "lib/command.js": f"class Command {{\n  /**\n   * {doc}\n   */\n  error(message) {{\n"
            "    this._outputConfiguration.outputError(message);\n    this._exit(1, message);\n  }\n}\n",
        },
    )
    res = open_engine(repo / ".qry").search(doc, SearchOptions(explain=True))
    assert [(h.symbol, h.path) for h in res.results] == [
        ("Command.error", "lib/command.js"),
        ("Command", "lib/command.js"),
        ("Command", "typings/index.d.ts"),
    ]
    assert "its declaration at typings/index.d.ts:2 folded into it" in res.results[0].explain


def test_a_python_function_is_its_body_not_its_stub_files_declarations(tmp_path: Path) -> None:
    # A package shipping `__init__.pyi` declares each function again, overloads apart.
    repo = make_repo(
        tmp_path,
        {
            "src/attr/__init__.pyi": "from typing import overload\n\n@overload\ndef field(default: int) -> int: ...\n"
            "@overload\ndef field(default: str) -> str: ...\n",
            "src/attr/__init__.py": "from ._make import field\n",
            "src/attr/_make.py": "def field(default=None, validator=None, repr=True, eq=True):\n"
            "    return _CountingAttr(default, validator, repr, eq)\n",
        },
    )
    for query in ("field", "attr.field"):
        assert top(repo, query)[:3] == [
            ("field", "src/attr/_make.py"),
            ("field", "src/attr/__init__.pyi"),
            ("field", "src/attr/__init__.pyi"),
        ], query


def test_a_typescript_overload_list_is_one_definition_with_its_callers(tmp_path: Path) -> None:
    """zod's `toJSONSchema` (two overload signatures, then the body) was three definitions: a search
    for it showed both signatures above the body, and `qry related` (even `path:toJSONSchema`) said
    the name "names 3 definitions", the signatures without an edge."""
    from indexlib import related

    repo = make_repo(
        tmp_path,
        {
            "src/convert.ts": "/** Converts a schema to JSON Schema. */\n"
            "export function toJSONSchema(schema: Schema): object;\n"
            "export function toJSONSchema(registry: Registry, id: string): object;\n"
            "export function toJSONSchema(input: any, id?: string): object {\n  return emit(input, id);\n}\n\n"
            "export function emit(input: any, id?: string): object {\n  return { input, id };\n}\n",
            "src/app.ts": 'import { toJSONSchema } from "./convert.js";\n\n'
            "export function main(s: any) {\n  return toJSONSchema(s);\n}\n",
        },
    )
    assert top(repo, "toJSONSchema")[:2] == [("toJSONSchema", "src/convert.ts"), ("main", "src/app.ts")]
    rel = related(open_engine(repo / ".qry"), "src/convert.ts:toJSONSchema")
    assert rel.node is not None and rel.node.doc == "Converts a schema to JSON Schema." and not rel.ambiguous
    assert {(r.symbol, r.direction) for r in rel.related} == {("main", "in"), ("emit", "out")}, rel


def test_related_names_the_current_definition_not_the_deprecated_one(tmp_path: Path) -> None:
    from indexlib import related

    repo = make_repo(
        tmp_path,
        {
            "config.go": "package config\n\n// Deprecated: use Load.\nfunc Open(path string) int { return 1 }\n",
            "load.go": "package config\n\n// Open reads a file.\nfunc Open(path string, strict bool) int { return 2 }\n",
        },
    )
    rel = related(open_engine(repo / ".qry"), "Open")
    assert rel.node is not None and rel.node.path == "load.go" and not rel.ambiguous, rel


def test_a_class_snippet_is_its_outline_and_names_the_lines_that_are_not_the_files(tmp_path: Path) -> None:
    """A class's text holds its members' bodies as `...` and the line breaks they held: its snippet
    is the outline, every member (stopping at the first body's blank lines showed one member of a
    class), and `elided` names the lines where the file has code the snippet does not show; every
    other line is the file's."""
    src = (
        'class Basket:\n    """A shopping basket."""\n\n    def __init__(self):\n        self.items = []\n'
        "        self.total = 0\n\n    def add(self, item):\n        self.items.append(item)\n"
    )
    repo = make_repo(tmp_path, {"shop.py": src})
    hit = open_engine(repo / ".qry").search("Basket", SearchOptions()).results[0]
    assert hit.symbol == "Basket" and hit.snippet.start_line == 1, hit
    assert hit.snippet.end_line == 9 and "    def add(self, item):" in hit.snippet.text, hit.snippet
    assert hit.snippet.elided == [5, 6, 9], hit.snippet
    file_lines = src.splitlines()
    for i, text in enumerate(hit.snippet.text.split("\n"), start=1):
        assert i in hit.snippet.elided or text == file_lines[i - 1], (i, text)


def test_no_result_says_why(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    build_index(empty, BuildOptions(embed="none", git_times=False))
    notes = open_engine(empty / ".qry").search("parse_config", SearchOptions()).meta.notes
    assert any(n.startswith("no result: the index holds no files") for n in notes), notes
    repo = make_repo(tmp_path / "repo", {"util.py": "def parse_header(raw):\n    return raw.split(':')\n"})
    engine = open_engine(repo / ".qry")
    words = engine.search("zzqqxx frobnicate", SearchOptions(mode="lexical")).meta.notes
    assert not any(n.startswith("no result") for n in words), words  # a plain miss is silent, as grep's
    names = engine.search("multipart boundary", SearchOptions(mode="symbol")).meta.notes
    assert any("mode='symbol' matches names only" in n for n in names), names  # the library's words


def test_a_typo_is_taken_for_the_code_it_misspells_not_a_test_helper(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path,
        {
            "src/JsonReader.java": "public class JsonReader {\n  public int peek() {\n    return 1;\n  }\n}\n",
            "test/NumberLimitsTest.java": "class NumberLimitsTest {\n  static Object jsonReader(String s) {\n"
            "    return null;\n  }\n}\n",
        },
    )
    res = open_engine(repo / ".qry").search("JsonReadr", SearchOptions())
    assert res.results[0].symbol == "JsonReader", [h.symbol for h in res.results]
    assert any("(did you mean 'JsonReader'?)" in n for n in res.meta.notes), res.meta.notes


def test_a_rust_name_leads_with_its_pub_and_trait_declarations(tmp_path: Path) -> None:
    """ripgrep's `qry search is_match` led with `fn is_match` of private strategy types, then a blanket
    implementation: a Rust function without `pub` is private (a trait's methods need none), and a
    trait's method written in a blanket `impl` outside the trait implements the declared one."""
    matcher = (
        "pub trait Matcher {\n    /// Whether the haystack matches.\n"
        "    fn is_match(&self, haystack: &[u8]) -> bool {\n        haystack.is_empty()\n    }\n}\n\n"
        "impl<'a, M: Matcher> Matcher for &'a M {\n"
        "    fn is_match(&self, haystack: &[u8]) -> bool {\n        (*self).is_match(haystack)\n    }\n}\n"
    )
    strategies = "".join(
        f"struct {t}Strategy;\n\nimpl {t}Strategy {{\n"
        f"    fn is_match(&self, c: &str) -> bool {{\n        c.is_empty() && c.len() == {i}\n    }}\n}}\n\n"
        for i, t in enumerate(("Literal", "Prefix", "Suffix"))
    )
    globset = "pub struct GlobSet;\n\nimpl GlobSet {\n    pub fn is_match(&self, path: &str) -> bool {\n" \
        "        path.len() > 3 && path.len() < 9 && path.starts_with('a') && path.ends_with('b')\n    }\n}\n"  # fmt: skip
    repo = make_repo(tmp_path, {"matcher/lib.rs": matcher, "globset/lib.rs": strategies + globset})
    res = open_engine(repo / ".qry").search("is_match", SearchOptions(explain=True))
    got = [(h.path, h.start_line) for h in res.results]
    public = {("globset/lib.rs", 28), ("matcher/lib.rs", 2)}  # GlobSet's, the trait's (doc line)
    assert set(got[:2]) == public, [(h.symbol, h.path, h.start_line) for h in res.results]
    assert got[2] == ("matcher/lib.rs", 9), got  # the blanket implementation
    assert {p for p, _line in got[3:6]} == {"globset/lib.rs"}, got  # the private strategies' helpers
    assert any("private: after" in e for h in res.results[3:] for e in h.explain), res.results


def test_a_rust_macro_of_a_test_module_is_test_code(tmp_path: Path) -> None:
    """ripgrep's `qry search matched` led with `macro_rules! matched` of `#[cfg(test)] mod tests`: a
    macro is qualified by no `mod` (it is called by its bare name), so nothing said it was a test's."""
    lib = (
        "#[cfg(test)]\nmod tests {\n    macro_rules! matched {\n        ($x:expr) => { assert!($x) };\n    }\n\n"
        "    #[test]\n    fn ok() {\n        matched!(true);\n    }\n}\n"
    )
    gitignore = "pub struct Gitignore;\n\nimpl Gitignore {\n    /// Whether the path is ignored.\n" \
        "    pub fn matched(&self, path: &str, is_dir: bool) -> bool {\n" \
        "        path.len() > 3 && path.starts_with('a') && !is_dir && path.ends_with('b')\n    }\n}\n"  # fmt: skip
    repo = make_repo(tmp_path, {"src/lib.rs": lib, "src/gitignore.rs": gitignore})
    res = open_engine(repo / ".qry").search("matched", SearchOptions(explain=True))
    assert [h.symbol for h in res.results[:2]] == ["Gitignore.matched", "tests.matched"], res.results
    from indexlib import related

    callers = related(open_engine(repo / ".qry"), "tests.matched", callees=False)
    assert [r.symbol for r in callers.related] == ["tests.ok"], callers.related  # still its bare name's


def test_a_word_bm25_met_by_its_stem_is_evidence(tmp_path: Path) -> None:
    """click's `qry search FAQ` answered nothing (exit 1): BM25's stemmed field found `faqs` for it,
    and the check that a lexical hit holds a word of the query compared words as written, so every
    hit was dropped as holding only function words."""
    repo = make_repo(
        tmp_path,
        {
            "docs/index.md": "# Documentation\n\nSee the faqs and the quickstart.\n",
            "src/app.py": "def main():\n    return 0\n",
        },
    )
    for q in ("FAQ", "faq", "faqs"):
        res = open_engine(repo / ".qry").search(q, SearchOptions())
        assert [h.path for h in res.results] == ["docs/index.md"], (q, res.meta.notes)


def test_a_name_prefix_finds_the_definitions_it_begins(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path,
        {
            "builder.py": "class GsonBuilder:\n    def set_pretty_printing(self):\n        return self\n\n"
            "    def set_lenient(self):\n        return self\n",
            "docs.md": "# Builder\n\nCall set_pretty_printing on the GsonBuilder for pretty printing output.\n",
        },
    )
    res = open_engine(repo / ".qry").search("set_pretty_pri*", SearchOptions())
    assert res.results[0].symbol == "GsonBuilder.set_pretty_printing", [h.symbol for h in res.results]
    assert res.results[0].provenance.symbol_rank == 1
    assert not any(n.startswith("no definition named") for n in res.meta.notes), res.meta.notes


def test_a_method_linked_by_its_name_alone_is_marked_ambiguous(tmp_path: Path) -> None:
    from indexlib import related

    repo = make_repo(
        tmp_path,
        {
            "errors.go": "package app\n\ntype compError struct{ msg string }\n\n"
            "func (e *compError) Error() string { return e.msg }\n\n"
            "func (e *compError) Describe() string { return e.msg }\n",
            "run.go": "package app\n\nfunc run(err error, c *compError) string {\n"
            "\tif err != nil {\n\t\treturn err.Error()\n\t}\n\treturn c.Describe()\n}\n\n"
            "func guess(v any) string {\n\treturn v.(*compError).Describe()\n}\n",
        },
    )
    # `err.Error()` is the standard error interface's method: no edge to the only indexed `Error`.
    rel = related(open_engine(repo / ".qry"), "compError.Error")
    assert not [r for r in rel.related if r.symbol == "run"], rel.related
    # `c.Describe()` with `c *compError` declared is that type's method; `v.(...).Describe()` on
    # an `any` is a receiver the index cannot type: the edge is kept, marked as a guess.
    rel = related(open_engine(repo / ".qry"), "compError.Describe")
    callers = {r.symbol: r.ambiguous for r in rel.related if r.edge == "calls"}
    assert callers == {"run": False, "guess": True}, rel.related


def test_python_decorators_and_package_re_exports_are_calls(tmp_path: Path) -> None:
    from indexlib import related

    repo = make_repo(
        tmp_path,
        {
            "pkg/__init__.py": "from .deco import option, pass_context\n",
            "pkg/deco.py": "def option(*names):\n    return names\n\n\ndef pass_context(f):\n    return f\n",
            "app.py": "import pkg\nfrom pkg import option as opt\n\n\n@pkg.pass_context\ndef run(ctx):\n"
            "    return pkg.option('-v')\n\n\ndef other():\n    return opt('-q')\n",
        },
    )
    engine = open_engine(repo / ".qry")
    # A decorator applied without a call is still a use of it.
    callers = {r.symbol for r in related(engine, "pass_context").related if r.edge == "calls"}
    assert "run" in callers, callers
    # `pkg.option()` and an alias of `from pkg import option` reach the module the package imports.
    callers = {r.symbol for r in related(engine, "option").related if r.edge == "calls"}
    assert {"run", "other"} <= callers, callers


def test_resolve_symbol_lists_the_code_before_tests_and_examples_of_a_name(tmp_path: Path) -> None:
    from indexlib import resolve_symbol

    repo = make_repo(
        tmp_path,
        {
            **{
                f"{folder}/view_{i}.js": f"function View(name) {{\n  this.name = name + {i};\n}}\n"
                for folder in ("test", "examples")
                for i in range(4)
            },
            "lib/view.js": "function View(name, options) {\n  this.name = name;\n  this.options = options;\n}\n",
        },
    )
    matches = resolve_symbol(open_engine(repo / ".qry"), "View")
    assert matches[0].path == "lib/view.js", [(m.path, m.kind) for m in matches]


def test_a_query_naming_a_file_finds_that_file_and_no_missing_definition(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path,
        {
            "doc/md_docs.go": "package doc\n\nfunc GenMarkdown(w io.Writer) error {\n\treturn nil\n}\n",
            "site/md.md": "# Markdown docs\n\nmd_docs.go writes md docs: md docs for every command, md docs go.\n",
            "site/yaml.md": "# Yaml docs\n\nyaml_docs.go writes docs, as md docs go.\n",
        },
    )
    res = open_engine(repo / ".qry").search("md_docs.go", SearchOptions(explain=True))
    assert res.results[0].path == "doc/md_docs.go", [(h.path, h.explain) for h in res.results]
    assert not any("no definition" in n for n in res.meta.notes), res.meta.notes


def test_a_go_name_qualified_by_the_root_package_is_its_definition(tmp_path: Path) -> None:
    """`gin.Context`: the root package's name is in no path, so the README's `*gin.Context` lines
    came first and the struct was "no definition"."""
    repo = make_repo(
        tmp_path,
        {
            "context.go": "package gin\n\n// Context carries a request.\ntype Context struct {\n\tKeys map[string]any\n}\n",
            "README.md": '# Gin\n\nr.GET("/", func(c *gin.Context) {})\n\nUse gin.Context in every handler: gin.Context.\n',
        },
    )
    res = open_engine(repo / ".qry").search("gin.Context", SearchOptions(explain=True))
    assert (res.results[0].path, res.results[0].symbol) == ("context.go", "Context"), res.results
    assert not any("no definition" in n for n in res.meta.notes), res.meta.notes


def test_a_go_name_qualified_by_its_package_is_the_function_not_a_method_of_that_name(tmp_path: Path) -> None:
    """`logx.WithField` is the package's function: Go reaches a method only through its type
    (`logx.Entry.WithField`), so an interface's `WithField` in `logx.go` (a file named as the
    package, and shorter) is no definition of it."""
    repo = make_repo(
        tmp_path,
        {
            "go.mod": "module example.com/logx\n\ngo 1.22\n",
            "logx.go": "package logx\n\ntype FieldLogger interface {\n\tWithField(key string) *Entry\n}\n",
            "entry.go": "package logx\n\ntype Entry struct{ data map[string]any }\n\n"
            "func (e *Entry) WithField(key string) *Entry {\n\te.data[key] = true\n\treturn e\n}\n",
            "exported.go": "package logx\n\n// WithField adds a field to an entry of the standard logger.\n"
            "func WithField(key string) *Entry {\n\treturn std.WithField(key)\n}\n",
        },
    )
    assert top(repo, "logx.WithField")[0] == ("WithField", "exported.go")
    assert top(repo, "logx.Entry.WithField")[0] == ("Entry.WithField", "entry.go")


def test_a_package_qualified_name_finds_the_module_function_before_same_named_methods(tmp_path: Path) -> None:
    # `web.get`, the package named and the module not: its module-level `get`, not a class's `get`
    # there (the package passes nothing on, so only the folder matches the qualifier).
    repo = make_repo(
        tmp_path,
        {
            "web/__init__.py": "",
            "web/_params.py": "class Params:\n    def get(self, key):\n        return self.items[key]\n",
            "web/_cookies.py": "class Cookies:\n    def get(self, name):\n        return self.jar[name]\n",
            "web/_headers.py": "class Headers:\n    def get(self, name):\n        return self.raw[name]\n",
            "web/_client.py": "class Client:\n    def get(self, url):\n        return self.send(url)\n",
            "web/_api.py": "def get(url):\n    return request('GET', url)\n",
        },
    )
    res = open_engine(repo / ".qry").search("web.get", SearchOptions())
    assert (res.results[0].symbol, res.results[0].path) == ("get", "web/_api.py")
    named = [h.provenance.symbol_score for h in res.results if h.provenance.symbol_score is not None]
    own, *methods = named
    assert len(methods) == 4 and all(m < own for m in methods), named
    assert top(repo, "web.Params.get")[0] == ("Params.get", "web/_params.py")  # the type named: the method
