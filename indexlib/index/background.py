"""`qry index --background`: the detached worker that computes vectors after the lexical root.

Owns: starting the worker (`start_vector_worker`, from the build that holds the writer lock) and the
worker's body (`python -m indexlib.index.background ROOT_ID OPTIONS_JSON`): wait for the writer lock,
compute the vectors of HEAD's segments that lack them, publish, and leave the outcome in the progress file.
Does not own: the vector stage itself (`indexlib/index/build/vectors.py`), how options are encoded
(`indexlib/index/build/options.py`) or the progress file format (`indexlib/index/embedprogress.py`).

Why a new process rather than a thread or a fork: the command that started it must return (a shell
prompt, an agent's tool call) and the worker must outlive it; a fresh interpreter in its own session
does not inherit a terminal, signals or the parent's descriptors (the writer lock included), so it
takes the lock itself. It is started while the parent still holds the lock and waits for it, so no
other writer's root lands between the lexical root and its vectors unless the parent dies first.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from indexlib.index.build.options import BuildOptions

if TYPE_CHECKING:
    from indexlib.store.store import Store

__all__ = ["WORKER_LOCK_WAIT", "start_vector_worker"]

#: How long the worker waits for the writer lock (the parent releases it as soon as it returns).
WORKER_LOCK_WAIT = 600.0


def start_vector_worker(store: Store, index_dir: Path, opts: BuildOptions) -> int:
    """Start the detached worker for HEAD's missing vectors; return its pid (0: nothing to do)."""
    from indexlib.index.embedprogress import EmbedProgress, write_progress

    root_id, manifest = store.load(None)
    pending = {s.id for s in manifest.segments if s.vectors is None}
    if manifest.model is not None:
        pending |= {
            s.id for s in manifest.segments if s.vectors and s.vectors.model_id != manifest.model.model_id
        }
    total = sum(rec.nodes for rec in manifest.files.values() if rec.segment in pending)
    if not total:
        return 0
    # The worker gets the build's own options, with the index folder resolved (it runs in `/`), and the
    # lexical root the vectors are for (HEAD when started).
    worker_opts = msgspec.structs.replace(opts, index_dir=index_dir)
    proc = subprocess.Popen(
        [sys.executable, "-m", "indexlib.index.background", root_id, worker_opts.to_json()],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # no terminal signals (Ctrl-C in the shell that ran qry index)
        close_fds=True,
        cwd="/",
    )
    now = time.time()
    write_progress(
        store.cache_dir, EmbedProgress(pid=proc.pid, root=root_id, total=total, started=now, updated=now)
    )
    return proc.pid


def _worker(root_id: str, opts: BuildOptions) -> int:
    from indexlib.errors import QryError
    from indexlib.index.build.options import BuildReport
    from indexlib.index.build.vectors import attach_vectors
    from indexlib.index.embedprogress import EmbedProgress, write_progress
    from indexlib.store.lock import writer_lock
    from indexlib.store.store import Store

    assert opts.index_dir is not None  # start_vector_worker passes it resolved
    index_dir = opts.index_dir
    store = Store.open(index_dir)
    try:
        with writer_lock(index_dir, wait=WORKER_LOCK_WAIT):
            attach_vectors(store, BuildReport(index_dir=str(index_dir)), opts, lambda _s, _d, _t: None)
    except QryError as exc:
        now = time.time()
        write_progress(
            store.cache_dir,
            EmbedProgress(pid=os.getpid(), root=root_id, started=now, updated=now, error=exc.message),
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(_worker(sys.argv[1], BuildOptions.from_json(sys.argv[2])))
