"""The QryError hierarchy.

Owns: every error the library raises on purpose. Each carries a `hint` saying what to do next, and a
`code` naming the rule that was broken, so the CLI and the MCP server can print or return it without
knowing the cause. The library never prints or exits.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class QryError(Exception):
    """Base of all deliberate qry errors: a message, a hint, a machine-readable code."""

    code: str = "error"

    def __init__(self, message: str, hint: str = "", *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        if code is not None:
            self.code = code

    def to_dict(self) -> dict[str, object]:
        return {"isError": True, "error": self.message, "hint": self.hint, "code": self.code}


class UsageError(QryError):
    """Bad arguments or query text."""

    code = "usage"


class IndexNotFound(QryError):
    code = "index_not_found"


class IndexCorrupt(QryError):
    """A file of the index is missing, truncated or altered."""

    code = "index_corrupt"


class FormatVersionError(QryError):
    """A manifest written by another on-disk format version (`found`, when it could be read)."""

    code = "format_version"
    found: object = None


class LockBusy(QryError):
    """Another writer holds the index lock."""

    code = "lock_busy"


class ModelError(QryError):
    """The embedding model is missing, unreadable, or differs from the one the index was built with."""

    code = "model"


class GraphQueryError(QryError):
    """A graph query broke one of the bounded profile's rules; `code` names the rule."""

    code = "graph_query"


class QueryTimeout(QryError):
    code = "timeout"


class DiskFull(QryError):
    """A write failed because the file system is full (ENOSPC) or the user's quota is spent."""

    code = "disk_full"


class PermissionDenied(QryError):
    """The operating system refused qry a file or folder outside what a more precise error names."""

    code = "permission_denied"


class IndexNotWritable(QryError):
    """qry may not write inside the index directory: its modes, its owner, or a read-only mount.

    Its own code because nothing is damaged (`qry verify` passes) and rebuilding would not help. A
    search meets it too: Tantivy takes a lock file in a segment's folder even to open a reader
    (engines/lexical.py), so an index nobody may write to cannot be searched.
    """

    code = "index_not_writable"


DISK_FULL_HINT = (
    "free space on that file system (`qry gc --keep 1` removes old roots and leftovers; it works on a "
    "full disk), or put the index elsewhere with --index-dir"
)
_DISK_FULL_ERRNOS = (28, 122)  # ENOSPC, EDQUOT (Linux numbering; macOS EDQUOT is 69, also below)
_DISK_FULL_TEXTS = ("no space left on device", "os error 28", "disk quota exceeded")
# Tantivy reports the OS error in Rust's Debug form, `Os { code: 13, kind: PermissionDenied, message:
# "Permission denied" }`, inside a ValueError; the message part is what both spellings share.
_NOT_WRITABLE_TEXTS = ("permission denied", "read-only file system", "operation not permitted")
_REFUSED_ERRNOS = (errno.EACCES, errno.EPERM, errno.EROFS)


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """`exc`, then the exceptions it was raised from or while handling, once each."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        yield cur
        cur = cur.__cause__ or cur.__context__


def _filename(exc: BaseException) -> str | None:
    if isinstance(exc, OSError) and isinstance(exc.filename, str | bytes | os.PathLike):
        return os.fsdecode(exc.filename)
    return None


def disk_full(exc: BaseException, where: str) -> DiskFull | None:
    """A DiskFull for `exc` if it (or an exception it was raised from) is a full-disk failure.

    Python's OSError carries the errno; Tantivy's errors arrive as ValueError/RuntimeError whose text
    names the OS error ("No space left on device (os error 28)"), so both are recognised. `where` is
    the path being written (or the index directory).
    """
    for cur in _chain(exc):
        if isinstance(cur, OSError) and cur.errno in (*_DISK_FULL_ERRNOS, errno.ENOSPC, errno.EDQUOT):
            return DiskFull(f"no space left on device writing {_filename(cur) or where}", hint=DISK_FULL_HINT)
        if any(t in str(cur).lower() for t in _DISK_FULL_TEXTS):
            return DiskFull(f"no space left on device writing {where}", hint=DISK_FULL_HINT)
    return None


def not_writable(
    exc: BaseException, index_dir: Path, *, path: Path | None = None, reading: bool = False
) -> IndexNotWritable | None:
    """An IndexNotWritable for `exc` if it (or an exception it was raised from) is a refused write in
    `index_dir` (EACCES, EPERM, EROFS, or Tantivy's text of one), else None.

    The one rule for this class of failure, so every writer (the lock, the build, gc) and the reader
    (Tantivy's lock file) say the same thing. An OSError naming a file outside `index_dir` is not
    the index's (a source file, the user's cache) and gives None. `path` is what was being opened
    when the error names no file (Tantivy's); `reading` words it for a search.
    """
    index_dir = Path(os.path.abspath(index_dir))
    for cur in _chain(exc):
        if isinstance(cur, OSError) and cur.errno in _REFUSED_ERRNOS:
            named = _filename(cur)
            if named is not None and not _inside(Path(named), index_dir):
                return None
            read_only_fs = cur.errno == errno.EROFS
            where = Path(named) if named is not None else path
        elif isinstance(cur, OSError | ValueError | RuntimeError) and any(
            t in str(cur).lower() for t in _NOT_WRITABLE_TEXTS
        ):
            read_only_fs = "read-only file system" in str(cur).lower()
            where = path
        else:
            continue
        return _not_writable_error(index_dir, where, read_only_fs=read_only_fs, reading=reading)
    return None


def permission_denied(exc: OSError) -> PermissionDenied | None:
    """A PermissionDenied for an OSError the library did not translate (EACCES, EPERM, EROFS), or None.

    The CLI's last resort (`cli/console.py`), so a refused path never ends in a traceback; the index
    directory's own failures are IndexNotWritable, raised where they happen (`not_writable`).
    """
    if exc.errno not in _REFUSED_ERRNOS:
        return None
    what = exc.strerror or ("read-only file system" if exc.errno == errno.EROFS else "permission denied")
    path = _filename(exc) or "a file qry needed"
    return PermissionDenied(
        f"{what.lower()}: {path}",
        hint="qry must be able to read (and, for an index or a cache, write) it: check the permissions "
        "of that path and of its folders",
    )


def write_failure(exc: BaseException, index_dir: Path) -> QryError | None:
    """The QryError a failed write inside `index_dir` stands for (DiskFull, IndexNotWritable), or None
    to let `exc` stand: what every writer (the build, gc) raises instead of an OSError's traceback."""
    if not isinstance(exc, Exception):
        return None  # Ctrl-C, SystemExit
    full = disk_full(exc, str(index_dir))
    if full is not None or isinstance(exc, QryError):
        return full
    return not_writable(exc, index_dir)


@contextmanager
def index_writes(index_dir: Path) -> Iterator[None]:
    """Run a writer's body (the lock, the layout, gc) with its OSErrors translated by `write_failure`:
    a refused or full write inside `index_dir` is IndexNotWritable or DiskFull, anything else stands."""
    try:
        yield
    except OSError as exc:
        failure = write_failure(exc, index_dir)
        if failure is None:
            raise
        raise failure from exc


def _inside(path: Path, folder: Path) -> bool:
    """Whether `path` is `folder` or below it, symbolic links resolved on both sides."""
    real, top = Path(os.path.realpath(path)), Path(os.path.realpath(folder))
    return real == top or top in real.parents


def _not_writable_error(
    index_dir: Path, where: Path | None, *, read_only_fs: bool, reading: bool
) -> IndexNotWritable:
    reason = "read-only file system" if read_only_fs else "permission denied"
    if reading:
        message = (
            f"cannot open the index at {index_dir} ({reason}): qry needs write access to the index "
            "folder, because Tantivy, its text engine, takes a lock file even to read"
        )
    else:
        if where is not None and _inside(where, index_dir):
            inner = os.path.relpath(os.path.realpath(where), os.path.realpath(index_dir))
            reason += f": {inner}" if inner != "." else ""
        message = f"cannot write to the index at {index_dir} ({reason})"
    if read_only_fs:
        hint = f"copy the index somewhere writable (cp -r {index_dir} COPY) and pass --index-dir COPY"
    else:
        hint = (
            f"make it writable (chmod -R u+w {index_dir}, as its owner), or copy it somewhere "
            "writable and pass --index-dir COPY"
        )
    return IndexNotWritable(message, hint=hint)
