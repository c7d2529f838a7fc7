"""The `qry index` options, declared once: read by the Typer command (help, docs) and the fast parser.

Why a table: `qry index` is a newcomer's first command and an editor's save hook, and Typer with its
validation layer costs ~0.15 s to import, a tenth of a whole lexical build of a mid-sized repository.
The defaults are `BuildOptions`' (a test checks they agree); they are written here because importing
the build package to read them would put its imports into `qry --help`.
"""

from __future__ import annotations

from cli.optspec import Opt, repo_option

INDEX_OPTIONS: tuple[Opt, ...] = (
    Opt(
        "index_dir", ("--index-dir",), str, None, "Where the index lives (default PATH/.qry).", metavar="DIR"
    ),
    Opt(
        "embed",
        ("--embed",),
        str,
        None,
        "onnx: compute dense vectors; none: lexical, symbol and graph only. Default: as the index was last built (onnx for a new one).",
        metavar="onnx|none",
    ),
    Opt("model", ("--model",), str, None, "Folder with model.onnx + tokenizer.json.", metavar="DIR"),
    Opt("rebuild", ("--rebuild",), bool, False, "Ignore the previous root and index everything again."),
    Opt(
        "wait",
        ("--wait",),
        float,
        0.0,
        "Wait up to SECONDS for another qry index to finish.",
        metavar="SECONDS",
    ),
    Opt("redact", ("--redact",), bool, True, "Redact secrets before anything is stored.", True),
    Opt("git_times", ("--git-times",), bool, True, "Take node times from git.", True),
    Opt("include_vendored", ("--include-vendored",), bool, False, "Also index node_modules, vendor, ..."),
    Opt(
        "max_file_bytes",
        ("--max-file-bytes",),
        int,
        1 << 20,
        "Skip files larger than this.",
        metavar="BYTES",
    ),
    Opt(
        "threads",
        ("--threads",),
        int,
        0,
        "Cores for the embedding model, one worker process each (0: every available core); with --cluster, Ray actors (0: one per cluster CPU).",
        metavar="N",
    ),
    Opt(
        "shared_cache",
        ("--shared-cache",),
        bool,
        True,
        "Reuse and add to the user-level caches of vectors and history (~/.cache/qry).",
        True,
    ),
    Opt(
        "background",
        ("--background",),
        bool,
        False,
        "Return after the lexical root; vectors finish in a detached worker.",
    ),
    Opt("json", ("--json",), bool, False, "Print the build report as JSON."),
    Opt("quiet", ("--quiet", "-q"), bool, False, "No progress bar and no summary."),
    Opt(
        "cluster",
        ("--cluster",),
        str,
        None,
        "Parse as Ray tasks and embed on Ray actors (--threads of them, else one per CPU) on this cluster: local, local:N, auto or HOST:PORT (the cluster extra).",
        metavar="ADDRESS",
    ),
    Opt(
        "workspace",
        ("--workspace", "-w"),
        str,
        None,
        "Update every index of workspace W, each from the folder it describes.",
        metavar="W",
    ),
    repo_option("With --workspace"),
    Opt("no_color", ("--no-color",), bool, False, "Never colour the output (as NO_COLOR does)."),
)

INDEX_OPTION_BY_DEST = {o.dest: o for o in INDEX_OPTIONS}
