"""Which lines of a definition's text are not the file's (the bodies of what is nested in it), and a
class's snippet as its whole outline, whatever its members' bodies left behind."""

from __future__ import annotations

from indexlib.index.parsing import parse_file
from indexlib.records import Node
from indexlib.retrieval.elision import as_written, outline_lines
from indexlib.retrieval.snippets import make_snippet
from tests.parsekit import node


def _elided(path: str, source: str, language: str, qualified: str) -> tuple[Node, list[int], list[str]]:
    """The node, its elided lines, and its printed lines (restored ones as restored) that are claimed
    to be the file's but are not."""
    parsed = parse_file(path, source.encode(), language)
    n = node(parsed, qualified)
    lines, restored = outline_lines(n, [m for m in parsed.nodes if m.kind != "module"])
    assert not lines & restored.keys()
    file_lines = source.splitlines()
    text_lines = n.text.split("\n")
    wrong = [
        f"{n.start_line + i}: {t!r}"
        for i, t in enumerate(text_lines)
        if n.start_line + i not in lines
        and not file_lines[n.start_line + i - 1].endswith(restored.get(n.start_line + i, as_written(t)))
    ]
    return n, sorted(lines), wrong


SCALA = """object Runner {
  def run(): Unit = {
    def helper(xs: List[String]): String = xs match {
      case a :: Nil => a
      case _        => ""
    }
    println(helper(Nil))
  }
  override def renderingMode: RenderingMode = RenderingMode.TwoColumns
  def one(): Int = { 1 }
}
"""


def test_the_lines_an_elided_body_leaves_are_not_the_files() -> None:
    """scopt: `def helper(...): String = ...` (the file goes on `= xs match {`) and its body's blank
    lines are elided; a head whose braced body goes on past its line is the file's line as `as_written`
    prints it (`def run(): Unit = {`); a definition on one line (`def one(): Int = { 1 }`, an expression
    body) is restored from its own text, so an outline printed as file lines keeps it."""
    _n, lines, wrong = _elided("A.scala", SCALA, "scala", "Runner.run")
    assert lines == [3, 4, 5, 6] and wrong == []
    n, lines, wrong = _elided("A.scala", SCALA, "scala", "Runner")
    assert lines == [3, 4, 5, 6, 7, 8] and wrong == [], lines
    _e, restored = outline_lines(n, [m for m in parse_file("A.scala", SCALA.encode(), "scala").nodes])
    assert restored == {
        9: "  override def renderingMode: RenderingMode = RenderingMode.TwoColumns",
        10: "  def one(): Int = { 1 }",
    }
    _n, lines, wrong = _elided("A.scala", SCALA, "scala", "Runner.run.helper")
    assert lines == [] and wrong == []


PYTHON = """class Widget:
    def render(self):
        x = 1
        return x

    def close(self):
        return 2

    @property
    def size(self): return 3
"""


def test_python_bodies_are_elided_a_decorated_one_liner_is_restored_heads_are_kept() -> None:
    _n, lines, wrong = _elided("a.py", PYTHON, "python", "Widget")
    assert lines == [3, 4, 7] and wrong == [], lines


JAVA = """class Counter {
    private int n;
    public int size() { return n; }
    int twice() { return n * 2; } int thrice() { return n * 3; }
    public void add() {
        n++;
    }
}
"""


def test_a_one_line_member_is_restored_two_on_one_line_are_not() -> None:
    """A Java getter on one line reads as the file's line in its class's outline; a line holding two
    members, or a member whose body goes on, is not restored (its head alone is not the file's line)."""
    _n, lines, wrong = _elided("Counter.java", JAVA, "java", "Counter")
    assert lines == [4, 6, 7] and wrong == [], lines
    parsed = parse_file("Counter.java", JAVA.encode(), "java")
    _e, restored = outline_lines(node(parsed, "Counter"), parsed.nodes)
    assert restored == {3: "    public int size() { return n; }"}


def test_a_class_outline_goes_on_past_a_member_with_a_multi_line_body() -> None:
    """The blank lines `render`'s body left are not where the outline ends: `close` is in it too."""
    parsed = parse_file("a.py", PYTHON.encode(), "python")
    widget = node(parsed, "Widget")
    elided = outline_lines(widget, [m for m in parsed.nodes if m.kind != "module"]).elided
    s = make_snippet(widget.text, widget.start_line, ["Widget"], 4000, elided=elided, declares="Widget")
    assert "def close(self):" in s.text and "def size(self)" in s.text and not s.truncated, s
    assert (s.start_line, s.end_line, s.elided) == (1, 10, [3, 4, 7])


def test_definitions_nested_past_the_bound_count_as_elided_not_as_a_recursion_error() -> None:
    """A generated or hostile file nests a thousand functions: the check stops at MAX_NESTING
    levels (the lines it cannot tell are left out, never printed unchecked) instead of recursing
    into a RecursionError that would fail the whole search."""
    from indexlib.retrieval.elision import MAX_NESTING

    depth = 1500
    source = "function deep() {\n" + "function g() {\n" * depth + "}\n" * (depth + 1)
    n, lines, wrong = _elided("deep.js", source, "javascript", "deep")
    assert wrong == [] and n.start_line == 1
    assert lines and min(lines) >= 2 and len(lines) >= depth - MAX_NESTING


BUILD = """object os extends Module {

  trait JvmModule extends OsModule {
    def moduleDeps = super.moduleDeps

    object test extends ScalaTests {
      def forkEnv = Map(
        "A" -> "a"
      )
    }
  }

  object zip extends JavaModule {
    def sources = Task {

      Seq(1)
    }
  }
}
"""


def test_a_collapsed_class_is_its_members_heads_not_a_blank_line_per_hidden_line() -> None:
    """os-lib's `object os` (build.mill) printed 110 lines, 90 of them blank: each line of a nested
    body, blank ones of the file too, was a line of the snippet's text. The text leaves them out;
    `elided` names them, and `line_of` maps each text line back to the file's."""
    parsed = parse_file("build.mill", BUILD.encode(), "scala")
    obj = node(parsed, "os")
    elided = outline_lines(obj, [m for m in parsed.nodes if m.kind != "module"]).elided
    s = make_snippet(obj.text, obj.start_line, ["os"], 4000, elided=elided, declares="os")
    assert s.text.split("\n") == [
        "object os extends Module {",
        "",
        "  trait JvmModule extends OsModule { ... }",
        "",
        "  object zip extends JavaModule { ... }",
        "}",
    ], s.text
    assert (s.start_line, s.end_line) == (1, 19), s
    assert [s.line_of(i) for i in range(6)] == [1, 2, 3, 12, 13, 19]
    assert s.index_of(13) == 4 and s.index_of(5) is None
    assert s.elided == [*range(4, 12), *range(14, 19)]
