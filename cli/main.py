"""The `qry` command: a thin Typer app over `indexlib`'s public API.

Owns: command names, options and help text, and nothing else: each command body turns options into a
library call and hands the result to `cli/render.py`. The console entry point is `cli/entry.py`, which
sends a plain `qry search` through the argparse fast path (cli/fastpath.py) and everything else here.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import typer
import typer.core
import typer.main

from cli.console import Env, Exit, guarded
from cli.options import OPTION_BY_DEST as O
from cli.options import Opt
from cli.optspec import repo_option
from indexlib import KEEP_RUNS, ROUTE_DEFAULT_LIMIT, ROUTE_LIMIT_MAX, SEARCH_BOUNDS

_RELATED_DEPTH = SEARCH_BOUNDS.related_depth
_RELATED_ROWS = SEARCH_BOUNDS.related_limit

app = typer.Typer(
    name="qry",
    help="Local hybrid code search: BM25, dense vectors, symbols and the call graph.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

# One spelling (`--index-dir DIR`, never a Python type); PATH names what grep and index read.
INDEX_DIR_META = "DIR"


def _version(value: bool) -> None:
    if value:
        from indexlib import __version__

        sys.stdout.write(f"qry {__version__}\n")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", "-V", is_eager=True, callback=_version, help="Print the version and exit."
    ),
) -> None:
    """Local hybrid code search: BM25, dense vectors, symbols and the call graph."""


def _index_dir(help_text: str = "The index directory (default: nearest .qry, or $QRY_INDEX_DIR).") -> Any:
    return typer.Option(None, "--index-dir", metavar=INDEX_DIR_META, help=help_text)


def _workspace(help_text: str) -> Any:
    return typer.Option(None, "--workspace", "-w", metavar="W", help=help_text)


def _root_id() -> Any:
    return typer.Option(
        None, "--root", metavar="ROOT", help="A publish root other than HEAD (an id or unique prefix)."
    )


def _json() -> Any:
    return typer.Option(False, "--json", help="Print JSON.")


def _no_color() -> Any:
    return typer.Option(False, "--no-color", help="Never colour the output (as NO_COLOR does).")


def _env(no_color: bool) -> Env:
    return Env(color=False) if no_color else Env()


def _opt(dest: str) -> Any:
    return _option(O[dest])


def _option(o: Opt) -> Any:
    """A Typer option from a row of an option table (cli/options.py, cli/grepopts.py)."""
    flags = list(o.flags)
    if o.negatable:
        flags = [f"{flags[0]}/--no-{flags[0][2:]}", *flags[1:]]
    return typer.Option(
        o.default,
        *flags,
        help=o.help,
        show_default=o.default not in (None, False),
        metavar=o.metavar or None,
    )


def _exit(code: int) -> None:
    raise typer.Exit(int(code))


@app.command("search")
def search_cmd(
    query: list[str] | None = typer.Argument(
        None,
        metavar="QUERY...",
        help='What to look for: ParseConfig, "func (s *Server) Handle", or a question (several words are one query). '
        "Filters alone (kind:interface, --since 1w) list what they admit.",
        show_default=False,
    ),
    top_k: int = _opt("top_k"),
    mode: str = _opt("mode"),
    lang: list[str] | None = _opt("lang"),
    path: list[str] | None = _opt("path"),
    exclude: list[str] | None = _opt("exclude"),
    kind: list[str] | None = _opt("kind"),
    repo: list[str] | None = _opt("repo"),
    json: bool = _opt("json"),
    jsonl: bool = _opt("jsonl"),
    context: int | None = _opt("context"),
    files_with_matches: bool = _opt("files_with_matches"),
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
    index_dir: list[str] | None = _opt("index_dir"),
    workspace: str | None = _opt("workspace"),
    route: bool = _opt("route"),
    server: str | None = _opt("server"),
    no_color: bool = _opt("no_color"),
) -> None:
    """Search the index. Query syntax: words, "exact phrase", prefix*, lang:go, path:'src/**', kind:function,
    -path:tests/**, and over several indexes repo:REGEX, -repo:REGEX. Exit status: 0 results, 1 none, 2 error."""
    from cli.searchcmd import search_command

    values = dict(locals())
    values.pop("query")
    _exit(search_command(Env(), " ".join(query or ()), values))


def _iopt(dest: str) -> Any:
    from cli.indexopts import INDEX_OPTION_BY_DEST

    return _option(INDEX_OPTION_BY_DEST[dest])


@app.command("index")
def index_cmd(
    path: Path | None = typer.Argument(
        None,
        metavar="[PATH]",
        help="The repository (folder) to index (default: the indexed folder around the working directory, else .).",
        show_default=False,
    ),
    index_dir: Path | None = _iopt("index_dir"),
    embed: str = _iopt("embed"),
    model: str | None = _iopt("model"),
    rebuild: bool = _iopt("rebuild"),
    wait: float = _iopt("wait"),
    redact: bool = _iopt("redact"),
    git_times: bool = _iopt("git_times"),
    include_vendored: bool = _iopt("include_vendored"),
    max_file_bytes: int = _iopt("max_file_bytes"),
    threads: int = _iopt("threads"),
    shared_cache: bool = _iopt("shared_cache"),
    background: bool = _iopt("background"),
    json: bool = _iopt("json"),
    quiet: bool = _iopt("quiet"),
    cluster: str | None = _iopt("cluster"),
    workspace: str | None = _iopt("workspace"),
    repo: list[str] | None = _iopt("repo"),
    no_color: bool = _iopt("no_color"),
) -> None:
    """Build or update the index of PATH (incremental: only changed files are parsed and embedded)."""
    from cli.indexcmd import index_command

    values = dict(locals())
    values.pop("path")
    _exit(index_command(_env(no_color), path, values))


@app.command("status")
def status_cmd(
    index_dir: Path | None = _index_dir(),
    root: str | None = _root_id(),
    workspace: str | None = _workspace("One row per index of workspace W (a name or a qry.toml)."),
    skipped: bool = typer.Option(
        False, "--skipped", help="List the files the index left out, with the reason (path, reason, detail)."
    ),
    json: bool = _json(),
    no_color: bool = _no_color(),
) -> None:
    """Show the current root: counts by language and kind, skips, size, and files changed since."""
    from cli.admin import status_command

    _exit(status_command(_env(no_color), index_dir, root, json, workspace, skipped=skipped))


@app.command("roots")
def roots_cmd(
    index_dir: Path | None = _index_dir(),
    json: bool = _json(),
    no_color: bool = _no_color(),
) -> None:
    """List publish roots (the index's history), newest first."""
    from cli.admin import roots_command

    _exit(roots_command(_env(no_color), index_dir, json))


@app.command("gc")
def gc_cmd(
    keep: int = typer.Option(
        KEEP_RUNS,
        "--keep",
        metavar="N",
        help="How many recent index runs to keep (HEAD is always kept; a run with vectors is two roots).",
    ),
    index_dir: Path | None = _index_dir(),
    wait: float = typer.Option(
        0.0, "--wait", metavar="SECONDS", help="Wait up to SECONDS for a running qry index."
    ),
    workspace: str | None = _workspace("Collect every index of workspace W (a name or a qry.toml)."),
    json: bool = _json(),
    no_color: bool = _no_color(),
) -> None:
    """Delete old roots, unreferenced segments and leftover staging files."""
    from cli.admin import gc_command

    _exit(gc_command(_env(no_color), index_dir, keep, wait, json, workspace))


@app.command("verify")
def verify_cmd(
    index_dir: Path | None = _index_dir(),
    root: str | None = _root_id(),
    workspace: str | None = _workspace("Check every index of workspace W (a name or a qry.toml)."),
    json: bool = _json(),
    no_color: bool = _no_color(),
) -> None:
    """Check every file of the root against its checksum. Exit 0 if all match, 2 if not."""
    from cli.admin import verify_command

    _exit(verify_command(_env(no_color), index_dir, root, json, workspace))


@app.command("related")
def related_cmd(
    symbol: str = typer.Argument(
        ...,
        metavar="SYMBOL",
        help="A name, a qualified name (Server.handle, pkg.module.func), PATH:NAME, or a uid.",
    ),
    callers: bool = typer.Option(False, "--callers", help="Only callers."),
    callees: bool = typer.Option(False, "--callees", help="Only callees."),
    depth: int = typer.Option(
        _RELATED_DEPTH.default,
        "--depth",
        metavar="N",
        help=f"How far to walk ({_RELATED_DEPTH.lo}-{_RELATED_DEPTH.hi}).",
    ),
    index_dir: Path | None = _index_dir(),
    root: str | None = _root_id(),
    workspace: str | None = _workspace(
        "Look in every index of workspace W (a name or a qry.toml): the one defining SYMBOL answers."
    ),
    repo: list[str] | None = _option(repo_option("With --workspace")),
    limit: int = typer.Option(
        _RELATED_ROWS.default,
        "--limit",
        metavar="N",
        help=f"List at most N rows ({_RELATED_ROWS.lo}-{_RELATED_ROWS.hi}).",
    ),
    json: bool = _json(),
    no_color: bool = _no_color(),
) -> None:
    """Show who calls a symbol, what it calls, its container, and a type's members."""
    from cli.graphcmd import RelatedArgs, related_command

    args = RelatedArgs(symbol, callers, callees, depth, index_dir, root, workspace, repo or [], json, limit)
    _exit(related_command(_env(no_color), args))


@app.command("graph")
def graph_cmd(
    query: str = typer.Argument(
        ..., metavar="QUERY", help="MATCH ... RETURN ... (a bounded, read-only openCypher subset)."
    ),
    param: list[str] | None = typer.Option(
        None, "--param", metavar="NAME=VALUE", help="Bind VALUE to $NAME (repeatable)."
    ),
    index_dir: Path | None = _index_dir(),
    root: str | None = _root_id(),
    json: bool = _json(),
    no_color: bool = _no_color(),
) -> None:
    """Query the code graph. Read-only; labels from a closed vocabulary; depth <= 4; LIMIT <= 1000; 2 s."""
    from cli.graphcmd import graph_command

    _exit(graph_command(_env(no_color), query, param or [], index_dir, root, json))


def _gopt(dest: str) -> Any:
    from cli.grepopts import GREP_OPTION_BY_DEST

    return _option(GREP_OPTION_BY_DEST[dest])


@app.command("grep")
def grep_cmd(
    pattern: str = typer.Argument(
        ..., metavar="PATTERN", help="A Python regular expression (or, with -F, a literal string)."
    ),
    paths: list[str] | None = typer.Argument(
        None,
        metavar="[PATH]...",
        help="Files or folders to search; lang:X, path:GLOB, -path:GLOB (and with --workspace repo:REGEX) filter.",
        show_default=False,
    ),
    regexp: list[str] | None = _gopt("regexp"),
    fixed_strings: bool = _gopt("fixed_strings"),
    ignore_case: bool = _gopt("ignore_case"),
    smart_case: bool = _gopt("smart_case"),
    word_regexp: bool = _gopt("word_regexp"),
    files_with_matches: bool = _gopt("files_with_matches"),
    count: bool = _gopt("count"),
    line_number: bool = _gopt("line_number"),
    after_context: int = _gopt("after_context"),
    before_context: int = _gopt("before_context"),
    context: int = _gopt("context"),
    max_count: int | None = _gopt("max_count"),
    glob: list[str] | None = _gopt("glob"),
    hidden: bool = _gopt("hidden"),
    no_ignore: bool = _gopt("no_ignore"),
    no_index: bool = _gopt("no_index"),
    json: bool = _gopt("json"),
    jsonl: bool = _gopt("jsonl"),
    no_color: bool = _gopt("no_color"),
    index_dir: list[str] | None = _gopt("index_dir"),
    workspace: str | None = _gopt("workspace"),
    repo: list[str] | None = _gopt("repo"),
) -> None:
    """Print every line matching PATTERN, as `rg -n` does: exhaustive, exact, and fast with an index.
    Files changed since the index are searched directly. Exit status: 0 a match, 1 none, 2 error."""
    from cli.grepcmd import grep_command

    values = dict(locals())
    values.pop("pattern")
    values.pop("paths")
    _exit(grep_command(Env(), pattern, paths or [], values))


@app.command("serve")
def serve_cmd(
    workspace: str = typer.Option(
        ..., "--workspace", "-w", metavar="W", help="The workspace to serve (a name or a qry.toml)."
    ),
    cluster: str = typer.Option(
        "local", "--cluster", metavar="ADDRESS", help="The Ray cluster: local, local:N, auto or HOST:PORT."
    ),
    host: str = typer.Option("127.0.0.1", "--host", metavar="HOST", help="The address to listen on."),
    port: int = typer.Option(
        8765, "--port", metavar="PORT", help="The port to listen on (0: any free port)."
    ),
    no_color: bool = _no_color(),
) -> None:
    """Serve a workspace over HTTP from Ray actors, one per index (qry search --server URL). Needs the
    cluster extra: pip install 'qry-search[cluster]'."""
    from cli.wscmd import serve_command

    env = _env(no_color)
    _exit(guarded(env, lambda: serve_command(env, workspace, cluster, host, port)))


workspace_app = typer.Typer(
    help="Name several indexes as one workspace (qry search|grep|index --workspace W, qry route -w W).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(workspace_app, name="workspace")


@workspace_app.command("add")
def workspace_add_cmd(
    name: str = typer.Argument(..., metavar="NAME", help="The workspace (created if new)."),
    paths: list[Path] = typer.Argument(
        ..., metavar="PATH...", help="Repository folders (their .qry) or index directories."
    ),
    label: str | None = typer.Option(
        None, "--name", metavar="LABEL", help="The repository label of the one index added."
    ),
    json: bool = _json(),
) -> None:
    """Add indexes to a workspace in the user's config file."""
    from cli.wscmd import workspace_add_command

    env = Env()
    _exit(guarded(env, lambda: workspace_add_command(env, name, paths, label, json), json_out=json))


@workspace_app.command("remove")
def workspace_remove_cmd(
    name: str = typer.Argument(..., metavar="NAME", help="The workspace."),
    repos: list[str] | None = typer.Argument(
        None, metavar="[REPO]...", help="Repository labels or paths (none: the whole workspace)."
    ),
    json: bool = _json(),
) -> None:
    """Remove repositories from a workspace, or the workspace itself."""
    from cli.wscmd import workspace_remove_command

    env = Env()
    _exit(guarded(env, lambda: workspace_remove_command(env, name, repos or [], json), json_out=json))


@workspace_app.command("list")
def workspace_list_cmd(
    name: str | None = typer.Argument(
        None, metavar="[NAME]", help="One workspace (a name or a qry.toml); default: all."
    ),
    json: bool = _json(),
) -> None:
    """List workspaces and their indexes."""
    from cli.wscmd import workspace_list_command

    env = Env()
    _exit(guarded(env, lambda: workspace_list_command(env, name, json), json_out=json))


@app.command("route")
def route_cmd(
    question: list[str] = typer.Argument(
        ..., metavar="QUESTION...", help="The question (several words are one question)."
    ),
    workspace: str | None = _workspace("The workspace (a name or a qry.toml)."),
    index_dir: list[str] | None = typer.Option(
        None, "--index-dir", metavar=INDEX_DIR_META, help="Index directories (repeatable)."
    ),
    limit: int = typer.Option(
        ROUTE_DEFAULT_LIMIT,
        "--limit",
        metavar="N",
        help=f"How many repositories to return (1-{ROUTE_LIMIT_MAX}).",
    ),
    mode: str = _opt("mode"),
    model: str | None = _opt("model"),
    profile_only: bool = typer.Option(
        False, "--profile-only", help="Score by the profiles alone (no search of the indexes)."
    ),
    repo: list[str] | None = _opt("repo"),
    json: bool = _json(),
) -> None:
    """Which repositories a question is about: confidence in [0, 1] and a one-line rationale each.
    repo:REGEX, -repo:REGEX (or --repo) in the question narrow the repositories scored, and lang:,
    path: filters narrow the search whose best hits vote, as in qry search."""
    from cli.wscmd import route_command

    env = Env()
    values = {
        "workspace": workspace,
        "index_dir": index_dir,
        "profile_only": profile_only,
        "mode": mode,
        "model": model,
        "repo": repo,
    }
    _exit(guarded(env, lambda: route_command(env, " ".join(question), values, limit, json), json_out=json))


@app.command("mcp")
def mcp_cmd(
    index_dir: Path | None = _index_dir(),
    workspace: str | None = _workspace(
        "The search tool searches every index of W and the route tool chooses among them; the"
        " other tools read --index-dir if given, else W's first index."
    ),
    server: str | None = typer.Option(
        None, "--server", metavar="URL", help="The search tool asks a running qry serve at URL."
    ),
    no_color: bool = _no_color(),
) -> None:
    """Serve qry to coding agents over the Model Context Protocol (stdio). Needs the mcp extra:
    pip install 'qry-search[mcp]' (in a source checkout: pip install -e '.[mcp]')."""
    from cli.mcp_server import serve

    env = _env(no_color)
    _exit(guarded(env, lambda: serve(index_dir, workspace, server)))


class _PlainArgument(typer.core.TyperArgument):
    """An argument shown by its metavar alone (`QUERY...`, `[PATH]`), as Unix tools show them: Typer
    would add the Python type (`query... <list[str]>`) and brace the usage (`{query}...`)."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        return self.display_name_raw

    def _rich_display_name(self) -> str:
        return self.display_name_raw


def click_command() -> Any:
    """The Click command tree of the app, with arguments shown as plain metavars (help and docs) at
    every depth (`qry workspace add` showed `{NAME} {PATH...}...` and `NAME <str>`)."""
    command = typer.main.get_command(app)
    pending = list(getattr(command, "commands", {}).values())
    while pending:
        sub = pending.pop()
        pending += getattr(sub, "commands", {}).values()
        for param in sub.params:
            if isinstance(param, typer.core.TyperArgument):
                param.__class__ = _PlainArgument
    return command


def _dashed_query_words_last(args: list[str], command: Any) -> list[str]:
    """`args` with the dash-led words that are query text (`is_dashed_query_word`: a negated filter,
    a quoted query with spaces) moved after `--`, where Click reads them as the query: it read
    `-path:tests/**` as `-p ath:tests/**` (a path filter keeping only `ath:tests/**`, the opposite of
    what was asked) and the quoted `"-path:tests charge"` as an unknown option. An option's value
    (`--path "-x y"`) stays where it is."""
    from cli.flagparse import is_dashed_query_word

    cut = args.index("--") if "--" in args else len(args)
    sub = next((a for a in args[:cut] if not a.startswith("-")), "")
    params = getattr(getattr(command, "commands", {}).get(sub), "params", [])
    valued = {name for p in params if not getattr(p, "is_flag", True) for name in getattr(p, "opts", [])}
    kept: list[str] = []
    moved: list[str] = []
    for i, arg in enumerate(args[:cut]):
        after_option = i > 0 and args[i - 1] in valued
        (moved if is_dashed_query_word(arg) and not after_option else kept).append(arg)
    if not moved:
        return args
    return [*kept, "--", *moved, *args[cut + 1 :]]


def _dashed_word(args: list[str], option: str) -> str:
    """The argument Click read as the unknown short option `option` when it is a name, not a flag:
    `-JsonUtf8Reader.nextLong` for `-J` (Kotlin names a file or class `-Name` to hide it from Java);
    '' for an unknown long option or a short flag standing alone."""
    if not re.fullmatch(r"-\w", option):
        return ""
    return next((a for a in args if a.startswith(option) and re.fullmatch(r"-\w[\w$.:]{2,}", a)), "")


def main(argv: list[str] | None = None) -> None:
    """Run the Typer app (every command line the fast path does not take).

    Click's own usage errors (an unknown option, a bad number, a missing argument) are turned into
    qry's error contract like every other error: `qry: error:` + a hint on stderr, exit 2, and an
    error object on stdout when `--json` was asked for.
    """
    from typer._click.exceptions import ClickException, NoArgsIsHelpError

    from cli.wscmd import refuse_repeated_index_dir
    from indexlib import UsageError

    args = sys.argv[1:] if argv is None else argv
    command = click_command()
    try:
        refuse_repeated_index_dir(args)
        code = command.main(_dashed_query_words_last(args, command), prog_name="qry", standalone_mode=False)
    except typer.Exit as exc:
        code = exc.exit_code
    except typer.Abort:
        sys.stderr.write("qry: interrupted\n")
        code = Exit.INTERRUPTED
    except NoArgsIsHelpError as exc:  # `qry` alone: the help text on stderr and status 2, as Click does
        sys.stderr.write(exc.ctx.get_help() + "\n" if exc.ctx else "")
        code = Exit.ERROR
    except UsageError as exc:  # refuse_repeated_index_dir: said before Click parses the line
        from cli.console import report_error

        code = report_error(Env(), exc, json_out="--json" in args or "--jsonl" in args)
    except ClickException as exc:
        from cli.console import report_error

        sub = next((a for a in args if not a.startswith("-")), "")
        hint = f"see: qry {sub} --help" if sub in getattr(command, "commands", {}) else "see: qry --help"
        word = _dashed_word(args, getattr(exc, "option_name", "") or "")
        if word:  # Kotlin's `-JsonUtf8Reader` (a class hidden from Java) read as the short option -J
            hint = f"a name that starts with a dash goes after `--`: qry {sub} -- " + (
                f"""'"{word}"' (quoted: in a query, -word excludes the word)""" if sub == "search" else word
            )
        code = report_error(
            Env(), UsageError(exc.format_message(), hint=hint), json_out="--json" in args or "--jsonl" in args
        )
    raise SystemExit(code if isinstance(code, int) else Exit.OK)


if __name__ == "__main__":  # pragma: no cover
    main()
