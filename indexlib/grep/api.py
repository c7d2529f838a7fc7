"""`qry grep` as one library call: a request -> matching files handed to a callback -> a summary.

Owns: where the grep runs. PATH arguments inside the indexed tree become path filters over one
indexed pass (the walk always starts at the index's root, so ignore files above a PATH apply as
they do at indexing); a folder outside it is scanned as its own root; a file named on the command
line is searched even if an ignore rule or a filter would skip it, as in ripgrep, whatever its
size (up to `content.MAX_BYTES`, past which it is reported), encoding or line lengths, and a NUL
byte in it read as rg reads one in a named file (`binary file matches`, `BinaryNote`).
With no index named (`--index-dir`, `$QRY_INDEX_DIR`) and none found above the working directory,
the tree is scanned and the caller is told once (`notice`); a named one that is not an index is an
error, as for a search. A PATH that does not exist, and a folder or file the OS refuses, is
reported to the caller (`on_error`) and left out, as rg does; the rest is still searched.

Output paths, as rg prints them: below a PATH argument, that PATH as typed joined with the path
under it (`./src/a.py` for `./src`, `/abs/src/a.py` for an absolute one, `../x/a.py` for `../x`), a
file PATH as typed; with no PATH, relative to the working directory. Each PATH argument is searched
in its turn, so a file or folder named twice is printed twice, as rg prints it. A named PATH that is
neither a folder nor a regular file (`/dev/null`, a FIFO, `<(cmd)`) is read as a stream, as rg
reads it, within the same bound.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from re import Pattern
from typing import NamedTuple

import msgspec

from indexlib.errors import UsageError
from indexlib.grep.content import MAX_BYTES, content, read_file, too_large
from indexlib.grep.files import FileFilter, relative_target, split_filters
from indexlib.grep.lines import Line
from indexlib.grep.pattern import compile_pattern
from indexlib.grep.records import GrepError, GrepLine, GrepResult, GrepSummary
from indexlib.grep.run import FileMatches, GrepStats, IndexRef, grep_tree, named_matches
from indexlib.rootpaths import root_relative_globs

__all__ = ["BinaryNote", "GrepRequest", "OnBinary", "OnError", "OnFile", "Stop", "bounded_grep", "run_grep"]

# display path, text, matching lines, the compiled regex, whether to print the path
OnFile = Callable[[str, str, list[Line], Pattern[str], bool], None]


class BinaryNote(NamedTuple):
    """What rg says of a file holding a NUL byte, after the lines it printed (`content.py`)."""

    offset: int  # the NUL's byte offset: `(found "\0" byte around offset N)`
    named: bool  # named on the command line: `binary file matches`; else `WARNING: stopped searching ...`
    counted: int  # a named file: its matching lines as rg's `-c` counts them (a walked one: 0, none shown)


# OnFile's arguments and the note: a file holding a NUL byte, in place of `on_file` for it
OnBinary = Callable[[str, str, list[Line], Pattern[str], bool, BinaryNote], None]
OnError = Callable[[str, str], None]  # a path as shown, why it could not be searched (the OS's words)
# Runs a grep for `bounded_grep`: (on_file, on_repo: told each repository's name before its files,
# on_error: told each place that could not be searched)
Runner = Callable[[OnFile, Callable[[str], None], OnError], GrepSummary]

NO_INDEX_NOTICE = "no index found: scanning the tree (`qry index` builds one and makes grep faster)"
TOO_LARGE_HINT = "search it with rg, which reads a file in pieces (qry grep reads each file whole)"


class Stop(Exception):
    """Raised by a callback to end the grep early (a bound was reached); the summary says truncated."""


class GrepRequest(msgspec.Struct, frozen=True, kw_only=True):
    """One grep, as the CLI and the MCP server ask for it."""

    pattern: str
    patterns: list[str] = []  # further patterns (rg's repeated `-e`): a line matching any one matches
    args: list[str] = []  # PATHs and lang:/path:/-path: filters
    fixed: bool = False
    ignore_case: bool = False
    smart_case: bool = False
    word: bool = False
    max_count: int | None = None
    # With max_count: matching lines this many lines after the last counted one are matches too (as
    # rg's `-m N -A M` prints and counts them; the window is not extended).
    after_context: int = 0
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


def _find_index(req: GrepRequest, cwd: Path, targets: Sequence[Path] = ()) -> Path | None:
    """The index directory to read, or None when grep scans.

    A directory named by `--index-dir` or `$QRY_INDEX_DIR` is the user's answer to "which index":
    it must be one, and `_open_index` reports it as `qry search` does when it is not. Only when none
    is named and no `.qry` lies above `cwd`, nor above every PATH given (`qry grep x repo` from the
    folder holding `repo/`), does grep scan. `--no-index` reads no index at all, so a named one is
    not looked at (a `$QRY_INDEX_DIR` exported for other commands stays harmless).
    """
    if not req.use_index:
        return None
    from indexlib.store.locate import ENV_VAR, find_index, resolve_index_dir

    if req.index_dir or os.environ.get(ENV_VAR):
        return resolve_index_dir(Path(req.index_dir) if req.index_dir else None)
    found = find_index(cwd)
    if found is None and targets:
        above = {find_index(t if t.is_dir() else t.parent) for t in targets}
        found = above.pop() if len(above) == 1 else None
    return found


def _open_index(
    req: GrepRequest, cwd: Path, notice: Callable[[str], None], targets: Sequence[Path] = ()
) -> tuple[Path | None, IndexRef | None]:
    """The indexed tree's root and its current index, or (None, None) when grep must scan.

    A named index goes through `Store.open` and `load` as a search's does, so a missing folder, a
    file, a folder that is no index and an index with no root yet are the same errors (exit 2) with
    the same hints; a found `.qry` always holds a HEAD (`find_index`)."""
    index_dir = _find_index(req, cwd, targets)
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


def _plan_folder(
    target: Path, root: Path | None, notice: Callable[[str], None], *, no_ignore: bool
) -> tuple[Path, str | None]:
    """Where a folder PATH is grepped: (the index's root, the folder relative to it) for a folder the
    walk from the root lists, else (the folder itself, None): scanned as its own root.

    A folder inside the tree that the walk from its root skips (vendored, build output, ignored) is
    scanned as its own root, as a scan without the index does and as ripgrep searches a folder named
    on its command line."""
    rel = relative_target(root, target) if root is not None else None
    if rel is None:
        if root is not None:
            notice(f"{target} is outside the indexed tree ({root}): scanning it")
        return target, None
    if rel and root is not None and not _walked(root, rel, no_ignore):
        return target, None
    assert root is not None
    return root, rel


def _walked(root: Path, rel: str, no_ignore: bool) -> bool:
    from indexlib.index.discover import walks_into

    return walks_into(root, rel, use_ignore_files=not no_ignore)


def _named_targets(paths: list[str], cwd: Path, on_error: OnError) -> list[tuple[str, Path]]:
    """The PATH arguments that can be searched, as (as typed, absolute path).

    Each other one is reported as rg reports it, `on_error(PATH, reason)` (missing, a folder that
    may not be listed, a parent that may not be entered), and left out, so the rest is still
    searched and the exit status says 2. A file that may not be read is reported when it is read.
    `-` is standard input, as in rg."""
    usable: list[tuple[str, Path]] = []
    for p in paths:
        if p == "-":  # standard input, named `<stdin>` as rg names it
            usable.append(("<stdin>", Path("/dev/stdin")))
            continue
        target = Path(cwd, p)
        try:
            if stat.S_ISDIR(os.stat(target).st_mode):
                os.scandir(target).close()
        except OSError as exc:
            on_error(p, exc.strerror or type(exc).__name__)
            continue
        usable.append((p, target))
    return usable


def _joined(typed: str, below: str) -> str:
    """A path found `below` a folder PATH, shown as rg shows it: the PATH as typed, then the rest."""
    if not below:
        return typed
    return typed + below if typed.endswith("/") else f"{typed}/{below}"


class _Run:
    """One grep's state across its PATH arguments: the index, the filters, the counts."""

    def __init__(self, req: GrepRequest, cwd: Path, on_file: OnFile, on_error: OnError, show: bool) -> None:
        self.req = req
        self.cwd = cwd
        self.pattern = compile_pattern(
            req.pattern,
            fixed=req.fixed,
            ignore_case=req.ignore_case,
            smart_case=req.smart_case,
            word=req.word,
            more=req.patterns,
        )
        self.paths, self.filters = split_filters(req.args)
        self.on_file = on_file
        self.on_error = on_error
        self.show_path = show
        self.stats = GrepStats()
        self.lines_matched = 0
        self.root: Path | None = None
        self.index: IndexRef | None = None
        self.on_binary: OnBinary | None = None
        self.on_skipped: OnError = lambda _p, _r: None
        self.mapped = False  # rg would map the named files (up to ten, all files): `named_matches`

    def file_filter(self, targets: tuple[str, ...], root: Path | None = None) -> FileFilter:
        """The filter of the walk under `root`, whose absolute path a `path:` glob may spell."""
        f = self.filters
        paths, excluded = (
            f[k] if root is None else root_relative_globs(f[k], root) for k in ("path", "-path")
        )
        return FileFilter(
            hidden=self.req.hidden,
            globs=tuple(self.req.globs),
            langs=tuple(f["lang"]),
            paths=tuple(paths),
            exclude_paths=tuple(excluded),
            targets=targets,
        )

    def emit(self, shown: str, fm: FileMatches, named: bool = False) -> None:
        regex = self.pattern.regex
        if fm.binary < 0:
            self.lines_matched += len(fm.lines)
            self.on_file(shown, fm.text, fm.lines, regex, self.show_path)
            return
        note = BinaryNote(offset=fm.binary, named=named, counted=fm.counted if named else 0)
        self.lines_matched += note.counted or len(fm.lines)
        if self.on_binary is not None:
            self.on_binary(shown, fm.text, fm.lines, regex, self.show_path, note)
        elif fm.lines:
            self.on_file(shown, fm.text, fm.lines, regex, self.show_path)

    def one_file(self, target: Path, typed: str) -> None:
        """A file named on the command line (`typed` as written): searched whatever the ignore rules
        and filters say, as rg searches it (any size up to `MAX_BYTES`, any encoding, a NUL as rg's
        "convert" mode reads it). A link named there is followed, as rg follows it."""
        from indexlib.index.discover import os_error_skip, refused

        self.stats.files += 1
        path = os.fspath(target)  # opened as given: `/dev/stdin` or `<(cmd)` resolve to no real path
        try:
            size = os.stat(path).st_size if os.path.isfile(path) else 0
            data = read_file(path, named=True) if size <= MAX_BYTES else b""
        except OSError as exc:
            skipped = os_error_skip(target.name, exc)
            if refused(skipped):
                self.on_error(typed, skipped.detail)
            return
        if size > MAX_BYTES or len(data) > MAX_BYTES:  # a stream is known only once read
            self.on_skipped(typed, too_large(max(size, len(data))))
            return
        self.stats.candidates += 1
        req = self.req
        found = named_matches(
            content(data), self.pattern.regex, req.max_count, req.after_context, mapped=self.mapped
        )
        if found is not None:
            self.stats.matched += 1
            self.emit(typed, found, named=True)

    def folder(self, typed: str | None, target: Path, notice: Callable[[str], None]) -> None:
        """Grep one folder PATH (`typed` as written; None: no PATH, the working directory)."""
        run_root, rel = _plan_folder(target, self.root, notice, no_ignore=self.req.no_ignore)
        cut = len(rel) + 1 if rel else 0  # a path below the PATH is the found path past this

        def shown(path: str, abspath: str) -> str:
            return _display(abspath, str(self.cwd)) if typed is None else _joined(typed, path[cut:])

        def shown_abs(abspath: str) -> str:
            if typed is None:
                return _display(abspath, str(self.cwd))
            below = os.path.relpath(abspath, target).replace(os.sep, "/")
            return _joined(typed, "" if below == "." else below)

        for fm in grep_tree(
            self.pattern,
            run_root,
            self.file_filter((rel,) if rel else (), run_root),
            index=self.index if rel is not None else None,
            no_ignore=self.req.no_ignore,
            max_count=self.req.max_count,
            after=self.req.after_context,
            stats=self.stats,
            on_refused=lambda abspath, why: self.on_error(shown_abs(abspath), why),
            on_skipped=lambda abspath, why: self.on_skipped(shown_abs(abspath), why),
        ):
            self.emit(shown(fm.path, fm.abspath), fm)


def run_grep(
    req: GrepRequest,
    on_file: OnFile,
    *,
    notice: Callable[[str], None] = lambda _m: None,
    on_error: OnError = lambda _p, _r: None,
    on_binary: OnBinary | None = None,
    on_skipped: OnError | None = None,
) -> GrepSummary:
    """Grep the tree(s) the request names, calling `on_file` for each matching file: PATH arguments
    in their order, the files found under each in path order.

    `on_error(path, reason)` hears of each PATH argument, folder or file that could not be searched
    (missing, or refused by the OS), as rg reports them; the grep goes on with the rest.
    `on_binary` is called instead of `on_file` for a file holding a NUL byte that rg reports as
    such (`BinaryNote`); without it, such a file's lines go to `on_file`. `on_skipped(path, why)`
    hears of a file rg would search that grep leaves out (over its memory bound); without it,
    `notice` gets `warning: PATH: why` and a hint."""
    cwd = Path(req.cwd or os.getcwd())
    if req.max_count is not None and req.max_count < 0:
        raise UsageError("--max-count must be 0 or more", hint="see: qry grep --help")
    if req.after_context < 0:
        raise UsageError("--after-context must be 0 or more", hint="see: qry grep --help")
    paths = split_filters(req.args)[0]
    run = _Run(req, cwd, on_file, on_error, show=True)
    run.on_binary = on_binary
    run.on_skipped = on_skipped or (lambda p, why: notice(f"warning: {p}: {why}\n  hint: {TOO_LARGE_HINT}"))
    run.mapped = 0 < len(paths) <= 10 and all(os.path.isfile(Path(cwd, p)) for p in paths)
    run.file_filter(())  # a bad lang: or glob is an error before any file is read
    named: list[tuple[str | None, Path]] = (
        list(_named_targets(paths, cwd, on_error)) if paths else [(None, cwd)]
    )
    run.show_path = not (len(paths) == 1 and len(named) == 1 and not named[0][1].is_dir())
    truncated = False
    targets = [t for _typed, t in named]
    # No usable PATH: nothing to scan, so no notice that the tree is scanned.
    run.root, run.index = _open_index(req, cwd, notice if named else lambda _m: None, targets)
    try:
        for typed, target in named:
            if typed is not None and not target.is_dir():
                run.one_file(target, typed)
            else:
                run.folder(typed, target, notice)
    except Stop:
        truncated = True
    stats = run.stats
    for note in stats.notes:
        notice(note)
    return GrepSummary(
        files_searched=stats.files,
        files_from_index=stats.from_index,
        files_read=stats.candidates,
        files_matched=stats.matched,
        lines_matched=run.lines_matched,
        index_used=stats.index_used,
        truncated=truncated,
    )


def bounded_grep(
    req: GrepRequest,
    *,
    max_lines: int,
    max_bytes: int,
    seconds: float,
    run: Runner | None = None,
) -> GrepResult:
    """A grep whose answer fits bounds (for agents): at most `max_lines` matching lines, `max_bytes`
    of line text, `seconds` of wall clock; past any of them the answer ends with `truncated: true`.

    Files come in path order, so a truncated answer is a prefix of the whole one; what could not be
    searched (a file over grep's memory bound too) is in `errors`. Bytes that are not UTF-8 come as
    U+FFFD, one per byte (JSON holds text), so the offsets of `submatches` stay right. `run(on_file, on_repo, on_error)` runs the grep instead of `run_grep`: a workspace's (workspace/grep.py),
    which names each repository before its files, so each line carries its `repo`.
    """
    import time

    from indexlib.grep.lines import match_spans
    from indexlib.grep.records import json_text

    deadline = time.monotonic() + seconds
    out: list[GrepLine] = []
    size = 0
    repo: str | msgspec.UnsetType = msgspec.UNSET

    def on_file(display: str, text: str, lines: list[Line], regex: Pattern[str], _show: bool) -> None:
        nonlocal size
        for ln in lines:
            line_text = text[ln[1] : ln[2]]
            size += len(line_text.encode("utf-8", "surrogatepass"))
            if len(out) >= max_lines or size > max_bytes:
                raise Stop
            spans = match_spans(text, ln, regex)
            out.append(
                GrepLine(
                    path=json_text(display),
                    line=ln[0],
                    text=json_text(line_text),
                    submatches=spans,
                    repo=repo,
                )
            )
        if time.monotonic() > deadline:
            raise Stop

    def on_repo(name: str) -> None:
        nonlocal repo
        repo = name

    errors: list[GrepError] = []

    def on_error(path: str, reason: str) -> None:
        errors.append(GrepError(path=path, reason=reason))

    summary = (
        run_grep(req, on_file, on_error=on_error, on_skipped=on_error)
        if run is None
        else run(on_file, on_repo, on_error)
    )
    if summary.truncated:  # the counts describe the answer, not the file the bound cut through
        matched = [ln for ln in out if ln.match]
        summary = msgspec.structs.replace(
            summary, lines_matched=len(matched), files_matched=len({(ln.repo, ln.path) for ln in matched})
        )
    return GrepResult(pattern=req.pattern, lines=out, summary=summary, errors=errors or msgspec.UNSET)
