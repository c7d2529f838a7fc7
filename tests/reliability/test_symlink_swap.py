"""Symlink swap races: a file or folder that discovery saw as real is swapped for a link pointing out of
the tree before it is read. Whatever the timing, no byte from outside the tree may be indexed.

Two forms: a deterministic one (the swap lands exactly between the listing and the read, 200 times,
for a file and for a parent folder), and a racing thread that flips a file and a folder 200 times while
discovery reads the tree in a loop. Bounded by the swap count, not by time.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from indexlib.index.discover import Skipped, SourceFile, discover, load

SWAPS = 200
MARKER = "OUTSIDE_TREE_MARKER"


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    outside = tmp_path / "outside"
    (outside / "dir").mkdir(parents=True)
    (outside / "mod.py").write_text(f"secret = '{MARKER}'\n")
    (outside / "dir" / "inner.py").write_text(f"secret = '{MARKER}'\n")
    (outside / "dir" / "only_outside.py").write_text(f"secret = '{MARKER}'\n")
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "pkg").mkdir()
    (root / "src" / "mod.py").write_text("def mod():\n    return 1\n")
    (root / "pkg" / "inner.py").write_text("def inner():\n    return 2\n")
    return root, outside


def _swap_file(root: Path, outside: Path) -> None:
    """Replace src/mod.py by a link to the outside file, atomically (rename over it)."""
    tmp = root / "src" / ".swap"
    tmp.symlink_to(outside / "mod.py")
    os.replace(tmp, root / "src" / "mod.py")


def _restore_file(root: Path) -> None:
    tmp = root / "src" / ".real"
    tmp.write_text("def mod():\n    return 1\n")
    os.replace(tmp, root / "src" / "mod.py")


def _swap_dir(root: Path, outside: Path) -> None:
    os.rename(root / "pkg", root / ".pkg.real")
    (root / "pkg").symlink_to(outside / "dir", target_is_directory=True)


def _restore_dir(root: Path) -> None:
    (root / "pkg").unlink()
    os.rename(root / ".pkg.real", root / "pkg")


def _leaks(items: list[SourceFile | Skipped]) -> list[str]:
    return [i.path for i in items if isinstance(i, SourceFile) and MARKER.encode() in (i.data or b"")]


def test_a_swap_between_listing_and_reading_is_never_followed(tmp_path: Path) -> None:
    root, outside = _tree(tmp_path)
    leaked: list[str] = []
    skipped = 0
    for i in range(SWAPS):
        listed = [s for s in discover(root, read=False) if isinstance(s, SourceFile)]
        assert {s.path for s in listed} == {"pkg/inner.py", "src/mod.py"}
        swap_dir = i % 2 == 1
        if swap_dir:
            _swap_dir(root, outside)
        else:
            _swap_file(root, outside)
        loaded = [load(s) for s in listed]
        leaked += _leaks(loaded)
        skipped += sum(isinstance(x, Skipped) for x in loaded)
        if swap_dir:
            _restore_dir(root)
        else:
            _restore_file(root)
    assert leaked == []
    assert skipped == SWAPS  # each swapped path is skipped (ELOOP / ENOTDIR), never read through


def test_racing_swaps_while_discovery_reads_leak_nothing(tmp_path: Path) -> None:
    root, outside = _tree(tmp_path)
    done = threading.Event()
    swaps = 0

    def flip() -> None:
        nonlocal swaps
        try:
            while swaps < SWAPS:
                _swap_file(root, outside)
                _swap_dir(root, outside)
                _restore_file(root)
                _restore_dir(root)
                swaps += 2
        finally:
            done.set()

    thread = threading.Thread(target=flip)
    thread.start()
    leaked: list[str] = []
    outside_paths: list[str] = []
    runs = 0
    while not done.is_set() or runs == 0:
        items = list(discover(root))
        runs += 1
        leaked += _leaks(items)
        outside_paths += [i.path for i in items if i.path.endswith("only_outside.py")]
    thread.join()
    assert swaps >= SWAPS and runs > 0
    assert leaked == [] and outside_paths == []
