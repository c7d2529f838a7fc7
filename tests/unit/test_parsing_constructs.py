"""Less common constructs per language, on small inline sources."""

from __future__ import annotations

from indexlib.index.parsing import parse_file
from indexlib.records import REEXPORT_ALL, ParsedFile


def table(parsed: ParsedFile) -> dict[str, tuple[str, str, str]]:
    """qualified name -> (kind, signature, parent's qualified name) for definitions (part 0)."""
    names = {node.uid: node.qualified_name for node in parsed.nodes}
    return {
        node.qualified_name: (node.kind, node.signature, names.get(node.parent_uid, ""))
        for node in parsed.nodes
        if node.kind != "module" and node.part == 0
    }


def refs(parsed: ParsedFile, kind: str) -> set[tuple[str, str]]:
    return {(ref.target, ref.alias) for ref in parsed.refs if ref.kind == kind}


def test_python_imports_and_comment_docs() -> None:
    source = b"""from __future__ import annotations
from . import sibling
from ..pkg.mod import thing as other, more
from os.path import *
import a.b.c
import numpy as np

# Computes things.
# Carefully.
def compute():
    return sibling.run()
"""
    parsed = parse_file("pkg/sub/m.py", source, "python")
    assert refs(parsed, "imports") == {
        ("__future__.annotations", "annotations"),
        (".sibling", "sibling"),
        ("..pkg.mod.thing", "other"),
        ("..pkg.mod.more", "more"),
        ("os.path", "*"),
        ("a.b.c", ""),  # binds `a`, not `a.b.c`
        ("numpy", "np"),
    }
    compute = next(n for n in parsed.nodes if n.name == "compute")
    assert compute.doc == "Computes things.\nCarefully."


def test_python_methods_nested_classes_and_properties() -> None:
    source = b"""class Outer:
    class Inner:
        def deep(self):
            return 1

    @property
    def size(self) -> int:
        return len(self.items)

    async def fetch(self):
        def helper():
            return go()
        return helper()
"""
    parsed = parse_file("m.py", source, "python")
    assert table(parsed) == {
        "Outer": ("class", "class Outer", ""),
        "Outer.Inner": ("class", "class Inner", "Outer"),
        "Outer.Inner.deep": ("method", "def deep(self)", "Outer.Inner"),
        "Outer.size": ("method", "def size(self) -> int", "Outer"),
        "Outer.fetch": ("method", "async def fetch(self)", "Outer"),
        "Outer.fetch.helper": ("function", "def helper()", "Outer.fetch"),
    }
    outer = next(n for n in parsed.nodes if n.qualified_name == "Outer")
    assert (
        "class Inner:\n        ...\n" in outer.text
        and "@property\n    def size(self) -> int:\n" in outer.text
    )
    assert "len(self.items)" not in outer.text


def test_javascript_assigned_functions_and_class_expressions() -> None:
    source = b"""function Billing(gateway) { this.gateway = gateway; }

// Charge through the prototype.
Billing.prototype.charge = function (id) {
  return this.gateway.post(id);
};

module.exports.retry = (id) => retryLater(id);

const Widget = class {
  render() { return draw(); }
};

export { charge as default } from "./charge.js";
export * from "./all.js";
export * as util from "./util.js";
const { a, b } = require("./pair");
const lazy = await import("./lazy.js");
"""
    parsed = parse_file("legacy.js", source, "javascript")
    assert table(parsed) == {
        "Billing": ("function", "function Billing(gateway)", ""),
        "Billing.charge": ("method", "Billing.prototype.charge = function (id)", "Billing"),
        "retry": ("function", "module.exports.retry = (id) =>", ""),
        "Widget": ("class", "const Widget = class", ""),
        "Widget.render": ("method", "render()", "Widget"),
        # A destructuring pattern (`const { a, b } = ...`) names no single constant, and a binding of
        # an import (`await import(...)`, `require(...)`) is an import edge, not a constant.
    }
    charge = next(n for n in parsed.nodes if n.qualified_name == "Billing.charge")
    assert charge.doc == "Charge through the prototype."
    assert refs(parsed, "imports") == {
        # a re-export is aliased by the name it passes on, `export *` by every name (REEXPORT_ALL)
        ("./charge.js", "default"),
        ("./all.js", REEXPORT_ALL),
        ("./util.js", "util"),
        ("./pair", ""),
        ("./lazy.js", "lazy"),
    }


def test_a_call_of_a_javascript_parameter_is_no_reference() -> None:
    """zod's `_string(Class, params)` returns `new Class({...})`, a class its caller passes: the call
    linked to three unrelated definitions named `Class` (243 such edges from `core/api.ts`). A call of
    a parameter, in the function or a callback inside it, names no definition; a global still does."""
    source = b"""export function _string<T>(Class: SchemaClass<T>, params?: string): T {
  return new Class({ type: "string", params });
}
export function each(fn, items = []) {
  return items.map((item) => fn(item)) && helper();
}
const call = (cb) => cb();
"""
    parsed = parse_file("api.ts", source, "typescript")
    assert {target for target, _ in refs(parsed, "calls")} == {"items.map", "helper"}


def test_typescript_namespaces_and_interfaces() -> None:
    source = b"""namespace Billing.Api {
  export interface Client extends Base<T>, Closable {
    call(): void;
  }
  export function connect(): Client { return open(); }
}
"""
    parsed = parse_file("api.ts", source, "typescript")
    assert table(parsed) == {
        "Billing.Api.Client": ("interface", "interface Client extends Base<T>, Closable", ""),
        "Billing.Api.Client.call": ("method", "call(): void", "Billing.Api.Client"),  # bodiless
        "Billing.Api.connect": ("function", "function connect(): Client", ""),
    }
    names = {n.uid: n.qualified_name for n in parsed.nodes}
    assert {(names[r.src_uid], r.kind, r.target) for r in parsed.refs if r.kind == "inherits"} == {
        ("Billing.Api.Client", "inherits", "Base"),
        ("Billing.Api.Client", "inherits", "Closable"),
    }


def test_typescript_dollar_is_a_letter_of_names() -> None:
    # zod: `interface $ZodType` was named `ZodType`, and `core.$constructor(...)` called `core.constructor`.
    source = b"""export interface $ZodType extends _$ZodType {}
export class $ZodError extends $Base {}
export const $ZodString = core.$constructor("$ZodString", (inst) => { new $Thing(); user$.pipe(); });
"""
    parsed = parse_file("schemas.ts", source, "typescript")
    assert {name for name in table(parsed)} == {"$ZodType", "$ZodError", "$ZodString"}
    assert {t for t, _ in refs(parsed, "inherits")} == {"_$ZodType", "$Base"}
    assert {"core.$constructor", "$Thing", "user$.pipe"} <= {t for t, _ in refs(parsed, "calls")}


def test_php_dollar_stays_a_sigil() -> None:
    parsed = parse_file("a.php", b"<?php\nfunction run() { $this->client->send(); }\n", "php")
    assert "this.client.send" in {t for t, _ in refs(parsed, "calls")}


def test_go_embedding_and_generic_receivers() -> None:
    source = b"""package store

import _ "embed"
import . "fmt"

type Cache[K comparable] struct {
	*Base
	sync.Mutex
	items map[K]int
}

type ReadWriter interface {
	Reader
	Write(p []byte) error
}

func (c *Cache[K]) Get(key K) int { return c.items[key] }
"""
    parsed = parse_file("cache.go", source, "go")
    assert table(parsed)["Cache.Get"] == ("method", "func (c *Cache[K]) Get(key K) int", "Cache")
    names = {n.uid: n.qualified_name for n in parsed.nodes}
    assert {(names[r.src_uid], r.target) for r in parsed.refs if r.kind == "inherits"} == {
        ("Cache", "Base"),
        ("Cache", "sync.Mutex"),
        ("ReadWriter", "Reader"),
    }
    assert refs(parsed, "imports") == {("embed", "_"), ("fmt", ".")}


def test_rust_use_trees_mods_and_supertraits() -> None:
    source = b"""use std::{io::{self, Read as R}, collections::*};
extern crate serde as sd;

mod inner {
    pub fn helper() -> u8 { other::make() }
}

pub trait Store: Send + fmt::Debug {
    fn get(&self) -> u8 { 0 }
}

impl<T: Clone> Store for Wrapper<T> {}
"""
    parsed = parse_file("lib.rs", source, "rust")
    assert refs(parsed, "imports") == {
        ("std.io", "io"),
        ("std.io.Read", "R"),
        ("std.collections", "*"),
        ("serde", "sd"),
    }
    assert table(parsed) == {
        "inner.helper": ("function", "pub fn helper() -> u8", ""),
        "Store": ("trait", "pub trait Store: Send + fmt::Debug", ""),
        "Store.get": ("method", "fn get(&self) -> u8", "Store"),
    }
    module = next(n for n in parsed.nodes if n.kind == "module")
    names = {n.uid: n.qualified_name for n in parsed.nodes}
    assert {
        (names[r.src_uid], r.kind, r.target) for r in parsed.refs if r.kind in ("inherits", "implements")
    } == {
        ("Store", "inherits", "Send"),
        ("Store", "inherits", "fmt.Debug"),
        (module.qualified_name, "implements", "Store"),  # Wrapper is not defined here
    }
    assert ("inner.helper", "other.make") in {(names[r.src_uid], r.target) for r in parsed.refs}


def test_cpp_templates_destructors_and_new() -> None:
    source = b"""#include <vector>
namespace a { namespace b {
/// A box.
template <typename T>
class Box : public Base<T>, private virtual Other {
public:
    ~Box() { release(); }
    T get() const { return value; }
};
}}
Box* make() { return new a::b::Box<int>(); }
"""
    parsed = parse_file("box.hpp", source, "cpp")
    assert table(parsed) == {
        "a.b.Box": ("class", "class Box : public Base<T>, private virtual Other", ""),
        "a.b.Box.~Box": ("method", "~Box()", "a.b.Box"),
        "a.b.Box.get": ("method", "T get() const", "a.b.Box"),
        "make": ("function", "Box* make()", ""),
    }
    box = next(n for n in parsed.nodes if n.qualified_name == "a.b.Box")
    # The doc comment is part of the node, above its `template <...>` line.
    assert box.doc == "A box." and box.text.startswith("/// A box.\ntemplate <typename T>\nclass Box")
    assert box.start_line == 3
    names = {n.uid: n.qualified_name for n in parsed.nodes}
    assert {(names[r.src_uid], r.target) for r in parsed.refs if r.kind == "inherits"} == {
        ("a.b.Box", "Base"),
        ("a.b.Box", "Other"),
    }
    assert ("make", "a.b.Box") in {(names[r.src_uid], r.target) for r in parsed.refs if r.kind == "calls"}


def test_csharp_file_scoped_namespace_and_records() -> None:
    source = b"""global using static System.Math;
namespace Shop.Orders;

public record Order(int Id) : Entity(Id), IComparable<Order>;

public struct Point : IEquatable<Point> { public bool Equals(Point p) => true; }
"""
    parsed = parse_file("Order.cs", source, "csharp")
    assert set(table(parsed)) == {"Shop.Orders.Order", "Shop.Orders.Point", "Shop.Orders.Point.Equals"}
    names = {n.uid: n.qualified_name for n in parsed.nodes}
    # a C# base keeps the arity written (`IComparable<Order>` -> `IComparable`1`): the resolver reads it
    assert {
        (names[r.src_uid], r.kind, r.target) for r in parsed.refs if r.kind in ("inherits", "implements")
    } == {
        ("Shop.Orders.Order", "inherits", "Entity"),
        ("Shop.Orders.Order", "implements", "IComparable`1"),
        ("Shop.Orders.Point", "implements", "IEquatable`1"),
    }
    assert refs(parsed, "imports") == {("System.Math", "")}


def test_php_group_use_and_functions_use() -> None:
    source = b"""<?php
namespace Shop;
use Shop\\Models\\{Order, Item as LineItem};
use function Shop\\Util\\format_price;
include 'bootstrap.php';
$x = \\Shop\\Util\\helper();
"""
    parsed = parse_file("shop.php", source, "php")
    assert refs(parsed, "imports") == {
        ("Shop.Models.Order", "Order"),
        ("Shop.Models.Item", "LineItem"),
        ("Shop.Util.format_price", "format_price"),
        ("bootstrap.php", ""),
    }
    # Written fully qualified, the name keeps its backslash: PHP reads it apart from a relative one.
    assert ("\\Shop.Util.helper", "") in refs(parsed, "calls")


def test_ruby_empty_methods_nested_modules_and_requires() -> None:
    source = b"""require_relative "lib/base"
module Shop
  module Orders
    class Cart < Base::Model
      def empty?; end
      class << self
        def build(items) = new(items)
      end
    end
  end
end
"""
    parsed = parse_file("cart.rb", source, "ruby")
    assert table(parsed) == {
        # Modules holding only a class are namespaces (test_parsing_rust_ruby.py); a module with
        # methods or constants is a container (test_parsing_members.py).
        "Shop.Orders.Cart": ("class", "class Cart < Base::Model", ""),
        "Shop.Orders.Cart.empty?": ("method", "def empty?", "Shop.Orders.Cart"),
        "Shop.Orders.Cart.build": ("method", "def build(items)", "Shop.Orders.Cart"),
    }
    assert refs(parsed, "imports") == {("lib/base", "")}
    assert refs(parsed, "inherits") == {("Base.Model", "")}


def test_java_wildcard_and_static_imports() -> None:
    source = b"""import java.util.*;
import static org.junit.Assert.assertEquals;
class T { @interface Marker {} }
"""
    parsed = parse_file("T.java", source, "java")
    assert refs(parsed, "imports") == {("java.util", "*"), ("org.junit.Assert.assertEquals", "assertEquals")}
    assert table(parsed)["T.Marker"] == ("interface", "@interface Marker", "T")


def test_windowed_module_and_class_stay_whole_when_content_is_small() -> None:
    methods = b"".join(b"    def m%d(self):\n" % i + b"        x = 1\n" * 5 for i in range(60))
    # The last line is top-level code, not a constant (a constant would be its own node).
    data = b"import os\n\n\nclass Big:\n" + methods + b"\n\nos.sched_setaffinity(0, {os.cpu_count()})\n"
    parsed = parse_file("big.py", data, "python", window_lines=150)
    big = [n for n in parsed.nodes if n.qualified_name == "Big"]
    assert len(big) == 1  # 361 lines, but only 121 are left once method bodies are elided
    module = [n for n in parsed.nodes if n.kind == "module"]
    assert len(module) == 1 and module[0].start_line == 1 and module[0].end_line == data.count(b"\n")
    call = next(r for r in parsed.refs if r.target == "os.cpu_count")
    assert call.src_uid == module[0].uid


def test_refs_from_top_level_code_in_a_windowed_module() -> None:
    data = b"".join(b"setup_%d()\n" % i for i in range(250))
    parsed = parse_file("script.py", data, "python", window_lines=100)
    parts = [n for n in parsed.nodes if n.kind == "module"]
    assert [(n.part, n.start_line, n.end_line) for n in parts] == [(0, 1, 100), (1, 101, 200), (2, 201, 250)]
    owner = {n.uid: n for n in parts}
    for ref in parsed.refs:
        holder = owner[ref.src_uid]
        assert holder.start_line <= ref.line <= holder.end_line


def test_rust_impl_for_a_reference_is_named_after_the_type() -> None:
    source = b"""pub struct S;
impl<'a, T: Sink> Sink for &'a mut T {
    fn matched(&mut self) -> bool { true }
}
impl Sink for *const S {
    fn finish(&self) {}
}
impl Sink for Box<S> {
    fn begin(&self) {}
}
"""
    parsed = parse_file("sink.rs", source, "rust")
    methods = {n.qualified_name for n in parsed.nodes if n.kind == "method"}
    # A blanket implementation (for its own type parameter T) is the trait's: ripgrep's
    # `impl<'a, M: Matcher> Matcher for &'a M` named its methods `M.find_at`, a type nothing declares.
    assert methods == {"Sink.matched", "S.finish", "Box.begin"}
    names = {n.uid: n.qualified_name for n in parsed.nodes}
    implements = {(names[r.src_uid], r.target) for r in parsed.refs if r.kind == "implements"}
    assert ("Sink", "Sink") not in implements and ("S", "Sink") in implements


def test_rust_impl_for_a_type_named_as_a_parameter_elsewhere_keeps_its_type() -> None:
    source = b"""pub struct T;
impl<U: Clone> From<U> for T {
    fn from(u: U) -> T { T }
}
"""
    parsed = parse_file("t.rs", source, "rust")
    assert {n.qualified_name for n in parsed.nodes if n.kind == "method"} == {"T.from"}


def test_rust_impl_for_a_type_written_by_its_shape_is_named_as_rustdoc_names_it() -> None:
    """axum's `impl IntoResponse for ()`, `for (StatusCode, R)`, `for [u8; N]`, `for &'static [u8]`:
    their methods came out as bare `into_response`, with no container; `fn(u8) -> u8` was `u8`, and
    `dyn Error + Send` was `ErrorSend`."""
    source = b"""impl IntoResponse for () { fn into_response(self) {} }
impl<R> IntoResponse for (StatusCode, R) { fn into_response(self) {} }
impl<const N: usize> IntoResponse for [u8; N] { fn into_response(self) {} }
impl IntoResponse for &'static [u8] { fn into_response(self) {} }
impl Call for fn(u8) -> u8 { fn call(&self) {} }
impl Never for ! { fn never(&self) {} }
impl dyn std::error::Error + Send { fn downcast(&self) {} }
impl Show for Vec<u8> { fn show(&self) {} }
"""
    parsed = parse_file("r.rs", source, "rust")
    methods = sorted(n.qualified_name for n in parsed.nodes if n.kind == "method")
    assert methods == [
        "Error.downcast",
        "Vec.show",
        "array.into_response",
        "fn.call",
        "never.never",
        "slice.into_response",
        "tuple.into_response",
        "unit.into_response",
    ]


def test_python_overload_stubs_fold_into_their_implementation() -> None:
    source = b"""import typing as t
from typing import overload

class Context:
    @t.overload
    def invoke(self, callback: int) -> int: ...
    @t.overload
    def invoke(self, callback: str) -> str: ...
    def invoke(self, callback):
        return callback

@overload
def only_stubs(x: int) -> int: ...
@overload
def only_stubs(x: str) -> str: ...
"""
    parsed = parse_file("core.py", source, "python")
    defs = [(n.qualified_name, n.start_line) for n in parsed.nodes if n.kind in ("method", "function")]
    # One definition, the implementation; stubs with no implementation (a Protocol, a .pyi) stay.
    assert defs == [("Context.invoke", 9), ("only_stubs", 12), ("only_stubs", 14)]
    context = next(n for n in parsed.nodes if n.qualified_name == "Context")
    assert "callback: str" in context.text  # the stubs' signatures are still indexed, in the class


def test_javascript_require_bindings_are_imports_not_constants() -> None:
    source = b"""var send = require('send');
const { join } = require('path');
var extname = require('path').extname;
const lazy = await import('./lazy.js');
var TIMEOUT = 30;
exports.run = function run() { return send(TIMEOUT); };
"""
    parsed = parse_file("response.js", source, "javascript")
    assert {(n.qualified_name, n.kind) for n in parsed.nodes if n.kind != "module"} == {
        ("TIMEOUT", "constant"),
        ("run", "function"),
    }
    imported = {(r.target, r.alias) for r in parsed.refs if r.kind == "imports"}
    assert ("send", "send") in imported and ("./lazy.js", "lazy") in imported


def test_javascript_named_function_passed_to_a_call_is_a_definition() -> None:
    source = b"""app.use(function logger(req, res, next) {
  next();
});
app.use(function () { return 1; });
"""
    parsed = parse_file("app.js", source, "javascript")
    assert [(n.qualified_name, n.kind, n.start_line) for n in parsed.nodes if n.kind == "function"] == [
        ("logger", "function", 1)
    ]


def test_javascript_member_assignment_is_qualified_by_its_object() -> None:
    source = b"""var res = Object.create(http.ServerResponse.prototype);
res.sendFile = function sendFile(path) { return path; };
exports.run = function () {};
View.prototype.render = function render() {};
"""
    parsed = parse_file("response.js", source, "javascript")
    assert {n.qualified_name for n in parsed.nodes if n.kind in ("function", "method")} == {
        "res.sendFile",
        "run",
        "View.render",
    }


def test_a_comment_inside_a_method_chain_is_no_part_of_a_call_target() -> None:
    """fd's walker builder chain holds a `// No need to check ...` line between two calls: the
    comment's words were read as names (`builder.hidden...follow_linksNoneedtocheck...max_depth`),
    in every language whose chains may hold a comment line."""
    cases = {
        "rust": ("src/a.rs", b"fn f() {\n    b\n        .hidden(x)\n        // No\n        .depth(y);\n}\n"),
        "javascript": ("a.js", b"function f() {\n  return p\n    // first\n    .then(a);\n}\n"),
        "go": ("a.go", b"package a\n\nfunc f() {\n\tb.\n\t\t// c\n\t\tBuild()\n}\n"),
        "ruby": ("a.rb", b"def f\n  items\n    # keep\n    .select { |x| x }\n    .map(&:y)\nend\n"),
        "python": ("a.py", b"def f():\n    return (b  # c\n        .build())\n"),
    }
    targets = {
        language: sorted(target for target, _ in refs(parse_file(path, source, language), "calls"))
        for language, (path, source) in cases.items()
    }
    assert targets == {
        "rust": ["b.hidden", "b.hidden().depth"],  # `()`: the receiver is a call's result (CALLED)
        "javascript": ["p.then"],
        "go": ["b.Build"],
        "ruby": ["items", "items.select", "items.select.map"],  # `items`: no local holds it, a call
        "python": ["b.build"],
    }


def test_a_call_on_an_unbracketed_new_targets_the_constructed_class() -> None:
    """`new Foo(1).bar()` calls Foo's `bar`: read as a name, the keyword was glued onto the class
    (`newFoo.bar`), a receiver no definition has, so the call was every `bar`'s ambiguous guess."""
    sources = {
        "A.java": (b"class A { void f() {\n new Foo(1).bar().baz();\n new int[]{1}.clone();\n} }\n", "java"),
        "A.cs": (
            b"class A { void F() {\n new Foo<int>() { X = 1 }.Bar();\n new[] { 1 }.Concat(y);\n} }\n",
            "csharp",
        ),
        "a.ts": (b"function f() {\n new ns.Foo(x).bar();\n new.target.x();\n}\n", "typescript"),
    }
    found = {}
    for path, (source, language) in sources.items():
        found[path] = {(r.line, r.target) for r in parse_file(path, source, language).refs}
    assert {(2, "Foo.bar"), (2, "Foo.bar.baz"), (3, "<expr>.clone")} <= found["A.java"]
    assert {(2, "Foo.Bar"), (3, "<expr>.Concat")} <= found["A.cs"]
    assert {(2, "ns.Foo.bar"), (3, "new.target.x")} <= found["a.ts"]
    assert not any("newFoo" in target for targets in found.values() for _, target in targets)


def test_a_csharp_target_typed_new_calls_the_class_its_target_declares() -> None:
    """`Foo f = new(..)` writes no type: the class is the declared type of the variable, field or
    property it initialises or is assigned to, or of the member it returns from (serilog's
    `return new(processor, ..)` in `CreateLogger`, typed `Logger`, made no reference)."""
    source = b"""class C {
    readonly Dictionary<string, Sw> _o = new();
    public static Seq Empty { get; } = new(1);
    public Aud AuditTo => new(this, 2);
    public Sinks WriteTo { get; internal set; }
    C(Conf conf) { WriteTo = new(this); conf = new(); }
    public Logger Make() {
        LevelMap? map = null;
        if (x) {
            map = new(1, 2);
        }
        Func<int, Foo> f = x => new(x);
        var v = new Bar();
        Take(new(3));
        return x ? Empty : (new(
            4));
    }
    public Foo? Get { get { return new(5); } }
    object _lock = new();
}
"""
    parsed = parse_file("C.cs", source, "csharp")
    names = {node.uid: node.qualified_name for node in parsed.nodes}
    found = {(names.get(r.src_uid, ""), r.line, r.target, r.args) for r in parsed.refs if r.kind == "calls"}
    assert found == {
        ("C", 2, "Dictionary`2", 0),  # a field's declared generic type
        ("C.Empty", 3, "Seq", 1),  # a property's initialiser
        ("C.AuditTo", 4, "Aud", 2),  # an expression-bodied property
        ("C.C", 6, "Sinks", 1),  # assigned to a property of the class
        ("C.C", 6, "Conf", 0),  # assigned to a parameter
        ("C.Make", 10, "LevelMap", 2),  # assigned to a local declared `LevelMap?` in an outer block
        ("C.Make", 13, "Bar", 0),
        ("C.Make", 14, "Take", 1),  # an argument's class is the parameter's: none
        ("C.Make", 15, "Logger", 1),  # the method's return type, through `?:` and parentheses
        ("C.Get", 18, "Foo", 1),  # a getter's `return`: the property's type
    }
