"""A Ruby class's class methods (`def self.x`, a `def` in `class << self`) and its instance methods of
the same name are told apart by the side a call is on (graph/rubysides.py). On sidekiq both
`Sidekiq::Client.push` (in `class << self`) and `Sidekiq::Client#push` are `Sidekiq.Client.push`,
and every call of either linked to both, ambiguous; `self.class.redis_pool` in an instance method
was a guess at every `redis_pool` but the own class's, and `new.push(item)` linked to nothing."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

CLIENT = (
    "module Shop\n"
    "  class Client\n"
    "    def self.via(pool)\n"  # 3
    "      pool\n"
    "    end\n"
    "\n"
    "    def push(item)\n"  # 7: the instance's
    "      raw_push(item)\n"
    "    end\n"
    "\n"
    "    def raw_push(item)\n"  # 11
    "      item\n"
    "    end\n"
    "\n"
    "    def pool\n"  # 15
    "      self.class.settings\n"
    "    end\n"
    "\n"
    "    class << self\n"
    "      def push(item)\n"  # 20: the class's
    "        new.push(item)\n"
    "      end\n"
    "\n"
    "      def settings\n"  # 24
    "        {}\n"
    "      end\n"
    "    end\n"
    "\n"
    "    def settings\n"  # 29: an instance's `settings` too, after the block
    "      {}\n"
    "    end\n"
    "  end\n"
    "\n"
    "  class Queue\n"
    "    def settings\n"  # 35: another class's
    "      {}\n"
    "    end\n"
    "  end\n"
    "end\n"
)
RETRY = (
    "module Shop\n"
    "  class Retry\n"
    "    def run(msg)\n"
    "      Shop::Client.push(msg)\n"
    "    end\n"
    "\n"
    "    def again(msg)\n"
    "      @client.push(msg)\n"
    "    end\n"
    "  end\n"
    "end\n"
)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    files = {"lib/shop/client.rb": CLIENT, "lib/shop/retry.rb": RETRY}
    return open_engine(make_repo(tmp_path_factory.mktemp("sides"), files) / ".qry")


def _callees(engine: Engine, symbol: str) -> list[tuple[str, int, bool]]:
    res = related(engine, symbol, callers=False)
    assert res.node is not None, res
    return [(r.symbol, r.start_line, r.ambiguous) for r in res.related if r.edge == "calls"]


def test_a_call_on_a_constant_is_the_class_method(engine: Engine) -> None:
    assert _callees(engine, "Shop.Retry.run") == [("Shop.Client.push", 20, False)]


def test_a_call_on_a_variable_is_the_instance_method(engine: Engine) -> None:
    # `@client` is named after its class (qualified.named_after): the instance's `push`, not both.
    assert _callees(engine, "Shop.Retry.again") == [("Shop.Client.push", 7, False)]


def test_new_in_a_class_method_is_an_instance_of_the_own_class(engine: Engine) -> None:
    assert _callees(engine, "lib/shop/client.rb:20") == [("Shop.Client.push", 7, False)]


def test_self_class_is_the_own_class(engine: Engine) -> None:
    """`self.class.settings` in an instance method: the class's `settings` in `class << self`, not
    the instance's below the block nor another class's."""
    assert _callees(engine, "Shop.Client.pool") == [("Shop.Client.settings", 24, False)]


def test_a_bare_call_is_on_the_side_of_its_method(engine: Engine) -> None:
    assert _callees(engine, "lib/shop/client.rb:7") == [("Shop.Client.raw_push", 11, False)]
    callers = related(engine, "lib/shop/client.rb:20", callees=False).related
    assert [(r.symbol, r.ambiguous) for r in callers if r.edge == "calls"] == [("Shop.Retry.run", False)]


def test_related_reads_the_side_a_name_spells(engine: Engine) -> None:
    """`qry related Shop::Client#push` is the instance's, `Shop::Client.push` the class's, as Ruby's
    documentation writes them; both were refused as naming two definitions."""
    for name, line in (("Shop::Client#push", 7), ("Shop::Client.push", 20), ("Shop::Client::push", 20)):
        res = related(engine, name)
        assert res.node is not None and not res.ambiguous, (name, res)
        assert res.node.start_line == line, name
    # qry spells both sides `Shop.Client.push`, so that name and a bare one spell no side
    assert related(engine, "Shop.Client.push").ambiguous and related(engine, "push").ambiguous
