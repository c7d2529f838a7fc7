"""A Ruby constant path written from the top level (`::Logger.new`, `::Shop::Utils.merge`) means the
top level's constant, never one nested where it is written. On faraday `::Logger.new($stdout)` in
`Faraday::Response::Logger#initialize` (Ruby's standard Logger) was a call of the enclosing class
`Faraday::Response::Logger` itself, its only caller in `qry related`."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

LIB = (
    "module Shop\n"
    "  module Utils\n"
    "    def self.merge(a, b)\n"  # 3
    "      a\n"
    "    end\n"
    "  end\n"
    "\n"
    "  class Logger\n"  # 8
    "    def initialize(io = nil)\n"
    "      @out = ::Logger.new(io)\n"  # Ruby's Logger: not indexed
    "      ::Shop::Utils.merge(1, 2)\n"
    "    end\n"
    "\n"
    "    def again\n"  # 14
    "      Logger.new\n"  # the nested one, found first
    "    end\n"
    "  end\n"
    "end\n"
)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("toplevel"), {"lib/shop.rb": LIB}) / ".qry")


def _callees(engine: Engine, symbol: str) -> set[str]:
    res = related(engine, symbol, callers=False)
    assert res.node is not None, res
    return {r.symbol for r in res.related if r.edge == "calls"}


def test_a_path_from_the_top_level_is_not_the_nested_constant(engine: Engine) -> None:
    assert _callees(engine, "Shop.Logger.initialize") == {"Shop.Utils.merge"}
    assert _callees(engine, "Shop.Logger.again") == {"Shop.Logger"}
