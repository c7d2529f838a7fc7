"""Which files `qry grep` searches: the indexing discovery rules, plus grep's own filters.

Owns: the file filter (`--hidden`, `-g GLOB`, `lang:` / `path:` / `-path:` filters, PATH arguments)
and the walk that lists the tree as it is now. The walk is `discover` itself, so ignored and
vendored files are left out exactly as `qry index` leaves them out, but it lists every file rg
would search that the index skips: text files no language claims (`UNLICENSE`, `*.csv`, `*.svg`,
skipped as unsupported), files of any size, lock files, `*.min.js` and source maps (skipped by
name; `walkcache.py`). Those are never in the n-gram index, so they are read directly, as rg reads
them (`content.py`: any encoding, rg's binary rules); `searched_files` names the result.
`--no-ignore` walks without the ignore files (`.gitignore`, `.ignore`, `.rgignore`, `.qryignore`,
`.git/info/exclude`), as ripgrep's flag does. Does not own: whether the index still describes a file (`run.py` compares size
and mtime with the root, the test `qry status` and the build use) or any matching.

Hidden files. `qry index` indexes dot-files and dot-folders (`.github/`), but grep, like ripgrep,
leaves out every path with a component starting with `.` unless `--hidden` is given, or an ignore
file's `!` pattern re-includes each such component (ripgrep's own `.ignore` says `!/.github/`).

Globs (`-g`) have ripgrep's meaning: gitignore syntax, the last matching glob wins, `!GLOB` excludes,
and when any non-negated glob is given a file must match one, `{a,b}` alternation included. A
negated glob naming a folder (`!tests/`) excludes everything below it. As rg's overrides, they
outrank the ignore files and the hidden rule (`override_lines`, given to the walk): `-g '*.yml'`
finds a hidden `.coveralls.yml`, `-g '*.log'` a gitignored log. A glob that cannot be read (an
unclosed `[` or `{`, a reversed range, a dangling `\\`) is an error naming it, checked by the parser
of the `path:` filters.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from indexlib.index.discover import IgnoreFile

__all__ = ["FileFilter", "WalkedFile", "searched_files", "split_filters", "walk"]


class WalkedFile(NamedTuple):
    """A file discovery lists (unread): the fields of `discover.SourceFile` grep needs."""

    path: str  # POSIX, relative to the root
    abspath: str
    size: int
    mtime_ns: int
    language: str
    unhidden: bool = False  # hidden, but re-included by an ignore file's `!` (`SourceFile.unhidden`)
    ctime_ns: int = 0  # 0: unknown (then the index is not trusted for the file)


class FileFilter:
    """The filters of one grep; `targets` are paths relative to the root (files or folders)."""

    __slots__ = ("_compiled", "exclude_paths", "globs", "hidden", "langs", "paths", "targets", "trivial")

    def __init__(
        self,
        *,
        hidden: bool = False,
        globs: tuple[str, ...] = (),
        langs: tuple[str, ...] = (),
        paths: tuple[str, ...] = (),
        exclude_paths: tuple[str, ...] = (),
        targets: tuple[str, ...] = (),
    ) -> None:
        self.hidden = hidden
        self.globs = globs
        self.langs = langs
        self.paths = paths
        self.exclude_paths = exclude_paths
        # Only the root itself named (`qry grep X` at the root): the same as no PATH, and cheap.
        self.targets = () if all(t.rstrip("/") in ("", ".") for t in targets) else targets
        self.trivial = not (globs or langs or paths or exclude_paths or self.targets)  # only the hidden rule
        c: dict[str, object] = {}
        self._compiled = c
        c["globs"] = _glob_rules(self.globs) if self.globs else None
        c["positive"] = any(not g.startswith("!") for g in self.globs)
        if paths or exclude_paths or langs:
            from indexlib.pathglob import compile_glob
            from indexlib.retrieval.query import normalize_lang
        c["paths"] = [compile_glob(p) for p in self.paths]
        c["excludes"] = [compile_glob(p) for p in self.exclude_paths]
        c["langs"] = {normalize_lang(lang) for lang in self.langs}

    def accepts(self, rel: str, language: str, unhidden: bool = False) -> bool:
        """Whether a discovered file (POSIX path relative to the root) is searched; `unhidden`: an
        ignore file's `!` re-includes its hidden components, so it is searched as if not hidden."""
        c = self._compiled
        below = self._below(rel) if self.targets else rel  # the part below the PATH it was found under
        if below is None:
            return False
        # Like rg, a hidden PATH named on the command line is searched; hidden names below it are not.
        if not (self.hidden or unhidden) and (below.startswith(".") or "/." in below):
            return False
        langs = c["langs"]
        if langs and language not in langs:  # type: ignore[operator]
            return False
        if c["paths"] and not any(r.search(rel) for r in c["paths"]):  # type: ignore[attr-defined]
            return False
        if any(r.search(rel) for r in c["excludes"]):  # type: ignore[attr-defined]
            return False
        globs: Any = c["globs"]
        if globs is not None:
            if _in_excluded_folder(globs, rel, itself=False):
                return False
            verdict = globs.verdict(rel)
            if verdict is False or (verdict is None and c["positive"]):
                return False
        return True

    def reaches(self, rel: str, is_dir: bool) -> bool:
        """Whether an entry the walk may not read lies where this grep looks, so that its error is
        reported (as rg reports it) and not one of a part of the tree nobody asked about.

        A file: what `accepts` says (its language unknown). A folder: below a PATH argument (or
        above one, which then could not be walked), not hidden unless `--hidden`, not excluded by a
        `-g '!dir/'` glob. `lang:`, `path:` and positive globs choose files, not folders: rg enters
        every folder whatever `-g '*.py'` says, and reports those it may not list."""
        if not is_dir:
            return self.accepts(rel, "")
        below = self._below(rel) if self.targets else rel
        if below is None:
            return any(t.startswith(rel + "/") for t in self.targets) if rel else True
        if not self.hidden and (below.startswith(".") or "/." in below):
            return False
        globs: Any = self._compiled["globs"]
        return not (rel and globs is not None and _in_excluded_folder(globs, rel, itself=True))

    def _below(self, rel: str) -> str | None:
        """`rel` relative to the PATH argument it is under ("" for the PATH itself), or None."""
        for t in self.targets:
            t = t.rstrip("/")
            if t in ("", "."):
                return rel
            if rel == t:
                return ""
            if rel.startswith(t + "/"):
                return rel[len(t) + 1 :]
        return None


def _in_excluded_folder(globs: IgnoreFile, rel: str, *, itself: bool) -> bool:
    """Whether a negated glob (`!tests/`) excludes a folder above `rel`, or `rel` itself (a folder)."""
    parts = rel.split("/")
    for depth in range(1, len(parts) + (1 if itself else 0)):
        if globs.verdict("/".join(parts[:depth]) + "/") is False:
            return True
    return False


def _glob_lines(globs: tuple[str, ...]) -> list[str]:
    """`-g` globs as gitignore lines, `!` for a negated one (see `_glob_rules`)."""
    from indexlib.pathglob import brace_alternatives, compile_glob, glob_error

    lines: list[str] = []
    for glob in globs:
        negated = glob.startswith("!")
        body = glob[1:] if negated else glob
        if not body.strip():
            raise glob_error(glob, "nothing to match")
        compile_glob(body, shown=glob)
        for alt, anchored in brace_alternatives(body, glob):
            if anchored:
                alt = "/" + alt.lstrip("/")
            elif alt.startswith(("!", "#")):
                alt = "\\" + alt  # an alternative is never a negation or a comment
            lines.append(("!" if negated else "") + alt)
    return lines


def override_lines(globs: tuple[str, ...]) -> list[str]:
    """`-g` globs as discovery's command-line excludes, which outrank every ignore file: a glob
    re-includes what it matches (`!GLOB` in gitignore terms), a negated one excludes it. So, as in
    rg, `-g '*.log'` finds a gitignored `x.log` and `-g '*.yml'` a hidden `.coveralls.yml` (the walk
    marks a hidden path every `.` component of which such a line re-includes as searched)."""
    return [line[1:] if line.startswith("!") else "!" + line for line in _glob_lines(globs)]


def _glob_rules(globs: tuple[str, ...]) -> IgnoreFile:
    """`-g` globs as one gitignore-syntax matcher (discover's `IgnoreFile`), each glob first read by
    the path-glob parser, which owns glob syntax and its errors, and `{a,b}` braces expanded by it
    into one gitignore line per alternative (rg's globset reads braces; gitignore has none).

    Why: pathspec, which translates the globs, reads an unclosed `[` as a literal (so `-g '['`
    matched nothing, silently), reads `{` as a literal too (so `-g '*.{py,md}'` matched nothing), and
    ends in a traceback on a reversed range or a dangling `\\`; ripgrep refuses the unreadable ones
    naming the glob, and so does this, before any file is read. Discover (and pathspec) load only
    when globs are given."""
    from indexlib.index.discover import IgnoreFile
    from indexlib.pathglob import glob_error

    lines = _glob_lines(globs)
    try:
        return IgnoreFile(lines)
    except (ValueError, re.error) as exc:  # pathspec's own limits (`a\\/b`, `a\\  `): still no traceback
        bad = next((g for g in globs if _refused(g)), globs[0])
        raise glob_error(bad, "not a pattern gitignore syntax can read") from exc


def _refused(glob: str) -> bool:
    """Whether pathspec refuses this one glob (to name it in the error)."""
    from indexlib.index.discover import IgnoreFile

    try:
        IgnoreFile([glob])
    except (ValueError, re.error):
        return True
    return False


def split_filters(args: Sequence[str]) -> tuple[list[str], dict[str, list[str]]]:
    """Separate PATH arguments from `lang:X`, `path:GLOB`, `-path:GLOB` filters (the search syntax)."""
    paths: list[str] = []
    filters: dict[str, list[str]] = {"lang": [], "path": [], "-path": []}
    for arg in args:
        key, sep, value = arg.partition(":")
        if sep and key in filters and value:
            filters[key].append(value)
        else:
            paths.append(arg)
    return paths, filters


def walk(
    root: Path,
    flt: FileFilter,
    *,
    no_ignore: bool = False,
    cache_dir: Path | None = None,
    indexed: Callable[[str, int, int], bool] = lambda _p, _s, _m: False,
    on_refused: Callable[[str, str], None] = lambda _p, _r: None,
) -> Iterator[WalkedFile]:
    """The files under `root` that indexing would pick and the filter accepts, sorted by path, unread.

    `cache_dir` (the index directory) keeps the listing between runs (`walkcache.py`).
    `on_refused(abspath, reason)` hears of each folder or file the walk may not read, where the
    filter `reaches` it."""
    from indexlib.grep.walkcache import cached_walk

    def refused(rel: str, reason: str) -> None:
        abspath = os.path.join(root, rel) if rel else os.fspath(root)
        if flt.reaches(rel, os.path.isdir(abspath)):
            on_refused(abspath, reason)

    items = cached_walk(
        root, no_ignore=no_ignore, cache_dir=cache_dir, globs=flt.globs, indexed=indexed, on_refused=refused
    )
    if flt.trivial:  # the common case, kept cheap: one test per file
        if flt.hidden:
            yield from items
        else:
            yield from (i for i in items if i.unhidden or not (i[0][0] == "." or "/." in i[0]))
        return
    for item in items:
        if flt.accepts(item.path, item.language, item.unhidden):
            yield item


def searched_files(root: Path, flt: FileFilter | None = None, *, no_ignore: bool = False) -> list[str]:
    """The files (POSIX, relative to `root`) a grep of `root` reads whole, in path order: `walk`'s
    listing without binary files (a NUL byte: rg prints them differently when they are named) and
    files over `content.MAX_BYTES`. For tests and tools that hand rg the same files; reads every file."""
    from indexlib.grep.content import MAX_BYTES, read_file

    out: list[str] = []
    for w in walk(root, flt or FileFilter(), no_ignore=no_ignore):
        try:
            data = read_file(w.abspath)
        except OSError:
            continue
        if len(data) <= MAX_BYTES and b"\0" not in data:
            out.append(w.path)
    return out


def relative_target(root: Path, target: Path) -> str | None:
    """A PATH argument as a POSIX path relative to `root`, or None when it lies outside."""
    try:
        rel = os.path.relpath(os.path.abspath(target), os.path.abspath(root))
    except ValueError:
        return None
    if rel == os.curdir:
        return ""
    if rel.startswith(os.pardir + os.sep) or rel == os.pardir:
        return None
    return rel.replace(os.sep, "/")
