"""The saved walk (`grep/walkcache.py`) always equals a fresh `discover`, through every kind of change."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from indexlib.grep.files import WalkedFile
from indexlib.grep.walkcache import CACHE_NAME, cached_walk
from indexlib.index.discover import SourceFile, discover


def _fresh(root: Path) -> list[WalkedFile]:
    return [
        WalkedFile(s.path, s.abspath, s.size, s.mtime_ns, s.language)
        for s in discover(root, read=False)
        if isinstance(s, SourceFile)
    ]


def _bump(path: Path) -> None:
    """Move a file's or folder's mtime on, so a change within one clock tick still shows."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))


def _add_in_subdir(root: Path) -> None:
    (root / "pkg" / "new.py").write_text("x = 1\n")
    _bump(root / "pkg")


def _delete(root: Path) -> None:
    (root / "pkg" / "a.py").unlink()
    _bump(root / "pkg")


def _edit_source(root: Path) -> None:
    (root / "top.py").write_text("changed = 2\n# longer\n")
    _bump(root / "top.py")


def _edit_gitignore(root: Path) -> None:
    (root / ".gitignore").write_text("ignored.py\npkg/a.py\n")
    _bump(root / ".gitignore")


def _shebang(root: Path) -> None:
    (root / "script").write_text("#!/usr/bin/env python3\nprint(1)\n")
    _bump(root / "script")


def _grow_past_limit(root: Path) -> None:
    (root / "top.py").write_bytes(b"x = 1\n" * 200_000)
    _bump(root / "top.py")


def _edit_unsupported(root: Path) -> None:
    (root / "notes.txt").write_text("longer notes than before\n")
    _bump(root / "notes.txt")


def _shrink_below_limit(root: Path) -> None:
    (root / "big.py").write_text("small = 1\n")
    _bump(root / "big.py")


def _ignore_above(root: Path) -> None:
    (root.parent / ".gitignore").write_text("top.py\n")
    (root.parent / ".git").mkdir(exist_ok=True)


CHANGES: dict[str, Callable[[Path], None]] = {
    "add": _add_in_subdir,
    "delete": _delete,
    "edit": _edit_source,
    "gitignore": _edit_gitignore,
    "shebang": _shebang,
    "too-large": _grow_past_limit,
    "ignore-above": _ignore_above,
    "unsupported-edit": _edit_unsupported,
    "shrink-below-limit": _shrink_below_limit,
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_cached_walk_equals_a_fresh_walk_after(change: str, tmp_path: Path) -> None:
    root = tmp_path / "tree"
    (root / "pkg").mkdir(parents=True)
    (root / "top.py").write_text("top = 1\n")
    (root / "pkg" / "a.py").write_text("a = 1\n")
    (root / "script").write_text("no shebang yet\n")
    (root / ".gitignore").write_text("ignored.py\n")
    (root / "ignored.py").write_text("i = 1\n")
    (root / "notes.txt").write_text("notes\n")
    (root / "big.py").write_bytes(b"x = 1\n" * 200_000)
    cache = tmp_path / "idx"
    cache.mkdir()
    assert cached_walk(root, no_ignore=False, cache_dir=cache) == _fresh(root)
    assert (cache / CACHE_NAME).is_file()
    time.sleep(0.01)
    CHANGES[change](root)
    assert cached_walk(root, no_ignore=False, cache_dir=cache) == _fresh(root)
    assert cached_walk(root, no_ignore=False, cache_dir=cache) == _fresh(root)  # the saved one again
