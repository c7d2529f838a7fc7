"""Embedding throughput of `qry index`'s vector stage against the raw model, side by side on one tree.

Not a test: prints a markdown table for docs/benchmarks.md. The tree is indexed once without vectors;
then, on copies of that lexical index with empty caches (shared cache off), the real vector stage
(`build.vectors.attach_vectors`: cache lookups, batching, the model, cache appends, vector files, publish)
and the raw model (tokenizer padding, onnxruntime, numpy pooling: bench/embed_throughput.RawModel)
run over the same texts at the same settings, alternating, so load from other processes hits both
alike. Both run one single-threaded model per core (the raw model in forked processes, each given an
equal share). "today" is the vector stage with the old defaults (256 tokens, one thread in the
build's process) on the same texts.

  python bench/embed_index.py TREE [--rounds 2] [--no-today]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from embed_throughput import RawModel

import indexlib.engines.embed as embed
import indexlib.index.embedtext as embedtext
from indexlib.index.build import BuildOptions, BuildReport, build_index
from indexlib.index.build.vectors import attach_vectors, node_texts
from indexlib.store.lock import writer_lock
from indexlib.store.store import Store
from indexlib.workers import available_cores


def texts_of(index_dir: Path) -> list[str]:
    store = Store.open(index_dir)
    _rid, manifest = store.load(None)
    out: list[str] = []
    for seg in manifest.segments:
        live = {p: rec.generated for p, rec in manifest.files.items() if rec.segment == seg.id}
        for _nodes, texts, _trivial in node_texts(store, seg.id, live):
            out.extend(texts)
    return out


def stage(
    lexical: Path, work: Path, max_length: int, workers: int, *, legacy: bool = False
) -> tuple[float, int]:
    """Seconds of the vector stage on a fresh copy of the lexical index, and texts embedded; `legacy`
    embeds the old text (raw source after name words) instead of `embedding_text`, and runs the model
    as the old stage did: in the build's own process, on one intra-op thread."""
    copy = work / f"stage-{max_length}-{workers}"
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(lexical, copy)
    base = embed.OnnxEmbedder

    class Settings(base):  # type: ignore[misc, valid-type]
        def __init__(self, spec: Any, **kw: Any) -> None:
            kw["max_length"] = max_length
            if legacy:
                kw["threads"] = 1
            super().__init__(spec, **kw)

    embed.OnnxEmbedder = Settings  # type: ignore[misc]
    original_id = embed.onnx_cache_id  # the caches are keyed before the model loads: same limit
    embed.onnx_cache_id = lambda spec, _n=max_length: original_id(spec, _n)
    current_text = embedtext.embedding_text
    if legacy:
        from embed_quality import legacy_text

        def old_text(*args: Any, brief: bool = False, **kw: Any) -> str:
            return str(legacy_text(*args, **kw))  # the old stage embedded every node's whole text

        embedtext.embedding_text = old_text
    try:
        report = BuildReport()
        t0 = time.perf_counter()
        with writer_lock(copy):
            attach_vectors(
                Store.open(copy),
                report,
                BuildOptions(shared_cache=False, threads=1 if legacy else workers),
                lambda _s, _d, _t: None,
            )
        seconds = time.perf_counter() - t0
    finally:
        embed.OnnxEmbedder = base  # type: ignore[misc]
        embedtext.embedding_text = current_text
        embed.onnx_cache_id = original_id
    shutil.rmtree(copy)
    return seconds, report.embedded


def raw(texts: list[str], max_length: int, workers: int) -> float:
    """Seconds of the raw model over the distinct texts (what the stage embeds) at the stage's
    settings: `workers` forked processes of one intra-op thread, each with an equal share of texts."""
    distinct = list(dict.fromkeys(texts))
    ready, go, done = (multiprocessing.get_context("fork").Barrier(workers + 1) for _ in range(3))

    def work(share: list[str]) -> None:
        model = RawModel(max_length, 1)  # loaded before the clock starts
        ready.wait()
        go.wait()
        model.embed(share)
        done.wait()

    procs = [
        multiprocessing.get_context("fork").Process(target=work, args=(distinct[w::workers],))
        for w in range(workers)
    ]
    for p in procs:
        p.start()
    ready.wait()
    t0 = time.perf_counter()
    go.wait()
    done.wait()
    seconds = time.perf_counter() - t0
    for p in procs:
        p.join()
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", type=Path)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--no-today", action="store_true", help="skip the old-settings stage (slow)")
    args = ap.parse_args()
    cores = available_cores()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.environ["XDG_CACHE_HOME"] = str(work / "xdg")
        tree = work / "tree"
        shutil.copytree(args.tree, tree, symlinks=True, ignore=shutil.ignore_patterns(".qry"))
        build_index(tree, BuildOptions(embed="none", git_times=False))
        lexical = tree / ".qry"
        texts = texts_of(lexical)
        distinct = len(set(texts))
        print(f"\n{args.tree.name}: {len(texts)} nodes, {distinct} distinct texts, {cores} cores\n")
        print("| run | settings | seconds | texts embedded | texts/s |")
        print("|---|---|---:|---:|---:|")
        rows: dict[str, list[float]] = {"raw": [], "qry": [], "qry_nodes": []}
        for i in range(args.rounds):
            r = raw(texts, 128, cores)
            rows["raw"].append(distinct / r)
            print(
                f"| raw model, round {i + 1} | 128 tokens, {cores} processes x 1 thread | {r:.1f} | {distinct} | {distinct / r:.1f} |"
            )
            s, n = stage(lexical, work, 128, cores)
            rows["qry"].append(n / s)
            rows["qry_nodes"].append(len(texts) / s)
            print(
                f"| qry index vector stage, round {i + 1} | 128 tokens, {cores} workers x 1 thread | {s:.1f} | {n} | {n / s:.1f} |"
            )
            sys.stdout.flush()
        # Against the raw model: distinct texts per second; against the old defaults (which embed the
        # old, longer text of the same nodes): nodes per second of the whole stage.
        qry = sum(rows["qry"]) / len(rows["qry"])
        rawm = sum(rows["raw"]) / len(rows["raw"])
        print(f"\nqry / raw: {qry / rawm:.2f}", end="")
        if not args.no_today:
            s, n = stage(lexical, work, 256, 1, legacy=True)
            today = len(texts) / s
            print(
                f"\n| qry index vector stage, old defaults (old text) | 256 tokens, 1 thread | {s:.1f} | {n} | {n / s:.1f} |"
            )
            per_node = sum(rows["qry_nodes"]) / len(rows["qry_nodes"])
            print(f"\nqry / old defaults (nodes per second of the stage): {per_node / today:.2f}", end="")
        print()


if __name__ == "__main__":
    main()
