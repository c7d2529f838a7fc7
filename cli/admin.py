"""Bodies of `qry status`, `roots`, `gc` and `verify`: library call, then a table or JSON."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from cli.console import Env, Exit, guarded
from cli.render import ROOT_ID_CHARS, plural, print_table, safe_line, timestamp, to_json

if TYPE_CHECKING:
    from indexlib import Status


def _lexical_only(embed: str | None) -> str:
    """Why an index has no vectors, when it was built without them: a plain `qry index` keeps that
    choice, so the default's vectors never come unless asked for."""
    return " (built with --embed none; qry index --embed onnx adds them)" if embed == "none" else ""


def _size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"


def status_command(
    env: Env,
    index_dir: Path | None,
    root: str | None,
    json: bool,
    workspace: str | None = None,
    *,
    skipped: bool = False,
) -> int:
    def run() -> int:
        from indexlib import index_status, resolve_index_dir

        if workspace is not None:
            return _status_workspace(env, workspace, index_dir, root, json)
        st = index_status(resolve_index_dir(index_dir), root=root)
        if skipped:
            return _list_skipped(env, st, json)
        if json:
            env.out(to_json(st) + "\n")
            return Exit.OK
        rows: list[list[object]] = [
            ["root", st.root[:ROOT_ID_CHARS]],
            ["published", timestamp(st.published_at)],
            ["source", st.source_root],
            ["git commit", (st.git_commit or "-")[:12] + (f" ({st.git_branch})" if st.git_branch else "")],
            [
                "files",
                f"{st.files:,}" + (f" ({st.generated_files:,} generated)" if st.generated_files else ""),
            ],
            ["nodes", f"{st.nodes:,}"],
            ["segments", f"{st.segments} ({plural(st.tombstones, 'tombstoned path')})"],
            ["languages", ", ".join(f"{k} {v:,}" for k, v in st.by_language.items())],
            ["kinds", ", ".join(f"{k} {v:,}" for k, v in st.by_kind.items())],
            ["skipped", ", ".join(f"{k} {v:,}" for k, v in st.skipped.items()) or "-"],
            ["vectors", f"{st.vectors:,}" + (f" ({st.model})" if st.model else _lexical_only(st.embed))],
            ["times from", st.times_from],
            ["size", _size(st.size_bytes)],
            ["roots", st.roots],
            [
                "changed on disk",
                f"{st.changes.count} (modified {len(st.changes.modified)}, "
                f"new {len(st.changes.added)}, deleted {len(st.changes.deleted)})",
            ],
        ]
        if st.vectors_progress:
            rows.insert(
                next(i for i, r in enumerate(rows) if r[0] == "vectors") + 1,
                ["vectors progress", st.vectors_progress],
            )
        print_table(env, "qry status", ["what", "value"], rows)
        stale = st.changes.modified + st.changes.added + st.changes.deleted
        if stale:
            env.err(
                f"qry: {plural(len(stale), 'file')} changed since this root; run `qry index` to refresh\n"
            )
            for p in st.changes.modified[:20]:
                env.err(f"  modified {safe_line(p)}\n")
            for p in st.changes.added[:20]:
                env.err(f"  new      {safe_line(p)}\n")
            for p in st.changes.deleted[:20]:
                env.err(f"  deleted  {safe_line(p)}\n")
        return Exit.OK

    return guarded(env, run, json_out=json)


def roots_command(env: Env, index_dir: Path | None, json: bool) -> int:
    def run() -> int:
        from indexlib import Store, resolve_index_dir

        roots = Store.open(resolve_index_dir(index_dir)).roots()
        if json:
            env.out(to_json(roots) + "\n")
            return Exit.OK
        rows = [
            [
                ("* " if r.is_head else "  ") + r.id[:ROOT_ID_CHARS],
                timestamp(r.created_at),
                (r.git_commit or "-")[:12],
                r.segments,
                r.files,
                r.nodes,
            ]
            for r in roots
        ]
        print_table(env, "publish roots", ["root", "published", "commit", "segments", "files", "nodes"], rows)
        return Exit.OK

    return guarded(env, run, json_out=json)


def gc_command(
    env: Env, index_dir: Path | None, keep: int, wait: float, json: bool, workspace: str | None = None
) -> int:
    def run() -> int:
        from indexlib import Store, UsageError, resolve_index_dir

        if keep < 1:
            raise UsageError("--keep must be at least 1", hint="HEAD is always kept; e.g. --keep 5")
        if workspace is not None:
            return _gc_workspace(env, workspace, index_dir, keep, wait, json)
        report = Store.open(resolve_index_dir(index_dir)).gc(keep=keep, wait=wait)
        if json:
            env.out(to_json(report) + "\n")
        else:
            env.err(_gc_line(report) + "\n")
        return Exit.OK

    return guarded(env, run, json_out=json)


def _gc_line(report: Any) -> str:
    return (
        f"removed {plural(len(report.removed_roots), 'root')}, "
        f"{plural(len(report.removed_segments), 'segment')}, "
        f"{plural(len(report.removed_attachments), 'vector set')}, "
        f"{plural(len(report.removed_tmp), 'staging entry', 'staging entries')}; "
        f"freed {_size(report.bytes_freed)}"
    )


def _members(workspace: str, index_dir: Path | None, root: str | None) -> list[Any]:
    from cli.wscmd import refuse_one_index_flags
    from indexlib import resolve_workspace

    refuse_one_index_flags(index_dir, root)
    return list(resolve_workspace(workspace).members)


def _status_workspace(env: Env, workspace: str, index_dir: Path | None, root: str | None, json: bool) -> int:
    """One row per index; one that cannot be read is named on stderr (exit 2), the others still answer."""
    from indexlib import QryError, index_status

    repos: list[dict[str, Any]] = []
    for m in _members(workspace, index_dir, root):
        try:
            repos.append(
                {"repo": m.name, "index": str(m.index), "status": index_status(m.index), "error": None}
            )
        except QryError as exc:
            repos.append({"repo": m.name, "index": str(m.index), "status": None, "error": exc.message})
    bad = [r for r in repos if r["error"] is not None]
    if json:
        env.out(to_json({"ok": not bad, "repos": repos}) + "\n")
        return Exit.ERROR if bad else Exit.OK
    rows = [
        [
            r["repo"],
            st.root[:ROOT_ID_CHARS],
            timestamp(st.published_at),
            f"{st.files:,}",
            f"{st.nodes:,}",
            f"{st.vectors:,}",
            st.changes.count,
            _size(st.size_bytes),
        ]
        for r in repos
        if (st := r["status"]) is not None
    ]
    head = ["repo", "root", "published", "files", "nodes", "vectors", "changed", "size"]
    print_table(env, f"workspace {workspace}", head, rows)
    for r in bad:
        env.err(f"qry: {r['repo']}: {r['error']}\n")
    if bad:
        env.err(f"  hint: {_build_hint(workspace, [r['repo'] for r in bad])}\n")
    return Exit.ERROR if bad else Exit.OK


def _build_hint(workspace: str, repos: list[str], *, rebuild: bool = False) -> str:
    """The one command that builds every index named (`--repo '^(a|b)$'`): a hint naming only the
    first sent the user round again for each of the others. A label's `.` is escaped, as `--repo`
    reads a regular expression."""
    labels = [r.replace(".", "\\.") for r in repos]
    pattern = labels[0] if len(labels) == 1 else f"({'|'.join(labels)})"
    flag = " --rebuild" if rebuild else ""
    command = f"qry index --workspace {shlex.quote(workspace)}{flag} --repo '^{pattern}$'"
    return f"{'rebuild' if rebuild else 'build'} {'it' if len(repos) == 1 else 'them'}: {command}"


def _gc_workspace(
    env: Env, workspace: str, index_dir: Path | None, keep: int, wait: float, json: bool
) -> int:
    """`gc` on each index in turn; one that cannot be collected is named (exit 2), the rest go on."""
    from indexlib import QryError, Store

    repos: list[dict[str, Any]] = []
    for m in _members(workspace, index_dir, None):
        try:
            repos.append(
                {"repo": m.name, "report": Store.open(m.index).gc(keep=keep, wait=wait), "error": None}
            )
        except QryError as exc:
            repos.append({"repo": m.name, "report": None, "error": exc.message})
    bad = [r for r in repos if r["error"] is not None]
    if json:
        env.out(to_json({"ok": not bad, "repos": repos}) + "\n")
    else:
        for r in repos:
            env.err(
                f"{r['repo']}: "
                + (_gc_line(r["report"]) if r["error"] is None else f"error: {r['error']}")
                + "\n"
            )
    return Exit.ERROR if bad else Exit.OK


def verify_command(
    env: Env, index_dir: Path | None, root: str | None, json: bool, workspace: str | None = None
) -> int:
    def run() -> int:
        from indexlib import resolve_index_dir, verify_index

        if workspace is not None:
            return _verify_workspace(env, workspace, index_dir, root, json)
        problems = verify_index(resolve_index_dir(index_dir), root)
        if json:
            env.out(to_json({"ok": not problems, "problems": msgspec.to_builtins(problems)}) + "\n")
        elif problems:
            for p in problems:
                env.err(f"qry: {p.kind}: {p.path}: {p.detail}\n")
            if all(p.path.startswith("cache/") for p in problems):
                env.err("  hint: damaged cache entries are embedded again by the next qry index\n")
            else:
                env.err("  hint: rebuild the index: qry index --rebuild\n")
        else:
            env.err("ok: every file matches its checksum\n")
        return Exit.ERROR if problems else Exit.OK

    return guarded(env, run, json_out=json)


def _verify_workspace(env: Env, workspace: str, index_dir: Path | None, root: str | None, json: bool) -> int:
    """Each index of the workspace checked in turn; exit 2 if any has a problem or cannot be read."""
    from cli.wscmd import refuse_one_index_flags
    from indexlib import resolve_workspace, verify_member

    refuse_one_index_flags(index_dir, root)
    checks = [verify_member(m) for m in resolve_workspace(workspace).members]
    bad = [c for c in checks if not c.ok]
    if json:
        env.out(to_json({"ok": not bad, "repos": msgspec.to_builtins(checks)}) + "\n")
        return Exit.ERROR if bad else Exit.OK
    for c in checks:
        if c.error is not None:
            env.err(f"qry: {c.repo}: {c.error}\n")
        for p in c.problems:
            env.err(f"qry: {c.repo}: {p.kind}: {p.path}: {p.detail}\n")
        if c.ok:
            env.err(f"ok: {c.repo}: every file matches its checksum\n")
    if bad:
        env.err(f"  hint: {_build_hint(workspace, [c.repo for c in bad], rebuild=True)}\n")
    return Exit.ERROR if bad else Exit.OK


def _list_skipped(env: Env, st: Status, json: bool) -> int:
    """`qry status --skipped`: one `path<TAB>reason<TAB>detail` line per file left out (a table on a
    terminal, a JSON list with --json), and on stderr how many more the root counts than it lists."""
    files = st.skipped_files
    if json:
        env.out(to_json(files) + "\n")
    elif env.stdout_tty:
        rows: list[list[object]] = [[f.path, f.reason, f.detail] for f in files]
        print_table(env, "skipped files", ["path", "reason", "detail"], rows)
    else:
        env.out("".join(f"{safe_line(f.path)}\t{f.reason}\t{safe_line(f.detail)}\n" for f in files))
    more = sum(st.skipped.values()) - len(files)
    if more > 0:
        env.err(
            f"qry: {plural(more, 'more skipped file')} not listed (an index lists the first {len(files):,})\n"
        )
    return Exit.OK
