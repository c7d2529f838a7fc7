"""`qry grep --workspace W` next to `rg` over the same repository folders, whole processes, side by side.

Owns: the workspace grep benchmark. Each command is a fresh process (interpreter start and imports
count, as for a developer or an agent running one grep), its output read through a pipe (rg takes a
shortcut when stdout is /dev/null), and the commands alternate run by run, so load on the shared
machine hits all of them alike. rg is given every repository's folder, exactly the roots qry greps
from; qry leaves out what `qry index` leaves out (vendored folders, minified and oversized files),
so the matched-line counts are printed beside the times to show how far the two answers differ.

    python bench/grep_workspace.py --workspace dev [--runs 9]   # prints a markdown table

The workspace is read from the user's config (`qry workspace add`), or a qry.toml path.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from pathlib import Path

from index_bench import QRY, bench_env, load_avg, log, ms, ratio, table

#: (label, pattern): a selective literal, a selective regex, a common word, no usable trigram.
PATTERNS: tuple[tuple[str, str], ...] = (
    ("selective literal", "ParseError"),
    ("selective regex", r"fn (parse|get)_[a-z]+"),
    ("everywhere: return", "return"),
    ("no trigram: \\w+\\(", r"\w+\("),
)


def _rg() -> str:
    venv_rg = Path(QRY).parent / "rg"
    return str(venv_rg) if venv_rg.exists() else "rg"


def _time(argv: list[str]) -> tuple[float, int]:
    """(wall ms, output lines) of one whole process, its stdout through a pipe."""
    t0 = time.perf_counter()
    out = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False).stdout
    return (time.perf_counter() - t0) * 1000, out.count(b"\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workspace", required=True)
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    bench_env()
    from indexlib import Store, resolve_workspace

    ws = resolve_workspace(args.workspace)
    roots = [Store.open(m.index).load()[1].source_root for m in ws.members]
    rows = []
    for label, pattern in PATTERNS:
        commands = {
            "qry": [QRY, "grep", "--workspace", args.workspace, pattern],
            "qry --no-index": [QRY, "grep", "--no-index", "--workspace", args.workspace, pattern],
            "rg": [_rg(), "-n", pattern, *roots],
        }
        for argv in commands.values():  # warm the page cache, qry's walk caches and the bytecode
            _time(argv)
        times: dict[str, list[float]] = {name: [] for name in commands}
        lines: dict[str, int] = {}
        log(f"timing {label}")
        for _ in range(args.runs):
            for name, argv in commands.items():
                wall, n = _time(argv)
                times[name].append(wall)
                lines[name] = n
        med = {name: statistics.median(t) for name, t in times.items()}
        rows.append(
            [
                label,
                "`" + pattern.replace("|", "\\|") + "`",  # a bare | would end the table cell
                ms(med["qry"]),
                ms(med["qry --no-index"]),
                ms(med["rg"]),
                ratio(med["qry"], med["rg"]),
                f"{lines['qry']:,} / {lines['rg']:,}",
            ]
        )
    print(
        f"Workspace `{ws.name}`: {len(roots)} repositories ({', '.join(m.name for m in ws.members)}). "
        f"Load average {load_avg()}; medians of {args.runs} alternating runs, output to a pipe.\n"
    )
    print(
        table(
            [
                "pattern",
                "",
                "qry --workspace",
                "qry --no-index",
                "rg (same folders)",
                "qry / rg",
                "lines qry / rg",
            ],
            rows,
        )
    )


if __name__ == "__main__":
    main()
