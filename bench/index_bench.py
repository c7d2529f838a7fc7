"""Index timings on a copy of the standard library: full build, unchanged re-index, one touched / edited file.

Owns: the standard-library corpus copy and the helpers the other benchmarks share (running `qry` as a
whole process, hyperfine with a JSON export, CPU time of child processes, markdown tables). It does
not own query latency (query_bench.py), the embedding tier (embed_bench.py) or the rewrite of
docs/benchmarks.md (run_all.py).

Why whole processes: a user runs `qry index` from a shell, so interpreter start and imports are part of
what an unchanged re-index costs; the build report's in-library phase timings are shown next to it
so the two can be told apart. Why a copy: the re-index cases touch and edit files, which must never
happen to the interpreter's own library.

    python bench/index_bench.py [--work DIR] [--runs N]      # prints the markdown section

Needs `hyperfine` and `rg` (Debian: `apt-get install -y ripgrep hyperfine`).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PY = sys.executable
# The console script next to this interpreter: the `qry` a user of this environment runs.
QRY = str(Path(PY).parent / "qry")
STDLIB = Path(sysconfig.get_paths()["stdlib"])

#: The file the "one file edited" case appends a comment to: a typical module (about 1,500 lines).
EDIT_FILE = "http/client.py"

# --- shared helpers -------------------------------------------------------------------------------


def require_tools() -> None:
    """Fail early, with the fix, when hyperfine or rg is missing."""
    missing = [t for t in ("hyperfine", "rg") if shutil.which(t) is None]
    if missing:
        sys.exit(f"bench: {', '.join(missing)} not found; install with: apt-get install -y ripgrep hyperfine")
    if not Path(QRY).exists():
        sys.exit(f"bench: {QRY} not found; install qry into this environment: pip install -e .")


def bench_env() -> None:
    """Let child Pythons write bytecode caches: this environment sets PYTHONDONTWRITEBYTECODE, and with
    it every process recompiles each module edited since the last cache write (tens of ms), a cost no
    installed copy of qry pays. Warmup runs then leave the caches current."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


def log(msg: str) -> None:
    """Progress on stderr, so stdout stays the markdown result."""
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def load_avg() -> str:
    """The 1/5/15-minute load averages: the machine is shared, so every table says how busy it was."""
    a, b, c = os.getloadavg()
    return f"{a:.2f} / {b:.2f} / {c:.2f}"


def copy_tree(src: Path, dest: Path) -> Path:
    """Copy `src` to `dest` without `site-packages`, as installed otherwise (`__pycache__` included).

    Why keep the bytecode folders: they are part of the standard library as it sits on disk, and rg
    reads them (about 5,000 binary files, roughly doubling its time) while qry prunes `__pycache__`;
    issue 2's "about 40 ms" for rg is this tree. The query benchmark also times rg without them.
    """
    shutil.copytree(
        src,
        dest,
        symlinks=True,
        ignore=lambda _d, names: [n for n in names if n == "site-packages"],
    )
    return dest


def tree_bytes(root: Path) -> tuple[int, int]:
    """(files, bytes) under `root`, not following symlinks."""
    files = size = 0
    for dirpath, _dirs, names in os.walk(root):
        for n in names:
            p = Path(dirpath) / n
            if not p.is_symlink():
                files += 1
                size += p.stat().st_size
    return files, size


@dataclass
class Run:
    """One process run: wall time, CPU time (user + system of the child), exit status, stdout."""

    wall_s: float
    cpu_s: float
    code: int
    stdout: str


def run_proc(argv: Sequence[str], cwd: Path | None = None, check: bool = True) -> Run:
    """Run a process to completion, measuring wall and child CPU time (CPU time is less load-sensitive)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(list(argv), cwd=cwd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if check and proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    return Run(wall, cpu, proc.returncode, proc.stdout)


def run_json(argv: Sequence[str], cwd: Path | None = None) -> tuple[Any, Run]:
    """Run a `--json` command and decode its stdout."""
    r = run_proc(argv, cwd=cwd, check=False)
    if r.code not in (0, 1):
        raise RuntimeError(f"{' '.join(argv)} exited {r.code}: {r.stdout.strip()[-2000:]}")
    return json.loads(r.stdout), r


@dataclass
class Timing:
    """hyperfine's statistics for one command, in milliseconds."""

    label: str
    command: str
    median_ms: float
    mean_ms: float
    stddev_ms: float
    min_ms: float
    user_ms: float
    system_ms: float
    runs: int
    exit_codes: list[int] = field(default_factory=list)

    @property
    def cpu_ms(self) -> float:
        return self.user_ms + self.system_ms


def parse_hyperfine(
    data: dict[str, Any], labels: Sequence[str], commands: Sequence[str]
) -> dict[str, Timing]:
    """hyperfine's `--export-json` document -> Timing per label (results come in command order)."""
    out: dict[str, Timing] = {}
    for label, cmd, r in zip(labels, commands, data["results"], strict=True):
        out[label] = Timing(
            label=label,
            command=cmd,
            median_ms=r["median"] * 1000,
            mean_ms=r["mean"] * 1000,
            stddev_ms=(r.get("stddev") or 0.0) * 1000,
            min_ms=r["min"] * 1000,
            user_ms=r["user"] * 1000,
            system_ms=r["system"] * 1000,
            runs=len(r["times"]),
            exit_codes=sorted({int(c) for c in r.get("exit_codes") or [] if c is not None}),
        )
    return out


def pool_rounds(docs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Merge hyperfine `--export-json` documents of several rounds of the same commands into one.

    Each command's run times are concatenated and its statistics recomputed; user and system times
    (hyperfine gives only their means) are averaged weighted by runs.
    """
    merged: list[dict[str, Any]] = []
    for per_round in zip(*(d["results"] for d in docs), strict=True):
        times = [x for r in per_round for x in r["times"]]
        n = [len(r["times"]) for r in per_round]
        merged.append(
            {
                "command": per_round[0]["command"],
                "times": times,
                "mean": statistics.fmean(times),
                "stddev": statistics.stdev(times) if len(times) > 1 else 0.0,
                "median": statistics.median(times),
                "min": min(times),
                "max": max(times),
                "user": sum(r["user"] * k for r, k in zip(per_round, n, strict=True)) / sum(n),
                "system": sum(r["system"] * k for r, k in zip(per_round, n, strict=True)) / sum(n),
                "exit_codes": [c for r in per_round for c in r.get("exit_codes") or []],
            }
        )
    return {"results": merged}


def hyperfine(
    commands: Sequence[tuple[str, str]],
    *,
    cwd: Path,
    export: Path,
    runs: int,
    warmup: int,
    prepare: Sequence[str] | None = None,
    rounds: int = 1,
) -> dict[str, Timing]:
    """Time `(label, command)` pairs with hyperfine, side by side.

    No shell (`-N`), so nothing is subtracted or added for one; output goes through a pipe
    (`--output=pipe`) because rg takes a shortcut when its stdout is /dev/null; non-zero exits are
    allowed (`-i`: "no results" is exit 1 for both qry and rg). `prepare` is one command per
    benchmarked command, run before each of its timing runs. hyperfine runs all runs of one command
    before the next, so on a shared machine a burst of load can hit one command only: `rounds` > 1
    splits the runs into that many hyperfine passes over all commands (warmup `warmup` in the first,
    1 after) and pools them, so every command samples the whole period.
    """
    rounds = max(1, min(rounds, runs // 2))  # at least 2 runs per pass (hyperfine needs 2 for a deviation)
    docs: list[dict[str, Any]] = []
    for i in range(rounds):
        n = runs // rounds + (1 if i < runs % rounds else 0)
        out = export.with_name(f"{export.stem}.{i}{export.suffix}")
        argv = ["hyperfine", "-N", "-i", "--output=pipe", "--style", "none"]
        argv += [
            "--warmup",
            str(warmup if i == 0 else min(warmup, 1)),
            "--runs",
            str(n),
            "--export-json",
            str(out),
        ]
        if prepare is not None:
            assert len(prepare) == len(commands)
            for p in prepare:
                argv += ["--prepare", p]
        for label, cmd in commands:
            argv += ["-n", label, cmd]
        subprocess.run(argv, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
        docs.append(json.loads(out.read_text()))
    pooled = pool_rounds(docs)
    export.write_text(json.dumps(pooled))
    return parse_hyperfine(pooled, [c[0] for c in commands], [c[1] for c in commands])


def table(header: Sequence[str], rows: Sequence[Sequence[object]], align: str | None = None) -> str:
    """A markdown table; `align` is one letter per column (l or r), default: first left, rest right."""
    align = align or "l" + "r" * (len(header) - 1)
    sep = ["---" if a == "l" else "---:" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(sep) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def ms(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b > 0 else "-"


# --- the index benchmark --------------------------------------------------------------------------


@dataclass
class IndexResult:
    """What the index benchmark measured; `markdown` is its section of docs/benchmarks.md."""

    corpus: Path
    markdown: str
    numbers: dict[str, Any]


def prepare_stdlib(work: Path) -> Path:
    dest = work / "stdlib"
    if not dest.exists():
        log(f"copying {STDLIB} (without site-packages) to {dest}")
        copy_tree(STDLIB, dest)
    return dest


def run(work: Path, runs: int = 10, warmup: int = 1) -> IndexResult:
    """Full index, then unchanged / touched / edited re-index side by side; returns the section."""
    corpus = prepare_stdlib(work)
    shutil.rmtree(corpus / ".qry", ignore_errors=True)
    src_files, src_bytes = tree_bytes(corpus)
    pyc_files = sum(len(files) for d, _dirs, files in os.walk(corpus) if Path(d).name == "__pycache__")
    load_before = load_avg()
    log(f"full index of {corpus} (--embed none), load {load_before}")
    full, full_run = run_json([QRY, "index", str(corpus), "--embed", "none", "--json"])
    index_files, index_bytes = tree_bytes(corpus / ".qry")

    log(f"re-index timings ({runs} runs each), load {load_avg()}")
    edit = corpus / EDIT_FILE
    qry_index = f"{QRY} index {corpus} --embed none -q"
    commands = [
        ("re-index, nothing changed", qry_index),
        (f"re-index, {EDIT_FILE} touched (mtime only)", qry_index),
        (f"re-index, {EDIT_FILE} edited (one line appended)", qry_index),
    ]
    prepare = [
        "true",
        f"touch {edit}",
        f"sh -c 'echo \"# bench edit $(date +%s%N)\" >> {edit}'",
    ]
    t = hyperfine(
        commands, cwd=work, export=work / "hf-index.json", runs=runs, warmup=warmup, prepare=prepare, rounds=2
    )
    load_after = load_avg()
    # One more of each, in-process phase timings from the build report.
    unchanged, _ = run_json([QRY, "index", str(corpus), "--embed", "none", "--json"])
    with edit.open("a") as f:
        f.write(f"# bench edit {time.time_ns()}\n")
    edited, _ = run_json([QRY, "index", str(corpus), "--embed", "none", "--json"])

    labels = [c[0] for c in commands]
    targets = {labels[0]: 1000.0, labels[1]: 1000.0, labels[2]: 2000.0}
    rows: list[list[object]] = [
        [
            "full index (one run)",
            ms(full_run.wall_s * 1000),
            ms(full_run.cpu_s * 1000),
            ms(full["elapsed"] * 1000),
            "-",
            "-",
        ]
    ]
    reports = {labels[0]: unchanged, labels[1]: unchanged, labels[2]: edited}
    for label in labels:
        tm = t[label]
        target = targets[label]
        rows.append(
            [
                label,
                ms(tm.median_ms),
                ms(tm.cpu_ms),
                ms(reports[label]["elapsed"] * 1000),
                f"< {target / 1000:.0f} s",
                "yes" if tm.median_ms < target else "**no**",
            ]
        )

    def phases(rep: dict[str, Any]) -> str:
        return ", ".join(f"{k} {v * 1000:,.0f}" for k, v in rep["timings"].items())

    skipped = ", ".join(f"{k} {v:,}" for k, v in sorted(full["skipped"].items(), key=lambda kv: -kv[1]))
    md = [
        f"Corpus: a copy of this interpreter's standard library (`{STDLIB}` without `site-packages`): "
        f"{src_files:,} files ({pyc_files:,} of them bytecode in `__pycache__`, which qry prunes and rg reads), "
        f"{src_bytes / 2**20:.1f} MiB. Load average before / after: "
        f"{load_before} -> {load_after}.\n",
        f"Indexed **{full['files']:,} files** into **{full['nodes_total']:,} nodes** (skipped {skipped}); "
        f"index size **{index_bytes / 2**20:.1f} MiB** in {index_files:,} files "
        f"({index_bytes / max(src_bytes, 1):.2f}x the corpus).\n",
        f"Whole-process times of `qry index PATH --embed none`; re-index rows are hyperfine medians of "
        f"{runs} runs in 2 passes (warmup {warmup}). CPU = user + system of the process (less sensitive to other load "
        f"than wall time). In-library = the build report's phase total.\n",
        table(
            ["case", "wall ms", "CPU ms", "in-library ms", "target", "met"],
            rows,
            "lrrrrl",
        ),
        f"Phases (ms) of the full build: {phases(full)}; of the one-file edit: {phases(edited)} "
        f"({edited['nodes_written']} nodes re-written, {edited['segments']} live segments).\n",
    ]
    numbers = {
        "load_before": load_before,
        "load_after": load_after,
        "corpus_files": src_files,
        "corpus_pyc_files": pyc_files,
        "corpus_bytes": src_bytes,
        "files": full["files"],
        "nodes": full["nodes_total"],
        "skipped": full["skipped"],
        "index_bytes": index_bytes,
        "full_wall_s": full_run.wall_s,
        "full_cpu_s": full_run.cpu_s,
        "full_phases": full["timings"],
        "edit_phases": edited["timings"],
        "unchanged_phases": unchanged["timings"],
        "reindex": {k: v.__dict__ for k, v in t.items()},
    }
    return IndexResult(corpus=corpus, markdown="\n".join(md), numbers=numbers)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, help="working folder (default: a new temporary one)")
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    require_tools()
    bench_env()
    work = args.work or Path(tempfile.mkdtemp(prefix="qry-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    res = run(work, runs=args.runs)
    print(res.markdown)
    print(json.dumps(res.numbers, indent=1, default=str), file=sys.stderr)


if __name__ == "__main__":
    main()
