"""Run every speed benchmark side by side and rewrite their section of docs/benchmarks.md (`just bench`).

Owns: the order of the runs, the machine facts, the summary against the targets of issues 2 and 3,
and the text between `<!-- bench:start -->` and `<!-- bench:end -->` in docs/benchmarks.md. The rest
of that file (the retrieval evaluation between `<!-- eval:start -->` and `<!-- eval:end -->`) belongs
to bench/eval/run.py and is never touched here. The measurements themselves live in index_bench.py,
query_bench.py and embed_bench.py; raw numbers go to bench/.cache/bench/results.json.

Timing belongs here, never in tests: the machine is shared, so every table carries the load average,
and comparisons (qry next to rg, qry index next to the raw model) are made in one run, side by side.

Setup on a fresh Debian/Ubuntu machine: `apt-get install -y ripgrep hyperfine`, then
`pip install -e '.[test]'` (or `pip install .`) in a virtualenv, then:

    python bench/run_all.py            # full run, about 8-10 minutes on 2 shared cores; rewrites the doc
    python bench/run_all.py --quick    # fewer runs, smaller hybrid corpus; prints, leaves the doc alone
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import embed_bench
import index_bench
import query_bench
from index_bench import REPO, bench_env, load_avg, log, ms, require_tools, table

DOC = REPO / "docs" / "benchmarks.md"
RESULTS = REPO / "bench" / ".cache" / "bench" / "results.json"
START, END = "<!-- bench:start -->", "<!-- bench:end -->"
EVAL_START, EVAL_END = "<!-- eval:start -->", "<!-- eval:end -->"


def write_section(text: str | None, body: str) -> str:
    """The document with our marked section replaced by `body` (or added, or a new document).

    Only the text between our markers changes; a missing file gets a heading and both marker pairs
    (the eval pair empty, for bench/eval/run.py to fill); a file without our markers gets the section
    before the evaluation's, or at the end.
    """
    block = f"{START}\n{body.rstrip()}\n{END}"
    if text is None:
        return f"# Benchmarks\n\n{block}\n\n{EVAL_START}\n{EVAL_END}\n"
    if START in text and END in text and text.index(START) < text.index(END):
        before, rest = text.split(START, 1)
        _old, after = rest.split(END, 1)
        return before + block + after
    if EVAL_START in text:
        before, after = text.split(EVAL_START, 1)
        return before + block + "\n\n" + EVAL_START + after
    return text.rstrip("\n") + "\n\n" + block + "\n"


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def _tool_version(argv: Sequence[str]) -> str:
    try:
        out = subprocess.run(list(argv), capture_output=True, text=True, check=False).stdout
    except OSError:
        return "not found"
    return out.splitlines()[0].strip() if out else "?"


def machine_facts() -> dict[str, str]:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or "?"
    mem = "?"
    try:
        kb = int(Path("/proc/meminfo").read_text().split("MemTotal:", 1)[1].split()[0])
        mem = f"{kb / 2**20:.0f} GiB"
    except (OSError, IndexError, ValueError):
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu,
        "cores": str(cores),
        "memory": mem,
        "os": f"{platform.system()} {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "qry": _version("qry"),
        "tantivy": _version("tantivy"),
        "onnxruntime": _version("onnxruntime"),
        "tokenizers": _version("tokenizers"),
        "usearch": _version("usearch"),
        "numpy": _version("numpy"),
        "rg": _tool_version(["rg", "--version"]),
        "hyperfine": _tool_version(["hyperfine", "--version"]),
        "git": _tool_version(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"]),
    }


def _yes(ok: bool) -> str:
    return "yes" if ok else "**no**"


def summary(idx: dict[str, Any], qb: dict[str, Any], eb: dict[str, Any] | None) -> str:
    """One row per target of issues 2 and 3, from the benchmarks' raw numbers."""
    rows: list[list[object]] = []
    reindex = idx["reindex"]
    unchanged = next(v for k, v in reindex.items() if "nothing changed" in k)
    edited = next(v for k, v in reindex.items() if "edited" in k)
    rows.append(
        ["unchanged re-index < 1 s", f"{ms(unchanged['median_ms'])} ms", _yes(unchanged["median_ms"] < 1000)]
    )
    rows.append(
        [
            "one changed file re-indexed < 2 s",
            f"{ms(edited['median_ms'])} ms",
            _yes(edited["median_ms"] < 2000),
        ]
    )
    t = qb["timings"]
    for q in query_bench.QUERIES:
        rg = t[f"`rg -n {q}`"]["median_ms"]
        qry = t[f"`qry search {q}` (plain)"]["median_ms"]
        one = t.get(f"`qry search {q}` (plain, one-segment root)")
        fresh = f"; one-segment root {ms(one['median_ms'])} ms ({one['median_ms'] / rg:.2f}x)" if one else ""
        src_only = t.get(f"`rg -n {q} -g !__pycache__`")
        if src_only:
            fresh += f"; rg without `__pycache__` {ms(src_only['median_ms'])} ms"
        rows.append(
            [
                f"lexical query `{q}` no slower than rg",
                f"{ms(qry)} vs {ms(rg)} ms ({qry / rg:.2f}x){fresh}",
                _yes(qry <= rg),
            ]
        )
    heavy = {k: v["heavy"] for k, v in qb["imports"].items() if not k.startswith("qry index")}
    clean = all(not v for v in heavy.values())
    rows.append(
        [
            "`--help`, `status`, lexical search import no numpy/onnxruntime/usearch/rich",
            "; ".join(f"{k}: {', '.join(v) or 'none'}" for k, v in heavy.items()),
            _yes(clean),
        ]
    )
    if eb is not None:
        r = eb["qry_rate"] / eb["raw_rate"] if eb["raw_rate"] else 0.0
        rc = eb["qry_cpu_rate"] / eb["raw_cpu_rate"] if eb["raw_cpu_rate"] else 0.0
        rows.append(
            [
                "ONNX index throughput within 10% of the raw model",
                f"{eb['qry_rate']:.1f} vs {eb['raw_rate']:.1f} texts/s ({r:.2f}x); per CPU-second "
                f"{eb['qry_cpu_rate']:.1f} vs {eb['raw_cpu_rate']:.1f} ({rc:.2f}x)",
                _yes(r >= 0.9 and rc >= 0.9),
            ]
        )
        changes = eb["head_changes"]
        rows.append(
            [
                "lexical root published before embedding",
                f"HEAD changed {len(changes)} times: " + ", ".join(f"{s:.1f} s" for s, _ in changes),
                _yes(len(changes) >= 2),
            ]
        )
        inc = eb["incremental"]
        rows.append(
            [
                "one-file change embeds only that file's nodes",
                f"embedded {inc['embedded']}, cached {inc['embed_cached']} of {inc['nodes_written']} re-written",
                _yes(inc["embedded"] + inc["embed_cached"] == inc["nodes_written"]),
            ]
        )
        lat = eb["latency"]
        hybrid = next(v for k, v in lat.items() if "(hybrid, plain)" in k)["median_ms"]
        rg_here = next(v for k, v in lat.items() if k.startswith("`rg -n parse_headers"))["median_ms"]
        rg_std = t[f"`rg -n {query_bench.QUERIES[0]}`"]["median_ms"]
        rows.append(
            [
                "natural-language hybrid query within 5x rg",
                f"{ms(hybrid)} ms: {hybrid / rg_std:.1f}x rg over the stdlib ({ms(rg_std)} ms), "
                f"{hybrid / rg_here:.0f}x rg over the hybrid corpus ({ms(rg_here)} ms)",
                _yes(hybrid <= 5 * rg_std),
            ]
        )
    return table(["target", "measured", "met"], rows, "lll")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer runs, smaller hybrid corpus; doc untouched")
    ap.add_argument("--no-embed", action="store_true", help="skip the ONNX tier (embed_bench)")
    ap.add_argument("--no-doc", action="store_true", help="print only; leave docs/benchmarks.md alone")
    ap.add_argument("--work", type=Path, help="working folder (default: a temporary one, removed after)")
    args = ap.parse_args()
    require_tools()
    bench_env()
    started = time.perf_counter()
    work = args.work or Path(tempfile.mkdtemp(prefix="qry-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    facts = machine_facts()
    log(f"work folder {work}; load {load_avg()}")
    idx_runs, q_runs, h_runs = (3, 5, 5) if args.quick else (10, 20, 10)
    if args.quick:
        embed_bench.PACKAGES = ("json", "http")
    try:
        idx = index_bench.run(work, runs=idx_runs)
        qb = query_bench.run(idx.corpus, work, runs=q_runs, imports_repeats=3 if args.quick else 5)
        eb = None if args.no_embed else embed_bench.run(work, runs=h_runs, rg_stdlib_ms=qb.rg_ms)
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    minutes = (time.perf_counter() - started) / 60

    machine = (
        f"Machine: {facts['cpu']}, {facts['cores']} cores, {facts['memory']}, {facts['os']}; "
        f"{facts['python']}. Versions: qry {facts['qry']} (git {facts['git']}), tantivy {facts['tantivy']}, "
        f"onnxruntime {facts['onnxruntime']}, tokenizers {facts['tokenizers']}, usearch {facts['usearch']}, "
        f"numpy {facts['numpy']}; {facts['rg']}; {facts['hyperfine']}."
    )
    parts = [
        "## Speed: indexing and query latency next to ripgrep\n",
        f"_Generated by `just bench` (`python bench/run_all.py`) on {facts['date']} in {minutes:.1f} minutes; "
        "do not edit by hand._ Setup: `apt-get install -y ripgrep hyperfine` and qry installed in the "
        "active virtualenv. Every qry figure is a whole process (`qry ...` from a shell, interpreter start "
        "and imports included) unless it says in-library. The machine is shared with other work: compare "
        "rows of one table (measured side by side), not absolute times across runs; CPU columns "
        "(user + system) move less with load than wall times.\n",
        machine + "\n",
        "### Against the targets (issues 2 and 3)\n",
        summary(idx.numbers, qb.numbers, eb.numbers if eb else None),
        "### Indexing the standard library\n",
        idx.markdown,
        "### Query latency next to rg\n",
        qb.markdown,
    ]
    if eb is not None:
        parts += ["### The ONNX tier: throughput, progressive publishing, hybrid latency\n", eb.markdown]
    body = "\n".join(parts)
    print(body)

    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    results = {"facts": facts, "index": idx.numbers, "query": qb.numbers, "embed": eb.numbers if eb else None}
    RESULTS.write_text(json.dumps(results, indent=1, default=str))
    log(f"raw numbers in {RESULTS}")
    if args.quick or args.no_doc:
        log("docs/benchmarks.md untouched (--quick / --no-doc)")
        return
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(write_section(DOC.read_text() if DOC.exists() else None, body))
    log(f"wrote the bench section of {DOC} ({minutes:.1f} minutes)")


if __name__ == "__main__":
    main()
