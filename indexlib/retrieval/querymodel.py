"""One query model per process, shared by every Engine that asks for the same model.

Owns: loading the embedder that matches an index once per (model folder, model id) in a process, and
embedding a question once however many indexes ask for its vector at the same time.

Why: a workspace search asks each of its indexes in threads (workspace/federate.py), and each index
has its own Engine. With a model per Engine, a cold `qry search -w` over five indexes loaded the ONNX
model five times and embedded the question five times: 1.01 s and 807 MB peak RSS on the dev set's
five repositories, 0.64 s and 300 MB with one shared model (bench/workspace_cold.py; one index
alone: about 0.4 s and 250 MB). The few questions last embedded keep their vectors, so the fan-out's
other indexes wait for the first one's vector instead of computing it again. The on-disk
QueryVectorCache (index/embedcache.py) is still what spares a later process the model load.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

RECENT_QUESTIONS = 16  # questions whose vectors a shared model keeps: a fan-out asks for one at a time


class SharedQueryEmbedder:
    """An embedder's `embed_query`, serialised and remembered for the last RECENT_QUESTIONS texts.

    Serialising costs nothing worth keeping apart: the model's own run already uses every core."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self._lock = threading.Lock()
        self._recent: OrderedDict[str, Any] = OrderedDict()

    def embed_query(self, text: str) -> Any:
        with self._lock:
            vec = self._recent.get(text)
            if vec is None:
                vec = self.inner.embed_query(text)
                self._recent[text] = vec
                if len(self._recent) > RECENT_QUESTIONS:
                    self._recent.popitem(last=False)
            else:
                self._recent.move_to_end(text)
            return vec


_LOADED: dict[tuple[str | None, str], SharedQueryEmbedder] = {}
_LOADING = threading.Lock()


def query_model(model_dir: str | None, manifest_model_id: str) -> SharedQueryEmbedder:
    """The process's embedder for indexes embedded with `manifest_model_id`, loaded on first use
    (a model other than the index's is refused with a hint, by `query_embedder`)."""
    from indexlib.engines.embedders import query_embedder

    key = (model_dir, manifest_model_id)
    with _LOADING:  # one thread loads; the others of the fan-out wait for it rather than load too
        shared = _LOADED.get(key)
        if shared is None:
            shared = SharedQueryEmbedder(query_embedder(model_dir, manifest_model_id))
            _LOADED[key] = shared
        return shared
