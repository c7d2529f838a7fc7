"""Run one grep: the files of the tree as it is now, narrowed by the n-gram index where it is current.

Owns: choosing, per file, whether the index can rule it out, and verifying every candidate against
the file's bytes. A file is trusted to the index only when its size and mtime equal the root's
record, its ctime is older than the root (an edit that restores size and mtime still moves the ctime),
and its segment has an n-gram index; then it is read only if the segment's trigram query names it. Every other file the walk finds (changed, added since the root, or outside the index's reach) is
read and searched directly, and files the root lists but the walk no longer finds are simply not
there. So the answer is always that of a scan of the tree as it is now. A pattern without a usable
trigram (`.`, `\\w+`, two-letter literals) makes every file a candidate: a scan.

Every file is read as rg reads it (`content.py`): whatever its size up to grep's memory bound (a
larger one is reported, `qry: warning: ...`, never skipped in silence), decoded lossily, and, if it
holds a NUL byte, searched only as far as rg's walk searches it (none of it when the NUL is in the
first 64 KiB; else the lines before, and rg's warning after them if one matched: `FileMatches.binary`).

Does not own: the pattern (`pattern.py`), line matching (`lines.py`), which files exist (`files.py`),
printing (the CLI).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import msgspec

from indexlib.grep.content import BUFFER, MAX_BYTES, Content, content, read_file, too_large
from indexlib.grep.files import FileFilter, WalkedFile, walk
from indexlib.grep.lines import Line, match_lines
from indexlib.grep.ngrams import GramQuery, trigram_query
from indexlib.grep.pattern import GrepPattern
from indexlib.store.manifest import Manifest
from indexlib.store.store import Store

__all__ = ["FileMatches", "GrepStats", "IndexRef", "grep_tree", "named_matches"]

IndexRef = tuple[Store, Manifest]  # an opened index and the manifest of the root grep reads
OnRefused = Callable[[str, str], None]  # (abspath, the OS's reason): a path grep may not read
OnSkipped = Callable[[str, str], None]  # (abspath, why): a file grep leaves out where rg would not
# A file is trusted to the index only if its ctime is older than the root by this much: Linux stamps
# file times from a clock updated once a tick (1-10 ms), which may lag time.time() by up to a tick.
# Small, since a file written within it before the build is read by every grep until the next build.
CTIME_SLACK_NS = 20_000_000


class FileMatches(NamedTuple):
    """The matching lines of one file; `path` is relative to the grep root (POSIX)."""

    path: str
    abspath: str
    text: str
    lines: list[Line]
    # A NUL byte's offset when rg says so after these lines (a walked file: `WARNING: stopped
    # searching binary file after match`; a named one: `binary file matches`); -1: no such note.
    binary: int = -1
    counted: int = 0  # with `binary`, for a named file: its matching lines as rg's `-c` counts them


class GrepStats:
    """How the answer was found: for the summary, diagnostics and the benchmarks."""

    __slots__ = ("candidates", "files", "from_index", "index_used", "matched", "notes", "query")

    def __init__(self) -> None:
        self.files = 0  # files the walk found and the filter kept
        self.from_index = 0  # of those, described by a current n-gram index
        self.candidates = 0  # files read and verified
        self.matched = 0
        self.index_used = False
        self.query: GramQuery = None
        self.notes: list[str] = []


class _IndexView:
    """The parts of a publish root grep needs: file records and, per segment, the candidate set."""

    def __init__(self, store: Store, manifest: Manifest, query: GramQuery) -> None:
        from indexlib.engines import lexical
        from indexlib.index.segtables import GRAM_PATHS, GRAMS

        self.source_root = Path(manifest.source_root)
        self.files = manifest.files
        # Files whose ctime is newer may have changed since the root was made, even with the size and
        # mtime it recorded (`cp -p`, `touch -r`): they are read, not trusted to the index. (A change
        # of that kind during the build itself, between its walk and its publish, is not seen.)
        self.trusted_before = int(manifest.created_at * 1e9) - CTIME_SLACK_NS
        self.query = query
        self.candidates: dict[str, frozenset[str] | None] = {}
        decoder = msgspec.msgpack.Decoder(list[str])
        for seg in manifest.segments:
            seg_dir = store.segment_dir(seg.id)
            if not (seg_dir / GRAMS).is_dir():
                self.candidates[seg.id] = None  # no n-gram index: every file is a candidate
                continue
            if query is None:
                self.candidates[seg.id] = None
                continue
            try:
                paths = decoder.decode((seg_dir / GRAM_PATHS).read_bytes())
            except (OSError, msgspec.DecodeError) as exc:
                from indexlib.errors import IndexCorrupt

                raise IndexCorrupt(
                    f"cannot read {seg_dir / GRAM_PATHS}: {exc}",
                    hint="run `qry verify`, then `qry index --rebuild`",
                ) from exc
            ords = lexical.GramIndex(seg_dir / GRAMS, store.path).candidates(query)
            self.candidates[seg.id] = frozenset(paths[i] for i in ords if i < len(paths))

    def indexed(self, path: str, size: int, mtime_ns: int) -> bool:
        """Whether the root holds this file as it is now (so it passed the content checks)."""
        rec = self.files.get(path)
        return rec is not None and rec.size == size and rec.mtime_ns == mtime_ns


def _open_index(index: IndexRef | None, root: Path, query: GramQuery, stats: GrepStats) -> _IndexView | None:
    if index is None:
        return None
    view = _IndexView(index[0], index[1], query)
    if os.path.realpath(view.source_root) != os.path.realpath(root):
        stats.notes.append(f"the index describes {view.source_root}, not {root}: scanning")
        return None
    return view


def _read(src: WalkedFile, on_refused: OnRefused, on_skipped: OnSkipped) -> Content | None:
    """The file as rg reads it; None when it cannot be read, which `on_refused(abspath, reason)`
    hears of when the OS refused it (as rg reports it; a file gone since the walk is not an error),
    or is over grep's bound (`on_skipped`). The common path imports nothing."""
    if src.size > MAX_BYTES:
        on_skipped(src.abspath, too_large(src.size))
        return None
    try:
        data = read_file(src.abspath)
    except OSError as exc:
        from indexlib.index.discover import os_error_skip, refused

        skipped = os_error_skip(src.path, exc)
        if refused(skipped):
            on_refused(src.abspath, skipped.detail)
        return None
    if len(data) > MAX_BYTES:  # it grew since the walk
        on_skipped(src.abspath, too_large(len(data)))
        return None
    return content(data)


def _matches(
    src: WalkedFile, got: Content, regex: re.Pattern[str], max_count: int | None, after: int
) -> FileMatches | None:
    """The matching lines rg's walk prints for a file (see the module docstring)."""
    if got.nul < 0:
        lines = match_lines(got.text, regex, max_count, after)
        return FileMatches(src.path, src.abspath, got.text, lines) if lines else None
    if got.cut == 0:
        return None  # a NUL in rg's first buffer: rg skips the file in silence
    text = got.text[: got.cut]
    lines = match_lines(text, regex, max_count, after)
    if not lines:
        return None
    reached = max_count is None or len(lines) < max_count  # rg read on to the NUL's buffer
    return FileMatches(src.path, src.abspath, text, lines, got.nul if reached else -1)


def named_matches(
    got: Content, regex: re.Pattern[str], max_count: int | None, after: int, *, mapped: bool
) -> FileMatches | None:
    """What rg prints for a file named on its command line (binary "convert" mode, `content.py`).

    `mapped`: rg maps the file (up to ten PATHs, all files) and looks for a NUL in its first 64 KiB,
    then in each line it prints: it stops at the first matching line holding one. Else it reads
    buffers, each NUL becoming a line end, prints the lines before the NUL's buffer, then
    `binary file matches` if anything matched. `-c` counts the whole file."""
    if got.nul < 0 or (mapped and got.nul >= BUFFER):
        lines = match_lines(got.text, regex, max_count, after)
        if not lines:
            return None
        text = got.text
        first = next((i for i, (_n, s, e) in enumerate(lines) if text.find("\0", s, e) >= 0), -1)
        if got.nul < 0 or first < 0:
            return FileMatches("", "", text, lines)
        nul = text.find("\0", lines[first][1])
        offset = len(text[:nul].encode("utf-8", "surrogateescape"))
        return FileMatches("", "", text, lines[:first], offset, len(lines))
    before = got.text[: got.cut]
    lines = match_lines(before, regex, max_count, after)
    count = len(match_lines(got.text if mapped else got.text.replace("\0", "\n"), regex, max_count))
    if not count:
        return None
    reached = max_count is None or len(lines) < max_count
    return FileMatches("", "", before, lines, got.nul if reached else -1, count)


def grep_tree(
    pattern: GrepPattern,
    root: Path,
    flt: FileFilter,
    *,
    index: IndexRef | None = None,
    no_ignore: bool = False,
    max_count: int | None = None,
    after: int = 0,
    stats: GrepStats | None = None,
    on_refused: OnRefused = lambda _p, _r: None,
    on_skipped: OnSkipped = lambda _p, _r: None,
) -> Iterator[FileMatches]:
    """Every file under `root` with at least one matching line, in path order, with those lines.

    `index` is an opened store and its root manifest, of `root`; without one (or for another root) the tree is scanned.
    `on_refused(abspath, reason)` hears of each folder or file searched for that the OS refused,
    `on_skipped(abspath, why)` of each file left out where rg would search it (over `MAX_BYTES`).
    `after`: with `max_count`, matching lines within this many lines after the last counted one count
    too (`match_lines`).
    """
    stats = stats if stats is not None else GrepStats()
    query = trigram_query(pattern.source)
    stats.query = query
    view = _open_index(index, root, query, stats)
    stats.index_used = view is not None
    regex = pattern.regex
    cache_dir = index[0].path / "cache" if index is not None and view is not None else None
    indexed = view.indexed if view is not None else (lambda _p, _s, _m: False)
    files = view.files if view is not None else {}
    cands = view.candidates if view is not None else {}
    before = view.trusted_before if view is not None else 0
    listing = walk(
        root, flt, no_ignore=no_ignore, cache_dir=cache_dir, indexed=indexed, on_refused=on_refused
    )
    for src in listing:
        stats.files += 1
        # Inline `view.verdict` (this loop runs once per file of the tree): None means not described.
        verdict: bool | None = None
        rec = files.get(src.path)
        if (
            rec is not None
            and rec.size == src.size
            and rec.mtime_ns == src.mtime_ns
            and src.ctime_ns < before
        ):
            seg = cands.get(rec.segment)
            if seg is not None:
                verdict = src.path in seg
        if verdict is not None:
            stats.from_index += 1
            if not verdict:
                continue
        stats.candidates += 1
        got = _read(src, on_refused, on_skipped)
        found = _matches(src, got, regex, max_count, after) if got is not None else None
        if found is not None:
            stats.matched += 1
            yield found
