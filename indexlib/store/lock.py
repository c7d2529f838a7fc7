"""The index writer lock.

Owns: mutual exclusion between writers (`qry index`, gc) of one index directory. Does not own:
readers, which never lock (they read HEAD once and see one immutable snapshot).

The lock is `fcntl.flock` on `<index>/lock`. The kernel releases a flock when its holder dies, so a
lock left by a killed process needs no stale-lock detection. The file also carries the holder's
pid, host and start time, only to make the "busy" message useful; it is never trusted for exclusion
and never deleted (unlinking a flock'd file lets two processes lock two different inodes).

Within one process the lock is re-entrant for the thread that holds it, so a writer that already
holds it can call `Store.gc()` (which takes it itself when called alone).

While a writer holds the lock the process umask includes 077 (`PRIVATE_UMASK`): every file and
directory the writer creates (ours, Tantivy's, numpy's, usearch's) is then 0600 / 0700 whatever the
caller's umask, since the index holds the code's text. The previous umask is restored when the last
lock of the process is released.

A lock file that cannot be opened for writing (the index's modes, its owner, a read-only mount) is
IndexNotWritable: the writer stops before it has touched anything.

The lock is released on every failure path: the holder line is written best-effort (on a full disk
`pwrite` fails with ENOSPC, and `qry gc` must still run to free space), and any error between the
flock and the `yield` unlocks and closes before it propagates.
"""

from __future__ import annotations

import _thread  # not `threading`: the lock module is on every reader's import path
import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from indexlib.errors import IndexNotFound, LockBusy, index_writes

LOCK_NAME = "lock"
PRIVATE_UMASK = 0o077
_POLL_FIRST = 0.02
_POLL_MAX = 0.25

# realpath of the index dir -> (pid, thread id, depth): which thread of this process holds it.
_held: dict[str, tuple[int, int, int]] = {}
_held_guard = _thread.allocate_lock()
# realpath -> the descriptor holding the flock. A forked child inherits these descriptors, and an
# flock lives as long as any descriptor of it: a child (e.g. a parse worker) outliving a killed
# writer would keep the index locked. So every fork closes the child's copies (below).
_held_fds: dict[str, int] = {}
# (locks held by this process, the umask before the first of them).
_umask_state: list[int] = [0, 0]


def _tighten_umask() -> None:
    with _held_guard:
        if _umask_state[0] == 0:
            old = os.umask(PRIVATE_UMASK)
            os.umask(old | PRIVATE_UMASK)
            _umask_state[1] = old
        _umask_state[0] += 1


def _restore_umask() -> None:
    with _held_guard:
        _umask_state[0] -= 1
        if _umask_state[0] == 0:
            os.umask(_umask_state[1])


def _forget_locks_in_child() -> None:
    """After fork, in the child: drop inherited writer locks without unlocking the parent's."""
    for fd in _held_fds.values():
        try:
            os.close(fd)  # closing a copy never releases the parent's lock (it keeps its descriptor)
        except OSError:
            pass
    _held_fds.clear()
    _held.clear()


os.register_at_fork(after_in_child=_forget_locks_in_child)


def _key(index_dir: Path) -> str:
    return os.path.realpath(index_dir)


def holds_writer_lock(index_dir: Path) -> bool:
    """True if the calling thread holds the writer lock of `index_dir`."""
    with _held_guard:
        entry = _held.get(_key(index_dir))
    return entry is not None and entry[0] == os.getpid() and entry[1] == _thread.get_ident()


@contextmanager
def writer_lock(index_dir: Path, wait: float = 0.0) -> Iterator[None]:
    """Hold the writer lock of `index_dir` for the body of the `with`.

    wait=0 fails at once with LockBusy if another process (or another thread of this one) holds it;
    wait>0 polls until that many seconds have passed. Re-entrant for the holding thread.

    >>> with writer_lock(Path(".qry"), wait=30):  # doctest: +SKIP
    ...     store.publish(manifest)
    """
    index_dir = Path(index_dir)
    key = _key(index_dir)
    me = (os.getpid(), _thread.get_ident())
    with _held_guard:
        entry = _held.get(key)
        if entry is not None and entry[:2] == me:
            _held[key] = (*me, entry[2] + 1)
            reentered = True
        else:
            reentered = False
    if reentered:
        try:
            yield
        finally:
            with _held_guard:
                pid, tid, depth = _held[key]
                _held[key] = (pid, tid, depth - 1)
        return

    fd = _acquire(index_dir, key, wait)
    with _held_guard:
        _held_fds[key] = fd
    _tighten_umask()
    try:
        yield
    finally:
        _restore_umask()
        _release(key, fd)


def _release(key: str, fd: int) -> None:
    """Forget, unlock and close; never raises (a failed truncate must not keep the lock)."""
    with _held_guard:
        _held.pop(key, None)
        _held_fds.pop(key, None)
    try:
        os.ftruncate(fd, 0)
    except OSError:
        pass
    finally:
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


def _acquire(index_dir: Path, key: str, wait: float) -> int:
    """Open the lock file and flock it, polling until `wait` seconds have passed."""
    if not index_dir.is_dir():
        raise IndexNotFound(
            f"no index directory at {index_dir}", hint=f"create one: qry index {index_dir.parent}"
        )
    with index_writes(index_dir):  # the first write of every writer: a read-only index fails here
        fd = os.open(index_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    deadline = time.monotonic() + max(wait, 0.0)
    pause = _POLL_FIRST
    try:
        while True:
            if _try_lock(fd, key):
                break
            now = time.monotonic()
            if now >= deadline:
                raise LockBusy(
                    f"another qry index is running ({_describe_holder(index_dir)})",
                    hint="wait for it, or pass --wait SECONDS",
                )
            time.sleep(min(pause, deadline - now))
            pause = min(pause * 2, _POLL_MAX)
    except BaseException:
        os.close(fd)
        raise
    info = f"pid={os.getpid()} host={os.uname().nodename} started={time.strftime('%Y-%m-%dT%H:%M:%S%z')}\n"
    try:
        os.ftruncate(fd, 0)
        _write_holder(fd, info.encode())
    except OSError:
        pass  # the holder line only makes the "busy" message useful; exclusion is the flock
    except BaseException:
        _release(key, fd)
        raise
    return fd


def _write_holder(fd: int, data: bytes) -> None:
    """Write the holder line (a seam for tests that inject a full disk)."""
    os.pwrite(fd, data, 0)


def _try_lock(fd: int, key: str) -> bool:
    """One non-blocking attempt; another thread of this process counts as a holder too.

    flock locks belong to open file descriptions, so a second descriptor in the same process would
    conflict with the first anyway; the in-process table makes that case explicit and cheap.
    """
    with _held_guard:
        if key in _held and _held[key][0] == os.getpid():
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        _held[key] = (os.getpid(), _thread.get_ident(), 1)
        return True


def _describe_holder(index_dir: Path) -> str:
    """'pid N, host H, started T' from the lock file, or a vaguer phrase if it is not written yet."""
    try:
        text = (index_dir / LOCK_NAME).read_text(errors="replace").strip()
    except OSError:
        text = ""
    fields = dict(part.split("=", 1) for part in text.split() if "=" in part)
    if "pid" not in fields:
        return "holder unknown"
    parts = [f"pid {fields['pid']}"]
    if fields.get("host") and fields["host"] != os.uname().nodename:
        parts.append(f"on {fields['host']}")
    if fields.get("started"):
        parts.append(f"started {fields['started']}")
    return ", ".join(parts)
