"""More evidence for the source router, replayed over captured workspace answers (issue 15).

Owns: replays, over the per-index answers `bench/workspace_merges.py --recs FILE` captured (one file
for lexical indexes, one for indexes with vectors; the same 900 dev-set queries in the same order),
of what `qry search --route` would search under other router evidence, and the tables that say why
none of it gets `--route` within 0.02 of own-repository search:

- **probe**: which search's best hits vote: a lexical one (the router before), the hybrid one (the
  routed search's own mode, the default now), or both votes summed;
- **margin**: the routed and the whole-workspace loss split by how close the router's second
  repository comes to its first (second / best confidence);
- **history**: a vote of the repositories' own commit subjects (first-parent, at most HISTORY
  before each snapshot, read from the --from-git mirrors; BM25 over all of them, the ten best
  vote 1/rank), added to the confidence with weight W;
- **names**: code-shaped words of the question (backticked, dotted, snake_case or camelCase) that
  name a definition in one repository only, as evidence for that one;
- **score shape**: each index's BM25 candidate scores (the answers' stream scores, at the
  workspace's mean length) as a query-performance predictor: its best, the mean of its best k, the
  gap from its best to its k-th, their spread.

A routed search keeps what `workspace/routing.py` keeps (within ROUTE_KEEP of the best, at most
ROUTE_MAX); one kept repository answers as its own index does, several are merged as
`Federation.search` merges (with the captured answers' workspace-wide idf, an approximation: the
real routed search takes the idf over the kept repositories only).

    python bench/workspace_merges.py --work DIR --from-git /work/.mirror --recs /work/eval/recs-none.pkl
    python bench/workspace_merges.py --work DIR --from-git /work/.mirror --embed onnx \\
        --recs /work/eval/recs-onnx.pkl
    python bench/route_evidence.py --lexical /work/eval/recs-none.pkl --hybrid /work/eval/recs-onnx.pkl \\
        --from-git /work/.mirror
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import re
import statistics
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import workspace_bench as wb
import workspace_merges as wm

from indexlib.retrieval.query import FUNCTION_WORDS

Conf = dict[str, float]
HISTORY = 2000  # commit subjects read per repository
_WORD = re.compile(r"[A-Za-z0-9_]+")
_PIECE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_CODE = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*")


def merged_rows(rec: dict[str, Any], only: set[str] | None = None) -> list[dict[str, Any]]:
    """The run-file rows of the captured answers merged as the workspace merges them (of `only`)."""
    from indexlib import SearchRequest
    from indexlib.workspace.collection import length_scales
    from indexlib.workspace.federate import merge_hits

    if only is not None and only == {rec["q"]["corpus"]}:
        return list(rec["own"])  # one kept repository is searched alone, as its own index answers
    ans = [(a, h) for a, h in rec["answers"] if a.ok and (only is None or a.repo in only)]
    if not ans:
        return []
    hits = merge_hits(
        [(a.repo, h) for a, h in ans],
        k=SearchRequest().rrf_k,
        bm25_scale=length_scales({a.repo: (a.docs, a.content_length) for a, _h in ans}),
        stream_scores={a.repo: a.stream_scores for a, _h in ans if isinstance(a.stream_scores, dict)},
        stream_weights={a.repo: a.weights for a, _h in ans},
    )[:10]
    return [wb._row(h.path, h, h.repo, rec["q"]["corpus"]) for h in hits]


def kept(conf: Conf) -> set[str] | None:
    from indexlib.workspace.routing import ROUTE_KEEP, ROUTE_MAX

    best = max(conf.values(), default=0.0)
    if best <= 0:
        return None  # nothing routes: the whole workspace
    order = sorted((r for r in conf if conf[r] > 0 and conf[r] >= ROUTE_KEEP * best), key=lambda r: -conf[r])
    return set(order[:ROUTE_MAX])


def vote_share(rows: list[dict[str, Any]]) -> Conf:
    from indexlib.route.content import votes

    v = votes([r["repo"] for r in rows])
    total = sum(v.values())
    return {r: x / total for r, x in v.items()} if total else {}


def mix(parts: list[tuple[float, Conf]]) -> Conf:
    total = sum(w for w, _c in parts)
    repos = {r for _w, c in parts for r in c}
    return {r: sum(w * c.get(r, 0.0) for w, c in parts) / total for r in repos}


def table(recs: list[dict[str, Any]], rules: dict[str, Callable[[dict[str, Any]], Conf]]) -> str:
    """acc@1 and the routed search's file MRR@10 minus own-repository search, per kind, per rule."""
    _r, dv_score = wb._deveval()
    out = ["| router evidence | acc@1 fix / nodoc / ALL | fix | symbol | concept | concept-nodoc | ALL |"]
    out.append("|---|---|---|---|---|---|---|")
    own = {id(r): dv_score.metrics(r["q"], r["own"])["file_MRR"] for r in recs}
    for name, rule in rules.items():
        loss: dict[str, list[float]] = defaultdict(list)
        acc: dict[str, list[bool]] = defaultdict(list)
        for rec in recs:
            conf = rule(rec)
            k = rec["q"]["kind"]
            acc[k].append(bool(conf) and max(conf, key=lambda r: conf[r]) == rec["q"]["corpus"])
            got = dv_score.metrics(rec["q"], merged_rows(rec, kept(conf)))["file_MRR"]
            loss[k].append(got - own[id(rec)])
        every = [x for v in loss.values() for x in v]
        hit = [x for v in acc.values() for x in v]
        a = f"{_mean(acc['fix']):.3f} / {_mean(acc['concept-nodoc']):.3f} / {_mean(hit):.3f}"
        cells = [f"{_mean(loss[k]):+.3f}" for k in wb.KINDS] + [f"{_mean(every):+.3f}"]
        out.append(f"| {name} | {a} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def margins(recs: list[dict[str, Any]], conf_of: Callable[[dict[str, Any]], Conf]) -> str:
    _r, dv_score = wb._deveval()
    out = ["| kind | second / best | queries | acc@1 | own | workspace loss | --route loss | share of kind |"]
    out.append("|---|---|---:|---:|---:|---:|---:|---:|")
    cuts = ((0.0, 0.2), (0.2, 0.5), (0.5, 0.8), (0.8, 1.01))
    for kind in ("fix", "concept-nodoc"):
        mine = [r for r in recs if r["q"]["kind"] == kind]
        for lo, hi in cuts:
            rows = []
            for rec in mine:
                c = conf_of(rec)
                top = [*sorted(c.values(), reverse=True), 0.0, 0.0]
                if not lo <= (top[1] / top[0] if top[0] else 1.0) < hi:
                    continue
                o = dv_score.metrics(rec["q"], rec["own"])["file_MRR"]
                w = dv_score.metrics(rec["q"], merged_rows(rec))["file_MRR"]
                rt = dv_score.metrics(rec["q"], merged_rows(rec, kept(c)))["file_MRR"]
                rows.append((max(c, key=lambda r: c[r]) == rec["q"]["corpus"], o, w - o, rt - o))
            if rows:
                out.append(
                    f"| {kind} | {lo:.1f}-{min(hi, 1.0):.1f} | {len(rows)} | {_mean([x[0] for x in rows]):.2f} |"
                    f" {_mean([x[1] for x in rows]):.3f} | {_mean([x[2] for x in rows]):+.3f} |"
                    f" {_mean([x[3] for x in rows]):+.3f} | {sum(x[3] for x in rows) / len(mine):+.3f} |"
                )
    return "\n".join(out)


class History:
    """BM25 over every repository's commit subjects; the ten best vote 1/rank for their repository."""

    def __init__(self, subjects: dict[str, list[str]]) -> None:
        self.docs = [(repo, self.terms(s)) for repo, lines in subjects.items() for s in lines]
        self.df = Counter(t for _r, ts in self.docs for t in set(ts))
        self.avg = statistics.mean(len(ts) for _r, ts in self.docs) if self.docs else 1.0
        self.posting: dict[str, list[int]] = defaultdict(list)
        for i, (_r, ts) in enumerate(self.docs):
            for t in set(ts):
                self.posting[t].append(i)

    @staticmethod
    def terms(subject: str) -> list[str]:
        subject = re.sub(r"\s*\(#\d+\)", "", subject)
        subject = re.sub(r"^(\w+)\(([^)]*)\)!?:\s*", r"\2: ", subject)  # fix(x): y -> x: y, as the set
        out = []
        for w in _WORD.findall(subject):
            for p in _PIECE.findall(w) or [w]:
                if len(p) > 1 and p.lower() not in FUNCTION_WORDS:
                    out.append(p.lower())
        return out

    def share(self, question: str) -> Conf:
        n = len(self.docs)
        score: dict[int, float] = defaultdict(float)
        for t in set(self.terms(question)):
            df = self.df.get(t, 0)
            if not df:
                continue
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            for i in self.posting[t]:
                ts = self.docs[i][1]
                f = ts.count(t)
                score[i] += idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * len(ts) / self.avg))
        best = sorted(score, key=lambda i: -score[i])[:10]
        return vote_share([{"repo": self.docs[i][0]} for i in best])


def read_history(git_dirs: list[str]) -> dict[str, list[str]]:
    corpora = json.loads((wb.DEVEVAL / "corpora.json").read_text())["corpora"]
    out: dict[str, list[str]] = {}
    for c in corpora:
        for root in git_dirs:
            d = Path(root) / c["repo"].replace("/", "+") / "repo"
            if d.is_dir():
                log = subprocess.run(
                    [
                        "git",
                        f"--git-dir={d}",
                        "log",
                        "--first-parent",
                        f"-n{HISTORY}",
                        "--format=%s",
                        c["snapshot_commit"],
                    ],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                out[c["name"]] = [s for s in log.splitlines() if s.strip()]
                break
    return out


def code_words(question: str) -> set[str]:
    """Words of the question written as code: backticked, dotted, snake_case, camelCase."""
    ticked = [m.span(1) for m in re.finditer(r"`([^`]+)`", question)]
    out: set[str] = set()
    for m in _CODE.finditer(question):
        w = m.group(0)
        shaped = (
            any(a <= m.start() < b for a, b in ticked)
            or "_" in w.strip("_")
            or "." in w
            or "::" in w
            or re.search(r"[a-z][A-Z]|[A-Z]{2}[a-z]", w) is not None
        )
        if shaped:
            out |= {w, re.split(r"\.|::", w)[-1]}
    return out


def definition_names(recs: list[dict[str, Any]]) -> dict[str, set[str]]:
    from indexlib import Engine
    from indexlib.records import DEFINITION_KINDS

    out: dict[str, set[str]] = {}
    for rec in recs:
        for a, _h in rec["answers"]:
            if a.index_dir not in out:
                snap = Engine(Path(a.index_dir)).snapshot()
                out[a.index_dir] = {
                    s.node.name for _seg, s in snap.iter_live_nodes() if s.node.kind in DEFINITION_KINDS
                }
    return out


def names_table(recs: list[dict[str, Any]]) -> str:
    names = definition_names(recs)
    out = [
        "| kind | queries | with a code word one repository defines | router already right there | fixed by it | broken by it |"
    ]
    out.append("|---|---:|---:|---:|---:|---:|")
    for kind in wb.KINDS:
        mine = [r for r in recs if r["q"]["kind"] == kind]
        fires = right = fixed = broken = 0
        for rec in mine:
            by = {a.repo: names[a.index_dir] for a, _h in rec["answers"] if a.ok}
            solo = {
                next(iter(d))
                for w in code_words(rec["q"]["query"])
                if len(d := {r for r, s in by.items() if w in s}) == 1
            }
            if len(solo) != 1:
                continue
            fires += 1
            pick = next(iter(solo))
            conf = rec["conf"]
            was = max(conf, key=lambda r: conf[r]) == rec["q"]["corpus"] if conf else False
            right += was
            fixed += (not was) and pick == rec["q"]["corpus"]
            broken += was and pick != rec["q"]["corpus"]
        out.append(f"| {kind} | {len(mine)} | {fires} | {right} | {fixed} | {broken} |")
    return "\n".join(out)


def shape_table(recs: list[dict[str, Any]]) -> str:
    def feats(rec: dict[str, Any]) -> dict[str, dict[str, float]]:
        scale = wm.scales_of(rec)
        out = {}
        for a, _h in rec["answers"]:
            if not a.ok:
                continue
            ss = a.stream_scores if isinstance(a.stream_scores, dict) else {}
            b = [x * scale.get(a.repo, 1.0) for x in ss.get("bm25", [])]
            top = (b[:20] + [0.0] * 20)[:20]
            out[a.repo] = {
                "best BM25": top[0],
                "mean of the best 5": statistics.mean(top[:5]),
                "gap best - 10th": top[0] - top[9],
                "spread of the best 20": statistics.pstdev(top),
                "router confidence (the default)": rec["conf"].get(a.repo, 0.0),
            }
        return out

    acc: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for rec in recs:
        f = feats(rec)
        for name in next(iter(f.values())):
            acc[name][rec["q"]["kind"]].append(max(f, key=lambda r: f[r][name]) == rec["q"]["corpus"])
    out = ["| repository first by | " + " | ".join(wb.KINDS) + " | ALL |", "|---|" + "---:|" * 5]
    for name, per in acc.items():
        every = [x for v in per.values() for x in v]
        out.append(
            f"| {name} | " + " | ".join(f"{_mean(per[k]):.3f}" for k in wb.KINDS) + f" | {_mean(every):.3f} |"
        )
    return "\n".join(out)


def _mean(xs: list[Any]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lexical", required=True, help="workspace_merges capture of the lexical indexes")
    ap.add_argument("--hybrid", required=True, help="workspace_merges capture of the indexes with vectors")
    ap.add_argument("--from-git", action="append", default=[], help="the mirrors (for the history vote)")
    args = ap.parse_args()
    lex = pickle.loads(Path(args.lexical).read_bytes())
    hyb = pickle.loads(Path(args.hybrid).read_bytes())
    if [r["q"]["id"] for r in lex] != [r["q"]["id"] for r in hyb]:
        raise SystemExit("the two captures are not of the same queries in the same order")
    from indexlib.route.content import PROFILE_WEIGHT as w  # to take the profile back out of `conf`

    for lr, hr in zip(lex, hyb, strict=True):
        # The lexical capture's confidence is (lexical share + w x profile) / (1 + w): take the profile back out.
        ls, hs = vote_share(merged_rows(lr)), vote_share(merged_rows(hr))
        prof = {r: max(0.0, ((1 + w) * c - ls.get(r, 0.0)) / w) for r, c in lr["conf"].items()}
        for rec in (lr, hr):
            rec["lexical vote"] = mix([(1.0, ls), (w, prof)])
            rec["hybrid vote"] = mix([(1.0, hs), (w, prof)])
            rec["both votes"] = mix([(1.0, ls), (1.0, hs), (w, prof)])
    print("Which search votes (hybrid indexes, the default mode):\n")
    print(table(hyb, {k: (lambda rec, k=k: rec[k]) for k in ("lexical vote", "hybrid vote", "both votes")}))
    print("\nWhere the routed search loses, by the router's margin (lexical indexes, lexical vote):\n")
    print(margins(lex, lambda rec: rec["lexical vote"]))
    print("\nWhere it loses in the default hybrid mode (hybrid vote):\n")
    print(margins(hyb, lambda rec: rec["hybrid vote"]))
    if args.from_git:
        hist = History(read_history(args.from_git))
        for rec in (*lex, *hyb):
            rec["history"] = hist.share(rec["q"]["query"])
        for name, recs, base in (("lexical", lex, "lexical vote"), ("hybrid", hyb, "hybrid vote")):
            rules: dict[str, Callable[[dict[str, Any]], Conf]] = {base: lambda rec, b=base: rec[b]}
            rules["history alone"] = lambda rec: rec["history"]
            for hw in (0.1, 0.3, 0.5):
                rules[f"{base} + {hw} x history"] = lambda rec, b=base, hw=hw: mix(
                    [(1.0 + w, rec[b]), (hw, rec["history"])]
                )
            print(f"\nCommit history as evidence ({name} indexes):\n")
            print(table(recs, rules))
    print("\nCode words of the question that name a definition in one repository only (lexical):\n")
    print(names_table(lex))
    print("\nThe shape of each index's BM25 scores as evidence (lexical; acc@1):\n")
    print(shape_table(lex))


if __name__ == "__main__":
    main()
