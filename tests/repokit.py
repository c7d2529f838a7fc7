"""`make_repo`: a small repository written from a dict of files and indexed lexically, for the tests
that check what qry makes of a few lines of code (ranking, the graph)."""

from __future__ import annotations

from pathlib import Path

from indexlib import BuildOptions, build_index


def make_repo(root: Path, files: dict[str, str]) -> Path:
    """Write `files` (relative path -> text) under `root` and index it (`--embed none`, file times)."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    build_index(root, BuildOptions(embed="none", git_times=False))
    return root
