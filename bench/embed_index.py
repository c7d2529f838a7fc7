"""Embedding throughput of `qry index`'s vector stage against the raw model, side by side on one tree.

Not a test: prints a markdown table for docs/benchmarks.md. The tree is indexed once without vectors;
then, on copies of that lexical index with empty caches (shared cache off), the real vector stage
(`build.vectors.attach_vectors`: cache lookups, batching, the model, cache appends, vector files, publish)
and the raw model (tokenizer padding, onnxruntime, numpy pooling: bench/embed_throughput.RawModel)
run over the same texts at the same settings, alternating, so load from other processes hits both
alike. "today" is the vector stage with the old defaults (256 tokens, one thread) on the same texts.

  python bench/embed_index.py TREE [--rounds 2] [--no-today]
"""

from __future__ import annotations

import argparse
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


def texts_of(index_dir: Path) -> list[str]:
    store = Store.open(index_dir)
    _rid, manifest = store.load(None)
    out: list[str] = []
    for seg in manifest.segments:
        live = {p for p, rec in manifest.files.items() if rec.segment == seg.id}
        for _nodes, texts in node_texts(store, seg.id, live):
            out.extend(texts)
    return out


def stage(
    lexical: Path, work: Path, max_length: int, threads: int, *, legacy: bool = False
) -> tuple[float, int]:
    """Seconds of the vector stage on a fresh copy of the lexical index, and texts embedded; `legacy`
    embeds the old text (raw source after name words) instead of `embedding_text`."""
    copy = work / f"stage-{max_length}-{threads}"
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(lexical, copy)
    base = embed.OnnxEmbedder

    class Settings(base):  # type: ignore[misc, valid-type]
        def __init__(self, spec: Any, **kw: Any) -> None:
            kw["max_length"] = max_length
            kw["threads"] = threads
            super().__init__(spec, **kw)

    embed.OnnxEmbedder = Settings  # type: ignore[misc]
    original_id = embed.onnx_cache_id  # the caches are keyed before the model loads: same limit
    embed.onnx_cache_id = lambda spec, _n=max_length: original_id(spec, _n)
    current_text = embedtext.embedding_text
    if legacy:
        from embed_quality import legacy_text

        embedtext.embedding_text = legacy_text
    try:
        report = BuildReport()
        t0 = time.perf_counter()
        with writer_lock(copy):
            attach_vectors(
                Store.open(copy), report, BuildOptions(shared_cache=False), lambda _s, _d, _t: None
            )
        seconds = time.perf_counter() - t0
    finally:
        embed.OnnxEmbedder = base  # type: ignore[misc]
        embedtext.embedding_text = current_text
        embed.onnx_cache_id = original_id
    shutil.rmtree(copy)
    return seconds, report.embedded


def raw(texts: list[str], max_length: int, threads: int) -> float:
    model = RawModel(max_length, threads)
    t0 = time.perf_counter()
    model.embed(list(dict.fromkeys(texts)))  # the stage embeds each distinct text once
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", type=Path)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--no-today", action="store_true", help="skip the old-settings stage (slow)")
    args = ap.parse_args()
    cores = embed.available_cores()
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
                f"| raw model, round {i + 1} | 128 tokens, {cores} threads | {r:.1f} | {distinct} | {distinct / r:.1f} |"
            )
            s, n = stage(lexical, work, 128, cores)
            rows["qry"].append(n / s)
            rows["qry_nodes"].append(len(texts) / s)
            print(
                f"| qry index vector stage, round {i + 1} | 128 tokens, {cores} threads | {s:.1f} | {n} | {n / s:.1f} |"
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
