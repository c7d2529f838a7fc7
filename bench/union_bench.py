"""What a workspace loses to own-repository search, next to what one index over all five repositories
loses: is the gap the merge's, or the cost of searching more code?

Owns: one index over the union of the five dev-set snapshots (each in a folder named after its
corpus, hard-linked from the workspace bench's trees; the `+nodoc` copies form a second union), and
per query kind file MRR@10 of each dev-set query searched in its own repository's index alone
(**own**), in the five-index workspace (**workspace**, the default merge) and in the union index
(**union**). A workspace or union hit counts only when it lies in the query's own repository, as in
`workspace_bench.py`, whose indexes and trees this reuses.

    python bench/union_bench.py --from-git /work/.mirror --work /work/eval/work-ws [--embed onnx]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workspace_bench import DEVEVAL, KINDS, _deveval, _mean, _row, prepare


def union_tree(work: Path, trees: dict[str, Path], corpus_of: dict[str, str], nodoc: bool) -> Path:
    """A folder holding each snapshot's tree as `<corpus>/`, hard-linked (no copy of the files)."""
    root = work / "union" / ("nodoc" if nodoc else "plain")
    for sid, tree in sorted(trees.items()):
        if sid.endswith("+nodoc") != nodoc:
            continue
        into = root / corpus_of[sid]
        if into.exists():
            continue
        into.parent.mkdir(parents=True, exist_ok=True)
        part = into.with_name(into.name + ".part")
        subprocess.run(["cp", "-al", str(tree), str(part)], check=True)
        part.rename(into)
    return root


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default="/work/eval/work-ws")
    ap.add_argument("--from-git", action="append", default=[])
    ap.add_argument("--embed", default="none", help="none (lexical) or onnx (hybrid, the default mode)")
    args = ap.parse_args()

    dv_run, dv_score = _deveval()
    from indexlib import BuildOptions, Engine, SearchRequest, build_index
    from indexlib.workspace.config import Member
    from indexlib.workspace.federate import Federation

    queries = dv_run.load_all_queries(str(DEVEVAL / "queries"))
    work = Path(args.work)
    idx = prepare(work, args.from_git, queries, args.embed)
    corpus_of = {q["snapshot"]: q["corpus"] for q in queries}
    trees = {sid: work / "trees" / sid for sid in idx}
    unions: dict[bool, Engine] = {}
    feds: dict[bool, Federation] = {}
    for nodoc in (False, True):
        root = union_tree(work, trees, corpus_of, nodoc)
        at = work / ("union-idx" if args.embed == "none" else f"union-idx-{args.embed}") / root.name
        t0 = time.perf_counter()
        build_index(root, BuildOptions(index_dir=at, embed=args.embed, git_times=False))
        print(f"union index {root.name}: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        unions[nodoc] = Engine(at)
        members = [Member(corpus_of[s], p) for s, p in sorted(idx.items()) if s.endswith("+nodoc") == nodoc]
        feds[nodoc] = Federation("deveval", members)
    own = {sid: Engine(p) for sid, p in idx.items()}
    opts = SearchRequest(top_k=10, graph=False)
    rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for q in queries:
        nodoc, corpus = q["snapshot"].endswith("+nodoc"), q["corpus"]
        got: dict[str, list[dict[str, Any]]] = {}
        got["own"] = [
            _row(h.path, h, corpus, corpus) for h in own[q["snapshot"]].search(q["query"], opts).results
        ]
        ws = feds[nodoc].search(q["query"], opts)
        got["workspace"] = [_row(h.path, h, h.repo, corpus) for h in ws.results]
        union = unions[nodoc].search(q["query"], opts).results
        got["union"] = [
            _row(h.path.split("/", 1)[1], h, h.path.split("/", 1)[0], corpus) for h in union if "/" in h.path
        ]
        for name, results in got.items():
            rows[name][q["kind"]].append(dv_score.metrics(q, results)["file_MRR"])
    print("| kind | n | own | workspace | union index |")
    print("|---|---|---|---|---|")
    for kind in (*KINDS, "ALL"):
        cells = [
            _mean([m for k, v in rows[nm].items() if kind in ("ALL", k) for m in v])
            for nm in ("own", "workspace", "union")
        ]
        n = sum(len(v) for k, v in rows["own"].items() if kind in ("ALL", k))
        print(
            f"| {kind} | {n} | {cells[0]:.3f} | {cells[1]:.3f} ({cells[1] - cells[0]:+.3f}) | {cells[2]:.3f} ({cells[2] - cells[0]:+.3f}) |"
        )


if __name__ == "__main__":
    main()
