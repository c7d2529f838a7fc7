"""Containers and members found on real repositories: Ruby modules and constants, C# properties,
events and constants, PHP class constants, Go struct fields (sources cut from rack, serilog, Slim
and cobra).

What other languages index decides what these are: a container that holds methods is a `class`
(Ruby `module`; namespaces that only qualify names, C#/PHP/TS `namespace` and Rust `mod`, stay
scopes); constants where other languages have them (module level, and class level as Rust's
associated consts) are `constant`s; a C# property or event is code run on access (accessors), so
it is a `method`. A Go struct's fields are its API (a Go type is configured by setting them, and
they carry doc comments as declarations do), so they are `field` members of the struct (a C#
`const` field is a `constant` of its class); other fields are not definitions (Java fields, Python class
attributes, TS class properties, PHP properties).
"""

from __future__ import annotations

from indexlib.index.embedtext import worth_embedding
from indexlib.index.parsing import parse_file
from tests.parsekit import node, table

RACK_UTILS = b"""require_relative 'constants'

module Rack
  # Rack::Utils contains a grab-bag of useful methods for writing web
  # applications adopted from all kinds of Ruby libraries.

  module Utils
    DEFAULT_SEP = QueryParser::DEFAULT_SEP

    class << self
      attr_accessor :default_query_parser
    end

    module_function

    def parse_query(qs, d = nil, &unescaper)
      Rack::Utils.default_query_parser.parse_query(qs, d, &unescaper)
    end

    def self.escape_path(s)
      ::URI::DEFAULT_PARSER.escape s
    end

    # Every standard HTTP code mapped to the appropriate message.
    HTTP_STATUS_CODES = {
      100 => 'Continue',
      200 => 'OK',
    }
  end
end
"""


def test_ruby_modules_are_containers_of_methods_and_constants() -> None:
    parsed = parse_file("lib/rack/utils.rb", RACK_UTILS, "ruby")
    assert parsed.skip is None
    assert table(parsed) == {
        # `module Rack` holds nothing but `module Utils` here: a namespace, as in test_parsing_rust_ruby.py.
        "Rack.Utils": ("class", 7, 29, ""),
        "Rack.Utils.DEFAULT_SEP": ("constant", 8, 8, "Rack.Utils"),
        "Rack.Utils.default_query_parser": ("method", 11, 11, "Rack.Utils"),  # `class << self` accessor
        "Rack.Utils.parse_query": ("method", 16, 18, "Rack.Utils"),
        "Rack.Utils.escape_path": ("method", 20, 22, "Rack.Utils"),
        "Rack.Utils.HTTP_STATUS_CODES": ("constant", 24, 28, "Rack.Utils"),
    }
    utils = node(parsed, "Rack.Utils")
    assert utils.signature == "module Utils"
    assert "# Rack::Utils contains a grab-bag" in node(parsed, "utils").text  # a blank line above Utils
    codes = node(parsed, "Rack.Utils.HTTP_STATUS_CODES")
    assert codes.doc == "Every standard HTTP code mapped to the appropriate message."
    assert "200 => 'OK'" in codes.text
    # The container shows the constant's first line; its multi-line value is the constant's node.
    assert "HTTP_STATUS_CODES = { ... }" in utils.text and "'OK'" not in utils.text
    assert "DEFAULT_SEP = QueryParser::DEFAULT_SEP" in utils.text  # a one-line value stays in view


def test_ruby_top_level_constants_and_functions() -> None:
    source = b"""VERSION = "3.1.0"

def top_level(env) = env

class Request
  # The default ports.
  DEFAULT_PORTS = { 'http' => 80 }.freeze
  def initialize(env)
    @env = env
  end
end
"""
    parsed = parse_file("lib/rack/version.rb", source, "ruby")
    assert table(parsed) == {
        "VERSION": ("constant", 1, 1, ""),
        "top_level": ("function", 3, 3, ""),
        "Request": ("class", 5, 11, ""),
        "Request.DEFAULT_PORTS": ("constant", 6, 7, "Request"),
        "Request.initialize": ("method", 8, 10, "Request"),
    }
    assert node(parsed, "VERSION").signature == 'VERSION = "3.1.0"'


def test_ruby_signature_stops_before_comments() -> None:
    source = b"""class Request # :nodoc:
  # Constants first.
  def params(a,
             b)
    # the body's own comment
    a
  end
end
"""
    parsed = parse_file("request.rb", source, "ruby")
    assert node(parsed, "Request").signature == "class Request"
    assert node(parsed, "Request.params").signature == "def params(a, b)"


def test_a_class_holding_big_modules_is_one_node() -> None:
    """rack's request.rb: `class Request` holds `module Env` and `module Helpers` with a hundred
    documented methods. Those modules are nodes now, elided in the class's text, so the class is one
    node with its whole span (it was windowed into three `Rack.Request` parts, 16-375, 376-799 and
    800-891, whose first alone `qry related` reported)."""
    methods = b"".join(
        b"      # Doc of m%d.\n      # More.\n      def m%d\n        1\n      end\n" % (i, i)
        for i in range(80)
    )
    source = (
        b"module Rack\n  class Request\n    module Helpers\n"
        + methods
        + b"    end\n    include Helpers\n  end\nend\n"
    )
    parsed = parse_file("lib/rack/request.rb", source, "ruby", window_lines=100)
    request = [n for n in parsed.nodes if n.qualified_name == "Rack.Request"]
    assert [(n.part, n.start_line, n.end_line) for n in request] == [(0, 2, 3 + 80 * 5 + 3)]
    helpers = [n for n in parsed.nodes if n.qualified_name == "Rack.Request.Helpers"]
    assert (
        helpers[0].parent_uid == request[0].uid and len(helpers) > 1
    )  # by design: a big container is windowed
    assert node(parsed, "Rack.Request.Helpers.m7").kind == "method"


SERILOG_SWITCH = b"""namespace Serilog.Core;

/// <summary>
/// Dynamically controls logging level.
/// </summary>
public class LoggingLevelSwitch
{
    volatile LogEventLevel _minimumLevel;
    internal const int MaxDepth = 10, MinDepth = 1;

    /// <summary>
    /// The event arises when <see cref="MinimumLevel"/> changed.
    /// </summary>
    public event EventHandler<LoggingLevelSwitchChangedEventArgs>? MinimumLevelChanged;

    /// <summary>
    /// The current minimum level, below which no events
    /// should be generated.
    /// </summary>
    public LogEventLevel MinimumLevel
    {
        get { return _minimumLevel; }
        set
        {
            _minimumLevel = value;
            MinimumLevelChanged?.Invoke(this, new LoggingLevelSwitchChangedEventArgs(value));
        }
    }

    /// <summary>
    /// The time at which the event occurred.
    /// </summary>
    public DateTimeOffset Timestamp { get; }

    public static ILogger Logger => _logger;

    public event EventHandler Custom { add { } remove { } }
}

public interface ILogEventSource
{
    LogEventLevel Level { get; }
    event EventHandler Changed;
}
"""


def test_csharp_properties_and_events_are_methods_and_const_fields_constants() -> None:
    parsed = parse_file("src/Serilog/Core/LoggingLevelSwitch.cs", SERILOG_SWITCH, "csharp")
    assert parsed.skip is None
    prefix = "Serilog.Core.LoggingLevelSwitch"
    assert table(parsed) == {
        prefix: ("class", 3, 38, ""),
        f"{prefix}.MaxDepth": ("constant", 9, 9, prefix),
        f"{prefix}.MinDepth": ("constant", 9, 9, prefix),
        f"{prefix}.MinimumLevelChanged": ("method", 11, 14, prefix),
        f"{prefix}.MinimumLevel": ("method", 16, 28, prefix),
        f"{prefix}.Timestamp": ("method", 30, 33, prefix),
        f"{prefix}.Logger": ("method", 35, 35, prefix),
        f"{prefix}.Custom": ("method", 37, 37, prefix),
        "Serilog.Core.ILogEventSource": ("interface", 40, 44, ""),
        "Serilog.Core.ILogEventSource.Level": ("method", 42, 42, "Serilog.Core.ILogEventSource"),
        "Serilog.Core.ILogEventSource.Changed": ("method", 43, 43, "Serilog.Core.ILogEventSource"),
    }  # `_minimumLevel` is a field, not a definition
    signatures = {n.name: n.signature for n in parsed.nodes}
    assert signatures["MaxDepth"] == "internal const int MaxDepth = 10"
    assert signatures["MinDepth"] == "internal const int MinDepth = 1"
    assert signatures["MinimumLevelChanged"] == (
        "public event EventHandler<LoggingLevelSwitchChangedEventArgs>? MinimumLevelChanged"
    )
    assert signatures["MinimumLevel"] == "public LogEventLevel MinimumLevel"
    assert signatures["Timestamp"] == "public DateTimeOffset Timestamp"
    assert signatures["Logger"] == "public static ILogger Logger"
    level = node(parsed, f"{prefix}.MinimumLevel")
    assert level.doc == "The current minimum level, below which no events\nshould be generated."
    container = node(parsed, prefix).text
    assert "public LogEventLevel MinimumLevel\n    { ... }" in container  # accessors with code are elided
    assert "public DateTimeOffset Timestamp { get; }" in container  # an auto-property is its signature
    calls = {(r.target, r.src_uid) for r in parsed.refs if r.kind == "calls"}
    assert ("MinimumLevelChanged.Invoke", level.uid) in calls  # a setter's calls are the property's


SLIM_APP = b"""<?php

declare(strict_types=1);

namespace Slim\\Routing;

const DEFAULT_PATTERN = '/';

class RoutingResults
{
    public const NOT_FOUND = 0;
    public const FOUND = 1;
    final public const A = 1, B = 2;

    /**
     * Current version
     *
     * @var string
     */
    public const VERSION = '4.12.0';

    protected DispatcherInterface $dispatcher;

    public function getRouteStatus(): int
    {
        return $this->routeStatus;
    }
}
"""


def test_php_class_and_namespace_constants() -> None:
    parsed = parse_file("Slim/Routing/RoutingResults.php", SLIM_APP, "php")
    prefix = "Slim.Routing.RoutingResults"
    assert table(parsed) == {
        "Slim.Routing.DEFAULT_PATTERN": ("constant", 7, 7, ""),
        prefix: ("class", 9, 28, ""),
        f"{prefix}.NOT_FOUND": ("constant", 11, 11, prefix),
        f"{prefix}.FOUND": ("constant", 12, 12, prefix),
        f"{prefix}.A": ("constant", 13, 13, prefix),
        f"{prefix}.B": ("constant", 13, 13, prefix),
        f"{prefix}.VERSION": ("constant", 15, 20, prefix),
        f"{prefix}.getRouteStatus": ("method", 24, 27, prefix),
    }  # `$dispatcher` is a property (a field), not a definition
    version = node(parsed, f"{prefix}.VERSION")
    assert version.signature == "public const VERSION = '4.12.0'"
    assert version.doc.startswith("Current version")
    assert node(parsed, f"{prefix}.FOUND").signature == "public const FOUND = 1"
    assert node(parsed, f"{prefix}.B").signature == "final public const B = 2"


COBRA_COMMAND = b"""package cobra

// Command is just that, a command for your application.
type Command struct {
	// Use is the one-line usage message.
	Use string

	// ValidArgsFunction is an optional function that provides valid non-flag arguments
	// for shell completion.
	ValidArgsFunction CompletionFunc

	// RunE: Run but returns an error.
	RunE func(cmd *Command, args []string) error

	TraverseChildren bool // look for flags on all parents
	minWidth, maxWidth int
	*flagSet
	ctx struct {
		deadline int
	}
}

func (c *Command) Runnable() bool { return c.RunE != nil }

func table() {
	tests := []struct{ name string }{}
	_ = tests
}
"""


def test_go_struct_fields_are_members_of_their_struct() -> None:
    parsed = parse_file("command.go", COBRA_COMMAND, "go")
    assert table(parsed) == {
        "Command": ("struct", 3, 21, ""),
        "Command.Use": ("field", 5, 6, "Command"),
        "Command.ValidArgsFunction": ("field", 8, 10, "Command"),
        "Command.RunE": ("field", 12, 13, "Command"),
        "Command.TraverseChildren": ("field", 15, 15, "Command"),
        "Command.minWidth": ("field", 16, 16, "Command"),  # one node per name
        "Command.maxWidth": ("field", 16, 16, "Command"),
        # The embedded `*flagSet` is an `inherits` reference, not a field of a name.
        "Command.ctx": ("field", 18, 20, "Command"),  # its own fields are its text
        "Command.Runnable": ("method", 23, 23, "Command"),
        "table": ("function", 25, 28, ""),  # an anonymous struct's fields are no definitions
    }
    field = node(parsed, "Command.ValidArgsFunction")
    assert field.signature == "ValidArgsFunction CompletionFunc"
    assert field.doc == (
        "ValidArgsFunction is an optional function that provides valid non-flag arguments\n"
        "for shell completion."
    )
    written = COBRA_COMMAND.decode()
    struct = written[written.index("// Command") : written.index("\n}\n") + 2]
    assert node(parsed, "Command").text == struct  # the struct's text is whole: no field is elided
    # A field documented is found by meaning too, whether its comment is above it or after it on
    # its line (as gofmt aligns them); a bare one-line field by its name alone.
    traverse = node(parsed, "Command.TraverseChildren")
    assert traverse.doc == "look for flags on all parents"
    assert traverse.text == "TraverseChildren bool // look for flags on all parents"
    assert worth_embedding(field) and worth_embedding(traverse)
    assert not worth_embedding(node(parsed, "Command.minWidth"))
