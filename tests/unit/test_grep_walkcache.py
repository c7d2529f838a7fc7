"""The saved walk (`grep/walkcache.py`) always equals a fresh `discover`, through every kind of change."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from indexlib.grep.files import WalkedFile
from indexlib.grep.walkcache import CACHE_NAME, GLOBS_CACHE_NAME, NO_SIZE_LIMIT, cached_walk
from indexlib.index.discover import SourceFile, discover


def _fresh(root: Path) -> list[WalkedFile]:
    """discover's listing without its size limit: grep reads files of any size (rg does), and bounds
    its memory itself (`content.MAX_BYTES`, reported)."""
    return [
        WalkedFile(s.path, s.abspath, s.size, s.mtime_ns, s.language, s.unhidden, s.ctime_ns)
        for s in discover(root, read=False, unparsed=True, max_file_bytes=NO_SIZE_LIMIT)
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


def _edit_rgignore(root: Path) -> None:
    (root / "pkg" / ".rgignore").write_text("a.py\n")
    _bump(root / "pkg" / ".rgignore")


def _add_dot_ignore(root: Path) -> None:
    (root / ".ignore").write_text("top.py\n")
    _bump(root)


def _edit_own_exclude(root: Path) -> None:
    """The root's own `.git/info/exclude` rewritten in place: no folder the walk lists changes (the
    walk never lists `.git`, and `info/`'s mtime stays), so the cache kept the old listing forever."""
    (root / ".git" / "info" / "exclude").write_text("top.py\n")


def _same_size_and_mtime(root: Path) -> None:
    """An ignore file rewritten with its size, then its mtime put back (`cp -p`, `touch -r`): only
    the ctime tells."""
    gitignore = root / ".gitignore"
    before = gitignore.stat()
    gitignore.write_text("top.py\n#xx\n")  # as long as "ignored.py\n"
    os.utime(gitignore, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert gitignore.stat().st_size == before.st_size


def _shebang(root: Path) -> None:
    (root / "script").write_text("#!/usr/bin/env python3\nprint(1)\n")
    _bump(root / "script")


def _shebang_in_a_sentence(root: Path) -> None:
    (root / "uses io.js version").write_text("#!/bin/sh\nnvm use iojs\n")
    _bump(root / "uses io.js version")


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
    "rgignore": _edit_rgignore,
    "own-exclude": _edit_own_exclude,
    "same-size-and-mtime": _same_size_and_mtime,
    "dot-ignore": _add_dot_ignore,
    "shebang": _shebang,
    "shebang-in-a-sentence": _shebang_in_a_sentence,
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
    (root / "pkg" / ".rgignore").write_text("\n")
    (root / ".git" / "info").mkdir(parents=True)
    (root / ".git" / "info" / "exclude").write_text("")
    (root / "script").write_text("no shebang yet\n")
    (root / "uses io.js version").write_text("no shebang yet\n")
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


def test_a_walk_that_met_a_refused_folder_is_reported_and_not_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder the OS refused (mode 000) was left out of the saved walk; making it readable again
    changes its ctime, not the mtimes the cache checks, so grep kept missing its files. Now the
    refusal is reported (`on_refused`) and such a walk is never saved. The refusal is injected
    through `beneath.open_beneath`, the one call the walk opens folders with, so this holds as root."""
    import errno

    import indexlib.index.discover.beneath as beneath

    root = tmp_path / "tree"
    (root / "locked").mkdir(parents=True)
    (root / "top.py").write_text("top = 1\n")
    (root / "locked" / "x.py").write_text("x = 1\n")
    cache = tmp_path / "idx"
    cache.mkdir()
    real_open = beneath.open_beneath

    def refuse_locked(root_dir: str, rel: str, *, directory: bool = False) -> int:
        if rel.rstrip("/") == "locked":
            raise PermissionError(errno.EACCES, "Permission denied", rel)
        return real_open(root_dir, rel, directory=directory)

    monkeypatch.setattr(beneath, "open_beneath", refuse_locked)
    refused: list[tuple[str, str]] = []
    listed = cached_walk(
        root, no_ignore=False, cache_dir=cache, on_refused=lambda p, r: refused.append((p, r))
    )
    assert [f.path for f in listed] == ["top.py"]
    assert refused == [("locked", "Permission denied")]
    assert not (cache / CACHE_NAME).exists()
    monkeypatch.setattr(beneath, "open_beneath", real_open)
    assert cached_walk(root, no_ignore=False, cache_dir=cache) == _fresh(root)
    assert [f.path for f in _fresh(root)] == ["locked/x.py", "top.py"]


def test_files_the_index_skips_by_name_or_size_are_listed_and_cached(tmp_path: Path) -> None:
    """rg searches lock files, `*.min.js`, source maps and files over 1 MiB; discovery skips them
    (by name, by size), so grep never read them. They are listed, from the cache too, and a lock
    file's edit updates its stat in the saved listing."""
    root = tmp_path / "tree"
    root.mkdir()
    (root / "a.py").write_text("a = 1\n")
    (root / "yarn.lock").write_text("lock\n")
    (root / "app.min.js").write_text("var a=1;\n")
    (root / "big.c").write_bytes(b"int x;\n" * 300_000)
    cache = tmp_path / "idx"
    cache.mkdir()
    want = ["a.py", "app.min.js", "big.c", "yarn.lock"]
    assert [f.path for f in cached_walk(root, no_ignore=False, cache_dir=None)] == want
    assert [f.path for f in cached_walk(root, no_ignore=False, cache_dir=cache)] == want
    (root / "yarn.lock").write_text("lock, longer\n")
    listed = cached_walk(root, no_ignore=False, cache_dir=cache)
    assert [f.path for f in listed] == want
    assert next(f for f in listed if f.path == "yarn.lock").size == len("lock, longer\n")


def test_a_listing_made_with_globs_is_cached_apart(tmp_path: Path) -> None:
    """`-g` globs re-include ignored and hidden files (as rg's overrides do), so their listing is
    not the plain one: it is saved in its own file and used only for the same globs."""
    root = tmp_path / "tree"
    root.mkdir()
    (root / ".gitignore").write_text("*.log\n")
    (root / "x.log").write_text("log\n")
    (root / ".coveralls.yml").write_text("k: v\n")
    (root / "a.py").write_text("a = 1\n")
    cache = tmp_path / "idx"
    cache.mkdir()
    plain = [f.path for f in cached_walk(root, no_ignore=False, cache_dir=cache)]
    assert plain == [".coveralls.yml", ".gitignore", "a.py"]
    for _ in range(2):
        listed = cached_walk(root, no_ignore=False, cache_dir=cache, globs=["*.log", "*.yml"])
        assert [(f.path, f.unhidden) for f in listed if f.path in ("x.log", ".coveralls.yml")] == [
            (".coveralls.yml", True),
            ("x.log", False),
        ]
    assert (cache / CACHE_NAME).is_file() and (cache / GLOBS_CACHE_NAME).is_file()
    assert [f.path for f in cached_walk(root, no_ignore=False, cache_dir=cache)] == plain
