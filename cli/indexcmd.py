"""The body of `qry index`: run the build with a progress bar on an interactive stderr, then summarise."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from cli.console import Env, Exit, guarded


def index_command(env: Env, path: Path, v: dict[str, Any]) -> int:
    return guarded(env, lambda: _run(env, path, v), json_out=bool(v.get("json")))


def summary_line(report: Any) -> str:
    """`indexed 1,834 files (12 changed, ...), 45,210 nodes, skipped 3 (binary 2) in 3.2 s -> root abc`."""
    parts = [f"indexed {report.files:,} files"]
    delta = []
    if report.added:
        delta.append(f"{report.added:,} new")
    if report.changed:
        delta.append(f"{report.changed:,} changed")
    if report.removed:
        delta.append(f"{report.removed:,} removed")
    parts.append(f" ({', '.join(delta) or 'no changes'})")
    parts.append(f", {report.nodes_total:,} nodes")
    skipped = sum(report.skipped.values())
    if skipped:
        top = ", ".join(f"{k} {n:,}" for k, n in sorted(report.skipped.items(), key=lambda kv: -kv[1]))
        parts.append(f", skipped {skipped:,} ({top})")
    if report.redacted:
        parts.append(f", {report.redacted} secrets redacted")
    if report.embedded or report.embed_cached:
        parts.append(f", vectors {report.embedded:,} embedded + {report.embed_cached:,} cached")
    if report.compacted:
        parts.append(", compacted")
    if getattr(report, "rebuilt_from_version", None) is not None:
        parts.append(f", rebuilt (the index was in the older format {report.rebuilt_from_version})")
    repaired = getattr(report, "repaired", None)
    if repaired:
        more = f" and {len(repaired) - 1} more" if len(repaired) > 1 else ""
        parts.append(f", rebuilt damaged index files from the source ({repaired[0]}{more})")
    parts.append(f" in {report.elapsed:.2f} s")
    parts.append(f" -> root {report.root_id[:12]}" + ("" if report.published else " (unchanged)"))
    return "".join(parts)


def _run(env: Env, path: Path, v: dict[str, Any]) -> int:
    import msgspec

    from cli.progress import progress_reporter
    from indexlib import BuildOptions, build_index

    opts = BuildOptions(
        # Same precedence as every other command: --index-dir, then $QRY_INDEX_DIR, then PATH/.qry.
        index_dir=v.get("index_dir")
        or (Path(os.environ["QRY_INDEX_DIR"]) if os.environ.get("QRY_INDEX_DIR") else None),
        embed=str(v.get("embed") or "onnx"),
        model_dir=v.get("model"),
        max_file_bytes=int(v.get("max_file_bytes") or (1 << 20)),
        include_vendored=bool(v.get("include_vendored")),
        redact=bool(v.get("redact", True)),
        git_times=bool(v.get("git_times", True)),
        rebuild=bool(v.get("rebuild")),
        wait=float(v.get("wait") or 0.0),
        threads=int(v.get("threads") or 1),
    )
    show = env.stderr_tty and not v.get("quiet") and not v.get("json")
    with progress_reporter(env, enabled=show) as progress:
        report = build_index(path, opts, progress=progress)
    if v.get("json"):
        data = msgspec.to_builtins(report.__dict__ if hasattr(report, "__dict__") else _as_dict(report))
        env.out(msgspec.json.encode(data).decode() + "\n")
    elif not v.get("quiet"):
        env.err(summary_line(report) + "\n")
    return Exit.OK


def _as_dict(report: Any) -> dict[str, Any]:
    out = {name: getattr(report, name) for name in report.__slots__}
    out["elapsed"] = report.elapsed
    return out
