"""Graph context on search hits: callers, callees and parents of each hit, and on-path context nodes.

Owns: `attach_graph`, which runs expansion and diffusion over the snapshot's GraphView for a ranked
list and records what they found on the hits (`related`) or after them (context hits).
Does not own: the graph algorithms (`indexlib/graph/`) or the ranking that chose the hits (search.py).
"""

from __future__ import annotations

from indexlib.graph.diffuse import on_path
from indexlib.graph.expand import expand
from indexlib.graph.view import SnapshotGraph
from indexlib.records import Hit, RefKind
from indexlib.retrieval.snippets import make_snippet
from indexlib.snapshot import Snapshot


def attach_graph(
    snap: Snapshot, hits: list[Hit], *, depth: int = 1, expand_related: bool = True, diffuse: bool = False
) -> list[Hit]:
    """Attach callers/callees/parents to hits, and append on-path context nodes after them."""
    view = SnapshotGraph(snap)
    uids = [int(h.uid, 16) for h in hits]
    if expand_related and depth > 0:
        related = expand(
            view,
            uids,
            depth=depth,
            kinds=(RefKind.CALLS.value, RefKind.INHERITS.value, RefKind.IMPLEMENTS.value),
        )
        for h, u in zip(hits, uids, strict=True):
            h.related = related.get(u, [])
    if diffuse and len(uids) >= 2:
        seeds = {u: 1.0 / (i + 1) for i, u in enumerate(uids)}
        # epsilon 1e-4: at 1e-3 a seed of degree > ~10 never pushes (residual < eps * degree).
        for u, score in on_path(view, seeds, epsilon=1e-4):
            stored = snap.node(u)
            if stored is None:
                continue
            n = stored.node
            hits.append(
                Hit.of_node(
                    n,
                    score=score,
                    snippet=make_snippet(n.text, n.start_line, [], 300),
                    context=True,
                    explain=["on-path context: diffusion from the hits (not a fused hit)"],
                )
            )
    return hits
