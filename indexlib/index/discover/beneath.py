"""Opening a path below a root without following any symlink, component by component.

Owns: `open_beneath` (the descriptor of a regular file or directory reached inside `root` by real
names only) and `read_beneath`; every read discovery makes goes through them. Does not own: which
paths are read (walk.py, checks.py).
"""

from __future__ import annotations

import errno
import os
import stat

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
# O_NONBLOCK: a file swapped for a FIFO must not block the open; O_NOCTTY: nor become our terminal.
FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)


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
            flags = _DIR_FLAGS if directory or not last else FILE_FLAGS
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


def read_beneath(root: str, rel: str, limit: int) -> bytes:
    """At most `limit` bytes of the regular file `rel` below `root`, opened by `open_beneath`."""
    with os.fdopen(open_beneath(root, rel), "rb") as fh:
        return fh.read(limit)
