"""Run the development evaluation (`../shared/deveval`) and write its tables into docs/benchmarks.md.

    python bench/deveval.py --from-git DIR [--embed none,onnx] [--ablate] [--per-group N] [--reuse]

For each embedding mode it runs deveval's own `run.py` (one `qry index .` per snapshot, then one
`qry search ... --top-k 10 --json` process per query, as an agent would), scores the run with
deveval's `score.py`, and puts per-kind and per-corpus tables next to the bm25 reference between the
`<!-- deveval:MODE -->` markers of docs/benchmarks.md. With `--ablate` it also re-runs every query
in-process over the indexes that run left behind, once per ranking signal switched off and once per
single stream, so the effect of each piece is a column of the same table.

`DIR` holds git mirrors of the five corpora (`owner+name/repo`, as the search tool's fetch leaves them).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import msgspec

REPO = Path(__file__).resolve().parent.parent
DEVEVAL = REPO.parent / "shared" / "deveval"
DOC = REPO / "docs" / "benchmarks.md"
KINDS = ("fix", "symbol", "concept", "concept-nodoc")
CORPORA = ("black", "task", "vue", "jsoup", "clap")


def run_cli(embed: str, work: Path, out: Path, args: argparse.Namespace) -> None:
    """deveval's run.py with this checkout's qry (`python -m cli`) as the command."""
    env = dict(os.environ)
    env["QRY_CMD"] = f"{sys.executable} -m cli"
    env["QRY_EXTRA_INDEX_ARGS"] = f"--embed {embed}"
    cmd = [sys.executable, str(DEVEVAL / "run.py"), "--from-git", str(args.from_git), "--work", str(work)]
    cmd += ["--out", str(out), "--tool", out.stem]
    if args.per_group:
        cmd += ["--per-group", str(args.per_group)]
    if args.reuse:
        cmd.append("--reuse")
    subprocess.run(cmd, check=True, env=env)


def score(run: Path) -> dict[str, object]:
    """score.py --json for one run file: {"overall", "by_kind", "by_kind_corpus", ...}."""
    proc = subprocess.run(
        [sys.executable, str(DEVEVAL / "score.py"), "--json", str(run)],
        check=True,
        capture_output=True,
        text=True,
    )
    data: dict[str, dict[str, object]] = json.loads(proc.stdout)
    return next(iter(data.values()))


def ablation_runs(work: Path, out_dir: Path, ids: set[str]) -> dict[str, Path]:
    """In-process runs over the indexes run.py built: each signal off, and each stream alone."""
    sys.path.insert(0, str(REPO))
    import indexlib
    from indexlib.retrieval.search import SearchOptions
    from indexlib.retrieval.signals import SIGNAL_NAMES, Signals

    queries = [q for q in _queries() if q["id"] in ids]
    variants: dict[str, SearchOptions] = {"default (in-process)": SearchOptions(top_k=10)}
    for name in SIGNAL_NAMES:
        sig = Signals()
        if name in sig.enabled:
            variants[f"-{name}"] = SearchOptions(top_k=10, signals=sig.without(name))
        else:
            variants[f"+{name}"] = SearchOptions(top_k=10, signals=sig.with_(name))
    for mode in ("lexical", "symbol", "semantic"):
        variants[f"mode {mode}"] = SearchOptions(top_k=10, mode=mode)
    engines: dict[str, indexlib.Engine] = {}
    paths: dict[str, Path] = {}
    for label, opts in variants.items():
        path = out_dir / f"ablate-{len(paths):02d}.jsonl"
        with path.open("w") as fh:
            for q in queries:
                sid = str(q["snapshot"])
                engine = engines.get(sid)
                if engine is None:
                    engine = engines[sid] = indexlib.open_engine(work / "work" / sid / ".qry")
                try:
                    res = engine.search(str(q["query"]), msgspec.structs.replace(opts))
                    hits = [
                        {
                            "path": h.path,
                            "start_line": h.start_line,
                            "end_line": h.end_line,
                            "symbol": h.symbol,
                        }
                        for h in res.results
                    ]
                except indexlib.QryError:
                    hits = []  # e.g. semantic mode over an index without vectors
                fh.write(json.dumps({"id": q["id"], "tool": label, "snapshot": sid, "results": hits}) + "\n")
        paths[label] = path
    return paths


def _queries() -> list[dict[str, object]]:
    out = []
    for name in ("fix", "symbol", "concept"):
        with (DEVEVAL / "queries" / f"{name}.jsonl").open() as fh:
            out.extend(json.loads(line) for line in fh if line.strip())
    return out


def _cell(agg: dict[str, float], key: str) -> str:
    return f"{agg[key]:.3f}"


def kind_table(rows: dict[str, dict[str, object]]) -> str:
    """One row per run, file MRR / symbol MRR / Contam@10 per kind and ALL."""
    head = "| run | " + " | ".join(f"{k} f / s" for k in (*KINDS, "ALL")) + " | Contam@10 (max kind) |"
    lines = [head, "|" + "---|" * (len(KINDS) + 3)]
    for label, sc in rows.items():
        by_kind: dict[str, dict[str, float]] = sc["by_kind"]  # type: ignore[assignment]
        overall: dict[str, float] = sc["overall"]  # type: ignore[assignment]
        cells = [f"{_cell(by_kind[k], 'file_MRR')} / {_cell(by_kind[k], 'sym_MRR')}" for k in KINDS]
        cells.append(f"{_cell(overall, 'file_MRR')} / {_cell(overall, 'sym_MRR')}")
        worst = max(by_kind[k].get("Contam@10", 0.0) for k in KINDS)
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {worst:.3f} |")
    return "\n".join(lines)


def corpus_table(rows: dict[str, dict[str, object]]) -> str:
    """File MRR / symbol MRR per kind and corpus for each run."""
    labels = list(rows)
    lines = ["| kind/corpus | " + " | ".join(f"{x} f / s" for x in labels) + " |"]
    lines.append("|" + "---|" * (len(labels) + 1))
    for kind in KINDS:
        for corpus in CORPORA:
            key = f"{kind}/{corpus}"
            cells = []
            for label in labels:
                per: dict[str, dict[str, float]] = rows[label]["by_kind_corpus"]  # type: ignore[assignment]
                agg = per.get(key)
                cells.append("-" if agg is None else f"{agg['file_MRR']:.3f} / {agg['sym_MRR']:.3f}")
            lines.append(f"| {key} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_section(name: str, body: str) -> None:
    """Replace the text between `<!-- deveval:NAME -->` and `<!-- /deveval:NAME -->` (append if absent)."""
    start, end = f"<!-- deveval:{name} -->", f"<!-- /deveval:{name} -->"
    text = DOC.read_text()
    block = f"{start}\n{body}\n{end}"
    if start in text and end in text:
        before, rest = text.split(start, 1)
        text = before + block + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    DOC.write_text(text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--from-git", type=Path, required=True, help="folder of git mirrors of the corpora")
    ap.add_argument("--embed", default="none,onnx", help="comma list of embedding modes to run")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "qry-deveval")
    ap.add_argument("--per-group", type=int, default=0)
    ap.add_argument("--reuse", action="store_true", help="keep the work copies and their indexes")
    ap.add_argument("--ablate", action="store_true", help="add in-process signal and stream ablations")
    args = ap.parse_args()
    bm25 = score(DEVEVAL / "baselines" / "bm25.jsonl")
    for embed in args.embed.split(","):
        work = args.work / embed
        out = work / f"qry-{embed}.jsonl"
        work.mkdir(parents=True, exist_ok=True)
        run_cli(embed, work, out, args)
        rows: dict[str, dict[str, object]] = {"bm25 reference": bm25, f"qry --embed {embed}": score(out)}
        body = f"Per kind, file MRR@10 / symbol MRR@10 (`qry index --embed {embed}`, CLI per query).\n\n"
        body += kind_table(rows) + "\n\nPer kind and corpus:\n\n" + corpus_table(rows)
        if args.ablate:
            ids = {json.loads(line)["id"] for line in out.open()}
            ablated = {label: score(path) for label, path in ablation_runs(work, work, ids).items()}
            body += "\n\nAblations (in-process over the same indexes; `-x` = signal x off, `+x` = on):\n\n"
            body += kind_table(ablated)
        write_section(embed, body)
        print(kind_table(rows))


if __name__ == "__main__":
    main()
