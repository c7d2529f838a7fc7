"""Scala is parsed into definitions and references as the other JVM languages are.

Classes, objects, traits, enums and their cases, `def`s, type members and template `val`s are
definitions with their Scaladoc; calls (`new T(...)` names the type), imports with selectors and
renames, and `extends A with B` are references; Scala resolves Java's classes as its own.
"""

from __future__ import annotations

from pathlib import Path

from indexlib import BuildOptions, build_index, open_engine, related
from indexlib.index.parsing import parse_file
from indexlib.index.parsing.languages import detect_language
from tests.parsekit import node, table

GREETER = b"""package com.example

import scala.concurrent.Future
import akka.actor.{Actor, Props => P}
import scala.util._

/** A greeter. */
class Greeter(name: String) extends Actor with Logging {
  /** Says hi. */
  def greet(times: Int): String = {
    log.info("x"); helper(name) * times
  }
  val count: Int = 0
}
object Greeter { def props(n: String): P = P(new Greeter(n)) }
trait Logging { def log: Logger }
case class Point(x: Int, y: Int)
enum Color { case Red, Green }
type Id = String
"""


def test_scala_files_are_code() -> None:
    assert detect_language("core/src/main/scala/Greeter.scala") == "scala"
    assert detect_language("build.sbt") == "scala" and detect_language("build.mill") == "scala"


def test_scala_definitions() -> None:
    parsed = parse_file("src/main/scala/com/example/Greeter.scala", GREETER, "scala")
    defs = table(parsed)
    greeter, companion = [n for n in parsed.nodes if n.qualified_name == "Greeter" and n.kind == "class"]
    assert greeter.doc == "A greeter." and greeter.start_line == 7
    assert greeter.signature == "class Greeter(name: String) extends Actor with Logging"
    greet = node(parsed, "Greeter.greet")
    assert (greet.kind, greet.doc, greet.signature) == ("method", "Says hi.", "def greet(times: Int): String")
    assert defs["Greeter.count"][0] == "field"
    assert companion.signature == "object Greeter" and companion.start_line == 15
    assert defs["Greeter.props"][0] == "method"  # the companion object's member
    assert defs["Logging"][0] == "trait" and defs["Logging.log"][0] == "method"
    assert defs["Point"][0] == "class" and defs["Id"][0] == "type"
    assert defs["Color"][0] == "enum" and defs["Color.Green"][0::3] == ("constant", "Color")


def test_scala_references() -> None:
    parsed = parse_file("src/main/scala/com/example/Greeter.scala", GREETER, "scala")
    imports = {(r.target, r.alias) for r in parsed.refs if r.kind == "imports"}
    assert imports == {
        ("scala.concurrent.Future", "Future"),
        ("akka.actor.Actor", "Actor"),
        ("akka.actor.Props", "P"),
        ("scala.util", "*"),
    }
    names = {n.uid: n.qualified_name for n in parsed.nodes}
    calls = {(names[r.src_uid], r.target) for r in parsed.refs if r.kind == "calls"}
    assert {("Greeter.greet", "log.info"), ("Greeter.greet", "helper"), ("Greeter.props", "Greeter")} <= calls
    bases = {(r.kind, r.target) for r in parsed.refs if r.kind in ("inherits", "implements")}
    assert bases == {("inherits", "Actor"), ("implements", "Logging")}


def test_related_names_the_class_not_its_companion_object(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src/Path.scala").write_text(
        "object Path {\n  def apply(s: String): Path = new Path(s)\n}\n\n"
        "/** A path. */\nclass Path(val s: String) {\n  def last: String = s\n}\n"
    )
    build_index(tmp_path, BuildOptions(embed="none"))
    res = related(open_engine(tmp_path / ".qry"), "Path", callers=True, callees=True, depth=1)
    assert res.node is not None and (res.node.start_line, res.node.kind) == (5, "class")


# `def a =` with its body on the next line: the grammar's `indented_block` runs on to `def b`, holding
# the blank line and `b`'s doc comment; Scala 3's indented template body does the same.
INDENTED_BODIES = b"""object P {
  def a(x: Int): Int =
    x + 1

  /** Doc of b. */
  def b(y: Int): Int = y

  def c(z: Int): Int =
    z * 2
    // c's own note, in its body
  // Doc of d.
  def d: Int = 3

  class Inner:
    def m = 1

  /** Doc of Other. */
  class Other
}
"""


def test_an_indented_body_ends_before_the_next_definitions_doc_comment() -> None:
    parsed = parse_file("P.scala", INDENTED_BODIES, "scala")
    defs = table(parsed)
    assert defs["P.a"][1:3] == (2, 3) and defs["P.b"][1:3] == (5, 6)
    assert (
        node(parsed, "P.b").doc == "Doc of b."
        and node(parsed, "P.a").text == "def a(x: Int): Int =\n    x + 1"
    )
    assert defs["P.c"][1:3] == (8, 10) and node(parsed, "P.c").doc == ""
    assert defs["P.d"][1:3] == (11, 12) and node(parsed, "P.d").doc == "Doc of d."
    assert defs["P.Inner"][1:3] == (14, 15) and defs["P.Other"][1:3] == (17, 18)
    assert node(parsed, "P.Other").doc == "Doc of Other."
    # The object's outline elides a body only up to its member's end: `b`'s doc comment stays.
    assert "  /** Doc of b. */\n  def b(y: Int): Int = ...\n" in node(parsed, "P").text


def test_a_parameterless_def_read_without_parentheses_is_called(tmp_path: Path) -> None:
    """Scala calls a parameterless `def` as a member access (`Lib.size`, `Lib.builder[String]`):
    that is a call edge, while reading a `val` (`Lib.limit`) or naming an object (`Lib.Inner`) is not."""
    (tmp_path / "Lib.scala").write_text(
        "object Lib {\n  def builder[C]: Int = 1\n  def size: Int = 2\n  def run(): Int = 3\n"
        "  val limit: Int = 4\n  object Inner { def x: Int = 5 }\n}\n"
        "object Use {\n  def main(): Int = Lib.builder[String] + Lib.size + Lib.run() + Lib.limit\n"
        "  def other(): Int = Lib.Inner.x + Lib.builder[Int].hashCode()\n}\n"
    )
    build_index(tmp_path, BuildOptions(embed="none"))
    engine = open_engine(tmp_path / ".qry")
    callees = related(engine, "Use.main", callers=False, callees=True, depth=1)
    assert {r.symbol for r in callees.related} == {"Lib.builder", "Lib.size", "Lib.run"}
    callers = related(engine, "Lib.builder", callers=True, callees=False, depth=1)
    assert [(r.symbol, r.line) for r in callers.related] == [("Use.main", 9), ("Use.other", 10)]
    other = related(engine, "Use.other", callers=False, callees=True, depth=1)
    assert {r.symbol for r in other.related} == {"Lib.Inner.x", "Lib.builder"}


def test_a_member_access_is_one_call_reference() -> None:
    """The callee of a call (`Lib.run()`) and the member type arguments apply to are read once, and
    an assignment's left side (a setter) is no call."""
    parsed = parse_file(
        "Use.scala", b"object Use { def m(): Unit = { Lib.run(); Lib.builder[Int]; x.y = 2 } }\n", "scala"
    )
    calls = sorted((r.target, r.alias) for r in parsed.refs if r.kind == "calls")
    assert calls == [("Lib.builder", "<access>"), ("Lib.run", "")]


EXTENSIONS_SCALA = b"""package fastparse

extension [T](inline parse0: => P[T])
  inline def repX[V](min: Int): P[V] = ???
  def map[V](f: T => V): P[V] = ???
end extension

extension (c: collection.Seq[Int]) def total: Int = 0
extension [T <: Node, U <: T](n: U) def parent: Node = ???
extension [T](t: T) def tapped: T = t

object Syntax {
  extension (s: String) def shout: String = s
}

def top: Int = 0
"""


def test_a_scala_3_extension_method_is_a_method_of_the_type_it_extends() -> None:
    """com-lihaoyi/fastparse's Scala 3 `extension [T](inline parse0: => P[T])` block holds `repX`,
    `map` and the parser operators: each was a top-level function named alone. The extended type
    (by-name, generic and qualified as written; a type parameter's upper bound) now qualifies them,
    as a Kotlin extension's receiver does; an extension inside an object stays the object's."""
    t = table(parse_file("package.scala", EXTENSIONS_SCALA, "scala"))
    for name in ("P.repX", "P.map", "Seq.total", "Node.parent", "T.tapped", "Syntax.shout"):
        assert t[name][0] == "method", name
    assert "repX" not in t and "map" not in t
    assert t["top"][0] == "function"


def test_a_scala_access_on_a_literal_or_bracketed_value_names_no_value() -> None:
    """fastparse's tests write `"a".rep.! ~ "b".!` and `(d ~ "t").repX`: the access read the
    literal's characters as a name (`"b".!` -> `b`, linked to a test's `def b`) and dropped a
    bracketed receiver (`rep`, a bare name); a value no name holds is `<expr>`, as a call's is, and
    `new Parser(1).factor` is `Parser`'s."""
    source = b'object T {\n  def f = P( "b".rep ~ (x ~ y).size ~ new Parser(1).factor )\n}\n'
    targets = {r.target for r in parse_file("T.scala", source, "scala").refs if r.kind == "calls"}
    assert {"<expr>.rep", "<expr>.size", "Parser.factor"} <= targets
    assert not {"b.rep", "rep", "size", "factor"} & targets
