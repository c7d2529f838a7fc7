"""Ignore rules: `.gitignore`, `.ignore`, `.rgignore`, `.qryignore` files, `.git/info/exclude`, and
`--exclude` patterns.

Owns: compiling one ignore file into a single regular expression with git's semantics (`IgnoreFile`,
pattern syntax translated by `pathspec`), the stack of ignore files that applies in a directory, the
verdict for one path, and the rules inherited from folders above the root when the root is inside a
git repository (`base_stack`). The user's global `core.excludesFile` is deliberately not read, nor
ignore files above the repository's top (or above a root outside any repository; rg reads those), so
the same tree indexes the same on every machine. Does not own: the walk (walk.py).

Precedence, as ripgrep's: every file has the syntax of `.gitignore`, and a kind of file outranks the
kinds before it in `IGNORE_FILES` wherever it lies: a `.rgignore` match anywhere beats any `.ignore`
match, which beats any `.gitignore` (or `.git/info/exclude`) match; `.qryignore`, qry's own file as
`.rgignore` is rg's, outranks all three. Among files of one kind the deepest with an opinion wins,
and inside a file the last matching pattern. The command line's excludes outrank every file. Unlike
rg, `.gitignore` applies outside a git repository too (as it always has in qry); `.ignore` and
`.rgignore` do in rg as well.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass

from pathspec.patterns.gitignore.basic import GitIgnoreBasicPattern

from indexlib.index.discover.beneath import FILE_FLAGS
from indexlib.records import IGNORE_FILES as IGNORE_FILES  # re-exported: discovery's callers find it here

RANKS = {name: rank for rank, name in enumerate(IGNORE_FILES)}  # `.git/info/exclude` ranks as .gitignore


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
class Rules:
    """One ignore file in the stack. A path relative to the root is checked as
    `prepend + path[len(strip):]`: `strip` is the ignore file's folder (relative to the root, with a
    trailing slash), `prepend` the root's own path relative to a folder above it; `rank` its kind's
    place in `IGNORE_FILES` (0 for `.git/info/exclude`)."""

    strip: str
    prepend: str
    patterns: IgnoreFile
    rank: int = 0


Stack = tuple[Rules, ...]  # lowest precedence first: by rank, then shallowest first


def push(stack: Stack, rules: Rules) -> Stack:
    """`stack` with `rules` (of a folder at least as deep as any in it) in its place: after every
    file of a lower or equal rank, before those that outrank it, so `ignore_verdict` (which reads the
    stack from the end) asks the highest kind first and, within a kind, the deepest file."""
    i = len(stack)
    while i and stack[i - 1].rank > rules.rank:
        i -= 1
    return (*stack[:i], rules, *stack[i:])


def _read_ignore_file(path: str) -> IgnoreFile | None:
    try:
        with open(path, "rb") as fh:
            raw = fh.read(1 << 20)
    except OSError:
        return None
    return compile_ignore(raw.decode("utf-8", "surrogateescape").splitlines())


def read_at(dfd: int, name: str) -> bytes | None:
    """An ignore file of the directory open as `dfd` (not followed if it is a link), or None."""
    try:
        fd = os.open(name, FILE_FLAGS, dir_fd=dfd)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            return fh.read(1 << 20)
        except OSError:
            return None


def compile_ignore(lines: Sequence[str]) -> IgnoreFile | None:
    try:
        patterns = IgnoreFile(lines)
    except (ValueError, re.error):  # a malformed pattern must not stop a build: ignore the file
        return None
    return patterns if patterns else None


def ignore_verdict(stack: Stack, extra: IgnoreFile | None, rel: str, is_dir: bool) -> bool | None:
    """True: ignored; False: re-included by a `!` pattern; None: no ignore rule names the path.

    The highest kind of ignore file with an opinion wins, then the deepest of that kind (git's
    rule among `.gitignore` files), inside a file the last match (see the module docstring).
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
    return None


def is_ignored(stack: Stack, extra: IgnoreFile | None, rel: str, is_dir: bool) -> bool:
    """Whether an ignore rule leaves the path out (`ignore_verdict` is True)."""
    return ignore_verdict(stack, extra, rel, is_dir) is True


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


def inside_repository_below_top(real_root: str) -> bool:
    """Whether `real_root` is a subfolder of a git repository (not its top, not outside any)."""
    if _git_dir(real_root) is not None:
        return False
    cur = real_root
    while (parent := os.path.dirname(cur)) != cur:
        if _git_dir(parent) is not None:
            return True
        cur = parent
    return False


def base_stack(real_root: str) -> Stack:
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
        return (Rules("", "", spec),) if spec is not None else ()
    # (folder relative to the top, patterns, rank), lowest precedence first.
    found: list[tuple[str, IgnoreFile, int]] = []
    spec = _read_ignore_file(os.path.join(gitdir, "info", "exclude"))
    if spec is not None:
        found.append(("", spec, 0))
    for folder in [top, *reversed(between[1:])]:
        folder_rel = os.path.relpath(folder, top).replace(os.sep, "/")
        folder_rel = "" if folder_rel == "." else folder_rel + "/"
        for name in IGNORE_FILES:
            spec = _read_ignore_file(os.path.join(folder, name))
            if spec is not None:
                found.append((folder_rel, spec, RANKS[name]))
    found.sort(key=lambda f: f[2])  # stable: by rank, then shallowest first, as `push` orders a stack
    parts = rel_root.split("/")
    for depth in range(1, len(parts) + 1):
        ancestor = "/".join(parts[:depth]) + "/"
        for folder_rel, spec, _rank in reversed(found):
            if ancestor.startswith(folder_rel) and ancestor != folder_rel:
                verdict = spec.verdict(ancestor[len(folder_rel) :])
                if verdict is not None:
                    if verdict:
                        return ()
                    break
    return tuple(Rules("", rel_root[len(f) :] + "/", spec, rank) for f, spec, rank in found)


def exclude_file(folder: str) -> str | None:
    """The `info/exclude` file `base_stack` reads for a repository whose top is `folder`, or None
    (for the walk cache, which must notice it changing)."""
    gitdir = _git_dir(folder)
    return None if gitdir is None else os.path.join(gitdir, "info", "exclude")
