"""`qry grep` next to `rg`: whole-process latency on the standard library and on a >= 1 GB tree, and
what the n-gram index costs (size and build time per MiB of source).

Owns: the grep benchmark. The tree is the interpreter's `lib/pythonX.Y`: the standard library plus
`site-packages` (about 1 GB on this machine). qry searches the files `qry index` indexes, so it
leaves `site-packages` (a vendored folder) and `__pycache__` out; rg is timed twice: over the whole
tree (what a developer typing `rg PATTERN` there waits for, the >= 1 GB row), and over the same
files as qry (`-g '!site-packages' -g '!__pycache__'`, the standard-library row). The index lives in
a temporary `--index-dir`, so nothing is written into the interpreter's library.

Why whole processes and hyperfine: a developer or an agent runs one grep per process, so interpreter
start and imports are part of the cost. Output goes through a pipe for both (rg takes a shortcut when
stdout is /dev/null). Rounds alternate the commands, so load on the shared machine hits all of them.

    python bench/grep_bench.py [--runs N] [--index-dir DIR] [--tree DIR]   # prints the markdown section
"""

from __future__ import annotations

import argparse
import os
import sysconfig
import tempfile
import time
from pathlib import Path

from index_bench import QRY, bench_env, hyperfine, load_avg, log, ms, ratio, run_proc, table

#: (label, pattern, flags): selective literal and regex, and patterns that match nearly everywhere.
PATTERNS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("selective literal", "raw_decode", ()),
    ("selective regex", r"def (get|set)_charset", ()),
    ("selective -w -i", "httpconnection", ("-w", "-i")),
    ("everywhere: import", "import", ()),
    ("no trigram: \\w+\\(", r"\w+\(", ("-c",)),
)
RG_SAME = ("-g", "!site-packages", "-g", "!__pycache__")
#: Zoekt's index is "about 2-3 times larger than the input data" (Sourcegraph, "Tackling the long
#: tail of tiny repos with shard merging"); it holds the content and positional trigrams. Midpoint.
ZOEKT_RATIO = 2.5


def _dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def gram_cost(index_dir: Path) -> tuple[float, float, float]:
    """(source MiB, n-gram index MiB, seconds to write it) for the segments of HEAD, in-process.

    The write is timed again here, file by file, exactly as the build does it (read, normalise,
    add to a Tantivy ngram writer), so the build time the n-gram index adds is measured on its own.
    """
    from indexlib.engines import lexical
    from indexlib.index.gramsource import gram_source
    from indexlib.index.segtables import GRAM_PATHS, GRAMS
    from indexlib.store.store import Store

    store = Store.open(index_dir)
    _rid, manifest = store.load()
    src_bytes = sum(rec.size for rec in manifest.files.values())
    index_bytes = 0
    for seg in manifest.segments:
        d = store.segment_dir(seg.id)
        index_bytes += _dir_bytes(d / GRAMS) + (d / GRAM_PATHS).stat().st_size
    source = gram_source(Path(manifest.source_root), redact=True)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        writer = lexical.GramIndexWriter(Path(tmp) / "grams")
        for path in sorted(manifest.files):
            writer.add(source(path))
        writer.close()
        seconds = time.perf_counter() - t0
    return src_bytes / 2**20, index_bytes / 2**20, seconds


def handwritten_cost(index_dir: Path) -> tuple[float, float]:
    """(MiB, seconds) of the simplest hand-written alternative, for docs/design.md's choice: per file
    the set of its trigrams (Python), one posting list per trigram of delta-varint file ordinals, and
    a sorted table of trigrams with offsets (what a reader would bisect over a memory map)."""
    from indexlib.index.gramsource import gram_source
    from indexlib.store.store import Store

    _rid, manifest = Store.open(index_dir).load()
    source = gram_source(Path(manifest.source_root), redact=True)
    t0 = time.perf_counter()
    postings: dict[str, list[int]] = {}
    for ordinal, path in enumerate(sorted(manifest.files)):
        text = source(path)
        if text is None:
            continue
        for gram in {text[i : i + 3] for i in range(len(text) - 2)}:
            postings.setdefault(gram, []).append(ordinal)
    body = bytearray()
    table = bytearray()
    for gram in sorted(postings):
        table += gram.encode("utf-8", "surrogatepass").ljust(12, b"\0") + len(body).to_bytes(4, "little")
        last = 0
        for ordinal in postings[gram]:
            delta = ordinal - last
            last = ordinal
            while delta >= 0x80:
                body.append((delta & 0x7F) | 0x80)
                delta >>= 7
            body.append(delta)
    seconds = time.perf_counter() - t0
    return (len(body) + len(table)) / 2**20, seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--index-dir", type=Path, default=None, help="reuse an index of the tree")
    ap.add_argument(
        "--tree",
        type=Path,
        default=None,
        help="the tree to grep (default: the interpreter's lib/pythonX.Y); e.g. a copy of it beside more "
        "site-packages, for a tree past 1 GB",
    )
    ap.add_argument(
        "--selective-only",
        action="store_true",
        help="time only the selective patterns (the >= 1 GB tree's target; a scan of every file there "
        "for the match-everywhere patterns takes minutes per run)",
    )
    args = ap.parse_args()
    bench_env()
    tree = args.tree.resolve() if args.tree else Path(sysconfig.get_paths()["stdlib"])
    work = Path(tempfile.mkdtemp(prefix="qry-grep-bench-"))
    index_dir = args.index_dir or work / "index"
    if not (index_dir / "HEAD").exists():
        log(f"indexing {tree} into {index_dir}")
        t0 = time.perf_counter()
        run_proc([QRY, "index", "--embed", "none", "--index-dir", str(index_dir), str(tree)])
        log(f"indexed in {time.perf_counter() - t0:.1f} s")
    run_proc([QRY, "grep", "--index-dir", str(index_dir), "-c", "warm_the_walk_cache"], cwd=tree, check=False)
    tree_mib = (
        sum(
            os.path.getsize(os.path.join(d, f))
            for d, _s, fs in os.walk(tree)
            for f in fs
            if not os.path.islink(os.path.join(d, f))
        )
        / 2**20
    )
    rows = []
    patterns = [p for p in PATTERNS if p[0].startswith("selective")] if args.selective_only else PATTERNS
    for label, pattern, flags in patterns:
        fl = " ".join(flags)
        quoted = f"'{pattern}'"
        commands = [
            ("qry", f"{QRY} grep --index-dir {index_dir} {fl} {quoted}"),
            ("qry --no-index", f"{QRY} grep --no-index {fl} {quoted}"),
            ("rg same files", f"rg -n {fl} {' '.join(RG_SAME)} {quoted}"),
            ("rg whole tree", f"rg -n {fl} {quoted}"),
        ]
        log(f"timing {label}")
        t = hyperfine(
            commands, cwd=tree, export=work / f"hf-{len(rows)}.json", runs=args.runs, warmup=1, rounds=2
        )
        q, scan, same, whole = t["qry"], t["qry --no-index"], t["rg same files"], t["rg whole tree"]
        rows.append(
            [
                label,
                f"`{pattern}` {fl}".strip(),
                ms(q.median_ms),
                ms(scan.median_ms),
                ms(same.median_ms),
                ratio(q.median_ms, same.median_ms),
                ms(whole.median_ms),
                ratio(q.median_ms, whole.median_ms),
            ]
        )
    src_mib, gram_mib, seconds = gram_cost(index_dir)
    hand_mib, hand_s = handwritten_cost(index_dir)
    print(
        f"Tree: `{tree}`, {tree_mib:,.0f} MiB on disk; qry searches {src_mib:,.1f} MiB of it "
        f"(the files `qry index` keeps). Load average {load_avg()}; hyperfine medians of {args.runs} runs "
        "in 2 alternating rounds, output to a pipe.\n"
    )
    print(
        table(
            [
                "pattern",
                "",
                "qry (index)",
                "qry --no-index",
                "rg, same files",
                "qry / rg",
                "rg, whole tree",
                "qry / rg whole",
            ],
            rows,
        )
    )
    print()
    print(
        table(
            [
                "source MiB",
                "n-gram index MiB",
                "index / source",
                "Zoekt (reference)",
                "ratio to Zoekt",
                "write s",
                "write s per MiB",
            ],
            [
                [
                    f"{src_mib:.1f}",
                    f"{gram_mib:.1f}",
                    f"{gram_mib / src_mib:.3f}",
                    "2-3x",
                    f"{gram_mib / src_mib / ZOEKT_RATIO:.3f}",
                    f"{seconds:.1f}",
                    f"{seconds / src_mib:.3f}",
                ]
            ],
        )
    )
    print()
    print(
        table(
            ["n-gram index", "MiB", "per MiB of source", "build s", "build s per MiB"],
            [
                [
                    "Tantivy ngram field (shipped)",
                    f"{gram_mib:.1f}",
                    f"{gram_mib / src_mib:.3f}",
                    f"{seconds:.1f}",
                    f"{seconds / src_mib:.3f}",
                ],
                [
                    "hand-written delta-varint postings (Python)",
                    f"{hand_mib:.1f}",
                    f"{hand_mib / src_mib:.3f}",
                    f"{hand_s:.1f}",
                    f"{hand_s / src_mib:.3f}",
                ],
            ],
        )
    )


if __name__ == "__main__":
    main()
