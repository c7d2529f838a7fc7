"""Walk a source tree and decide, per file, whether it is indexed or skipped and why.

Owns: the walk (os.scandir), ignore rules (`.gitignore` at every level, `.git/info/exclude`,
`.qryignore`, extra `--exclude` patterns; pattern syntax translated by `pathspec`, matched with git's
per-directory semantics, see `IgnoreFile`; the user's global `core.excludesFile` is deliberately not
read, so the same tree indexes the same on every machine), vendored
folders, symlink policy, file-name checks (lock files, `*.min.js`, source maps), the size limit, and the
content checks (binary, encoding, minified, generated markers). Every file ends up as exactly one
`SourceFile` or one `Skipped`; pruned directories give one `Skipped` each (vendored, unreadable, ...),
except ignored directories and VCS folders, which are pruned silently.
Does not own: languages (`parsing/languages.py` decides by name and first bytes), parsing, hashing,
or the incremental decision (the build compares size and mtime with the previous manifest).

Cost model. `discover(root, read=False)` lists directories and stats files: no file is opened except
extension-less ones (their first 256 bytes may carry a shebang that decides the language). That is the
mode for incremental builds: the build compares (size, mtime_ns) with the previous manifest and calls
`load()` only for the files that changed, which reads each once, runs the content checks and returns
the bytes in `SourceFile.data`. `discover(root)` (read=True, the default, so a caller that forgets the
second step still gets every check) does the same `load()` for every file. Either way a file is read at
most once per build.

Symlinks. A link whose target resolves outside the root is skipped (`symlink_outside`). Links inside
the root are resolved after the plain walk: a linked directory is walked under the link's path only if
its real directory was not walked already (tracked by (st_dev, st_ino), which also ends loops), and a
linked file is indexed under the link's path only if its target was not indexed under its own path.
Duplicates are skipped with reason `ignored` and a detail naming the link; indexing the same bytes
twice would only duplicate search results. A link is judged by its own path's ignore rules; its target
is checked for being outside the root, inside a vendored folder, or already indexed.

Paths. Names are read as `str` with `surrogateescape` (os.fsdecode), so any byte string survives. A path
that is not valid UTF-8 cannot be stored in the index, the JSON output or Tantivy, so it is skipped with
reason `encoding`; its reported path shows the bad bytes backslash-escaped.

Ignore rules of folders above the root apply when the root is a subfolder of a git repository, unless
they ignore the root itself (see `_base_stack`). Files git tracks despite an ignore rule are still
skipped: discovery reads ignore files, not the git index.

Order. Results come sorted by path (code-point order of the POSIX relative path), so builds are
reproducible. The stat phase collects the whole listing before anything is yielded; only the reading
is streamed.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
from pathspec.patterns.gitignore.basic import GitIgnoreBasicPattern

from indexlib.errors import UsageError
from indexlib.index.parsing.languages import detect_language
from indexlib.records import SkipReason

__all__ = [
    "ALWAYS_SKIPPED",
    "VENDORED_DIRS",
    "Skipped",
    "SourceFile",
    "WalkRecord",
    "check_content",
    "discover",
    "load",
    "open_beneath",
]

# Version-control and index folders: never entered, never reported.
ALWAYS_SKIPPED = frozenset({".git", ".qry", ".hg", ".svn"})

# Dependency, build-output, cache and virtual-environment folders: skipped unless include_vendored.
# `venv` and `env` are not on the list by name, because they are ordinary package names too (the
# standard library's own `venv` package): a folder is a virtual environment when it holds `pyvenv.cfg`
# (or `conda-meta/`), whatever its name (`env`, `venv`, `.venv311`).
VENDORED_DIRS = frozenset(
    {
        "node_modules", "vendor", "third_party", ".venv", "site-packages", "dist", "build", "target",
        "__pycache__", ".tox", ".mypy_cache", "bower_components", "Pods", ".gradle",
    }
)  # fmt: skip
VENV_MARKERS = ("pyvenv.cfg", "conda-meta")

IGNORE_FILES = (".gitignore", ".qryignore")  # in precedence order: a later file overrides an earlier one

LOCK_FILES = frozenset(
    {
        "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "Cargo.lock",
        "poetry.lock", "Pipfile.lock", "composer.lock", "Gemfile.lock", "go.sum", "uv.lock", "pdm.lock",
        "bun.lockb", "flake.lock", "packages.lock.json", "mix.lock", "pubspec.lock", "Podfile.lock",
    }
)  # fmt: skip
MINIFIED_SUFFIXES = (".min.js", ".min.css", ".min.mjs", ".map")

HEAD_BYTES = 8192  # a NUL byte in this prefix means binary (git uses the same test)
SHEBANG_BYTES = 256
# A file is minified when some line exceeds max_line_chars *and* its lines average at least this long;
# one long line (a data URL, a long string) in an ordinary file does not make it minified.
MINIFIED_AVG_LINE_CHARS = 200
GENERATED_MARKER_LINES = 10

_GENERATED_RE = re.compile(r"@generated\b|\bgenerated\b.*\bdo not edit\b", re.IGNORECASE)


class SourceFile(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A file to index. `data` holds its raw bytes (BOM included) when discovery read it.

    `root` and `real` say where `load` reads it: `real` is the file's symlink-free path below the real
    root `root` (for a file reached through a link inside the tree, the link's target), opened one
    component at a time without following links (see `open_beneath`). `abspath` is for display only.
    """

    path: str  # POSIX, relative to the root
    abspath: str
    size: int
    mtime_ns: int
    language: str
    data: bytes | None = None
    root: str = ""
    real: str = ""


class Skipped(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A file or pruned directory left out, with a SkipReason value and an optional detail."""

    path: str
    reason: str
    detail: str = ""


# ---------------------------------------------------------------------------------------------------
# Content checks


def check_content(data: bytes, *, max_line_chars: int = 1000) -> tuple[str, str] | None:
    """(reason, detail) when a file's bytes should not be indexed, else None.

    Checks, cheapest first: a UTF-16/32 byte order mark (encoding), a NUL byte in the first 8 KiB
    (binary), invalid UTF-8 anywhere (encoding; a UTF-8 BOM is fine), a `@generated` or
    `generated ... DO NOT EDIT` marker in the first 10 lines (generated), and minified text (a line over
    `max_line_chars` in a file whose lines average 200+ characters). The build runs this on every file
    it reads (via `load`), so it costs one UTF-8 decode and a newline count per file.
    """
    head = data[:HEAD_BYTES]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return SkipReason.ENCODING.value, "UTF-16 or UTF-32 byte order mark"
    if b"\0" in head:
        return SkipReason.BINARY.value, "NUL byte in the first 8 KiB"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return SkipReason.ENCODING.value, f"not valid UTF-8 at byte {exc.start}"
    first_lines = text[:4096].split("\n", GENERATED_MARKER_LINES)[:GENERATED_MARKER_LINES]
    for line in first_lines:
        if _GENERATED_RE.search(line):
            return SkipReason.GENERATED.value, "generated-code marker: " + line.strip()[:80]
    if len(text) > max_line_chars:
        lines = text.count("\n") + (0 if text.endswith("\n") else 1)
        if len(text) / lines >= MINIFIED_AVG_LINE_CHARS:
            longest = max(map(len, text.split("\n")))
            if longest > max_line_chars:
                return SkipReason.MINIFIED.value, f"longest line {longest} characters"
    return None


def _name_check(name: str) -> tuple[str, str] | None:
    """Skips decided by the file name alone."""
    if name in LOCK_FILES:
        return SkipReason.GENERATED.value, "lock file"
    if name.endswith(MINIFIED_SUFFIXES):
        return SkipReason.MINIFIED.value, "minified or source-map file name"
    return None


def _os_error_skip(path: str, exc: OSError) -> Skipped:
    if isinstance(exc, FileNotFoundError | NotADirectoryError | IsADirectoryError):
        return Skipped(path=path, reason=SkipReason.VANISHED.value, detail=type(exc).__name__)
    return Skipped(path=path, reason=SkipReason.UNREADABLE.value, detail=exc.strerror or type(exc).__name__)


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
# O_NONBLOCK: a file swapped for a FIFO must not block the open; O_NOCTTY: nor become our terminal.
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)


def open_beneath(root: str, rel: str, *, directory: bool = False) -> int:
    """Open `rel` (a POSIX path of plain names) below the directory `root`, following no symlink.

    Why: discovery classifies a path with `lstat`, and the file is opened later; a plain `open()`
    would follow a link swapped in meanwhile (to `/etc/passwd`, or a parent folder swapped for a link
    to `/etc`). Each component is opened relative to its parent's descriptor with `O_NOFOLLOW`, so
    whatever happens in between, the descriptor names an inode reached inside `root` by real names: a
    swapped-in link fails with ELOOP (or ENOTDIR), and the file is then skipped as unreadable. The
    final descriptor must be a regular file (or a directory when `directory`), else ENOENT-like
    `OSError`. The caller closes the returned descriptor.
    """
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    try:
        parts = [p for p in rel.split("/") if p and p != "."]
        if ".." in parts:
            raise OSError(errno.EINVAL, "path component ..", rel)
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            flags = _DIR_FLAGS if directory or not last else _FILE_FLAGS
            child = os.open(part, flags, dir_fd=fd)
            os.close(fd)
            fd = child
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISDIR(mode) if directory else stat.S_ISREG(mode)):
            raise OSError(errno.EINVAL, "not a regular file" if not directory else "not a directory", rel)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _read_beneath(root: str, rel: str, limit: int) -> bytes:
    """At most `limit` bytes of the regular file `rel` below `root`, opened by `open_beneath`."""
    with os.fdopen(open_beneath(root, rel), "rb") as fh:
        return fh.read(limit)


def load(
    src: SourceFile, *, max_file_bytes: int = 1 << 20, max_line_chars: int = 1000
) -> SourceFile | Skipped:
    """Read one discovered file, run the content checks, and return it with `data` (or why it is skipped).

    Also refines the language with the file's first bytes (a `.h` header with C++ syntax is `cpp`).
    Reads at most `max_file_bytes + 1` bytes, so a file that grew past the limit since it was listed is
    `too_large` rather than read whole. The file is opened by `open_beneath` (no symlink followed), so
    a path swapped for a link after discovery is skipped, never read through.
    """
    try:
        if src.root:
            data = _read_beneath(src.root, src.real, max_file_bytes + 1)
        else:  # a SourceFile built by hand, not by discover: at least refuse a link as the last step
            with os.fdopen(os.open(src.abspath, _FILE_FLAGS), "rb") as fh:
                data = fh.read(max_file_bytes + 1)
    except OSError as exc:
        return _os_error_skip(src.path, exc)
    if len(data) > max_file_bytes:
        return Skipped(path=src.path, reason=SkipReason.TOO_LARGE.value, detail=f"> {max_file_bytes} bytes")
    bad = check_content(data, max_line_chars=max_line_chars)
    if bad is not None:
        return Skipped(path=src.path, reason=bad[0], detail=bad[1])
    language = detect_language(src.path, data[:HEAD_BYTES]) or src.language
    return msgspec.structs.replace(src, data=data, language=language)


# ---------------------------------------------------------------------------------------------------
# Ignore rules


class IgnoreFile:
    """The patterns of one ignore file, compiled into a single regular expression.

    Git decides per path, walking down: a directory that is excluded is never entered (so nothing
    inside can be re-included), and for a path the *last* matching pattern wins. pathspec's
    `GitIgnoreSpec` answers a different question (is this file, given its full path, ignored?) and
    treats `logs/**` as excluding the folder `logs` itself, which breaks `logs/**` + `!logs/keep.py`
    once directories are pruned. So we take pathspec's per-pattern translation
    (`GitIgnoreBasicPattern`: escaping, `**`, anchoring, character classes) and match each path
    exactly: a file as `a/b.py`, a directory as `a/b/`. Patterns are joined in reverse order, so the
    first alternative that matches is the last pattern in the file.
    """

    __slots__ = ("_includes", "_regex")

    def __init__(self, lines: Sequence[str]) -> None:
        bodies: list[str] = []
        includes: list[bool] = []
        for line in lines:
            pattern = GitIgnoreBasicPattern(line)
            if pattern.include is None or pattern.regex is None:
                continue  # blank line or comment
            bodies.append(_exact(pattern.regex.pattern, line.rstrip()))
            includes.append(pattern.include)
        self._includes = includes
        alternatives = [f"(?P<p{i}>{body})" for i, body in reversed(list(enumerate(bodies)))]
        # DOTALL: a newline in a file name is an ordinary character to git.
        self._regex = re.compile("|".join(alternatives), re.DOTALL) if alternatives else None

    def __bool__(self) -> bool:
        return self._regex is not None

    def verdict(self, path: str) -> bool | None:
        """True: ignored; False: re-included by a `!` pattern; None: no pattern matches.

        `path` is relative to the ignore file's folder; directories end with `/`.
        """
        if self._regex is None:
            return None
        m = self._regex.match(path)
        if m is None or m.lastgroup is None:
            return None
        return self._includes[int(m.lastgroup[1:])]


def _exact(regex: str, text: str) -> str:
    """Turn pathspec's regex for one pattern into one that `re.match`es exactly the paths it names.

    pathspec's regexes are used with `re.search` as prefix matches: `...(?:/|$)` for a pattern naming
    a path (and so everything below it), `.../` for directory patterns (`out/`) and for a trailing
    `/**` (`logs/**`: everything *inside* logs, not logs itself), and unanchored `.` (`*`, `**`) or
    `/` (`*/`, `**/`). Directories are tested with a trailing slash, so a directory pattern can only
    ever match a directory.
    """
    if not regex.startswith("^"):
        regex = ".*" + regex  # search semantics -> match semantics
    if text.endswith("/"):
        if text.endswith("/**/") and not regex.startswith(".*"):  # `foo/**/`: directories below foo
            return f"(?:{regex}).+/$"
        return f"(?:{regex})$"
    if regex.endswith("(?:/|$)"):
        return f"(?:{regex})$"
    if regex.endswith("/"):
        return f"(?:{regex})."  # at least one character below the folder
    return f"(?:{regex})"  # `*`, `**`, or a pattern carrying its own `$`


@dataclass(frozen=True, slots=True)
class _Rules:
    """One ignore file in the stack. A path relative to the root is checked as
    `prepend + path[len(strip):]`: `strip` is the ignore file's folder (relative to the root, with a
    trailing slash), `prepend` the root's own path relative to a folder above it."""

    strip: str
    prepend: str
    patterns: IgnoreFile


_Stack = tuple[_Rules, ...]  # lowest precedence first


def _read_ignore_file(path: str) -> IgnoreFile | None:
    try:
        with open(path, "rb") as fh:
            raw = fh.read(1 << 20)
    except OSError:
        return None
    return _compile_ignore(raw.decode("utf-8", "surrogateescape").splitlines())


def _read_at(dfd: int, name: str) -> bytes | None:
    """An ignore file of the directory open as `dfd` (not followed if it is a link), or None."""
    try:
        fd = os.open(name, _FILE_FLAGS, dir_fd=dfd)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            return fh.read(1 << 20)
        except OSError:
            return None


def _compile_ignore(lines: Sequence[str]) -> IgnoreFile | None:
    try:
        patterns = IgnoreFile(lines)
    except (ValueError, re.error):  # a malformed pattern must not stop a build: ignore the file
        return None
    return patterns if patterns else None


def _is_ignored(stack: _Stack, extra: IgnoreFile | None, rel: str, is_dir: bool) -> bool:
    """Git's rule: the deepest ignore file with an opinion wins; inside a file, the last match.
    `extra` (the command line's excludes) outranks every file."""
    suffix = "/" if is_dir else ""
    if extra is not None:
        verdict = extra.verdict(rel + suffix)
        if verdict is not None:
            return verdict
    for rules in reversed(stack):
        verdict = rules.patterns.verdict(rules.prepend + rel[len(rules.strip) :] + suffix)
        if verdict is not None:
            return verdict
    return False


def _git_dir(folder: str) -> str | None:
    """The git directory of a repository whose top is `folder` (`.git` folder, or a `.git` file)."""
    dotgit = os.path.join(folder, ".git")
    if os.path.isdir(dotgit):
        return dotgit
    if os.path.isfile(dotgit):  # worktree or submodule: "gitdir: <path>"
        try:
            with open(dotgit, encoding="utf-8", errors="surrogateescape") as fh:
                line = fh.readline().strip()
        except OSError:
            return None
        if line.startswith("gitdir:"):
            gitdir = os.path.join(folder, line[len("gitdir:") :].strip())
            common = os.path.join(gitdir, "commondir")
            if os.path.isfile(common):
                try:
                    with open(common, encoding="utf-8", errors="surrogateescape") as fh:
                        return os.path.normpath(os.path.join(gitdir, fh.read().strip()))
                except OSError:
                    return gitdir
            return gitdir
    return None


def _base_stack(real_root: str) -> _Stack:
    """Rules that apply before the root's own ignore files: the repository's `info/exclude` and the
    `.gitignore` / `.qryignore` files of folders between the repository top and the root, when the root
    is a subfolder of a repository. If those rules ignore the root itself (someone indexes a folder
    their repository ignores, such as a checkout inside `build/`), none of them apply: the request to
    index it is explicit, and inheriting the rule would leave nothing to index."""
    top = real_root
    between: list[str] = []  # folders from the root up to (not including) the repository top
    while (gitdir := _git_dir(top)) is None:
        parent = os.path.dirname(top)
        if parent == top:
            return ()  # not inside a repository: only the root's own ignore files count
        between.append(top)
        top = parent
    rel_root = os.path.relpath(real_root, top).replace(os.sep, "/")
    if rel_root == ".":
        spec = _read_ignore_file(os.path.join(gitdir, "info", "exclude"))
        return (_Rules("", "", spec),) if spec is not None else ()
    # (folder relative to the top, patterns), lowest precedence first.
    found: list[tuple[str, IgnoreFile]] = []
    spec = _read_ignore_file(os.path.join(gitdir, "info", "exclude"))
    if spec is not None:
        found.append(("", spec))
    for folder in [top, *reversed(between[1:])]:
        folder_rel = os.path.relpath(folder, top).replace(os.sep, "/")
        folder_rel = "" if folder_rel == "." else folder_rel + "/"
        for name in IGNORE_FILES:
            spec = _read_ignore_file(os.path.join(folder, name))
            if spec is not None:
                found.append((folder_rel, spec))
    parts = rel_root.split("/")
    for depth in range(1, len(parts) + 1):
        ancestor = "/".join(parts[:depth]) + "/"
        for folder_rel, spec in reversed(found):
            if ancestor.startswith(folder_rel) and ancestor != folder_rel:
                verdict = spec.verdict(ancestor[len(folder_rel) :])
                if verdict is not None:
                    if verdict:
                        return ()
                    break
    return tuple(_Rules("", rel_root[len(folder_rel) :] + "/", spec) for folder_rel, spec in found)


# ---------------------------------------------------------------------------------------------------
# The walk


@dataclass(slots=True)
class _Candidate:
    """A file that passed every check discovery can make without reading it."""

    path: str
    abspath: str
    size: int
    mtime_ns: int
    language: str
    real: str


@dataclass(slots=True)
class _Link:
    """A symlink inside the root, resolved after the plain walk."""

    rel: str
    abspath: str
    stack: _Stack
    is_dir: bool
    st: os.stat_result
    target_rel: str


@dataclass(slots=True)
class WalkRecord:
    """What a walk looked at, for a caller that wants to tell later whether a new walk could differ
    (`grep/walkcache.py`): every directory listed with its mtime, and every other entry's stat."""

    dirs: list[tuple[str, int]] = field(default_factory=list)  # (absolute path, st_mtime_ns)
    files: list[tuple[str, int, int]] = field(default_factory=list)  # (absolute path, size, mtime_ns)


@dataclass(slots=True)
class _Walk:
    abs_root: str
    real_root: str
    max_file_bytes: int
    include_vendored: bool
    extra: IgnoreFile | None
    use_ignore_files: bool = True
    record: WalkRecord | None = None
    out: list[_Candidate | Skipped] = field(default_factory=list)
    links: deque[_Link] = field(default_factory=deque)
    seen_dirs: set[tuple[int, int]] = field(default_factory=set)
    indexed: set[tuple[int, int]] = field(default_factory=set)

    def skip(self, rel: str, reason: SkipReason, detail: str = "") -> None:
        self.out.append(Skipped(path=rel, reason=reason.value, detail=detail))

    def walk_dir(self, abs_dir: str, rel_dir: str, stack: _Stack, real_dir: str) -> None:
        """Walk one directory tree without following symlinks (they are queued in `links`).

        Each directory is opened by `open_beneath` at `real_dir` (its symlink-free path below the real
        root) and listed through that descriptor, so a folder swapped for a link after its parent was
        listed is never entered; `abs_dir` only builds the absolute paths shown to the user.
        """
        pending: list[tuple[str, str, _Stack, str]] = [(abs_dir, rel_dir, stack, real_dir)]
        while pending:
            abs_dir, rel_dir, stack, real_dir = pending.pop()
            try:
                dfd = open_beneath(self.real_root, real_dir, directory=True)
            except OSError as exc:
                self.out.append(_os_error_skip(rel_dir.rstrip("/") or ".", exc))
                continue
            try:  # entries stat through `dfd` (fstatat), so it stays open until they are handled
                self.list_dir(dfd, abs_dir, rel_dir, stack, real_dir, pending)
            finally:
                os.close(dfd)

    def list_dir(
        self,
        dfd: int,
        abs_dir: str,
        rel_dir: str,
        stack: _Stack,
        real_dir: str,
        pending: list[tuple[str, str, _Stack, str]],
    ) -> None:
        """List the directory open as `dfd`: apply its ignore files, queue subdirectories in `pending`."""
        try:
            st = os.fstat(dfd)
            with os.scandir(dfd) as it:
                entries = list(it)
        except OSError as exc:
            self.out.append(_os_error_skip(rel_dir.rstrip("/") or ".", exc))
            return
        self.seen_dirs.add((st.st_dev, st.st_ino))
        if self.record is not None:
            self.record.dirs.append((abs_dir, st.st_mtime_ns))
        names = {e.name for e in entries}
        if rel_dir and not self.include_vendored:
            marker = next((m for m in VENV_MARKERS if m in names), None)
            if marker is not None:
                self.skip(rel_dir.rstrip("/"), SkipReason.VENDORED, f"virtual environment ({marker})")
                return
        for name in IGNORE_FILES if self.use_ignore_files else ():
            raw = _read_at(dfd, name) if name in names else None
            spec = (
                None if raw is None else _compile_ignore(raw.decode("utf-8", "surrogateescape").splitlines())
            )
            if spec is not None:
                stack = (*stack, _Rules(rel_dir, "", spec))
        for entry in entries:
            child = self.entry(entry, abs_dir, rel_dir, stack, real_dir)
            if child is not None:
                pending.append(child)

    def entry(
        self, entry: os.DirEntry[str], abs_dir: str, rel_dir: str, stack: _Stack, real_dir: str
    ) -> tuple[str, str, _Stack, str] | None:
        """Handle one directory entry; return a subdirectory to descend into, if any."""
        name = entry.name
        if name in ALWAYS_SKIPPED:
            return None
        rel = rel_dir + name
        if not name.isascii() and not _utf8_ok(name):
            self.skip(_display(rel), SkipReason.ENCODING, "path is not valid UTF-8")
            return None
        abspath = os.path.join(abs_dir, name)
        try:
            is_link = entry.is_symlink()
            is_dir = not is_link and entry.is_dir(follow_symlinks=False)
        except OSError as exc:
            self.out.append(_os_error_skip(rel, exc))
            return None
        if is_link:
            self.symlink(abspath, rel, stack)
            return None
        if is_dir:
            if _is_ignored(stack, self.extra, rel, True):
                return None
            if name in VENDORED_DIRS and not self.include_vendored:
                self.skip(rel, SkipReason.VENDORED)
                return None
            return abspath, rel + "/", stack, real_dir + name + "/"
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError as exc:
            self.out.append(_os_error_skip(rel, exc))
            return None
        if self.record is not None:
            self.record.files.append((abspath, st.st_size, st.st_mtime_ns))
        self.file(abspath, rel, name, stack, st, real_dir + name)
        return None

    def file(self, abspath: str, rel: str, name: str, stack: _Stack, st: os.stat_result, real: str) -> None:
        if _is_ignored(stack, self.extra, rel, False):
            self.skip(rel, SkipReason.IGNORED)
            return
        if not stat.S_ISREG(st.st_mode):
            self.skip(rel, SkipReason.UNSUPPORTED, "not a regular file")
            return
        by_name = _name_check(name)
        if by_name is not None:
            self.out.append(Skipped(path=rel, reason=by_name[0], detail=by_name[1]))
            return
        language = detect_language(rel)
        if language is None and "." not in name.lstrip("."):
            try:  # an extension-less script: the shebang decides
                language = detect_language(rel, _read_beneath(self.real_root, real, SHEBANG_BYTES))
            except OSError as exc:
                self.out.append(_os_error_skip(rel, exc))
                return
        if language is None:
            self.skip(rel, SkipReason.UNSUPPORTED)
            return
        if st.st_size > self.max_file_bytes:
            self.skip(rel, SkipReason.TOO_LARGE, f"{st.st_size} > {self.max_file_bytes} bytes")
            return
        self.indexed.add((st.st_dev, st.st_ino))
        self.out.append(_Candidate(rel, abspath, st.st_size, st.st_mtime_ns, language, real))

    def symlink(self, abspath: str, rel: str, stack: _Stack) -> None:
        """Classify a symlink now; links inside the root wait in `links` until the plain walk is done."""
        try:
            target = os.path.realpath(abspath)
        except OSError as exc:  # a component swapped or removed while it is resolved (posixpath races)
            self.out.append(_os_error_skip(rel, exc))
            return
        try:
            st: os.stat_result | None = os.stat(abspath)
        except OSError:
            st = None
        is_dir = st is not None and stat.S_ISDIR(st.st_mode)
        if _is_ignored(stack, self.extra, rel, is_dir):
            if not is_dir:
                self.skip(rel, SkipReason.IGNORED)
            return
        if target != self.real_root and not target.startswith(self.real_root.rstrip(os.sep) + os.sep):
            self.skip(rel, SkipReason.SYMLINK_OUTSIDE, "-> " + _display(target))
            return
        if st is None:
            self.skip(rel, SkipReason.UNREADABLE, "broken symlink")
            return
        target_rel = os.path.relpath(target, self.real_root).replace(os.sep, "/")
        self.links.append(_Link(rel, abspath, stack, is_dir, st, target_rel))

    def resolve_links(self) -> None:
        """Follow the queued links once each, in path order (links found inside linked folders join)."""
        while self.links:
            batch = sorted(self.links, key=lambda link: link.rel)
            self.links.clear()
            for link in batch:
                self.follow(link)

    def follow(self, link: _Link) -> None:
        parts = link.target_rel.split("/")
        key = (link.st.st_dev, link.st.st_ino)
        if any(p in ALWAYS_SKIPPED for p in parts):
            self.skip(link.rel, SkipReason.IGNORED, f"symlink into {link.target_rel}")
        elif not self.include_vendored and any(p in VENDORED_DIRS for p in parts):
            self.skip(link.rel, SkipReason.VENDORED, f"symlink to {link.target_rel}")
        elif link.is_dir:
            if key in self.seen_dirs:
                self.skip(link.rel, SkipReason.IGNORED, f"symlink to {link.target_rel}, already walked")
            elif not self.include_vendored and link.rel.rsplit("/", 1)[-1] in VENDORED_DIRS:
                self.skip(link.rel, SkipReason.VENDORED)
            else:
                self.walk_dir(link.abspath, link.rel + "/", link.stack, link.target_rel + "/")
        elif key in self.indexed:
            self.skip(link.rel, SkipReason.IGNORED, f"symlink to {link.target_rel}, already indexed")
        else:
            self.file(
                link.abspath, link.rel, link.rel.rsplit("/", 1)[-1], link.stack, link.st, link.target_rel
            )


def _utf8_ok(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _display(path: str) -> str:
    """A printable form of a path whose bytes are not UTF-8 (bad bytes as `\\xNN`)."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def discover(
    root: Path,
    *,
    max_file_bytes: int = 1 << 20,
    include_vendored: bool = False,
    max_line_chars: int = 1000,
    extra_excludes: Sequence[str] = (),
    read: bool = True,
    use_ignore_files: bool = True,
    record: WalkRecord | None = None,
) -> Iterator[SourceFile | Skipped]:
    """Yield every file under `root` as a SourceFile to index or a Skipped with its reason, sorted by path.

    `extra_excludes` are gitignore-style patterns relative to the root that override every ignore file.
    With `read=False` no content is read (see the module docstring): `SourceFile.data` is None and the
    caller runs `load()` on the files it needs, which applies the remaining checks.
    `use_ignore_files=False` (grep's `--no-ignore`) reads no ignore file; `extra_excludes` still apply.
    `record`, when given, is filled with the directories and file entries the walk looked at.
    """
    root_str = os.fspath(root)
    if not os.path.isdir(root_str):
        raise UsageError(f"{root_str} is not a directory", hint="pass the folder to index")
    abs_root = os.path.abspath(root_str)
    real_root = os.path.realpath(root_str)
    extra = _compile_ignore(list(extra_excludes)) if extra_excludes else None
    walk = _Walk(abs_root, real_root, max_file_bytes, include_vendored, extra, use_ignore_files, record)
    walk.walk_dir(abs_root, "", _base_stack(real_root) if use_ignore_files else (), "")
    walk.resolve_links()
    walk.out.sort(key=lambda item: item.path)
    for item in walk.out:
        if isinstance(item, Skipped):
            yield item
            continue
        src = SourceFile(
            path=item.path,
            abspath=item.abspath,
            size=item.size,
            mtime_ns=item.mtime_ns,
            language=item.language,
            root=real_root,
            real=item.real,
        )
        yield load(src, max_file_bytes=max_file_bytes, max_line_chars=max_line_chars) if read else src
