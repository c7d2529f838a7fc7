"""Measure the routing shortcut: what skipping the dense stream on an exact definition saves and costs.

Owns: the identifier query set of the graph corpora (definition names that are unique in their corpus),
the quality comparison of `SearchOptions.skip_dense_on_exact` True vs False (recall@1/@5, MRR@10, how
often the shortcut fires and how often the top 10 changes), the whole-process latency of
`qry search NAME` with the shortcut on vs off (hyperfine), and the routing half of the
`<!-- graph:start -->` section of docs/benchmarks.md. Corpora and indexes come from graph_bench.py.

Why a wrapper for "off": the CLI has no flag for the shortcut (it is an in-process option), so the
`cli` step runs the same console entry point (`cli.entry.run`) in a fresh process, optionally with
`run_search` wrapped to set `skip_dense_on_exact=False`. The real `qry search` is timed next to the
wrapper with the shortcut on, to show the wrapper adds nothing.

    python bench/routing_bench.py              # ~3 minutes on 2 shared cores
    python bench/routing_bench.py cli [--dense-always] search NAME --index-dir DIR   # one query (hyperfine)
"""

from __future__ import annotations

import sys

EVAL_LABEL = "eval python-stdlib"
LABEL_CLI = "`qry search NAME` (shortcut on, the real CLI)"
LABEL_ON = "wrapper, shortcut on"
LABEL_OFF = "wrapper, shortcut off (dense stream, model loaded)"
FRESH_RUNS = 7


def cli(argv: list[str]) -> None:
    """Run `qry ARGV...` in this process; `--dense-always` first switches the routing shortcut off."""
    if argv and argv[0] == "--dense-always":
        argv = argv[1:]
        from cli.fastpath import _import_msgspec_lean

        _import_msgspec_lean()  # as the fast path would, so both variants import the same modules
        import indexlib.retrieval.search as search

        original = search.run_search

        def dense_always(engine: object, text: str, opts: search.SearchOptions) -> object:
            opts.skip_dense_on_exact = False
            return original(engine, text, opts)  # type: ignore[arg-type]

        search.run_search = dense_always  # type: ignore[assignment]
    sys.argv = ["qry", *argv]
    from cli.entry import run

    run()


def main(argv: list[str] | None = None) -> int:
    import argparse
    import datetime as dt
    import json
    import random
    import re
    import shutil
    import statistics
    import subprocess
    import tempfile
    import time
    from pathlib import Path

    import graph_bench as gb

    from indexlib.records import DEFINITION_KINDS
    from indexlib.retrieval.query import Route, classify, parse_query
    from indexlib.retrieval.search import SearchOptions

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--queries", type=int, default=100, help="identifier queries in all (default 100)")
    ap.add_argument("--runs", type=int, default=5, help="hyperfine runs per command per pass")
    ap.add_argument("--passes", type=int, default=4, help="interleaved passes over the commands")
    args = ap.parse_args(argv)
    started = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M")
    load_before = gb.load_avg()
    gb.prepare()

    test_path = re.compile(r"(?:^|/)(?:tests?|testing)(?:/|$)|(?:^|/)test_[^/]*\.py$")

    # -- the query set -------------------------------------------------------------------------
    share = {"stdlib-ejh": 0.6, "qry-self": 0.4}
    queries: list[tuple[str, str, str, str]] = []  # (corpus, name, path, qualified name)
    for name in gb.CORPUS_NAMES:
        c = gb.Corpus.open(name)
        counts: dict[str, int] = {}
        for s in c.nodes:
            if s.node.kind in DEFINITION_KINDS and s.node.part == 0:
                counts[s.node.name.lower()] = counts.get(s.node.name.lower(), 0) + 1
        pool = sorted(
            {(s.node.name, s.node.path, s.node.qualified_name) for s in c.nodes
             if s.node.kind in DEFINITION_KINDS and s.node.part == 0 and len(s.node.name) >= 3
             and counts[s.node.name.lower()] == 1 and not test_path.search(s.node.path)
             and classify(parse_query(s.node.name)) is Route.IDENTIFIER}
        )
        rng = random.Random(f"{gb.SEED}-routing-{name}")
        k = min(len(pool), round(args.queries * share[name]))
        queries += [(name, *t) for t in rng.sample(pool, k)]
        gb.log(f"{name}: {len(pool)} unique identifier definitions, {k} sampled")

    engines = {n: gb.open_engine(n) for n in gb.CORPUS_NAMES}
    labels = list(gb.CORPUS_NAMES)
    # The evaluation harness's symbol queries, on its own index, when it has built them (read only).
    eval_queries = gb.HERE / ".cache" / "queries" / "python-stdlib.jsonl"
    eval_index = gb.HERE / ".cache" / "index" / "python-stdlib-onnx"
    if eval_queries.is_file() and (eval_index / "HEAD").is_file():
        rows = [json.loads(line) for line in eval_queries.read_text().splitlines() if line.strip()]
        sym = [r for r in rows if r["kind"] == "symbol"]
        queries += [(EVAL_LABEL, r["query"], r["path"], r["qualified_name"]) for r in sym]
        engines[EVAL_LABEL] = gb.open_engine_at(eval_index)
        labels.append(EVAL_LABEL)
        gb.log(f"{EVAL_LABEL}: {len(sym)} symbol queries of bench/eval")

    # -- quality and in-process latency --------------------------------------------------------
    per: dict[tuple[str, bool], list[dict[str, object]]] = {}
    for e in engines.values():  # load each model once, outside the timings
        e.search("warm up the model", SearchOptions())
    for corpus, qname, path, qual in queries:
        tops: dict[bool, list[str]] = {}
        for skip in (True, False):
            t0 = time.perf_counter()
            res = engines[corpus].search(qname, SearchOptions(top_k=10, skip_dense_on_exact=skip))
            ms = (time.perf_counter() - t0) * 1000
            rank = next((i for i, h in enumerate(res.results, 1) if h.path == path and h.symbol == qual), None)
            fired = any("exact definition leads" in note for note in res.meta.notes)
            per.setdefault((corpus, skip), []).append({"rank": rank, "fired": fired, "ms": ms, "q": qname})
            tops[skip] = [h.uid for h in res.results]
        per[(corpus, True)][-1]["changed"] = tops[True] != tops[False]
        per[(corpus, True)][-1]["top1_changed"] = tops[True][:1] != tops[False][:1]

    def metrics(rows: list[dict[str, object]]) -> dict[str, float]:
        ranks = [r["rank"] for r in rows]
        n = len(ranks)
        return {
            "n": n,
            "r1": sum(1 for r in ranks if r == 1) / n,
            "r5": sum(1 for r in ranks if isinstance(r, int) and r <= 5) / n,
            "mrr": sum(1 / r for r in ranks if isinstance(r, int)) / n,
            "ms": statistics.median(float(r["ms"]) for r in rows),  # type: ignore[arg-type]
        }

    quality_rows = []
    def member(c: str, corpus: str) -> bool:
        return c == corpus or (corpus == "both graph corpora" and c in gb.CORPUS_NAMES)

    for corpus in [*gb.CORPUS_NAMES, "both graph corpora", *labels[len(gb.CORPUS_NAMES):]]:
        for skip in (True, False):
            picked = [r for (c, s), rs in per.items() if s == skip and member(c, corpus) for r in rs]
            m = metrics(picked)
            on_rows = [r for (c, s), rs in per.items() if s and member(c, corpus) for r in rs]
            quality_rows.append((corpus, skip, m, sum(bool(r["fired"]) for r in on_rows),
                                 sum(bool(r.get("changed")) for r in on_rows),
                                 sum(bool(r.get("top1_changed")) for r in on_rows)))
    losses = [(c, r["q"], r["rank"], o["rank"]) for (c, s), rs in per.items() if s
              for r, o in zip(rs, per[(c, False)], strict=True) if r["rank"] != o["rank"]]

    # -- whole-process latency (hyperfine) -----------------------------------------------------
    stdlib_names = [q for c, q, _p, _ql in queries if c == "stdlib-ejh"]
    fired_names = [str(r["q"]) for r in per[("stdlib-ejh", True)] if r["fired"]]
    names: list[str] = [n for n in ("JSONDecoder", "parse_headers", "formataddr") if n in fired_names]
    names = (names + [n for n in fired_names if n not in names])[:3] or stdlib_names[:3]
    idx = str(gb.index_dir("stdlib-ejh"))
    qry = shutil.which("qry") or "qry"
    wrapper = f"import sys; sys.path.insert(0, {str(gb.HERE)!r}); import routing_bench; routing_bench.cli(sys.argv[1:])"
    checks = {}
    for label, pre in (("on", []), ("off", ["--dense-always"])):
        proc = subprocess.run([sys.executable, "-c", wrapper, *pre, "search", names[0], "--index-dir", idx,
                               "--json"], capture_output=True, text=True, check=True)
        meta = json.loads(proc.stdout)["meta"]
        checks[label] = (meta["model_loaded"], meta["notes"])
    gb.log(f"model loaded with the shortcut on / off: {checks['on'][0]} / {checks['off'][0]}")
    # In-process search time (meta.elapsed_ms, model load included) in fresh processes.
    fresh: dict[str, list[float]] = {"on": [], "off": []}
    for _ in range(FRESH_RUNS):
        for label, pre in (("on", []), ("off", ["--dense-always"])):
            proc = subprocess.run([sys.executable, "-c", wrapper, *pre, "search", names[0], "--index-dir", idx,
                                   "--json"], capture_output=True, text=True, check=True)
            fresh[label].append(float(json.loads(proc.stdout)["meta"]["elapsed_ms"]))
    # Passes alternate the commands, and each pass is a short hyperfine run: on a shared machine the
    # load drifts within seconds, so pooling interleaved passes compares on and off under the same load.
    pooled: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _pass in range(args.passes):
            for name in names:
                cmds = {
                    LABEL_CLI: [qry, "search", name, "--index-dir", idx],
                    LABEL_ON: [sys.executable, "-c", wrapper, "search", name, "--index-dir", idx],
                    LABEL_OFF: [sys.executable, "-c", wrapper, "--dense-always", "search", name, "--index-dir", idx],
                }
                for label, cmd in cmds.items():
                    out = Path(tmp) / "hf.json"
                    subprocess.run(
                        ["hyperfine", "-N", "--warmup", "1", "--runs", str(args.runs), "--output", "pipe",
                         "--export-json", str(out), " ".join(_quote(a) for a in cmd)],
                        check=True, capture_output=True,
                    )
                    times = json.loads(out.read_text())["results"][0]["times"]
                    pooled.setdefault((name, label), []).extend(t * 1000 for t in times)
    lat = [(name, label, statistics.median(ts), min(ts), statistics.quantiles(ts, n=4)[2])
           for (name, label), ts in pooled.items()]

    text = render(started, load_before, gb.load_avg(), queries, quality_rows, losses, lat, checks, names, fresh, gb.code_version())
    gb.write_section("routing.md", text)
    print(text)
    return 0


def _quote(arg: str) -> str:
    import shlex

    return shlex.quote(arg)


def render(started: str, load_before: str, load_after: str, queries: list[tuple[str, str, str, str]],
           quality_rows: list[tuple[str, bool, dict[str, float], int, int, int]],
           losses: list[tuple[str, object, object, object]],
           lat: list[tuple[str, str, float, float, float]], checks: dict[str, tuple[bool, list[str]]],
           names: list[str], fresh: dict[str, list[float]], version: str) -> str:
    import statistics

    n_by = {c: sum(1 for q in queries if q[0] == c) for c in ("stdlib-ejh", "qry-self", EVAL_LABEL)}
    out = [
        "## Routing shortcut: skip the dense stream when an exact definition leads",
        "",
        f"Generated by `python bench/routing_bench.py` on {started} UTC ({version}); load average (1/5/15 min) "
        f"{load_before} before, {load_after} after, on 2 cores shared with other engineers. "
        "Indexes: the two graph corpora above, embedded with `--embed onnx` (the default model).",
        "",
        "### Quality",
        "",
        f"{n_by['stdlib-ejh'] + n_by['qry-self']} identifier queries ({n_by['stdlib-ejh']} stdlib-ejh, "
        f"{n_by['qry-self']} qry-self; seeded): "
        "the name of a definition (function, method, class) whose name occurs once among the corpus's "
        "definition names (case-insensitively), outside tests, routed as an identifier. The answer is that "
        "definition (same path and qualified name). "
        + (f"Also the {n_by[EVAL_LABEL]} `symbol` queries of the retrieval evaluation (bench/eval, same rule, "
           "25 stdlib modules) on that harness's own index, read only. " if n_by[EVAL_LABEL] else "")
        + "In-process `Engine.search` with "
        "`SearchOptions(skip_dense_on_exact=True)` (the default) vs `False`; the model is loaded before the "
        "timings, so the ms column is the warm per-query cost only.",
        "",
        "| corpus | skip_dense_on_exact | queries | R@1 | R@5 | MRR@10 | median ms (warm) | shortcut fired | top 10 differs | top 1 differs |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for corpus, skip, m, fired, changed, top1 in quality_rows:
        extra = f"{fired} | {changed} | {top1}" if skip else " | | "
        out.append(f"| {corpus} | {skip} | {m['n']} | {m['r1']:.3f} | {m['r5']:.3f} | {m['mrr']:.3f} | "
                   f"{m['ms']:.1f} | {extra} |")
    if losses:
        out += ["", "Queries whose answer's rank differs (corpus, query, rank with skip, rank without): "
                + "; ".join(f"{c} `{q}` {a} vs {b}" for c, q, a, b in losses[:12])]
    else:
        out += ["", "No query's answer changed rank."]
    out += [
        "",
        "### Whole-process latency of `qry search NAME` (stdlib-ejh, onnx index)",
        "",
        "hyperfine (`-N`, output to a pipe), 4 interleaved passes of 5 runs (plus 1 warm-up) per command, "
        "pooled: median, minimum and 75th percentile in ms. The CLI has no switch for the "
        "shortcut, so \"off\" runs the same console entry point in a fresh process with `run_search` wrapped "
        "to pass `skip_dense_on_exact=False` (`python bench/routing_bench.py cli --dense-always search NAME "
        "...`); \"wrapper, on\" is the same wrapper without the switch, to compare like with like. "
        f"Checked with `--json`: model loaded with the shortcut on: {checks['on'][0]}, off: {checks['off'][0]}.",
        "",
        "| query | command | median ms | min ms | p75 ms |",
        "|---|---|---:|---:|---:|",
    ]
    for name, label, med, mn, sd in lat:
        out.append(f"| `{name}` | {label} | {med:.1f} | {mn:.1f} | {sd:.1f} |")
    out += ["", f"In-process search time of `{names[0]}` in a fresh process (`meta.elapsed_ms`, model load "
            f"included), median of {len(fresh['on'])}: shortcut on **{statistics.median(fresh['on']):.1f} ms**, "
            f"off **{statistics.median(fresh['off']):.1f} ms**."]
    on = [(m, mn) for _n, label, m, mn, _p in lat if label == LABEL_ON]
    off = [(m, mn) for _n, label, m, mn, _p in lat if label == LABEL_OFF]
    if on and off:
        saved = statistics.median(o[0] - n[0] for o, n in zip(off, on, strict=True))
        saved_min = statistics.median(o[1] - n[1] for o, n in zip(off, on, strict=True))
        out += ["", f"Saving per identifier query whose definition leads (median over the queries): "
                f"**{saved:.0f} ms** of median wall time, {saved_min:.0f} ms of minimum wall time."]
    out += ["", "Reproduce: `python bench/routing_bench.py` (uses graph_bench.py's corpora and indexes)."]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "cli":
        cli(sys.argv[2:])
    else:
        raise SystemExit(main())
