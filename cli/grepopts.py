"""The `qry grep` options, declared once: read by the Typer command (help, docs) and the fast parser.

Flags are ripgrep's where ripgrep has one, so `rg -n ...` habits carry over.
"""

from __future__ import annotations

from cli.optspec import Opt, repo_option

GREP_OPTIONS: tuple[Opt, ...] = (
    Opt(
        "regexp",
        ("--regexp", "-e"),
        list,
        None,
        "A pattern (repeatable: a line matching any one matches); every positional is then a PATH.",
        metavar="PATTERN",
    ),
    Opt("fixed_strings", ("--fixed-strings", "-F"), bool, False, "Treat the pattern as a literal string."),
    Opt("ignore_case", ("--ignore-case", "-i"), bool, False, "Match case-insensitively."),
    Opt(
        "smart_case",
        ("--smart-case", "-S"),
        bool,
        False,
        "Case-insensitive unless the pattern has upper case.",
    ),
    Opt("word_regexp", ("--word-regexp", "-w"), bool, False, "Only matches not touching a word character."),
    Opt(
        "files_with_matches", ("--files-with-matches", "-l"), bool, False, "Print only the paths that match."
    ),
    Opt(
        "count", ("--count", "-c"), bool, False, "Print each matching path with its number of matching lines."
    ),
    Opt("line_number", ("--line-number", "-n"), bool, True, "Print line numbers.", True),
    Opt(
        "after_context",
        ("--after-context", "-A"),
        int,
        0,
        "Lines of context after each match.",
        metavar="NUM",
    ),
    Opt(
        "before_context",
        ("--before-context", "-B"),
        int,
        0,
        "Lines of context before each match.",
        metavar="NUM",
    ),
    Opt(
        "context", ("--context", "-C"), int, 0, "Lines of context before and after each match.", metavar="NUM"
    ),
    Opt("max_count", ("--max-count", "-m"), int, None, "At most NUM matching lines per file.", metavar="NUM"),
    Opt(
        "glob",
        ("--glob", "-g"),
        list,
        None,
        "Only paths matching this glob; !GLOB excludes (repeatable).",
        metavar="GLOB",
    ),
    Opt("hidden", ("--hidden",), bool, False, "Search hidden files and folders too (not .git nor .qry)."),
    Opt(
        "no_ignore",
        ("--no-ignore",),
        bool,
        False,
        "Do not read ignore files (.gitignore, .ignore, .rgignore, .qryignore, .git/info/exclude).",
    ),
    Opt("no_index", ("--no-index",), bool, False, "Scan the tree without the n-gram index."),
    Opt("json", ("--json",), bool, False, "Print one JSON object: pattern, lines, summary."),
    Opt("jsonl", ("--jsonl",), bool, False, "Print one JSON line per matching line."),
    Opt("no_color", ("--no-color",), bool, False, "Never colour the output."),
    Opt(
        "index_dir",
        ("--index-dir",),
        list,
        None,
        "The index directory (default: nearest .qry, or $QRY_INDEX_DIR); repeat it to grep several, as --workspace does.",
        metavar="DIR",
    ),
    # -w is ripgrep's --word-regexp, so the workspace has only its long name here.
    Opt(
        "workspace",
        ("--workspace",),
        str,
        None,
        "Grep every repository of workspace W, each from its indexed root (repo:path:line:text; -w is --word-regexp, as in rg).",
        metavar="W",
    ),
    repo_option("With --workspace or several --index-dir"),
)

GREP_OPTION_BY_DEST = {o.dest: o for o in GREP_OPTIONS}
