"""`make_repo`: a small repository written from a dict of files and indexed lexically, for the tests
that check what qry makes of a few lines of code (ranking, the graph); `calls`: what its graph says
a definition calls or is called by."""

from __future__ import annotations

from pathlib import Path

from indexlib import BuildOptions, build_index, open_engine, related


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
