"""Worker processes of a build: one per core, forked, deaf to Ctrl-C, gone with their parent.

Owns: how many cores this process may use (`available_cores`) and the fork pool the parse stage and
the embedding model spread their work over (`start_pool`, `ForkPool`).
Does not own: the work itself (`indexlib/index/build/parse.py`, `indexlib/engines/embedders.py`).

Why processes and not threads: parsing holds the GIL, and onnxruntime's intra-op threads of one
session synchronise per operator, so on two cores two single-threaded sessions embed about twice
what one two-threaded session does (docs/benchmarks.md, issue 11).
Why not `multiprocessing.Pool`: its workers share one result queue guarded by one lock, and
`Pool.terminate()` kills them while its task thread still has to take that lock; a worker killed
holding it hangs the terminate for ever (seen about once in 40 Ctrl-Cs of `qry index`). Here every
worker has its own pipe and nothing is shared, so stopping is SIGKILL and join, and it cannot block.
Why not `concurrent.futures`: stopping a ProcessPoolExecutor's workers mid-task races its manager
thread in Python 3.11 (AttributeError, InvalidStateError or OSError tracebacks, or a hang).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from indexlib.errors import QryError

if TYPE_CHECKING:  # multiprocessing loads only when a pool starts: the query path imports this module
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

__all__ = ["ForkPool", "Pending", "WorkerDied", "available_cores", "grow_pool", "start_pool"]

T = TypeVar("T")
R = TypeVar("R")

# Chunks sent ahead to each worker: one being worked on, one waiting, so a worker never idles for a
# round trip. More would only let a slow worker hoard work the others could take.
PREFETCH = 2
# Results held out of order, in chunks per worker, while an earlier chunk is still being worked on.
REORDER_CHUNKS = 8


class WorkerDied(QryError):
    """A worker process ended without answering (killed from outside, or out of memory)."""

    code = "worker_died"


def available_cores() -> int:
    """Cores this process may run on (its affinity mask, not the machine's count)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def start_pool(
    workers: int, initializer: Callable[..., None] | None = None, initargs: Sequence[Any] = ()
) -> ForkPool:
    """A fork pool of `workers` processes, each running `initializer(*initargs)` once.

    The caller must `terminate()` the pool on every way out (it holds no state worth a clean close).
    Workers ignore SIGINT: Ctrl-C is the parent's to handle, by stopping them. SIGINT is held while
    the workers fork, so a Ctrl-C then cannot land inside a half-started child; one that arrived
    meanwhile is raised here, after the pool is stopped. Inherited writer-lock descriptors are closed
    in every forked child by `indexlib.store.lock`.
    """
    pool = ForkPool()
    grow_pool(pool, workers, initializer, initargs)
    return pool


def grow_pool(
    pool: ForkPool, workers: int, initializer: Callable[..., None] | None = None, initargs: Sequence[Any] = ()
) -> None:
    """Add `workers` processes to `pool`, as `start_pool` starts them; on any failure (a Ctrl-C
    included) the whole pool is stopped before the error is raised."""
    import signal

    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool.start(workers, initializer, tuple(initargs))
    except BaseException:
        pool.terminate()
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        raise
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)  # a held Ctrl-C is raised right here
    except BaseException:
        pool.terminate()
        raise


class ForkPool:
    """Forked workers, each with its own pipe; results come back in input order.

    Made by `start_pool`. Not thread-safe: one thread drives it.
    """

    def __init__(self) -> None:
        self._procs: list[BaseProcess] = []
        self._conns: list[Connection] = []
        self._posted: list[int] = []  # jobs of `post` each worker has not answered yet
        self._tickets = 0

    @property
    def posted(self) -> int:
        """Jobs sent by `post` whose answers `collect` has not returned yet."""
        return sum(self._posted)

    @property
    def workers(self) -> int:
        return len(self._procs)

    def start(self, workers: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        for _ in range(max(1, workers)):
            here, there = ctx.Pipe(duplex=True)
            # The child closes the parent's ends of every pipe, its own included, so a pipe's only
            # holders are its two ends' owners.
            parent_ends = tuple(c.fileno() for c in (*self._conns, here))
            proc = ctx.Process(
                target=_worker_main,
                args=(there, os.getpid(), parent_ends, initializer, initargs),
                name="qry-worker",
                daemon=True,
            )
            try:
                proc.start()
            finally:
                there.close()
            self._procs.append(proc)
            self._conns.append(here)
            self._posted.append(0)

    def imap(self, fn: Callable[[T], R], items: Iterable[T], chunksize: int = 1) -> Iterator[R]:
        """`fn` over `items` in the workers, yielded in input order; items are read as workers free up.

        A worker's exception is raised here; a worker that dies raises WorkerDied.
        """
        from multiprocessing.connection import wait

        if self.posted:
            raise RuntimeError("imap on a pool with posted jobs not collected")
        source = iter(items)
        inflight: dict[int, int] = dict.fromkeys(range(len(self._conns)), 0)
        done: dict[int, list[R]] = {}
        sent = yielded = 0
        exhausted = False
        window = max(1, len(self._conns)) * REORDER_CHUNKS
        while True:
            while not exhausted and sent - yielded < window:
                w = min(inflight, key=inflight.__getitem__)
                if inflight[w] >= PREFETCH:
                    break
                chunk = [item for _, item in zip(range(max(1, chunksize)), source, strict=False)]
                if not chunk:
                    exhausted = True
                    break
                try:
                    self._conns[w].send((sent, fn, chunk))
                except OSError:  # BrokenPipeError: the worker is gone (and qry's stdout is fine)
                    raise self._died(w) from None
                inflight[w] += 1
                sent += 1
            if yielded in done:
                yield from done.pop(yielded)
                yielded += 1
                continue
            if exhausted and yielded == sent:
                return
            busy = [w for w, n in inflight.items() if n]
            ready = wait([self._conns[w] for w in busy] + [self._procs[w].sentinel for w in busy])
            for w in busy:
                if self._conns[w] in ready:
                    try:
                        seq, ok, out = self._conns[w].recv()
                    except (EOFError, OSError):
                        raise self._died(w) from None
                    inflight[w] -= 1
                    if not ok:
                        raise out
                    done[seq] = out
                elif self._procs[w].sentinel in ready and not self._conns[w].poll():
                    raise self._died(w)

    def submit(self, fn: Callable[[T], R], item: T) -> Pending[R]:
        """Start `fn(item)` in the first worker now; calling the Pending returned waits for its answer.

        For one job run beside the caller's own work; not to be mixed with `imap` on the same pool.
        """
        try:
            self._conns[0].send((0, fn, [item]))
        except OSError:
            raise self._died(0) from None
        return Pending(self, 0)

    def post(self, fn: Callable[[T], R], item: T) -> int:
        """Send `fn(item)` to the worker with the fewest posted jobs and return its ticket at once;
        `collect` gives the answer. For feeding workers between pieces of the caller's own work;
        every posted job must be collected before `imap` runs on the pool."""
        w = min(range(len(self._conns)), key=self._posted.__getitem__)
        ticket = self._tickets
        try:
            self._conns[w].send((ticket, fn, [item]))
        except OSError:
            raise self._died(w) from None
        self._tickets += 1
        self._posted[w] += 1
        return ticket

    def collect(self, timeout: float | None = 0.0) -> list[tuple[int, Any]]:
        """(ticket, answer) of the posted jobs answered so far, waiting up to `timeout` seconds for
        the first one (None: until one is); [] when none is posted. A worker's exception is raised
        here; a worker that dies raises WorkerDied."""
        from multiprocessing.connection import wait

        busy = [w for w, n in enumerate(self._posted) if n]
        if not busy:
            return []
        ready = wait([self._conns[w] for w in busy] + [self._procs[w].sentinel for w in busy], timeout)
        out: list[tuple[int, Any]] = []
        for w in busy:
            conn = self._conns[w]
            while self._posted[w] and conn.poll():  # every answer already there, not just the first
                try:
                    ticket, ok, answer = conn.recv()
                except (EOFError, OSError):
                    raise self._died(w) from None
                self._posted[w] -= 1
                if not ok:
                    raise answer
                out.append((ticket, answer[0]))
            if self._posted[w] and self._procs[w].sentinel in ready and not conn.poll():
                raise self._died(w)
        return out

    def map(self, fn: Callable[[T], R], items: Iterable[T], chunksize: int = 1) -> list[R]:
        """`imap`, collected."""
        return list(self.imap(fn, items, chunksize))

    def apply(self, fn: Callable[[], R]) -> R:
        """`fn()` in one worker (a check of the workers' own state)."""
        return self.map(_call, [fn])[0]

    def terminate(self) -> None:
        """Kill every worker and wait for them; safe at any point, twice, and after a failed start."""
        for proc in self._procs:
            if proc.exitcode is None:
                proc.kill()
        for proc in self._procs:
            proc.join()
        for conn in self._conns:
            conn.close()
        self._procs, self._conns, self._posted = [], [], []

    def _died(self, w: int) -> WorkerDied:
        proc = self._procs[w]
        proc.join(1)
        return WorkerDied(
            f"a build worker (pid {proc.pid}) ended without answering (exit status {proc.exitcode})",
            hint="it was killed from outside, or ran out of memory; run `qry index` again",
        )


class Pending(Generic[R]):
    """The answer of one `ForkPool.submit` job: `ready()` without waiting, the call waits for it."""

    def __init__(self, pool: ForkPool, worker: int) -> None:
        self._pool = pool
        self._conn = pool._conns[worker]
        self._proc = pool._procs[worker]
        self._worker = worker

    def ready(self) -> bool:
        """Whether the answer is there (or the worker has ended), so calling would not wait."""
        return self._conn.closed or self._conn.poll() or self._proc.exitcode is not None

    def __call__(self) -> R:
        from multiprocessing.connection import wait

        wait([self._conn, self._proc.sentinel])
        try:
            _seq, ok, out = self._conn.recv()
        except (EOFError, OSError):
            raise self._pool._died(self._worker) from None
        if not ok:
            raise out
        return cast(R, out[0])


def _call(fn: Callable[[], R]) -> R:
    return fn()


def _worker_main(
    conn: Connection,
    parent_pid: int,
    parent_ends: tuple[int, ...],
    initializer: Callable[..., None] | None,
    initargs: tuple[Any, ...],
) -> None:
    """Worker side: set up, then answer chunks until the parent closes the pipe."""
    for fd in parent_ends:
        os.close(fd)
    _worker_init(parent_pid, initializer, initargs)
    while True:
        try:
            seq, fn, chunk = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[int, bool, Any] = (seq, True, [fn(item) for item in chunk])
        except Exception as exc:  # the parent raises it, as if the call had been its own
            answer = (seq, False, exc)
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            return
        except Exception as exc:  # an answer that does not pickle
            conn.send((seq, False, RuntimeError(f"a worker's answer could not be sent back: {exc!r}")))


def _worker_init(parent_pid: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    """Workers ignore Ctrl-C (the parent handles it), die quietly of SIGTERM, and exit when the parent
    dies.

    A killed parent cannot stop its workers, and one deep in a long chunk would not see its pipe close.
    """
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Die quietly of SIGTERM, not through a handler the parent had (Ray's driver installs one that
    # prints a stack dump per process).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="qry-parent-watch", daemon=True).start()
    if initializer is not None:
        initializer(*initargs)
