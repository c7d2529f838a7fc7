"""The line a piped hit is shown by (`path:line:`): a definition the query names is shown by its
declaration, whatever line holds more of the name's parts."""

from __future__ import annotations

from pathlib import Path

from tests.cli.clikit import run_qry_process

ROUTE_GROUP = """<?php

namespace Slim\\Routing;

use Slim\\Interfaces\\RouteGroupInterface;

/**
 * A group of routes sharing a pattern prefix.
 */
class RouteGroup implements RouteGroupInterface
{
    protected string $pattern;

    public function collectRoutes(): RouteGroupInterface
    {
        return $this;
    }
}
"""

CONTEXT_H = """/* Context for a connection to Redis */
typedef struct redisContext {
    int err; /* Error flags, 0 when there is no error */
    char errstr[128]; /* String representation of error when applicable */
} redisContext;
"""


def test_a_named_definition_is_shown_by_its_declaration(tmp_path: Path) -> None:
    (tmp_path / "Slim" / "Routing").mkdir(parents=True)
    (tmp_path / "Slim" / "Routing" / "RouteGroup.php").write_text(ROUTE_GROUP)
    (tmp_path / "hiredis.h").write_text(CONTEXT_H)
    assert run_qry_process("index", ".", "--embed", "none", "-q", cwd=tmp_path).code == 0
    group = run_qry_process("search", "RouteGroup", "-k", "1", cwd=tmp_path)
    assert group.out.startswith("Slim/Routing/RouteGroup.php:10: "), group.describe()
    # A PHP name qualified by backslashes is an identifier, not a regular expression.
    qualified = run_qry_process("search", "Slim\\Routing\\RouteGroup", "-k", "1", cwd=tmp_path)
    assert qualified.out.startswith("Slim/Routing/RouteGroup.php:10: "), qualified.describe()
    assert "regular expression" not in qualified.err, qualified.describe()
    struct = run_qry_process("search", "redisContext", "-k", "1", cwd=tmp_path)
    assert struct.out.startswith("hiredis.h:2: "), struct.describe()


SHOP = '''class Basket:
    """A shopping basket."""

    def __init__(self):
        self.items = []

    def apply_coupon_discount(self, coupon):
        """Apply a coupon discount to every item in the basket."""
        for item in self.items:
            item.price -= coupon.amount
'''


def test_a_class_matched_in_its_member_is_not_shown_by_the_member_line(tmp_path: Path) -> None:
    (tmp_path / "shop.py").write_text(SHOP)
    assert run_qry_process("index", ".", "--embed", "none", "-q", cwd=tmp_path).code == 0
    res = run_qry_process("search", "apply coupon discount", "-k", "5", cwd=tmp_path)
    located = [line.split(" ", 1)[0] for line in res.out.splitlines()]
    assert len(located) >= 2 and len(set(located)) == len(located), res.describe()


HTTP_ERROR = (
    "import {KyError} from './KyError.js';\n\n/**\nError thrown when the response has a non-2xx status.\n\n"
    "In that case, the error will be an instance of `NetworkError` instead of `HTTPError`, and "
    + "the body is read " * 40
    + "\n*/\nexport class HTTPError<T = unknown> extends KyError {\n\tresponse: T;\n}\n"
)


def test_a_definition_is_shown_by_its_signature_not_by_prose_naming_it(tmp_path: Path) -> None:
    """A doc comment whose lines carry no `*` names the class in prose first; the row is the class."""
    (tmp_path / "HTTPError.ts").write_text(HTTP_ERROR)
    assert run_qry_process("index", ".", "--embed", "none", "-q", cwd=tmp_path).code == 0
    res = run_qry_process("search", "HTTPError", "-k", "1", cwd=tmp_path)
    assert res.out.startswith("HTTPError.ts:8: HTTPError\texport class HTTPError"), res.describe()


def test_an_elided_body_is_shown_as_the_line_that_opens_it() -> None:
    from cli.render import as_written

    assert as_written("  public JsonToken peek() throws IOException { ... }") == (
        "  public JsonToken peek() throws IOException {"
    )
    assert as_written("  return { ... spread };") == "  return { ... spread };"


WRITER = """public class JsonWriter {
  private String formattingStyle;

  /**
   * Returns the pretty printing style used by this writer.
   *
   * @return the style; not null
   */
  public final String getFormattingStyle() {
    return formattingStyle;
  }
}
"""


def test_a_quoted_sentence_is_shown_by_the_line_holding_it(tmp_path: Path) -> None:
    (tmp_path / "JsonWriter.java").write_text(WRITER)
    assert run_qry_process("index", ".", "--embed", "none", "-q", cwd=tmp_path).code == 0
    res = run_qry_process(
        "search", '"Returns the pretty printing style used by this writer"', "-k", "1", cwd=tmp_path
    )
    assert res.out.startswith("JsonWriter.java:5: "), res.describe()


DIRECTIVES = """package cobra

const (
	// ShellCompDirectiveError indicates an error occurred and completions should be ignored.
	ShellCompDirectiveError ShellCompDirective = 1 << iota

	// ShellCompDirectiveNoFileComp indicates that the shell should not provide
	// file completion even when no completion is provided.
	ShellCompDirectiveNoFileComp
)
"""


def test_a_constant_of_a_block_is_shown_by_its_name_not_its_doc_comment(tmp_path: Path) -> None:
    """Its signature, `const ShellCompDirectiveNoFileComp`, is no line of the block: the row is the
    line declaring the name, not the doc comment above it that names it too."""
    (tmp_path / "completions.go").write_text(DIRECTIVES)
    assert run_qry_process("index", ".", "--embed", "none", "-q", cwd=tmp_path).code == 0
    res = run_qry_process("search", "ShellCompDirectiveNoFileComp", "-k", "1", cwd=tmp_path)
    assert res.out.startswith("completions.go:9: ShellCompDirectiveNoFileComp\t"), res.describe()
