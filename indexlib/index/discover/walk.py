"""The walk: listing a tree by descriptors, pruning folders, classifying files and symlinks.

Owns: the plain walk (each directory opened by `open_beneath` and listed through its descriptor),
VCS and vendored folders and virtual environments, the checks a file passes without being read
(ignored, not regular, name, language, size), the symlink policy (links resolved after the plain
walk, each target walked or indexed once), and the `WalkRecord` of what was looked at. Does not own:
reading file contents beyond a shebang (checks.py), compiling ignore rules (ignore.py).
"""

from __future__ import annotations

import os
import stat
from collections import deque
from dataclasses import dataclass, field

# Called through the module (`beneath.open_beneath`), not bound by name, so that every open the walk
# makes goes through the one function a test can replace.
import indexlib.index.discover.beneath as beneath
from indexlib.index.discover.checks import (
    BROKEN_SYMLINK,
    SHEBANG_BYTES,
    Skipped,
    name_check,
    os_error_skip,
)
from indexlib.index.discover.ignore import (
    IGNORE_FILES,
    RANKS,
    IgnoreFile,
    Rules,
    Stack,
    compile_ignore,
    ignore_verdict,
    is_ignored,
    push,
    read_at,
)
from indexlib.index.parsing.languages import detect_language, shebang_decides
from indexlib.records import SkipReason

# Version-control and index folders: never entered, never reported.
ALWAYS_SKIPPED = frozenset({".git", ".qry", ".hg", ".svn"})

# Dependency, cache and virtual-environment folders: skipped wherever they are, unless include_vendored.
# `venv` and `env` are not on the list by name, because they are ordinary package names too (the
# standard library's own `venv` package): a folder is a virtual environment when it holds `pyvenv.cfg`
# (or `conda-meta/`), whatever its name (`env`, `venv`, `.venv311`).
VENDORED_DIRS = frozenset(
    {
        "node_modules", "vendor", "third_party", ".venv", "site-packages", "__pycache__", ".tox",
        ".mypy_cache", "bower_components", "Pods", ".gradle",
    }
)  # fmt: skip
# Build-output folders, skipped like vendored ones only where a build puts them: at the top of the
# tree, or beside a project manifest (`packages/x/dist` next to `packages/x/package.json`, a Maven
# module's `target`). Elsewhere the same names are source packages (`indexlib/index/build`, Go's
# `internal/build`), which a name-only rule would silently leave out.
BUILD_OUTPUT_DIRS = frozenset({"dist", "build", "target"})
PROJECT_MANIFESTS = frozenset(
    {
        "package.json", "pyproject.toml", "setup.py", "setup.cfg", "Cargo.toml", "pom.xml", "build.gradle",
        "build.gradle.kts", "go.mod", "CMakeLists.txt", "Makefile", "meson.build", "composer.json", "build.sbt",
    }
)  # fmt: skip
VENV_MARKERS = ("pyvenv.cfg", "conda-meta")


@dataclass(slots=True)
class _Candidate:
    """A file that passed every check discovery can make without reading it."""

    path: str
    abspath: str
    size: int
    mtime_ns: int
    language: str
    real: str
    unhidden: bool = False
    ctime_ns: int = 0


@dataclass(slots=True)
class _Link:
    """A symlink inside the root, resolved after the plain walk."""

    rel: str
    abspath: str
    stack: Stack
    is_dir: bool
    st: os.stat_result
    target_rel: str


@dataclass(slots=True)
class WalkRecord:
    """What a walk looked at, for a caller that wants to tell later whether a new walk could differ
    (`grep/walkcache.py`): every directory listed with its mtime, and every other entry's stat."""

    dirs: list[tuple[str, int, int]] = field(default_factory=list)  # (absolute path, mtime_ns, ctime_ns)
    # (absolute path, size, mtime_ns, ctime_ns)
    files: list[tuple[str, int, int, int]] = field(default_factory=list)


@dataclass(slots=True)
class Walk:
    abs_root: str
    real_root: str
    max_file_bytes: int
    include_vendored: bool
    extra: IgnoreFile | None
    use_ignore_files: bool = True
    record: WalkRecord | None = None
    # The root is the top of its tree (a repository's top, or a folder outside any repository), so a
    # build-output name directly below it is build output; a subfolder of a repository is not.
    root_is_top: bool = True
    # List files no language claims too, with language "" (grep: rg searches every text file).
    unparsed: bool = False
    out: list[_Candidate | Skipped] = field(default_factory=list)
    links: deque[_Link] = field(default_factory=deque)
    seen_dirs: set[tuple[int, int]] = field(default_factory=set)
    indexed: set[tuple[int, int]] = field(default_factory=set)
    # Folders ("a/.b/") whose hidden components an ignore file's `!` re-includes (`SourceFile.unhidden`).
    unhidden_dirs: set[str] = field(default_factory=set)

    def skip(self, rel: str, reason: SkipReason, detail: str = "") -> None:
        self.out.append(Skipped(path=rel, reason=reason.value, detail=detail))

    def walk_dir(self, abs_dir: str, rel_dir: str, stack: Stack, real_dir: str) -> None:
        """Walk one directory tree without following symlinks (they are queued in `links`).

        Each directory is opened by `open_beneath` at `real_dir` (its symlink-free path below the real
        root) and listed through that descriptor, so a folder swapped for a link after its parent was
        listed is never entered; `abs_dir` only builds the absolute paths shown to the user.
        """
        pending: list[tuple[str, str, Stack, str]] = [(abs_dir, rel_dir, stack, real_dir)]
        while pending:
            abs_dir, rel_dir, stack, real_dir = pending.pop()
            try:
                dfd = beneath.open_beneath(self.real_root, real_dir, directory=True)
            except OSError as exc:
                self.out.append(os_error_skip(rel_dir.rstrip("/") or ".", exc))
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
        stack: Stack,
        real_dir: str,
        pending: list[tuple[str, str, Stack, str]],
    ) -> None:
        """List the directory open as `dfd`: apply its ignore files, queue subdirectories in `pending`."""
        try:
            st = os.fstat(dfd)
            with os.scandir(dfd) as it:
                entries = list(it)
        except OSError as exc:
            self.out.append(os_error_skip(rel_dir.rstrip("/") or ".", exc))
            return
        self.seen_dirs.add((st.st_dev, st.st_ino))
        if self.record is not None:
            self.record.dirs.append((abs_dir, st.st_mtime_ns, st.st_ctime_ns))
        names = {e.name for e in entries}
        if rel_dir and not self.include_vendored:
            marker = next((m for m in VENV_MARKERS if m in names), None)
            if marker is not None:
                self.skip(rel_dir.rstrip("/"), SkipReason.VENDORED, f"virtual environment ({marker})")
                return
        stack = self.own_rules(dfd, names, rel_dir, stack)
        builds_here = self.builds_here(names, rel_dir)
        for entry in entries:
            child = self.entry(entry, abs_dir, rel_dir, stack, real_dir, builds_here)
            if child is not None:
                pending.append(child)

    def own_rules(self, dfd: int, names: set[str], rel_dir: str, stack: Stack) -> Stack:
        """`stack` plus the ignore files of the directory open as `dfd` (`rel_dir`: its path with a
        trailing slash, "" for the root)."""
        for name in IGNORE_FILES if self.use_ignore_files else ():
            raw = read_at(dfd, name) if name in names else None
            spec = (
                None if raw is None else compile_ignore(raw.decode("utf-8", "surrogateescape").splitlines())
            )
            if spec is not None:
                stack = push(stack, Rules(rel_dir, "", spec, RANKS[name]))
        return stack

    def builds_here(self, names: set[str], rel_dir: str) -> bool:
        """Whether a build-output name inside the directory holding `names` is build output: the
        directory is the tree's top, or it holds a project manifest."""
        return (not rel_dir and self.root_is_top) or not names.isdisjoint(PROJECT_MANIFESTS)

    def enters(self, rel_dir: str, stack: Stack) -> bool:
        """Whether this walk, started with `stack`, lists the folder `rel_dir` (POSIX, relative to the
        root): False when it or a folder above it is skipped (version-control or index folder,
        vendored, build output, virtual environment, ignored), by the rules `list_dir` and `entry`
        apply. A folder reached through a symlink counts as entered (links are followed after the
        walk, by their targets' own rules); an unreadable one too (the walk reports it)."""
        parts = [p for p in rel_dir.strip("/").split("/") if p]
        for depth, name in enumerate(parts):
            parent = "".join(p + "/" for p in parts[:depth])
            try:
                dfd = beneath.open_beneath(self.real_root, parent, directory=True)
            except OSError:
                return True
            try:
                names = set(os.listdir(dfd))
                stack = self.own_rules(dfd, names, parent, stack)
                child_st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
            except OSError:
                return True
            finally:
                os.close(dfd)
            if stat.S_ISLNK(child_st.st_mode):
                return True
            rel = parent + name
            if name in ALWAYS_SKIPPED or is_ignored(stack, self.extra, rel, True):
                return False
            if self.vendored_name(name, self.builds_here(names, parent)):
                return False
            try:
                if not self.include_vendored and any(
                    m in os.listdir(os.path.join(self.real_root, rel)) for m in VENV_MARKERS
                ):
                    return False
            except OSError:
                return True
        return True

    def entry(
        self,
        entry: os.DirEntry[str],
        abs_dir: str,
        rel_dir: str,
        stack: Stack,
        real_dir: str,
        builds_here: bool,
    ) -> tuple[str, str, Stack, str] | None:
        """Handle one directory entry; return a subdirectory to descend into, if any.

        `builds_here`: the directory being listed is the tree's top or holds a project manifest, so a
        build-output name below it is build output."""
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
            self.out.append(os_error_skip(rel, exc))
            return None
        if is_link:
            self.symlink(abspath, rel, stack)
            return None
        if is_dir:
            verdict = ignore_verdict(stack, self.extra, rel, True)
            if verdict:
                return None
            if self.vendored_name(name, builds_here):
                self.skip(rel, SkipReason.VENDORED)
                return None
            if self.revealed(rel, verdict):
                self.unhidden_dirs.add(rel + "/")
            return abspath, rel + "/", stack, real_dir + name + "/"
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError as exc:
            self.out.append(os_error_skip(rel, exc))
            return None
        if self.record is not None:
            self.record.files.append((abspath, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
        self.file(abspath, rel, name, stack, st, real_dir + name)
        return None

    def revealed(self, rel: str, verdict: bool | None) -> bool:
        """Whether `rel` is hidden, yet rg would search it without --hidden: every component that
        starts with `.` is re-included by a `!` pattern (`verdict` False for `rel` itself; its
        folders were judged when they were entered). rg skips a hidden entry only when no ignore
        rule names it, so a re-included `.github/` is searched, and so is what lies below it."""
        parent, _sep, name = rel.rpartition("/")
        hidden_above = "/." in "/" + parent if parent else False
        if hidden_above and parent + "/" not in self.unhidden_dirs:
            return False
        if name.startswith("."):
            return verdict is False
        return hidden_above

    def file(self, abspath: str, rel: str, name: str, stack: Stack, st: os.stat_result, real: str) -> None:
        verdict = ignore_verdict(stack, self.extra, rel, False)
        if verdict:
            self.skip(rel, SkipReason.IGNORED)
            return
        if not stat.S_ISREG(st.st_mode):
            self.skip(rel, SkipReason.UNSUPPORTED, "not a regular file")
            return
        by_name = name_check(name)
        if by_name is not None:
            self.out.append(Skipped(path=rel, reason=by_name[0], detail=by_name[1]))
            return
        language = detect_language(rel)
        if language is None and shebang_decides(name):
            try:  # a script with no extension: the shebang decides
                language = detect_language(rel, beneath.read_beneath(self.real_root, real, SHEBANG_BYTES))
            except OSError as exc:
                self.out.append(os_error_skip(rel, exc))
                return
        if language is None:
            if not self.unparsed:
                self.skip(rel, SkipReason.UNSUPPORTED)
                return
            language = ""
        if st.st_size > self.max_file_bytes:
            self.skip(rel, SkipReason.TOO_LARGE, f"{st.st_size} > {self.max_file_bytes} bytes")
            return
        self.indexed.add((st.st_dev, st.st_ino))
        unhidden = self.revealed(rel, verdict)
        self.out.append(
            _Candidate(rel, abspath, st.st_size, st.st_mtime_ns, language, real, unhidden, st.st_ctime_ns)
        )

    def symlink(self, abspath: str, rel: str, stack: Stack) -> None:
        """Classify a symlink now; links inside the root wait in `links` until the plain walk is done."""
        try:
            target = os.path.realpath(abspath)
        except OSError as exc:  # a component swapped or removed while it is resolved (posixpath races)
            self.out.append(os_error_skip(rel, exc))
            return
        try:
            st: os.stat_result | None = os.stat(abspath)
        except OSError:
            st = None
        is_dir = st is not None and stat.S_ISDIR(st.st_mode)
        if is_ignored(stack, self.extra, rel, is_dir):
            if not is_dir:
                self.skip(rel, SkipReason.IGNORED)
            return
        if target != self.real_root and not target.startswith(self.real_root.rstrip(os.sep) + os.sep):
            self.skip(rel, SkipReason.SYMLINK_OUTSIDE, "-> " + _display(target))
            return
        if st is None:
            self.skip(rel, SkipReason.UNREADABLE, BROKEN_SYMLINK)
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

    def vendored_name(self, name: str, builds_here: bool) -> bool:
        """Whether a folder called `name` is skipped as vendored or build output (`builds_here`: its
        parent is the tree's top or holds a project manifest)."""
        if self.include_vendored:
            return False
        return name in VENDORED_DIRS or (builds_here and name in BUILD_OUTPUT_DIRS)

    def vendored_path(self, parts: list[str]) -> bool:
        """Whether a folder on the path `parts` (relative to the real root) is one the walk skips as
        vendored or build output: `entry`'s rules, for a path reached through a symlink."""
        for depth, name in enumerate(parts):
            if name in VENDORED_DIRS:
                return True
            if name in BUILD_OUTPUT_DIRS and (
                (depth == 0 and self.root_is_top) or _builds_in(os.path.join(self.real_root, *parts[:depth]))
            ):
                return True
        return False

    def follow(self, link: _Link) -> None:
        parts = link.target_rel.split("/")
        key = (link.st.st_dev, link.st.st_ino)
        if any(p in ALWAYS_SKIPPED for p in parts):
            self.skip(link.rel, SkipReason.IGNORED, f"symlink into {link.target_rel}")
        elif not self.include_vendored and self.vendored_path(parts):
            self.skip(link.rel, SkipReason.VENDORED, f"symlink to {link.target_rel}")
        elif link.is_dir:
            if key in self.seen_dirs:
                self.skip(link.rel, SkipReason.IGNORED, f"symlink to {link.target_rel}, already walked")
            elif not self.include_vendored and self.vendored_path(link.rel.split("/")):
                self.skip(link.rel, SkipReason.VENDORED)
            else:
                self.walk_dir(link.abspath, link.rel + "/", link.stack, link.target_rel + "/")
        elif key in self.indexed:
            self.skip(link.rel, SkipReason.IGNORED, f"symlink to {link.target_rel}, already indexed")
        else:
            self.file(
                link.abspath, link.rel, link.rel.rsplit("/", 1)[-1], link.stack, link.st, link.target_rel
            )


def _builds_in(real_dir: str) -> bool:
    """Whether the directory holds a project manifest (so its build-output names are build output)."""
    try:
        return not PROJECT_MANIFESTS.isdisjoint(os.listdir(real_dir))
    except OSError:
        return False


def _utf8_ok(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _display(path: str) -> str:
    """A printable form of a path whose bytes are not UTF-8 (bad bytes as `\\xNN`)."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")
