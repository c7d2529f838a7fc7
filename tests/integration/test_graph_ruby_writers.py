"""A Ruby attribute assignment (`self.url_prefix = url`, `conn.proxy = p`) calls the writer method
`url_prefix=`, not the reader `url_prefix`. On faraday `qry related Connection.url_prefix=
--callers` said "no callers", though `Connection#initialize` runs `self.url_prefix = url`, which was
linked to the `attr_reader :url_prefix` instead."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

CONNECTION = (
    "class Connection\n"
    "  attr_reader :url_prefix\n"  # 2: the reader
    "  attr_accessor :timeout\n"  # 3: reader and writer, one name
    "\n"
    "  def initialize(url)\n"  # 5
    "    self.url_prefix = url\n"
    "    self.timeout = 5\n"
    "    self.retries += 1\n"  # reads `retries` first
    "    url_prefix\n"
    "  end\n"
    "\n"
    "  def url_prefix=(url)\n"  # 12: the writer
    "    @url_prefix = url\n"
    "  end\n"
    "\n"
    "  def retries\n"  # 16
    "    0\n"
    "  end\n"
    "\n"
    "  def copy(other)\n"  # 20
    "    other.url_prefix, other.timeout = url_prefix, timeout\n"
    "  end\n"
    "end\n"
)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    files = {"lib/connection.rb": CONNECTION}
    return open_engine(make_repo(tmp_path_factory.mktemp("writers"), files) / ".qry")


def _callees(engine: Engine, symbol: str) -> set[tuple[str, int]]:
    res = related(engine, symbol, callers=False)
    assert res.node is not None, res
    return {(r.symbol, r.start_line) for r in res.related if r.edge == "calls"}


def test_an_assignment_calls_the_writer_and_a_bare_name_the_reader(engine: Engine) -> None:
    """`self.url_prefix = url` is `url_prefix=`; the bare `url_prefix` stays the reader; an
    `attr_accessor`'s one name is both; `+=` reads the attribute before it writes it."""
    assert _callees(engine, "Connection.initialize") == {
        ("Connection.url_prefix=", 12),
        ("Connection.url_prefix", 2),
        ("Connection.timeout", 3),
        ("Connection.retries", 16),
    }


def test_a_writer_has_the_assignments_as_callers(engine: Engine) -> None:
    """A multiple assignment's targets (`other.url_prefix, other.timeout = ..`) are writer calls too."""
    res = related(engine, "Connection.url_prefix=", callees=False)
    assert {r.symbol for r in res.related if r.edge == "calls"} == {
        "Connection.initialize",
        "Connection.copy",
    }
