"""Early vectors: the build's texts embedded while its files parse and its segment is written, on the
cores the parse leaves idle.

Owns: whether a build overlaps embedding with parsing and writing (`start_prefetch`), turning each
parsed file's nodes into the texts the vector stage will embed (`vectors.file_texts`, the same rule),
and keeping the model's workers fed between files; their vectors go to the vector caches.
Does not own: the vector stage that publishes vectors (`vectors.py`: it takes this object over, with
its workers still running, via `handoff`), the model's workers (`indexlib/engines/embedders.py`).

Why only on idle cores: the lexical root is what a newcomer waits for, and on a machine whose cores
the parse pool fills, a model worker beside it delays that root by more than it saves later
(docs/benchmarks.md, issue 11). An in-process parse (fewer than `PARALLEL_MIN_FILES` files: an
edit, a pull, a branch switch) keeps one core busy, and a machine with more cores than the parse
pool's cap has the rest idle: where at least PREFETCH_MIN_IDLE are, the model starts and embeds at
once instead of after the root.
Why through the caches: the vector stage keys every text by its hash, so a vector made here is one
it finds cached; nothing else in that stage changes, and the counts still say it was embedded.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from indexlib.errors import QryError
from indexlib.index.build.options import BuildOptions, Progress
from indexlib.records import Node
from indexlib.store.manifest import Manifest
from indexlib.store.store import Store

__all__ = [
    "PREFETCH_CHUNK",
    "PREFETCH_IN_FLIGHT",
    "PREFETCH_MAX_NODES",
    "PREFETCH_MIN_IDLE",
    "PREFETCH_PROBE",
    "VectorPrefetch",
    "start_prefetch",
]

PREFETCH_CHUNK = 8  # texts per posted job: the last one in flight when the root is published is short
PREFETCH_IN_FLIGHT = 2  # jobs per worker posted ahead, so a worker does not wait between two files
# Cores the parse must leave idle (and free of the history reader) for the model to start beside it.
# On two cores an in-process parse leaves one: forced on there, the early model slowed the lexical
# root by 0.10-0.16 s and the whole build saved at most 0.15 s (docs/benchmarks.md, issue 11).
PREFETCH_MIN_IDLE = 2
PREFETCH_PROBE = 64  # texts all found cached before the workers start: give up, start no model
# Parsed nodes held for later texts (their text included). The parse outruns the model by far, so
# a file parsed while this many wait is left to the vector stage: held nodes past what the workers
# can embed before the lexical root (a few seconds of 40 texts/s per worker) would only cost memory.
PREFETCH_MAX_NODES = 4096


class VectorPrefetch:
    """Feeds parsed files' texts to the model's workers between files; `handoff` gives the vector
    stage the embedder (workers running), the caches and the keys embedded here.

    Driven by the build's one thread: `offer` after each parsed file, `pump` from each progress
    step of the write. A file's texts are made only when the workers need more (so the parse does
    not wait on texts the vector stage would make anyway), and the prefetch gives up when the first
    PREFETCH_PROBE texts are all cached (a second clone, a branch switch: no model starts). Every way
    out must `close()` it (the vector stage's own close does, once it has taken it over).
    """

    def __init__(self, embedder: Any, cache: Any, idle: int, busy: Callable[[], int] = lambda: 0) -> None:
        self.embedder = embedder
        self.cache = cache
        self._idle = idle  # cores the parse leaves idle
        self._busy = busy  # how many of them another stage holds now (the history reader)
        self.workers = 0  # the model's workers started here (0: none yet)
        self.embedded: set[int] = set()  # keys whose vectors were made here
        self._started = False
        self._done = False  # given up, or handed off
        self._probed = 0  # texts looked up before the workers started
        self._files: deque[tuple[str, Sequence[Node], bool]] = deque()
        self._held = 0  # nodes in `_files`
        self._seen: set[int] = set()
        self._queue: list[tuple[int, str]] = []
        self._tickets: dict[int, list[int]] = {}

    def offer(self, path: str, nodes: Sequence[Node], generated: bool) -> None:
        """Hold one parsed file's nodes for later texts (up to PREFETCH_MAX_NODES), and pump."""
        if not self._done and self._held + len(nodes) <= PREFETCH_MAX_NODES:
            self._files.append((path, nodes, generated))
            self._held += len(nodes)
        self.pump()

    def pump(self) -> None:
        """Keep what the workers finished, make texts for as many jobs as the in-flight bound
        allows, and post them; the model's workers start with the first text no cache holds.

        A failure here (a worker killed, the model refused) gives the prefetch up and stops its
        workers: it must never cost the lexical root, and the vector stage, with workers of its
        own, meets the same error after that root if it is real.
        """
        try:
            self._pump()
        except Exception:
            self._give_up()

    def _give_up(self) -> None:
        self._done = True
        self._files.clear()
        self._queue.clear()
        self._tickets.clear()
        self._started = False
        self.embedder.close()

    def _pump(self) -> None:
        if self._tickets:
            self._keep(self.embedder.collect(0.0))
        if self._done:
            return
        free = 0
        if not self._started:
            free = self._idle - self._busy()
            if free < PREFETCH_MIN_IDLE:
                return
        room = self.workers * PREFETCH_IN_FLIGHT - len(self._tickets) if self._started else 1
        while len(self._queue) < room * PREFETCH_CHUNK and self._files and not self._done:
            self._texts_of_next_file()
        if not self._queue:
            return
        if not self._started:
            self.workers = min(free, self.embedder.workers)
            self.embedder.begin(self.workers)
            self._started = True
        self._queue.sort(key=lambda kt: -len(kt[1]))  # similar lengths in a job: less padding
        while self._queue and len(self._tickets) < self.workers * PREFETCH_IN_FLIGHT:
            job, self._queue = self._queue[:PREFETCH_CHUNK], self._queue[PREFETCH_CHUNK:]
            self._tickets[self.embedder.post([t for _k, t in job])] = [k for k, _t in job]

    def pumping(self, progress: Progress) -> Progress:
        """`progress`, pumping the workers at every step (the write stage reports file by file)."""

        def step(stage: str, done: int, total: int) -> None:
            self.pump()
            progress(stage, done, total)

        return step

    def parse_done(self) -> None:
        """The parse has ended: a model not started by now is not started (its start would only slow
        the segment's write, the next stage, and be done too late to save anything: measured)."""
        if not self._started:
            self._done = True
            self._files.clear()

    def handoff(self) -> tuple[Any, Any, set[int]]:
        """Stop posting, bring the workers to their full number (the new ones load the model while the
        last jobs finish), keep every answer, and return (embedder, caches, keys embedded here)."""
        self._done = True
        self._queue.clear()  # the vector stage embeds what is left, in its own batches
        self._files.clear()
        try:
            if self._started:
                self.embedder.grow()
            while self._tickets:
                self._keep(self.embedder.collect(None))
        except Exception:
            self._give_up()  # the vector stage starts workers of its own
        self.cache.flush()
        return self.embedder, self.cache, self.embedded

    def close(self) -> None:
        """Stop the workers (mid-job after a Ctrl-C or a failure; idle after the vector stage)."""
        self.embedder.close()

    def _texts_of_next_file(self) -> None:
        from indexlib.index.build.vectors import file_texts
        from indexlib.index.embedcache import text_key

        path, nodes, generated = self._files.popleft()
        self._held -= len(nodes)
        _kept, texts, _trivial = file_texts(path, nodes, generated)
        fresh = {}
        for text in texts:
            key = text_key(text)
            if key not in self._seen:
                self._seen.add(key)
                fresh[key] = text
        if not fresh:
            return
        known = self.cache.get_many(list(fresh))
        self._queue.extend((k, t) for k, t in fresh.items() if k not in known)
        if not self._started and not self._queue:
            self._probed += len(fresh)
            if self._probed >= PREFETCH_PROBE:  # all cached so far: the rest likely is too
                self._done = True
                self._files.clear()

    def _keep(self, answers: list[tuple[int, Any]]) -> None:
        for ticket, matrix in answers:
            keys = self._tickets.pop(ticket)
            self.cache.put_many({k: matrix[i] for i, k in enumerate(keys)})
            self.embedded.update(keys)


def start_prefetch(
    store: Store,
    opts: BuildOptions,
    previous: Manifest | None,
    idle_cores: int,
    busy: Callable[[], int] = lambda: 0,
) -> VectorPrefetch | None:
    """A prefetch for this build, or None when it would not pay or not be used: nothing embeds in
    this process (`--embed none`, `--background`, the test embedder), fewer than PREFETCH_MIN_IDLE
    cores idle beside the parse, or the vector stage is bound to refuse the model (the index holds
    another's vectors). A model that cannot be found is left for the
    vector stage to report, after the lexical root, as without a prefetch. `busy()` is how many of
    the idle cores another stage holds at the moment (the history reader): the model starts only
    while PREFETCH_MIN_IDLE cores are free, on as many workers as are free."""
    from indexlib.engines.embedders import LazyOnnxEmbedder, build_embedder
    from indexlib.index.build.vectors import vector_caches

    if opts.embed == "none" or opts.background or idle_cores < PREFETCH_MIN_IDLE:
        return None
    try:
        embedder = build_embedder(opts.embedder_name, opts.model_dir, workers=opts.threads)
    except QryError:
        return None
    if not isinstance(embedder, LazyOnnxEmbedder):
        return None
    model = previous.model if previous is not None else None
    if model is not None and model.model_id != embedder.model_id and not opts.rebuild:
        return None
    try:
        cache = vector_caches(store, embedder.cache_id, shared=opts.shared_cache)
    except OSError:  # the vector stage reports it, after the lexical root
        return None
    return VectorPrefetch(embedder, cache, idle_cores, busy)
