"""The last walk of an indexed tree (in the index's `cache/`), reused while nothing it depends on changed.

Owns: `cached_walk`, which answers "what would `discover(root, read=False)` list now?" without
walking, when it can prove the answer is the same as last time; otherwise it walks and saves.

Why this is exact. A walk's listing depends on (1) the names in every directory it listed, (2) the
stat of every file it saw (size limit, regular file or not), (3) the bytes of ignore files and of
files with no extension (`shebang_decides`: their shebang decides the language), and (4) the ignore
files above the root and the root's own `.git/info/exclude` (the walk never lists `.git`, so no
recorded folder covers it). (1) changes the directory's mtime (creating, deleting or renaming an entry updates it), and (2)
and (3) change the file's stat. So the saved listing stands when every recorded directory and file
stat is unchanged, and so do the ignore files above the root and the root's exclude file. A stat
here is (size,) mtime and ctime, all in nanoseconds: any write, chmod or rename sets ctime to now,
and unlike mtime it cannot be set back (`cp -p`, `touch -r`, `rsync -a` and `tar -x` restore the
mtime, and an edit that also keeps the size was not seen when only mtimes were compared); git's
`core.checkStat` compares ctime for the same reason. Source files may change in place (that is what
editing is): they are stat'ed, and their new stat replaces the old, as long as the change cannot
alter how discovery classifies them (their language comes from their name, they are not ignore
files, and they stay under the size limit); anything else walks again. Each listed file carries its
ctime, so the grep trusts the n-gram index only for files not changed since the index was built
(`run.py`); the index's own incremental rule (size and mtime, as `qry status`) is unchanged.

The listing is grep's, not the index's: no size limit (`content.py` reads and bounds each file), and
lock files, `*.min.js` and source maps, which discovery skips by name, are listed too, as rg
searches them. `-g` globs override the ignore files and the hidden rule as rg's do (`override_lines`:
discovery's command-line excludes outrank every ignore file, and a hidden name they re-include is
searched), so a listing made with globs is kept in its own file, beside the plain one.

The cache is an optimisation only: unreadable, from another qry, for another root, or unwritable
(a read-only index) means a plain walk. It is written atomically (temporary file, rename), and not
at all after a walk the OS refused a folder or file (a permission restored later is not an mtime).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from indexlib.grep.content import BUFFER
from indexlib.grep.files import WalkedFile, override_lines
from indexlib.records import IGNORE_FILES, SkipReason

__all__ = ["CACHE_NAME", "GLOBS_CACHE_NAME", "cached_walk"]

CACHE_NAME = "grep-walk.msgpack"
GLOBS_CACHE_NAME = "grep-walk-globs.msgpack"  # the last listing made with `-g` globs
# 11: a file whose name's last dot starts no extension (`node 0.6.21 should install`) is read for a
# shebang, as one with no dot is (10: files in rg --sort path's order; 9: no size limit, files
# skipped by name listed, `-g` overrides, a file rejected only for a NUL in rg's first buffer; 8:
# generated files are searched; 7: files no language claims are listed; 6: ctimes, the root's
# exclude file)
_VERSION = 11
NO_SIZE_LIMIT = 1 << 62  # the walk's size test: grep reads any size (content.MAX_BYTES warns)
# Files discovery skips by their name alone, which rg searches (lock files, `*.min.js`, `*.map`).
_BY_NAME = frozenset({SkipReason.LOCK_FILE.value, SkipReason.MINIFIED.value})
OnRefused = Callable[[str, str], None]  # (path relative to the root, the OS's reason)

if TYPE_CHECKING:
    from indexlib.index.discover import Skipped, SourceFile, WalkRecord


class _Cache(msgspec.Struct, array_like=True, gc=False):
    version: int
    root: str
    no_ignore: bool
    globs: list[str]
    dirs: list[tuple[str, int, int]]  # (abspath, mtime_ns, ctime_ns)
    others: list[tuple[str, int, int, int]]  # non-source file entries: (abspath, size, mtime_ns, ctime_ns)
    above: list[tuple[str, int, int]]  # `_above`: (path, mtime_ns, ctime_ns), (path, -1, -1) if absent
    # path, abspath, size, mtime, ctime, language, by_name, unhidden
    sources: list[tuple[str, str, int, int, int, str, bool, bool]]
    rejected: list[
        tuple[str, int, int, int]
    ]  # sources the content checks skip: (abspath, size, mtime, ctime)


def _stamp(path: str) -> tuple[str, int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (path, -1, -1)
    return (path, st.st_mtime_ns, st.st_ctime_ns)


def _above(root: str) -> list[tuple[str, int, int]]:
    """The stamps of what the walk reads outside the folders it lists: the ignore files and `.git` of
    every folder above the root, and the exclude file of the root and of each folder above (where `ignore.base_stack` reads it: `.git/info/exclude`, or the common git
    directory's for a worktree). Called when the walk is saved; a load re-stamps the same paths. The
    root's `.git` is not stamped: git rewrites files in it all the time (its mtime moves with every
    `git status`), and one appearing or vanishing changes the root's own, recorded, mtime."""
    from indexlib.index.discover.ignore import exclude_file

    out: list[tuple[str, int, int]] = []
    cur = root
    while True:
        paths = [os.path.join(cur, ".git", "info", "exclude")]
        exclude = exclude_file(cur)
        if exclude is not None and exclude not in paths:
            paths.append(exclude)
        if cur != root:  # the root's own `.git` and ignore files are entries of a recorded folder
            paths += [os.path.join(cur, ".git"), *(os.path.join(cur, name) for name in IGNORE_FILES)]
        out += [_stamp(p) for p in paths]
        parent = os.path.dirname(cur)
        if parent == cur:
            return out
        cur = parent


def _load(path: Path, root: str, no_ignore: bool, globs: list[str]) -> list[WalkedFile] | None:
    try:
        cache = msgspec.msgpack.decode(path.read_bytes(), type=_Cache)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None
    if (cache.version, cache.root, cache.no_ignore, cache.globs) != (_VERSION, root, no_ignore, globs):
        return None
    stat = os.stat
    try:
        for d, mtime, ctime in cache.dirs:
            st = stat(d)
            if st.st_mtime_ns != mtime or st.st_ctime_ns != ctime:
                return None
        for f, size, mtime, ctime in cache.others:
            st = stat(f)
            if st.st_size != size or st.st_mtime_ns != mtime or st.st_ctime_ns != ctime:
                return None
    except OSError:
        return None
    if any(_stamp(p) != (p, mtime, ctime) for p, mtime, ctime in cache.above):
        return None
    rejected = {a: (size, mtime, ctime) for a, size, mtime, ctime in cache.rejected}
    out: list[WalkedFile] = []
    for rel, abspath, size, mtime, ctime, language, by_name, unhidden in cache.sources:
        try:
            st = stat(abspath)
        except OSError:
            return None
        if st.st_size != size or st.st_mtime_ns != mtime or st.st_ctime_ns != ctime:
            if not by_name:
                return None
            size, mtime, ctime = st.st_size, st.st_mtime_ns, st.st_ctime_ns
        elif rejected.get(abspath) == (size, mtime, ctime):
            continue  # a NUL in rg's first buffer (rg skips it), and unchanged since it was checked
        out.append(WalkedFile(rel, abspath, size, mtime, language, unhidden, ctime))
    return out


def _name_decided(abspath: str) -> bool:
    """Whether a listed file that is not a source stays one whatever its size, mode or bytes.

    True for a name discovery refuses by name alone (a lock file, `*.min.js`), unless it is an ignore
    file: its stat is not saved and not checked. Replacing it by another kind of entry changes the
    directory's mtime, which is checked. Every other entry keeps its stat: a file no language claims
    is listed (grep searches it) or not by its size, and an ignored one may be re-included.
    """
    from indexlib.index.discover.checks import name_check

    name = abspath.rsplit(os.sep, 1)[-1]
    return name not in IGNORE_FILES and name_check(name) is not None


def _listed(item: Skipped, root: Path, real_root: str) -> SourceFile | None:
    """A file discovery skips by its name (a lock file, `*.min.js`), as grep lists it: rg searches it."""
    from indexlib.index.discover import SourceFile
    from indexlib.index.parsing.languages import detect_language

    abspath = os.path.join(root, item.path)
    try:
        st = os.stat(abspath)
        real = os.path.relpath(os.path.realpath(abspath), real_root).replace(os.sep, "/")
    except (OSError, ValueError):
        return None
    if real.startswith("../"):
        return None
    language = detect_language(item.path) or ""
    return SourceFile(
        path=item.path, abspath=abspath, size=st.st_size, mtime_ns=st.st_mtime_ns, language=language,
        root=real_root, real=real, ctime_ns=st.st_ctime_ns,
    )  # fmt: skip


def _first_buffer_binary(src: SourceFile) -> bool | OSError:
    """Whether rg's walk skips the file in silence: a NUL in its first read buffer (`content.py`)."""
    from indexlib.index.discover.beneath import read_beneath

    try:
        head = read_beneath(src.root, src.real, BUFFER + 3)
    except OSError as exc:
        return exc
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return False  # UTF-16: transcoded first; the whole file is checked when it is read
    return b"\0" in (head[3:] if head[:3] == b"\xef\xbb\xbf" else head[:BUFFER])


def _walk(
    root: Path, no_ignore: bool, globs: list[str], record: WalkRecord, on_refused: OnRefused
) -> tuple[list[SourceFile], bool]:
    """grep's listing of `root` (see the module docstring), and whether no entry was refused."""
    from indexlib.index.discover import SourceFile, discover, refused

    sources: list[SourceFile] = []
    complete = True
    real_root = os.path.realpath(root)
    for item in discover(
        root, read=False, use_ignore_files=not no_ignore, record=record, unparsed=True,
        max_file_bytes=NO_SIZE_LIMIT, extra_excludes=override_lines(tuple(globs)),
    ):  # fmt: skip
        if isinstance(item, SourceFile):
            sources.append(item)
        elif item.reason in _BY_NAME:
            named = _listed(item, root, real_root)
            if named is not None:
                sources.append(named)
        elif refused(item):
            on_refused("" if item.path == "." else item.path, item.detail)
            complete = False
    return sources, complete


def _walk_and_save(
    root: Path,
    no_ignore: bool,
    globs: list[str],
    path: Path | None,
    indexed: Callable[[str, int, int], bool],
    on_refused: OnRefused,
) -> list[WalkedFile]:
    """Walk `root`; save the listing to `path` unless the walk met an entry the OS refused.

    Why not save then: making a folder or a file readable again changes its ctime, not the mtime
    this cache checks, so a saved listing would hide it (and say nothing) for as long as it stood."""
    from indexlib.index.discover import WalkRecord
    from indexlib.index.parsing.languages import detect_language, shebang_decides

    def by_name(path: str) -> bool:
        """Whether an edit leaves the file's classification alone: its language comes from its name
        (or, with an extension no language claims, is "" whatever its bytes; only a file with no
        extension is read for a shebang); an ignore file's edit does not."""
        name = path.rsplit("/", 1)[-1]
        return name not in IGNORE_FILES and (detect_language(path) is not None or not shebang_decides(name))

    record = WalkRecord()
    above = _above(str(root))
    sources, complete = _walk(root, no_ignore, globs, record, on_refused)
    # In `rg --sort path`'s order: by path components, so a folder's files come before a file named
    # as the folder plus a suffix (`rack/protection/base.rb`, then `rack/protection.rb`), where the
    # code-point order of whole paths, the index's, puts `.` before `/`.
    sources.sort(key=lambda s: s.path.split("/"))
    out = [
        WalkedFile(s.path, s.abspath, s.size, s.mtime_ns, s.language, s.unhidden, s.ctime_ns) for s in sources
    ]
    if path is None or not complete:
        return out
    source_paths = {s.abspath for s in sources}
    # Files the index does not hold are checked once here, so later greps skip the ones rg skips
    # (a NUL in its first buffer) without reading them; the index holds none of those.
    checked = [(s, _first_buffer_binary(s)) for s in sources if not indexed(s.path, s.size, s.mtime_ns)]
    if any(isinstance(got, OSError) for _s, got in checked):
        return out  # the grep reports the unreadable file when it reads it; no listing is kept
    rejected = [(s.abspath, s.size, s.mtime_ns, s.ctime_ns) for s, got in checked if got is True]
    cache = _Cache(
        version=_VERSION,
        root=str(root),
        no_ignore=no_ignore,
        globs=globs,
        dirs=record.dirs,
        others=[f for f in record.files if f[0] not in source_paths and not _name_decided(f[0])],
        above=above,
        sources=[
            (s.path, s.abspath, s.size, s.mtime_ns, s.ctime_ns, s.language, by_name(s.path), s.unhidden)
            for s in sources
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
    globs: Sequence[str] = (),
    indexed: Callable[[str, int, int], bool] = lambda _p, _s, _m: False,
    on_refused: OnRefused = lambda _p, _r: None,
) -> list[WalkedFile]:
    """Every file grep's walk lists now (see the module docstring), sorted by path, from the cache if
    it is valid. `globs`: the `-g` globs, which re-include ignored and hidden files as rg's do.

    With a cache, files rg's walk skips in silence (a NUL in its first buffer) and that
    `indexed(path, size, mtime)` does not vouch for are left out while unchanged; without one, every
    listed file is returned. `on_refused(path, reason)` hears of each folder or file the walk may
    not read (path relative to the root, "" for the root itself); a cached listing never holds one,
    so a hit has none."""
    globs = list(globs)
    name = GLOBS_CACHE_NAME if globs else CACHE_NAME
    path = cache_dir / name if cache_dir is not None else None
    if path is None:
        return _walk_and_save(root, no_ignore, globs, None, lambda _p, _s, _m: True, on_refused)
    hit = _load(path, str(root), no_ignore, globs)
    if hit is not None:
        return hit
    return _walk_and_save(root, no_ignore, globs, path, indexed, on_refused)
