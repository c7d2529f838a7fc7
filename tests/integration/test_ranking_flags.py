"""A query that is a command-line flag finds where the flag is defined."""

from __future__ import annotations

from pathlib import Path

from indexlib import SearchOptions, open_engine
from indexlib.retrieval.names import flag_literal_pattern
from tests.repokit import make_repo

_ARGS = "\n".join(
    f'        .arg(Arg::new("opt{i}").long("opt{i}").help("option number {i} of the app"))' for i in range(60)
)
_APP = (
    'pub fn build_app() -> Command {\n    Command::new("app")\n'
    f'{_ARGS}\n        .arg(Arg::new("paging").long("paging").help("when to page the output"))\n'
    "}\n"
)
_PAGING = (
    "/// How output is paged.\npub enum PagingMode {\n    Always,\n    Never,\n}\n\n"
    "/// Sets the paging mode.\npub fn paging_mode(mode: PagingMode) -> PagingMode {\n    mode\n}\n"
)


def test_a_flag_query_finds_the_builder_defining_it(tmp_path: Path) -> None:
    """`--paging` was ranked by its word alone: the small `PagingMode` and `paging_mode` hold it
    densely, and the long builder function giving the flag with `.long("paging")` came far below."""
    repo = make_repo(tmp_path, {"src/clap_app.rs": _APP, "src/paging.rs": _PAGING})
    engine = open_engine(repo / ".qry")
    res = engine.search("--paging", SearchOptions(explain=True))
    assert res.results[0].symbol == "build_app", [h.symbol for h in res.results]
    assert "holds the code as typed: x3" in res.results[0].explain
    # A sentence naming the flag asks about the behaviour: no node is favoured for spelling it.
    sentence = engine.search("page the output under --paging", SearchOptions(explain=True))
    assert not any("holds the code as typed" in x for h in sentence.results for x in h.explain)


def test_the_flags_spelling_and_its_long_name_are_where_it_is_named() -> None:
    pattern = flag_literal_pattern(["--line-ranges"])
    assert pattern is not None
    named = [
        'parser.add_argument("--line-ranges")',
        '#[arg(long = "line-ranges")]',
        "'-l, --line-ranges <r>'",
    ]
    assert all(pattern.search(text) for text in named)
    other = ['"--line-ranges-file"', 'features = ["line-ranges"]', "line_ranges = parse()", "--line"]
    assert not any(pattern.search(text) for text in other)
    assert flag_literal_pattern(["paging", "-p"]) is None
