"""A Ruby `.new` (graph/rubyconst.py `constructs`, graph/rubysides.py `scoped`). On faraday, whose
`module Faraday` defines `def new(url = nil, options = {})` in `class << self`, every `.new` on a
variable (`formatter_class.new(..)`, `klass.new(app)`, `described_class.new`) and `self.class.new`
in `Connection#dup` were callers of `Faraday.new`, ambiguous guesses by the name `new`, while
`Faraday.new(url)` itself linked to the module, not to the method Ruby runs."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

LIB = (
    "module Shop\n"
    "  class << self\n"
    "    def new(url = nil)\n"  # 3: the module's own `new`
    "      Shop::Connection.new(url)\n"
    "    end\n"
    "  end\n"
    "\n"
    "  class Connection\n"  # 8
    "    def initialize(url)\n"
    "      @url = url\n"
    "    end\n"
    "\n"
    "    def dup\n"  # 13
    "      self.class.new(@url)\n"
    "    end\n"
    "\n"
    "    def build(klass, app)\n"  # 17
    "      klass.new(app)\n"
    "    end\n"
    "  end\n"
    "end\n"
)
APP = (
    "class App\n"
    "  def connect(url)\n"
    "    Shop.new(url)\n"
    "  end\n"
    "\n"
    "  def direct\n"  # 6
    "    Shop::Connection.new('a')\n"
    "  end\n"
    "end\n"
)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    files = {"lib/shop.rb": LIB, "lib/app.rb": APP}
    return open_engine(make_repo(tmp_path_factory.mktemp("rubynew"), files) / ".qry")


def _calls(engine: Engine, symbol: str, callers: bool) -> set[tuple[str, bool]]:
    res = related(engine, symbol, callers=callers, callees=not callers)
    assert res.node is not None, res
    return {(r.symbol, r.ambiguous) for r in res.related if r.edge == "calls"}


def test_new_on_a_constant_calls_the_class_method_new_it_defines(engine: Engine) -> None:
    """`Shop.new(url)` runs `Shop`'s own `new`; `klass.new` and `self.class.new` are no call of it."""
    assert _calls(engine, "Shop.new", callers=True) == {("App.connect", False)}


def test_new_on_a_variable_calls_nothing_and_self_class_new_the_own_class(engine: Engine) -> None:
    assert _calls(engine, "Shop.Connection.build", callers=False) == set()
    assert _calls(engine, "Shop.Connection.dup", callers=False) == {("Shop.Connection", False)}


def test_initialize_has_the_calls_that_make_its_class_as_callers(engine: Engine) -> None:
    """`Shop::Connection.new('a')` and `Shop.new`'s `Shop::Connection.new(url)` run
    `Connection#initialize(url)` (they were the class's callers alone); `Shop.new(url)` is not one."""
    assert _calls(engine, "Shop.Connection.initialize", callers=True) == {
        ("Shop.new", False),
        ("App.direct", False),
    }
