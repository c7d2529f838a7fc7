"""Benchmark the embedding tier: model throughput, one-shot query cost, vector search recall and latency.

Not a test: it prints markdown tables to paste into reports. Three parts, each selectable:

  python bench/embed_throughput.py --throughput [--n 2000]   raw onnxruntime+tokenizers vs OnnxEmbedder
  python bench/embed_throughput.py --oneshot                 process time: load model + embed one query
  python bench/embed_throughput.py --vectors [--count 50000] exact vs HNSW recall@10/@100 and latency

Throughput texts are the first `--n` functions of the interpreter's standard library (files sorted,
deterministic), passed through `embedding_text`. Raw and OnnxEmbedder runs alternate in slices of the
same texts so load from other processes on the shared cores hits both alike.
"""

from __future__ import annotations

import argparse
import ast
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from indexlib.engines.embed import OnnxEmbedder, resolve_model
from indexlib.engines.vectors import VectorSegment, write_vectors
from indexlib.index.embedtext import embedding_text

# --- texts ----------------------------------------------------------------------------------------


def stdlib_texts(n: int) -> list[str]:
    """`n` embedding texts of standard-library functions, in a fixed order."""
    root = Path(sysconfig.get_paths()["stdlib"])
    out: list[str] = []
    for path in sorted(root.rglob("*.py")):
        if "site-packages" in path.parts or "test" in path.parts or "tests" in path.parts:
            continue
        try:
            source = path.read_text(encoding="utf-8")
            tree = ast.parse(source)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        module = ".".join(path.relative_to(root).with_suffix("").parts)
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            text = ast.get_source_segment(source, node) or ""
            signature = text.split("\n", 1)[0]
            doc = ast.get_docstring(node) or ""
            out.append(embedding_text(node.name, f"{module}.{node.name}", signature, doc, text))
            if len(out) == n:
                return out
    return out


# --- throughput -----------------------------------------------------------------------------------


class RawModel:
    """The simplest correct loop: tokenizer pads each batch, onnxruntime runs it, numpy pools."""

    def __init__(self, max_length: int, threads: int) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        spec = resolve_model()
        self.tok = Tokenizer.from_file(spec.tokenizer_path)
        self.tok.enable_truncation(max_length=max_length)
        self.tok.enable_padding()  # pad to the longest of the batch
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.sess = ort.InferenceSession(spec.onnx_path, so, providers=["CPUExecutionProvider"])

    def embed(self, texts: list[str], batch: int = 8) -> np.ndarray:
        # Sorting by length is the one trick a simple loop also uses (TECH.md: batch 1-8 sorted is best).
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), 384), dtype=np.float32)
        for s in range(0, len(order), batch):
            idx = order[s : s + batch]
            enc = self.tok.encode_batch([texts[i] for i in idx])
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            hidden = self.sess.run(
                None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            )[0]
            m = mask[..., None].astype(np.float32)
            pooled = (hidden * m).sum(1) / m.sum(1)
            out[idx] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
        return out


def throughput(n: int, slices: int) -> None:
    texts = stdlib_texts(n)
    print(f"\n### Throughput: {len(texts)} stdlib function texts (embedding_text, <= 1500 chars)\n")
    print("| max_length | threads | raw chunks/s | OnnxEmbedder chunks/s | ratio | max abs diff |")
    print("|---:|---:|---:|---:|---:|---:|")
    step = max(1, len(texts) // slices)
    for max_length in (256, 128):
        for threads in (1, 2):
            raw = RawModel(max_length, threads)
            ours = OnnxEmbedder(resolve_model(), max_length=max_length, threads=threads)
            t_raw = t_ours = 0.0
            diff = 0.0
            for s in range(0, len(texts), step):
                part = texts[s : s + step]
                t0 = time.perf_counter()
                a = raw.embed(part)
                t1 = time.perf_counter()
                b = ours.embed(part)
                t2 = time.perf_counter()
                t_raw += t1 - t0
                t_ours += t2 - t1
                diff = max(diff, float(np.abs(a - b).max()))
            r, o = len(texts) / t_raw, len(texts) / t_ours
            print(f"| {max_length} | {threads} | {r:.1f} | {o:.1f} | {o / r:.2f} | {diff:.1e} |", flush=True)


# --- one-shot query process -----------------------------------------------------------------------

_ONESHOT = """
import os, time
t0 = time.perf_counter()
from indexlib.engines.embed import OnnxEmbedder, resolve_model
e = OnnxEmbedder(resolve_model(), for_query={for_query})
t1 = time.perf_counter()
e.embed_query("retry a failed payment with backoff")
t2 = time.perf_counter()
print(f"{{(t1 - t0) * 1000:.1f}} {{(t2 - t1) * 1000:.1f}}", flush=True)
os._exit(0)
"""


def oneshot(repeats: int) -> None:
    print(f"\n### One-shot query process (median of {repeats}; import+load / embed / whole process)\n")
    print("| graph optimisation | import + load ms | embed one query ms | process wall ms |")
    print("|---|---:|---:|---:|")
    repo = str(Path(__file__).resolve().parents[1])
    for for_query, label in ((True, "ORT_DISABLE_ALL (for_query=True)"), (False, "ORT_ENABLE_ALL")):
        loads, embeds, walls = [], [], []
        for _ in range(repeats):
            t0 = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-c", _ONESHOT.format(for_query=for_query)],
                capture_output=True,
                text=True,
                cwd=repo,
                check=True,
            )
            walls.append((time.perf_counter() - t0) * 1000)
            load, emb = (float(x) for x in proc.stdout.split())
            loads.append(load)
            embeds.append(emb)
        print(
            f"| {label} | {statistics.median(loads):.0f} | {statistics.median(embeds):.1f} "
            f"| {statistics.median(walls):.0f} |"
        )


# --- vectors --------------------------------------------------------------------------------------


def clustered(count: int, dim: int, seed: int = 1) -> np.ndarray:
    """Unit vectors shaped like sentence embeddings: a shared mean direction (anisotropy), many
    clusters of uneven size and spread, and a low-rank structure on top of isotropic noise."""
    rng = np.random.default_rng(seed)
    mean = rng.normal(size=dim)
    basis = rng.normal(size=(48, dim))
    centres = rng.normal(size=(2000, 48)) @ basis / 7 + mean * 0.5
    sizes = rng.zipf(1.6, size=count) % 2000
    spread = rng.uniform(0.3, 1.0, size=(2000, 1))
    mat = centres[sizes] + spread[sizes] * rng.normal(size=(count, dim)) * 0.6
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    return mat.astype(np.float32)


def real_mix(count: int, seed: int = 2) -> np.ndarray:
    """Unit vectors built from real model embeddings of 2,000 stdlib functions (computed once at
    max_length 128, cached under the temp dir): each is one real embedding plus a random share of a
    second and a little noise, so the set keeps the model's anisotropy and low intrinsic dimension."""
    cache = Path(tempfile.gettempdir()) / "qry-bench-stdlib-2000-t128.npy"
    if cache.exists():
        real = np.load(cache)
    else:
        real = OnnxEmbedder(resolve_model(), max_length=128, threads=2).embed(stdlib_texts(2000))
        np.save(cache, real)
    rng = np.random.default_rng(seed)
    a = rng.integers(0, len(real), count)
    b = rng.integers(0, len(real), count)
    mat = real[a] + rng.uniform(0.0, 0.6, size=(count, 1)) * real[b]
    mat += rng.normal(scale=0.02, size=mat.shape)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    return mat.astype(np.float32)


def _recall(found: list[list[int]], truth: np.ndarray, k: int) -> float:
    return float(
        np.mean([len(set(f[:k]) & set(t[:k].tolist())) / k for f, t in zip(found, truth, strict=True)])
    )


def _search_all(seg: VectorSegment, queries: np.ndarray, k: int, **kw: Any) -> tuple[list[list[int]], float]:
    out: list[list[int]] = []
    times: list[float] = []
    for q in queries:
        t0 = time.perf_counter()
        hits = seg.search(q, k, **kw)
        times.append((time.perf_counter() - t0) * 1000)
        out.append([u for u, _ in hits])
    return out, statistics.median(times)


def vectors(count: int, n_queries: int, data_kind: str) -> None:
    dim = 384
    data = clustered(count + n_queries, dim) if data_kind == "synthetic" else real_mix(count + n_queries)
    base, queries = data[:count], data[count:]
    uids = np.arange(1, count + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    truth_rows = np.argsort(-(queries @ base.T), axis=1)[:, :100]
    truth = uids[truth_rows]
    print(
        f"\n### Vector search: {count} x {dim} {data_kind} unit vectors, {n_queries} queries (median latency)\n"
    )
    print("| structure | build s | size MB | recall@10 | recall@100 | p50 ms @10 | p50 ms @100 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        write_vectors(Path(tmp) / "exact", uids.tolist(), base, hnsw_threshold=count + 1)
        build_exact = time.perf_counter() - t0
        seg = VectorSegment.open(Path(tmp) / "exact")
        f10, l10 = _search_all(seg, queries, 10)
        f100, l100 = _search_all(seg, queries, 100)
        size = sum(p.stat().st_size for p in (Path(tmp) / "exact").iterdir()) / 1e6
        print(
            f"| exact f32 (mmap) | {build_exact:.1f} | {size:.0f} | {_recall(f10, truth, 10):.3f} "
            f"| {_recall(f100, truth, 100):.3f} | {l10:.2f} | {l100:.2f} |",
            flush=True,
        )
        # exact over float16: the cost of converting on every query, and its recall.
        m16 = base.astype(np.float16)
        times = []
        found = []
        for q in queries:
            t0 = time.perf_counter()
            s = m16.astype(np.float32) @ q
            top = np.argpartition(-s, 99)[:100]
            top = top[np.argsort(-s[top])]
            times.append((time.perf_counter() - t0) * 1000)
            found.append(uids[top].tolist())
        print(
            f"| exact f16 (converted per query) | - | {m16.nbytes / 1e6:.0f} | {_recall(found, truth, 10):.3f} "
            f"| {_recall(found, truth, 100):.3f} | - | {statistics.median(times):.2f} |",
            flush=True,
        )
        t0 = time.perf_counter()
        write_vectors(Path(tmp) / "hnsw", uids.tolist(), base, hnsw_threshold=0)
        build_hnsw = time.perf_counter() - t0
        size = sum(p.stat().st_size for p in (Path(tmp) / "hnsw").iterdir()) / 1e6
        t0 = time.perf_counter()
        seg = VectorSegment.open(Path(tmp) / "hnsw")
        open_ms = (time.perf_counter() - t0) * 1000
        settings: tuple[tuple[str, dict[str, int]], ...] = (
            ("default max(64, 4k)", {}),
            ("expansion 64", {"expansion": 64}),
            ("expansion 128", {"expansion": 128}),
            ("expansion 256", {"expansion": 256}),
        )
        for label, kw in settings:
            f10, l10 = _search_all(seg, queries, 10, **kw)
            f100, l100 = _search_all(seg, queries, 100, **kw)
            print(
                f"| HNSW f16, {label} | {build_hnsw:.1f} | {size:.0f} | {_recall(f10, truth, 10):.3f} "
                f"| {_recall(f100, truth, 100):.3f} | {l10:.2f} | {l100:.2f} |",
                flush=True,
            )
        print(f"\nHNSW open (Index.restore view=True): {open_ms:.1f} ms")
        # The dtype choice: the same graph built over float32 and int8 (usearch directly, same k rules).
        from indexlib.engines.vectors import _usearch

        rows_to_uid = np.sort(uids)
        order = np.argsort(uids)
        for dtype in ("f32", "i8"):
            index = _usearch().Index(ndim=dim, metric="cos", dtype=dtype)
            index.add(np.arange(count, dtype=np.uint64), base[order], threads=0)
            res = {}
            for k in (10, 100):
                index.expansion_search = max(64, 4 * k)
                res[k] = [rows_to_uid[index.search(q, k, threads=1).keys].tolist() for q in queries]
            print(
                f"HNSW {dtype}, default expansion: recall@10 {_recall(res[10], truth, 10):.3f}, "
                f"recall@100 {_recall(res[100], truth, 100):.3f}",
                flush=True,
            )
        # float16 storage in the embedding cache: how far it moves similarities.
        sims32 = queries @ base[:5000].T
        sims16 = queries @ base[:5000].astype(np.float16).astype(np.float32).T
        print(
            f"float16 round trip (VectorCache): max |delta cosine| {np.abs(sims32 - sims16).max():.1e}, "
            f"top-10 order changes {_order_changes(sims32, sims16)} of {n_queries} queries"
        )


def _order_changes(a: np.ndarray, b: np.ndarray) -> int:
    return int(
        sum(1 for x, y in zip(a, b, strict=True) if set(np.argsort(-x)[:10]) != set(np.argsort(-y)[:10]))
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--throughput", action="store_true")
    ap.add_argument("--oneshot", action="store_true")
    ap.add_argument("--vectors", action="store_true")
    ap.add_argument("--n", type=int, default=2000, help="texts for --throughput")
    ap.add_argument("--slices", type=int, default=8, help="alternating slices for --throughput")
    ap.add_argument("--repeats", type=int, default=7, help="processes per setting for --oneshot")
    ap.add_argument("--count", type=int, default=50_000, help="vectors for --vectors")
    ap.add_argument("--queries", type=int, default=200, help="queries for --vectors")
    ap.add_argument(
        "--data",
        choices=("real-mix", "synthetic", "both"),
        default="both",
        help="vectors for --vectors: mixes of real embeddings, or synthetic clusters",
    )
    args = ap.parse_args()
    everything = not (args.throughput or args.oneshot or args.vectors)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "true")
    if args.oneshot or everything:
        oneshot(args.repeats)
    if args.vectors or everything:
        for kind in ("real-mix", "synthetic") if args.data == "both" else (args.data,):
            vectors(args.count, args.queries, kind)
    if args.throughput or everything:
        throughput(args.n, args.slices)


if __name__ == "__main__":
    main()
