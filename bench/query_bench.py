"""Whole-process query latency on the standard-library index, next to `rg`, and what the hot path imports.

Owns: the lexical query benchmark (identifier queries piped plain and with `--json`, next to
`rg -n` over the same tree, `qry --help`, `qry status`, the interpreter floor), the import audit
(`python -X importtime`: which modules `--help`, `status`, a lexical search and `index` load, and
that numpy, onnxruntime, usearch and rich are not among them), a cProfile of one plain search, and
the editable-versus-regular install comparison. It does not build the index (index_bench.py).

Why rg is the baseline: it needs no index, so a query engine that is slower than rg on a tree gives
no reason to keep an index of it (issue 2). rg is run with its output going through a pipe, as qry's,
because rg takes a shortcut when stdout is /dev/null.

    python bench/query_bench.py --corpus DIR [--runs N]   # DIR: an indexed tree (index_bench.py makes one)
"""

from __future__ import annotations

import argparse
import pstats
import shlex
import shutil
import statistics
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from typing import Any

from index_bench import (
    PY,
    QRY,
    REPO,
    bench_env,
    hyperfine,
    load_avg,
    log,
    ms,
    ratio,
    run_json,
    run_proc,
    table,
)

#: Identifier queries of issue 2: a class, a function, a qualified method.
QUERIES = ("JSONDecoder", "parse_headers", "HTTPConnection.request")
#: Top-level packages that must stay off the import path of `--help`, `status` and lexical search.
HEAVY = ("numpy", "onnxruntime", "usearch", "rich")
#: Other packages worth naming when they load (engines and the CLI framework).
NOTABLE = (
    "typer",
    "click",
    "tantivy",
    "msgspec",
    "xxhash",
    "tree_sitter",
    "tree_sitter_language_pack",
    "pathspec",
    "lark",
    "tokenizers",
    "mcp",
)

# --- import audit ---------------------------------------------------------------------------------


@dataclass
class ImportLine:
    """One line of `-X importtime`: a module, its own import time and its total with children (us)."""

    module: str
    depth: int
    self_us: int
    cumulative_us: int


def parse_importtime(stderr: str) -> list[ImportLine]:
    """Parse `python -X importtime` output (`import time: self | cumulative | name`, indented by depth)."""
    out: list[ImportLine] = []
    for line in stderr.splitlines():
        if not line.startswith("import time:"):
            continue
        parts = line[len("import time:") :].split("|")
        if len(parts) != 3 or not parts[0].strip().isdigit():
            continue  # the header line
        name = parts[2].rstrip()
        stripped = name.lstrip(" ")
        depth = (len(name) - len(stripped) - 1) // 2
        out.append(ImportLine(stripped, max(depth, 0), int(parts[0]), int(parts[1])))
    return out


@dataclass
class ImportProfile:
    """Import costs of one command line: each module's least time over several processes."""

    argv: list[str]
    total_us: float  # sum of self times: all import work of the process
    modules: dict[str, tuple[float, float, int]] = field(default_factory=dict)  # name -> (self, cum, depth)

    def loaded(self, top: str) -> bool:
        return any(m == top or m.startswith(top + ".") for m in self.modules)

    def heavy(self) -> list[str]:
        return [h for h in HEAVY if self.loaded(h)]

    def top_self(self, n: int) -> list[tuple[str, float, float, int]]:
        return sorted(((m, s, c, d) for m, (s, c, d) in self.modules.items()), key=lambda x: -x[1])[:n]

    def top_cumulative(self, n: int) -> list[tuple[str, float, float, int]]:
        return sorted(((m, s, c, d) for m, (s, c, d) in self.modules.items()), key=lambda x: -x[2])[:n]

    def package_cost(self, top: str) -> float:
        """Microseconds of self time spent in `top` and its submodules."""
        return sum(s for m, (s, _c, _d) in self.modules.items() if m == top or m.startswith(top + "."))


def importtime(argv: Sequence[str], cwd: Path, repeats: int) -> ImportProfile:
    """Run `qry ARGV` under `-X importtime` `repeats` times (after one warm run); keep each module's minimum.

    Why the minimum: import work is the same in every run, and on a shared machine other load only
    ever adds to a measurement, so the least of several runs is the closest to the true cost.
    """
    cmd = [PY, "-X", "importtime", QRY, *argv]
    subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)  # warm: bytecode caches, page cache
    per_run: list[list[ImportLine]] = []
    for _ in range(repeats):
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
        per_run.append(parse_importtime(proc.stderr))
    names: dict[str, int] = {}
    for lines in per_run:
        for ln in lines:
            names.setdefault(ln.module, ln.depth)
    prof = ImportProfile(argv=list(argv), total_us=min(sum(ln.self_us for ln in lines) for lines in per_run))
    for name, depth in names.items():
        selfs = [next((ln.self_us for ln in lines if ln.module == name), 0) for lines in per_run]
        cums = [next((ln.cumulative_us for ln in lines if ln.module == name), 0) for lines in per_run]
        prof.modules[name] = (min(selfs), min(cums), depth)
    return prof


def cprofile_search(corpus: Path, query: str, n: int = 12, repeats: int = 3) -> str:
    """cProfile of a whole plain `qry search` process (imports included): top functions, as text.

    The fastest of `repeats` profiled runs is kept: a single run on a shared machine can be inflated
    anywhere by other load, and the least-disturbed run shows the program's own balance best.
    """
    best: tuple[float, Path] | None = None
    for i in range(repeats):
        out = corpus.parent / f"search.{i}.prof"
        subprocess.run(
            # -P: `-m` would put the working folder (a copy of the standard library) first on sys.path.
            [PY, "-P", "-m", "cProfile", "-o", str(out), QRY, "search", query],
            cwd=corpus,
            capture_output=True,
            check=False,
        )
        total = float(vars(pstats.Stats(str(out)))["total_tt"])
        if best is None or total < best[0]:
            best = (total, out)
    assert best is not None
    out = best[1]
    buf = StringIO()
    stats = pstats.Stats(str(out), stream=buf)
    stats.strip_dirs()
    rows: list[list[object]] = []
    raw: dict[Any, Any] = vars(stats)["stats"]  # typeshed omits the attribute
    entries = sorted(raw.items(), key=lambda kv: -kv[1][2])[:n]
    for (file, line, func), (_cc, nc, tt, ct, _callers) in entries:
        rows.append([f"`{func}` ({file}:{line})", nc, f"{tt * 1000:.1f}", f"{ct * 1000:.1f}"])
    return table(["function (by own time)", "calls", "own ms", "cumulative ms"], rows, "lrrr")


# --- editable versus regular install --------------------------------------------------------------


def regular_install(work: Path) -> tuple[Path | None, str]:
    """A venv with qry installed from a copy of the source (not editable), the same dependencies.

    The new venv's site-packages links every entry of this environment's site-packages (`.pth` files
    included) except qry's own editable-install files, so the interpreter starts the same way and
    imports find the same files in the same number of places; only how qry itself is installed
    differs. Returns (the venv's bin folder or None, a note).
    """
    venv = work / "venv-regular"
    src = work / "qry-src"
    shutil.rmtree(venv, ignore_errors=True)
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    # Copy the sources, so setuptools' in-tree build/ and egg-info never land in the shared checkout.
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, src / name)
    for pkg in ("cli", "indexlib"):
        shutil.copytree(REPO / pkg, src / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    try:
        subprocess.run([PY, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
        site = next((venv / "lib").glob("python3*/site-packages"))
        import site as site_mod

        def ours(name: str) -> bool:
            return name in ("cli", "indexlib", "__pycache__") or name.startswith(("__editable__", "qry-"))

        for deps in (Path(p) for p in site_mod.getsitepackages() if Path(p).is_dir()):
            for entry in deps.iterdir():
                if not ours(entry.name) and not (site / entry.name).exists():
                    (site / entry.name).symlink_to(entry)
        proc = subprocess.run(
            [
                PY,
                "-m",
                "pip",
                "--python",
                str(venv / "bin" / "python"),
                "install",
                "--no-deps",
                "-q",
                str(src),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            return None, f"regular install failed: {proc.stderr.strip().splitlines()[-1:]}"
    except (subprocess.CalledProcessError, StopIteration, OSError) as exc:
        return None, f"regular install failed: {exc}"
    return venv / "bin", "ok"


# --- the query benchmark --------------------------------------------------------------------------


@dataclass
class QueryResult:
    markdown: str
    numbers: dict[str, Any]
    rg_ms: float  # median rg time over the stdlib for the first query, for the hybrid comparison


def run(corpus: Path, work: Path, runs: int = 20, warmup: int = 3, imports_repeats: int = 5) -> QueryResult:
    qry = shlex.quote(QRY)
    load_before = load_avg()
    log(f"query latency on {corpus} ({runs} runs), load {load_before}")
    commands: list[tuple[str, str]] = [
        ("`python -c pass` (floor)", f"{PY} -c pass"),
        ("`qry --help`", f"{qry} --help"),
        ("`qry status`", f"{qry} status"),
    ]
    # rg over the source only (bytecode folders excluded by a glob), for the first query: the tree
    # without `__pycache__` is what qry indexes.
    commands.append((f"`rg -n {QUERIES[0]} -g !__pycache__`", f"rg -n {QUERIES[0]} -g !__pycache__"))
    for q in QUERIES:
        commands += [
            (f"`rg -n {q}`", f"rg -n {q}"),
            (f"`qry search {q}` (plain)", f"{qry} search {q}"),
            (f"`qry search {q} --json --no-graph`", f"{qry} search {q} --json --no-graph"),
        ]
    # `--json` turns graph expansion on (callers, callees, parents), which costs about a second here:
    # those run in their own, shorter pass so they do not take most of the benchmark's time.
    slow = [(f"`qry search {q} --json`", f"{qry} search {q} --json") for q in QUERIES]
    # The same queries on the root of the full build (one segment, no tombstones): the index above is
    # a base segment plus the delta of the last edit, and tombstone filtering is part of what it costs.
    roots, _r = run_json([QRY, "roots", "--json"], cwd=corpus)
    first = roots[-1]["id"] if len(roots) > 1 and roots[-1].get("segments") == 1 else None
    if first is not None:
        commands += [
            (f"`qry search {q}` (plain, one-segment root)", f"{qry} search {q} --root {first}")
            for q in QUERIES
        ]
    t = hyperfine(commands, cwd=corpus, export=work / "hf-query.json", runs=runs, warmup=warmup, rounds=4)
    slow_runs = max(4, runs // 2)
    t.update(
        hyperfine(slow, cwd=corpus, export=work / "hf-query-json.json", runs=slow_runs, warmup=1, rounds=2)
    )
    commands += slow
    segments = roots[0].get("segments") if roots else "?"
    load_after = load_avg()

    # In-library time and what came back, per query (meta.elapsed_ms of the JSON runs).
    facts: dict[str, dict[str, Any]] = {}
    for q in QUERIES:
        lib_graph, lib_plain = [], []
        data: dict[str, Any] = {}
        for _ in range(3):
            data, _r = run_json([QRY, "search", q, "--json"], cwd=corpus)
            lib_graph.append(data["meta"]["elapsed_ms"])
            no_graph, _r = run_json([QRY, "search", q, "--json", "--no-graph"], cwd=corpus)
            lib_plain.append(no_graph["meta"]["elapsed_ms"])
        top = data["results"][0] if data["results"] else None
        rg_lines = run_proc(["rg", "-n", q], cwd=corpus, check=False).stdout.count("\n")
        facts[q] = {
            "hits": len(data["results"]),
            "top": f"{top['path']}:{top['start_line']} {top['kind']} {top['symbol']}" if top else "-",
            "lib_ms_graph": statistics.median(lib_graph),
            "lib_ms_no_graph": statistics.median(lib_plain),
            "rg_lines": rg_lines,
            "route": data["meta"]["route"],
        }

    floor = t["`python -c pass` (floor)"]
    rows: list[list[object]] = []
    for label, _cmd in commands:
        tm = t[label]
        rows.append(
            [
                label,
                ms(tm.median_ms),
                ms(tm.min_ms),
                ms(tm.stddev_ms),
                ms(tm.cpu_ms),
                ratio(tm.median_ms, floor.median_ms),
            ]
        )
    vs_rg: list[list[object]] = []
    for q in QUERIES:
        rg = t[f"`rg -n {q}`"]
        plain = t[f"`qry search {q}` (plain)"]
        js = t[f"`qry search {q} --json`"]
        jn = t[f"`qry search {q} --json --no-graph`"]
        f = facts[q]
        one = t.get(f"`qry search {q}` (plain, one-segment root)")
        vs_rg.append(
            [
                f"`{q}`",
                ms(rg.median_ms),
                ms(plain.median_ms),
                ratio(plain.median_ms, rg.median_ms),
                ratio(plain.cpu_ms, rg.cpu_ms),
                ratio(one.median_ms, rg.median_ms) if one else "-",
                ratio(js.median_ms, rg.median_ms),
                ratio(jn.median_ms, rg.median_ms),
                ms(f["lib_ms_no_graph"]),
                ms(f["lib_ms_graph"]),
                "yes" if plain.median_ms <= rg.median_ms else "**no**",
            ]
        )

    log("import audit (-X importtime)")
    profiles = {
        "qry --help": importtime(["--help"], corpus, imports_repeats),
        "qry status": importtime(["status"], corpus, imports_repeats),
        f"qry search {QUERIES[0]} (plain)": importtime(["search", QUERIES[0]], corpus, imports_repeats),
        f"qry search {QUERIES[0]} --json": importtime(
            ["search", QUERIES[0], "--json"], corpus, imports_repeats
        ),
        "qry index (unchanged, --embed none)": importtime(
            ["index", str(corpus), "--embed", "none", "-q"], corpus, imports_repeats
        ),
    }
    audit_rows: list[list[object]] = []
    for label, p in profiles.items():
        heavy = p.heavy()
        notable = [f"{n} {p.package_cost(n) / 1000:.0f}" for n in NOTABLE if p.loaded(n)]
        audit_rows.append(
            [
                f"`{label}`",
                f"{p.total_us / 1000:.0f}",
                len(p.modules),
                ", ".join(heavy) if heavy else "none",
                ", ".join(notable) or "-",
            ]
        )
    search_prof = profiles[f"qry search {QUERIES[0]} (plain)"]
    top_self = [
        [f"`{m}`", d, f"{s / 1000:.1f}", f"{c / 1000:.1f}"] for m, s, c, d in search_prof.top_self(10)
    ]
    top_cum = [
        [f"`{m}`", d, f"{s / 1000:.1f}", f"{c / 1000:.1f}"] for m, s, c, d in search_prof.top_cumulative(10)
    ]
    own = [m for m in search_prof.modules if m.split(".")[0] in ("cli", "indexlib")]
    own_us = sum(search_prof.modules[m][0] for m in own)

    log("cProfile of one plain search")
    prof_table = cprofile_search(corpus, QUERIES[0])

    log("editable vs regular install")
    bin_dir, note = regular_install(work)
    install_md = f"Editable versus regular install: skipped ({note}).\n"
    install: dict[str, Any] = {"note": note}
    if bin_dir is not None:
        ed_py, ed_qry = PY, QRY
        rg_py, rg_qry = str(bin_dir / "python"), str(bin_dir / "qry")
        inst_cmds = [
            ("editable: `python -c pass`", f"{ed_py} -c pass"),
            ("regular: `python -c pass`", f"{rg_py} -c pass"),
            ("editable: `qry --help`", f"{ed_qry} --help"),
            ("regular: `qry --help`", f"{rg_qry} --help"),
            (f"editable: `qry search {QUERIES[0]}`", f"{ed_qry} search {QUERIES[0]}"),
            (f"regular: `qry search {QUERIES[0]}`", f"{rg_qry} search {QUERIES[0]}"),
        ]
        ti = hyperfine(
            inst_cmds, cwd=corpus, export=work / "hf-install.json", runs=runs, warmup=warmup, rounds=4
        )
        inst_rows = []
        for i in range(0, len(inst_cmds), 2):
            e, r = ti[inst_cmds[i][0]], ti[inst_cmds[i + 1][0]]
            what = inst_cmds[i][0].split(": ", 1)[1]
            inst_rows.append(
                [
                    what,
                    ms(e.median_ms),
                    ms(r.median_ms),
                    f"{e.median_ms - r.median_ms:+.1f}",
                    f"{e.cpu_ms - r.cpu_ms:+.1f}",
                ]
            )
        install = {"note": note, **{k: v.__dict__ for k, v in ti.items()}}
        install_md = (
            "Editable (`pip install -e .`, setuptools' import-hook finder) versus regular (`pip install .`) "
            "install of the same sources, dependencies shared, side by side (hyperfine medians):\n\n"
            + table(["command", "editable ms", "regular ms", "editable extra ms", "extra CPU ms"], inst_rows)
        )

    md = [
        f"Corpus: the standard-library copy indexed above (`--embed none`; HEAD has {segments} segments after "
        f"the edits, the one-segment rows query the full build's root with `--root`). hyperfine, {runs} runs in 4 passes "
        f"over all commands (`--json` with its default graph expansion: {slow_runs} runs in 2 passes), {warmup} "
        f"warmups, no shell, output through a pipe. CPU = user + system. Load average before / after: {load_before} -> "
        f"{load_after}.\n",
        table(["command", "median ms", "min ms", "σ ms", "CPU ms", "vs floor"], rows, "lrrrrr"),
        "\nIdentifier queries next to `rg -n` over the same tree (rg needs no index: the baseline of issue 2; "
        "target: a plain qry query no slower than rg). Ratios are of medians (CPU: of user + system). "
        "In-library = `meta.elapsed_ms` (median of 3).\n",
        table(
            [
                "query",
                "rg ms",
                "qry plain ms",
                "plain / rg",
                "plain / rg CPU",
                "plain, one segment / rg",
                "--json / rg",
                "--json --no-graph / rg",
                "in-library ms (no graph)",
                "in-library ms (--json, graph)",
                "met",
            ],
            vs_rg,
            "lrrrrrrrrrl",
        ),
        "\nWhat came back: "
        + "; ".join(
            f"`{q}`: {f['hits']} hits, route {f['route']}, top `{f['top']}` (rg: {f['rg_lines']} lines)"
            for q, f in facts.items()
        )
        + ".\n",
        "\n#### Imports on the hot path\n",
        "`python -X importtime`, each module's least time over "
        f"{imports_repeats} processes (load only adds). Heavy = {', '.join(HEAVY)} (must not load for these commands).\n",
        table(
            ["command", "import ms", "modules", "heavy loaded", "notable packages (self ms)"],
            audit_rows,
            "lrrll",
        ),
        f"\nPlain `qry search {QUERIES[0]}`: qry's own modules ({len(own)}) take {own_us / 1000:.1f} ms of "
        f"self time. Top 10 by self time:\n",
        table(["module", "depth", "self ms", "cumulative ms"], top_self),
        "\nTop 10 by cumulative time (a module's time including what it imports):\n",
        table(["module", "depth", "self ms", "cumulative ms"], top_cum),
        f"\ncProfile of a whole plain `qry search {QUERIES[0]}` process (the fastest of 3 profiled runs; imports included), by own time:\n",
        prof_table,
        "\n" + install_md,
    ]
    numbers = {
        "load_before": load_before,
        "load_after": load_after,
        "timings": {k: v.__dict__ for k, v in t.items()},
        "facts": facts,
        "imports": {
            k: {"total_ms": p.total_us / 1000, "modules": len(p.modules), "heavy": p.heavy()}
            for k, p in profiles.items()
        },
        "search_top_self": top_self,
        "search_top_cumulative": top_cum,
        "install": install,
    }
    return QueryResult("\n".join(md), numbers, t[f"`rg -n {QUERIES[0]}`"].median_ms)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, required=True, help="an indexed tree")
    ap.add_argument("--work", type=Path, help="working folder (default: a new temporary one)")
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    bench_env()
    work = args.work or Path(tempfile.mkdtemp(prefix="qry-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    print(run(args.corpus.resolve(), work, runs=args.runs).markdown)


if __name__ == "__main__":
    main()
