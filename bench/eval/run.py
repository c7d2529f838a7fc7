"""Run the retrieval evaluation: index each stripped corpus with qry, run every query in every mode, report.

Owns: the evaluation loop and its reports. For each corpus it builds an index of the stripped copy
(`bench/.cache/index/<corpus>-<embed>/`), opens one Engine (so the model loads once), runs each query
in the modes below, finds the rank of the single relevant node (same path and qualified name), and
computes recall@1/5/10, MRR@10 and nDCG@10 per corpus x query kind x mode, with the median in-process
latency per mode and the index time per corpus. It does not fetch corpora (corpora.py), generate
queries (make_queries.py), or define metrics (metrics.py); it never tunes ranking.

Modes:
- `lexical`, `symbol`, `semantic`, `hybrid`: qry's `--mode` values, defaults otherwise;
- `hybrid+dense`: hybrid with `skip_dense_on_exact=False` (the dense stream runs even when an exact
  definition leads), to show what the skip saves and costs;
- `hybrid-<signal>`: hybrid with one ranking signal switched off (`Signals().without(name)`).

Outputs (full run): `docs/benchmarks.md` between `<!-- eval:start -->` and `<!-- eval:end -->` (the
rest of that file belongs to other benchmarks), `bench/eval/rank_stats.txt` (a golden-style summary
so a ranking change shows as a diff), and per-query ranks in `bench/.cache/eval/<corpus>.jsonl`.
`--quick` evaluates two small corpora with 25 queries per kind and writes only to
`bench/.cache/eval/quick.md`, so a partial run never overwrites the published numbers.

    python bench/eval/run.py            # full: ~15 minutes on 2 shared cores (most of it embedding)
    python bench/eval/run.py --quick    # a few minutes
    python bench/eval/run.py --embed none   # lexical and symbol streams only
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import corpora
import make_queries
from metrics import METRIC_NAMES, Rank, first_relevant, summarize

from indexlib import BuildOptions, SearchOptions, build_index, open_engine
from indexlib.retrieval.signals import SIGNAL_NAMES, Signals

REPO = corpora.HERE.parents[1]
DOC = REPO / "docs" / "benchmarks.md"
RANK_STATS = corpora.HERE / "rank_stats.txt"
OUT = corpora.CACHE / "eval"
INDEXES = corpora.CACHE / "index"
START, END = "<!-- eval:start -->", "<!-- eval:end -->"

TOP_K = 10
QUICK_CORPORA = ("go-cobra", "ts-rxjs")
QUICK_PER_KIND = 25
SINGLE_STREAMS = ("lexical", "symbol", "semantic")


@dataclass(frozen=True, slots=True)
class Mode:
    name: str
    options: dict[str, Any]
    needs_vectors: bool = False


def modes(embed: str) -> list[Mode]:
    """The modes evaluated; those that need vectors are left out when the index has none."""
    out = [
        Mode("lexical", {"mode": "lexical"}),
        Mode("symbol", {"mode": "symbol"}),
        Mode("semantic", {"mode": "semantic"}, needs_vectors=True),
        Mode("hybrid", {"mode": "hybrid"}),
        Mode("hybrid+dense", {"mode": "hybrid", "skip_dense_on_exact": False}, needs_vectors=True),
    ]
    out += [Mode(f"hybrid-{s}", {"mode": "hybrid", "signals": Signals().without(s)}) for s in SIGNAL_NAMES]
    return [m for m in out if embed != "none" or not m.needs_vectors]


@dataclass(slots=True)
class IndexInfo:
    files: int
    nodes: int
    seconds: float
    embed_seconds: float
    embedded: int
    embed_cached: int
    skipped: dict[str, int]
    fresh: bool  # the index folder (and its vector cache) was deleted first: a cold build


@dataclass(slots=True)
class CorpusRun:
    corpus: corpora.Corpus
    index: IndexInfo
    queries: dict[str, int]  # per kind, after dropping unindexed answers
    unindexed: int
    # (kind, mode) -> ranks; mode -> latencies in ms
    ranks: dict[tuple[str, str], list[Rank]] = field(default_factory=dict)
    latency: dict[str, list[float]] = field(default_factory=dict)
    # mode -> notes of streams that failed: a failed stream silently empties a mode, so it is counted
    failures: dict[str, list[str]] = field(default_factory=dict)


# --- running --------------------------------------------------------------------------------------


def build(corpus: corpora.Corpus, embed: str, fresh: bool) -> tuple[Path, IndexInfo]:
    root = make_queries.STRIPPED / corpus.name
    index_dir = INDEXES / f"{corpus.name}-{embed}"
    if fresh:
        shutil.rmtree(index_dir, ignore_errors=True)
    t0 = time.perf_counter()
    # rebuild: re-parse every file (the parser may have changed since the last run); vectors still come
    # from the index's embedding cache unless `fresh` removed it.
    report = build_index(root, BuildOptions(index_dir=index_dir, embed=embed, git_times=False, rebuild=True))
    seconds = time.perf_counter() - t0
    info = IndexInfo(
        files=report.files,
        nodes=report.nodes_total,
        seconds=round(seconds, 2),
        embed_seconds=round(report.timings.get("embed", 0.0), 2),
        embedded=report.embedded,
        embed_cached=report.embed_cached,
        skipped=dict(report.skipped),
        fresh=fresh,
    )
    return index_dir, info


def evaluate(
    corpus: corpora.Corpus, queries: list[make_queries.Query], embed: str, fresh: bool, log: Any
) -> CorpusRun:
    index_dir, info = build(corpus, embed, fresh)
    log(
        f"{corpus.name}: indexed {info.files} files, {info.nodes} nodes in {info.seconds:.1f}s "
        f"(embed {info.embed_seconds:.1f}s, {info.embedded} embedded, {info.embed_cached} cached)"
    )
    engine = open_engine(index_dir)
    snap = engine.snapshot()
    indexed = {(stored.node.path, stored.node.qualified_name) for _seg, stored in snap.iter_live_nodes()}
    kept = [q for q in queries if (q.path, q.qualified_name) in indexed]
    counts: dict[str, int] = defaultdict(int)
    for q in kept:
        counts[q.kind] += 1
    run = CorpusRun(corpus, info, dict(counts), unindexed=len(queries) - len(kept))
    if kept and embed != "none":  # load the model before timing anything
        engine.search(kept[0].query, SearchOptions(mode="semantic", top_k=1))
    per_query: list[dict[str, Any]] = []
    for mode in modes(embed):
        t_mode = time.perf_counter()
        lat: list[float] = []
        for q in kept:
            opts = SearchOptions(top_k=TOP_K, **mode.options)
            t0 = time.perf_counter()
            result = engine.search(q.query, opts)
            lat.append((time.perf_counter() - t0) * 1000)
            failed = [n for n in result.meta.notes if "failed" in n]
            if failed:
                run.failures.setdefault(mode.name, []).extend(failed)
            rank = first_relevant(h.path == q.path and h.symbol == q.qualified_name for h in result.results)
            run.ranks.setdefault((q.kind, mode.name), []).append(rank)
            per_query.append({"id": q.id, "kind": q.kind, "mode": mode.name, "query": q.query, "rank": rank})
        run.latency[mode.name] = lat
        failures = run.failures.get(mode.name, [])
        note = f"; {len(failures)} STREAM FAILURES, e.g. {failures[0]}" if failures else ""
        log(f"  {mode.name:20} {len(kept)} queries in {time.perf_counter() - t_mode:.1f}s{note}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{corpus.name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in per_query))
    return run


# --- reporting ------------------------------------------------------------------------------------


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def _f(x: float) -> str:
    return f"{x:.3f}"


def _pooled(runs: list[CorpusRun], kind: str | None, mode: str) -> list[Rank]:
    out: list[Rank] = []
    for r in runs:
        for (k, m), ranks in r.ranks.items():
            if m == mode and (kind is None or k == kind):
                out.extend(ranks)
    return out


def _kinds(runs: list[CorpusRun]) -> list[str]:
    present = {k for r in runs for (k, _m) in r.ranks}
    return [k for k in make_queries.KINDS if k in present]


def _mode_names(runs: list[CorpusRun]) -> list[str]:
    seen: list[str] = []
    for r in runs:
        for m in r.latency:
            if m not in seen:
                seen.append(m)
    return seen


def rank_stats(runs: list[CorpusRun]) -> str:
    """Golden-style lines: one per corpus x kind x mode, recall@1, recall@5 and MRR@10."""
    lines = [
        "# corpus kind mode: n recall@1 recall@5 mrr@10  (bench/eval/run.py; a diff here is a ranking change)"
    ]
    for r in runs:
        for kind in _kinds([r]):
            for mode in _mode_names([r]):
                s = summarize(r.ranks.get((kind, mode), []))
                lines.append(
                    f"{r.corpus.name} {kind} {mode}: n={int(s['n'])} "
                    f"r@1={_f(s['R@1'])} r@5={_f(s['R@5'])} mrr={_f(s['MRR@10'])}"
                )
    return "\n".join(lines) + "\n"


def hybrid_gaps(runs: list[CorpusRun]) -> list[tuple[str, str, float, str, float]]:
    """(corpus, kind, hybrid MRR, best single mode, its MRR) wherever hybrid is below the best single stream."""
    out: list[tuple[str, str, float, str, float]] = []
    groups: list[tuple[str, list[CorpusRun]]] = [(r.corpus.name, [r]) for r in runs] + [("all", runs)]
    for label, group in groups:
        for kind in [*_kinds(group), "(all kinds)"]:
            k = None if kind == "(all kinds)" else kind
            hyb = summarize(_pooled(group, k, "hybrid"))["MRR@10"]
            singles = [(m, summarize(_pooled(group, k, m))["MRR@10"]) for m in SINGLE_STREAMS]
            singles = [(m, v) for m, v in singles if _pooled(group, k, m)]
            if not singles:
                continue
            best_mode, best = max(singles, key=lambda mv: mv[1])
            if hyb < best - 1e-9:
                out.append((label, kind, hyb, best_mode, best))
    return out


def markdown(runs: list[CorpusRun], manifest: dict[str, Any], embed: str, elapsed: float, quick: bool) -> str:
    kinds = _kinds(runs)
    mode_names = _mode_names(runs)
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=False
    ).stdout.strip()
    out: list[str] = []
    w = out.append
    w("## Retrieval evaluation")
    w("")
    w(
        f"Generated by `python bench/eval/run.py{' --quick' if quick else ''}` (`just eval`) on {now}, "
        f"qry {commit or 'unknown'}, embeddings `{embed}`, Python {sys.version.split()[0]}, "
        f"{elapsed / 60:.1f} minutes in all. Do not edit by hand."
    )
    w("")
    w(
        "Queries are generated from real code (bench/eval/make_queries.py): **symbol** = a definition's name that "
        "occurs once as a definition in the corpus; **symbol_words** = that name split into words "
        '("parse config"); **concept** = the first sentence (>= 5 words) of a function\'s doc comment, '
        "with that doc comment removed from the indexed copy. One relevant node per query (same path and "
        "qualified name); answers are never test code. Metrics: recall@k, MRR@10, nDCG@10 (binary relevance), "
        "latency = median in-process `Engine.search` time (model already loaded)."
    )
    w("")
    w("### Corpora")
    w("")
    w(
        "| corpus | language | version | source | files | nodes | index s | embed s | queries (sym / words / concept) |"
    )
    w("|---|---|---|---|---:|---:|---:|---:|---|")
    for r in runs:
        c = r.corpus
        q = " / ".join(str(r.queries.get(k, 0)) for k in make_queries.KINDS)
        w(
            f"| {c.name} | {c.language} | {c.version} | {c.source} | {r.index.files} | {r.index.nodes} | "
            f"{r.index.seconds:.1f} | {r.index.embed_seconds:.1f} | {q} |"
        )
    w("")
    if all(r.index.fresh for r in runs):
        w(
            "Index times are cold builds (index folder deleted first; `embed s` is the ONNX tier, "
            f"{sum(r.index.embedded for r in runs)} texts embedded, identical texts once)."
        )
    else:
        cached = sum(r.index.embed_cached for r in runs)
        embedded = sum(r.index.embedded for r in runs)
        w(
            f"Warm builds: {embedded} texts embedded, {cached} vectors from the embedding cache "
            "(a cold build embeds all; see `--fresh`)."
        )
    w("")
    failures = {f"{r.corpus.name}/{m}": len(v) for r in runs for m, v in r.failures.items()}
    if failures:
        w(
            f"**Stream failures** (queries whose notes say a stream failed; those modes are not trustworthy): {failures}"
        )
        w("")
    w("### Summary (all corpora pooled)")
    w("")
    head = " | ".join(f"{k} MRR@10" for k in kinds)
    w(f"| mode | {head} | all R@1 | all R@10 | all MRR@10 | all nDCG@10 | median ms |")
    w("|---|" + "---:|" * (len(kinds) + 5))
    for mode in mode_names:
        per_kind = " | ".join(_f(summarize(_pooled(runs, k, mode))["MRR@10"]) for k in kinds)
        s = summarize(_pooled(runs, None, mode))
        lat = _median([x for r in runs for x in r.latency.get(mode, [])])
        w(
            f"| {mode} | {per_kind} | {_f(s['R@1'])} | {_f(s['R@10'])} | {_f(s['MRR@10'])} | "
            f"{_f(s['nDCG@10'])} | {lat:.1f} |"
        )
    w("")
    gaps = hybrid_gaps(runs)
    w("### Where hybrid is below the best single stream (MRR@10)")
    w("")
    if gaps:
        w("| corpus | kind | hybrid | best single | its MRR@10 | gap |")
        w("|---|---|---:|---|---:|---:|")
        for label, kind, hyb, best_mode, best in gaps:
            w(f"| {label} | {kind} | {_f(hyb)} | {best_mode} | {_f(best)} | {_f(hyb - best)} |")
    else:
        w("Nowhere: hybrid is at least as good as every single stream on every corpus and query kind.")
    w("")
    w("### Signal ablation (hybrid with one signal off, minus hybrid; MRR@10, all corpora pooled)")
    w("")
    w("Positive numbers mean the run was better without the signal, i.e. the signal hurts there.")
    w("")
    w(f"| signal off | {' | '.join(kinds)} | all |")
    w("|---|" + "---:|" * (len(kinds) + 1))
    for sig in SIGNAL_NAMES:
        mode = f"hybrid-{sig}"
        if mode not in mode_names:
            continue
        cells = []
        for k in [*kinds, None]:
            delta = (
                summarize(_pooled(runs, k, mode))["MRR@10"] - summarize(_pooled(runs, k, "hybrid"))["MRR@10"]
            )
            cells.append(f"{delta:+.3f}")
        w(f"| {sig} | {' | '.join(cells)} |")
    w("")
    w("### Per corpus, query kind and mode")
    w("")
    w("<details><summary>all metrics</summary>")
    w("")
    w(f"| corpus | kind | mode | n | {' | '.join(METRIC_NAMES)} | median ms |")
    w("|---|---|---|---:|" + "---:|" * (len(METRIC_NAMES) + 1))
    for r in runs:
        for kind in kinds:
            for mode in mode_names:
                ranks = r.ranks.get((kind, mode))
                if ranks is None:
                    continue
                s = summarize(ranks)
                lat = _median(r.latency.get(mode, []))
                row = " | ".join(_f(s[m]) for m in METRIC_NAMES)
                w(f"| {r.corpus.name} | {kind} | {mode} | {int(s['n'])} | {row} | {lat:.1f} |")
    w("")
    w("</details>")
    w("")
    stats = manifest.get("stats", {})
    dropped = {name: st.get("concept_dropped_after_strip", 0) for name, st in stats.items()}
    unindexed = {r.corpus.name: r.unindexed for r in runs}
    w(
        f"Query generator v{manifest.get('generator')}, seed {manifest.get('seed')}, up to "
        f"{manifest.get('per_kind')} per kind; tree-sitter-language-pack {manifest.get('tree_sitter_language_pack')}. "
        f"Concept queries dropped because stripping could not be verified: {dropped}; queries whose answer "
        f"was not in the index (skipped by discovery): {unindexed}."
    )
    return "\n".join(out) + "\n"


def write_doc(section: str) -> None:
    """Replace only the text between the eval markers, creating the file if needed."""
    block = f"{START}\n{section}{END}"
    if DOC.is_file():
        text = DOC.read_text()
        if START in text and END in text:
            before, rest = text.split(START, 1)
            _, after = rest.split(END, 1)
            DOC.write_text(before + block + after)
            return
        DOC.write_text(text.rstrip("\n") + "\n\n" + block + "\n")
        return
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text("# Benchmarks\n\n" + block + "\n")


# --- command line ---------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="two small corpora, 25 queries per kind")
    parser.add_argument("--embed", choices=("onnx", "none"), default="onnx")
    parser.add_argument("--corpus", action="append", help="only this corpus (repeatable)")
    parser.add_argument("--per-kind", type=int, help="queries per kind per corpus (default: all generated)")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="delete cached indexes first (cold index time; default for a full run)",
    )
    parser.add_argument("--keep-cache", action="store_true", help="full run: reuse cached vectors")
    parser.add_argument("--no-write", action="store_true", help="print the report, write no files")
    args = parser.parse_args(argv)

    t_start = time.perf_counter()

    def log(msg: str) -> None:
        print(f"[{time.perf_counter() - t_start:7.1f}s] {msg}", file=sys.stderr, flush=True)

    names = args.corpus or (list(QUICK_CORPORA) if args.quick else None)
    corpus_list = corpora.get(names)
    for c in corpus_list:
        corpora.ensure(c)
    manifest = make_queries.ensure(
        corpora.get(None)
    )  # one manifest for all corpora, so partial runs reuse it
    per_kind = args.per_kind or (QUICK_PER_KIND if args.quick else None)
    partial = args.quick or bool(args.corpus) or args.per_kind is not None or args.embed == "none"
    fresh = args.fresh or (not partial and not args.keep_cache)
    runs: list[CorpusRun] = []
    for c in corpus_list:
        queries = make_queries.load(c.name)
        if per_kind is not None:  # the files are in seeded random order per kind: a prefix is a sample
            taken: dict[str, int] = defaultdict(int)
            subset = []
            for q in queries:
                if taken[q.kind] < per_kind:
                    taken[q.kind] += 1
                    subset.append(q)
            queries = subset
        runs.append(evaluate(c, queries, args.embed, fresh, log))
    elapsed = time.perf_counter() - t_start
    report = markdown(runs, manifest, args.embed, elapsed, partial)
    if args.no_write:
        print(report)
    elif partial:
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / "quick.md").write_text(report)
        (OUT / "quick_rank_stats.txt").write_text(rank_stats(runs))
        print(report)
        log(f"partial run: wrote {OUT / 'quick.md'} (docs/benchmarks.md untouched)")
    else:
        write_doc(report)
        RANK_STATS.write_text(rank_stats(runs))
        print(report)
        log(f"wrote {DOC} and {RANK_STATS}")
    if any(r.failures for r in runs):
        log("some streams failed during the run (see the report): exit 1")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
