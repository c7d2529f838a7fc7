"""Cache files' shared chores: safe folder names, owner-only folders, best-effort file replacement.

Owns: `safe_name` (a model or embedder id as a folder name), `private_dir`, and `replace_file`,
the one write of a small cache or progress file (the query vector cache, the vector stage's
progress file). Does not own: what those files hold (`embedcache/queries.py`, `embedprogress.py`).

Why not `store/atomic.atomic_write`: that one fsyncs the file and its folder and raises, as a
published index file must. These files are conveniences, rewritten often (a query vector per new
question): a crash that loses one costs recomputing it, and their readers check what they read, so
they are replaced by a rename (a reader sees the old file or the new one) without fsync, and a
failure to write one is ignored.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path


def safe_name(cache_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", cache_id) or "model"


def private_dir(path: Path) -> None:
    """Create `path` (and parents) owner-only: vectors say what the code is about."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        os.chmod(path, 0o700)  # mkdir's mode is cut by the umask; the cache stays private anyway
    except OSError:
        pass


def replace_file(path: Path, data: bytes, *, make_dir: Callable[[Path], object]) -> None:
    """Replace `path` with `data` through a temporary file and a rename; an OSError is swallowed.

    `make_dir` creates `path`'s folder first (`private_dir`, or a plain mkdir). On failure the
    temporary file is removed and `path` is left as it was.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        make_dir(path.parent)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
