"""`qry grep` as one library call: a request -> matching files handed to a callback -> a summary.

Owns: where the grep runs. PATH arguments inside the indexed tree become path filters over one
indexed pass (the walk always starts at the index's root, so ignore files above a PATH apply as
they do at indexing); a folder outside it is scanned as its own root; a file named on the command
line is searched even if an ignore rule or a filter would skip it, as in ripgrep, unless
discovery's content checks skip it (unreadable, binary, not UTF-8, minified, generated, over 1 MiB).
With no index named (`--index-dir`, `$QRY_INDEX_DIR`) and none found above the working directory,
the tree is scanned and the caller is told once (`notice`); a named one that is not an index is an
error, as for a search. A PATH that does not exist, and a folder or file the OS refuses, is
reported to the caller (`on_error`) and left out, as rg does; the rest is still searched. Paths are
reported relative to the working directory when below it, else absolute.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from re import Pattern

import msgspec

from indexlib.errors import UsageError
from indexlib.grep.files import FileFilter, relative_target, split_filters
from indexlib.grep.lines import Line, match_lines
from indexlib.grep.pattern import compile_pattern
from indexlib.grep.records import GrepLine, GrepResult, GrepSummary
from indexlib.grep.run import GrepStats, IndexRef, grep_tree

__all__ = ["GrepRequest", "OnError", "OnFile", "Stop", "bounded_grep", "run_grep"]

# display path, text, matching lines, the compiled regex, whether to print the path
OnFile = Callable[[str, str, list[Line], Pattern[str], bool], None]
OnError = Callable[[str, str], None]  # a path as shown, why it could not be searched (the OS's words)

NO_INDEX_NOTICE = "no index found: scanning the tree (`qry index` builds one and makes grep faster)"


class Stop(Exception):
    """Raised by a callback to end the grep early (a bound was reached); the summary says truncated."""


class GrepRequest(msgspec.Struct, frozen=True, kw_only=True):
    """One grep, as the CLI and the MCP server ask for it."""

    pattern: str
    args: list[str] = []  # PATHs and lang:/path:/-path: filters
    fixed: bool = False
    ignore_case: bool = False
    smart_case: bool = False
    word: bool = False
    max_count: int | None = None
    globs: list[str] = []
    hidden: bool = False
    no_ignore: bool = False
    use_index: bool = True
    index_dir: str | None = None
    cwd: str | None = None


def _display(abspath: str, cwd: str) -> str:
    prefix = cwd.rstrip(os.sep) + os.sep
    if abspath.startswith(prefix) and os.sep == "/":  # the common case, without relpath's normalising
        rest = abspath[len(prefix) :]
        if "/." not in "/" + rest:  # no `.` / `..` components to normalise away
            return rest
    rel = os.path.relpath(abspath, cwd)
    return abspath if rel.startswith(os.pardir) else rel.replace(os.sep, "/")


def _find_index(req: GrepRequest, cwd: Path) -> Path | None:
    """The index directory to read, or None when grep scans.

    A directory named by `--index-dir` or `$QRY_INDEX_DIR` is the user's answer to "which index":
    it must be one, and `_open_index` reports it as `qry search` does when it is not. Only when none
    is named and no `.qry` lies above `cwd` does grep scan. `--no-index` reads no index at all, so a
    named one is not looked at (a `$QRY_INDEX_DIR` exported for other commands stays harmless).
    """
    if not req.use_index:
        return None
    from indexlib.store.locate import ENV_VAR, find_index, resolve_index_dir

    if req.index_dir or os.environ.get(ENV_VAR):
        return resolve_index_dir(Path(req.index_dir) if req.index_dir else None)
    return find_index(cwd)


def _open_index(
    req: GrepRequest, cwd: Path, notice: Callable[[str], None]
) -> tuple[Path | None, IndexRef | None]:
    """The indexed tree's root and its current index, or (None, None) when grep must scan.

    A named index goes through `Store.open` and `load` as a search's does, so a missing folder, a
    file, a folder that is no index and an index with no root yet are the same errors (exit 2) with
    the same hints; a found `.qry` always holds a HEAD (`find_index`)."""
    index_dir = _find_index(req, cwd)
    if index_dir is None:
        if req.use_index:
            notice(NO_INDEX_NOTICE)
        return None, None
    from indexlib.errors import FormatVersionError
    from indexlib.store.store import Store

    store = Store.open(index_dir)
    try:
        manifest = store.load()[1]
    except FormatVersionError as exc:  # an index of another qry: grep stays exact by scanning
        notice(f"{exc.message}: scanning the tree (`qry index` rebuilds the index)")
        return None, None
    return Path(manifest.source_root), (store, manifest)


def _split_targets(
    targets: list[Path], root: Path | None, notice: Callable[[str], None], *, no_ignore: bool = False
) -> tuple[list[Path], list[str], list[Path]]:
    """The targets as (single files, folders inside the indexed tree relative to it, other folders).

    A folder inside the tree that the walk from its root skips (vendored, build output, ignored) is
    scanned as its own root, as a scan without the index does and as ripgrep searches a folder named
    on its command line."""
    indexed: list[str] = []
    others: list[Path] = []
    files: list[Path] = []
    for t in targets:
        if t.is_file():
            files.append(t)
            continue
        rel = relative_target(root, t) if root is not None else None
        if rel is None:
            if root is not None:
                notice(f"{t} is outside the indexed tree ({root}): scanning it")
            others.append(t)
        elif rel and root is not None and not _walked(root, rel, no_ignore):
            others.append(t)
        else:
            indexed.append(rel)
    return files, indexed, others


def _walked(root: Path, rel: str, no_ignore: bool) -> bool:
    from indexlib.index.discover import walks_into

    return walks_into(root, rel, use_ignore_files=not no_ignore)


def _named_targets(paths: list[str], cwd: Path, on_error: OnError) -> list[tuple[str, Path]]:
    """The PATH arguments that can be searched, as (as typed, absolute path).

    Each other one is reported as rg reports it, `on_error(PATH, reason)` (missing, a folder that
    may not be listed, a parent that may not be entered), and left out, so the rest is still
    searched and the exit status says 2. A file that may not be read is reported when it is read."""
    usable: list[tuple[str, Path]] = []
    for p in paths:
        target = Path(cwd, p)
        try:
            if stat.S_ISDIR(os.stat(target).st_mode):
                os.scandir(target).close()
        except OSError as exc:
            on_error(p, exc.strerror or type(exc).__name__)
            continue
        usable.append((p, target))
    return usable


def _grep_one_file(
    f: Path,
    shown: str,
    regex: Pattern[str],
    max_count: int | None,
    stats: GrepStats,
    emit: Callable[[str, str, list[Line]], None],
    on_error: OnError,
) -> None:
    """A file named on the command line (`shown` as typed): searched whatever the ignore rules say,
    if it is text. A link named there is followed, as rg follows it: `load` opens without following
    links (right for what a walk finds), which skipped a named link as unreadable, in silence."""
    from indexlib.index.discover import SourceFile, load, refused

    stats.files += 1
    real = os.path.realpath(f)
    loaded = load(SourceFile(path=f.name, abspath=real, size=0, mtime_ns=0, language=""))
    if not isinstance(loaded, SourceFile):
        if refused(loaded):
            on_error(shown, loaded.detail)
        return
    if loaded.data is not None:
        stats.candidates += 1
        text = loaded.data.decode("utf-8-sig", "surrogateescape")
        found = match_lines(text, regex, max_count)
        if found:
            stats.matched += 1
            emit(str(f), text, found)


def run_grep(
    req: GrepRequest,
    on_file: OnFile,
    *,
    notice: Callable[[str], None] = lambda _m: None,
    on_error: OnError = lambda _p, _r: None,
) -> GrepSummary:
    """Grep the tree(s) the request names, calling `on_file` for each matching file in path order.

    `on_error(path, reason)` hears of each PATH argument, folder or file that could not be searched
    (missing, or refused by the OS), as rg reports them; the grep goes on with the rest."""
    cwd = Path(req.cwd or os.getcwd())
    pattern = compile_pattern(
        req.pattern, fixed=req.fixed, ignore_case=req.ignore_case, smart_case=req.smart_case, word=req.word
    )
    if req.max_count is not None and req.max_count < 0:
        raise UsageError("--max-count must be 0 or more", hint="see: qry grep --help")
    paths, filters = split_filters(req.args)

    def file_filter(targets: tuple[str, ...]) -> FileFilter:
        return FileFilter(
            hidden=req.hidden,
            globs=tuple(req.globs),
            langs=tuple(filters["lang"]),
            paths=tuple(filters["path"]),
            exclude_paths=tuple(filters["-path"]),
            targets=targets,
        )

    file_filter(())  # a bad lang: or glob is an error before any file is read
    named = _named_targets(paths, cwd, on_error)
    targets = [t for _p, t in named] if paths else [cwd]
    shown = {t: p for p, t in named}
    show_path = not (len(paths) == 1 and len(targets) == 1 and targets[0].is_file())
    stats = GrepStats()
    lines_matched = 0
    truncated = False
    root, index = _open_index(req, cwd, notice if targets else lambda _m: None)  # no note: nothing to scan

    def emit(abspath: str, text: str, lines: list[Line]) -> None:
        nonlocal lines_matched
        lines_matched += len(lines)
        on_file(_display(abspath, str(cwd)), text, lines, pattern.regex, show_path)

    files, indexed, others = _split_targets(targets, root, notice, no_ignore=req.no_ignore)
    try:
        for f in files:
            _grep_one_file(f, shown.get(f, str(f)), pattern.regex, req.max_count, stats, emit, on_error)
        runs: list[tuple[Path, tuple[str, ...], IndexRef | None]] = []
        if indexed and root is not None:
            runs.append((root, tuple(indexed), index))
        runs += [(o, (), None) for o in others]
        for run_root, rel_targets, idx in runs:
            flt = file_filter(rel_targets)
            for fm in grep_tree(
                pattern,
                run_root,
                flt,
                index=idx,
                no_ignore=req.no_ignore,
                max_count=req.max_count,
                stats=stats,
                on_refused=lambda abspath, why: on_error(_display(abspath, str(cwd)), why),
            ):
                emit(fm.abspath, fm.text, fm.lines)
    except Stop:
        truncated = True
    for note in stats.notes:
        notice(note)
    return GrepSummary(
        files_searched=stats.files,
        files_from_index=stats.from_index,
        files_read=stats.candidates,
        files_matched=stats.matched,
        lines_matched=lines_matched,
        index_used=stats.index_used,
        truncated=truncated,
    )


def bounded_grep(req: GrepRequest, *, max_lines: int, max_bytes: int, seconds: float) -> GrepResult:
    """A grep whose answer fits bounds (for agents): at most `max_lines` matching lines, `max_bytes`
    of line text, `seconds` of wall clock; past any of them the answer ends with `truncated: true`.

    Files come in path order, so a truncated answer is a prefix of the whole one.
    """
    import time

    from indexlib.grep.lines import match_spans

    deadline = time.monotonic() + seconds
    out: list[GrepLine] = []
    size = 0

    def on_file(display: str, text: str, lines: list[Line], regex: Pattern[str], _show: bool) -> None:
        nonlocal size
        for ln in lines:
            line_text = text[ln[1] : ln[2]]
            size += len(line_text.encode("utf-8", "surrogatepass"))
            if len(out) >= max_lines or size > max_bytes:
                raise Stop
            out.append(
                GrepLine(path=display, line=ln[0], text=line_text, submatches=match_spans(text, ln, regex))
            )
        if time.monotonic() > deadline:
            raise Stop

    summary = run_grep(req, on_file)
    return GrepResult(pattern=req.pattern, lines=out, summary=summary)
