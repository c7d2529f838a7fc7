"""`qry serve --cluster`: a workspace's indexes on Ray actors, queried by fan-out and the workspace merge.

Owns: one actor per index (it opens the index once and keeps its Engine warm), the fan-out with a time
limit per actor, and what a dead actor means: its answer is an `IndexAnswer` with `ok=False`, the
result is flagged `partial`, and Ray restarts the actor (ACTOR_RESTARTS), so the next query has it
again. The in-flight call is not retried (a retry would make one query wait for a restart). The merge
is the same function a local workspace search uses (workspace/federate.py: assemble), so a cluster
answer equals the local one for the same indexes.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from indexlib.cluster.connect import connect
from indexlib.records import Hit
from indexlib.retrieval.request import SearchRequest
from indexlib.retrieval.search import Engine
from indexlib.workspace.config import Member
from indexlib.workspace.federate import IndexAnswer, WorkspaceResult, answer_one, assemble

ACTOR_RESTARTS = -1  # restart a dead index actor as often as it dies
ACTOR_TIMEOUT_S = 30.0  # one index's answer, the first (opening) query included


class IndexServer:
    """The body of an index actor (a plain class, so it is testable without Ray)."""

    def __init__(self, repo: str, index_dir: str) -> None:
        self.member = Member(repo, Path(index_dir))
        self._engine: Engine | None = None

    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = Engine(self.member.index)
        return self._engine

    def search(self, text: str, opts: SearchRequest) -> tuple[IndexAnswer, list[Hit]]:
        return answer_one(self.member, self.engine, text, opts)

    def pid(self) -> int:
        import os

        return os.getpid()


class ClusterWorkspace:
    """A workspace whose indexes answer from Ray actors."""

    def __init__(self, address: str, name: str, members: Sequence[Member]) -> None:
        self.ray = connect(address)
        self.name = name
        self.members = list(members)
        remote = self.ray.remote(max_restarts=ACTOR_RESTARTS, max_task_retries=0, num_cpus=0)(IndexServer)
        self.actors: dict[str, Any] = {m.name: remote.remote(m.name, str(m.index)) for m in self.members}

    def search(
        self,
        text: str,
        opts: SearchRequest | None = None,
        *,
        merge: str = "cori",
        only: Sequence[str] | None = None,
    ) -> WorkspaceResult:
        opts = opts or SearchRequest()
        opts.validate(text)
        t0 = time.perf_counter()
        per_index = msgspec.structs.replace(opts, budget_tokens=None)
        chosen = [m for m in self.members if only is None or m.name in only]
        refs = [(m, self.actors[m.name].search.remote(text, per_index)) for m in chosen]
        answers: list[tuple[IndexAnswer, list[Hit]]] = []
        for m, ref in refs:
            try:
                answers.append(self.ray.get(ref, timeout=ACTOR_TIMEOUT_S))
            except Exception as exc:  # RayActorError, GetTimeoutError, a lost node: this index is missing
                err = f"actor unavailable ({type(exc).__name__}); it is being restarted"
                answers.append((IndexAnswer(repo=m.name, index_dir=str(m.index), ok=False, error=err), []))
        return assemble(self.name, text, answers, opts, merge=merge, elapsed_from=t0)

    def actor_pids(self) -> dict[str, int]:
        return {
            name: self.ray.get(a.pid.remote(), timeout=ACTOR_TIMEOUT_S) for name, a in self.actors.items()
        }
