"""Identifier queries for names no definition has: do the nodes spelling the name come first?

Owns: a measurement for the `mention` signal and the similarity-weighted near spellings of the
symbol stream. From an indexed tree it samples multi-word names written in code (`max_connections`,
`maxConnections`: a parameter, an attribute, a key) that no definition of the index is named, searches
each as a user would (`qry search NAME`, default options, in process), and reports the share of
queries whose first hit, and whose first three, spell the name whole (its joined, lower-cased form
among the node's code terms), with how often a near spelling of the symbol stream came first.

The sample is every such name of at least two parts seen at least `--min-uses` times, in a fixed
order (sorted, then every k-th), so two runs over the same tree ask the same names. Run it from two
checkouts to compare (the numbers go to docs/benchmarks.md):

    python bench/name_mentions.py --tree /tmp/flask --index-dir /tmp/flask/.qry --limit 150
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from indexlib import SearchOptions, open_engine
from indexlib.analyzer import code_terms, split_identifier

_NAME = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[a-z]+(?:[A-Z][a-z0-9]+)+\b")
_CODE = {".py", ".go", ".rs", ".ts", ".js", ".java", ".rb", ".c", ".h", ".cpp"}


def sample(tree: Path, engine: object, min_uses: int, limit: int) -> list[str]:
    """Multi-part names used at least `min_uses` times in code files and defined nowhere."""
    seen: Counter[str] = Counter()
    for path in sorted(tree.rglob("*")):
        if path.suffix in _CODE and ".qry" not in path.parts and path.is_file():
            seen.update(_NAME.findall(path.read_text(encoding="utf-8", errors="replace")))
    snap = engine.snapshot()  # type: ignore[attr-defined]
    names = []
    for name, n in sorted(seen.items()):
        if n < min_uses or len(split_identifier(name)) < 2 or name.isupper():
            continue
        if snap.lookup("name_exact", name.lower(), limit=1):
            continue  # a definition has it: the definition signal's case, not this one
        names.append(name)
    step = max(1, len(names) // limit)
    return names[::step][:limit]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", type=Path, required=True)
    ap.add_argument("--index-dir", type=Path, required=True)
    ap.add_argument("--min-uses", type=int, default=3)
    ap.add_argument("--limit", type=int, default=150)
    args = ap.parse_args()
    engine = open_engine(args.index_dir)
    names = sample(args.tree, engine, args.min_uses, args.limit)
    first = top3 = near_first = 0
    for name in names:
        joined = "".join(split_identifier(name)).lower()
        res = engine.search(name, SearchOptions(top_k=3))
        spells = []
        for h in res.results:
            stored = engine.snapshot().node(int(h.uid, 16))
            text = (
                ""
                if stored is None
                else f"{stored.node.qualified_name} {stored.node.doc}\n{stored.node.text}"
            )
            spells.append(joined in code_terms(text))
        first += bool(spells and spells[0])
        top3 += any(spells)
        lead = res.results[0].provenance if res.results else None
        near_first += bool(
            lead and lead.symbol_score is not None and lead.symbol_score < 1.0 and not spells[0]
        )
    n = len(names) or 1
    print(
        f"names {len(names)}  first hit spells it {first / n:.3f}  one of the first 3 {top3 / n:.3f}  "
        f"a near spelling first (not spelling it) {near_first / n:.3f}"
    )


if __name__ == "__main__":
    main()
