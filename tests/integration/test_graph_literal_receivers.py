"""A method called on a value no name holds (a string literal, a list, a bracketed expression) is a
call on a receiver of unknown type, never a bare call of a same-named function: `", ".join(parts)`
linked to a module's `join` helper, unambiguously."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

FILES = {
    "util.py": (
        "def join(*parts):\n    return parts\n\n\ndef strip(x):\n    return x\n\n\n"
        "def render(items, a, b):\n    return ', '.join(items) + (a or b).strip()\n"
    ),
    "list.js": (
        "function forEach(xs) {\n  return xs;\n}\n\nfunction run(a, b) {\n  [a, b].forEach(console.log);\n}\n"
    ),
    "box.rb": (
        "def each\n  1\nend\n\nclass Box\n  def size\n    2\n  end\n\n"
        "  def run(a, b)\n    (a - b).each { |x| x }\n    %w(a b).each { |x| x }\n    [a, b].size\n  end\nend\n"
    ),
    "shop.php": (
        "<?php\nfunction total() { return 1; }\nclass Cart {\n    public function total() { return 2; }\n}\n"
        "function checkout() {\n    return (new Cart())->total();\n}\n"
    ),
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("literals"), FILES) / ".qry")


def _calls(engine: Engine, symbol: str) -> list[tuple[str, bool]]:
    res = related(engine, symbol)
    assert res.node is not None, res
    return [(r.symbol, r.ambiguous) for r in res.related if r.edge == "calls" and r.direction == "out"]


def test_a_string_or_bracketed_receiver_calls_no_function_of_that_name(engine: Engine) -> None:
    """`', '.join(items)` and `(a or b).strip()` call a string's methods; `[a, b].forEach` an array's."""
    assert _calls(engine, "util.py:render") == []
    assert _calls(engine, "list.js:run") == []


def test_a_ruby_literal_receiver_is_an_unknown_object_not_self(engine: Engine) -> None:
    """`(a - b).each` and `%w(a b).each` are no call of the top-level `each`; `[a, b].size` is no call
    of the own class's `size` for sure: at most a guess by name, marked ambiguous."""
    assert ("each", False) not in _calls(engine, "Box.run")
    assert all(ambiguous for _, ambiguous in _calls(engine, "Box.run"))


def test_a_bracketed_new_names_the_class_whose_method_is_called(engine: Engine) -> None:
    """`(new Cart())->total()` calls Cart's `total`, not the function `total`."""
    assert ("Cart.total", False) in _calls(engine, "shop.php:checkout")
    assert ("total", False) not in _calls(engine, "shop.php:checkout")
