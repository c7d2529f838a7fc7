"""Re-check the hand-judged edge sample (bench/edges_sample.md) against the current resolver.

The sample was drawn and judged once, by reading the code; this script asks which of those judged edges
the resolver still produces. It cannot judge edges the resolver newly produces (draw a new sample with
`python bench/graph_bench.py draft` for that), so it measures what a resolver change fixed and broke.

    python bench/edges_recheck.py            # the first sample (bench/edges_sample.md)
    python bench/edges_recheck.py --second   # the second sample (bench/edges_sample_2.md)
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import graph_bench as gb

from indexlib import BuildOptions, build_index
from indexlib.graph.view import SnapshotGraph

CORPORA = ("stdlib-ejh", "qry-self")


def main() -> None:
    sample = gb.SAMPLE_FILE_2 if "--second" in sys.argv[1:] else gb.SAMPLE_FILE
    edges, _sites = gb.read_verdicts(sample)
    gb.prepare()  # corpora pinned and fetched once (idempotent)
    for name in CORPORA:
        build_index(gb.corpus_dir(name), BuildOptions(index_dir=gb.index_dir(name), embed="none", rebuild=True))
    views = {name: SnapshotGraph(gb.open_engine(name).snapshot()) for name in CORPORA}
    kept: Counter[str] = Counter()
    gone: Counter[str] = Counter()
    lost: list[str] = []
    for key, (verdict, note) in edges.items():
        corpus, src, line, dst = key.split("/")
        out = views[corpus].edges(int(src, 16), ["calls"], "out")
        present = any(e.line == int(line) and e.dst == int(dst, 16) for e in out)
        (kept if present else gone)[verdict] += 1
        if not present and verdict == "correct":
            lost.append(f"{key}: {note}")
        if present and verdict in ("wrong", "ambiguous-wrong"):
            lost.append(f"still wrong: {key}: {note}")
    print("| verdict (as judged) | still produced | no longer produced |")
    print("|---|---:|---:|")
    for v in ("correct", "ambiguous-includes-right", "wrong", "ambiguous-wrong"):
        print(f"| {v} | {kept[v]} | {gone[v]} |")
    for line in lost:
        print(line if line.startswith("still wrong") else f"lost a correct edge: {line}")


if __name__ == "__main__":
    main()
