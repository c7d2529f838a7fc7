"""Would a dense picture of each repository route questions better? (issue 15; measured, not kept)

Owns: replaying `qry search --route` with the router's confidence blended with each repository's
share of a dense similarity to the question, over route_replay's capture of the default hybrid mode
(`python bench/route_replay.py --embed onnx --recs FILE` writes it). The similarities, per index
of the workspace (every node vector of its published root): to the mean vector (the repository's
topic), to the nearest of 16 or 64 k-means centroids (its several topics), and the mean of the 10
or 50 nearest node vectors (how densely its code surrounds the question). A similarity becomes a
share by a softmax over the repositories at temperature T; the rule is `(confidence + w x share) /
(1 + w)`, kept as route_replay keeps (within 0.5 of the best, up to 3).

    python bench/route_dense.py --recs /work/eval/caps/recs-onnx.pkl [--work /work/eval/work-ws]
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import route_replay as rr
import workspace_bench as wb

FEATURES = ("mean", "km16", "km64", "top10", "top50")
TEMPERATURES = (0.01, 0.02, 0.05)
WEIGHTS = (0.3, 1.0)


def root_vectors(index_dir: Path) -> Any:
    """Every node vector of the index's published root, as unit rows."""
    from indexlib.engines.vectors import VectorSegment

    head = (index_dir / "HEAD").read_text().strip()
    root = json.loads((index_dir / "roots" / f"{head}.json").read_text())
    mats = []
    for seg in root["segments"]:
        for vd in (index_dir / "segments" / seg["id"]).glob("vectors-*"):
            s = VectorSegment.open(vd)
            if s.kind == "exact":
                mats.append(np.asarray(s._matrix, dtype=np.float32))
            else:
                mats.append(np.asarray(s._index.get(np.arange(s.count)), dtype=np.float32))
    m = np.concatenate(mats)
    return m / np.linalg.norm(m, axis=1, keepdims=True).clip(1e-9)


def kmeans(m: Any, k: int, rounds: int = 20) -> Any:
    """k unit centroids of the rows of `m` (spherical k-means, fixed seed)."""
    c = m[np.random.default_rng(0).choice(len(m), k, replace=False)].copy()
    for _ in range(rounds):
        a = np.argmax(m @ c.T, axis=1)
        for j in range(k):
            if (a == j).any():
                v = m[a == j].mean(0)
                c[j] = v / np.linalg.norm(v)
    return c


def pictures(work: Path, corpora: set[str]) -> dict[tuple[str, bool], dict[str, Any]]:
    """(corpus, doc-less?) -> its vectors, mean and centroids."""
    out = {}
    for d in sorted((work / "idx-onnx").iterdir()):
        corpus = next(c for c in corpora if d.name.split("@")[0].endswith(c) or c in d.name)
        m = root_vectors(d)
        mean = m.mean(0)
        out[(corpus, d.name.endswith("_nodoc"))] = {
            "all": m,
            "mean": mean / np.linalg.norm(mean),
            "km16": kmeans(m, 16),
            "km64": kmeans(m, 64),
        }
    return out


def dense_features(recs: list[dict[str, Any]], work: Path) -> list[rr.Feats]:
    from indexlib.retrieval.querymodel import query_model

    corpora = {rec["q"]["corpus"] for rec in recs}
    pics = pictures(work, corpora)
    some = next((work / "idx-onnx").iterdir())
    head = (some / "HEAD").read_text().strip()
    model = query_model(None, json.loads((some / "roots" / f"{head}.json").read_text())["model"]["model_id"])
    out = []
    for rec in recs:
        q = np.asarray(model.embed_query(rec["q"]["query"]), dtype=np.float32).reshape(-1)
        q /= np.linalg.norm(q)
        feats = rr.features(rec)
        for repo, v in feats.items():
            p = pics[(repo, rec["q"]["snapshot"].endswith("+nodoc"))]
            near = np.sort(p["all"] @ q)
            v |= {
                "mean": float(p["mean"] @ q),
                "km16": float(np.max(p["km16"] @ q)),
                "km64": float(np.max(p["km64"] @ q)),
                "top10": float(near[-10:].mean()),
                "top50": float(near[-50:].mean()),
            }
        for fe in FEATURES:
            for t in TEMPERATURES:
                top = max(v[fe] for v in feats.values())
                z = sum(math.exp((v[fe] - top) / t) for v in feats.values())
                for v in feats.values():
                    v[f"{fe}@{t}"] = math.exp((v[fe] - top) / t) / z
        out.append(feats)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--recs", required=True)
    ap.add_argument("--work", default="/work/eval/work-ws")
    args = ap.parse_args()
    recs = pickle.loads(Path(args.recs).read_bytes())
    feats = dense_features(recs, Path(args.work))
    _r, dv = wb._deveval()
    own = [float(dv.metrics(rec["q"], rec["own"])["file_MRR"]) for rec in recs]

    def row(name: str, score: rr.Score, keep: float = 0.5, cap: int = 3) -> None:
        per: dict[str, list[float]] = defaultdict(list)
        hit: dict[str, int] = defaultdict(int)
        for rec, f, o in zip(recs, feats, own, strict=True):
            kind = rec["q"]["kind"]
            per[kind].append(rr.replay(rec, f, score, keep=keep, cap=cap, prior=0.0) - o)
            hit[kind] += max(f, key=lambda r: score(f[r])) == rec["q"]["corpus"]
        acc = " / ".join(f"{hit[k] / len(per[k]):.2f}" for k in wb.KINDS)
        cells = " | ".join(f"{sum(per[k]) / len(per[k]):+.3f}" for k in wb.KINDS)
        print(f"| {name} | {acc} | {cells} | {sum(map(sum, per.values())) / len(recs):+.3f} |", flush=True)

    print("| rule | acc@1 " + " / ".join(wb.KINDS) + " | " + " | ".join(wb.KINDS) + " | ALL |")
    print("|---|---|" + "---|" * (len(wb.KINDS) + 1))
    row("confidence (default)", lambda v: v["conf"])
    for fe in FEATURES:
        row(f"{fe} alone", lambda v, fe=fe: v[fe], keep=1.0, cap=1)
    for fe in FEATURES:
        for t in TEMPERATURES:
            for w in WEIGHTS:
                row(
                    f"(confidence + {w} x {fe} share at T {t}) / {1 + w}",
                    lambda v, fe=fe, t=t, w=w: (v["conf"] + w * v[f"{fe}@{t}"]) / (1 + w),
                )


if __name__ == "__main__":
    main()
