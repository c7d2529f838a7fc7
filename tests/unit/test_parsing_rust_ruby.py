"""Definitions other than `def`/`fn` items, and what a container's text keeps of its members.

A container's text elides the members it holds as nodes of their own, their doc comments with them
(a question matching a member's doc found every container around it too); a Ruby module holding
nothing but classes and modules only qualifies their names in that file, as a namespace does.
Rust `macro_rules!` definitions are functions (as C function-like `#define`s are) and enum variants
`constant` members of their enum (as Go struct fields are of their struct); Ruby `attr_reader`,
`alias`, `alias_method` and `define_method` in a class body define methods as `def` does.
"""

from __future__ import annotations

from indexlib.index.embedtext import worth_embedding
from indexlib.index.parsing import parse_file
from tests.parsekit import node, table

PROTECTION = b"""# frozen_string_literal: true

module Rack
  module Protection
    ##
    # Prevented attack::   JSON hijacking
    # Supported browsers:: all
    class JsonCsrf < Base
      # Checks the origin of the request.
      def accepts?(env)
        # the body's first line
        true
      end

      # The header to read.
      HEADER = 'HTTP_ORIGIN'
    end
  end
end
"""


def test_a_container_text_is_its_outline_with_member_docs_and_elided_bodies() -> None:
    parsed = parse_file("lib/rack/protection/json_csrf.rb", PROTECTION, "ruby")
    csrf = node(parsed, "Rack.Protection.JsonCsrf")
    assert csrf.doc == "Prevented attack::   JSON hijacking\nSupported browsers:: all"
    assert "Checks the origin" in csrf.text  # the outline: each member's doc above its signature
    assert "the body's first line" not in csrf.text  # a comment opening a Ruby body is the body's
    assert "# The header to read." in csrf.text
    accepts = node(parsed, "Rack.Protection.JsonCsrf.accepts?")
    assert accepts.doc == "Checks the origin of the request." and "Checks the origin" in accepts.text

    java = b"""/** A widget. */
public class Widget {
    /**
     * Grows the widget.
     */
    @Override
    public void grow() {
        size++;
    }
}
"""
    widget = node(parse_file("Widget.java", java, "java"), "Widget")
    assert "Grows the widget" in widget.text and "/** A widget. */" in widget.text
    assert widget.text.splitlines()[5:7] == ["    @Override", "    public void grow() { ... }"]


def test_a_ruby_module_holding_only_classes_is_a_namespace() -> None:
    parsed = parse_file("lib/rack/protection/json_csrf.rb", PROTECTION, "ruby")
    assert table(parsed) == {
        "Rack.Protection.JsonCsrf": ("class", 5, 17, ""),
        "Rack.Protection.JsonCsrf.accepts?": ("method", 9, 13, "Rack.Protection.JsonCsrf"),
        "Rack.Protection.JsonCsrf.HEADER": ("constant", 15, 16, "Rack.Protection.JsonCsrf"),
    }
    assert [n for n in parsed.nodes if n.kind == "module"] == []  # the rest is trivia: comments, `end`
    required = parse_file("csrf.rb", b"require 'rack/protection/base'\n\n" + PROTECTION, "ruby")
    (remainder,) = [n for n in required.nodes if n.kind == "module"]  # it owns the import
    assert "module Protection" in remainder.text and not worth_embedding(remainder)
    # A module with anything else (a constant, a method, a call) is a container, as is an empty one.
    source = b"module Rack\n  module Protection\n    VERSION = '4.0'\n  end\n  module Marker\n  end\nend\n"
    assert table(parse_file("version.rb", source, "ruby")) == {
        "Rack.Protection": ("class", 2, 4, ""),
        "Rack.Protection.VERSION": ("constant", 3, 3, "Rack.Protection"),
        "Rack.Marker": ("class", 5, 6, ""),
    }


def test_a_ruby_constant_of_the_singleton_class_is_a_constant_of_its_class() -> None:
    """`class << self` holds constants as a class body does (`CALLERS_TO_IGNORE`): without a node,
    a search for the name found only the method spelled alike in lower case."""
    source = b"""module Sinatra
  class Base
    class << self
      CALLERS_TO_IGNORE = [ # :nodoc:
        /a/,
      ]
      def callers_to_ignore
        CALLERS_TO_IGNORE
      end
    end
  end
end
"""
    assert table(parse_file("base.rb", source, "ruby")) == {
        "Sinatra.Base": ("class", 2, 11, ""),
        "Sinatra.Base.CALLERS_TO_IGNORE": ("constant", 4, 6, "Sinatra.Base"),
        "Sinatra.Base.callers_to_ignore": ("method", 7, 9, "Sinatra.Base"),
    }


def test_ruby_accessors_aliases_and_defined_methods_are_methods() -> None:
    source = b"""class Request
  class << self
    # The parser every request uses.
    attr_accessor :default_parser
  end

  attr_reader :env, "params"
  attr_writer :body
  alias to url
  alias :host? :host_given?
  alias $stdout_old $stdout
  alias_method :secure?, :ssl?
  define_method(name) { }
  # Whether the request is idempotent.
  define_method(:idempotent?) do
    check_safety(method)
  end
  # Read-only.
  private attr_reader :cache

  # A helper.
  private def helper
    1
  end
end
"""
    parsed = parse_file("request.rb", source, "ruby")
    assert table(parsed) == {
        "Request": ("class", 1, 25, ""),
        "Request.default_parser": ("method", 3, 4, "Request"),
        "Request.env": ("method", 7, 7, "Request"),
        "Request.params": ("method", 7, 7, "Request"),
        "Request.body": ("method", 8, 8, "Request"),
        "Request.to": ("method", 9, 9, "Request"),
        "Request.host?": ("method", 10, 10, "Request"),
        "Request.secure?": ("method", 12, 12, "Request"),
        "Request.idempotent?": ("method", 14, 17, "Request"),
        "Request.cache": ("method", 18, 19, "Request"),
        "Request.helper": ("method", 21, 24, "Request"),
    }
    assert node(parsed, "Request.default_parser").doc == "The parser every request uses."
    assert node(parsed, "Request.params").signature == 'attr_reader :env, "params"'
    assert node(parsed, "Request.to").signature == "alias to url"
    idempotent = node(parsed, "Request.idempotent?")
    assert idempotent.signature == "define_method(:idempotent?)"
    assert idempotent.doc == "Whether the request is idempotent."
    assert node(parsed, "Request.cache").doc == "Read-only."
    assert node(parsed, "Request.helper").doc == "A helper."  # `private def` starts at `private`
    calls = {(r.target, r.src_uid) for r in parsed.refs if r.kind == "calls"}
    assert ("check_safety", idempotent.uid) in calls  # the block's calls are the defined method's
    request = node(parsed, "Request")
    assert "define_method(:idempotent?) ..." in request.text and "check_safety" not in request.text
    # A method that a line only names has no vector; one with a body or a doc has.
    assert not worth_embedding(node(parsed, "Request.env"))
    assert worth_embedding(node(parsed, "Request.default_parser")) and worth_embedding(idempotent)


def test_rust_macro_rules_are_functions() -> None:
    source = b"""/// Builds the owner tests.
#[macro_export]
macro_rules! owner_tests {
    ($name:ident) => { fn $name() {} };
}

mod tests {
    macro_rules! check { () => {} }

    fn run() {
        macro_rules! local { () => {} }
        local!();
        check!();
        println!("{}", 1);
    }
}
"""
    parsed = parse_file("src/lib.rs", source, "rust")
    names = {n.uid: n.qualified_name for n in parsed.nodes}
    calls = {(names[r.src_uid], r.target) for r in parsed.refs if r.kind == "calls"}
    assert calls == {("tests.run", "local"), ("tests.run", "check")}  # a macro call; std's none
    assert table(parsed) == {
        "owner_tests": ("function", 1, 5, ""),
        # called by its bare name, so no `mod` qualifies it, but a test module does: it is test code
        "tests.check": ("function", 8, 8, ""),
        "tests.run": ("function", 10, 15, ""),  # a macro written in a function body is the body's
    }
    owner = node(parsed, "owner_tests")
    assert owner.signature == "macro_rules! owner_tests" and owner.doc == "Builds the owner tests."
    assert "($name:ident)" in owner.text


def test_rust_enum_variants_are_constants_of_their_enum() -> None:
    source = b"""/// How commands run.
pub enum ExecutionMode {
    /// One command per search result.
    OneByOne,
    #[default]
    Batch,
    Limit(usize) = 3,
    Named { size: u8 },
    /// Several lines of fields.
    Wide {
        first: u8,
        second: u8,
    },
}
"""
    parsed = parse_file("src/exec.rs", source, "rust")
    assert table(parsed) == {
        "ExecutionMode": ("enum", 1, 14, ""),
        "ExecutionMode.OneByOne": ("constant", 3, 4, "ExecutionMode"),
        "ExecutionMode.Batch": ("constant", 5, 6, "ExecutionMode"),
        "ExecutionMode.Limit": ("constant", 7, 7, "ExecutionMode"),
        "ExecutionMode.Named": ("constant", 8, 8, "ExecutionMode"),
        "ExecutionMode.Wide": ("constant", 9, 13, "ExecutionMode"),
    }
    assert node(parsed, "ExecutionMode.OneByOne").doc == "One command per search result."
    signatures = {n.name: n.signature for n in parsed.nodes if n.kind == "constant"}
    assert signatures == {
        "OneByOne": "OneByOne",
        "Batch": "Batch",
        "Limit": "Limit(usize) = 3",
        "Named": "Named { size: u8 }",
        "Wide": "Wide",
    }
    mode = node(parsed, "ExecutionMode")
    # The enum shows its variants and their docs, except a long variant's fields.
    assert "/// One command per search result." in mode.text and "Named { size: u8 }," in mode.text
    assert "Wide { ... }" in mode.text and "second" not in mode.text  # multi-line fields elided
    assert "Several lines" in mode.text  # the variant's doc stays in the enum's outline
    # A variant without a doc, on one line under its attributes, has no vector.
    embedded = {n.name for n in parsed.nodes if n.kind == "constant" and worth_embedding(n)}
    assert embedded == {"OneByOne", "Wide"}


def test_a_rust_method_on_a_variant_or_associated_constant_targets_its_types_method() -> None:
    """`ExitCode::GeneralError.exit()` targets `ExitCode.exit` (the variant is no type declaring
    methods), through a tuple variant, a crate path and a chain too; a module's static
    (`config::LIMIT.get()`) and an associated function's result (`Foo::new(1).bar()`) are kept as
    written."""
    code = (
        b"fn f() {\n    ExitCode::GeneralError.exit();\n    Color::Rgb(1, 2).to_hex().len();\n"
        b"    crate::codes::ExitCode::OK.exit();\n    Self::DEFAULT.clone();\n"
        b"    config::LIMIT.get();\n    Foo::new(1).bar();\n}\n"
    )
    parsed = parse_file("src/run.rs", code, "rust")
    assert [r.target for r in parsed.refs if r.kind == "calls"] == [
        "ExitCode.exit",
        "Color.Rgb",
        "Color.to_hex",
        "Color.to_hex().len",  # the result of `to_hex()` (CALLED), no field
        "crate.codes.ExitCode.exit",
        "Self.clone",
        "config.LIMIT.get",
        "Foo.new",
        "Foo.new().bar",
    ]
