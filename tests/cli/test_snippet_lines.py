"""Snippet lines are the file's lines: `-C N` prints `path:line:text` only where text is the file's
line, a class's outline goes on past its first member, and a snippet line keeps its indentation
whatever redaction did to the file's text before it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.clikit import run_qry_process

NESTED_PY = """class Widget:
    def render(self):
        x = 1
        return x

    def close(self):
        return 2


def outer():
    def inner(a):
        b = a + 1
        return b
    return inner(3)
"""

NESTED_SCALA = """abstract class Setup {
  def mode: Int = 42
  def name: String = "x"
}
object Runner {
  def run(): Unit = {
    def helper(xs: List[String]): String = xs match {
      case a :: Nil => a
      case _        => ""
    }
    println(helper(Nil))
  }
}
"""


def _indexed(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert run_qry_process("index", ".", "--embed", "none", "-q", cwd=tmp_path).code == 0
    return tmp_path


def _context_of_first(root: Path, query: str) -> list[str]:
    """The `path:line:text` lines `-C 10` prints for the first hit of `query`."""
    res = run_qry_process("search", query, "-k", "1", "-C", "10", cwd=root)
    assert res.code == 0, res.describe()
    return res.out.splitlines()[1:]


def _printed_lines_are_the_files(out: str, root: Path) -> list[str]:
    """The `path:line:text` lines of -C output whose text is not line `line` of `path`."""
    wrong = []
    for row in out.splitlines():
        parts = row.split(":", 2)
        if len(parts) < 3 or not parts[1].isdigit() or "\t" in parts[0]:
            continue  # a header (`path:start-end<TAB>...`), `--` or an indented related line
        path, line, text = parts
        if (root / path).read_text().splitlines()[int(line) - 1] != text:
            wrong.append(row)
    return wrong


def test_context_lines_are_the_files_lines_never_an_elided_body(tmp_path: Path) -> None:
    """A nested function's body is elided in its container's text (`...`, blank lines, `= ...`):
    those lines are not the file's and -C leaves them out, as rg -C prints only lines of the file;
    a member whose body is on its last line is restored from its own text instead."""
    root = _indexed(tmp_path, {"a.py": NESTED_PY, "A.scala": NESTED_SCALA})
    for query in ("outer", "run", "Widget", "Setup", "helper"):
        res = run_qry_process("search", query, "-C", "10", cwd=root)
        assert res.code == 0, res.describe()
        assert _printed_lines_are_the_files(res.out, root) == [], res.describe()
    assert _context_of_first(root, "outer") == [
        "a.py:10:def outer():",
        "a.py:11:    def inner(a):",
        "a.py:14:    return inner(3)",
    ]
    # A member on one line is given back whole from its own text, not left out of its class.
    assert _context_of_first(root, "Setup") == [
        "A.scala:1:abstract class Setup {",
        "A.scala:2:  def mode: Int = 42",
        'A.scala:3:  def name: String = "x"',
        "A.scala:4:}",
    ]
    run = run_qry_process("search", "run", "-k", "1", "-C", "10", cwd=root)
    assert "A.scala:6:  def run(): Unit = {" in run.out and "A.scala:11:    println(helper(Nil))" in run.out
    # The one-line output (`path:line: symbol<TAB>text`) shows each hit by a line the file holds.
    for query in ("helper", "Setup", "outer"):
        piped = run_qry_process("search", query, cwd=root)
        for row in piped.out.splitlines():
            path, line, rest = row.split(":", 2)
            assert rest.split("\t", 1)[1] == (root / path).read_text().splitlines()[int(line) - 1], row
    hits = json.loads(run_qry_process("search", "outer", "--json", cwd=root).out)["results"]
    outer_hit = next(h for h in hits if h["symbol"] == "outer")
    assert outer_hit["snippet"]["elided"] == [12, 13], outer_hit


def test_a_class_outline_goes_on_past_a_member_with_a_multi_line_body(tmp_path: Path) -> None:
    root = _indexed(tmp_path, {"a.py": NESTED_PY})
    res = run_qry_process("search", "Widget", "--json", "--snippet-chars", "4000", cwd=root)
    widget = next(h for h in json.loads(res.out)["results"] if h["symbol"] == "Widget")
    snippet = widget["snippet"]
    assert "def close(self):" in snippet["text"] and not snippet["truncated"], snippet
    assert (snippet["start_line"], snippet["end_line"]) == (1, 7), snippet
    assert _context_of_first(root, "Widget") == [
        "a.py:1:class Widget:",
        "a.py:2:    def render(self):",
        "a.py:5:",
        "a.py:6:    def close(self):",
    ]


CLIENT = """class Client:
    def before(self):
        return 1

    def token(self):
        aws = "AKIAIOSFODNN7EXAMPLE"
        secret_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
        return aws, secret_key

    def after(self):
        return 2
"""


def test_a_node_after_a_redacted_secret_keeps_its_first_lines_indentation(tmp_path: Path) -> None:
    """Redaction changes byte lengths, not line numbers: the indentation is read by line."""
    root = _indexed(tmp_path, {"a.py": CLIENT})
    res = run_qry_process("search", "Client.after", "-k", "1", "-C", "1", cwd=root)
    assert "a.py:10:    def after(self):" in res.out.splitlines(), res.describe()
    assert "AKIA" not in res.out and "wJalr" not in res.out


def test_a_line_longer_than_the_snippet_says_it_is_cut(tmp_path: Path) -> None:
    """Plain TEXT is the line as the file has it: one the snippet shows only part of ends with
    CUT_MARK (one-line and -C output), and the JSON snippet lists it in `cut`."""
    from cli.render import CUT_MARK

    long_line = "    message = '" + "lorem ipsum dolor " * 40 + "tailword'"
    body = "def handler(x):\n" + long_line + "\n" + "".join(f"    y{i} = x + {i}\n" for i in range(40))
    root = _indexed(tmp_path, {"m.py": body + "    return message\n"})
    piped = run_qry_process("search", "tailword", cwd=root)
    assert piped.code == 0 and piped.out.startswith("m.py:2: handler\t"), piped.describe()
    text = piped.out.splitlines()[0].split("\t", 1)[1]
    assert text.endswith(CUT_MARK) and long_line.endswith(text.removesuffix(CUT_MARK)), text
    assert len(text) < len(long_line)
    block = run_qry_process("search", "tailword", "-C", "1", cwd=root).out.splitlines()
    assert block[1].startswith("m.py:2:") and block[1].endswith(CUT_MARK), block
    assert block[2] == "m.py:3:    y0 = x + 0", block  # a whole line: no mark
    hit = json.loads(run_qry_process("search", "tailword", "--json", cwd=root).out)["results"][0]
    assert hit["snippet"]["cut"] == [2] and hit["line"] == 2, hit["snippet"]
    whole = run_qry_process("search", "handler", cwd=root).out.splitlines()[0]
    assert whole == "m.py:1: handler\tdef handler(x):", whole


def test_a_crlf_files_lines_are_printed_without_their_carriage_returns(tmp_path: Path) -> None:
    """A CR LF file's lines (MediatR's C# sources) were printed ending in `\\x0d`, the CR left of each
    line ending once the snippet was split at LF: `Mediator.cs:42: MediatR.Mediator.Send<TAB>public
    Task<TResponse> Send<TResponse>(..)\\x0d`. The line ending is no text of the line; a CR inside a
    line is still shown escaped, and the JSON snippet keeps the file's bytes."""
    source = "class Mediator\n{\n    public int Send(int request)\n    {\n        return request; /* a\rb */\n    }\n}\n"
    (tmp_path / "Mediator.cs").write_bytes(source.replace("\n", "\r\n").encode())
    root = _indexed(tmp_path, {})
    piped = run_qry_process("search", "Mediator.Send", "-k", "1", cwd=root)
    assert piped.out.splitlines()[0] == "Mediator.cs:3: Mediator.Send\t    public int Send(int request)", (
        piped.out
    )
    block = run_qry_process("search", "Mediator.Send", "-k", "1", "-C", "5", cwd=root).out.splitlines()
    assert "Mediator.cs:4:    {" in block and "Mediator.cs:6:    }" in block, block
    assert "Mediator.cs:5:        return request; /* a\\x0db */" in block, block
    hit = json.loads(run_qry_process("search", "Mediator.Send", "--json", cwd=root).out)["results"][0]
    assert "\r\n" in hit["snippet"]["text"], hit["snippet"]
