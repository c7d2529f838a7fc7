"""A Ruby object made by `Const.new(..)` has that class: a call on it (`Rack::MockRequest.new(app).get(..)`,
`req = Rack::MockRequest.new(app)` then `req.options(..)`)
is a method of that class. On rack `qry related Rack.MockRequest.get --callers` listed 2 callers, both
ambiguous, for the hundreds of `Rack::MockRequest.new(app).get(..)` in its specs: `get` on an object of
unknown class makes no edge, and `req.options(..)` linked to `Rack::Builder#options`, a guess."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

LIB = (
    "module Rack\n"
    "  class MockRequest\n"
    "    def initialize(app)\n"
    "      @app = app\n"
    "    end\n"
    "\n"
    "    def get(uri, opts = {})\n"  # 7
    "      uri\n"
    "    end\n"
    "\n"
    "    def options(uri, opts = {}) get(uri, opts) end\n"  # 11
    "  end\n"
    "\n"
    "  class Builder\n"
    "    attr :options\n"  # 15
    "  end\n"
    "\n"
    "  class Client\n"
    "    def push(item)\n"  # 19
    "      item\n"
    "    end\n"
    "  end\n"
    "\n"
    "  class Queue\n"
    "    def push(item)\n"  # 25
    "      item\n"
    "    end\n"
    "  end\n"
    "\n"
    "  class Scheduler\n"
    "    def initialize\n"
    "      @client = Client.new\n"
    "    end\n"
    "\n"
    "    def enqueue(job)\n"
    "      @client.push(job)\n"
    "    end\n"
    "  end\n"
    "end\n"
)
SPEC = (
    "require_relative '../lib/rack'\n"
    "\n"
    "def app(x)\n"
    "  x\n"
    "end\n"
    "\n"
    "def chained\n"
    "  Rack::MockRequest.new(app(1)).get('/a')\n"
    "end\n"
    "\n"
    "def local\n"
    "  req = Rack::MockRequest.new(app(2))\n"
    "  req.options('/b')\n"
    "end\n"
    "\n"
    "def result_of_a_call\n"
    "  res = Rack::MockRequest.new(app(3)).get('/c')\n"  # `res` is no MockRequest
    "  res.options\n"
    "end\n"
)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    files = {"lib/rack.rb": LIB, "test/spec_mock.rb": SPEC}
    return open_engine(make_repo(tmp_path_factory.mktemp("rubymade"), files) / ".qry")


def _callees(engine: Engine, symbol: str) -> set[tuple[str, int, bool]]:
    res = related(engine, symbol, callers=False)
    assert res.node is not None, res
    return {(r.symbol, r.start_line, r.ambiguous) for r in res.related if r.edge == "calls"}


def test_a_call_on_a_new_object_is_its_class_method(engine: Engine) -> None:
    """`Rack::MockRequest.new(app(1)).get(..)`: `get`, no method of a library collection, is
    MockRequest's, certain."""
    assert ("Rack.MockRequest.get", 7, False) in _callees(engine, "chained")


def test_a_local_made_by_new_has_its_class(engine: Engine) -> None:
    """`req = Rack::MockRequest.new(..)` then `req.options(..)`: MockRequest's, not Builder's reader."""
    found = _callees(engine, "local")
    assert ("Rack.MockRequest.options", 11, False) in found
    assert not any(s == "Rack.Builder.options" for s, _, _ in found)


def test_a_value_a_call_on_the_new_object_returns_is_not_of_its_class(engine: Engine) -> None:
    """`res = Rack::MockRequest.new(..).get(..)`: `res` is what `get` returns, not a MockRequest."""
    found = _callees(engine, "result_of_a_call")
    assert not any(s == "Rack.MockRequest.options" and not amb for s, _, amb in found)
