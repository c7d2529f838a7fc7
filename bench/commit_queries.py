"""Commit-title queries from any repository's history: a check of a ranking change outside the dev set.

Owns: mining bug-localisation queries from a git mirror the way the dev set's `fix` kind is made
(first-parent commits after a snapshot with a conventional-commit title, `fix:`, `feat(x):`, `perf:` or a
scope such as `time:`, that is not a chore, docs, CI or refactor, and which
modify 1-3 existing non-test source files; the title without `(#123)`, `fix(scope): x` read as
`scope: x`; gold = those files), indexing the snapshot lexically, and printing file MRR@10 and R@10
(deveval's definitions: each file counted once, at its best hit) for the default signals and for each
`--set FIELD=VALUE` variant of them, in process over the same index.

Why: a ranking tuned on the dev set's five repositories must not win only there. A repository whose
history uses commit scopes differently (tokio's `time:` names a feature that lands in sibling crates;
vite's `css:` names a plugin file) is where a pattern meets its limits.

    python bench/commit_queries.py --git /work/.mirror/tokio-rs+tokio/repo \
        --snapshot 0922aa2a0b09cf35582f15c799996c64e0b6e50a --work /work/eval/tokio \
        --set scope_bm25_boost=0 --set scope_bm25_boost=0.5
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SOURCE = re.compile(r"\.(py|go|rs|ts|tsx|js|mts|java|kt|rb|c|h|cc|cpp|hpp|cs|php|swift|scala)$")
NOT_SOURCE = re.compile(
    r"(^|/)(tests?|__tests__|testdata|benches|examples?|playground|docs?|fixtures?)/|[._-](test|spec)s?\."
)
KEPT = re.compile(
    r"^(?:(?:fix|feat|perf)(?:\(([^)]*)\))?!?:\s*(.*)|([A-Za-z][\w\-./]*):\s+(.*))$", re.IGNORECASE
)
DROPPED = re.compile(
    r"^(ci|chore|docs?|deps|build|tests?|bench|release|refactor|revert|style)\b|typo|bump|clippy",
    re.IGNORECASE,
)
MAX_GOLD_FILES = 3


def git(git_dir: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], capture_output=True, text=True).stdout


def query_of(title: str) -> str | None:
    """The query a commit title gives, or None for a title of a kind the dev set leaves out.

    >>> query_of("fix(ssr): keep the stack (#123)"), query_of("time: wake DelayQueue"), query_of("chore: x")
    ('ssr: keep the stack', 'time: wake DelayQueue', None)
    """
    m = KEPT.match(title.strip())
    if m is None or DROPPED.search(title):
        return None
    scope = m.group(1) or m.group(3)
    rest = re.sub(r"\s*\((?:fixes |closes )?#\d+\)\s*$", "", m.group(2) or m.group(4) or "").strip()
    if not rest:
        return None
    return f"{scope}: {rest}" if scope else rest


def commits_after(
    git_dir: Path, snapshot: str, query_of: Callable[[str], str | None], *, merges: bool = True
) -> Iterator[tuple[str, str, list[list[str]]]]:
    """(commit, query, `--name-status` rows) of the first-parent commits after `snapshot`, oldest
    first, whose title `query_of` makes a query of (the rows are read only for those)."""
    args = ["log", "--first-parent", "--reverse", "--format=%H\t%s"] + ([] if merges else ["--no-merges"])
    for line in git(git_dir, *args, f"{snapshot}..HEAD").splitlines():
        commit, title = line.split("\t", 1)
        query = query_of(title)
        if query is not None:
            status = git(git_dir, "diff-tree", "--no-commit-id", "--name-status", "-r", f"{commit}^", commit)
            yield commit, query, [row.split("\t") for row in status.splitlines()]


def mine(git_dir: Path, snapshot: str, limit: int) -> list[dict[str, Any]]:
    """The queries of the first-parent commits after `snapshot`, oldest first, at most `limit`."""
    present = set(git(git_dir, "ls-tree", "-r", "--name-only", snapshot).splitlines())
    out: list[dict[str, Any]] = []
    for _commit, query, rows in commits_after(git_dir, snapshot, query_of):
        changed = [row[1] for row in rows if row[0] == "M"]
        gold = [f for f in changed if SOURCE.search(f) and not NOT_SOURCE.search(f) and f in present]
        if not 1 <= len(gold) <= MAX_GOLD_FILES or len(gold) != len(
            [f for f in changed if SOURCE.search(f) and not NOT_SOURCE.search(f)]
        ):
            continue
        out.append({"query": query, "gold": gold, "scoped": scope_of(query) != ""})
        if len(out) >= limit:
            break
    return out


def extract(git_dir: Path, snapshot: str, tree: Path, embed: str = "none") -> None:
    if (tree / ".qry").exists():
        return
    tree.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "--git-dir", str(git_dir), "archive", snapshot], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    from indexlib import BuildOptions, build_index

    build_index(tree, BuildOptions(embed=embed, git_times=False))


def file_rank(paths: list[str], gold: list[str]) -> int | None:
    """The rank (from 1) of the first gold file among the hits' distinct files, deveval's way."""
    files = list(dict.fromkeys(paths))
    return next((i + 1 for i, p in enumerate(files) if p in gold), None)


def score(engine: Any, queries: list[dict[str, Any]], signals: Any) -> tuple[float, float]:
    from indexlib import SearchOptions

    mrr = recall = 0.0
    for q in queries:
        hits = engine.search(q["query"], SearchOptions(top_k=10, signals=signals)).results
        files = list(dict.fromkeys(h.path for h in hits))
        rank = file_rank(files, q["gold"])
        mrr += 1 / rank if rank else 0.0
        recall += len(set(files) & set(q["gold"])) / len(q["gold"])
    return mrr / len(queries), recall / len(queries)


def scope_of(query: str) -> str:
    sys.path.insert(0, str(REPO))
    from indexlib.retrieval.query import scope_of as parse_scope

    return parse_scope(query)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--git", type=Path, required=True, help="a git mirror or clone (its git directory)")
    ap.add_argument("--snapshot", required=True, help="the commit to index; queries come from after it")
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="a Signals variant")
    ap.add_argument("--without", action="append", default=[], metavar="SIGNAL", help="a signal switched off")
    args = ap.parse_args()
    sys.path.insert(0, str(REPO))
    import msgspec

    from indexlib import open_engine
    from indexlib.retrieval.fusion import Signals

    queries = mine(args.git, args.snapshot, args.limit)
    if not queries:
        raise SystemExit("no commit after the snapshot gives a query")
    args.work.mkdir(parents=True, exist_ok=True)
    (args.work / "queries.json").write_text(json.dumps(queries, indent=1))
    tree = args.work / "tree"
    extract(args.git, args.snapshot, tree)
    engine = open_engine(tree / ".qry")
    scoped = sum(q["scoped"] for q in queries)
    print(f"{len(queries)} queries ({scoped} with a scope) from {args.git} after {args.snapshot[:12]}")
    print("| signals | file MRR@10 | file R@10 |\n|---|---:|---:|")
    variants: list[tuple[str, Any]] = [("default", Signals())]
    for spec in args.set:
        field, _, value = spec.partition("=")
        kind = type(getattr(Signals(), field))
        variants.append((spec, msgspec.structs.replace(Signals(), **{field: kind(value)})))
    variants += [(f"-{name}", Signals().without(name)) for name in args.without]
    for label, signals in variants:
        mrr, recall = score(engine, queries, signals)
        print(f"| {label} | {mrr:.3f} | {recall:.3f} |")


if __name__ == "__main__":
    main()
