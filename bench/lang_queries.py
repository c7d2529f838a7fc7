"""Kotlin/Swift retrieval check: commit-title and symbol-name queries over one repository's snapshot.

Owns: the before/after numbers of Kotlin and Swift parsing (before it, `.kt` and `.swift` files
are indexed as plain text: chunks of up to a whole file). For one git mirror and snapshot it mines
two query kinds, indexes the snapshot in process (`commit_queries.extract`: lexical, no git
times), and prints a markdown table (kind, n, file MRR@10, file R@10, line hits for `symbol`);
each query's result goes to `--out` as JSONL.

- `commit`: first-parent non-merge commits after the snapshot whose title is not a release or
  version bump, a merge, typo/format/lint/docs work or shorter than 3 words, and which modify 1-3
  existing non-test Kotlin/Swift/Java files and no other source file; query = the title without
  `(#123)`, gold = those files. Unlike `commit_queries.mine` no conventional-commit prefix is needed.
- `symbol`: names defined once in the snapshot's Kotlin/Swift/Java files (`fun|class|func|struct|
  protocol|object|interface|enum|function|def|trait NAME`, a plain regex), the definition in a non-test Kotlin or
  Swift file (`--family components`: names of Vue and Svelte components' functions, against TS/JS too), a seeded sample of up to `--symbols`; query = the bare name, gold = its file. Line
  hit: the top hit is in that file and its [start_line, end_line] holds the definition line. A
  whole-file chunk (how plain text is indexed) always does, so two stricter columns: `start±3`,
  its start_line within 3 lines of the definition; `shown±3`, its `line` (the `path:line:` the
  piped output shows) within 3 lines of it.

The qry that runs is the first `indexlib` on sys.path: put a frozen checkout first for BEFORE.

    XDG_CACHE_HOME=/tmp/langbench/cache PYTHONPATH=/tmp/qry-base python bench/lang_queries.py \\
        --git /tmp/langbench/git/square+moshi/.git --snapshot 489b178a9bc3 \\
        --work /tmp/langbench/before/moshi --out /tmp/langbench/before/moshi.jsonl

A rerun after a parsing change needs a fresh `--work` (an existing WORK/tree/.qry is reused).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.append(str(HERE.parent))  # after PYTHONPATH, so a frozen checkout there is the one measured

from commit_queries import SOURCE, commits_after, extract, file_rank, git  # noqa: E402

# --family: (extensions whose files are gold and whose names count for uniqueness, extensions whose
# definitions are sampled). `components`: Vue and Svelte components beside their TS/JS modules.
FAMILIES = {
    "kotlin": ("kt|kts|java", "kt|kts"),
    "swift": ("swift", "swift"),
    "scala": ("scala|java", "scala"),
    "components": ("vue|svelte|ts|tsx|js|mjs", "vue|svelte"),
}
LANG = re.compile(r"\.(kt|kts|swift|java)$")
DEFINING = re.compile(r"\.(kt|swift)$")
TESTISH = re.compile(
    r"(^|/)(tests?|__tests__|testdata|benches|benchmarks?|examples?|samples?|playground|docs?"
    r"|documentation|fixtures?|test-?fixtures)/|[._-](test|spec)s?\.|(Tests?|Spec)\.(kt|swift|java)$",
    re.IGNORECASE,
)
SKIPPED_TITLE = re.compile(
    r"^(merge|revert|release|prepare|bump|\[maven-release-plugin\]|next development)\b"
    r"|^update (dependency|plugin|kotlin|gradle|.*\bto v?\d)|\bv?\d+\.\d+(\.\d+)?\b.*\brelease\b"
    r"|\btypos?\b|\bformat(ting)?\b|\blint\b|ktlint|ktfmt|spotless|swiftlint|swift-format|swiftformat"
    r"|\bdocs?\b|\bdocumentation\b|\breadme\b|\bchangelog\b|\bkdoc\b|\bjavadoc\b",
    re.IGNORECASE,
)
DEFINITION = re.compile(
    r"^\s*(?:[@\w]+(?:\([^)]*\))?\s+)*?(?:fun|class|func|struct|protocol|object|interface|enum|function|def|trait)\s+"
    r"(?:<[^>]*>\s*)?(?:[\w.]+\.)?`?([A-Za-z_]\w*)"
)
# A Java method with at least one modifier: counted for uniqueness only (a Kotlin `create` is no
# unique name when Java files define `create(` too).
JAVA_METHOD = re.compile(
    r"^\s*(?:@\w+\s+)*(?:(?:public|protected|private|static|final|abstract|synchronized|native|default)\s+)+"
    r"(?:<[^>]*>\s*)?[\w.<>\[\]?]+\s+([A-Za-z_]\w*)\s*\("
)
KEYWORDS = {"fun", "class", "func", "struct", "protocol", "object", "interface", "enum", "function", "def"}
KEYWORDS |= {"var", "val", "let", "init", "case", "static", "final"}


def title_query(title: str) -> str | None:
    """The query of a commit title, or None for one this kind leaves out.

    >>> title_query("Fix nullable properties (#992)"), title_query("Prepare 5.8.0 (#3768)")
    ('Fix nullable properties', None)
    """
    query = re.sub(r"\s*\((?:fixes |closes )?#\d+\)", "", title).strip()
    if SKIPPED_TITLE.search(query) or len(query.split()) < 3:
        return None
    return query


def mine_commits(git_dir: Path, snapshot: str, limit: int) -> list[dict[str, Any]]:
    """The `commit` queries after `snapshot`, oldest first, at most `limit`."""
    present = set(git(git_dir, "ls-tree", "-r", "--name-only", snapshot).splitlines())
    out: list[dict[str, Any]] = []
    for commit, query, rows in commits_after(git_dir, snapshot, title_query, merges=False):
        source = [
            r[-1] for r in rows if (SOURCE.search(r[-1]) or LANG.search(r[-1])) and not TESTISH.search(r[-1])
        ]
        gold = [
            r[1] for r in rows if r[0] == "M" and LANG.search(r[1]) and r[1] in present and r[1] in source
        ]
        if 1 <= len(gold) <= 3 and len(gold) == len(source):
            out.append({"kind": "commit", "query": query, "gold": gold, "commit": commit[:12]})
            if len(out) >= limit:
                break
    return out


def mine_symbols(tree: Path, count: int, seed: int) -> list[dict[str, Any]]:
    """A seeded sample of the `symbol` queries of the extracted snapshot at `tree`."""
    defs: dict[str, list[tuple[str, int]]] = {}
    for path in sorted(tree.rglob("*")):
        rel = path.relative_to(tree).as_posix()
        if rel.startswith(".qry") or not LANG.search(rel) or not path.is_file():
            continue
        for number, text in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if text.lstrip().startswith(("//", "*", "/*")):
                continue
            m = DEFINITION.match(text) or (JAVA_METHOD.match(text) if rel.endswith(".java") else None)
            if m and m.group(1) not in KEYWORDS and len(m.group(1)) >= 3:
                defs.setdefault(m.group(1), []).append((rel, number))
    unique = [
        {"kind": "symbol", "query": name, "gold": [where[0][0]], "line": where[0][1]}
        for name, where in sorted(defs.items())
        if len(where) == 1 and DEFINING.search(where[0][0]) and not TESTISH.search(where[0][0])
    ]
    return random.Random(seed).sample(unique, min(count, len(unique)))


def run(engine: Any, queries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each query with its file rank, recall@10 and top hits (and, for `symbol`, its line hit)."""
    from indexlib import SearchOptions

    for q in queries:
        hits = engine.search(q["query"], SearchOptions(top_k=10)).results
        files = list(dict.fromkeys(h.path for h in hits))
        q["rank"] = file_rank(files, q["gold"])
        q["recall"] = len(set(files) & set(q["gold"])) / len(q["gold"])
        keys = ("path", "start_line", "end_line", "line", "kind", "symbol")
        q["top"] = [{k: getattr(h, k) for k in keys} for h in hits[:3]]
        if q["kind"] == "symbol":
            top = hits[0] if hits and hits[0].path == q["gold"][0] else None
            q["line_hit"] = top is not None and top.start_line <= q["line"] <= top.end_line
            q["start_hit"] = top is not None and abs(top.start_line - q["line"]) <= 3
            q["shown_hit"] = top is not None and abs(top.line - q["line"]) <= 3
    return queries


LINE_HITS = ("line_hit", "start_hit", "shown_hit")


def table(results: list[dict[str, Any]]) -> str:
    lines = [
        "| kind | n | file MRR@10 | file R@10 | line-hit@1 | start±3@1 | shown±3@1 |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for kind in ("commit", "symbol"):
        rows = [r for r in results if r["kind"] == kind]
        if not rows:
            continue
        n = len(rows)
        mrr = sum(1 / r["rank"] for r in rows if r["rank"]) / n
        recall = sum(r["recall"] for r in rows) / n
        hit = [f"{sum(r[k] for r in rows) / n:.3f}" if kind == "symbol" else "-" for k in LINE_HITS]
        lines.append(f"| {kind} | {n} | {mrr:.3f} | {recall:.3f} | {' | '.join(hit)} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--git", type=Path, required=True, help="a git mirror or clone (its git directory)")
    ap.add_argument("--snapshot", required=True, help="the commit indexed; commits after it give queries")
    ap.add_argument("--work", type=Path, required=True, help="the snapshot is indexed in WORK/tree")
    ap.add_argument("--out", type=Path, required=True, help="per-query results, JSONL")
    ap.add_argument("--embed", default="none", choices=["none"], help="lexical only (the default)")
    ap.add_argument("--limit", type=int, default=150, help="at most this many commit queries")
    ap.add_argument("--symbols", type=int, default=100, help="at most this many symbol queries")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--family", action="append", choices=sorted(FAMILIES), help="default: kotlin, swift")
    args = ap.parse_args()
    global LANG, DEFINING
    chosen = [FAMILIES[f] for f in args.family or ("kotlin", "swift")]
    LANG = re.compile(r"\.(" + "|".join(lang for lang, _ in chosen) + r")$")
    DEFINING = re.compile(r"\.(" + "|".join(defining for _, defining in chosen) + r")$")
    import indexlib
    from indexlib import open_engine

    snapshot = git(args.git, "rev-parse", args.snapshot).strip()
    if not snapshot:
        raise SystemExit(f"no commit {args.snapshot} in {args.git}")
    tree = args.work / "tree"
    reused = (tree / ".qry").exists()
    started = time.perf_counter()
    extract(args.git, snapshot, tree, embed=args.embed)
    built = time.perf_counter() - started
    queries = mine_commits(args.git, snapshot, args.limit) + mine_symbols(tree, args.symbols, args.seed)
    results = run(open_engine(tree / ".qry"), queries)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w") as fh:
        fh.writelines(json.dumps(r) + "\n" for r in results)
    where = Path(indexlib.__file__).resolve().parent.parent
    index = "reused" if reused else f"built in {built:.1f}s (extract + in-process build)"
    print(f"{args.git} @ {snapshot[:12]}; qry from {where}; index {index}\n")
    print(table(results))


if __name__ == "__main__":
    main()
