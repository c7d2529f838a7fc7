"""Durability primitives: atomic file replacement and directory fsync.

Owns: the write-temp / fsync / rename / fsync-directory dance every published file goes through, and
fsync of whole staged trees. Does not own: where files live (see `store.py`) or locking (`lock.py`).

Why the order matters: `rename` is atomic, but without fsync of the file first a crash can leave the
new name pointing at an empty or partial file; without fsync of the directory afterwards the rename
itself may not survive the crash. POSIX only (the index lives on a local filesystem).
"""

from __future__ import annotations

import os
from pathlib import Path


def fsync_dir(path: Path) -> None:
    """Flush a directory's entries (new, renamed or removed names) to disk."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_file(path: Path) -> None:
    """Flush a file's data to disk; a read-only descriptor is enough on Linux and macOS."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_tree(root: Path) -> None:
    """fsync every file and directory under `root`, children before parents.

    A staged tree is renamed into place as a whole; its files and the entries of its subdirectories
    must be durable before that rename, or a crash could publish a directory with holes in it.
    """
    for dirpath, _dirnames, filenames in os.walk(root, topdown=False):
        for name in filenames:
            fsync_file(Path(dirpath, name))
        fsync_dir(Path(dirpath))


def atomic_write(path: Path, data: bytes, *, tmp_dir: Path | None = None, mode: int = 0o600) -> None:
    """Replace `path` with `data` so a reader sees either the old or the new bytes, never a mix.

    The temporary file is written in `tmp_dir` (default: next to `path`; must be on the same
    filesystem), fsynced, renamed over `path`, and `path`'s directory is fsynced. A crash before the
    rename leaves only a stray temporary file, which is garbage (the store's gc removes `tmp/`).

    >>> atomic_write(Path("HEAD"), b"0123...\\n")  # doctest: +SKIP
    """
    path = Path(path)
    where = Path(tmp_dir) if tmp_dir is not None else path.parent
    tmp = where / f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except FileNotFoundError:
            pass
        raise
    fsync_dir(path.parent)
