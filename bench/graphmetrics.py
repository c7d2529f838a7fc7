"""Hub measures of the graph benchmark: how far a ranking is made of high-degree nodes.

Owns: `degree_percentile` (the degree a node must exceed to count as a hub) and `hub_contamination`
(the share of hubs in a ranking's top k), read through any `GraphView`. Benchmark-only: no search
path uses them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from indexlib.errors import UsageError
from indexlib.graph.diffuse import DIFFUSION_KINDS
from indexlib.graph.expand import GraphView


def degree_percentile(
    view: GraphView, uids: Iterable[int], *, percentile: float = 95.0, kinds: Sequence[str] = DIFFUSION_KINDS
) -> float:
    """The `percentile` (0-100, linear interpolation) of the degrees of `uids`; 0.0 for none."""
    if not 0.0 <= percentile <= 100.0:
        raise UsageError(f"percentile must be in [0, 100], not {percentile}", hint="95 is the usual cut")
    kinds = tuple(kinds)
    values = sorted(view.degree(u, kinds) for u in uids)
    if not values:
        return 0.0
    pos = (len(values) - 1) * percentile / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def hub_contamination(
    view: GraphView,
    ranked: Sequence[int],
    *,
    threshold: float,
    k: int = 10,
    kinds: Sequence[str] = DIFFUSION_KINDS,
) -> float:
    """Fraction of the top `k` of `ranked` whose degree exceeds `threshold` (e.g. `degree_percentile`).

    The denominator is the number of results actually looked at (min(k, len(ranked))); 0.0 for none.
    """
    top = list(ranked[:k])
    if not top:
        return 0.0
    kinds = tuple(kinds)
    hubs = sum(1 for u in top if view.degree(u, kinds) > threshold)
    return hubs / len(top)
