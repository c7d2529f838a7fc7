"""The ONNX tier as a user meets it: `qry index --embed onnx` throughput next to the raw model, progressive
publishing, incremental re-embedding, and the whole-process latency of a natural-language hybrid query.

Owns: the hybrid corpus (a few standard-library packages, a few thousand nodes), the side-by-side
throughput measurement, the HEAD watch, the one-file re-index check, hybrid query latency next to rg
and to `--mode lexical`, and the one-shot model load + query embedding cost. It does not own the
model-level experiments (batching, threads, vector search recall: bench/embed_throughput.py, whose
plain onnxruntime + tokenizers loop `RawModel` is the reference here) or the doc rewrite (run_all.py).

Why the raw model runs in two halves around the `qry index` run: the machine is shared, so load drifts;
bracketing the index run in time exposes both to the same drift. The halves interleave the texts
(even / odd positions) so each has the same length mix. Both use the same texts (qry's own embedding
texts, read back from a lexical-only index of the same files), max length, thread count and spinning
setting.

    python bench/embed_bench.py [--work DIR] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import resource
import shlex
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from index_bench import (
    PY,
    QRY,
    STDLIB,
    bench_env,
    copy_tree,
    hyperfine,
    load_avg,
    log,
    ms,
    ratio,
    require_tools,
    run_json,
    table,
)
from query_bench import importtime

#: Standard-library packages of the hybrid corpus (about 1,300 nodes). asyncio (1,100 more) is left out so
#: `just bench` stays under 10 minutes on 2 shared cores: each side of the throughput comparison embeds
#: every text once, at 15-40 texts/s here.
PACKAGES: tuple[str, ...] = ("json", "email", "http", "logging")
NL_QUERY = "how are email headers parsed"
IDENT_QUERY = "parse_headers"
#: The one-file change: a new function appended to this module.
EDIT_FILE = "json/decoder.py"
THREADS = 1  # qry index's default --threads

# Run in a fresh process: import + load the query embedder as `qry search` does, embed one query.
_ONESHOT = """
import os, time
t0 = time.perf_counter()
import onnxruntime
from indexlib.engines.embed import OnnxEmbedder, resolve_model
t1 = time.perf_counter()
e = OnnxEmbedder(resolve_model(), for_query=True)
t2 = time.perf_counter()
e.embed_query({query!r})
t3 = time.perf_counter()
print(f"{{(t1 - t0) * 1000:.2f}} {{(t2 - t1) * 1000:.2f}} {{(t3 - t2) * 1000:.2f}}", flush=True)
os._exit(0)
"""


def prepare_corpus(work: Path) -> Path:
    """A fresh copy every run: the run edits a file, and the index (with its vector cache) must start empty."""
    dest = work / "hybrid"
    shutil.rmtree(dest, ignore_errors=True)
    shutil.rmtree(work / "hybrid-lex", ignore_errors=True)
    dest.mkdir(parents=True)
    for pkg in PACKAGES:
        copy_tree(STDLIB / pkg, dest / pkg)
    return dest


def read_segment_tables(store: Any, seg_id: str) -> tuple[list[Any], list[Any]]:
    """Every node and reference of a segment, in memory (small segments and tools only: the build
    itself streams them with `segtables.iter_segment`)."""
    from indexlib.index.segtables import iter_segment

    nodes: list[Any] = []
    refs: list[Any] = []
    for chunk in iter_segment(store, seg_id):
        nodes.extend(chunk.nodes)
        refs.extend(chunk.refs)
    return nodes, refs


def embedding_texts(index_dir: Path) -> list[str]:
    """The distinct texts `qry index` would embed for HEAD of `index_dir`, in node order."""
    from indexlib.index.embedcache import text_key
    from indexlib.index.embedtext import embedding_text
    from indexlib.store.store import Store

    store = Store.open(index_dir)
    _root, manifest = store.load(None)
    seen: dict[int, str] = {}
    for seg in manifest.segments:
        live = {p for p, rec in manifest.files.items() if rec.segment == seg.id}
        for n in read_segment_tables(store, seg.id)[0]:
            if n.path in live:
                t = embedding_text(n.name, n.qualified_name, n.signature, n.doc, n.text)
                seen.setdefault(text_key(t), t)
    return list(seen.values())


@dataclass
class HeadWatch:
    """Polls `.qry/HEAD` while a build runs; on the first change runs one lexical query against it."""

    head: Path
    corpus: Path
    changes: list[tuple[float, str]] = field(default_factory=list)
    probe: dict[str, Any] = field(default_factory=dict)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self, t0: float) -> None:
        last = ""
        while not self.stop.is_set():
            try:
                cur = self.head.read_text().strip()
            except OSError:
                cur = ""
            if cur and cur != last:
                self.changes.append((time.perf_counter() - t0, cur))
                last = cur
                if len(self.changes) == 1:
                    self._probe(t0)
            time.sleep(0.005)

    def _probe(self, t0: float) -> None:
        """The lexical root must answer while vectors are being computed."""
        start = time.perf_counter()
        proc = subprocess.run(
            [QRY, "search", IDENT_QUERY, "--mode", "lexical", "--json", "--no-graph"],
            cwd=self.corpus,
            capture_output=True,
            text=True,
            check=False,
        )
        hits = len(json.loads(proc.stdout)["results"]) if proc.returncode in (0, 1) and proc.stdout else 0
        self.probe = {
            "at_s": start - t0,
            "code": proc.returncode,
            "hits": hits,
            "ms": (time.perf_counter() - start) * 1000,
            "head_changes_before_done": len(self.changes),
        }


@dataclass
class EmbedResult:
    markdown: str
    numbers: dict[str, Any]


def run(work: Path, runs: int = 10, warmup: int = 2, rg_stdlib_ms: float | None = None) -> EmbedResult:
    from embed_throughput import RawModel  # the reference loop (imports numpy, onnxruntime, usearch)

    from indexlib.engines.embed import DEFAULT_MAX_LENGTH

    corpus = prepare_corpus(work)
    load_before = load_avg()
    log(f"hybrid corpus {corpus}: lexical-only index for the texts, load {load_before}")
    lex, _r = run_json(
        [QRY, "index", str(corpus), "--embed", "none", "--json", "--index-dir", str(work / "hybrid-lex")]
    )
    texts = embedding_texts(work / "hybrid-lex")
    even, odd = texts[0::2], texts[1::2]

    t = time.perf_counter()
    raw = RawModel(DEFAULT_MAX_LENGTH, THREADS)
    raw_load_s = time.perf_counter() - t
    raw.embed(texts[:16])  # first-run allocations out of the timed part
    log(f"raw model, first half ({len(even)} texts, max_length {DEFAULT_MAX_LENGTH}, {THREADS} thread)")
    t, c = time.perf_counter(), time.process_time()
    raw.embed(even)
    raw_a, raw_cpu_a = time.perf_counter() - t, time.process_time() - c

    log(f"qry index --embed onnx --threads {THREADS}, load {load_avg()}")
    watch = HeadWatch(corpus / ".qry" / "HEAD", corpus)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    thread = threading.Thread(target=watch.run, args=(t0,), daemon=True)
    thread.start()
    proc = subprocess.run(
        [QRY, "index", str(corpus), "--embed", "onnx", "--threads", str(THREADS), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - t0
    time.sleep(0.05)
    watch.stop.set()
    thread.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU of the whole `qry index` process (plus the one probe query): an upper bound on its embed phase.
    qry_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    report = json.loads(proc.stdout)

    log(f"raw model, second half ({len(odd)} texts)")
    t, c = time.perf_counter(), time.process_time()
    raw.embed(odd)
    raw_b, raw_cpu_b = time.perf_counter() - t, time.process_time() - c
    del raw
    load_mid = load_avg()

    roots, _r = run_json([QRY, "roots", "--json"], cwd=corpus)
    embed_s = report["timings"].get("embed", 0.0)
    qry_rate = report["embedded"] / embed_s if embed_s else 0.0
    raw_rate = len(texts) / (raw_a + raw_b)
    qry_cpu_rate = report["embedded"] / qry_cpu if qry_cpu else 0.0
    raw_cpu_rate = len(texts) / (raw_cpu_a + raw_cpu_b)
    lexical_at = watch.changes[0][0] if watch.changes else float("nan")
    vectors_at = watch.changes[-1][0] if len(watch.changes) > 1 else float("nan")

    log("one-file change, re-index with vectors")
    edit = corpus / EDIT_FILE
    with edit.open("a") as f:
        f.write(f"\n\ndef bench_added_{time.time_ns()}(value):\n    return value\n")
    incr, incr_run = run_json(
        [QRY, "index", str(corpus), "--embed", "onnx", "--threads", str(THREADS), "--json"]
    )

    log(f"hybrid query latency ({runs} runs), load {load_avg()}")
    q = shlex.quote(NL_QUERY)
    qry = shlex.quote(QRY)
    commands = [
        ("`python -c pass` (floor)", f"{PY} -c pass"),
        (f"`rg -n {IDENT_QUERY}`", f"rg -n {IDENT_QUERY}"),
        ("`rg -n -i -e email -e headers -e parsed`", "rg -n -i -e email -e headers -e parsed"),
        (f"`qry search {IDENT_QUERY}` (identifier, dense skipped)", f"{qry} search {IDENT_QUERY}"),
        (f'`qry search "{NL_QUERY}" --mode lexical`', f"{qry} search {q} --mode lexical"),
        (f'`qry search "{NL_QUERY}"` (hybrid, plain)', f"{qry} search {q}"),
        (f'`qry search "{NL_QUERY}" --json`', f"{qry} search {q} --json"),
        (f'`qry search "{NL_QUERY}"` (hybrid, repeated: query vector cached)', f"{qry} search {q}"),
    ]
    # Cold rows clear the query-vector cache before every run, so they pay for the model; the
    # "repeated" row keeps it, as a user asking the same question again would.
    from indexlib.engines.embed import DEFAULT_MODEL_ID

    clear = f"rm -rf {shlex.quote(str(corpus / '.qry' / 'cache' / f'queries-{DEFAULT_MODEL_ID}'))}"
    prepare = ["true"] * 5 + [clear, clear, "true"]
    tm = hyperfine(
        commands, cwd=corpus, export=work / "hf-hybrid.json", runs=runs, warmup=warmup, rounds=2, prepare=prepare
    )
    load_after = load_avg()

    # In-library times and the one-shot model cost.
    lib: dict[str, list[float]] = {"hybrid": [], "lexical": []}
    meta: dict[str, Any] = {}
    for _ in range(5):
        for mode in lib:
            data, _r = run_json([QRY, "search", NL_QUERY, "--mode", mode, "--json", "--no-graph"], cwd=corpus)
            lib[mode].append(data["meta"]["elapsed_ms"])
            if mode == "hybrid":
                meta = data["meta"]
    one: list[tuple[float, float, float]] = []
    for _ in range(5):
        out = subprocess.run(
            [PY, "-P", "-c", _ONESHOT.format(query=NL_QUERY)], capture_output=True, text=True, check=True
        ).stdout.split()
        one.append((float(out[0]), float(out[1]), float(out[2])))
    imp_ms, load_ms, emb_ms = (statistics.median(x[i] for x in one) for i in range(3))
    prof = importtime(["search", NL_QUERY], corpus, 3)

    # --- markdown -----------------------------------------------------------------------------
    head_ok = len(watch.changes) >= 2 and lexical_at < vectors_at
    probe = watch.probe
    thr_rows = [
        [
            f"`qry index --embed onnx --threads {THREADS}` (embed phase)",
            report["embedded"],
            f"{embed_s:.1f}",
            f"{qry_rate:.1f}",
            ratio(qry_rate, raw_rate),
            f"{qry_cpu:.1f}",
            f"{qry_cpu_rate:.1f}",
            ratio(qry_cpu_rate, raw_cpu_rate),
        ],
        [
            "raw onnxruntime + tokenizers (`RawModel`, batch 8 sorted by length), halves before / after",
            len(texts),
            f"{raw_a + raw_b:.1f}",
            f"{raw_rate:.1f}",
            "1.00x",
            f"{raw_cpu_a + raw_cpu_b:.1f}",
            f"{raw_cpu_rate:.1f}",
            "1.00x",
        ],
    ]
    floor = tm["`python -c pass` (floor)"]
    rg_same = tm[f"`rg -n {IDENT_QUERY}`"]
    lat_rows = []
    for label, _cmd in commands:
        x = tm[label]
        lat_rows.append(
            [
                label,
                ms(x.median_ms),
                ms(x.cpu_ms),
                ratio(x.median_ms, rg_same.median_ms),
                ratio(x.median_ms, rg_stdlib_ms) if rg_stdlib_ms else "-",
                ratio(x.median_ms, floor.median_ms),
            ]
        )
    hybrid = tm[f'`qry search "{NL_QUERY}"` (hybrid, plain)']
    lexical = tm[f'`qry search "{NL_QUERY}" --mode lexical`']
    heavy = {p: prof.package_cost(p) / 1000 for p in ("numpy", "onnxruntime", "usearch", "tokenizers")}
    incr_ok = incr["embedded"] + incr["embed_cached"] == incr["nodes_written"] and incr["changed"] == 1
    md = [
        f"Corpus: the standard library's {', '.join(f'`{p}`' for p in PACKAGES)} packages: "
        f"{lex['files']} files, **{lex['nodes_total']:,} nodes**, {len(texts):,} distinct embedding texts. "
        f"Model: bundled all-MiniLM-L6-v2 int8, max length {DEFAULT_MAX_LENGTH} tokens, {THREADS} thread, "
        f"spinning off. Load average before / during / after: {load_before} -> {load_mid} -> {load_after}.\n",
        "Embedding throughput, side by side on the same texts (target: `qry index` within 10% of the raw "
        "model; the embed phase includes model load, cache and vector-file writes):\n",
        table(
            ["what", "texts", "wall s", "texts/s", "vs raw", "CPU s", "texts/CPU-s", "vs raw (CPU)"], thr_rows
        ),
        "\nCPU s of `qry index` is its whole process (parsing and start-up included), so its CPU rate is a "
        "lower bound; wall rates move with other load, CPU rates much less.\n",
        f"\nRaw model session creation: {raw_load_s * 1000:.0f} ms. Whole `qry index --embed onnx` process: "
        f"{wall:.1f} s (phases, s: "
        + ", ".join(f"{k} {v:.2f}" for k, v in report["timings"].items())
        + ").\n",
        f"Progressive publishing: `.qry/HEAD` changed {len(watch.changes)} times during the build, at "
        + ", ".join(f"{s:.2f} s" for s, _ in watch.changes)
        + f" (lexical root, then vectors root); `qry roots` lists {len(roots)} roots. "
        + (
            f"A lexical query run as soon as the first root appeared (at {probe.get('at_s', 0):.2f} s, while "
            f"the model was embedding) exited {probe.get('code')} with {probe.get('hits')} hits in "
            f"{probe.get('ms', 0):.0f} ms. "
            if probe
            else ""
        )
        + f"Lexical root published before embedding: **{'yes' if head_ok else 'no'}**.\n",
        f"\nOne-file change (a function appended to `{EDIT_FILE}`), `qry index --embed onnx --json`: "
        f"changed {incr['changed']} file, {incr['nodes_written']} nodes re-written, "
        f"**embedded {incr['embedded']}**, embed_cached {incr['embed_cached']}, in {incr_run.wall_s:.1f} s "
        f"whole process (embed phase {incr['timings'].get('embed', 0):.2f} s). Only that file's nodes "
        f"considered, only new text embedded: **{'yes' if incr_ok else 'no'}**.\n",
        f"\nWhole-process query latency on this corpus (hyperfine, {runs} runs in 2 passes, {warmup} warmups, output "
        f"through a pipe). Goal for the hybrid query: within 5x rg on the same tree. `vs rg stdlib` compares "
        f"with `rg -n JSONDecoder` over the whole standard library (the tree of the lexical benchmark).\n",
        table(["command", "median ms", "CPU ms", "vs rg here", "vs rg stdlib", "vs floor"], lat_rows),
        f"\nHybrid / lexical for the same query: {ratio(hybrid.median_ms, lexical.median_ms)} "
        f"(+{hybrid.median_ms - lexical.median_ms:.0f} ms). In-library `meta.elapsed_ms` (median of 5, no graph): "
        f"hybrid {statistics.median(lib['hybrid']):.0f} ms (route {meta.get('route')}, model loaded: "
        f"{meta.get('model_loaded')}, streams {meta.get('streams')}), lexical {statistics.median(lib['lexical']):.0f} ms.\n",
        f"\nOne-shot model cost in a fresh process (median of 5): import onnxruntime + indexlib.engines.embed "
        f"**{imp_ms:.0f} ms**, session + tokenizer load (`ORT_DISABLE_ALL`) **{load_ms:.0f} ms**, embed the "
        f"query **{emb_ms:.0f} ms**: {imp_ms + load_ms + emb_ms:.0f} ms in all. Imports of the hybrid search "
        f"process (`-X importtime`, least of 3): {prof.total_us / 1000:.0f} ms in all; "
        + ", ".join(f"{k} {v:.0f} ms" for k, v in heavy.items())
        + ".\n",
    ]
    numbers = {
        "load": [load_before, load_mid, load_after],
        "nodes": lex["nodes_total"],
        "texts": len(texts),
        "qry_embedded": report["embedded"],
        "qry_embed_s": embed_s,
        "qry_rate": qry_rate,
        "raw_rate": raw_rate,
        "raw_s": [raw_a, raw_b],
        "raw_cpu_s": [raw_cpu_a, raw_cpu_b],
        "qry_cpu_s": qry_cpu,
        "qry_cpu_rate": qry_cpu_rate,
        "raw_cpu_rate": raw_cpu_rate,
        "index_wall_s": wall,
        "index_timings": report["timings"],
        "head_changes": watch.changes,
        "probe": probe,
        "roots": len(roots),
        "incremental": {
            k: incr[k] for k in ("changed", "nodes_written", "embedded", "embed_cached", "timings")
        },
        "latency": {k: v.__dict__ for k, v in tm.items()},
        "lib_ms": lib,
        "oneshot_ms": {"import": imp_ms, "load": load_ms, "embed": emb_ms},
        "hybrid_imports_ms": {"total": prof.total_us / 1000, **heavy},
    }
    return EmbedResult("\n".join(md), numbers)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, help="working folder (default: a new temporary one)")
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    require_tools()
    bench_env()
    work = args.work or Path(tempfile.mkdtemp(prefix="qry-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    print(run(work, runs=args.runs).markdown)


if __name__ == "__main__":
    main()
