"""`make_repo`: a small repository written from a dict of files and indexed lexically, for the tests
that check what qry makes of a few lines of code (ranking, the graph); `calls`: what its graph says
a definition calls or is called by; `call_lines`: each call of a definition by its line."""

from __future__ import annotations

from pathlib import Path

from indexlib import BuildOptions, build_index, open_engine, related
from indexlib.graph.view import SnapshotGraph
from indexlib.snapshot import Snapshot


def make_repo(root: Path, files: dict[str, str]) -> Path:
    """Write `files` (relative path -> text) under `root` and index it (`--embed none`, file times)."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    build_index(root, BuildOptions(embed="none", git_times=False))
    return root


def calls(repo: Path, symbol: str, *, out: bool = True) -> list[tuple[str, bool]]:
    """The `calls` edges of `symbol`'s definition in `repo`'s index, sorted: its callees (`out`) or its
    callers, each as (qualified name, ambiguous)."""
    rows = related(open_engine(repo / ".qry"), symbol, callers=not out, callees=out).related
    return sorted((r.symbol, r.ambiguous) for r in rows if r.edge == "calls")


def call_lines(snap: Snapshot, qualified_name: str) -> list[tuple[int, str, bool]]:
    """Each `calls` edge out of the one definition named `qualified_name` in `snap`, sorted, as
    (line of the call, callee's qualified name, ambiguous): for tests that check a call site by site."""
    graph = SnapshotGraph(snap)
    (uid,) = graph.find(kind=None, props={"qualified_name": qualified_name}, limit=2)
    out = []
    for e in graph.edges(uid, ("calls",), "out"):
        other = graph.node(e.dst)
        assert other is not None
        out.append((e.line, other.qualified_name, e.ambiguous))
    return sorted(out)
