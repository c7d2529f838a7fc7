"""A C prototype a `.c` file writes for a function another file defines (`void __redisSetError(..);`
under `/* Defined in hiredis.c */`) is no definition of its own: the calls in that file are the
body's. On hiredis `qry related __redisSetError --callers` (hiredis.c) listed hiredis.c's 8
callers and none of net.c's 8, async.c's 4 or ssl.c's 4, which linked to the prototypes each of
those files writes."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

FILES = {
    "src/util.c": (
        '#include "util.h"\n'
        "\n"
        "void set_error(int *c, const char *s) {\n"  # 3: the body
        "    *c = s[0];\n"
        "}\n"
    ),
    "src/net.c": (
        "/* Defined in util.c */\n"
        "void set_error(int *c, const char *s);\n"  # 2: a prototype of util.c's
        "int only_declared(int x);\n"  # 3: no body anywhere
        "static int twice(int x);\n"  # 4: its body is below
        "\n"
        "int net_read(int *c) {\n"  # 6
        '    set_error(c, "recv");\n'
        "    return twice(only_declared(*c));\n"
        "}\n"
        "\n"
        "static int twice(int x) {\n"  # 11
        "    return 2 * x;\n"
        "}\n"
    ),
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("cproto"), FILES) / ".qry")


def test_a_call_through_a_local_prototype_is_the_body_elsewhere(engine: Engine) -> None:
    """`set_error(..)` in net.c is util.c's body, certain; a prototype no file gives a body stays
    the one answer, and a static prototype's body in the file is its own."""
    res = related(engine, "net_read", callers=False)
    assert res.node is not None, res
    found = {(r.symbol, r.path, r.start_line, r.ambiguous) for r in res.related if r.edge == "calls"}
    assert ("set_error", "src/util.c", 3, False) in found
    assert not any(p == "src/net.c" and s == "set_error" for s, p, _, _ in found)
    assert ("only_declared", "src/net.c", 3, False) in found
    assert ("twice", "src/net.c", 11, False) in found


def test_the_body_has_the_callers_of_the_other_file(engine: Engine) -> None:
    res = related(engine, "src/util.c:3", callees=False)
    assert res.node is not None, res
    assert {r.symbol for r in res.related if r.edge == "calls"} == {"net_read"}
