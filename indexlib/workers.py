"""Worker processes of a build: one per core, forked, deaf to Ctrl-C, gone with their parent.

Owns: how many cores this process may use (`available_cores`) and starting a fork pool safely
(`start_pool`). The parse stage and the embedding model both spread their work this way.
Does not own: the work itself (`indexlib/index/build/parse.py`, `indexlib/engines/embedders.py`).

Why processes and not threads: parsing holds the GIL, and onnxruntime's intra-op threads of one
session synchronise per operator, so on two cores two single-threaded sessions embed about twice
what one two-threaded session does (docs/benchmarks.md, issue 11).
Why `multiprocessing.Pool` and not `concurrent.futures`: `Pool.terminate()` is the public way to stop
workers mid-task, while stopping a ProcessPoolExecutor's workers races its manager thread in Python
3.11 (AttributeError, InvalidStateError or OSError tracebacks, or a hang, a few runs in 20).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # multiprocessing loads only when a pool starts: the query path imports this module
    from multiprocessing.pool import Pool

__all__ = ["available_cores", "start_pool"]


def available_cores() -> int:
    """Cores this process may run on (its affinity mask, not the machine's count)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def start_pool(
    workers: int, initializer: Callable[..., None] | None = None, initargs: Sequence[Any] = ()
) -> Pool:
    """A fork pool of `workers` processes, each running `initializer(*initargs)` once.

    The caller must `terminate()` the pool on every way out (it holds no state worth a clean close).
    Workers ignore SIGINT: Ctrl-C is the parent's to handle, by stopping them. A Ctrl-C while the pool
    forks would land inside multiprocessing's fork bookkeeping and be swallowed there ("Exception
    ignored ..."), so SIGINT is held until every worker and the pool's threads exist (they inherit
    the mask, so the signal always reaches the calling thread); one that arrived meanwhile is raised
    here, after the pool is stopped. Inherited writer-lock descriptors are closed in every forked child
    by `indexlib.store.lock`.
    """
    import multiprocessing
    import signal

    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool = multiprocessing.get_context("fork").Pool(
            workers, initializer=_worker_init, initargs=(os.getpid(), initializer, tuple(initargs))
        )
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        raise
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)  # a held Ctrl-C is raised right here
    except BaseException:
        pool.terminate()
        raise
    return pool


def _worker_init(parent_pid: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    """Workers ignore Ctrl-C (the parent handles it), die quietly of SIGTERM, and exit when the parent
    dies.

    A killed parent cannot stop its pool, and idle workers would wait on the task queue forever.
    """
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # `Pool.terminate()` stops workers with SIGTERM: die quietly, not through a handler the parent had
    # (Ray's driver installs one that prints a stack dump per process).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="qry-parent-watch", daemon=True).start()
    if initializer is not None:
        initializer(*initargs)
