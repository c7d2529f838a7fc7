"""The body of `qry index`: run the build with a progress bar on an interactive stderr, then summarise;
and its Typer-free fast path (the option table is `cli/indexopts.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cli.console import Env, Exit, guarded
from cli.render import ROOT_ID_CHARS, plural


def index_command(env: Env, path: Path | None, v: dict[str, Any]) -> int:
    return guarded(env, lambda: _run(env, path, v), json_out=bool(v.get("json")))


def try_fast_index(argv: Sequence[str]) -> int | None:
    """Run `qry index [PATH] [options]` without Typer when the line parses; None sends it to Typer
    (which then prints help, or says what is wrong)."""
    if not argv or argv[0] != "index" or any(a in ("--help", "-h") for a in argv):
        return None
    from cli.flagparse import parse_flags
    from cli.indexopts import INDEX_OPTIONS

    parsed = parse_flags(argv[1:], INDEX_OPTIONS)
    if parsed is None or len(parsed[0]) > 1:
        return None
    paths, values = parsed
    if values["index_dir"] is not None:
        values["index_dir"] = Path(values["index_dir"])
    env = Env(color=False) if values["no_color"] else Env()
    return index_command(env, Path(paths[0]) if paths else None, values)


def _source_and_index(env: Env, path: Path | None, explicit: Path | None) -> tuple[Path, Path | None]:
    """What to index and where, following git: without PATH, inside an indexed repository, the whole
    repository (not a new index that would shadow it); a new index nested in another is said aloud."""
    from indexlib import IndexNotFound, default_index_dir, resolve_index_dir

    try:
        # The same precedence as every other command: --index-dir, then $QRY_INDEX_DIR, then PATH/.qry.
        return path or Path("."), resolve_index_dir(explicit, walk=False)
    except IndexNotFound:
        pass
    try:
        enclosing: Path | None = resolve_index_dir(None, start=path or Path("."))
    except IndexNotFound:
        enclosing = None
    if path is None:
        if enclosing is not None and enclosing.parent.resolve() != Path.cwd().resolve():
            env.err(
                f"qry: note: indexing {enclosing.parent}, the indexed folder around this one (pass a PATH to index only that)\n"
            )
            return enclosing.parent, None
        return Path("."), None
    own = default_index_dir(path).resolve()
    if enclosing is not None and enclosing.resolve() != own and not (own / "HEAD").exists():
        env.err(
            f"qry: note: creating a new index {own} inside the index at {enclosing}; "
            f"searches under {path.resolve()} will use it (run qry index with no PATH to update the outer one)\n"
        )
    return path, None


def summary_line(report: Any) -> str:
    """`indexed 1,834 files (12 changed, ...), 45,210 nodes, skipped 3 (binary 2) in 3.2 s -> root abc`."""
    parts = [f"indexed {plural(report.files, 'file')}"]
    delta = []
    if report.added:
        delta.append(f"{report.added:,} new")
    if report.changed:
        delta.append(f"{report.changed:,} changed")
    if report.removed:
        delta.append(f"{report.removed:,} removed")
    if not delta and report.touched:
        delta.append(f"{report.touched:,} touched, content unchanged")
    parts.append(f" ({', '.join(delta) or ('no file changes' if report.published else 'no changes')})")
    parts.append(f", {plural(report.nodes_total, 'node')}")
    skipped = sum(report.skipped.values())
    if skipped:
        top = ", ".join(f"{k} {n:,}" for k, n in sorted(report.skipped.items(), key=lambda kv: -kv[1]))
        parts.append(f", skipped {skipped:,} ({top})")
    if report.redacted:
        parts.append(f", {plural(report.redacted, 'secret')} redacted")
    if report.embedded or report.embed_cached:
        parts.append(f", vectors {report.embedded:,} embedded + {report.embed_cached:,} cached")
        if report.embed_skipped:
            parts.append(
                f" ({plural(report.embed_skipped, 'trivial node needs', 'trivial nodes need')} none)"
            )
    if report.compacted:
        parts.append(", compacted")
    if getattr(report, "reparsed", False):
        parts.append(", every file parsed again (this qry reads them differently)")
    if getattr(report, "rebuilt_from_version", None) is not None:
        parts.append(f", rebuilt (the index was in the older format {report.rebuilt_from_version})")
    repaired = getattr(report, "repaired", None)
    if repaired:
        more = f" and {len(repaired) - 1} more" if len(repaired) > 1 else ""
        parts.append(f", rebuilt damaged index files from the source ({repaired[0]}{more})")
    if getattr(report, "trimmed_roots", 0):
        from indexlib import AUTO_KEEP_RUNS

        kept = f"the last {AUTO_KEEP_RUNS} runs are kept"
        parts.append(
            f", {plural(report.trimmed_roots, 'old root')} removed ({kept}; qry gc --keep N keeps fewer)"
        )
    parts.append(f" in {report.elapsed:.2f} s")
    parts.append(f" -> root {report.root_id[:ROOT_ID_CHARS]}" + ("" if report.published else " (unchanged)"))
    if getattr(report, "background_pid", 0):
        parts.append(
            f"; vectors follow in the background (pid {report.background_pid}; qry status shows progress)"
        )
    return "".join(parts)


def _options(v: dict[str, Any], index_dir: Path | None) -> Any:
    """The build options. Both parsers (the Typer command and the fast path) give every option of
    cli/indexopts.py, defaults included, so the values are read as they are."""
    from indexlib import BuildOptions

    return BuildOptions(
        index_dir=index_dir,
        embed=v["embed"],
        model_dir=v["model"],
        max_file_bytes=int(v["max_file_bytes"]),
        include_vendored=bool(v["include_vendored"]),
        redact=bool(v["redact"]),
        git_times=bool(v["git_times"]),
        rebuild=bool(v["rebuild"]),
        wait=float(v["wait"]),
        threads=int(v["threads"]),
        shared_cache=bool(v["shared_cache"]),
        background=bool(v["background"]),
    )


def _run(env: Env, path: Path | None, v: dict[str, Any]) -> int:
    import msgspec

    from cli.progress import progress_reporter
    from indexlib import UsageError, build_index, check_source_root

    if v.get("workspace") is not None:
        return _run_workspace(env, path, v)
    if v.get("repo"):
        raise UsageError(
            "--repo chooses among a workspace's repositories", hint="qry index --workspace W --repo NAME"
        )
    if path is not None:
        check_source_root(path)  # before any note about where the index goes
    path, index_dir = _source_and_index(env, path, v.get("index_dir"))
    opts = _options(v, index_dir)
    show = env.stderr_tty and not v.get("quiet") and not v.get("json")
    with progress_reporter(env, enabled=show) as progress:
        if v.get("cluster"):
            from indexlib import cluster_build

            report = cluster_build(path, str(v["cluster"]), opts, progress=progress)
        else:
            report = build_index(path, opts, progress=progress)
    if v.get("json"):
        env.out(msgspec.json.encode(report.to_builtins()).decode() + "\n")
    elif not v.get("quiet"):
        env.err(summary_line(report) + "\n")
    for note in getattr(report, "notes", []):
        env.err(f"qry: note: {note}\n")
    return Exit.OK


def _run_workspace(env: Env, path: Path | None, v: dict[str, Any]) -> int:
    """`qry index --workspace W`: each repository in turn, a summary line each (`repo: indexed ...`)."""
    import msgspec

    from cli.progress import progress_reporter
    from indexlib import UsageError, build_members, resolve_workspace

    if path is not None or v.get("index_dir") or v.get("cluster") or v.get("background"):
        raise UsageError(
            "--workspace updates the indexes the workspace names, from their own folders",
            hint="leave out PATH, --index-dir, --cluster and --background (or index one repository)",
        )
    ws = resolve_workspace(str(v["workspace"]))
    show = env.stderr_tty and not v.get("quiet") and not v.get("json")

    with progress_reporter(env, enabled=show) as progress:

        def said(d: Any) -> None:  # as each build ends: a Ctrl-C later keeps what was built on screen
            if d.error is not None:
                progress.say(f"qry: {d.repo}: {d.error}")
            elif not v.get("quiet") and not v.get("json") and d.report is not None:
                progress.say(f"{d.repo}: {summary_line(d.report)}")

        done = build_members(
            ws.name,
            ws.members,
            _options(v, None),
            repos=list(v.get("repo") or []),
            progress=progress,
            on_done=said,
        )
    if v.get("json"):  # each report as `qry index --json` prints it (with `elapsed`)
        records = [msgspec.structs.asdict(d) | {"report": d.report and d.report.to_builtins()} for d in done]
        env.out(msgspec.json.encode(records).decode() + "\n")
    return Exit.ERROR if any(d.error is not None for d in done) else Exit.OK
