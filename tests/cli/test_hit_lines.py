"""The line a piped hit is shown by (`path:line:`): a definition the query names is shown by its
declaration, whatever line holds more of the name's parts."""

from __future__ import annotations

import json
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


LOGGER_CS = """namespace Demo;

/// <summary>Writes events.</summary>
public class Logger
{
    /// <summary>
    /// Write an information event.
    /// </summary>
    [MessageTemplateFormatMethod("messageTemplate")]
    public void Information(string messageTemplate)
    {
        Write(messageTemplate);
    }

    /// <summary>
    /// Write an information event with an exception.
    /// </summary>
    [MessageTemplateFormatMethod("messageTemplate")]
    public void Information(Exception? exception, string messageTemplate)
    {
        Write(messageTemplate);
    }

    /// <summary>Whether the level is on.</summary>
    [CustomDefaultMethodImplementation]
    public bool IsEnabled(int level) => level > 0;

    public int this[int index] => index;

    void Write(string messageTemplate) { }
}
"""

TESTS_CS = """namespace Demo.Tests;

public class JsonFormatterTests
{
    [Fact]
    public void JsonFormattedEventsIncludeTimestamp()
    {
        new Logger().Information("x");
    }
}
"""

ROUTE_PHP = """<?php

namespace App;

/**
 * A route.
 */
#[Attribute]
final class Route
{
    /**
     * Match a path.
     */
    #[Pure]
    public function matchPath(string $path): bool
    {
        return true;
    }
}
"""


def test_attribute_lines_are_not_the_line_a_definition_is_shown_by(tmp_path: Path) -> None:
    """serilog: `qry search Logger.Information` printed each overload by the same attribute line
    `[MessageTemplateFormatMethod("messageTemplate")]`, so they could not be told apart; a test by
    its `[Fact]`. C# `[...]` and PHP 8 `#[...]` lines are skipped as Java's `@Override` is: in the
    hit's line, its signature and the related rows."""
    (tmp_path / "Logger.cs").write_text(LOGGER_CS)
    (tmp_path / "Tests.cs").write_text(TESTS_CS)
    (tmp_path / "Route.php").write_text(ROUTE_PHP)
    assert run_qry_process("index", ".", "--embed", "none", "-q", cwd=tmp_path).code == 0
    res = run_qry_process("search", "Logger.Information", "-k", "2", cwd=tmp_path)
    assert sorted(line.split("\t", 1)[1].strip() for line in res.out.splitlines()) == [
        "public void Information(Exception? exception, string messageTemplate)",
        "public void Information(string messageTemplate)",
    ], res.describe()
    res = run_qry_process("search", "JsonFormattedEventsIncludeTimestamp", "-k", "1", cwd=tmp_path)
    assert res.out.startswith("Tests.cs:6: "), res.describe()
    res = run_qry_process("search", "IsEnabled", "-k", "1", "--json", cwd=tmp_path)
    (found,) = json.loads(res.out)["results"]
    assert (found["line"], found["signature"]) == (26, "public bool IsEnabled(int level)"), res.describe()
    res = run_qry_process("search", "matchPath", "-k", "1", cwd=tmp_path)
    assert res.out.startswith("Route.php:15: App.Route.matchPath\t    public function matchPath("), (
        res.describe()
    )
    res = run_qry_process("search", "Route", "-k", "1", cwd=tmp_path)
    assert res.out.startswith("Route.php:9: App.Route\tfinal class Route"), res.describe()
    # `related` rows and their candidates point at the declarations too.
    res = run_qry_process("related", "Write", "--json", cwd=tmp_path)
    callers = {(r["symbol"], r["decl_line"]) for r in json.loads(res.out)["related"] if r["edge"] == "calls"}
    assert callers == {("Demo.Logger.Information", 10), ("Demo.Logger.Information", 19)}, res.describe()
    # The two overloads each answer (`overloads`), each located at its declaration.
    res = run_qry_process("related", "Logger.Information", "--json", cwd=tmp_path)
    got = json.loads(res.out)
    assert [got["node"]["decl_line"], *(o["node"]["decl_line"] for o in got["overloads"])] == [10, 19], (
        res.describe()
    )


POOL_PHP = """<?php

namespace GuzzleHttp;

use GuzzleHttp\\Promise\\EachPromise;

/**
 * Sends an iterator of requests concurrently using a capped pool size.
 */
class Pool implements PromisorInterface
{
    /**
     * @param ClientInterface $client   Client used to send the requests.
     * @param array|\\Iterator $requests Requests or functions that return
     *                                  requests to send concurrently.
     * @param array           $config   Associative array of options
     *                                  - concurrency: (int) Maximum number of
     *                                    requests to send concurrently
     */
    public function __construct(ClientInterface $client, $requests, array $config = [])
    {
        $this->each = new EachPromise($requests, $config);
    }

    /**
     * Get promise
     */
    public function promise(): PromiseInterface
    {
        return $this->each->promise();
    }
}
"""


def test_members_and_files_found_by_name_alone_are_shown_by_their_code(tmp_path: Path) -> None:
    """guzzle: `qry search Pool` showed `Pool.php:1 <?php` for the file and each method by the `/**`
    opening its doc comment (the methods hold no word of the query: their path and name matched)."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "Pool.php").write_text(POOL_PHP)
    assert run_qry_process("index", ".", "--embed", "none", "-q", cwd=tmp_path).code == 0
    res = run_qry_process("search", "Pool", "-k", "4", cwd=tmp_path)
    rows = {line.split("\t", 1)[0]: line.split("\t", 1)[1] for line in res.out.splitlines()}
    assert rows == {
        "src/Pool.php:10: GuzzleHttp.Pool": "class Pool implements PromisorInterface",
        "src/Pool.php:3: Pool": "namespace GuzzleHttp;",
        "src/Pool.php:20: GuzzleHttp.Pool.__construct": (
            "    public function __construct(ClientInterface $client, $requests, array $config = [])"
        ),
        "src/Pool.php:28: GuzzleHttp.Pool.promise": "    public function promise(): PromiseInterface",
    }, res.describe()
    # A snippet too narrow for the doc comment above the declaration opens on the declaration.
    res = run_qry_process("search", "Pool", "-k", "4", "--snippet-chars", "120", cwd=tmp_path)
    assert "src/Pool.php:20: GuzzleHttp.Pool.__construct\t" in res.out, res.describe()


SELF_LOG_CS = """namespace Demo.Debugging;

/// <summary>Writes diagnostics about the logging pipeline itself.</summary>
public static class SelfLog
{
    static Action<string>? _output;

    public static void Enable(Action<string> output)
    {
        _output = output;
    }

    class SelfLogFailureListener : ILoggingFailureListener
    {
        public void OnLoggingFailed(object sender, string message)
        {
            var o = _output;
            o?.Invoke($"{sender}: logging failed: {message}");
        }
    }
}
"""


def test_no_two_hits_print_the_same_line_when_a_class_shows_only_its_members(tmp_path: Path) -> None:
    """serilog: the class `SelfLog`, matched in the outline line of its nested class, was printed by
    that line (`SelfLog.cs:80`), which the nested class, a hit above it, was printed by too: its
    snippet had no other line. It is cut again at its own declaration."""
    (tmp_path / "SelfLog.cs").write_text(SELF_LOG_CS)
    assert run_qry_process("index", ".", "--embed", "none", "-q", cwd=tmp_path).code == 0
    res = run_qry_process(
        "search", "where is a failed logging written to the self log", "-k", "5", cwd=tmp_path
    )
    located = {line.split("\t", 1)[0] for line in res.out.splitlines()}
    assert {
        "SelfLog.cs:15: Demo.Debugging.SelfLog.SelfLogFailureListener.OnLoggingFailed",
        "SelfLog.cs:13: Demo.Debugging.SelfLog.SelfLogFailureListener",
        "SelfLog.cs:4: Demo.Debugging.SelfLog",
    } <= located, res.describe()
    where = [line.split(" ", 1)[0] for line in res.out.splitlines()]
    assert len(set(where)) == len(where), res.describe()


def test_the_json_line_is_the_line_a_hit_is_printed_by(tmp_path: Path) -> None:
    """A class matched in its member's lines gives way to the member (a hit too): the line it is
    printed by then is not the one it chose alone, and `--json`'s `line` must say the printed one,
    or an agent reading the JSON opens another line than a person reading the pipe."""
    (tmp_path / "shop.py").write_text(SHOP)
    (tmp_path / "SelfLog.cs").write_text(SELF_LOG_CS)
    assert run_qry_process("index", ".", "--embed", "none", "-q", cwd=tmp_path).code == 0
    for query in ("apply coupon discount", "where is a failed logging written to the self log"):
        piped = run_qry_process("search", query, "-k", "8", cwd=tmp_path)
        as_json = run_qry_process("search", query, "-k", "8", "--json", cwd=tmp_path)
        printed = [line.split(": ", 1)[0] for line in piped.out.splitlines()]
        said = [f"{h['path']}:{h['line']}" for h in json.loads(as_json.out)["results"]]
        assert len(printed) >= 2 and printed == said, piped.describe() + as_json.describe()


def test_a_comment_between_annotations_is_not_the_line_a_method_is_shown_by(tmp_path: Path) -> None:
    """The trial's `A.java` (as gson's `JsonReader.setLenient`, shown by :332 for 335): a `//` line
    between `@Deprecated` and `@SuppressWarnings` ended the annotations, so the hit was printed by
    the comment's line 4 and signed `// why it is deprecated @SuppressWarnings("x") public void ...`."""
    (tmp_path / "A.java").write_text(
        'class A {\n  /** Doc. */\n  @Deprecated\n  // why it is deprecated\n  @SuppressWarnings("x")\n'
        "  public void frobnicate(int n) {}\n}\n"
    )
    assert run_qry_process("index", ".", "--embed", "none", "-q", cwd=tmp_path).code == 0
    res = run_qry_process("search", "frobnicate", "-k", "1", cwd=tmp_path)
    assert res.out.startswith("A.java:6: A.frobnicate\t  public void frobnicate(int n)"), res.describe()
    (found,) = json.loads(run_qry_process("search", "frobnicate", "-k", "1", "--json", cwd=tmp_path).out)[
        "results"
    ]
    assert (found["line"], found["signature"]) == (6, "public void frobnicate(int n)")
