"""Measure the code graph on real code: edge precision and recall by hand, hub contamination of diffusion.

Owns: the two pinned corpora the graph and routing benchmarks share (`stdlib-ejh`: the standard
library's `email`, `json` and `http` packages of this interpreter; `qry-self`: this repository's
`indexlib/` and `cli/` at a pinned commit), their indexes (built with `qry index ... --embed onnx`
under `bench/.cache/graph/`), the seeded samples of call edges and call sites that a person checks
by reading the code (`bench/edges_sample.md` holds the verdicts), the automatic check that every
`calls` reference sits on a call, the hub-contamination table, and the graph half of the
`<!-- graph:start -->` section of `docs/benchmarks.md` (routing_bench.py writes the other half).
It does not rank, resolve or tune anything: it reads `indexlib` through its public pieces.

Why by hand: resolution is name-based (docs/design.md, "The code graph"), so the only ground truth
for "does this call really call that definition" is a reader who follows the receiver's type.

    python bench/graph_bench.py prepare   # corpora + indexes (idempotent; ~2 min the first time)
    python bench/graph_bench.py draft     # writes the unjudged samples to bench/.cache/graph/*.md
    python bench/graph_bench.py draft2    # the second round (SEED_2, current resolver): sample_2_draft.md
    python bench/graph_bench.py second    # scores bench/edges_sample_2.md (prints the tables)
    python bench/graph_bench.py           # everything; writes docs/benchmarks.md (graph section)
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CACHE = HERE / ".cache" / "graph"
CORPORA = CACHE / "corpora"
INDEXES = CACHE / "index"
SAMPLE_FILE = HERE / "edges_sample.md"
DOC = REPO / "docs" / "benchmarks.md"
START, END = "<!-- graph:start -->", "<!-- graph:end -->"
FRAGMENTS = ("graph.md", "routing.md")  # the section is these two fragments, in this order

SEED = 20261129
#: The second hand-checked round (bench/edges_sample_2.md), drawn from the resolver after its fixes;
#: a new seed so the rows are fresh, and the first round stays reproducible with SEED.
SEED_2 = 20261206
SAMPLE_FILE_2 = HERE / "edges_sample_2.md"
SITES_PER_CORPUS_2 = 15
#: The commit of this repository whose `indexlib/` and `cli/` form the `qry-self` corpus.
QRY_COMMIT = "b641cd985b29219ede91b891bbc5b7fe54fbd97a"
STDLIB_PACKAGES = ("email", "json", "http")
CORPUS_NAMES = ("stdlib-ejh", "qry-self")
EDGES_PER_CORPUS = 30
SITES_PER_CORPUS = 22  # call sites drawn for recall; those whose callee is not in the corpus drop out
HUB_QUERIES_PER_CORPUS = 25
HUB_PERCENTILE = 95.0
NO_GUARD = 10**9
CODE_KINDS = frozenset({"function", "method", "class", "struct", "interface", "enum", "trait", "module"})


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------------
# Corpora and indexes


def corpus_dir(name: str) -> Path:
    return CORPORA / name


def index_dir(name: str) -> Path:
    return INDEXES / f"{name}-onnx"


def _stamp(name: str) -> dict[str, str]:
    if name == "stdlib-ejh":
        return {"name": name, "source": "CPython standard library: " + ", ".join(STDLIB_PACKAGES),
                "version": sys.version.split()[0]}
    return {"name": name, "source": "this repository: indexlib/ and cli/", "version": QRY_COMMIT[:12]}


def _copy_corpus(name: str, dest: Path) -> None:
    if name == "stdlib-ejh":
        stdlib = Path(sysconfig.get_paths()["stdlib"])
        for pkg in STDLIB_PACKAGES:
            shutil.copytree(stdlib / pkg, dest / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        return
    with tempfile.TemporaryDirectory() as tmp:
        tar = Path(tmp) / "src.tar"
        subprocess.run(["git", "-C", str(REPO), "archive", "-o", str(tar), QRY_COMMIT, "indexlib", "cli"],
                       check=True)
        with tarfile.open(tar) as tf:
            tf.extractall(dest, filter="data")


def prepare(names: tuple[str, ...] = CORPUS_NAMES) -> dict[str, dict[str, Any]]:
    """Copy each corpus (once per stamp) and index it with `qry index --embed onnx` (incremental)."""
    CORPORA.mkdir(parents=True, exist_ok=True)
    reports: dict[str, dict[str, Any]] = {}
    for name in names:
        dest, stamp_file = corpus_dir(name), CORPORA / f"{name}.json"
        want = _stamp(name)
        if not (dest.is_dir() and stamp_file.is_file() and json.loads(stamp_file.read_text()) == want):
            log(f"copying corpus {name}")
            shutil.rmtree(dest, ignore_errors=True)
            shutil.rmtree(index_dir(name), ignore_errors=True)
            dest.mkdir(parents=True)
            _copy_corpus(name, dest)
            stamp_file.write_text(json.dumps(want, indent=1, sort_keys=True))
        log(f"indexing {name} (onnx)")
        t0 = time.perf_counter()
        cmd = [sys.executable, "-m", "cli", "index", str(dest), "--index-dir", str(index_dir(name)),
               "--embed", "onnx", "--no-git-times", "--json", "--quiet"]
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0 and "on-disk format version" in proc.stderr:
            log(f"index of {name} is of an older format: rebuilding")
            proc = subprocess.run([*cmd, "--rebuild"], capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise SystemExit(f"qry index {name} failed:\n{proc.stderr}")
        report = json.loads(proc.stdout) if proc.stdout.strip().startswith("{") else {}
        report["wall_s"] = round(time.perf_counter() - t0, 1)
        reports[name] = report
    return reports


def open_engine(name: str) -> Any:
    return open_engine_at(index_dir(name))


def open_engine_at(directory: Path) -> Any:
    from indexlib import open_engine as _open

    return _open(directory)


# --------------------------------------------------------------------------------------------------
# Reading the corpus


@dataclass
class Corpus:
    """One opened index with everything the samples need: live nodes, definitions by name, source lines."""

    name: str
    engine: Any
    snap: Any
    nodes: list[Any]  # StoredNode, sorted by uid
    defs_by_name: dict[str, list[Any]]  # lower-case name -> definition StoredNodes
    root: Path
    _lines: dict[str, list[str]]

    @classmethod
    def open(cls, name: str) -> Corpus:
        from indexlib.records import DEFINITION_KINDS

        engine = open_engine(name)
        snap = engine.snapshot()
        nodes = sorted((s for _seg, s in snap.iter_live_nodes()), key=lambda s: s.node.uid)
        defs: dict[str, list[Any]] = {}
        for s in nodes:
            if s.node.kind in DEFINITION_KINDS and s.node.part == 0:
                defs.setdefault(s.node.name.lower(), []).append(s)
        return cls(name, engine, snap, nodes, defs, corpus_dir(name), {})

    def line(self, path: str, line: int) -> str:
        if path not in self._lines:
            self._lines[path] = (self.root / path).read_text(encoding="utf-8", errors="replace").splitlines()
        lines = self._lines[path]
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def where(self, uid: int) -> str:
        s = self.snap.node(uid)
        if s is None:
            return "?"
        return f"{s.node.path}:{s.node.start_line} `{s.node.qualified_name}` ({s.node.kind})"


def _code(text: str) -> str:
    """A source line for an inline-code table cell: no backticks, bounded."""
    return _cell(text.replace("`", "'"), 70)


def _cell(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.replace("|", "\\|")


# --------------------------------------------------------------------------------------------------
# Samples


@dataclass
class EdgeRow:
    """One sampled `calls` edge, with the other candidates of its call site when it is ambiguous."""

    key: str  # corpus/caller-uid/line/target-uid: how a verdict in edges_sample.md finds its row
    caller: str
    path: str
    line: int
    target_written: str
    call_text: str
    resolved: str
    ambiguous: bool
    others: list[str]


@dataclass
class SiteRow:
    """One sampled call site (a `calls` Ref) whose name has a definition in the corpus, for recall."""

    key: str  # corpus/caller-uid/line/target-as-written
    caller: str
    path: str
    line: int
    target_written: str
    call_text: str
    candidates: list[str]  # every definition with that name: "n. path:line `qname`"
    candidate_uids: list[int]
    resolved_uids: list[int]


def sample_edges(c: Corpus, n: int, seed: int = SEED) -> list[EdgeRow]:
    """Seeded: shuffle the live nodes, take one random resolved `calls` edge of each until n."""
    from indexlib.graph.view import SnapshotGraph

    view = SnapshotGraph(c.snap)
    rng = random.Random(f"{seed}-edges-{c.name}")
    order = [s for s in c.nodes if any(r.kind == "calls" for r in s.refs)]
    rng.shuffle(order)
    rows: list[EdgeRow] = []
    for s in order:
        if len(rows) >= n:
            break
        edges = view.edges(s.node.uid, ["calls"], "out")
        if not edges:
            continue
        e = rng.choice(edges)
        # The call site is the reference (not the line: a line may hold several calls).
        site_refs = [r for r in s.refs if r.kind == "calls" and r.line == e.line and e.dst in view.resolve(s, r)[0]]
        written = sorted({r.target for r in site_refs})
        others = sorted({u for r in site_refs for u in view.resolve(s, r)[0]} - {e.dst})
        rows.append(EdgeRow(
            key=f"{c.name}/{s.node.uid:016x}/{e.line}/{e.dst:016x}",
            caller=s.node.qualified_name or s.node.path,
            path=s.node.path,
            line=e.line,
            target_written=", ".join(written),
            call_text=c.line(s.node.path, e.line).strip(),
            resolved=c.where(e.dst),
            ambiguous=e.ambiguous,
            others=[c.where(u) for u in others],
        ))
    return rows


def sample_sites(c: Corpus, n: int, seed: int = SEED) -> list[SiteRow]:
    """Seeded: random `calls` references whose last name has at least one definition in the corpus."""
    from indexlib.graph.resolve import split_target as _split_target
    from indexlib.graph.view import SnapshotGraph

    view = SnapshotGraph(c.snap)
    rng = random.Random(f"{seed}-sites-{c.name}")
    refs = [(s, r) for s in c.nodes for r in s.refs if r.kind == "calls"
            and _split_target(r.target)[1].lower() in c.defs_by_name]
    refs.sort(key=lambda t: (t[0].node.uid, t[1].line, t[1].target))
    picked = rng.sample(refs, min(n, len(refs)))
    rows: list[SiteRow] = []
    for s, r in picked:
        cands = sorted(c.defs_by_name[_split_target(r.target)[1].lower()],
                       key=lambda d: (d.node.path, d.node.start_line))
        uids, _amb = view.resolve(s, r)
        rows.append(SiteRow(
            key=f"{c.name}/{s.node.uid:016x}/{r.line}/{r.target}",
            caller=s.node.qualified_name or s.node.path,
            path=s.node.path,
            line=r.line,
            target_written=r.target,
            call_text=c.line(s.node.path, r.line).strip(),
            candidates=[f"{i}. {d.node.path}:{d.node.start_line} `{d.node.qualified_name}`"
                        for i, d in enumerate(cands, 1)],
            candidate_uids=[d.node.uid for d in cands],
            resolved_uids=sorted(uids),
        ))
    return rows


EDGE_HEADER = ("| key | caller | line | call as written | resolved target | other candidates of the call | "
               "verdict | note |\n|---|---|---|---|---|---|---|---|")
SITE_HEADER = ("| key | caller | line | call as written | definitions with that name | edges to | verdict | note |\n"
               "|---|---|---|---|---|---|---|---|")


def edge_table_row(r: EdgeRow, verdict: str = "?", note: str = "") -> str:
    others = "; ".join(r.others[:4]) + (f"; … {len(r.others) - 4} more" if len(r.others) > 4 else "")
    return (f"| `{r.key}` | `{r.caller}` | {r.path}:{r.line} | `{_code(r.call_text)}` | "
            f"{_cell(r.resolved, 120)}{' **ambiguous**' if r.ambiguous else ''} | {_cell(others, 200) or '-'} | "
            f"{verdict} | {note} |")


def site_table_row(s: SiteRow, verdict: str = "?", note: str = "") -> str:
    cands = "; ".join(s.candidates[:5]) + (f"; … {len(s.candidates) - 5} more" if len(s.candidates) > 5 else "")
    got = [s.candidate_uids.index(u) + 1 for u in s.resolved_uids if u in s.candidate_uids]
    return (f"| `{s.key}` | `{s.caller}` | {s.path}:{s.line} | `{_code(s.call_text)}` | {_cell(cands, 260)} | "
            f"{', '.join(map(str, got)) or 'none'} | {verdict} | {note} |")


def write_drafts(corpora: list[Corpus], second: bool = False) -> None:
    """The samples as unjudged tables (verdict `?`), for a person to judge into bench/edges_sample.md
    (or, with `second`, the second round into bench/edges_sample_2.md)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    seed, n_sites, name = (SEED_2, SITES_PER_CORPUS_2, "sample_2_draft.md") if second else \
        (SEED, SITES_PER_CORPUS, "sample_draft.md")
    out = ["## Edges", "", EDGE_HEADER]
    for c in corpora:
        out += [edge_table_row(r) for r in sample_edges(c, EDGES_PER_CORPUS, seed)]
    out += ["", "## Call sites", "", SITE_HEADER]
    for c in corpora:
        out += [site_table_row(s) for s in sample_sites(c, n_sites, seed)]
    (CACHE / name).write_text("\n".join(out) + "\n")
    log(f"wrote {CACHE / name}")


# --------------------------------------------------------------------------------------------------
# Verdicts (bench/edges_sample.md)

EDGE_VERDICTS = ("correct", "wrong", "ambiguous-includes-right", "ambiguous-wrong")
_ROW = re.compile(r"^\|\s*`(?P<key>[^`]+)`\s*\|(?P<rest>.*)\|\s*$")


def read_verdicts(sample_file: Path = SAMPLE_FILE) -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str, str]]]:
    """Edge verdicts and call-site verdicts by key: (verdict, note). The key is the table's first column.

    Edge verdicts: correct / wrong / ambiguous-includes-right / ambiguous-wrong. Call-site verdicts:
    the number of the right candidate (as listed in the draft), or `external` when the callee is not
    defined in the corpus (a builtin, another library, a method of another type).
    """
    edges: dict[str, tuple[str, str]] = {}
    sites: dict[str, tuple[str, str]] = {}
    if not sample_file.is_file():
        return edges, sites
    table = ""
    for line in sample_file.read_text().splitlines():
        if line.startswith("## "):
            table = "edges" if "edge" in line.lower() else "sites" if "site" in line.lower() else ""
            continue
        m = _ROW.match(line)
        if not m or not table:
            continue
        cells = [x.strip() for x in re.split(r"(?<!\\)\|", m.group("rest"))]
        verdict, note = cells[-2].strip("* "), cells[-1]
        (edges if table == "edges" else sites)[m.group("key")] = (verdict, note)
    return edges, sites


def judge(corpora: list[Corpus], second: bool = False) -> dict[str, Any]:
    """Precision from the edge verdicts, recall from the call-site verdicts, against a fresh sample.

    `second`: the second round (SEED_2, bench/edges_sample_2.md) instead of the first."""
    seed, n_sites = (SEED_2, SITES_PER_CORPUS_2) if second else (SEED, SITES_PER_CORPUS)
    edge_v, site_v = read_verdicts(SAMPLE_FILE_2 if second else SAMPLE_FILE)
    edge_counts: dict[str, Counter[str]] = {}
    site_counts: dict[str, Counter[str]] = {}
    missing: list[str] = []
    for c in corpora:
        ec: Counter[str] = Counter()
        for r in sample_edges(c, EDGES_PER_CORPUS, seed):
            v = edge_v.get(r.key)
            if v is None or v[0] not in EDGE_VERDICTS:
                missing.append(r.key)
                continue
            ec[v[0]] += 1
            ec["ambiguous-flag" if r.ambiguous else "unambiguous-flag"] += 1
            if v[0] == "correct" and r.ambiguous:
                ec["correct-but-flagged-ambiguous"] += 1
        edge_counts[c.name] = ec
        sc: Counter[str] = Counter()
        for s in sample_sites(c, n_sites, seed):
            v = site_v.get(s.key)
            if v is None:
                missing.append(s.key)
                continue
            if v[0] == "external":
                sc["external"] += 1
                sc["external-with-edge"] += bool(s.resolved_uids)
                continue
            try:
                right = s.candidate_uids[int(v[0]) - 1]
            except (ValueError, IndexError):
                missing.append(s.key)
                continue
            sc["defined"] += 1
            if right in s.resolved_uids:
                sc["found-unique" if len(s.resolved_uids) == 1 else "found-ambiguous"] += 1
            else:
                sc["missed-with-other-edge" if s.resolved_uids else "missed-no-edge"] += 1
        site_counts[c.name] = sc
    return {"edges": edge_counts, "sites": site_counts, "missing": missing}


# --------------------------------------------------------------------------------------------------
# Automatic check: every `calls` reference sits on a call


def check_calls_are_calls(c: Corpus) -> dict[str, Any]:
    """For every `calls` Ref, is the written name followed by `(` at the ref's line (or the next one)?

    The ref's line is the line where the callee's name ends, so `name(` or `name\\n(` must be there;
    anything else (a decorator without parentheses, an annotation, an attribute read) is a mislabel.
    """
    from indexlib.graph.resolve import split_target as _split_target

    total, bad = 0, []
    for s in c.nodes:
        for r in s.refs:
            if r.kind != "calls":
                continue
            total += 1
            last = _split_target(r.target)[1]
            text = c.line(s.node.path, r.line) + "\n" + c.line(s.node.path, r.line + 1)
            if not re.search(rf"\b{re.escape(last)}\s*(\)\s*)?\(", text):
                bad.append(f"{s.node.path}:{r.line} `{r.target}`: {_cell(c.line(s.node.path, r.line), 80)}")
    return {"total": total, "bad": bad}


# --------------------------------------------------------------------------------------------------
# Minimal reproducers of the resolution faults the hand sample found


@dataclass(frozen=True)
class Repro:
    """A fixture of a few files, the caller to look at, and the `calls` edges it should have."""

    name: str
    files: dict[str, str]
    caller: str  # qualified name of the calling node in main.py
    expected: frozenset[str]  # "path:qualified_name" of the right targets; empty: no edge
    seen_in: str  # the sampled row that shows it


REPROS = (
    Repro("untyped receiver matches any method of that name",
          {"a.py": "class Header:\n    def append(self, s):\n        pass\n",
           "main.py": "def caller():\n    lines = []\n    lines.append(1)\n"},
          "caller", frozenset(), "`decoded_lines.append(...)` -> `Header.append`, which so gets 436 callers, nearly all `list.append`"),
    Repro("bare name resolves to a method",
          {"a.py": "class Morsel:\n    def set(self, k, v):\n        pass\n",
           "main.py": "def caller():\n    return set('ab')\n"},
          "caller", frozenset(), "`set('.\"(')` -> `Morsel.set`"),
    Repro("names match case-insensitively",
          {"a.py": "def path():\n    pass\n", "main.py": "def caller():\n    return Path('x')\n"},
          "caller", frozenset(), "`Path(dirpath, name)` -> `_ToAst.path`; `m.group(2)` -> class `Group`"),
    Repro("a module bound by an import but not indexed falls through to every name",
          {"a.py": "def run():\n    pass\n",
           "main.py": "import subprocess\n\n\ndef caller():\n    subprocess.run(['ls'])\n"},
          "caller", frozenset(), "`subprocess.run(...)`, `np.load(...)` -> every `run` / `load`"),
    Repro("super() takes a same-file method instead of the base class's",
          {"base.py": "class Base:\n    def close(self):\n        pass\n",
           "main.py": "from base import Base\n\n\nclass Other:\n    def close(self):\n        pass\n\n\n"
                      "class Child(Base):\n    def close(self):\n        super().close()\n"},
          "Child.close", frozenset({"base.py:Base.close"}), "`super().__repr__()` in `Terminal(str)` -> `TokenList.__repr__`"),
    Repro("an imported class's member loses to a same-file method of that name",
          {"mod.py": "class Klass:\n    @staticmethod\n    def make():\n        pass\n",
           "main.py": "from mod import Klass\n\n\nclass Local:\n    def make(self):\n        pass\n\n\n"
                      "def caller():\n    return Klass.make()\n"},
          "caller", frozenset({"mod.py:Klass.make"}), "`policy.clone(...)` in generator.py -> `Generator.clone`"),
    Repro("an inherited member is not found through the class",
          {"base.py": "class Base:\n    def __init__(self):\n        pass\n",
           "mid.py": "from base import Base\n\n\nclass Mid(Base):\n    pass\n",
           "other.py": "class Other:\n    def __init__(self):\n        pass\n",
           "main.py": "from mid import Mid\n\n\nclass Leaf(Mid):\n    def __init__(self):\n        Mid.__init__(self)\n"},
          "Leaf.__init__", frozenset({"base.py:Base.__init__"}),
          "`MIMENonMultipart.__init__(self, ...)` -> 12 of 49 `__init__`s, not `MIMEBase.__init__`"),
    Repro("a re-export is not followed and a nested closure of the same file wins",
          {"pkg/api.py": "def find(name):\n    pass\n", "pkg/__init__.py": "from pkg.api import find\n",
           "main.py": "from pkg import find\n\n\ndef server():\n    def find(name):\n        return name\n"
                      "    return find\n\n\ndef caller():\n    return find('x')\n"},
          "caller", frozenset({"pkg/api.py:find"}), "`resolve_symbol(...)` -> `build_server.resolve_symbol`"),
    Repro("a recursive call has no edge",
          {"main.py": "def fact(n):\n    return 1 if n < 2 else n * fact(n - 1)\n"},
          "fact", frozenset({"main.py:fact"}), "`self._parsegen()` in `_parsegen`, `_rust_use(...)` in `_rust_use`"),
    Repro("a string receiver holding a bracket is recorded as a call of its first word",
          {"a.py": "def expected():\n    pass\n",
           "main.py": "def caller(v):\n    return \"expected '(' but found {}\".format(v)\n"},
          "caller", frozenset(), "`\"expected '(' but found '{}'\".format(value)` has target `expected`"),
    Repro("a subscripted callee is recorded as a call of the container",
          {"a.py": "def handlers():\n    pass\n",
           "main.py": "HANDLERS = {}\n\n\ndef caller(k):\n    return HANDLERS[k]()\n"},
          "caller", frozenset(), "`_cte_decoders[cte](bstring)` has target `_cte_decoders`"),
)


def run_repros() -> list[tuple[Repro, list[str]]]:
    """Index each fixture (lexical only) and list the `calls` edges out of its caller."""
    from indexlib import BuildOptions, build_index
    from indexlib import open_engine as _open
    from indexlib.graph.view import SnapshotGraph

    results: list[tuple[Repro, list[str]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, case in enumerate(REPROS):
            root = Path(tmp) / f"case{i}"
            for rel, text in case.files.items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text)
            idx = Path(tmp) / f"idx{i}"
            build_index(root, BuildOptions(index_dir=idx, embed="none", git_times=False))
            snap = _open(idx).snapshot()
            view = SnapshotGraph(snap)
            callers = [s for _seg, s in snap.iter_live_nodes()
                       if s.node.path == "main.py" and s.node.qualified_name == case.caller]
            got: list[str] = []
            for s in callers:
                for e in view.edges(s.node.uid, ["calls"], "out"):
                    t = snap.node(e.dst)
                    if t is not None:
                        got.append(f"{t.node.path}:{t.node.qualified_name}" + (" (ambiguous)" if e.ambiguous else ""))
            results.append((case, sorted(got)))
    return results


def render_repros(results: list[tuple[Repro, list[str]]]) -> str:
    out = ["### Resolution faults, each with a minimal reproducer", "",
           "Each fixture is indexed with `--embed none`; the table lists the `calls` edges out of the caller "
           "(`python bench/graph_bench.py repro` prints the fixtures). The fixes are described in the "
           "benchmark report to the graph owner; graphview.py is not changed here.", "",
           "| fault | seen in the sample | caller | expected edges | edges now | reproduced |",
           "|---|---|---|---|---|---|"]
    for case, got in results:
        want = sorted(case.expected)
        plain = sorted(g.removesuffix(" (ambiguous)") for g in got)
        out.append(f"| {case.name} | {_cell(case.seen_in, 200)} | `{case.caller}` | "
                   f"{', '.join(f'`{w}`' for w in want) or 'none'} | {', '.join(f'`{g}`' for g in got) or 'none'} | "
                   f"{'yes' if plain != want else 'no (fixed)'} |")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------------------
# Hub contamination


def hub_queries(c: Corpus, n: int) -> list[str]:
    """Half identifiers (definition names), half short phrases (a name split into its words), seeded."""
    from indexlib.analyzer import split_identifier

    rng = random.Random(f"{SEED}-hubq-{c.name}")
    names = sorted({s.node.name for s in c.nodes if s.node.kind in ("function", "method", "class")
                    and len(s.node.name) >= 4 and not s.node.name.startswith("__")})
    idents = rng.sample(names, n // 2 + n % 2)
    multi = [nm for nm in names if nm not in idents and len(split_identifier(nm)) >= 2]
    phrases = [" ".join(w.lower() for w in split_identifier(nm)) for nm in rng.sample(multi, n // 2)]
    return idents + phrases


def hub_contamination(c: Corpus, queries: list[str]) -> dict[str, Any]:
    """Share of hubs (degree > p95 of code nodes) among diffusion's additions, with and without the guard."""
    from graphmetrics import degree_percentile, hub_contamination

    from indexlib.graph.diffuse import DIFFUSION_KINDS, diffuse, on_path
    from indexlib.graph.view import SnapshotGraph
    from indexlib.retrieval.search import SearchOptions

    view = SnapshotGraph(c.snap)
    population = [s.node.uid for s in c.nodes if s.node.kind in CODE_KINDS and s.node.part == 0]
    t0 = time.perf_counter()
    degrees = {u: view.degree(u, DIFFUSION_KINDS) for u in population}
    threshold = degree_percentile(view, population, percentile=HUB_PERCENTILE)
    log(f"{c.name}: degrees of {len(population)} nodes in {time.perf_counter() - t0:.1f}s, p95 {threshold}")
    rows: dict[str, list[float]] = {k: [] for k in (
        "search_context", "diffuse_guard", "diffuse_noguard", "diffuse_guard_p95", "onpath_noguard",
        "onpath_guard_p95")}
    added: Counter[str] = Counter()
    for q in queries:
        res = c.engine.search(q, SearchOptions(top_k=10, diffuse=True))
        ctx = [int(h.uid, 16) for h in res.results if h.context]
        fused = [int(h.uid, 16) for h in res.results if not h.context]
        added["search_context"] += len(ctx)
        added["search_context_hubs"] += sum(degrees.get(u, view.degree(u, DIFFUSION_KINDS)) > threshold
                                            for u in ctx)
        if ctx:
            rows["search_context"].append(hub_contamination(view, ctx, threshold=threshold, k=10))
        if len(fused) < 2:
            continue
        seeds = {u: 1.0 / (i + 1) for i, u in enumerate(fused)}
        for key, guard in (("diffuse_guard", 200), ("diffuse_noguard", NO_GUARD),
                           ("diffuse_guard_p95", max(int(threshold), 1))):
            ranked = [u for u, _s in diffuse(view, seeds, epsilon=1e-4, max_degree=guard)[:10]]
            if ranked:
                rows[key].append(hub_contamination(view, ranked, threshold=threshold, k=10))
                added[key] += len(ranked)
        for key, guard in (("onpath_noguard", NO_GUARD), ("onpath_guard_p95", max(int(threshold), 1))):
            ranked = [u for u, _s in on_path(view, seeds, epsilon=1e-4, max_degree=guard)]
            added[key] += len(ranked)
            if ranked:
                rows[key].append(hub_contamination(view, ranked, threshold=threshold, k=10))
    deg_values = sorted(degrees.values())
    top = sorted(degrees, key=lambda u: (-degrees[u], u))[:4]
    top_text = ", ".join(
        f"`{s.node.qualified_name}` {degrees[u]} ({len(view.edges(u, DIFFUSION_KINDS, 'in'))} in)"
        for u in top if (s := c.snap.node(u)) is not None
    )
    return {
        "threshold": threshold,
        "population": len(population),
        "max_degree": deg_values[-1] if deg_values else 0,
        "over_200": sum(d > 200 for d in deg_values),
        "top": top_text,
        "median_degree": statistics.median(deg_values) if deg_values else 0,
        "queries": len(queries),
        "rows": rows,
        "added": dict(added),
    }


# --------------------------------------------------------------------------------------------------
# Report


def load_avg() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def code_version() -> str:
    """The qry code that ran: HEAD, and any uncommitted change to indexlib/ or cli/ (others edit them live)."""
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True, check=False).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "indexlib", "cli"],
                           capture_output=True, text=True, check=False).stdout.split("\n")
    files = sorted(line[3:] for line in dirty if line.strip() and not line[3:].endswith(".pyc"))
    return f"qry {head}" + (f" with uncommitted changes to {', '.join(files)}" if files else "")


def _pct(a: int, b: int) -> str:
    return f"{a}/{b} = {a / b:.2f}" if b else "n/a"


def render(corpora: list[Corpus], judged: dict[str, Any], calls_check: dict[str, dict[str, Any]],
           hubs: dict[str, dict[str, Any]], repros: list[tuple[Repro, list[str]]], started: str,
           load_before: str) -> str:
    out = [
        "## Code graph: edge precision and recall, hub contamination (issues 3 and 4)",
        "",
        f"Generated by `python bench/graph_bench.py` on {started} UTC ({code_version()}); load average (1/5/15 min) "
        f"{load_before} before, {load_avg()} after, on 2 cores shared with other engineers. "
        "Corpora: " + "; ".join(
            f"**{c.name}** ({_stamp(c.name)['source']}, {_stamp(c.name)['version']}: "
            f"{len(c.snap.manifest.files)} files, {len(c.nodes)} nodes)" for c in corpora) + ". "
        "Verdicts are by reading the code: [bench/edges_sample.md](../bench/edges_sample.md).",
        "",
        "### Edge precision (sampled `calls` edges, checked by hand)",
        "",
        "A random resolved `calls` edge of each of 30 random caller nodes per corpus (seeded). "
        "*correct*: the call at that line really calls that definition; *wrong*: it does not; "
        "*ambiguous-includes-right*: the edge is one of several candidates the resolver kept for the "
        "call site (flagged `ambiguous`) and the right definition is among them; *ambiguous-wrong*: none is.",
        "",
        "| corpus | edges | correct | wrong | ambiguous incl. right | ambiguous, none right | precision (correct / all) | precision of unambiguous edges | flagged ambiguous |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    tot: Counter[str] = Counter()
    for name, ec in judged["edges"].items():
        tot.update(ec)
        out.append(_edge_row(name, ec))
    out.append(_edge_row("**both**", tot))
    out += [
        "",
        "### Edge recall (sampled call sites whose name has a definition in the corpus)",
        "",
        "Random `calls` references (seeded) whose called name is the name of some definition in the corpus; "
        "by reading, the callee is either one of those definitions (counted) or *external* (a builtin, the "
        "standard library outside the corpus, a method of another type: not counted for recall, but an edge "
        "produced for it is a false edge).",
        "",
        "| corpus | sites | callee external | of those, given a false edge | callee defined | edge to it, unique | edge to it, among ambiguous | missed (edge elsewhere) | missed (no edge) | recall |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    tot = Counter()
    for name, sc in judged["sites"].items():
        tot.update(sc)
        out.append(_site_row(name, sc))
    out.append(_site_row("**both**", tot))
    if judged["missing"]:
        out += ["", f"**{len(judged['missing'])} sampled rows have no verdict** (the sample changed since "
                "bench/edges_sample.md was checked; re-run `draft` and judge them): "
                + ", ".join(f"`{k}`" for k in judged["missing"][:8])]
    out += ["", "### Is every `calls` edge a call?", "",
            "Every `calls` reference of each corpus, checked automatically: the written name must be "
            "followed by `(` at the reference's line or the next (a decorator without parentheses, an "
            "annotation or an attribute read would fail this). None of the 60 sampled edges came from a "
            "non-call. The references that fail are all real calls whose callee is not a name: a subscript "
            "(`table[key](...)`, recorded as a call of `table`) or a string literal holding a bracket "
            "(`\"expected '(' ...\".format(v)`, recorded as a call of `expected`); see the reproducers below.",
            "", "| corpus | `calls` refs | written name not directly before `(` |", "|---|---:|---:|"]
    for name, cc in calls_check.items():
        out.append(f"| {name} | {cc['total']} | {len(cc['bad'])} |")
    bad = [b for cc in calls_check.values() for b in cc["bad"]][:6]
    if bad:
        out += ["", "Examples: " + "; ".join(_cell(b, 120) for b in bad)]
    out += ["", render_repros(repros).rstrip("\n")]
    out += [
        "",
        "### Hub contamination of diffusion",
        "",
        f"{HUB_QUERIES_PER_CORPUS} queries per corpus (half definition names, half names split into "
        "words; seeded). A hub is a node whose `calls`+`imports` degree is above the 95th percentile of "
        "the corpus's code nodes (`graph.degree_percentile`); the measure is `graph.hub_contamination` "
        "(share of hubs among the nodes looked at, top 10), averaged over the queries that added any node. "
        "Rows: the context nodes `qry search --diffuse` adds (`Hit.context`, on-path, hub guard "
        "degree > 200); `graph.diffuse` top 10 seeded by the fused top 10 (weights 1/rank, eps 1e-4, as "
        "the search seeds it) with the guard at 200 (the default), with no guard, and with the guard at "
        "the p95 degree; and `on_path` with no guard and with the guard at the p95 degree. Only context "
        "nodes are ever added after the fused hits; `diffuse` is shown for its ranking alone.",
        "",
        "| corpus | code nodes | median degree | p95 degree | max degree | nodes over 200 | highest degrees (in + out) |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for name, h in hubs.items():
        out.append(f"| {name} | {h['population']} | {h['median_degree']:g} | {h['threshold']:.1f} | "
                   f"{h['max_degree']} | {h['over_200']} | {h['top']} |")
    out += ["", "| corpus | what | queries adding nodes | nodes added | hub share (mean of per-query) |",
            "|---|---|---:|---:|---:|"]
    labels = {
        "search_context": "search context (`on_path`, guard 200)",
        "onpath_noguard": "`on_path`, no guard",
        "onpath_guard_p95": "`on_path`, guard at p95 degree",
        "diffuse_guard": "`diffuse` top 10, guard 200 (default)",
        "diffuse_noguard": "`diffuse` top 10, no guard",
        "diffuse_guard_p95": "`diffuse` top 10, guard at p95 degree",
    }
    for name, h in hubs.items():
        for key, label in labels.items():
            vals = h["rows"][key]
            mean = f"{statistics.fmean(vals):.3f}" if vals else "n/a"
            out.append(f"| {name} | {label} | {len(vals)}/{h['queries']} | {h['added'].get(key, 0)} | {mean} |")
    for name, h in hubs.items():
        n_ctx = h["added"].get("search_context", 0)
        out.append("")
        out.append(f"{name}: {h['added'].get('search_context_hubs', 0)} of the {n_ctx} search context "
                   "nodes are hubs.")
    out += ["", "Reproduce: `python bench/graph_bench.py` (prepares the corpora and indexes under "
            "`bench/.cache/graph/` first; `python bench/graph_bench.py draft` re-draws the samples to judge)."]
    return "\n".join(out) + "\n"


def render_second(judged: dict[str, Any]) -> str:
    """The precision and recall tables of the second hand-checked round (pasted into docs/benchmarks.md)."""
    out = ["| corpus | edges | correct | wrong | ambiguous incl. right | ambiguous, none right | "
           "precision (correct / all) | precision of unambiguous edges | flagged ambiguous |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    tot: Counter[str] = Counter()
    for name, ec in judged["edges"].items():
        tot.update(ec)
        out.append(_edge_row(name, ec))
    out += [_edge_row("**both**", tot), "",
            "| corpus | sites | callee external | of those, given a false edge | callee defined | edge to it, "
            "unique | edge to it, among ambiguous | missed (edge elsewhere) | missed (no edge) | recall |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    tot = Counter()
    for name, sc in judged["sites"].items():
        tot.update(sc)
        out.append(_site_row(name, sc))
    out.append(_site_row("**both**", tot))
    if judged["missing"]:
        out += ["", f"**{len(judged['missing'])} sampled rows have no verdict in bench/edges_sample_2.md**: "
                + ", ".join(f"`{k}`" for k in judged["missing"][:8])]
    return "\n".join(out) + "\n"


def _edge_row(name: str, ec: Counter[str]) -> str:
    n = sum(ec[v] for v in EDGE_VERDICTS)
    unamb = ec["unambiguous-flag"]
    unamb_ok = ec["correct"] - ec["correct-but-flagged-ambiguous"]
    return (f"| {name} | {n} | {ec['correct']} | {ec['wrong']} | {ec['ambiguous-includes-right']} | "
            f"{ec['ambiguous-wrong']} | {_pct(ec['correct'], n)} | {_pct(unamb_ok, unamb)} | {ec['ambiguous-flag']} |")


def _site_row(name: str, sc: Counter[str]) -> str:
    n = sc["external"] + sc["defined"]
    found = sc["found-unique"] + sc["found-ambiguous"]
    return (f"| {name} | {n} | {sc['external']} | {sc['external-with-edge']} | {sc['defined']} | "
            f"{sc['found-unique']} | {sc['found-ambiguous']} | {sc['missed-with-other-edge']} | "
            f"{sc['missed-no-edge']} | {_pct(found, sc['defined'])} |")


def write_section(fragment: str, text: str) -> None:
    """Store this script's fragment, then rebuild the graph section of docs/benchmarks.md from all fragments."""
    CACHE.mkdir(parents=True, exist_ok=True)
    (CACHE / fragment).write_text(text)
    body = "\n".join((CACHE / f).read_text() for f in FRAGMENTS if (CACHE / f).is_file())
    block = f"{START}\n{body}{END}"
    doc = DOC.read_text() if DOC.is_file() else "# Benchmarks\n"
    if START in doc and END in doc:
        before, rest = doc.split(START, 1)
        after = rest.split(END, 1)[1]
        doc = before + block + after
    else:
        doc = doc.rstrip("\n") + "\n\n" + block + "\n"
    DOC.write_text(doc)
    log(f"wrote the graph section of {DOC}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", nargs="?", default="all",
                    choices=("all", "prepare", "draft", "draft2", "second", "repro"))
    args = ap.parse_args(argv)
    if args.step == "repro":
        for case, got in run_repros():
            print(f"## {case.name}\n")
            for rel, text in case.files.items():
                print(f"{rel}:\n" + "".join(f"    {line}\n" for line in text.splitlines()))
            print(f"calls out of {case.caller}: expected {sorted(case.expected) or 'none'}, got {got or 'none'}\n")
        return 0
    started = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M")
    load_before = load_avg()
    prepare()
    if args.step == "prepare":
        return 0
    corpora = [Corpus.open(n) for n in CORPUS_NAMES]
    if args.step in ("draft", "draft2"):
        write_drafts(corpora, second=args.step == "draft2")
        return 0
    if args.step == "second":
        print(render_second(judge(corpora, second=True)))
        return 0
    judged = judge(corpora)
    calls_check = {c.name: check_calls_are_calls(c) for c in corpora}
    hubs = {c.name: hub_contamination(c, hub_queries(c, HUB_QUERIES_PER_CORPUS)) for c in corpora}
    text = render(corpora, judged, calls_check, hubs, run_repros(), started, load_before)
    write_section("graph.md", text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
