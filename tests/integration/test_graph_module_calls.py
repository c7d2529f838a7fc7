"""Calls through a module an import binds (`walk::scan()` after `mod walk;`, `br.schedule()`,
`from pkg import evolve`): the module's own item, or the member its path names, and a stub's
declaration yields to the body its package passes on."""

from __future__ import annotations

from pathlib import Path

from indexlib import SearchOptions, open_engine, related
from tests.repokit import make_repo


def _callees(root: Path, caller: str) -> list[tuple[str, str, bool]]:
    engine = open_engine(root / ".qry")
    return [(r.symbol, r.path, r.ambiguous) for r in related(engine, caller, callers=False).related]


def test_a_rust_call_through_a_declared_module_is_its_free_function(tmp_path: Path) -> None:
    """fd's `walk::scan(...)` in main.rs (`mod walk;`) linked to `scan` and to the method
    `WorkerState.scan` of walk.rs alike, both ambiguous: the module's file was all that counted."""
    files = {
        "src/main.rs": "mod walk;\n\nfn run() -> u8 {\n    walk::scan(1)\n}\n",
        "src/walk.rs": "pub struct WorkerState {\n    n: u8,\n}\n\nimpl WorkerState {\n"
        "    fn scan(&self, p: u8) -> u8 {\n        p + self.n\n    }\n}\n\n"
        "pub fn scan(p: u8) -> u8 {\n    p\n}\n",
    }
    assert _callees(make_repo(tmp_path, files), "run") == [("scan", "src/walk.rs", False)]


def test_a_python_call_through_a_module_alias_follows_the_written_path(tmp_path: Path) -> None:
    """`br.schedule()` is the module's function and `br.Retrier.schedule()` the class's method,
    where both linked to both, ambiguous."""
    files = {
        "billing/__init__.py": "",
        "billing/retry.py": "def schedule(x):\n    return x\n\n\nclass Retrier:\n"
        "    def schedule(self, x):\n        return x\n",
        "app.py": "import billing.retry as br\n\n\ndef plain():\n    return br.schedule(1)\n\n\n"
        "def through_class():\n    return br.Retrier.schedule(None, 1)\n",
    }
    root = make_repo(tmp_path, files)
    assert _callees(root, "plain") == [("schedule", "billing/retry.py", False)]
    assert _callees(root, "through_class") == [("Retrier.schedule", "billing/retry.py", False)]


def test_a_name_imported_from_a_package_with_a_stub_is_the_body_it_passes_on(tmp_path: Path) -> None:
    """attrs' tests call `evolve` after `from attr import evolve`: the edge went to the stub
    `attr/__init__.pyi`'s `evolve` and to its method `Attribute.evolve`, ambiguous, never to the
    `evolve` of `attr/_make.py` that `attr/__init__.py` passes on; nor did `attrs.evolve()` through
    the package `attrs` passing `attr`'s on."""
    files = {
        "pkg/__init__.py": "from ._make import evolve\n",
        "pkg/__init__.pyi": "def evolve(inst: object) -> object: ...\n\n\nclass Attribute:\n"
        "    def evolve(self) -> object: ...\n",
        "pkg/_make.py": "def evolve(inst):\n    return inst\n",
        "tests/test_evolve.py": "from pkg import evolve\n\n\ndef test_evolve():\n    assert evolve(1) == 1\n",
        "top/__init__.py": "from pkg import evolve\n",
        "top/__init__.pyi": "from pkg import evolve as evolve\n",
        "app.py": "import top\n\n\ndef through_top():\n    return top.evolve(1)\n",
    }
    root = make_repo(tmp_path, files)
    assert _callees(root, "test_evolve") == [("evolve", "pkg/_make.py", False)]
    assert _callees(root, "through_top") == [("evolve", "pkg/_make.py", False)]


def test_a_python_call_through_a_package_star_import_is_the_modules_function(tmp_path: Path) -> None:
    """httpx's `__init__.py` is `from ._api import *` (and so for each module): the tests'
    `httpx.get(url)` had no edge at all, and `get` of `httpx/_api.py` no caller. A `_private` name is
    not one a star import passes on, and a method of the same name is not the module's function."""
    files = {
        "net/__init__.py": "from ._api import *\nfrom ._models import *\n",
        "net/_api.py": "def get(url):\n    return url\n\n\ndef _hidden(url):\n    return url\n",
        "net/_models.py": "class Params:\n    def get(self, key):\n        return key\n",
        "app.py": "import net\n\n\ndef fetch(u):\n    return net.get(u)\n\n\ndef private(u):\n    return net._hidden(u)\n",
    }
    root = make_repo(tmp_path, files)
    assert _callees(root, "fetch") == [("get", "net/_api.py", False)]
    assert _callees(root, "private") == []


def test_a_typescript_call_through_a_barrel_index_is_the_module_it_re_exports(tmp_path: Path) -> None:
    """zod's classic schemas call `core.$constructor(...)` after `import * as core from
    "../core/index.js"`, whose `index.ts` is `export * from "./core.js"`: 75 calls, no edge, for the
    import named the index file itself (matched only as its folder), and re-exports were never
    followed. Nor were `util.shallowClone()` through `export * as util` and a named re-export."""
    files = {
        "src/core/core.ts": "export function $constructor(name: string): string {\n  return name;\n}\n",
        "src/core/util.ts": "export function shallowClone(o: any): any {\n  return { ...o };\n}\n",
        "src/core/other.ts": "export function shallowClone(o: any): any {\n  return o;\n}\n",
        "src/core/index.ts": 'export * from "./core.js";\nexport * as util from "./util.js";\n'
        'export { shallowClone } from "./util.js";\n',
        "src/classic/schemas.ts": 'import * as core from "../core/index.js";\n'
        'import { util, shallowClone } from "../core/index.js";\n\n'
        'export function viaStar() {\n  return core.$constructor("X");\n}\n\n'
        "export function viaNamespace(x: any) {\n  return util.shallowClone(x);\n}\n\n"
        "export function viaNamed(x: any) {\n  return shallowClone(x);\n}\n",
    }
    root = make_repo(tmp_path, files)
    assert _callees(root, "viaStar") == [("$constructor", "src/core/core.ts", False)]
    assert _callees(root, "viaNamespace") == [("shallowClone", "src/core/util.ts", False)]
    assert _callees(root, "viaNamed") == [("shallowClone", "src/core/util.ts", False)]


def test_a_javascript_call_through_a_renamed_import_is_the_imported_name(tmp_path: Path) -> None:
    """`import { parseThing as pt } from "./m"; pt(1)` had no edge: the call was looked up as `pt`,
    which nothing defines, as Python's `from m import parse_thing as pt` no longer was."""
    files = {
        "src/m.ts": "export function parseThing(x: number) {\n  return x\n}\n",
        "src/other.ts": "export function pt(x: number) {\n  return x\n}\n",
        "src/main.ts": 'import { parseThing as pt } from "./m"\n\nexport function run() {\n  return pt(1)\n}\n',
    }
    assert _callees(make_repo(tmp_path, files), "run") == [("parseThing", "src/m.ts", False)]


def test_a_name_a_package_passes_on_is_resolved_as_its_users_write_it(tmp_path: Path) -> None:
    """`qry related httpx.Client` (the name httpx's docs and users write) found no definition:
    `Client` is httpx/_client.py's, which httpx/__init__.py passes on by a star import, and only
    the module path `httpx._client.Client` matched. A member through it too; a name the package
    does not pass on is still no definition."""
    files = {
        "net/__init__.py": "from ._client import *\nfrom ._api import get as fetch\n",
        "net/_client.py": "class Client:\n    def send(self, r):\n        return r\n",
        "net/_api.py": "def get(url):\n    return url\n",
        "other/_client.py": "class Client:\n    pass\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    for name, where in [
        ("net.Client", ("Client", "net/_client.py")),
        ("net.Client.send", ("Client.send", "net/_client.py")),
        ("net.get", None),  # passed on as `fetch` only
        ("net._client.Client", ("Client", "net/_client.py")),
    ]:
        node = related(engine, name).node
        assert ((node.symbol, node.path) if node else None) == where, name


# A library crate at the repository's top, named by its Cargo.toml (serde_json's layout): its root
# passes items on from its modules, one of them two steps deep, and exports a macro.
_CRATE = {
    "Cargo.toml": '[package]\nname = "serde_json"\nversion = "1.0.0"\n',
    "src/lib.rs": (
        "mod de;\nmod macros;\nmod map;\npub mod value;\n\n"
        "pub use crate::de::{from_str, Deserializer};\npub use crate::value::{Map, Value};\n"
    ),
    "src/de.rs": (
        "pub struct Deserializer {}\n\nimpl Deserializer {\n    /// What serde_json::from_str reads with.\n"
        "    pub fn from_str(s: &str) -> Self {\n        Deserializer {}\n    }\n}\n\n"
        "/// Deserialize a value from a str.\npub fn from_str(s: &str) -> u8 {\n    0\n}\n"
    ),
    "src/value/mod.rs": (
        "pub use crate::map::Map;\n\npub enum Value {\n    Null,\n}\n\nimpl Value {\n"
        "    pub fn pointer(&self, p: &str) -> Option<&Value> {\n        None\n    }\n}\n\n"
        "/// Convert a `T` into a `serde_json::Value`.\npub fn to_value(t: u8) -> Value {\n    Value::Null\n}\n\n"
        "/// Interpret a `serde_json::Value` as a `T`.\npub fn from_value(v: Value) -> u8 {\n    0\n}\n"
    ),
    "src/map.rs": "pub struct Map {}\n\nimpl Map {\n    type Value = u8;\n}\n",
    "src/macros.rs": "#[macro_export]\nmacro_rules! json {\n    ($e:expr) => {\n        $e\n    };\n}\n",
    "tests/test.rs": 'struct Value {}\n\nfn test_parse() {\n    let v = serde_json::from_str("1");\n}\n',
}


def test_a_rust_path_from_the_crates_name_names_the_item_its_root_passes_on(tmp_path: Path) -> None:
    """`qry related serde_json::from_str` (a Rust crate's API as its users and docs write it) found
    no definition: the crate at the top is in no folder of its name, and its root passes `from_str`
    on from `src/de.rs`. Search ranked the method `Deserializer::from_str` first for it and put
    `Value` below doc comments naming `serde_json::Value`."""
    engine = open_engine(make_repo(tmp_path, _CRATE) / ".qry")
    for name, where in [
        ("serde_json::from_str", ("from_str", "src/de.rs")),
        ("serde_json::Value::pointer", ("Value.pointer", "src/value/mod.rs")),
        ("serde_json::Map", ("Map", "src/map.rs")),  # `value` passes it on from `map`
        ("serde_json::value::Value", ("Value", "src/value/mod.rs")),  # through its module
        ("serde_json::json", ("json", "src/macros.rs")),  # an exported macro
        ("serde_json::Nope", None),
    ]:
        node = related(engine, name).node
        assert ((node.symbol, node.path) if node else None) == where, name
    for query, first in [
        ("serde_json::from_str", ("from_str", "src/de.rs")),
        ("serde_json::Value", ("Value", "src/value/mod.rs")),
    ]:
        top = engine.search(query, SearchOptions(mode="lexical")).results[0]
        assert (top.symbol, top.path) == first, query


def test_a_rust_macro_written_with_its_bang_names_the_macro(tmp_path: Path) -> None:
    """`qry related json!` (a macro as its callers and docs write it) found no definition (exit 1),
    the `!` read as part of the name; `serde_json::json!` neither. A `macro_rules!` comes before a
    function of the name; a name with no definition still has none."""
    files = {**_CRATE, "src/json.rs": "pub fn json(s: &str) -> u8 {\n    0\n}\n"}
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    for name in ("json!", "serde_json::json!", "macros.rs:json!"):
        node = related(engine, name).node
        assert node is not None and (node.symbol, node.path) == ("json", "src/macros.rs"), name
    assert related(engine, "nope!").node is None
