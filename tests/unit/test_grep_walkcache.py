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
        WalkedFile(s.path, s.abspath, s.size, s.mtime_ns, s.language, s.unhidden, s.ctime_ns)
        for s in discover(root, read=False, unparsed=True)
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
