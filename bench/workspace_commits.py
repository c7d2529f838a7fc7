"""Workspace search on commit titles of repositories outside the dev set: a check of a merge change.

Owns: indexing several repositories at a snapshot each (`commit_queries.extract`; lexically, or with
`--embed onnx` with vectors), mining each one's commit-title queries after its snapshot
(`commit_queries.mine`, as the dev set mines `fix`), and scoring every query in its own
repository's index alone, in the workspace of all of them (`Federation.search`, the default merge),
with `--route` (the router's content evidence from a search in the routed search's mode, the
default, or from a lexical one), and with the same per-index answers merged without the length-norm
correction (`collection.length_scales`) and/or with other indexes' ranks read off the hits they
returned instead of their stream scores, so the rows differ only in those parts.
A workspace hit counts only when it is from the query's repository. Prints file MRR@10 per
repository and overall.

Why: the dev set's five repositories are where the merge was measured; a merge rule that only wins
there would lose on a workspace it has not seen.

    python bench/workspace_commits.py --work /work/eval/wscommits \\
        --repo tokio=/work/.mirror/tokio-rs+tokio/repo@0922aa2a0b09cf35582f15c799996c64e0b6e50a \\
        --repo vite=/work/.mirror/vitejs+vite/repo@a3d89187 \\
        --repo bubbletea=/work/.mirror/charmbracelet+bubbletea/repo@HEAD~300 \\
        --repo flask=/work/.mirror/pallets+flask/repo@HEAD~150 [--embed onnx]
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import commit_queries as cq
import msgspec

# (name, BM25 at the workspace's mean length, other indexes' ranks from their stream scores); the
# first is the default merge (assemble), the others replay the same answers without a part of it.
VARIANTS = (
    ("workspace", True, True),
    ("workspace, no length norm", False, True),
    ("workspace, ranks read off the returned hits", True, False),
    ("workspace, neither", False, False),
)
# --route, by the mode of the search whose best hits vote for the repositories: the routed search's
# own (the default) or always lexical (the router before it followed the search's mode).
ROUTES = (("--route", None), ("--route, lexical content evidence", "lexical"))


def file_mrr(paths: list[str], gold: list[str]) -> float:
    """MRR@10 over the hits' distinct files (another repository's hit is a file that is never gold)."""
    rank = cq.file_rank(paths, gold)
    return 1.0 / rank if rank is not None and rank <= 10 else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--repo", action="append", required=True, metavar="NAME=GITDIR@COMMIT")
    ap.add_argument("--limit", type=int, default=200, help="queries per repository at most")
    ap.add_argument(
        "--embed", default="none", help="none (lexical indexes) or onnx (the default hybrid mode)"
    )
    args = ap.parse_args()
    from indexlib import SearchRequest, open_engine
    from indexlib.workspace.collection import length_scales
    from indexlib.workspace.config import Member
    from indexlib.workspace.federate import (
        Federation,
        assemble,
        merge_hits,
    )
    from indexlib.workspace.routing import choose

    members: list[Member] = []
    queries: list[tuple[str, dict[str, Any]]] = []
    for spec in args.repo:
        name, _, where = spec.partition("=")
        git_dir, _, rev = where.rpartition("@")
        snapshot = cq.git(Path(git_dir), "rev-parse", rev).strip()
        tree = args.work / name
        cq.extract(Path(git_dir), snapshot, tree, args.embed)
        members.append(Member(name, tree / ".qry"))
        mined = cq.mine(Path(git_dir), snapshot, args.limit)
        queries += [(name, q) for q in mined]
        print(f"{name}: {len(mined)} queries after {snapshot[:12]}", file=sys.stderr)
    fed = Federation("commits", members)
    opts = SearchRequest(top_k=10, graph=False)
    mrr: dict[tuple[str, str], list[float]] = defaultdict(list)
    for name, q in queries:
        text, gold = q["query"], q["gold"]
        own = open_engine(args.work / name / ".qry").search(text, opts)
        mrr[("own", name)].append(file_mrr([h.path for h in own.results], gold))
        answers = fed.ask(text, opts, fed.members)
        lists = [(a.repo, hits) for a, hits in answers if a.ok]
        scales = length_scales({a.repo: (a.docs, a.content_length) for a, _h in answers if a.ok})
        scores = {a.repo: a.stream_scores for a, _h in answers if a.ok and isinstance(a.stream_scores, dict)}
        merged = assemble("commits", text, answers, opts).results
        mrr[("workspace", name)].append(
            file_mrr([h.path if h.repo == name else f"\0{h.repo}/{h.path}" for h in merged], gold)
        )
        for variant, probe in ROUTES:
            # --route with the router's content evidence from a search in `probe`'s mode (None: the
            # search's own, the default); the routed search itself is always the default one.
            chosen = choose(fed, text, msgspec.structs.replace(opts, mode=probe) if probe else opts)[0]
            routed = fed.search(text, opts, only=chosen or None).results
            mrr[(variant, name)].append(
                file_mrr([h.path if h.repo == name else f"\0{h.repo}/{h.path}" for h in routed], gold)
            )
        for variant, scale, exact in VARIANTS[1:]:
            plain = merge_hits(
                lists,
                k=opts.rrf_k,
                bm25_scale=scales if scale else None,
                stream_scores=scores if exact else None,
                stream_weights={a.repo: a.weights for a, _h in answers if a.ok},
            )[:10]
            mrr[(variant, name)].append(
                file_mrr([h.path if h.repo == name else f"\0{h.repo}/{h.path}" for h in plain], gold)
            )
    names = [m.name for m in fed.members]
    print("| search | " + " | ".join(f"{n} ({len(mrr[('own', n)])})" for n in names) + " | all |")
    print("|---|" + "---:|" * (len(names) + 1))
    for variant in ("own", *(v for v, _s, _e in VARIANTS), *(v for v, _p in ROUTES)):
        cells = [sum(mrr[(variant, n)]) / max(len(mrr[(variant, n)]), 1) for n in names]
        every = [v for n in names for v in mrr[(variant, n)]]
        print(
            f"| {variant} | " + " | ".join(f"{c:.3f}" for c in cells) + f" | {sum(every) / len(every):.3f} |"
        )


if __name__ == "__main__":
    main()
