"""`qry index --cluster ADDRESS`: the vector stage's model on Ray actors across the cluster.

Owns: `RayEmbedder`, the embedder the vector stage is handed (`build_index(..., embedder=)`) when a
build runs on a cluster. It starts one actor per cluster CPU (or `--threads` of them), each holding
the build's own embedder on one thread (for `--embed onnx` the ONNX model, loaded and checked
against the checksum the index records; the folder must be readable at the same path on every node,
as the index folder must). Each batch of the vector stage is cut into the chunks a local build's
workers take (`engines.embedders.length_chunks`) and free actors pull them, so the vectors, the
caches and the published root are what a local build makes. An actor whose process dies is restarted
by Ray and its call retried (ACTOR_RESTARTS, CALL_RETRIES); the vectors are published by the build's
own atomic HEAD swap, so a crash anywhere leaves the previous root.
Does not own: which embedder a build uses (`engines/embedders.py`), the vector stage
(`index/build/vectors.py`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from indexlib.errors import QryError
from indexlib.index.build.options import BuildOptions, EmbedderFactory

__all__ = ["ACTOR_RESTARTS", "CALL_RETRIES", "RayEmbedder", "ray_embedder_factory"]

ACTOR_RESTARTS = 3  # times Ray restarts a model actor whose process died (each reloads the model)
CALL_RETRIES = 3  # times an embed call is retried on a restarted actor

Maker = Callable[[], Any]  # makes the embedder an actor holds (pickled to the actor's node)


class _ModelHolder:
    """Actor side: one embedder on one thread, made once when the actor (re)starts."""

    def __init__(self, make: Maker) -> None:
        self.embedder = make()

    def embed(self, texts: list[str]) -> Any:
        return self.embedder.embed(texts)


class RayEmbedder:
    """The vector stage's embedder, its work spread over `actors` Ray actors.

    `like` is this process's embedder of the same model: it names the model (`name`, `checksum`,
    `model_id`, `cache_id`) without loading it; `make` builds the one each actor holds. Actors start
    on the first `embed`, so a build with every vector cached starts none. `close()` ends them.
    """

    def __init__(self, ray: Any, like: Any, make: Maker, actors: int) -> None:
        self.ray = ray
        self.name = like.name
        self.checksum = like.checksum
        self.model_id = like.model_id
        self.cache_id = like.cache_id
        self.workers = max(1, actors)
        self._make = make
        self._actors: list[Any] = []

    def _pool(self) -> Any:
        if not self._actors:
            holder = self.ray.remote(num_cpus=1, max_restarts=ACTOR_RESTARTS, max_task_retries=CALL_RETRIES)(
                _ModelHolder
            )
            self._actors = [holder.remote(self._make) for _ in range(self.workers)]
        return self.ray.util.ActorPool(self._actors)

    @property
    def dim(self) -> int:
        return int(self.embed(["dimension probe"]).shape[1])

    def embed(self, texts: Sequence[str]) -> Any:
        from indexlib.engines.embedders import gather_chunks, length_chunks

        if not texts:
            import numpy as np

            return np.zeros((0, self.dim), dtype=np.float32)
        chunks = length_chunks(texts)
        try:
            parts = list(
                self._pool().map(
                    lambda actor, part: actor.embed.remote(part), [[texts[i] for i in c] for c in chunks]
                )
            )
        except self.ray.exceptions.RayActorError as exc:  # it could not start, or died past its restarts
            raise QryError(
                f"the embedding model could not run on the cluster: {_cause(exc)}",
                hint="the model folder (--model, or the bundled one) must be readable at the same path on "
                "every node; or leave out --cluster",
                code="cluster",
            ) from None
        return gather_chunks(len(texts), chunks, parts)

    def close(self) -> None:
        """End the actors. Closed while a Ctrl-C (or a SIGTERM, connect.py) unwinds the build (calls still in flight), it ends
        this process's Ray connection instead: killing an actor with calls queued makes Ray print a
        `(raylet) Task ... failed ... will be retried` line per call on stdout, coloured even into a
        file, after `qry: interrupted`; a shutdown stops the driver's listener first, and the job's
        actors end with it (on a joined cluster too: they belong to this driver's job)."""
        if self._actors and isinstance(sys.exc_info()[1], KeyboardInterrupt | SystemExit):
            self._actors = []
            self.ray.shutdown()
            return
        for actor in self._actors:
            self.ray.kill(actor)
        self._actors = []


def _cause(exc: Exception) -> str:
    """The last line of what ended an actor, the exception itself (Ray's message runs to many lines)."""
    text = str(getattr(exc, "cause", None) or exc).strip()
    return text.splitlines()[-1] if text else type(exc).__name__


def cluster_cpus(ray: Any) -> int:
    """CPUs of the cluster Ray reports (at least one)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def ray_embedder_factory(ray: Any) -> EmbedderFactory:
    """The vector stage's embedder for a build on `ray`'s cluster: the build's own embedder
    (`--embed`, `--model`) on `--threads` actors, or one per cluster CPU (0, the default), never
    more actors than the cluster has CPUs."""
    from indexlib.engines.embedders import build_embedder

    def make(opts: BuildOptions) -> RayEmbedder:
        like = build_embedder(opts.embedder_name, opts.model_dir, workers=1)
        holder = partial(build_embedder, opts.embedder_name, opts.model_dir, workers=1)
        cpus = cluster_cpus(ray)  # more actors than CPUs would wait for a CPU for ever
        return RayEmbedder(ray, like, holder, min(opts.threads or cpus, cpus))

    return make
