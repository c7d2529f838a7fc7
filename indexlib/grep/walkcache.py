"""The last walk of an indexed tree (in the index's `cache/`), reused while nothing it depends on changed.

Owns: `cached_walk`, which answers "what would `discover(root, read=False)` list now?" without
walking, when it can prove the answer is the same as last time; otherwise it walks and saves.

Why this is exact. A walk's listing depends on (1) the names in every directory it listed, (2) the
stat of every file it saw (size limit, regular file or not), (3) the bytes of ignore files and of
extension-less files (their shebang decides the language), and (4) the ignore files above the root.
(1) changes the directory's mtime (creating, deleting or renaming an entry updates it), and (2) and
(3) change the file's mtime or size. So the saved listing stands when every recorded directory
mtime and every recorded file stat is unchanged, and the ignore files above the root have the same
stat. Source files may change in place (that is what editing is): they are stat'ed, and their new
size and mtime replace the old, as long as the change cannot alter how discovery classifies them
(their language comes from their name, they are not ignore files, and they stay under the size
limit); anything else walks again.
Like git's index, it trusts mtimes: a change that keeps a file's size and nanosecond mtime is not
seen (the same limit as `qry status` and incremental builds).

The cache is an optimisation only: unreadable, from another qry, for another root, or unwritable
(a read-only index) means a plain walk. It is written atomically (temporary file, rename), and not
at all after a walk the OS refused a folder or file (a permission restored later is not an mtime).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import msgspec

from indexlib.grep.files import WalkedFile
from indexlib.records import IGNORE_FILES

__all__ = ["CACHE_NAME", "cached_walk"]

CACHE_NAME = "grep-walk.msgpack"
_VERSION = 5  # 5: `.ignore`, `.rgignore`, and `unhidden` (4: build output only where a build puts it)
MAX_FILE_BYTES = 1 << 20  # discover's default, the limit the index was built with
OnRefused = Callable[[str, str], None]  # (path relative to the root, the OS's reason)


class _Cache(msgspec.Struct, array_like=True, gc=False):
    version: int
    root: str
    no_ignore: bool
    dirs: list[tuple[str, int]]
    others: list[tuple[str, int, int]]  # non-source file entries: (abspath, size, mtime_ns)
    above: list[tuple[str, int]]  # ignore files above the root: (path, mtime_ns or -1)
    # path, abspath, size, mtime, language, by_name, unhidden
    sources: list[tuple[str, str, int, int, str, bool, bool]]
    rejected: list[tuple[str, int, int]]  # sources the content checks skip: (abspath, size, mtime_ns)


def _above(root: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    cur = os.path.dirname(root)
    names = (*IGNORE_FILES, os.path.join(".git", "info", "exclude"), ".git")
    while True:
        for name in names:
            p = os.path.join(cur, name)
            try:
                out.append((p, os.stat(p).st_mtime_ns))
            except OSError:
                out.append((p, -1))
        parent = os.path.dirname(cur)
        if parent == cur:
            return out
        cur = parent


def _load(path: Path, root: str, no_ignore: bool) -> list[WalkedFile] | None:
    try:
        cache = msgspec.msgpack.decode(path.read_bytes(), type=_Cache)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None
    if cache.version != _VERSION or cache.root != root or cache.no_ignore != no_ignore:
        return None
    stat = os.stat
    try:
        for d, mtime in cache.dirs:
            if stat(d).st_mtime_ns != mtime:
                return None
        for f, size, mtime in cache.others:
            st = stat(f)
            if st.st_size != size or st.st_mtime_ns != mtime:
                return None
    except OSError:
        return None
    if _above(root) != cache.above:
        return None
    rejected = {a: (size, mtime) for a, size, mtime in cache.rejected}
    out: list[WalkedFile] = []
    for rel, abspath, size, mtime, language, by_name, unhidden in cache.sources:
        try:
            st = stat(abspath)
        except OSError:
            return None
        if st.st_size != size or st.st_mtime_ns != mtime:
            if not by_name or st.st_size > MAX_FILE_BYTES:
                return None
            size, mtime = st.st_size, st.st_mtime_ns
        elif rejected.get(abspath) == (size, mtime):
            continue  # binary, not UTF-8, minified or generated, and unchanged since it was checked
        out.append(WalkedFile(rel, abspath, size, mtime, language, unhidden))
    return out


def _name_decided(abspath: str) -> bool:
    """Whether a listed file that is not a source stays one whatever its size, mode or bytes.

    True for a name with an extension no language claims, unless it is an ignore file: discovery then
    skips it (ignored, not a regular file, refused by name, or unsupported) without its stat mattering,
    so its stat is not saved and not checked. Replacing it by another kind of entry changes the
    directory's mtime, which is checked. Extension-less files (the shebang decides) and too-large
    sources (their size decides) keep their stat.
    """
    from indexlib.index.parsing.languages import detect_language

    name = abspath.rsplit(os.sep, 1)[-1]
    return name not in IGNORE_FILES and "." in name.lstrip(".") and detect_language(name) is None


def _walk_and_save(
    root: Path,
    no_ignore: bool,
    path: Path | None,
    indexed: Callable[[str, int, int], bool],
    on_refused: OnRefused,
) -> list[WalkedFile]:
    """Walk `root`; save the listing to `path` unless the walk met an entry the OS refused.

    Why not save then: making a folder or a file readable again changes its ctime, not the mtime
    this cache checks, so a saved listing would hide it (and say nothing) for as long as it stood."""
    from indexlib.index.discover import SourceFile, WalkRecord, discover, load, refused
    from indexlib.index.parsing.languages import detect_language

    def by_name(path: str) -> bool:
        """Whether an edit leaves the file's classification alone (an ignore file's edit does not)."""
        return path.rsplit("/", 1)[-1] not in IGNORE_FILES and detect_language(path) is not None

    record = WalkRecord()
    above = _above(str(root))
    sources: list[SourceFile] = []
    complete = True
    for item in discover(root, read=False, use_ignore_files=not no_ignore, record=record):
        if isinstance(item, SourceFile):
            sources.append(item)
        elif refused(item):
            on_refused("" if item.path == "." else item.path, item.detail)
            complete = False
    out = [WalkedFile(s.path, s.abspath, s.size, s.mtime_ns, s.language, s.unhidden) for s in sources]
    if path is None or not complete:
        return out
    source_paths = {s.abspath for s in sources}
    # Files the index does not hold are content-checked once here, so later greps skip the rejected
    # ones without reading them (the index holds only files that passed, so those need no check).
    checked = [(s, load(s)) for s in sources if not indexed(s.path, s.size, s.mtime_ns)]
    if any(not isinstance(got, SourceFile) and refused(got) for _s, got in checked):
        return out  # the grep reports the unreadable file when it reads it; no listing is kept
    rejected = [(s.abspath, s.size, s.mtime_ns) for s, got in checked if not isinstance(got, SourceFile)]
    cache = _Cache(
        version=_VERSION,
        root=str(root),
        no_ignore=no_ignore,
        dirs=record.dirs,
        others=[f for f in record.files if f[0] not in source_paths and not _name_decided(f[0])],
        above=above,
        sources=[
            (s.path, s.abspath, s.size, s.mtime_ns, s.language, by_name(s.path), s.unhidden) for s in sources
        ],
        rejected=rejected,
    )
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        tmp.write_bytes(msgspec.msgpack.encode(cache))
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
    return out


def cached_walk(
    root: Path,
    *,
    no_ignore: bool,
    cache_dir: Path | None,
    indexed: Callable[[str, int, int], bool] = lambda _p, _s, _m: False,
    on_refused: OnRefused = lambda _p, _r: None,
) -> list[WalkedFile]:
    """Every file `discover(root, read=False)` would list now, sorted by path (from the cache if valid).

    With a cache, files the content checks reject (and that `indexed(path, size, mtime)` does not
    vouch for) are left out while unchanged; without one, every listed file is returned.
    `on_refused(path, reason)` hears of each folder or file the walk may not read (path relative to
    the root, "" for the root itself); a cached listing never holds one, so a hit has none."""
    path = cache_dir / CACHE_NAME if cache_dir is not None else None
    if path is None:
        return _walk_and_save(root, no_ignore, None, lambda _p, _s, _m: True, on_refused)
    hit = _load(path, str(root), no_ignore)
    if hit is not None:
        return hit
    return _walk_and_save(root, no_ignore, path, indexed, on_refused)
