"""Dev-set quality of embedding choices: token limit and embedding text, side by side on the same trees.

Not a test. For each variant it builds a fresh index (in this process, the real ONNX model) of every
deveval snapshot copy under `WORK/trees` that `--corpora` selects, then runs that corpus's queries
through the library's search (as `qry search --top-k 10 --json` does, without a process per query) and
writes `OUT_DIR/speed-<variant>.jsonl` (+ `.index.jsonl` with build seconds), to be scored with the
dev set's own `score.py --compare`.

  python bench/embed_quality.py WORK --corpora task,jsoup [--variants today,t128,words] [--out-dir D]

Variants: `today` is the old default (256 tokens, raw source after name words); `t128` the same text
at 128 tokens; `words` the current `embedding_text` (qualified name words, doc, the body as words) at
128 tokens. WORK/trees must hold the snapshot trees as deveval's run.py extracts them
(`<snapshot>` and `<snapshot>+nodoc`).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import indexlib
import indexlib.engines.embed as embed
import indexlib.index.embedtext as embedtext
from indexlib.analyzer import split_identifier
from indexlib.index.build import BuildOptions, build_index
from indexlib.retrieval.search import SearchOptions

DEVEVAL = Path("/work/shared/deveval")


def legacy_text(
    name: str, qualified_name: str, signature: str, doc: str, text: str, *, max_chars: int = 1500
) -> str:
    """The embedding text before this change: name words, qualified words, signature and doc when the
    body does not hold them, then the raw source."""
    name_words = " ".join(split_identifier(name))
    qual_words = " ".join(split_identifier(qualified_name))
    parts = [name_words] if name_words else []
    if qual_words and qual_words != name_words:
        parts.append(qual_words)
    body = text.strip()
    if signature.strip() and signature.strip() not in body:
        parts.append(signature.strip())
    if doc.strip() and doc.strip() not in body:
        parts.append(doc.strip())
    if body:
        parts.append(body)
    return "\n".join(parts)[:max_chars]


VARIANTS: dict[str, tuple[int, Callable[..., str]]] = {
    "today": (256, legacy_text),
    "t128": (128, legacy_text),
    "words": (128, embedtext.embedding_text),
}


def _patch(max_length: int, text_fn: Callable[..., str]) -> None:
    """Make the build embed at `max_length` with `text_fn` (both are looked up at call time)."""
    base = embed.OnnxEmbedder

    class Patched(base):  # type: ignore[misc, valid-type]
        def __init__(self, spec: Any, **kw: Any) -> None:
            kw.setdefault("max_length", max_length)
            super().__init__(spec, **kw)

    embed.OnnxEmbedder = Patched  # type: ignore[misc]
    # The build keys its caches by `onnx_cache_id` before any model loads: it must name this limit.
    original_id = getattr(embed, "_ORIGINAL_ID", embed.onnx_cache_id)
    embed._ORIGINAL_ID = original_id  # type: ignore[attr-defined]
    embed.onnx_cache_id = lambda spec, _n=max_length: original_id(spec, _n)
    embedtext.embedding_text = text_fn
    embed._ORIGINAL = base  # type: ignore[attr-defined]


def _unpatch() -> None:
    embed.onnx_cache_id = getattr(embed, "_ORIGINAL_ID", embed.onnx_cache_id)
    embed.OnnxEmbedder = getattr(embed, "_ORIGINAL", embed.OnnxEmbedder)  # type: ignore[misc]
    embedtext.embedding_text = VARIANTS["words"][1]


def _queries(corpora: set[str]) -> list[dict[str, Any]]:
    out = []
    for name in ("fix", "symbol", "concept"):
        for line in (DEVEVAL / "queries" / f"{name}.jsonl").read_text().splitlines():
            rec = json.loads(line)
            if rec["corpus"] in corpora:
                out.append(rec)
    return out


def run_variant(work: Path, variant: str, corpora: set[str], out_dir: Path) -> None:
    max_length, text_fn = VARIANTS[variant]
    queries = _queries(corpora)
    sids = sorted({q["snapshot"] for q in queries})
    _patch(max_length, text_fn)
    index_log = []
    try:
        for sid in sids:
            dest = work / "variants" / variant / sid
            if dest.exists():
                shutil.rmtree(dest)
            shutil.copytree(work / "trees" / sid, dest, symlinks=True)
            t0 = time.perf_counter()
            rep = build_index(dest, BuildOptions(embed="onnx", git_times=False))
            seconds = time.perf_counter() - t0
            index_log.append(
                {
                    "snapshot": sid,
                    "tool": f"speed-{variant}",
                    "index_s": round(seconds, 2),
                    "embed_s": round(rep.timings.get("embed", 0.0), 2),
                    "nodes": rep.nodes_total,
                    "embedded": rep.embedded,
                }
            )
            print(
                f"{variant} {sid}: {rep.nodes_total} nodes, {rep.embedded} embedded in {seconds:.1f} s",
                flush=True,
            )
    finally:
        _unpatch()
    out = out_dir / f"speed-{variant}.jsonl"
    engines: dict[str, Any] = {}
    with out.open("w") as fh:
        for q in queries:
            sid = q["snapshot"]
            if sid not in engines:
                engines[sid] = indexlib.open_engine(work / "variants" / variant / sid / ".qry")
            t0 = time.perf_counter()
            res = engines[sid].search(q["query"], SearchOptions(top_k=10))
            hits = [
                {"path": h.path, "start_line": h.start_line, "end_line": h.end_line, "symbol": h.symbol}
                for h in res.results
            ]
            rec = {"id": q["id"], "tool": out.stem, "snapshot": sid, "results": hits}
            fh.write(json.dumps(rec | {"latency_s": time.perf_counter() - t0}) + "\n")
    out.with_suffix(".index.jsonl").write_text("".join(json.dumps(r) + "\n" for r in index_log))
    print(f"wrote {out}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("work", type=Path)
    ap.add_argument("--corpora", default="task")
    ap.add_argument("--variants", default="today,t128,words")
    ap.add_argument("--out-dir", type=Path, default=Path("/work/eval/runs"))
    args = ap.parse_args()
    os.environ.setdefault("XDG_CACHE_HOME", str(args.work / "xdg"))
    for variant in args.variants.split(","):
        if variant not in VARIANTS:
            sys.exit(f"unknown variant {variant!r}: choose from {', '.join(VARIANTS)}")
        run_variant(args.work, variant, set(args.corpora.split(",")), args.out_dir)


if __name__ == "__main__":
    main()
