"""The `qry` command: a thin Typer app over `indexlib`'s public API.

Owns: command names, options and help text, and nothing else: each command body turns options into a
library call and hands the result to `cli/render.py`. The console entry point is `cli/entry.py`, which
sends a plain `qry search` through the argparse fast path (cli/fastpath.py) and everything else here.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer
import typer.main

from cli.console import Env, Exit, guarded
from cli.options import OPTION_BY_DEST as O

app = typer.Typer(
    name="qry",
    help="Local hybrid code search: BM25, dense vectors, symbols and the call graph.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _opt(dest: str) -> Any:
    o = O[dest]
    flags = list(o.flags)
    if o.negatable:
        flags = [f"{flags[0]}/--no-{flags[0][2:]}", *flags[1:]]
    return typer.Option(o.default, *flags, help=o.help, show_default=o.default not in (None, False))


def _exit(code: int) -> None:
    raise typer.Exit(int(code))


@app.command("search")
def search_cmd(
    query: list[str] = typer.Argument(
        ...,
        help='What to look for: ParseConfig, "func (s *Server) Handle", or a question (several words are one query).',
    ),
    top_k: int = _opt("top_k"),
    mode: str = _opt("mode"),
    lang: list[str] | None = _opt("lang"),
    path: list[str] | None = _opt("path"),
    exclude: list[str] | None = _opt("exclude"),
    kind: list[str] | None = _opt("kind"),
    json: bool = _opt("json"),
    jsonl: bool = _opt("jsonl"),
    snippet_chars: int = _opt("snippet_chars"),
    explain: bool = _opt("explain"),
    graph: bool | None = _opt("graph"),
    graph_depth: int = _opt("graph_depth"),
    diffuse: bool = _opt("diffuse"),
    rrf_k: int = _opt("rrf_k"),
    budget_tokens: int | None = _opt("budget_tokens"),
    since: str | None = _opt("since"),
    until: str | None = _opt("until"),
    as_of: str | None = _opt("as_of"),
    recency: bool = _opt("recency"),
    root: str | None = _opt("root"),
    model: str | None = _opt("model"),
    index_dir: str | None = _opt("index_dir"),
    no_color: bool = _opt("no_color"),
) -> None:
    """Search the index. Query syntax: words, "exact phrase", prefix*, lang:go, path:'src/**', kind:function,
    -path:tests/**. Exit status: 0 results, 1 none, 2 error."""
    from cli.searchcmd import search_command

    values = dict(locals())
    values.pop("query")
    _exit(search_command(Env(), " ".join(query), values))


@app.command("index")
def index_cmd(
    path: Path = typer.Argument(Path("."), help="The repository (folder) to index."),
    index_dir: Path | None = typer.Option(
        None, "--index-dir", help="Where the index lives (default PATH/.qry)."
    ),
    embed: str = typer.Option(
        "onnx", "--embed", help="onnx: compute dense vectors; none: lexical, symbol and graph only."
    ),
    model: str | None = typer.Option(None, "--model", help="Folder with model.onnx + tokenizer.json."),
    rebuild: bool = typer.Option(
        False, "--rebuild", help="Ignore the previous root and index everything again."
    ),
    wait: float = typer.Option(0.0, "--wait", help="Wait up to SECONDS for another qry index to finish."),
    redact: bool = typer.Option(
        True, "--redact/--no-redact", help="Redact secrets before anything is stored."
    ),
    git_times: bool = typer.Option(True, "--git-times/--no-git-times", help="Take node times from git."),
    include_vendored: bool = typer.Option(
        False, "--include-vendored", help="Also index node_modules, vendor, ..."
    ),
    max_file_bytes: int = typer.Option(1 << 20, "--max-file-bytes", help="Skip files larger than this."),
    threads: int = typer.Option(
        0, "--threads", help="Threads for the embedding model (0: every available core)."
    ),
    shared_cache: bool = typer.Option(
        True,
        "--shared-cache/--no-shared-cache",
        help="Reuse and add to the user-level vector cache (~/.cache/qry/shared).",
    ),
    background: bool = typer.Option(
        False, "--background", help="Return after the lexical root; vectors finish in a detached worker."
    ),
    json: bool = typer.Option(False, "--json", help="Print the build report as JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar and no summary."),
) -> None:
    """Build or update the index of PATH (incremental: only changed files are parsed and embedded)."""
    from cli.indexcmd import index_command

    _exit(index_command(Env(), path, dict(locals())))


@app.command("status")
def status_cmd(
    index_dir: Path | None = typer.Option(None, "--index-dir", help="The index directory."),
    root: str | None = typer.Option(None, "--root", help="A publish root other than HEAD."),
    json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Show the current root: counts by language and kind, skips, size, and files changed since."""
    from cli.admin import status_command

    _exit(status_command(Env(), index_dir, root, json))


@app.command("roots")
def roots_cmd(
    index_dir: Path | None = typer.Option(None, "--index-dir", help="The index directory."),
    json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """List publish roots (the index's history), newest first."""
    from cli.admin import roots_command

    _exit(roots_command(Env(), index_dir, json))


@app.command("gc")
def gc_cmd(
    keep: int = typer.Option(5, "--keep", help="How many recent roots to keep (HEAD is always kept)."),
    index_dir: Path | None = typer.Option(None, "--index-dir", help="The index directory."),
    wait: float = typer.Option(0.0, "--wait", help="Wait up to SECONDS for a running qry index."),
    json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Delete old roots, unreferenced segments and leftover staging files."""
    from cli.admin import gc_command

    _exit(gc_command(Env(), index_dir, keep, wait, json))


@app.command("verify")
def verify_cmd(
    index_dir: Path | None = typer.Option(None, "--index-dir", help="The index directory."),
    root: str | None = typer.Option(None, "--root", help="A publish root other than HEAD."),
    json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Check every file of the root against its checksum. Exit 0 if all match, 2 if not."""
    from cli.admin import verify_command

    _exit(verify_command(Env(), index_dir, root, json))


@app.command("related")
def related_cmd(
    symbol: str = typer.Argument(..., help="A name, a qualified name (Server.handle) or a uid."),
    callers: bool = typer.Option(False, "--callers", help="Only callers."),
    callees: bool = typer.Option(False, "--callees", help="Only callees."),
    depth: int = typer.Option(1, "--depth", help="How far to walk (1-4)."),
    index_dir: Path | None = typer.Option(None, "--index-dir", help="The index directory."),
    root: str | None = typer.Option(None, "--root", help="A publish root other than HEAD."),
    json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Show who calls a symbol, what it calls, and its container."""
    from cli.graphcmd import related_command

    _exit(related_command(Env(), symbol, callers, callees, depth, index_dir, root, json))


@app.command("graph")
def graph_cmd(
    query: str = typer.Argument(..., help="MATCH ... RETURN ... (a bounded, read-only openCypher subset)."),
    param: list[str] | None = typer.Option(None, "--param", help="NAME=VALUE, bound to $NAME (repeatable)."),
    index_dir: Path | None = typer.Option(None, "--index-dir", help="The index directory."),
    root: str | None = typer.Option(None, "--root", help="A publish root other than HEAD."),
    json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Query the code graph. Read-only; labels from a closed vocabulary; depth <= 4; LIMIT <= 1000; 250 ms."""
    from cli.graphcmd import graph_command

    _exit(graph_command(Env(), query, param or [], index_dir, root, json))


@app.command("mcp")
def mcp_cmd(
    index_dir: Path | None = typer.Option(None, "--index-dir", help="The index directory."),
) -> None:
    """Serve qry to coding agents over the Model Context Protocol (stdio). Needs `pip install qry[mcp]`."""
    from cli.mcp_server import serve

    env = Env()
    _exit(guarded(env, lambda: serve(index_dir)))


def main(argv: list[str] | None = None) -> None:
    """Run the Typer app (every command line the fast path does not take).

    Click's own usage errors (an unknown option, a bad number, a missing argument) are turned into
    qry's error contract like every other error: `qry: error:` + a hint on stderr, exit 2, and an
    error object on stdout when `--json` was asked for.
    """
    from typer._click.exceptions import ClickException, NoArgsIsHelpError

    args = sys.argv[1:] if argv is None else argv
    command = typer.main.get_command(app)
    try:
        code = command.main(args, prog_name="qry", standalone_mode=False)
    except typer.Exit as exc:
        code = exc.exit_code
    except typer.Abort:
        sys.stderr.write("qry: interrupted\n")
        code = Exit.INTERRUPTED
    except NoArgsIsHelpError as exc:  # `qry` alone: the help text on stderr and status 2, as Click does
        sys.stderr.write(exc.ctx.get_help() + "\n" if exc.ctx else "")
        code = Exit.ERROR
    except ClickException as exc:
        from cli.console import report_error
        from indexlib.errors import UsageError

        sub = next((a for a in args if not a.startswith("-")), "")
        hint = f"see: qry {sub} --help" if sub in getattr(command, "commands", {}) else "see: qry --help"
        code = report_error(Env(), UsageError(exc.format_message(), hint=hint), json_out="--json" in args)
    raise SystemExit(code if isinstance(code, int) else Exit.OK)


if __name__ == "__main__":  # pragma: no cover
    main()
