"""Count what redaction replaces in real trees that hold no secrets: each hit is a false positive
(or a test fixture's fake key), per rule, with examples. The five dev-set trees are the default.

    python bench/redact_fp.py [TREE ...]        # default: /work/eval/work0/trees/*@* (not +nodoc)
"""

from __future__ import annotations

import glob
import sys
import time
from collections import Counter
from pathlib import Path

from indexlib.index import redact as redact_mod
from indexlib.index.discover import SourceFile, discover


def scan(tree: Path) -> tuple[int, int, Counter[str], list[str], float]:
    """(files, bytes, hits per rule, examples, seconds in redaction) for one tree."""
    hits: Counter[str] = Counter()
    examples: list[str] = []
    files = size = 0
    spent = 0.0
    for item in discover(tree):
        if not isinstance(item, SourceFile) or item.data is None:
            continue
        files += 1
        size += len(item.data)
        text = item.data.decode("utf-8", "replace")
        t0 = time.perf_counter()
        redact_mod.redact(text)
        spent += time.perf_counter() - t0
        folded = redact_mod._fold(text)
        for rule in redact_mod._RULES:
            for start, end in redact_mod._find(rule, text, folded if rule.folded else text):
                hits[rule.name] += 1
                line = text.count("\n", 0, start) + 1
                examples.append(f"{rule.name}: {item.path}:{line}: {text[max(0, start - 30) : end + 5]!r}")
    return files, size, hits, examples, spent


def main(argv: list[str]) -> None:
    trees = [Path(a) for a in argv] or [
        Path(p)
        for p in sorted(glob.glob("/work/eval/work0/trees/*@*"))
        if "+" not in p and "." not in Path(p).name.split("@")[1]
    ]
    total: Counter[str] = Counter()
    for tree in trees:
        files, size, hits, examples, spent = scan(tree)
        total.update(hits)
        print(f"{tree.name}: {files} files, {size / 1e6:.1f} MB, redact {spent:.2f} s, hits {dict(hits)}")
        for ex in examples:
            print("   ", ex[:200])
    print("total", dict(total))


if __name__ == "__main__":
    main(sys.argv[1:])
