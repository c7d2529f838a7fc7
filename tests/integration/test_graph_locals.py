"""A call through a local whose declaration names its class (graph/locals.py): `te.assert_output()`
after `let te = TestEnv::new()` is TestEnv's method, not an ambiguous edge to every `assert_output`."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib import open_engine, related
from indexlib.graph.locals import declared_classes
from indexlib.records import Node
from tests.parsekit import text_node
from tests.repokit import calls, make_repo

REPOS = {
    "rust": (
        {
            "tests/testenv.rs": "pub struct TestEnv {}\nimpl TestEnv {\n    pub fn new() -> TestEnv { TestEnv {} }\n"
            "    pub fn assert_output(&self, args: &[&str]) {}\n}\n",
            "src/check.rs": "pub struct Check {}\nimpl Check {\n    pub fn assert_output(&self, args: &[&str]) {}\n}\n",
            "tests/cli.rs": 'fn test_hidden() {\n    let te = TestEnv::new();\n    te.assert_output(&["-H"]);\n}\n',
        },
        "test_hidden",
        [("TestEnv.assert_output", False), ("TestEnv.new", False)],
    ),
    "python": (
        {
            "retry.py": "class Retrier:\n    def schedule(self, n):\n        return n\n",
            "queue.py": "class Queue:\n    def schedule(self, n):\n        return n\n",
            "main.py": "from retry import Retrier\n\ndef run(q: Queue):\n    r = Retrier()\n    r.schedule(1)\n"
            "    q.schedule(2)\n",
        },
        "run",
        [("Queue.schedule", False), ("Retrier", False), ("Retrier.schedule", False)],
    ),
    "java": (
        {
            "src/Parser.java": "class Parser {\n    String parse(String s) { return s; }\n}\n",
            "src/Lexer.java": "class Lexer {\n    String parse(String s) { return s; }\n}\n",
            "src/Main.java": "class Main {\n    void run(Lexer lx) {\n        Parser p = new Parser();\n"
            '        p.parse("a");\n        lx.parse("b");\n    }\n}\n',
        },
        "Main.run",
        [("Lexer.parse", False), ("Parser", False), ("Parser.parse", False)],
    ),
    "typescript": (
        {
            "src/help.ts": "export class Help {\n  format(s: string): string { return s }\n}\n",
            "src/table.ts": "export class Table {\n  format(s: string): string { return s }\n}\n",
            "src/main.ts": "import { Help } from './help'\n\nexport function show(t: Table) {\n  const h = new Help()\n"
            "  h.format('a')\n  t.format('b')\n}\n",
        },
        "show",
        [("Help", False), ("Help.format", False), ("Table.format", False)],
    ),
    "rust-field": (
        {
            "src/config.rs": "pub struct Config {}\nimpl Config {\n    pub fn load(&self) {}\n}\n",
            "src/cache.rs": "pub struct Cache {}\nimpl Cache {\n    pub fn load(&self) {}\n}\n",
            "src/app.rs": "pub struct App {\n    settings: Config,\n}\nimpl App {\n    pub fn start(&self) {\n"
            "        self.settings.load();\n    }\n}\n",
        },
        "App.start",
        [("Config.load", False)],
    ),
    "python-field": (
        {
            "parser.py": "class Parser:\n    def parse(self, s):\n        return s\n",
            "lexer.py": "class Lexer:\n    def parse(self, s):\n        return s\n",
            "app.py": "from parser import Parser\n\nclass App:\n    def __init__(self):\n        self.reader = Parser()\n\n"
            "    def run(self, s):\n        return self.reader.parse(s)\n",
        },
        "App.run",
        [("Parser.parse", False)],
    ),
    "python-injected-field": (
        {
            "gateway.py": "class Gateway:\n    def charge(self, n):\n        return n\n",
            "ledger.py": "class Ledger:\n    def charge(self, n):\n        return n\n",
            "billing.py": "class Billing:\n    def __init__(self, via: Gateway):\n        self.client = via\n\n"
            "    def run(self):\n        return self.client.charge(1)\n",
        },
        "Billing.run",
        [("Gateway.charge", False)],
    ),
    "java-field": (
        {
            "src/Tokeniser.java": "class Tokeniser {\n    Token read() { return null; }\n}\n",
            "src/CharacterReader.java": "class CharacterReader {\n    char read() { return 'a'; }\n}\n",
            "src/TreeBuilder.java": "class TreeBuilder {\n    private Tokeniser tok;\n\n    void step() {\n"
            "        this.tok.read();\n    }\n\n    void next() {\n        tok.read();\n    }\n}\n",
        },
        "TreeBuilder.step",
        [("Tokeniser.read", False)],
    ),
    "java-field-without-this": (
        {
            "src/Tokeniser.java": "class Tokeniser {\n    Token read() { return null; }\n}\n",
            "src/CharacterReader.java": "class CharacterReader {\n    char read() { return 'a'; }\n}\n",
            "src/TreeBuilder.java": "class TreeBuilder {\n    private Tokeniser tok;\n\n    void step() {\n"
            "        this.tok.read();\n    }\n\n    void next() {\n        tok.read();\n    }\n}\n",
        },
        "TreeBuilder.next",
        [("Tokeniser.read", False)],
    ),
    "rust-chain": (
        {
            "src/cmd.rs": "pub struct Command {}\nimpl Command {\n    pub fn new(name: &str) -> Self { Command {} }\n"
            "    pub fn arg(mut self, a: u8) -> Self { self }\n    pub fn about(self, s: &str) -> Command { self }\n}\n",
            "src/group.rs": "pub struct Group {}\nimpl Group {\n    pub fn arg(self, a: u8) -> Self { self }\n"
            "    pub fn about(self) {}\n}\n",
            "src/main.rs": 'fn build() {\n    let c = Command::new("x").arg(1).about("y");\n    c.arg(2);\n}\n',
        },
        "build",
        [("Command.about", False), ("Command.arg", False), ("Command.new", False)],
    ),
    "java-chain": (
        {
            "src/Element.java": "class Element {\n    Elements select(String q) { return null; }\n}\n",
            "src/Document.java": "class Document extends Element {\n}\n",
            "src/Elements.java": "class Elements {\n    Element first() { return null; }\n}\n",
            "src/Node.java": "class Node {\n    Node first() { return null; }\n}\n",
            "src/Main.java": 'class Main {\n    void run(Document doc) {\n        doc.select("p").first();\n    }\n}\n',
        },
        "Main.run",
        [("Element.select", False), ("Elements.first", False)],
    ),
    "java-inherited": (
        {
            "src/Element.java": "class Element {\n    Elements select(String q) { return null; }\n}\n",
            "src/Document.java": 'class Document extends Element {\n    String title() { return ""; }\n}\n',
            "src/Elements.java": "class Elements {\n    Elements select(String q) { return this; }\n}\n",
            "src/Main.java": "class Main {\n    void run() {\n        Document doc = new Document();\n"
            '        doc.select("p");\n    }\n}\n',
        },
        "Main.run",
        [("Document", False), ("Element.select", False)],
    ),
    "scala": (
        {
            "os/src/Path.scala": "package os\n\nclass Path {\n  def startsWith(other: Path): Boolean = true\n}\n",
            "os/src/RelPath.scala": "package os\n\nclass RelPath {\n  def startsWith(other: RelPath): Boolean = true\n}\n",
            "os/src/Buffer.scala": "package os\n\nclass Buffer {\n  def write(s: String): Unit = ()\n}\n",
            "os/src/Sink.scala": "package os\n\nclass Sink {\n  def write(s: String): Unit = ()\n}\n",
            "os/src/FileOps.scala": "package os\n\nobject move {\n  def apply(from: Path, to: Path): Unit = {\n"
            '    val out = new Buffer()\n    out.write("moving")\n    require(!to.startsWith(from))\n  }\n}\n',
        },
        "move.apply",
        [("Buffer", False), ("Buffer.write", False), ("Path.startsWith", False)],
    ),
}


@pytest.mark.parametrize("language", sorted(REPOS))
def test_a_call_through_a_local_of_a_declared_class_is_that_classs_method(
    tmp_path: Path, language: str
) -> None:
    files, caller, expected = REPOS[language]
    assert calls(make_repo(tmp_path, files), caller) == expected


def _node(language: str, text: str) -> Node:
    return text_node(text, language=language)


def test_a_name_declared_with_two_classes_or_by_a_plain_call_is_left_alone() -> None:
    text = "fn f() {\n    let x = Alpha::new();\n    let x = Beta::new();\n    let y = make();\n    let z = Gamma::build();\n}\n"
    assert declared_classes(_node("rust", text)) == {}
    assert declared_classes(_node("python", "def f():\n    a = b.Thing()\n    c = make()\n")) == {}
    assert declared_classes(_node("go", "func f() {\n\tx := Foo{}\n}\n")) == {}  # Go's are typed.py's


def test_a_java_call_is_the_overload_of_its_argument_count_and_may_be_inherited(tmp_path: Path) -> None:
    """`attr("class")` in `Element` is its base `Node`'s one-parameter `attr`, not `Element`'s own
    two-parameter overloads (which it linked to); `el.text()` is `text()`, not `text(String)`."""
    repo = make_repo(
        tmp_path,
        {
            "src/Node.java": "class Node {\n    String attr(String key) { return key; }\n}\n",
            "src/Element.java": "class Element extends Node {\n"
            "    Element attr(String key, String value) { return this; }\n"
            "    Element attr(String key, boolean on) { return this; }\n"
            '    String text() { return ""; }\n    Element text(String t) { return this; }\n\n'
            '    String className() {\n        return attr("class").trim();\n    }\n}\n',
            "src/Main.java": "class Main {\n    String run(Element el) {\n        return el.text();\n    }\n}\n",
        },
    )
    assert calls(repo, "Element.className") == [("Node.attr", False)]
    assert calls(repo, "Main.run") == [("Element.text", False)]


def test_a_builtin_method_on_an_untyped_receiver_makes_no_edge_but_a_typed_one_links(tmp_path: Path) -> None:
    """`ips.include?(ip)` and `v.into_iter()` on values of no known class are Ruby's and Rust's own
    methods, not the indexed code's same-named ones; a receiver whose class is declared still links."""
    repo = make_repo(
        tmp_path,
        {
            "lib/mime.rb": "module Mime\n  def self.match?(value, matcher)\n    true\n  end\nend\n",
            "lib/proxy.rb": "class Proxy\n  def trusted(ips, ip)\n    ips.include?(ip) && ips.match?(ip)\n  end\n"
            "  def include?(x)\n    false\n  end\nend\n",
            "src/batch.rs": "pub struct Batch {}\nimpl Batch {\n    pub fn new() -> Batch { Batch {} }\n"
            "    pub fn into_iter(self) -> u32 { 0 }\n}\n",
            "src/main.rs": "fn run(v: Vec<u32>) {\n    v.into_iter();\n    let b = Batch::new();\n    b.into_iter();\n}\n",
        },
    )
    assert calls(repo, "Proxy.trusted") == []
    assert calls(repo, "run") == [("Batch.into_iter", False), ("Batch.new", False)]


def test_a_rust_primitive_types_method_is_none_of_the_indexed_codes(tmp_path: Path) -> None:
    """`char::from(b)` is the standard library's; the indexed `impl From<ExitCode> for i32` is
    `i32`'s, reached as `i32::from(code)`."""
    repo = make_repo(
        tmp_path,
        {
            "src/exit.rs": "pub struct ExitCode(i32);\nimpl From<ExitCode> for i32 {\n"
            "    fn from(c: ExitCode) -> i32 { c.0 }\n}\n",
            "src/main.rs": "fn to_char(b: u8) -> char {\n    char::from(b)\n}\n\n"
            "fn to_code(code: ExitCode) -> i32 {\n    i32::from(code)\n}\n",
        },
    )
    assert calls(repo, "to_char") == []
    assert [s for s, _amb in calls(repo, "to_code")] == ["i32.from"]


def test_a_python_with_or_a_module_qualified_constructor_names_the_locals_class(tmp_path: Path) -> None:
    # `with net.Client(..) as c:` and `async with AsyncClient() as c, ...`: the sync and async twins
    # both declare `send`, and the call was an ambiguous edge to both.
    repo = make_repo(
        tmp_path,
        {
            "net/client.py": "class Client:\n    def send(self, r):\n        return r\n",
            "net/aclient.py": "class AsyncClient:\n    async def send(self, r):\n        return r\n",
            "net/__init__.py": "from .client import Client\nfrom .aclient import AsyncClient\n",
            "api.py": "import net\nfrom net import AsyncClient\n\ndef fetch(r):\n    with net.Client(\n"
            "        timeout=(1, 2),\n    ) as c:\n        return c.send(r)\n\n"
            "def made(r):\n    c = net.Client()\n    return c.send(r)\n\n"
            "async def afetch(r):\n    async with AsyncClient() as c, open(r) as f:\n        return await c.send(f)\n",
        },
    )
    assert ("Client.send", False) in calls(repo, "fetch")
    assert ("AsyncClient.send", False) not in calls(repo, "fetch")
    assert [e for e in calls(repo, "made") if e[0].endswith("send")] == [("Client.send", False)]
    assert [e for e in calls(repo, "afetch") if e[0].endswith("send")] == [("AsyncClient.send", False)]


def test_a_constructor_through_a_module_the_index_lacks_or_a_local_names_no_class(tmp_path: Path) -> None:
    # `requests.Session()` is not the indexed `Session`: its `load` stays a guess, as `b.Thing()` does.
    repo = make_repo(
        tmp_path,
        {
            "session.py": "class Session:\n    def load(self, u):\n        return u\n",
            "cache.py": "class Cache:\n    def load(self, u):\n        return u\n",
            "main.py": "import requests\n\ndef run(u, b):\n    s = requests.Session()\n    t = b.Session()\n"
            "    s.load(u)\n    t.load(u)\n",
        },
    )
    assert {e for e in calls(repo, "run") if e[0].endswith(".load")} == {
        ("Cache.load", True),
        ("Session.load", True),
    }
    with_text = "def f():\n    with b.Thing() as t, Lock() as k:\n        pass\n"
    assert declared_classes(_node("python", with_text)) == {"k": "Lock"}


def test_a_rust_chain_or_local_through_an_option_or_result_is_the_wrapped_types(tmp_path: Path) -> None:
    """`TimeFilter::after(s).unwrap().applies_to(t)` and `let f = SizeFilter::from_string(s).unwrap();
    f.is_within(1)` were ambiguous edges to every `applies_to`, `is_within`: a return type of
    `Option<Self>` or `anyhow::Result<Self>` named no class, and a local made by a chain was not read.
    The wrapped type is what `.unwrap()`, `.expect(..)` or `?` give."""
    files = {
        "src/time.rs": "pub struct TimeFilter {}\nimpl TimeFilter {\n"
        "    pub fn after(s: &str) -> Option<TimeFilter> { None }\n"
        "    pub fn applies_to(&self, t: u8) -> bool { true }\n}\n",
        "src/size.rs": "pub struct SizeFilter {}\nimpl SizeFilter {\n"
        "    pub fn from_string(s: &str) -> anyhow::Result<Self> { todo!() }\n"
        "    pub fn is_within(&self, n: u8) -> bool { true }\n"
        "    pub fn applies_to(&self, t: u8) -> bool { true }\n}\n",
        # Another type's `is_within`: a call linked by its name alone would be ambiguous.
        "src/checks.rs": "pub struct Check {}\nimpl Check {\n    pub fn is_within(&self, n: u8) -> bool { true }\n}\n",
        "src/run.rs": "fn run() -> anyhow::Result<()> {\n"
        '    TimeFilter::after("1min").unwrap().applies_to(1);\n'
        '    let f = SizeFilter::from_string("-1k")?;\n    f.is_within(1);\n'
        '    let g = SizeFilter::from_string("+1k").expect("size");\n    g.applies_to(2);\n'
        "    Ok(())\n}\n",
    }
    make_repo(tmp_path, files)
    assert calls(tmp_path, "run") == [
        ("SizeFilter.applies_to", False),
        ("SizeFilter.from_string", False),
        ("SizeFilter.is_within", False),
        ("TimeFilter.after", False),
        ("TimeFilter.applies_to", False),
    ]


def test_a_doc_comments_parameter_list_declares_no_class(tmp_path: Path) -> None:
    """A DocC `- queue: Serial ...` line (a Python docstring's `client: Client ...`) is no
    declaration: it gave `queue` a second class, and the property's own type was dropped with it."""
    repo = make_repo(
        tmp_path,
        {
            "Sources/Worker.swift": "class Worker {\n    /// The queue.\n    let queue: Worker\n\n"
            "    /// - Parameters:\n    ///   - queue: Serial `Worker` to run on.\n"
            "    init(queue: Worker) {\n        self.queue = queue\n    }\n}\n\n"
            "extension Worker {\n    func after(_ delay: Int) {}\n\n"
            "    func retry() {\n        self.queue.after(1)\n    }\n}\n",
            "Sources/Timer.swift": "class Timer {\n    func after(_ delay: Int) {}\n}\n",
        },
    )
    assert calls(repo, "Worker.retry") == [("Worker.after", False)]
    text = 'def f(client: Client):\n    """Send.\n\n    Args:\n        client: The client.\n    """\n'
    assert declared_classes(_node("python", text)) == {"client": "Client"}


def test_a_swift_existential_or_opaque_type_names_its_protocol(tmp_path: Path) -> None:
    """`any Retrier`, `(any Retrier)?` and `some Retrier` (a property's, a parameter's, a method's
    return type) are Retrier's: a call through one is the protocol's requirement, not a guess among
    every same-named method of the classes conforming to it."""
    repo = make_repo(
        tmp_path,
        {
            "Sources/Retrier.swift": "protocol Retrier {\n    func retry(_ n: Int)\n}\n\n"
            "final class Policy: Retrier {\n    func retry(_ n: Int) {}\n}\n\n"
            "final class Backoff: Retrier {\n    func retry(_ n: Int) {}\n}\n",
            "Sources/Session.swift": "final class Session {\n    let fallback: any Retrier\n"
            "    var chosen: (any Retrier)?\n\n    init(fallback: any Retrier) {\n"
            "        self.fallback = fallback\n    }\n\n"
            "    func retrier(for n: Int) -> (any Retrier)? {\n        chosen\n    }\n\n"
            "    func first(_ other: some Retrier) {\n        other.retry(0)\n    }\n\n"
            "    func second() {\n        self.fallback.retry(1)\n    }\n\n"
            "    func third() {\n        guard let found = retrier(for: 2) else { return }\n"
            "        found.retry(2)\n    }\n}\n",
        },
    )
    for caller in ("Session.first", "Session.second"):
        assert calls(repo, caller) == [("Retrier.retry", False)], caller
    assert calls(repo, "Session.third") == [("Retrier.retry", False), ("Session.retrier", False)]


def test_a_scala_type_named_in_two_files_is_the_callers_own_files(tmp_path: Path) -> None:
    """`macro Macros.impl` in each compiler version's source folder (`src-2/`, `src-3/`) is the
    `object Macros` of its own file, not both."""
    files = {
        f"os/{d}/Macros.scala": "package os\n\ntrait PathMacros {\n  def validated(s: String): Int = Macros.impl(s)\n}\n\n"
        "object Macros {\n  def impl(s: String): Int = 1\n}\n"
        for d in ("src-2", "src-3")
    }
    edges = related(
        open_engine(make_repo(tmp_path, files) / ".qry"), "os/src-3/Macros.scala:PathMacros.validated"
    )
    calls = [(r.symbol, r.path, r.ambiguous) for r in edges.related if r.edge == "calls"]
    assert calls == [("Macros.impl", "os/src-3/Macros.scala", False)]


def test_a_python_annotation_quoted_through_a_module_or_optional_names_the_class(tmp_path: Path) -> None:
    """jinja's `visit_For(self, node: nodes.For, ..)` calling `node.find_all(..)`, inherited from
    `Node`, was a guess by name (ambiguous, also to every other `find_all`), as were `env:
    "Environment"` and `frame: t.Optional[Frame]`: only `name: Class` was read. Each form now names
    the class; a module's qualifier counts when the file imports it, as for a constructor."""
    nodes = "class Node:\n    def find_all(self, k):\n        return []\n\n\nclass For(Node):\n    pass\n"
    other = "class Other:\n    def find_all(self, k):\n        return None\n"
    gen = (
        "import typing as t\nfrom pkg import nodes\nfrom pkg.nodes import For\n\n\n"
        "def qualified(node: nodes.For):\n    node.find_all(1)\n\n\n"
        'def quoted(node: "For"):\n    node.find_all(2)\n\n\n'
        "def optional(node: t.Optional[For]):\n    node.find_all(3)\n\n\n"
        'def quoted_qualified(node: "nodes.For | None"):\n    node.find_all(4)\n\n\n'
        "def unknown(node: lib.For):\n    node.find_all(5)\n\n\n"
        "class Holder:\n    def __init__(self, node: nodes.For):\n        self.node = node\n\n"
        "    def run(self):\n        self.node.find_all(6)\n"
    )
    files = {"pkg/__init__.py": "", "pkg/nodes.py": nodes, "pkg/other.py": other, "pkg/gen.py": gen}
    repo = make_repo(tmp_path, files)
    for caller in ("qualified", "quoted", "optional", "quoted_qualified", "Holder.run"):
        assert calls(repo, caller) == [("Node.find_all", False)], caller
    # `lib` is no module the file imports: the qualifier may be anything, so the name still guesses.
    assert ("Other.find_all", True) in calls(repo, "unknown")
