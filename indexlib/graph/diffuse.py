"""Personalized PageRank diffusion over a `GraphView`, and the on-path context it yields. Pure.

Owns: `ppr_push` / `diffuse` (Personalized PageRank by the Andersen-Chung-Lang push algorithm, seeded
by the fused hits, hubs kept from spreading mass) and `on_path` (the few diffusion nodes that lie on a
directed path between two seeds: the context the search adds after its hits).

Does not own: the graph (`GraphView`, expand.py), ranking hits (retrieval/fusion.py), or the
benchmark's hub measures (bench/graphmetrics.py). Nothing here imports an engine.

Why diffusion is a context layer and not a ranker: on bug-fix ground truth, RRF of BM25 and
dense beats structural diffusion, which floods high-degree hubs. So `on_path` only ever *adds* nodes
after the fused hits, never reorders them, and hubs neither spread mass nor qualify as context.
"""

import math
from collections import deque
from collections.abc import Mapping, Sequence

import msgspec

from indexlib.errors import UsageError
from indexlib.graph.expand import GraphView
from indexlib.records import RefKind

DIFFUSION_KINDS = (RefKind.CALLS.value, RefKind.IMPORTS.value)
ALPHA = 0.15  # teleport probability of the personalised PageRank walk
EPSILON = 1e-3  # residual per unit of degree below which a node stops pushing
MAX_DEGREE = 200  # nodes with more edges are hubs: they receive mass but never spread it


class Diffusion(msgspec.Struct, kw_only=True):
    """The state the push algorithm ends in, for callers and tests that need more than the ranking.

    `p` is the approximate PPR vector, `residual` what was never pushed (each entry below
    epsilon * degree), `leaked` the mass hubs and dead ends absorbed instead of spreading, `pushes` the
    number of push operations (at most 1 / (alpha * epsilon)), `degree` the degrees that were read.
    """

    p: dict[int, float]
    residual: dict[int, float]
    leaked: float
    pushes: int
    degree: dict[int, int]
    seeds: frozenset[int]

    def ranking(self) -> list[tuple[int, float]]:
        """Non-seed nodes by p(u) / d(u), best first; ties by uid."""
        scored = [
            (uid, mass / max(self.degree.get(uid, 1), 1))
            for uid, mass in self.p.items()
            if uid not in self.seeds and mass > 0.0
        ]
        scored.sort(key=lambda t: (-t[1], t[0]))
        return scored


def push_bound(alpha: float, epsilon: float) -> int:
    """The Andersen-Chung-Lang bound on pushes: each moves at least alpha * epsilon of mass into p."""
    return math.ceil(1.0 / (alpha * epsilon))


def ppr_push(
    view: GraphView,
    seeds: Mapping[int, float],
    *,
    alpha: float = ALPHA,
    epsilon: float = EPSILON,
    kinds: Sequence[str] = DIFFUSION_KINDS,
    max_degree: int = MAX_DEGREE,
    max_pushes: int | None = None,
) -> Diffusion:
    """Approximate Personalized PageRank by pushing residual mass (Andersen, Chung, Lang 2006).

    The graph is the undirected view of `kinds` edges: a node's neighbours are its callees and its
    callers (each edge counts once per end, so d(u) = in + out degree). With s the seeds' weights
    normalised to sum 1, PPR solves  pr = alpha * s + (1 - alpha) * pr W,  W the random-walk matrix.
    The push algorithm keeps p (settled mass) and r (residual, r = s at start) with the invariant
    pr_s = p + pr_r, and while some u has r(u) >= epsilon * d(u):

        p(u) += alpha * r(u);  each neighbour v gets (1 - alpha) * r(u) / d(u);  r(u) = 0.

    Every push moves alpha * r(u) >= alpha * epsilon of mass into p and |p| <= 1, so there are at most
    1 / (alpha * epsilon) pushes, whatever the size of the graph; afterwards r(u) < epsilon * d(u) at
    every node. Hubs (d(u) > max_degree) and dead ends keep their alpha share when pushed but do not
    spread the rest (it is counted in `leaked`): their neighbour lists are never read, which is what
    keeps a `log` function with 10,000 callers from flooding the answer. `max_pushes` is a safety
    valve below the theoretical bound, never needed for correctness.
    """
    if not 0.0 < alpha <= 1.0:
        raise UsageError(f"alpha must be in (0, 1], not {alpha}", hint="the usual teleport value is 0.15")
    if epsilon <= 0.0:
        raise UsageError(f"epsilon must be positive, not {epsilon}", hint="the usual tolerance is 1e-3")
    weights = {u: float(w) for u, w in seeds.items() if w > 0.0 and math.isfinite(w)}
    total = sum(weights.values())
    bound = push_bound(alpha, epsilon)
    limit = bound if max_pushes is None else min(bound, max_pushes)
    adjacency = _Adjacency(view, tuple(kinds))
    p: dict[int, float] = {}
    r: dict[int, float] = {}
    if total <= 0.0:
        return Diffusion(
            p=p, residual=r, leaked=0.0, pushes=0, degree=adjacency.degree, seeds=frozenset(weights)
        )
    order = sorted(weights, key=lambda u: (-weights[u], u))
    for u in order:
        r[u] = weights[u] / total
    leaked, pushes = _push(
        adjacency, order, p, r, alpha=alpha, epsilon=epsilon, max_degree=max_degree, limit=limit
    )
    residual = {u: m for u, m in r.items() if m > 0.0}
    return Diffusion(
        p=p,
        residual=residual,
        leaked=leaked,
        pushes=pushes,
        degree=adjacency.degree,
        seeds=frozenset(weights),
    )


class _Adjacency:
    """The undirected view of `kinds` edges, each node's degree and neighbours read once."""

    def __init__(self, view: GraphView, kinds: tuple[str, ...]) -> None:
        self.view = view
        self.kinds = kinds
        self.degree: dict[int, int] = {}
        self.neighbours: dict[int, list[int]] = {}

    def deg(self, u: int) -> int:
        d = self.degree.get(u)
        if d is None:
            d = self.view.degree(u, self.kinds)
            self.degree[u] = d
        return d

    def nbrs(self, u: int) -> list[int]:
        found = self.neighbours.get(u)
        if found is None:
            kinds = self.kinds
            found = [e.dst for e in self.view.edges(u, kinds, "out")] + [
                e.src for e in self.view.edges(u, kinds, "in")
            ]
            found.sort()
            self.neighbours[u] = found
        return found


def _push(
    adjacency: _Adjacency,
    order: list[int],
    p: dict[int, float],
    r: dict[int, float],
    *,
    alpha: float,
    epsilon: float,
    max_degree: int,
    limit: int,
) -> tuple[float, int]:
    """The push loop over `p` and `r` (updated in place), seeds queued in `order`; (leaked, pushes)."""
    deg = adjacency.deg
    leaked = 0.0
    pushes = 0
    queue: deque[int] = deque(u for u in order if r[u] >= epsilon * max(deg(u), 1))
    queued = set(queue)
    while queue and pushes < limit:
        u = queue.popleft()
        queued.discard(u)
        ru = r.get(u, 0.0)
        du = max(deg(u), 1)
        if ru < epsilon * du:
            continue
        pushes += 1
        p[u] = p.get(u, 0.0) + alpha * ru
        r[u] = 0.0
        spread = (1.0 - alpha) * ru
        targets = adjacency.nbrs(u) if deg(u) <= max_degree else []
        if not targets:
            leaked += spread
            continue
        share = spread / len(targets)
        for v in targets:
            rv = r.get(v, 0.0) + share
            r[v] = rv
            if v not in queued and rv >= epsilon * max(deg(v), 1):
                queue.append(v)
                queued.add(v)
    return leaked, pushes


def diffuse(
    view: GraphView,
    seeds: Mapping[int, float],
    *,
    alpha: float = ALPHA,
    epsilon: float = EPSILON,
    kinds: Sequence[str] = DIFFUSION_KINDS,
    max_degree: int = MAX_DEGREE,
    max_pushes: int | None = None,
) -> list[tuple[int, float]]:
    """Non-seed nodes ranked by degree-normalised Personalized PageRank, best first.

    The score is p(u) / d(u) as in ACL's sweep: dividing by degree stops a node from ranking high only
    because it has many neighbours to collect mass from. See `ppr_push` for the math and the bound.
    """
    return ppr_push(
        view, seeds, alpha=alpha, epsilon=epsilon, kinds=kinds, max_degree=max_degree, max_pushes=max_pushes
    ).ranking()


def on_path(
    view: GraphView,
    seeds: Mapping[int, float],
    *,
    limit: int = 3,
    candidates: int = 50,
    max_path: int = 3,
    min_score: float | None = None,
    alpha: float = ALPHA,
    epsilon: float = EPSILON,
    kinds: Sequence[str] = DIFFUSION_KINDS,
    max_degree: int = MAX_DEGREE,
) -> list[tuple[int, float]]:
    """Up to `limit` context nodes for the search to append after its hits, best diffusion score first.

    A candidate is one of the top `candidates` diffusion nodes (never a seed, never a hub) that lies on a
    directed path of at most `max_path` edges (2..4) from one seed to a *different* seed: a seed reaches
    it in a hops along `kinds` edges and it reaches another seed in b hops, a + b <= max_path. With
    A -> B -> C and seeds A and C, B qualifies (a = b = 1). Direction matters on purpose: two seeds that
    both call `log` do not make `log` a step of a flow, and two seeds called by one `main` do not make
    `main` one. With `min_score` set, a node whose diffusion score reaches it also qualifies.

    Cost: diffusion is bounded by 1 / (alpha * epsilon) pushes; the path test reads the edges of each
    non-hub seed once and of each candidate once, so at most (seeds + candidates) * max_degree edges.
    The search must add these after its fused hits: they never displace one.
    """
    if not 2 <= max_path <= 4:
        raise UsageError(f"max_path must be 2, 3 or 4, not {max_path}", hint="3 is the default")
    if limit <= 0:
        return []
    diff = ppr_push(view, seeds, alpha=alpha, epsilon=epsilon, kinds=kinds, max_degree=max_degree)
    ranked = diff.ranking()[:candidates]
    if not ranked:
        return []
    kinds = tuple(kinds)
    seed_set = diff.seeds

    def deg(u: int) -> int:
        d = diff.degree.get(u)
        if d is None:
            d = view.degree(u, kinds)
            diff.degree[u] = d
        return d

    # One hop out of / into each non-hub seed: from1[v] = seeds s with s -> v, to1[v] = seeds s with v -> s.
    from1: dict[int, set[int]] = {}
    to1: dict[int, set[int]] = {}
    if max_path >= 3:
        for s in sorted(seed_set):
            if deg(s) > max_degree:
                continue
            for e in view.edges(s, kinds, "out"):
                from1.setdefault(e.dst, set()).add(s)
            for e in view.edges(s, kinds, "in"):
                to1.setdefault(e.src, set()).add(s)

    chosen: list[tuple[int, float]] = []
    for uid, score in ranked:
        if len(chosen) >= limit:
            break
        if deg(uid) > max_degree:
            continue
        if (min_score is not None and score >= min_score) or _bridges(
            view, uid, kinds, seed_set, from1, to1, max_path
        ):
            chosen.append((uid, score))
    return chosen


def _bridges(
    view: GraphView,
    uid: int,
    kinds: tuple[str, ...],
    seeds: frozenset[int],
    from1: Mapping[int, set[int]],
    to1: Mapping[int, set[int]],
    max_path: int,
) -> bool:
    """Whether some seed reaches `uid` in a hops and `uid` reaches a different seed in b, a + b <= max_path."""
    ins = [e.src for e in view.edges(uid, kinds, "in")]
    outs = [e.dst for e in view.edges(uid, kinds, "out")]
    # reach_in[a]: seeds reaching uid in exactly a hops (a = 1, 2); reach_out[b]: seeds uid reaches in b.
    reach_in = {1: {u for u in ins if u in seeds}, 2: set().union(*(from1.get(u, set()) for u in ins))}
    reach_out = {1: {v for v in outs if v in seeds}, 2: set().union(*(to1.get(v, set()) for v in outs))}
    for a in (1, 2):
        for b in (1, 2):
            if a + b > max_path:
                continue
            sources, targets = reach_in[a], reach_out[b]
            if sources and targets and (len(sources | targets) >= 2):
                return True
    return False
