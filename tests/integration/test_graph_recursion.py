"""A recursive call is listed by `qry related` (graph/expand.py): `cJSON_Delete(item->child)` in
`cJSON_Delete` made it seem to call nothing, as a hit's own node was never listed."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

SOURCE = (
    "struct node { struct node *next; struct node *child; };\n\n"
    "void release(struct node *n) {\n    while (n) {\n        release(n->child);\n        n = n->next;\n    }\n}\n\n"
    "void clear(struct node *root) {\n    release(root);\n}\n"
)


def test_a_recursive_call_is_listed_once_as_the_functions_callee_and_caller(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, {"src/tree.c": SOURCE})
    rows = related(open_engine(repo / ".qry"), "release").related
    calls = sorted((r.direction, r.symbol, r.line) for r in rows if r.edge == "calls")
    assert calls == [("in", "clear", 11), ("in", "release", 5), ("out", "release", 5)]
    callees = related(open_engine(repo / ".qry"), "release", callers=False, depth=2).related
    assert [(r.symbol, r.depth) for r in callees if r.edge == "calls"] == [("release", 1)]
