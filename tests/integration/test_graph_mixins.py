"""A PHP trait a class uses and a Ruby module a class or module mixes in are bases of it, end to
end: `$this->getFormatter()` is the used trait's method (not every `getFormatter` of the
repository), the trait's name resolves as PHP resolves a class name, an included module is found
through the lexical nesting from inside the class, and `qry related` lists both as bases."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from indexlib.graph.view import SnapshotGraph
from tests.repokit import make_repo

PHP = {
    "src/Handler/FormattableTrait.php": (
        "<?php\n\nnamespace App\\Handler;\n\ntrait FormattableTrait\n{\n"
        "    public function getFormatter(): int\n    {\n        return 1;\n    }\n}\n"
    ),
    # The same trait name in another namespace: the class's own namespace decides.
    "src/Other/FormattableTrait.php": (
        "<?php\n\nnamespace App\\Other;\n\ntrait FormattableTrait\n{\n"
        "    public function getFormatter(): int\n    {\n        return 2;\n    }\n}\n"
    ),
    "src/Support/LogsTrait.php": (
        "<?php\n\nnamespace App\\Support;\n\ntrait LogsTrait\n{\n"
        "    public function log(): void\n    {\n    }\n}\n"
    ),
    "src/Support/Counts.php": (
        "<?php\n\nnamespace App\\Support;\n\ntrait Counts\n{\n"
        "    public function count(): int\n    {\n        return 0;\n    }\n}\n"
    ),
    # Decoys: other classes' same-named methods, which a name-only link would also reach.
    "src/Handler/FilterHandler.php": (
        "<?php\n\nnamespace App\\Handler;\n\nclass FilterHandler\n{\n"
        "    public function getFormatter(): int\n    {\n        return 3;\n    }\n\n"
        "    public function log(): void\n    {\n    }\n\n"
        "    public function count(): int\n    {\n        return 3;\n    }\n}\n"
    ),
    "src/Handler/Processing.php": (
        "<?php\n\nnamespace App\\Handler;\n\n"
        "use App\\Support\\LogsTrait;\n"  # imports, not trait uses
        "use App\\Other\\FormattableTrait as OtherTrait;\n"
        "class Processing\n{\n"
        "    use FormattableTrait, \\App\\Support\\Counts;\n"  # 9: the own namespace's; fully qualified
        "    use LogsTrait {\n        log as protected;\n    }\n\n"  # 10: through the import
        "    public function handle(): void\n    {\n"
        "        $this->getFormatter();\n"  # 16
        "        $this->log();\n"  # 17
        "        $this->count();\n"  # 18
        "    }\n}\n"
    ),
    # A subclass gets the traits its base uses: two levels up, through `$this->` and `parent::`.
    "src/Handler/Stream.php": (
        "<?php\n\nnamespace App\\Handler;\n\nclass Stream extends Processing\n{\n"
        "    public function write(): void\n    {\n"
        "        $this->getFormatter();\n"  # 9
        "        parent::log();\n"  # 10
        "    }\n}\n"
    ),
}

RUBY = {
    "lib/rack/request.rb": (
        "module Rack\n  class Request\n"
        "    include Env, Helpers\n"  # 3: Rack::Request::Helpers, nested in the class
        "    extend Rack::Mime\n"  # 4: a constant path
        "    prepend Tracing\n\n"  # 5: Rack::Tracing, around the class
        "    def run\n      self.params\n      fullpath()\n    end\n\n"  # 8, 9
        "    def self.lookup(ext)\n      mime_type(ext)\n    end\n\n"  # 13: `extend`ed, a class method
        "    def ignored\n      include Nope\n    end\n\n"
        "    module Env\n      def env_of\n      end\n    end\n\n"
        "    module Helpers\n      def params\n      end\n\n      def fullpath\n      end\n    end\n"
        "  end\nend\n"
    ),
    "lib/rack/mime.rb": "module Rack\n  module Mime\n    def mime_type\n    end\n  end\nend\n",
    "lib/rack/tracing.rb": "module Rack\n  module Tracing\n    def trace\n    end\n  end\nend\n",
    # Decoys: a top-level `Helpers` and other same-named methods.
    "lib/helpers.rb": "module Helpers\n  def params\n  end\nend\n",
    "lib/other.rb": (
        "class Other\n  def params\n  end\n\n  def fullpath\n  end\n\n  def mime_type\n  end\nend\n"
    ),
    "lib/nope.rb": "module Nope\n  def nope\n  end\nend\n",
    # `super` in a method calls the same-named method of the nearest ancestor: here a mixed-in module's.
    "lib/rack/lint.rb": (
        "module Rack\n  class Lint\n    include Request::Helpers\n\n"
        "    def params\n      @params ||= super\n    end\n\n"  # 6: bare
        "    def fullpath(x)\n      super(x)\n    end\n\n"  # 10: with arguments
        "    def other\n      super\n    end\n  end\nend\n"  # 14: no ancestor declares `other`
    ),
}


@pytest.fixture(scope="module")
def php(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("php"), PHP) / ".qry")


@pytest.fixture(scope="module")
def ruby(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("ruby"), RUBY) / ".qry")


def _calls(engine: Engine, qualified: str) -> list[tuple[str, int, bool]]:
    """(callee's qualified name, line, ambiguous) of every outgoing call edge of `qualified`."""
    graph = SnapshotGraph(engine.snapshot())
    (uid,) = graph.find(kind=None, props={"qualified_name": qualified}, limit=2)
    out = []
    for e in graph.edges(uid, ("calls",), "out"):
        callee = graph.node(e.dst)
        assert callee is not None
        out.append((callee.qualified_name, e.line, e.ambiguous))
    return sorted(out)


def _bases(engine: Engine, symbol: str) -> list[tuple[str, bool]]:
    res = related(engine, symbol)
    assert res.node is not None, res
    return sorted(
        (r.symbol, r.ambiguous) for r in res.related if r.edge == "inherits" and r.direction == "out"
    )


def test_a_method_from_a_used_trait_is_the_traits(php: Engine) -> None:
    """`$this->getFormatter()` is FormattableTrait's (the own namespace's, not App\\Other's),
    `$this->log()` LogsTrait's through the file's import, `$this->count()` the fully qualified
    Counts'; none is FilterHandler's, and none is ambiguous."""
    assert _calls(php, "App.Handler.Processing.handle") == [
        ("App.Handler.FormattableTrait.getFormatter", 16, False),
        ("App.Support.Counts.count", 18, False),
        ("App.Support.LogsTrait.log", 17, False),
    ]


def test_a_subclass_gets_the_methods_of_the_traits_its_base_uses(php: Engine) -> None:
    """`$this->getFormatter()` and `parent::log()` in a subclass of Processing are the traits' its
    base uses, the nearest ancestors declaring them, not FilterHandler's."""
    assert _calls(php, "App.Handler.Stream.write") == [
        ("App.Handler.FormattableTrait.getFormatter", 9, False),
        ("App.Support.LogsTrait.log", 10, False),
    ]


def test_related_lists_the_used_traits_as_bases(php: Engine) -> None:
    assert _bases(php, "App.Handler.Processing") == [
        ("App.Handler.FormattableTrait", False),
        ("App.Support.Counts", False),
        ("App.Support.LogsTrait", False),
    ]
    users = [
        (r.symbol, r.direction) for r in related(php, "App.Support.LogsTrait").related if r.edge == "inherits"
    ]
    assert users == [("App.Handler.Processing", "in")]


def test_a_mixed_in_module_is_a_base_found_from_inside_the_class(ruby: Engine) -> None:
    """`include Helpers` in `Rack::Request` is `Rack::Request::Helpers`, not the top-level one;
    `extend Rack::Mime` and `prepend Tracing` (Rack's, around the class) are bases too; an
    `include` inside a method is none."""
    assert _bases(ruby, "Rack.Request") == [
        ("Rack.Mime", False),
        ("Rack.Request.Env", False),
        ("Rack.Request.Helpers", False),
        ("Rack.Tracing", False),
    ]


def test_a_bare_call_reaches_a_mixed_in_modules_method(ruby: Engine) -> None:
    """`self.params` and a bare `fullpath()` in a method of Rack::Request are its Helpers module's,
    not Other's or the top-level Helpers'; `mime_type` in a class method is the `extend`ed Mime's."""
    assert _calls(ruby, "Rack.Request.run") == [
        ("Rack.Request.Helpers.fullpath", 9, False),
        ("Rack.Request.Helpers.params", 8, False),
    ]
    assert _calls(ruby, "Rack.Request.lookup") == [("Rack.Mime.mime_type", 13, False)]


def test_super_is_the_same_named_method_of_a_mixed_in_module(ruby: Engine) -> None:
    """A bare `super` and `super(x)` call the enclosing method's name on the nearest ancestor, the
    included `Rack::Request::Helpers` here (found from inside `Rack::Lint`); a `super` no indexed
    ancestor answers makes no edge."""
    assert _calls(ruby, "Rack.Lint.params") == [("Rack.Request.Helpers.params", 6, False)]
    assert _calls(ruby, "Rack.Lint.fullpath") == [("Rack.Request.Helpers.fullpath", 10, False)]
    assert _calls(ruby, "Rack.Lint.other") == []


# A module's methods run on the objects of the classes that mix it in: Sinatra's `Helpers#error`
# calls `halt`, which only `Base` (including Helpers) defines.
RUBY_HOSTS = {
    "lib/app/helpers.rb": (
        "module App\n  module Helpers\n    def error(code)\n"
        "      halt code\n"  # 4: Base's, the class mixing Helpers in
        "      render_page(code)\n"  # 5: Templates', a module Base mixes in too
        "    end\n  end\nend\n"
    ),
    "lib/app/templates.rb": "module App\n  module Templates\n    def render_page(code)\n    end\n  end\nend\n",
    "lib/app/base.rb": (
        "module App\n  class Base\n    include Helpers\n    include Templates\n\n"
        "    def halt(*response)\n      throw :halt, response\n    end\n  end\nend\n"
    ),
    # A module nothing mixes in reaches no class's method; decoys of the same names.
    "lib/lonely.rb": "module Lonely\n  def go\n    halt 1\n  end\nend\n",
    "lib/other.rb": "class Other\n  def halt(code)\n  end\n\n  def render_page\n  end\nend\n",
}


@pytest.fixture(scope="module")
def ruby_hosts(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("ruby_hosts"), RUBY_HOSTS) / ".qry")


def test_a_bare_call_in_a_mixed_in_module_reaches_the_class_mixing_it_in(ruby_hosts: Engine) -> None:
    """`halt code` in a method of module Helpers is the `halt` of Base, which includes Helpers, and
    `render_page` the one of Templates, which Base includes too; not Other's. A module no class
    mixes in reaches nothing; `qry related` lists Helpers' method among halt's callers."""
    assert _calls(ruby_hosts, "App.Helpers.error") == [
        ("App.Base.halt", 4, False),
        ("App.Templates.render_page", 5, False),
    ]
    assert _calls(ruby_hosts, "Lonely.go") == []
    callers = [r.symbol for r in related(ruby_hosts, "App.Base.halt").related if r.edge == "calls"]
    assert callers == ["App.Helpers.error"]


def test_a_modules_included_hook_extends_its_includers_class_side(tmp_path: Path) -> None:
    """thor's `Thor::Base.included(base)` runs `base.extend ClassMethods`, so a bare
    `all_commands` or `self.arguments` in `Thor.dispatch` (Thor including Thor::Base) calls
    `Thor::Base::ClassMethods`'s; they reached nothing. A Rails concern (`extend
    ActiveSupport::Concern`) extends its nested `ClassMethods` the same way."""
    base = (
        "class Thor\n  module Base\n    class << self\n      def included(base)\n"
        "        base.extend ClassMethods\n      end\n    end\n\n"
        "    module ClassMethods\n      def all_commands\n        {}\n      end\n\n"
        "      def arguments\n        []\n      end\n    end\n  end\nend\n"
    )
    thor = (
        "class Thor\n  class << self\n    def dispatch(meth)\n      all_commands[meth]\n"
        "      self.arguments\n    end\n  end\n\n  include Thor::Base\nend\n"
    )
    concern = (
        "module Tagged\n  extend ActiveSupport::Concern\n\n"
        "  module ClassMethods\n    def tag_names\n      []\n    end\n  end\nend\n\n"
        "class Post\n  include Tagged\n\n  def self.build\n    tag_names\n  end\nend\n"
    )
    files = {"lib/thor/base.rb": base, "lib/thor.rb": thor, "lib/post.rb": concern}
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    dispatch = {(r.symbol, r.ambiguous) for r in related(engine, "Thor.dispatch", callers=False).related}
    assert {
        ("Thor.Base.ClassMethods.all_commands", False),
        ("Thor.Base.ClassMethods.arguments", False),
    } <= dispatch
    build = [(r.symbol, r.ambiguous) for r in related(engine, "Post.build", callers=False).related]
    assert ("Tagged.ClassMethods.tag_names", False) in build
