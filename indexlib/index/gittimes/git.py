"""Running git safely, and reading what it prints: blame porcelain, `git log -p` / `git diff` patches.

Owns: the work tree a root lies in (`GitRepo.open`: prefix, HEAD exists), the environment and `-c`
settings every git command runs with (so a user's config cannot change the output parsed here), and
the parsers of that output: patches grouped by commit, C-quoted paths, blame's per-line committer
times. Does not own: which files get which strategy (`gittimes/__init__.py`), mapping lines through
history (replay.py).
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

_CMD_TIMEOUT_S = 60.0  # bookkeeping commands (rev-parse, ls-files, diff)
BLAME_TIMEOUT_S = 300.0  # one file's blame, whatever the budget
LOG_TIMEOUT_S = 3600.0  # the replay, whatever the budget

_UNCOMMITTED = b"0" * 40
_UNCOMMITTED_256 = b"0" * 64
_BLAME_HEADER = re.compile(rb"^([0-9a-f]{40}|[0-9a-f]{64}) \d+ (\d+)(?: \d+)?$")
_COMMIT_HEADER = re.compile(rb"^\x01([0-9a-f]{40}|[0-9a-f]{64}) (-?\d+)((?: [0-9a-f]+)*)\s*$")
_HUNK = re.compile(rb"^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")

# Settings a user's git config could set that would change or break the output we parse, or make blame
# and the replay disagree (both must diff the same way).
_GIT_CONFIG = (
    "-c", "blame.ignoreRevsFile=",
    "-c", "blame.markIgnoredLines=false",
    "-c", "blame.markUnblamableLines=false",
    "-c", "log.showSignature=false",
    "-c", "core.quotePath=false",
    "-c", "diff.external=",
    "-c", "diff.algorithm=myers",
    "-c", "diff.indentHeuristic=true",
    "-c", "diff.noprefix=false",
    "-c", "diff.mnemonicPrefix=false",
    "-c", "diff.relative=false",
    "-c", "color.ui=false",
)  # fmt: skip
DIFF_ARGS = (
    "-p", "-U0", "--inter-hunk-context=0", "--text", "--no-color", "--no-ext-diff", "--no-textconv",
    "--src-prefix=a/", "--dst-prefix=b/",
)  # fmt: skip


class GitRepo:
    """A git work tree that `root` lies in, and how to run git there safely."""

    def __init__(self, root: Path, prefix: bytes, env: dict[str, str]) -> None:
        self.root = root
        self.prefix = prefix  # root relative to the top of the work tree, b"" or b"sub/dir/"
        self.env = env

    @classmethod
    def open(cls, root: Path) -> GitRepo | None:
        env = dict(os.environ)
        env.update(
            GIT_OPTIONAL_LOCKS="0",  # never write the index: other git commands may run at the same time
            GIT_TERMINAL_PROMPT="0",
            GIT_LITERAL_PATHSPECS="1",
            GIT_PAGER="cat",
            LC_ALL="C",
        )
        for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
            env.pop(var, None)  # a caller's environment must not redirect us to another repository
        probe = cls(root, b"", env)
        top = probe.run("rev-parse", "--show-toplevel")
        if top is None or not top.strip():
            return None
        try:
            rel = os.path.relpath(os.path.realpath(root), os.path.realpath(os.fsdecode(top.rstrip(b"\n"))))
        except ValueError:
            return None
        if rel.startswith(".."):
            return None
        probe.prefix = b"" if rel == "." else os.fsencode(rel).replace(os.sep.encode(), b"/") + b"/"
        if probe.run("rev-parse", "-q", "--verify", "HEAD^{commit}") is None:
            return None  # no commit yet: nothing in history, every line is uncommitted
        return probe

    def argv(self, *args: str | bytes) -> list[str | bytes]:
        return ["git", "-C", str(self.root), *_GIT_CONFIG, *args]

    def run(self, *args: str | bytes, timeout: float = _CMD_TIMEOUT_S) -> bytes | None:
        """Run a git command; its stdout, or None on any failure (missing git, error, timeout)."""
        try:
            out = subprocess.run(
                self.argv(*args),
                capture_output=True,
                timeout=timeout,
                env=self.env,
                stdin=subprocess.DEVNULL,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return out.stdout if out.returncode == 0 else None

    def popen(self, *args: str | bytes) -> subprocess.Popen[bytes] | None:
        try:
            return subprocess.Popen(
                self.argv(*args),
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                stdin=subprocess.DEVNULL,
                env=self.env,
            )
        except OSError:
            return None


FilePatch = tuple[bytes | None, bytes | None, list[tuple[int, int, int]]]  # old path, new path, hunks


def patches(lines: Iterator[bytes], *, header: bool) -> Iterator[tuple[tuple[int, bool], list[FilePatch]]]:
    """Group `git log -p -U0` (or `git diff`) output by commit: ((time, is_merge), [(old, new, hunks)]).

    Parsing is positional, so no file content is ever read as a header: a hunk header gives how many
    `-` and `+` lines follow, and those are skipped by count (`\\ No newline` markers aside). Paths come
    from `rename from/to` and `---`/`+++` lines (one path per line, C-quoted when git quotes them),
    never from the ambiguous `diff --git a/x b/y` line. `/dev/null` is None.
    """
    commit = (0, False)
    files: list[FilePatch] = []
    old: bytes | None = None
    new: bytes | None = None
    hunks: list[tuple[int, int, int]] = []
    in_file = False
    skip = 0

    def flush() -> None:
        if in_file:
            files.append((old, new, hunks))

    for line in lines:
        if skip:
            if line[:1] != b"\\":
                skip -= 1
            continue
        if header and line[:1] == b"\x01":
            m = _COMMIT_HEADER.match(line)
            if m is not None:
                flush()
                if commit[0] or files:
                    yield commit, files
                commit = (int(m.group(2)), len(m.group(3).split()) > 1)
                files, in_file, old, new, hunks = [], False, None, None, []
                continue
        if line.startswith(b"diff --git "):
            flush()
            in_file, old, new, hunks = True, None, None, []
        elif not in_file:
            continue
        elif line.startswith(b"@@ "):
            h = _HUNK.match(line)
            if h is not None:
                old_count = int(h.group(1)) if h.group(1) is not None else 1
                new_count = int(h.group(3)) if h.group(3) is not None else 1
                hunks.append((old_count, int(h.group(2)), new_count))
                skip = old_count + new_count
        elif line.startswith(b"rename from "):
            old = unquote(line[12:])
        elif line.startswith(b"rename to "):
            new = unquote(line[10:])
        elif line.startswith(b"--- "):
            old = _diff_path(line[4:], b"a/")
        elif line.startswith(b"+++ "):
            new = _diff_path(line[4:], b"b/")
    flush()
    if commit[0] or files:
        yield commit, files


def _diff_path(raw: bytes, prefix: bytes) -> bytes | None:
    if raw.endswith(b"\t"):
        raw = raw[:-1]  # git ends a name holding a space with a TAB (a real TAB in a name is quoted)
    if raw == b"/dev/null":
        return None
    path = unquote(raw)
    return path[len(prefix) :] if path.startswith(prefix) else path


_ESCAPES = {ord("a"): 7, ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11, ord("f"): 12, ord("r"): 13}


def unquote(raw: bytes) -> bytes:
    """Undo git's C-style quoting of a path (`"a/new\\nline.py"`, octal `\\377` for raw bytes)."""
    if len(raw) < 2 or raw[:1] != b'"' or raw[-1:] != b'"':
        return raw
    body = raw[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c == 0x5C and i + 1 < len(body):
            nxt = body[i + 1]
            octal = body[i + 1 : i + 4]
            if len(octal) == 3 and all(0x30 <= b <= 0x37 for b in octal):
                out.append(int(octal, 8) & 0xFF)
                i += 4
                continue
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


def blame_file(repo: GitRepo, path: str, mtime: int, timeout: float) -> list[int] | None:
    """Committer time per line of the work-tree file (uncommitted lines: `mtime`), or None.

    No revision is named, so git blames the file as it is on disk, the same bytes the nodes were cut
    from; `--first-parent` names the commit a line landed on this branch with (the replay's answer);
    `--` comes before the path (relative to the root, git's working directory here).
    """
    proc = repo.popen("blame", "--porcelain", "--first-parent", "--", os.fsencode(path))
    if proc is None:
        return None
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None
    if proc.returncode != 0:
        return None
    return parse_blame_porcelain(out, mtime)


def parse_blame_porcelain(out: bytes, uncommitted_time: int) -> list[int]:
    """`git blame --porcelain` output -> committer time of each final line, in order.

    Each line group starts with `<sha> <orig> <final> [<count>]`; the first group of a commit is followed
    by its headers (`committer-time ...`); every source line follows, prefixed by a TAB, so file
    content can never be mistaken for a header.
    """
    times: dict[bytes, int] = {}
    by_line: dict[int, bytes] = {}
    sha = b""
    for line in out.split(b"\n"):
        if not line or line[:1] == b"\t":
            continue
        m = _BLAME_HEADER.match(line)
        if m is not None:
            sha = m.group(1)
            by_line[int(m.group(2))] = sha
        elif line.startswith(b"committer-time "):
            try:
                times[sha] = int(line[15:])
            except ValueError:
                pass
    result: list[int] = []
    for i in range(1, len(by_line) + 1):
        sha = by_line.get(i, _UNCOMMITTED)
        if sha in (_UNCOMMITTED, _UNCOMMITTED_256):
            result.append(uncommitted_time)
        else:
            result.append(times.get(sha, uncommitted_time))
    return result
