"""Segment files as opaque bytes: list them, checksum them, compare them with their FileEntries.

Owns: the recursive walk of a segment (or staged) directory, xxh3_128 file checksums, and the
comparison of a directory with the entries a manifest recorded (the core of `verify` and of the
cheap open-time size check). Does not own: which directory is which (`store.py`) or what the files
mean (lexical, vectors).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import msgspec
import xxhash

from indexlib.store.atomic import fsync_file
from indexlib.store.manifest import FileEntry

_CHUNK = 1 << 20


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """One thing wrong with an index file; `path` is relative to the index directory."""

    path: str
    kind: str  # "missing" | "size" | "checksum" | "extra"
    detail: str


def walk_files(root: Path) -> list[str]:
    """Relative POSIX paths of every regular file under `root`, sorted, so listings are deterministic.

    Symlinks and other special files are refused: a segment must be self-contained bytes.
    """
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root)
        for name in dirnames:
            if Path(dirpath, name).is_symlink():
                raise ValueError(f"symlink in segment directory: {Path(dirpath, name)}")
        for name in filenames:
            full = Path(dirpath, name)
            if full.is_symlink() or not full.is_file():
                raise ValueError(f"not a regular file in segment directory: {full}")
            found.append((rel_dir / name).as_posix())
    return sorted(found)


def checksum(path: Path, *, fsync: bool = False) -> tuple[int, str]:
    """(size, xxh3_128 hex) of a file's bytes; with fsync=True also flush it to disk first."""
    if fsync:
        fsync_file(path)
    hasher = xxhash.xxh3_128()
    size = 0
    with open(path, "rb", buffering=0) as handle:
        while chunk := handle.read(_CHUNK):
            hasher.update(chunk)
            size += len(chunk)
    return size, hasher.hexdigest()


def entries_for(root: Path, *, prefix: str = "", fsync: bool = False) -> list[FileEntry]:
    """FileEntries of every file under `root`, names prefixed by `prefix` (e.g. an attachment dir)."""
    entries = []
    for rel in walk_files(root):
        size, digest = checksum(root / rel, fsync=fsync)
        entries.append(FileEntry(name=f"{prefix}{rel}", size=size, xxh3=digest))
    return entries


def compare(
    seg_dir: Path,
    entries: Iterable[FileEntry],
    *,
    label: str,
    checksums: bool,
    ignore_top: frozenset[str] = frozenset(),
    extras: bool = True,
) -> list[Problem]:
    """Problems of `seg_dir` against the entries recorded for it.

    `label` prefixes reported paths (e.g. "segments/<id>"). With checksums=False only existence and
    sizes are checked (a stat per file: cheap enough for every open). With checksums=True files are
    also hashed and files not listed are reported as "extra", except under the top-level names in
    `ignore_top` (attachments another root owns), unless `extras` is False.
    """
    problems: list[Problem] = []
    listed: set[str] = set()
    for entry in entries:
        listed.add(entry.name)
        path = seg_dir / entry.name
        shown = f"{label}/{entry.name}"
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            problems.append(Problem(path=shown, kind="missing", detail="file is missing"))
            continue
        except NotADirectoryError:
            problems.append(
                Problem(path=shown, kind="missing", detail="a parent of the file is not a directory")
            )
            continue
        if size != entry.size:
            problems.append(
                Problem(path=shown, kind="size", detail=f"{size} bytes on disk, {entry.size} recorded")
            )
            continue
        if checksums:
            _size, digest = checksum(path)
            if digest != entry.xxh3:
                problems.append(
                    Problem(path=shown, kind="checksum", detail=f"xxh3 {digest}, {entry.xxh3} recorded")
                )
    if checksums and extras and seg_dir.is_dir():
        for rel in _walk_lenient(seg_dir):
            if rel in listed or rel.split("/", 1)[0] in ignore_top:
                continue
            problems.append(
                Problem(path=f"{label}/{rel}", kind="extra", detail="file is not in the manifest")
            )
    return problems


def _walk_lenient(root: Path) -> list[str]:
    """Like walk_files, but lists symlinks and special files too (verify reports, it does not refuse)."""
    found: list[str] = []
    for dirpath, _dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root)
        found.extend((rel_dir / name).as_posix() for name in filenames)
    return sorted(found)


def tree_size(path: Path) -> int:
    """Bytes used by the files under `path` (or by `path` itself if it is a file)."""
    if path.is_symlink() or path.is_file():
        return path.lstat().st_size
    total = 0
    for dirpath, _dirnames, filenames in os.walk(path):
        for name in filenames:
            try:
                total += Path(dirpath, name).lstat().st_size
            except FileNotFoundError:
                pass
    return total
