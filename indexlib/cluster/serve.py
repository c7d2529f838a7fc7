"""`qry serve --cluster`: a workspace's indexes on Ray actors, queried by fan-out and the workspace merge.

Owns: one actor per index (it opens the index once and keeps its Engine warm), the fan-out in two
rounds with a time limit per actor (each index's idf statistics, then the search with the
workspace-wide idf, as a local workspace search does), and what a dead actor means: when a call of
either round fails, its answer is an `IndexAnswer` with `ok=False`, the result is flagged `partial`,
and Ray restarts the actor (ACTOR_RESTARTS), so the next query has it again. The failed call is not
retried (a retry would make one query wait for a restart). The merge
is the same function a local workspace search uses (workspace/federate.py: assemble), so a cluster
answer equals the local one for the same indexes.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from indexlib.cluster.connect import connect
from indexlib.records import Hit
from indexlib.retrieval.request import SearchRequest
from indexlib.retrieval.search import Engine
from indexlib.workspace.collection import idf_boosts, idf_terms
from indexlib.workspace.config import Member
from indexlib.workspace.federate import (
    DEFAULT_MERGE,
    IndexAnswer,
    WorkspaceResult,
    answer_one,
    assemble,
    begin_search,
    idf_stats_one,
    per_index_requests,
)

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

    def idf_stats(self, terms: list[str]) -> tuple[int, dict[str, int]] | None:
        return idf_stats_one(self.engine, terms)

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
        merge: str = DEFAULT_MERGE,
        only: Sequence[str] | None = None,
        global_idf: bool = True,
    ) -> WorkspaceResult:
        """As `Federation.search`, with each index answering from its actor."""
        t0 = time.perf_counter()
        opts, chosen = begin_search(self.name, text, opts, merge, self.members, only)
        down: dict[str, str] = {}  # repo -> why its actor did not answer
        boosts: dict[str, dict[str, float]] = {}
        if global_idf and len(chosen) > 1:
            boosts = idf_boosts(self._idf_stats(chosen, idf_terms(text), down))
        requests = per_index_requests(opts, [m.name for m in chosen], boosts)
        refs = {
            m.name: self.actors[m.name].search.remote(text, requests[m.name])
            for m in chosen
            if m.name not in down
        }
        answers: list[tuple[IndexAnswer, list[Hit]]] = []
        for m in chosen:
            if m.name not in down:
                try:
                    answers.append(self.ray.get(refs[m.name], timeout=ACTOR_TIMEOUT_S))
                    continue
                except Exception as exc:  # RayActorError, GetTimeoutError, a lost node: this index is missing
                    down[m.name] = _unavailable(exc)
            answers.append(
                (IndexAnswer(repo=m.name, index_dir=str(m.index), ok=False, error=down[m.name]), [])
            )
        return assemble(self.name, text, answers, opts, merge=merge, elapsed_from=t0)

    def _idf_stats(
        self, chosen: Sequence[Member], terms: list[str], down: dict[str, str]
    ) -> dict[str, tuple[int, dict[str, int]]]:
        """Every chosen actor's idf statistics, asked at once; an actor that fails here is `down` for
        this query (its search is not sent: it would only wait for the restart)."""
        refs = {m.name: self.actors[m.name].idf_stats.remote(terms) for m in chosen}
        stats: dict[str, tuple[int, dict[str, int]]] = {}
        for name, ref in refs.items():
            try:
                got = self.ray.get(ref, timeout=ACTOR_TIMEOUT_S)
            except Exception as exc:
                down[name] = _unavailable(exc)
                continue
            if got:
                stats[name] = got
        return stats

    def actor_pids(self) -> dict[str, int]:
        return {
            name: self.ray.get(a.pid.remote(), timeout=ACTOR_TIMEOUT_S) for name, a in self.actors.items()
        }


def _unavailable(exc: BaseException) -> str:
    return f"actor unavailable ({type(exc).__name__}); it is being restarted"
