"""Issue 12, "the first hour": the command-line surface behaves like the tools people already trust.

Each test runs `qry` as a real subprocess (no tty, NO_COLOR) over a small repository written here or
the shared polyglot index, and checks one behaviour: exit status, what reaches stdout and stderr, and
the hints. The Ctrl-C cases live in tests/reliability (test_crash.py, test_interrupt_mcp.py).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from indexlib import BuildOptions, build_index
from tests.cli.clikit import Run, RunQry, assert_clean_stderr, run_qry_process


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _q(cwd: Path, *args: str) -> Run:
    run = run_qry_process(*args, cwd=cwd)
    assert_clean_stderr(run)
    return run


# -- related / resolve: qualified names, path:name, a module function before a method ----------------

URL_FOR_REPO = {
    "src/pkg/__init__.py": "",
    "src/pkg/helpers.py": (
        "def url_for(endpoint):\n    return '/' + endpoint\n\n\ndef render(name):\n    return url_for(name)\n"
    ),
    "src/pkg/app.py": (
        "from pkg.helpers import url_for\n\n\nclass App:\n    def url_for(self, endpoint):\n"
        "        return url_for(endpoint)\n"
    ),
    "src/pkg/other.py": "def render(name):\n    return name\n",
}


def _indexed(factory: pytest.TempPathFactory, name: str, files: dict[str, str]) -> Path:
    repo = _write(factory.mktemp(name), files)
    build_index(repo, BuildOptions(embed="none", git_times=False))
    return repo


@pytest.fixture(scope="module")
def url_for_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _indexed(tmp_path_factory, "urlfor", URL_FOR_REPO)


@pytest.mark.parametrize(
    ("name", "symbol", "kind"),
    [
        ("url_for", "url_for", "function"),  # a module-level function wins over a method, as in search
        ("helpers.url_for", "url_for", "function"),
        ("pkg.helpers.url_for", "url_for", "function"),
        ("src/pkg/helpers.py:url_for", "url_for", "function"),
        ("helpers.py:url_for", "url_for", "function"),
        ("App.url_for", "App.url_for", "method"),
        ("app.App.url_for", "App.url_for", "method"),
        ("src/pkg/app.py:App.url_for", "App.url_for", "method"),
        ("app.py:url_for", "App.url_for", "method"),
    ],
)
def test_related_resolves_qualified_names_and_path_name(
    url_for_repo: Path, name: str, symbol: str, kind: str
) -> None:
    run = _q(url_for_repo, "related", name, "--json")
    assert run.code == 0, run.describe()
    node = json.loads(run.out)["node"]
    assert (node["symbol"], node["kind"]) == (symbol, kind), run.describe()


def test_related_between_two_module_functions_stays_ambiguous_with_a_path_name_hint(
    url_for_repo: Path,
) -> None:
    run = _q(url_for_repo, "related", "render")
    assert run.code == 2, run.describe()
    assert "names 2 definitions" in run.err and "src/pkg/helpers.py:render" in run.err, run.err
    assert "path:name" in run.err
    picked = _q(url_for_repo, "related", "other.py:render", "--json")
    # Named, and nothing calls it or is called by it: found with nothing related, exit 1 as grep.
    assert picked.code == 1 and json.loads(picked.out)["node"]["path"] == "src/pkg/other.py", (
        picked.describe()
    )


CRATES_REPO = {
    "crates/searcher/Cargo.toml": '[package]\nname = "grep-searcher"\n',
    "crates/searcher/src/lib.rs": "pub mod searcher;\n",
    "crates/searcher/src/searcher/mod.rs": (
        "pub struct Searcher {\n    line: u64,\n}\n\nimpl Searcher {\n"
        "    pub fn new() -> Searcher {\n        Searcher { line: 0 }\n    }\n\n"
        "    pub fn line(&self) -> u64 {\n        self.line\n    }\n}\n"
    ),
    "crates/printer/src/lib.rs": "pub struct Searcher;\n\npub fn print(s: &Searcher) {}\n",
}


@pytest.fixture(scope="module")
def crates_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _indexed(tmp_path_factory, "crates", CRATES_REPO)


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("searcher::Searcher", "crates/searcher/src/searcher/mod.rs"),  # the module path, as before
        ("grep_searcher::Searcher", "crates/searcher/src/searcher/mod.rs"),  # the crate's name
        ("grep::searcher::Searcher", "crates/searcher/src/searcher/mod.rs"),  # a facade's re-export
        ("grep_printer::Searcher", "crates/printer/src/lib.rs"),
    ],
)
def test_related_and_search_resolve_a_rust_path_through_its_crate_folder(
    crates_repo: Path, name: str, path: str
) -> None:
    repo = crates_repo
    run = _q(repo, "related", name, "--json")
    answer = json.loads(run.out)
    assert answer["node"]["path"] == path, run.describe()
    assert run.code == (0 if answer["related"] else 1), run.describe()  # nothing related: 1, as grep
    found = _q(repo, "search", name, "--json")
    data = json.loads(found.out)
    assert data["results"][0]["path"] == path, found.describe()
    assert not any("no definition" in n for n in data["meta"]["notes"]), data["meta"]["notes"]
    missing = _q(repo, "related", "clap_lex::Searcher")  # a crate the tree does not hold
    assert missing.code == 1 and "no definition named 'clap_lex::Searcher'" in missing.err, missing.describe()


def test_related_of_a_type_lists_its_members(crates_repo: Path) -> None:
    # Rust calls `Searcher::new`, never `Searcher`: without its members a struct's answer is empty.
    run = _q(crates_repo, "related", "searcher::Searcher", "--json")
    rows = [(r["edge"], r["direction"], r["symbol"]) for r in json.loads(run.out)["related"]]
    assert rows == [("contains", "out", "Searcher.new"), ("contains", "out", "Searcher.line")], run.describe()
    only = _q(crates_repo, "related", "searcher::Searcher", "--callers", "--json")  # members are not callers
    assert json.loads(only.out)["related"] == [], only.describe()
    member = _q(crates_repo, "related", "Searcher.line", "--json")  # a method: its container, as before
    rows = [(r["edge"], r["direction"], r["symbol"]) for r in json.loads(member.out)["related"]]
    assert rows == [("contains", "in", "Searcher")], member.describe()


# -- gc: no ghost root, --keep counts index runs ---------------------------------------------------


def test_gc_keep_one_leaves_no_ghost_root(tmp_path: Path) -> None:
    repo = _write(tmp_path / "repo", {"a.py": "def one():\n    return 1\n"})
    for i in range(3):
        (repo / "a.py").write_text(f"def one():\n    return {i}\n")
        assert _q(repo, "index", ".", "--embed", "none", "-q").code == 0
    assert _q(repo, "gc", "--keep", "1").code == 0
    roots = json.loads(_q(repo, "roots", "--json").out)
    assert len(roots) == 1 and roots[0]["error"] == "" and roots[0]["is_head"], roots
    assert json.loads(_q(repo, "status", "--json").out)["roots"] == 1
    text = _q(repo, "roots").out
    assert "1970-01-01" not in text and "missing" not in text, text


def test_a_build_keeps_the_last_runs_by_itself_and_says_what_it_removed(tmp_path: Path) -> None:
    """Every full rewrite left one more copy of the index until someone ran `qry gc`: once the index
    holds more than 2 x AUTO_KEEP_RUNS roots, a build keeps HEAD's last AUTO_KEEP_RUNS runs, removes
    the other roots (those from before a `--rebuild` too) and the segments only they used, and its
    summary says so."""
    from indexlib import AUTO_KEEP_RUNS, Store

    repo = _write(
        tmp_path / "repo", {"a.py": "def one():\n    return 0\n", "b.py": "def two():\n    return 2\n"}
    )
    for i in range(2 * AUTO_KEEP_RUNS):
        (repo / "a.py").write_text(f"def one():\n    return {i}\n")
        build_index(repo, BuildOptions(embed="none", rebuild=i == AUTO_KEEP_RUNS))
    store = Store.open(repo / ".qry")
    assert len(store.roots()) == 2 * AUTO_KEEP_RUNS  # not past the bound yet: nothing removed
    segments = {p.name for p in store.segments_dir.iterdir()}
    (repo / "a.py").write_text("def one():\n    return 'last'\n")
    run = _q(repo, "index", ".", "--embed", "none")
    removed = AUTO_KEEP_RUNS + 1
    assert run.code == 0 and f"{removed} old roots removed (the last 10 runs are kept" in run.err, (
        run.describe()
    )
    roots = json.loads(_q(repo, "roots", "--json").out)
    assert len(roots) == AUTO_KEEP_RUNS and all(r["error"] == "" for r in roots), roots
    left = {p.name for p in store.segments_dir.iterdir()}
    assert len(left - segments) == 1 and len(left) < len(segments), (segments, left)
    assert _q(repo, "search", "one", "--json").code == 0
    assert "removed" not in _q(repo, "index", ".", "--embed", "none").err  # nothing changed: no run


# -- snippets: the first line keeps its indentation; no line the file does not have ----------------

SNIPPET_REPO = {
    "app/sessions.py": (
        'import logging\n\n\nclass SessionInterface:\n    """Sessions."""\n\n'
        "    def should_set_cookie(self, app):\n        return app.permanent\n\n"
        "    @staticmethod\n    def decorated_cookie_rule(app):\n        return app.rule\n\n\n"
        "def helper_one():\n    return 1\n\n\ndef helper_two():\n    return 2\n\n\n"
        "default_handler = logging.StreamHandler()\ndefault_handler.setLevel(logging.DEBUG)\n"
    ),
}


@pytest.mark.parametrize(
    "query", ["should_set_cookie", "decorated_cookie_rule", "default_handler", "helper_two"]
)
def test_plain_snippet_lines_are_the_files_lines(tmp_path: Path, query: str) -> None:
    repo = _write(tmp_path / "repo", SNIPPET_REPO)
    build_index(repo, BuildOptions(embed="none", git_times=False))
    run = _q(repo, "search", query, "--mode", "lexical", "-C", "20")
    assert run.code == 0, run.describe()
    file_lines = (repo / "app/sessions.py").read_text().splitlines()
    shown = [
        line for line in run.out.splitlines() if line.startswith("app/sessions.py:") and line.count(":") >= 2
    ]
    assert shown, run.describe()
    for line in shown:
        _path, number, text = line.split(":", 2)
        if not number.isdigit():
            continue
        assert text == file_lines[int(number) - 1], f"line {number} is not the file's:\n{run.out}"
    one_per_hit = _q(repo, "search", query, "--mode", "lexical")  # the default: rg -n style
    assert one_per_hit.out and len(one_per_hit.out.splitlines()) == len(
        [h for h in run.out.split("\n--\n") if h.strip()]
    ), one_per_hit.out + run.out
    for line in one_per_hit.out.splitlines():
        _path, number, rest = line.split(":", 2)
        symbol, text = rest.removeprefix(" ").split("\t", 1)
        assert symbol and text == file_lines[int(number) - 1], one_per_hit.out
    if query == "should_set_cookie":
        assert "app/sessions.py:7:    def should_set_cookie(self, app):" in run.out, run.out
    if query == "default_handler":
        assert "app/sessions.py:23:default_handler = logging.StreamHandler()" in run.out, run.out


# -- conventions ---------------------------------------------------------------------------------


def test_version_and_short_help_everywhere(qry: RunQry) -> None:
    from indexlib import __version__

    for flag in ("--version", "-V"):
        run = qry(flag)
        assert run.code == 0 and run.out == f"qry {__version__}\n", run.describe()
    for command in ("search", "index", "status", "roots", "gc", "verify", "related", "graph", "mcp"):
        run = qry(command, "-h")
        assert run.code == 0 and run.out.startswith(f"Usage: qry {command} "), run.describe()
        assert "--no-color" in run.out, f"qry {command} has no --no-color"
        python_type = re.search(r"<(int|str|float|bool|path|list\[\w+\])>", run.out)
        assert python_type is None, f"a Python type in qry {command} --help:\n{run.out}"
        if command not in ("index",):
            assert "--index-dir DIR" in run.out, run.out
    assert "Usage: qry search [OPTIONS] QUERY..." in qry("search", "-h").out


def test_bash_completion_script_and_answers(qry: RunQry, repo: Path) -> None:
    # The script itself, as `eval "$(_QRY_COMPLETE=source_bash qry)"` loads it. (`--show-completion`
    # guesses the shell from the parent process, which differs between a terminal, CI and a test.)
    script = run_qry_process(cwd=repo, env={"_QRY_COMPLETE": "source_bash"})
    assert script.code == 0 and "complete -o default -F _qry_completion qry" in script.out, script.describe()
    answer = run_qry_process(
        cwd=repo, env={"_QRY_COMPLETE": "complete_bash", "COMP_WORDS": "qry sea", "COMP_CWORD": "1"}
    )
    assert answer.code == 0 and answer.out.split() == ["search"], answer.describe()
    for shell in ("zsh", "fish"):
        other = run_qry_process(cwd=repo, env={"_QRY_COMPLETE": f"source_{shell}"})
        assert other.code == 0 and "_QRY_COMPLETE" in other.out, other.describe()


@pytest.mark.parametrize("query", ["", "   "])
def test_an_empty_or_blank_query_is_an_error(qry: RunQry, query: str) -> None:
    run = qry("search", query)
    assert run.code == 2 and "qry: error: the query is empty" in run.err and "hint:" in run.err, (
        run.describe()
    )


@pytest.mark.parametrize("fmt", [(), ("--json",), ("--jsonl",), ("-l",)])
def test_a_path_filter_matching_no_file_is_said_in_every_format(qry: RunQry, fmt: tuple[str, ...]) -> None:
    run = qry("search", "charge path:nonexistent/**", *fmt)
    assert run.code == 1, run.describe()
    assert "qry: note: the path filter 'nonexistent/**' matches no indexed file" in run.err, run.describe()


@pytest.mark.parametrize("fmt", [(), ("--json",)])
def test_a_time_window_holding_no_change_is_said(qry: RunQry, fmt: tuple[str, ...]) -> None:
    run = qry("search", "charge", "--since", "2099-01-01", *fmt)
    assert run.code == 1, run.describe()
    assert "qry: note: no indexed file changed within --since 2099-01-01" in run.err, run.describe()
    wide = qry("search", "zzzunmatchedword", "--since", "1990-01-01")
    assert wide.code == 1 and "--since 1990-01-01 keeps" in wide.err, wide.describe()


@pytest.mark.parametrize("query", ['charge path:"unterminated', "charge path:[abc"])
def test_an_invalid_glob_or_quote_is_an_error(qry: RunQry, query: str) -> None:
    run = qry("search", query)
    assert run.code == 2 and run.err.startswith("qry: error: ") and "hint:" in run.err, run.describe()


def test_a_regex_looking_query_gets_a_note(qry: RunQry) -> None:
    run = qry("search", "def .*_charge")
    assert "qry search takes it as words; for every match of a regex use qry grep" in run.err, run.describe()
    assert "qry: note" not in qry("search", "charge").err


def test_index_dir_naming_a_repository_root_finds_its_index(qry: RunQry, repo: Path, tmp_path: Path) -> None:
    run = qry("status", "--index-dir", str(repo), cwd=tmp_path)
    assert run.code == 0, run.describe()
    assert qry("search", "charge", "--index-dir", str(repo), cwd=tmp_path).code == 0


def test_graph_prints_nodes_as_json_and_cli_hints_name_options(qry: RunQry) -> None:
    run = qry("graph", "MATCH (f:function {name: 'compute_backoff'}) RETURN f")
    assert run.code == 0, run.describe()
    rows = run.out.splitlines()[1:]
    assert rows and all(json.loads(r)["name"] == "compute_backoff" for r in rows), run.out
    missing = qry("graph", "MATCH (f:function {name: $n}) RETURN f.path")
    assert missing.code == 2 and "--param n=VALUE" in missing.err and '{"n"' not in missing.err, (
        missing.describe()
    )


def test_files_with_matches_and_context(qry: RunQry) -> None:
    files = qry("search", "charge", "-l").out.splitlines()
    assert files and len(files) == len(set(files)) and all(":" not in f for f in files), files
    block = qry("search", "charge", "-k", "1", "-C", "0").out.splitlines()
    line = qry("search", "charge", "--lang", "python", "-k", "1").out  # a method: its indent is kept
    assert re.fullmatch(r"[^:]+:\d+: Gateway\.charge\t    def charge\(.*\n", line), line
    assert len(block) >= 2 and block[0].count("\t") == 3 and re.fullmatch(r"[^:]+:\d+:.*", block[1]), block
    assert qry("search", "charge", "-l", "--json").code == 2


def test_one_root_id_length_in_text_and_grammar(qry: RunQry, root_id: str) -> None:
    status = qry("status").out
    assert f"root\t{root_id[:12]}\n" in status, status
    assert "tombstoned path)" in status or "tombstoned paths)" in status
    assert "(1 tombstoned paths)" not in status
    roots = qry("roots").out
    assert root_id[:12] in roots and root_id[:13] not in roots, roots
    assert json.loads(qry("status", "--json").out)["root"] == root_id


def test_index_in_a_subfolder_updates_the_enclosing_index(tmp_path: Path) -> None:
    repo = _write(
        tmp_path / "repo", {"src/a.py": "def one():\n    return 1\n", "b.py": "def two():\n    return 2\n"}
    )
    assert _q(repo, "index", "--embed", "none", "-q").code == 0
    run = _q(repo / "src", "index", "--embed", "none")
    assert run.code == 0 and "indexing " in run.err and str(repo) in run.err, run.describe()
    assert not (repo / "src" / ".qry").exists(), "a nested index would shadow the repository's"
    nested = _q(repo / "src", "index", ".", "--embed", "none", "-q")  # asked for: made, and said
    assert nested.code == 0 and "creating a new index" in nested.err, nested.describe()
    shutil.rmtree(repo / "src" / ".qry")


def test_mcp_hint_names_the_real_distribution() -> None:
    from cli.install import DISTRIBUTION, extra_install_command

    assert DISTRIBUTION == "qry-search"
    # The PyPI name `qry[mcp]` (an unrelated project); a checkout's path may itself end in `/qry`.
    assert not re.search(r"(?<![/\w-])qry\[mcp\]", extra_install_command("mcp"))


def test_a_language_filter_no_indexed_file_has_is_said(tmp_path: Path) -> None:
    from indexlib import BuildOptions, build_index
    from tests.cli.clikit import run_qry_process

    (tmp_path / "billing.py").write_text("def charge(card):\n    return card\n")
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    run = run_qry_process("search", "charge lang:go", cwd=tmp_path)
    assert run.code == 1, run.describe()
    assert "qry: note: no indexed file is lang:go (the index holds: python)" in run.err, run.describe()
