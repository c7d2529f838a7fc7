"""Search several indexes as one: fan the query out, merge the answers per stream with RRF.

Owns: the fan-out over a workspace's indexes, the cross-index merge, and the per-index report (which
index answered, from which root, whether it is stale, what failed). An index that cannot be opened or
fails mid-query is reported in `meta.indexes` and the others still answer (`meta.partial`).

Why the merge works per stream. Each index's fused score is a sum over its streams (BM25, symbol,
dense) of `w / (k + rank)`, times the code-aware signals. Ranks from different indexes are not on one
scale: every index has a rank 1 in every stream, so sorting by the fused score alone interleaves the
indexes and puts each index's best guess next to the owner's answer. The merge therefore re-ranks
each stream across the indexes and recomputes the RRF term from that workspace-wide rank:

    global_rank_s(h) = rank_s(h) + sum over other indexes J of  #{ candidates c of J's stream s : score_s(c) > score_s(h) }

(the rank h would have in one stream over all the indexes: each index of a fan-out returns its
streams' candidate scores with its answer, `SearchRequest.stream_scores`; for an index that did not,
the count is bounded from below by the highest rank among its returned hits that score above h), and
scales the hit's own fused score by `sum_s w_s/(k + global_rank_s) / sum_s w_s/(k + rank_s)` (w_s the
stream's RRF weight in the index's fusion, `SearchMeta.weights`), which keeps its signals. Within one
stream, scores are on one scale across indexes: cosine similarity of one model, the symbol tiers, and
BM25 over the same analyzer with the workspace-wide idf: before the fan-out, each index reports the
document frequencies of the query's terms and is then asked with each term weighted by the workspace's
idf over its own (workspace/collection.py: idf_boosts; `global_idf=False` keeps each index's own idf,
for measuring). BM25's length norm divides by each index's own mean node length, so where the merge
compares BM25 scores it first moves each index's to the workspace's mean (collection.length_scales: an
index of long nodes down, one of short nodes up). With a single index the ratio is 1 and the order is
exactly that index's. `merge="rank"` is the plain alternative (re-sort on the fused score, as one
index with several stores would), kept for measuring.

An index that cannot run a stream the others ran (no vectors: built with `--embed none`, or still
embedding) has no term for it in any hit, so the merge scales its hits by the weight of every stream
run over the weight of those it ran (`imputed`): the missing stream is taken to agree with its others.
Without it, a question about that repository found its file first for 8.5% of the dev set's commit
titles beside four indexes with vectors (docs/benchmarks.md).

`merge="cori"` multiplies the stream merge by each index's collection weight (workspace/collection.py),
computed from the document frequencies every index reports with its answer. It made up for per-index
BM25 idf, which lets an index that merely mentions a query word outrank the one that is about it; with
the workspace-wide idf it counts that evidence twice, so the default is the plain stream merge
(both measured in docs/benchmarks.md).
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import msgspec

from indexlib.errors import QryError, UsageError
from indexlib.records import Hit
from indexlib.retrieval.fusion import rrf_term
from indexlib.retrieval.listing import merged_listing
from indexlib.retrieval.query import parse_query
from indexlib.retrieval.request import SearchRequest, top_of
from indexlib.retrieval.search import TOLD_NOTES, Engine
from indexlib.workspace import repofilter
from indexlib.workspace.collection import (
    IDF_FIELD,
    collection_terms,
    idf_boosts,
    idf_terms,
    index_stats,
    length_scales,
)
from indexlib.workspace.collection import weights as collection_weights
from indexlib.workspace.config import Member

# stream (the default): the per-stream merge over BM25 with the workspace-wide idf; cori: the same times
# each index's CORI weight (what made up for per-index idf before; on top of it, it counts twice);
# rank: a re-sort on the fused scores. docs/benchmarks.md measures each.
MERGES = ("stream", "cori", "rank")
DEFAULT_MERGE = "stream"
STREAMS = ("bm25", "symbol", "vector")
EXCLUDED_NOTE = "left out results"  # notes.exclusion_note's opening: what a `-word` removed
MAX_FANOUT_THREADS = 4  # indexes queried at once; each query is mostly Tantivy (GIL released) and numpy


class RepoHit(Hit, kw_only=True):
    """A hit of a workspace search: a `Hit` plus the repository (workspace member) it came from."""

    repo: str = ""


class IndexAnswer(msgspec.Struct, kw_only=True):
    """How one index of the workspace answered."""

    repo: str
    index_dir: str
    ok: bool
    root: str | None = None
    stale: bool = False  # the repository's git HEAD moved since the root was published
    indexed_commit: str | None = None
    hits: int = 0
    elapsed_ms: float = 0.0
    error: str | None = None
    error_code: str | None = None  # the failure's QryError code: `usage`, the request refused, not the index
    notes: list[str] = []
    docs: int = 0  # the index's documents, and the document frequency of each analysed query term:
    term_df: dict[str, int] = {}  # the statistics of the collection weight (workspace/collection.py)
    content_length: float | None = None  # mean analysed terms per node: its BM25 length norm's mean
    # each stream's candidate scores, best first: how many of its candidates beat another index's hit.
    # Read by the merge, then unset (assemble), so a printed answer does not carry them.
    stream_scores: dict[str, list[float]] | msgspec.UnsetType = msgspec.UNSET
    weights: dict[str, float] = {}  # the index's RRF weight per stream (SearchMeta.weights)
    unavailable: list[str] = []  # streams it could not run ("vector": no vectors), for `imputed`


class WorkspaceMeta(msgspec.Struct, kw_only=True):
    workspace: str
    elapsed_ms: float
    merge: str
    partial: bool = False  # some index failed: the results are from the others
    indexes: list[IndexAnswer] = []
    routed: list[str] | None = None  # with --route: the repositories searched, best first
    notes: list[str] = []
    truncated_by_budget: int = 0  # results the token budget left out (SearchMeta's field)


class WorkspaceResult(msgspec.Struct, kw_only=True):
    query: str
    results: list[RepoHit]
    meta: WorkspaceMeta


class Federation:
    """Open engines over a workspace's members, reused across queries (the MCP server keeps one)."""

    def __init__(self, name: str, members: Sequence[Member]) -> None:
        if not members:
            raise UsageError(f"workspace {name!r} has no indexes", hint=f"qry workspace add {name} PATH...")
        labels = [m.name for m in members]
        if len(set(labels)) != len(labels):
            raise UsageError(f"workspace {name!r} names a repository twice", hint="label each index once")
        self.name = name
        self.members = list(members)
        self._engines: dict[str, Engine] = {}

    def engine(self, repo: str) -> Engine:
        if repo not in self._engines:
            member = next(m for m in self.members if m.name == repo)
            self._engines[repo] = Engine(member.index)
        return self._engines[repo]

    def search(
        self,
        text: str,
        opts: SearchRequest | None = None,
        *,
        merge: str = DEFAULT_MERGE,
        only: Sequence[str] | None = None,
        global_idf: bool = True,
    ) -> WorkspaceResult:
        """Run `text` on every member (or those in `only`), merge, cut to `top_k`, pack to the budget.

        With `global_idf` (the default), each index's BM25 first gets the workspace-wide idf of the
        query's terms (workspace/collection.py: idf_boosts); without it, each index's own idf."""
        t0 = time.perf_counter()
        opts, members = begin_search(self.name, text, opts, merge, self.members, only)
        answers = self.ask(text, opts, members, global_idf=global_idf)
        return assemble(self.name, text, answers, opts, merge=merge, elapsed_from=t0)

    def ask(
        self, text: str, opts: SearchRequest, members: Sequence[Member], *, global_idf: bool = True
    ) -> list[tuple[IndexAnswer, list[Hit]]]:
        """Each member's answer to `text` (the fan-out of `search`, before the merge), in member order."""
        with ThreadPoolExecutor(max_workers=min(MAX_FANOUT_THREADS, len(members) or 1)) as pool:
            boosts: dict[str, dict[str, float]] = {}
            if global_idf and len(members) > 1:
                terms = idf_terms(text)
                got = pool.map(lambda m: idf_stats_one(lambda: self.engine(m.name), terms), members)
                boosts = idf_boosts({m.name: st for m, st in zip(members, got, strict=True) if st})
            requests = per_index_requests(opts, [m.name for m in members], boosts)

            def one(m: Member) -> tuple[IndexAnswer, list[Hit]]:
                return answer_one(m, lambda: self.engine(m.name), text, requests[m.name])

            return list(pool.map(one, members))


def begin_search(
    workspace: str,
    text: str,
    opts: SearchRequest | None,
    merge: str,
    members: Sequence[Member],
    only: Sequence[str] | None,
) -> tuple[SearchRequest, list[Member]]:
    """What every workspace (local, or on Ray actors) does before asking any index: check the request
    and the merge, and pick the members to ask: those the query's repo filters keep
    (workspace/repofilter.py), of those in `only` (a route's choice), or all."""
    opts = opts or SearchRequest()
    opts.validate(text)
    check_merge(merge)
    if opts.root is not None:
        raise UsageError(
            "--root names a publish root of one index, not of a workspace",
            hint="leave out --root, or search that index alone: qry search --index-dir DIR --root ID",
        )
    # The query's syntax and filters are the same for every index: checked once, here, so that an
    # index that refuses the request afterwards (no vectors for -m semantic, a --since ref its
    # repository lacks) is that index's failure, reported beside the others' answers.
    q = parse_query(
        text, langs=opts.langs, paths=opts.paths, excludes=opts.excludes, kinds=opts.kinds, repos=opts.repos
    )
    opts.check_words(q)
    kept = repofilter.select(workspace, members, q.repos, q.exclude_repos)
    return opts, [m for m in kept if only is None or m.name in only]


def check_merge(merge: str) -> None:
    """Refuse an unknown merge before any index is asked (both the local and the Ray workspace)."""
    if merge not in MERGES:
        raise UsageError(f"unknown merge {merge!r}", hint=f"use one of: {', '.join(MERGES)}")


def idf_stats_one(
    engine: Callable[[], Engine], terms: list[str], field: str = IDF_FIELD
) -> tuple[int, dict[str, int]] | None:
    """One index's documents and df of `terms` in `field` (the idf field); None when it cannot say
    (the search that follows reports why)."""
    try:
        return index_stats(engine(), terms, field)
    except Exception:
        return None


def per_index_requests(
    opts: SearchRequest, repos: Sequence[str], boosts: dict[str, dict[str, float]]
) -> dict[str, SearchRequest]:
    """What each index is asked: the request without its token budget (that applies to the merged
    list), with the index's idf factors, and naming the repository it answers as."""
    base = msgspec.structs.replace(opts, budget_tokens=None, stream_scores=len(repos) > 1)
    return {r: msgspec.structs.replace(base, term_boosts=boosts.get(r) or {}, member=r) for r in repos}


def answer_one(
    member: Member, engine: Callable[[], Engine], text: str, opts: SearchRequest
) -> tuple[IndexAnswer, list[Hit]]:
    """One member's answer; any failure becomes an `IndexAnswer` with `ok=False`, never an exception."""
    t0 = time.perf_counter()
    ans = IndexAnswer(repo=member.name, index_dir=str(member.index), ok=False)
    try:
        eng = engine()
        result = eng.search(text, opts)
    except QryError as exc:  # begin_search checked the shared request: this failure is this index's own
        ans.error = f"{exc.message} ({exc.hint})" if exc.hint else exc.message
        ans.error_code = exc.code
        ans.elapsed_ms = round((time.perf_counter() - t0) * 1000, 2)
        return ans, []
    except Exception as exc:  # one broken index must not take the workspace down
        ans.error, ans.error_code = f"{type(exc).__name__}: {exc}", "error"
        ans.elapsed_ms = round((time.perf_counter() - t0) * 1000, 2)
        return ans, []
    ans.ok = True
    ans.root = result.meta.root
    ans.indexed_commit = result.meta.indexed_commit
    ans.notes = list(result.meta.notes)
    ans.hits = len(result.results)
    ans.weights, ans.unavailable = dict(result.meta.weights), list(result.meta.unavailable)
    ans.stream_scores = result.meta.stream_scores
    ans.stale = is_stale(eng, result.meta.indexed_commit)
    try:
        ans.docs, ans.term_df = index_stats(eng, collection_terms(text))
        # of the root this answer searched (the engine's open snapshot: no second read of HEAD)
        ans.content_length = eng.snapshot(result.meta.root).content_length()
    except Exception as exc:  # the weight is an aid: without it the index still answers, unweighted
        ans.notes.append(f"no collection statistics: {type(exc).__name__}: {exc}")
    ans.elapsed_ms = round((time.perf_counter() - t0) * 1000, 2)
    return ans, list(result.results)


def assemble(
    workspace: str,
    text: str,
    answers: Sequence[tuple[IndexAnswer, list[Hit]]],
    opts: SearchRequest,
    *,
    merge: str = DEFAULT_MERGE,
    elapsed_from: float | None = None,
) -> WorkspaceResult:
    """Merge per-index answers into one result (also used by the cluster server over actor answers)."""
    t0 = elapsed_from if elapsed_from is not None else time.perf_counter()
    lists = [(a.repo, hits) for a, hits in answers if a.ok]
    filled = imputed([a for a, _hits in answers if a.ok])
    if merge == "rank":
        merged = merge_by_score(lists)
    else:
        stats = {a.repo: (a.docs, a.term_df) for a, _hits in answers if a.ok}
        weights = dict(filled)
        if merge == "cori":
            cori = collection_weights(stats)
            weights = {r: weights.get(r, 1.0) * cori.get(r, 1.0) for r in set(weights) | set(cori)}
        scales = length_scales({a.repo: (a.docs, a.content_length) for a, _hits in answers if a.ok})
        scores = {
            a.repo: a.stream_scores for a, _hits in answers if a.ok and isinstance(a.stream_scores, dict)
        }
        merged = merge_hits(
            lists,
            k=opts.rrf_k,
            weights=weights or None,
            bm25_scale=scales,
            stream_scores=scores,
            stream_weights={a.repo: a.weights for a, _hits in answers if a.ok},
        )
    if (listing := merged_listing(lists, [n for a, _h in answers if a.ok for n in a.notes])) is not None:
        merged = [_tag(repo, h) for repo, h in listing]
    for a, _hits in answers:
        a.stream_scores = msgspec.UNSET
    chosen = top_of(merged, opts.top_k, per_file=opts.per_file, key=lambda h: (h.repo, h.path))
    top: list[Hit] = list(chosen)
    meta = WorkspaceMeta(workspace=workspace, elapsed_ms=0.0, merge=merge, indexes=[a for a, _ in answers])
    meta.partial = any(not a.ok for a, _ in answers)
    meta.notes.extend(shared_told_notes([a for a, _ in answers if a.ok]))
    meta.notes.extend(_imputed_note([a.repo for a, _ in answers if a.repo in filled]))
    for a, _ in answers:
        if not a.ok:
            meta.notes.append(f"{a.repo}: index failed: {a.error}")
        elif a.stale:
            meta.notes.append(
                f"{a.repo}: index is stale (the repository moved past {str(a.indexed_commit)[:12]})"
            )
    if opts.budget_tokens is not None:
        from indexlib.retrieval.budget import pack

        top, meta.truncated_by_budget = pack(top, opts.budget_tokens)
    meta.elapsed_ms = round((time.perf_counter() - t0) * 1000, 2)
    return WorkspaceResult(query=text, results=[h for h in top if isinstance(h, RepoHit)], meta=meta)


def is_told_note(note: str) -> bool:
    """Whether a person is told `note` in every output format (on stderr beside JSON, as a one-index
    search tells its TOLD_NOTES), not only where the format has room for notes."""
    return note.startswith((*TOLD_NOTES, "no indexed file matches"))


def shared_told_notes(answered: Sequence[IndexAnswer]) -> list[str]:
    """The notes a one-index search tells a person (TOLD_NOTES; filters that match no file), said
    once for the workspace, where each index's copy sits in `meta.indexes` only. Most hold for the
    workspace only when every index answering reported them alike (`no result` from one index is
    not the workspace's); what a `-word` left out is true of the workspace when it is of any index
    (its text names only the words typed, so every index words it alike)."""
    if not answered:
        return []
    first, rest = answered[0], answered[1:]
    shared = [n for n in first.notes if is_told_note(n) and all(n in a.notes for a in rest)]
    left_out = [n for a in answered for n in a.notes if n.startswith(EXCLUDED_NOTE)]
    return list(dict.fromkeys([*shared, *left_out]))


def imputed(answers: Sequence[IndexAnswer]) -> dict[str, float]:
    """repo -> merge factor for each index that could not run a stream another index of the answer ran.

    Such an index's hits have no term for that stream (an index built with `--embed none`, or whose
    vectors are still being embedded, beside ones with vectors), so every hit of the others would
    outrank its equals by that term alone. The missing stream is taken to agree with the index's
    others: its hits are scaled by the sum of the weights of every stream the workspace ran over the
    sum of the ones the index ran, both in the index's own weights (its route's)."""
    ran = {s for a in answers for s in a.weights if s not in a.unavailable}
    out: dict[str, float] = {}
    for a in answers:
        missing = ran & set(a.unavailable)
        own = sum(w for s, w in a.weights.items() if s not in a.unavailable)
        if missing and own > 0:
            out[a.repo] = (own + sum(a.weights.get(s, 1.0) for s in missing)) / own
    return out


def _imputed_note(repos: Sequence[str]) -> list[str]:
    """One note naming every index `imputed` scaled (none: no note): a workspace of many lexical
    indexes beside one with vectors would otherwise print a line per index before every answer."""
    its = "its" if len(repos) == 1 else "their"
    said = f"no vectors (qry index --embed onnx): {its} hits are scored as if the dense stream agreed"
    return [f"{', '.join(repos)}: {said} with {its} others"] if repos else []


def _ranks(h: Hit, bm25_scale: float = 1.0) -> dict[str, tuple[int, float]]:
    p = h.provenance
    out: dict[str, tuple[int, float]] = {}
    for s, rank, score in (
        ("bm25", p.bm25_rank, None if p.bm25_score is None else p.bm25_score * bm25_scale),
        ("symbol", p.symbol_rank, p.symbol_score),
        ("vector", p.vector_rank, p.vector_score),
    ):
        if rank is not None:
            out[s] = (rank, score if score is not None else 0.0)
    return out


def _tag(repo: str, h: Hit) -> RepoHit:
    return RepoHit(**{f: getattr(h, f) for f in h.__struct_fields__}, repo=repo)


def merge_hits(
    lists: Sequence[tuple[str, list[Hit]]],
    *,
    k: int,
    weights: dict[str, float] | None = None,
    bm25_scale: Mapping[str, float] | None = None,
    stream_scores: Mapping[str, Mapping[str, Sequence[float]]] | None = None,
    stream_weights: Mapping[str, Mapping[str, float]] | None = None,
) -> list[RepoHit]:
    """The per-stream RRF merge described in the module docstring, best first; `weights` (repo ->
    factor) scale each index's hits, e.g. by its collection weight; `bm25_scale` (repo -> factor)
    scales its BM25 scores where the merge compares them across indexes (collection.length_scales).

    `stream_scores` (repo -> stream -> its candidates' scores) makes the count exact: how many of
    index J's candidates in stream s score above the hit, not a lower bound read off the few hits J
    returned (a hit at rank 40 of J's dense stream does not show that J has 39 nodes closer).
    `stream_weights` (repo -> stream -> the RRF weight its index fused that stream with) weighs each
    stream's term in the rescaling as the index weighed it in the fused score."""
    scale = bm25_scale or {}
    stream_hits: dict[str, list[tuple[int, int, float]]] = {s: [] for s in STREAMS}  # (index, rank, score)
    for i, (repo, hits) in enumerate(lists):
        for h in hits:
            for s, (rank, score) in _ranks(h, scale.get(repo, 1.0)).items():
                stream_hits[s].append((i, rank, score))
    ascending: dict[tuple[int, str], list[float]] = {}  # (index, stream) -> its scores, ascending
    for i, (repo, _hits) in enumerate(lists):
        for s, got in (stream_scores or {}).get(repo, {}).items():
            f = scale.get(repo, 1.0) if s == "bm25" else 1.0
            ascending[(i, s)] = sorted(x * f for x in got)
    scored: list[tuple[float, int, int, RepoHit]] = []
    for i, (repo, hits) in enumerate(lists):
        for pos, h in enumerate(hits):
            local = 0.0
            glob = 0.0
            for s, (rank, score) in _ranks(h, scale.get(repo, 1.0)).items():
                ahead = 0
                for j in range(len(lists)):
                    if j == i:
                        continue
                    known = ascending.get((j, s))
                    if known is not None:
                        ahead += len(known) - bisect.bisect_right(known, score)
                    else:
                        ahead += max((r for jj, r, sc in stream_hits[s] if jj == j and sc > score), default=0)
                w = (stream_weights or {}).get(repo, {}).get(s, 1.0)
                local += rrf_term(s, w, k, rank, score)
                glob += rrf_term(s, w, k, rank + ahead, score)
            factor = glob / local if local > 0 else 1.0
            if weights is not None:
                factor *= weights.get(repo, 1.0)
            scored.append((h.score * factor, i, pos, _tag(repo, h)))
    scored.sort(key=lambda t: (-t[0], t[2], t[1]))
    out = []
    for score, _i, _pos, h in scored:
        h.score = round(score, 6)
        out.append(h)
    return out


def merge_by_score(lists: Sequence[tuple[str, list[Hit]]]) -> list[RepoHit]:
    """Re-sort on each index's own fused score (ties: rank within its index, then workspace order)."""
    scored = [
        (h.score, pos, i, _tag(repo, h)) for i, (repo, hits) in enumerate(lists) for pos, h in enumerate(hits)
    ]
    scored.sort(key=lambda t: (-t[0], t[1], t[2]))
    return [h for *_rest, h in scored]


def is_stale(engine: Engine, indexed_commit: str | None) -> bool:
    """True when the indexed repository's git HEAD is no longer the commit the root was built from."""
    if not indexed_commit:
        return False
    try:
        head = git_head(Path(engine.source_root()))
    except QryError:
        return False
    return head is not None and head != indexed_commit


def git_head(folder: Path) -> str | None:
    """The commit HEAD names, read from the files (no git process: this runs on every query)."""
    for d in (folder, *folder.parents):
        dot = d / ".git"
        if dot.is_file():  # a worktree or submodule: "gitdir: PATH"
            text = _git_file(dot)
            if text is None or not text.startswith("gitdir:"):
                return None
            gitdir = (d / text[7:].strip()).resolve()
        elif dot.is_dir():
            gitdir = dot
        else:
            continue
        return _resolve_head(gitdir)
    return None


def _git_file(path: Path) -> str | None:
    """A small file of git's, stripped; None when it cannot be read or is not UTF-8 (a damaged
    repository reads as one whose HEAD is unknown, never as an error of the search)."""
    try:
        return path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None


def _resolve_head(gitdir: Path) -> str | None:
    head = _git_file(gitdir / "HEAD")
    if head is None:
        return None
    if not head.startswith("ref:"):
        return head or None
    ref = head[4:].strip()
    common = gitdir
    shared = _git_file(gitdir / "commondir")
    if shared is not None:
        common = (gitdir / shared).resolve()
    for base in (gitdir, common):
        found = _git_file(base / ref)
        if found is not None:
            return found or None
    for line in (_git_file(common / "packed-refs") or "").splitlines():
        if line.endswith(" " + ref):
            return line.split(" ", 1)[0]
    return None
