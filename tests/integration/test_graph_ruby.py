"""Ruby constants resolved through the lexical nesting, end to end, a class reopened in a test helper
being one class, and `--callers` meaning callers only."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

RUBY = {
    "lib/app/base.rb": (
        "module App\n  class Base\n    def call(env)\n      env\n    end\n\n"  # 3: instance `call`
        "    def self.call(env)\n      new.call(env)\n    end\n  end\nend\n"  # 7: class-level `call`
    ),
    "lib/app/application.rb": (
        "module App\n  class Application < Base\n    def call(env)\n      super\n    end\n  end\nend\n"
    ),
    "lib/app/server.rb": (
        "module App\n  class Server\n    def run(env)\n      Base.call(env)\n    end\n  end\nend\n"
    ),
    "lib/guard/base.rb": (
        "module Rack\n  module Guard\n    class Base\n      def call(env)\n        env\n      end\n    end\n  end\nend\n"
    ),
    "lib/guard/path.rb": (
        "module Rack\n  module Guard\n    class Path < Base\n      def call(env)\n        env\n      end\n"
        "    end\n  end\nend\n"
    ),
    # `.new` on a constant constructs that class: Base is App's here, Path Rack's, `File` Ruby's own.
    "lib/app/runner.rb": (
        "module App\n  class Runner\n    def start\n      Base.new\n      Rack::Guard::Path.new\n"
        "      File.new('x')\n    end\n  end\nend\n"
    ),
    "lib/guard/file.rb": "module Rack\n  module Guard\n    class File\n    end\n  end\nend\n",
    # The class reopened in a test helper: still App::Base, one class.
    "test/test_helper.rb": "module App\n  class Base\n    def helper_zz\n    end\n  end\nend\n",
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("ruby"), RUBY) / ".qry")


def _rows(engine: Engine, symbol: str, edge: str, direction: str, **kw: bool) -> list[tuple[str, str, bool]]:
    res = related(engine, symbol, **kw)
    assert res.node is not None, res
    return [
        (r.symbol, r.path, r.ambiguous) for r in res.related if r.edge == edge and r.direction == direction
    ]


def test_a_bare_constant_is_the_one_the_nesting_finds_first(engine: Engine) -> None:
    """`class Path < Base` in `module Rack; module Guard` extends `Rack::Guard::Base`, not `App::Base`;
    `App::Application < Base` extends `App::Base`, the class itself and not its reopening in a test."""
    assert _rows(engine, "Rack.Guard.Path", "inherits", "out") == [
        ("Rack.Guard.Base", "lib/guard/base.rb", False)
    ]
    assert _rows(engine, "App.Application", "inherits", "out") == [("App.Base", "lib/app/base.rb", False)]
    # So `Path#call` overrides Rack::Guard::Base#call only, and App's `call` only Application's.
    overriders = {s for s, _, _ in _rows(engine, "lib/app/base.rb:3", "inherits", "in")}
    assert overriders == {"App.Application.call"}
    # A call on a constant is the constant's method: App's `Base.call`, never Rack::Guard's.
    callees = {s for s, _, _ in _rows(engine, "App.Server.run", "calls", "out")}
    assert callees == {"App.Base.call"}


def test_callers_lists_callers_only(engine: Engine) -> None:
    """`--callers` (callers only): no subclass, override, container or member rows."""
    every = {(r.edge, r.direction) for r in related(engine, "lib/app/base.rb:3").related}
    assert ("inherits", "in") in every and ("contains", "in") in every
    only = related(engine, "lib/app/base.rb:3", callers=True, callees=False).related
    assert only and {(r.edge, r.direction) for r in only} == {("calls", "in")}
    assert {
        (r.edge, r.direction) for r in related(engine, "App.Application", callees=True, callers=False).related
    } <= {("calls", "out")}


def test_new_on_a_constant_calls_the_class_it_names(engine: Engine) -> None:
    """`Base.new` in `module App` calls App::Base (found by the nesting, as a bare `Base` is),
    `Rack::Guard::Path.new` calls that class, and `File.new` no indexed class: Ruby's own `File`,
    not `Rack::Guard::File`, which no scope around the call holds."""
    callees = {(s, amb) for s, _, amb in _rows(engine, "App.Runner.start", "calls", "out")}
    assert callees == {("App.Base", False), ("Rack.Guard.Path", False)}
    assert _rows(engine, "App.Base", "calls", "in", callers=True, callees=False) == [
        ("App.Runner.start", "lib/app/runner.rb", False)
    ]
    assert _rows(engine, "Rack.Guard.File", "calls", "in", callers=True, callees=False) == []


def test_a_method_defined_on_one_object_is_no_function_others_call(tmp_path: Path) -> None:
    """`def obj.warn(*) end` in a test stubs one object's method: no top-level function `warn` that
    Kernel's `warn` in the library, or a bare `each`, would resolve to. `def self.x` and `def
    Config.y` stay methods of their class."""
    files = {
        "lib/util.rb": (
            "module Util\n  def self.status(s)\n    warn 'old'\n    s\n  end\n\n"
            "  def Util.level\n    1\n  end\nend\n"
        ),
        "test/spec_util.rb": (
            "describe Util do\n  it 'logs' do\n    obj = Object.new\n    def obj.warn(*) end\n"
            "    def (obj).each; end\n    Util.status(1)\n  end\nend\n"
        ),
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert {s for s, _, _ in _rows(engine, "Util", "contains", "out")} == {"Util.status", "Util.level"}
    assert [s for s, _, _ in _rows(engine, "Util.status", "calls", "out")] == []
    assert related(engine, "warn").node is None and related(engine, "each").node is None
