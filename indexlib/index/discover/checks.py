"""Per-file checks and the read of one discovered file.

Owns: what discovery yields (`SourceFile`, `Skipped`), the checks decided by a file's name (lock
files, `*.min.js`, source maps), by its bytes (`check_content`: byte order marks, binary, encoding,
minified text), the generated-code marker (`generated_marker`: such a file is indexed, marked, and
ranked as supporting code), an OS error as a skip reason, and `load`, which reads a listed file
(through `open_beneath`), applies the size limit and the content checks, and refines its language. Does not own: the walk, ignore rules (walk.py, ignore.py).
"""

from __future__ import annotations

import os
import re

import msgspec

from indexlib.index.discover.beneath import FILE_FLAGS, read_beneath
from indexlib.index.parsing.languages import detect_language
from indexlib.records import SkipReason

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
    # A hidden path (a component starts with `.`) whose every hidden component an ignore file's `!`
    # pattern re-includes (`!/.github/`): ripgrep then searches it without --hidden, and so does grep.
    unhidden: bool = False
    ctime_ns: int = 0  # from the walk's stat (0 when not walked): grep's test of the index's freshness
    # A `Code generated ... DO NOT EDIT` / `@generated` marker in its first lines (set by `load`). Such
    # code is searched (a mock, a protobuf stub, a parser table is often what a name leads to) but
    # ranked below hand-written code, as tests and vendored code are.
    generated: bool = False


class Skipped(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A file or pruned directory left out, with a SkipReason value and an optional detail."""

    path: str
    reason: str
    detail: str = ""


def check_content(data: bytes, *, max_line_chars: int = 1000) -> tuple[str, str] | None:
    """(reason, detail) when a file's bytes should not be indexed, else None.

    Checks, cheapest first: a UTF-16/32 byte order mark (encoding), a NUL byte in the first 8 KiB
    (binary), invalid UTF-8 anywhere (encoding; a UTF-8 BOM is fine), and minified text (a line over
    `max_line_chars` in a file whose lines average 200+ characters). The build runs this on every file
    it reads (via `load`), so it costs one UTF-8 decode and a newline count per file. A generated-code
    marker is not a reason to skip (`generated_marker`).
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
    if len(text) > max_line_chars:
        lines = text.count("\n") + (0 if text.endswith("\n") else 1)
        if len(text) / lines >= MINIFIED_AVG_LINE_CHARS:
            longest = max(map(len, text.split("\n")))
            if longest > max_line_chars:
                return SkipReason.MINIFIED.value, f"longest line {longest} characters"
    return None


def generated_marker(data: bytes) -> str | None:
    """The line holding a `@generated` or `generated ... DO NOT EDIT` marker among the first 10 lines
    (stripped, at most 80 characters), else None: the convention of Go, protoc, mockery, Bazel and
    most code generators, which a reader of the file can check."""
    head = data[:4096].decode("utf-8", errors="replace")
    for line in head.split("\n", GENERATED_MARKER_LINES)[:GENERATED_MARKER_LINES]:
        if _GENERATED_RE.search(line):
            return line.strip()[:80]
    return None


def name_check(name: str) -> tuple[str, str] | None:
    """Skips decided by the file name alone."""
    if name in LOCK_FILES:
        return SkipReason.LOCK_FILE.value, "lock file"
    if name.endswith(MINIFIED_SUFFIXES):
        return SkipReason.MINIFIED.value, "minified or source-map file name"
    return None


BROKEN_SYMLINK = "broken symlink"  # the detail of an unreadable link (walk.py): no OS error to report


def refused(item: Skipped) -> bool:
    """Whether the operating system refused discovery this entry (a folder it may not list, a file it
    may not read): what `qry grep` reports as rg does. Not a broken link (rg does not follow links),
    not an entry that vanished while it was walked."""
    return item.reason == SkipReason.UNREADABLE.value and item.detail != BROKEN_SYMLINK


def os_error_skip(path: str, exc: OSError) -> Skipped:
    if isinstance(exc, FileNotFoundError | NotADirectoryError | IsADirectoryError):
        return Skipped(path=path, reason=SkipReason.VANISHED.value, detail=type(exc).__name__)
    return Skipped(path=path, reason=SkipReason.UNREADABLE.value, detail=exc.strerror or type(exc).__name__)


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
            data = read_beneath(src.root, src.real, max_file_bytes + 1)
        else:  # a SourceFile built by hand, not by discover: at least refuse a link as the last step
            with os.fdopen(os.open(src.abspath, FILE_FLAGS), "rb") as fh:
                data = fh.read(max_file_bytes + 1)
    except OSError as exc:
        return os_error_skip(src.path, exc)
    return _checked(src, data, max_file_bytes, max_line_chars)


def _checked(src: SourceFile, data: bytes, max_file_bytes: int, max_line_chars: int) -> SourceFile | Skipped:
    """`src` with the bytes read (at most `max_file_bytes + 1`) if they pass the content checks."""
    if len(data) > max_file_bytes:
        return Skipped(path=src.path, reason=SkipReason.TOO_LARGE.value, detail=f"> {max_file_bytes} bytes")
    bad = check_content(data, max_line_chars=max_line_chars)
    if bad is not None:
        return Skipped(path=src.path, reason=bad[0], detail=bad[1])
    language = detect_language(src.path, data[:HEAD_BYTES]) or src.language
    generated = generated_marker(data) is not None
    return msgspec.structs.replace(src, data=data, language=language, generated=generated)


def load_stream(
    src: SourceFile, *, max_file_bytes: int = 1 << 20, max_line_chars: int = 1000
) -> SourceFile | Skipped:
    """`load` for a file that is not a regular one, named on grep's command line (`/dev/null`, a
    FIFO, `<(cmd)`): read as a stream, blocking until the writer is done or `max_file_bytes + 1`
    bytes came (so `/dev/zero` ends as too large), as rg reads such a file. Never used by a walk,
    which skips every entry that is not a regular file or a folder."""
    try:
        with open(src.abspath, "rb") as fh:
            data = fh.read(max_file_bytes + 1)
    except OSError as exc:
        return os_error_skip(src.path, exc)
    return _checked(src, data, max_file_bytes, max_line_chars)
