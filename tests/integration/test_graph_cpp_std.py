"""A C++ call into the standard library links to nothing indexed: `std::move(x)` is not the indexed
code's `move` method, nor `loggers_.end()` on a `std::unordered_map` its `end`. On spdlog (which
bundles fmt), fmt's `basic_memory_buffer::move` had 167 ambiguous callers, nearly all `std::move`,
and its `buffer::begin`/`end`/`data` several hundred more from strings and maps."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

FILES = {
    "include/buf.h": (
        "namespace fmt {\n"
        "class memory_buffer {\n"
        "public:\n"
        "    void move(memory_buffer &other) { other.clear(); }\n"
        "    char *end() { return ptr_; }\n"
        "    void grow(int n) { move(*this); }\n"
        "private:\n"
        "    char *ptr_;\n"
        "};\n"
        "}  // namespace fmt\n"
    ),
    "include/registry.h": (
        "#include <unordered_map>\n"
        "namespace app {\n"
        "namespace util {\n"
        "inline int move(int x) { return x; }\n"
        "}  // namespace util\n"
        "class registry {\n"
        "public:\n"
        "    bool has(const std::string &name) {\n"
        "        auto found = loggers_.find(name);\n"
        "        return found != loggers_.end();\n"
        "    }\n"
        "    void put(std::string name) { names_.push_back(std::move(name)); }\n"
        "    int shift(int x) { return util::move(x); }\n"
        "private:\n"
        "    std::unordered_map<std::string, int> loggers_;\n"
        "    std::vector<std::string> names_;\n"
        "};\n"
        "}  // namespace app\n"
    ),
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("cppstd"), FILES) / ".qry")


def _calls(engine: Engine, symbol: str) -> list[tuple[str, bool]]:
    res = related(engine, symbol)
    assert res.node is not None, res
    return [(r.symbol, r.ambiguous) for r in res.related if r.edge == "calls" and r.direction == "out"]


def test_a_std_qualified_call_is_the_standard_librarys(engine: Engine) -> None:
    assert _calls(engine, "registry.put") == []  # neither `memory_buffer.move` nor `util.move`


def test_a_standard_container_method_on_an_untyped_receiver_links_nothing(engine: Engine) -> None:
    assert _calls(engine, "registry.has") == []  # not `memory_buffer.end`


def test_an_indexed_namespace_and_a_bare_member_call_still_link(engine: Engine) -> None:
    assert _calls(engine, "registry.shift") == [("app.util.move", False)]
    assert _calls(engine, "memory_buffer.grow") == [("fmt.memory_buffer.move", False)]
