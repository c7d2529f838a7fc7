"""Hostile query text: nothing a user or an agent types may crash `qry search` or `qry graph`.

Every case must end with exit 0 (results) or 1 (none), or 2 with a `qry: error:` line and a hint;
never a traceback, and never an internal failure papered over as a "stream failed" warning. Most
cases run the search command's body in this process (same code after argument parsing, no
interpreter start per case); a representative subset runs the real `qry` executable, including argv
that is not valid UTF-8 (Python hands it over as lone surrogates). Real behaviour is checked too:
identifiers in other scripts are found, syntax is searched as text rather than interpreted.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.reliability.helpers import Run, assert_clean, qry, search_json

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "polyglot"

UNICODE_PY = '''\
"""Ünïcödé module: مرحبا بالعالم, שלום עולם, 你好世界, 😀👩‍👩‍👧‍👦."""


def café_crème(x):
    """Combining: cafe\u0301 cre\u0300me; fullwidth ＡＢＣ; ligature ﬁle; Straße; İstanbul."""
    return x


def привет_мир():
    return "Ελληνικά: σοφός"


def 函数名(参数):
    return 参数  # 注释 \U0001f600 \U0001d518\U0001d52b\U0001d526
'''

PLANES = "".join(chr(plane * 0x10000 + 0x100) for plane in range(17))  # one code point from every plane

CASES: dict[str, str] = {
    "empty": "",
    "whitespace": " \t\n\r\x0b\x0c ",
    "100 kB of words": "charge " * 14_300,
    "100 kB one token": "x" * 100_000,
    "100 kB unicode": "😀é中" * 12_500,
    "control characters": "\x01\x02\x1b[31mred\x1b[0m \x7f\x08 charge",
    "NUL": "retry\x00charge",
    "lone double quote": '"',
    "lone single quote": "'",
    "unterminated phrase": '"failed charge',
    "empty phrase": '""',
    "triple quotes": '"""',
    "apostrophe": "it's",
    "tantivy field and bool": "title:foo AND bar)",
    "star": "*",
    "operators": "+-~^",
    "parens": "((()",
    "range": "[1 TO 5] {a TO b}",
    "boost and fuzzy": 'charge^2 retry~2 "a b"~3',
    "required and excluded": "+charge -retry",
    "field star": "name:*",
    "dangling OR": "charge OR",
    "NOT alone": "NOT",
    "regex slashes": "/ch.*ge/",
    "regex metacharacters": ".*[a-z]+\\d{2,}(?=x)|^$",
    "regex repetition bomb": "(a+)+$ a{1,99999} " + "(" * 200,
    "backslashes": "\\ \\\\ \\\" \\'",
    "dollar and braces": "${HOME} {{x}} %s %(x)s",
    "sql and shell": "'; DROP TABLE nodes; -- $(rm -rf /) `id`",
    "leading dash": "-charge",
    "double dash": "--",
    "path filter glob": 'charge path:"**/*.py"',
    "path filter bracket": "charge path:[",
    "negated path": "charge -path:**",
    "every plane": PLANES,
    "astral emoji and ZWJ": "😀 👩‍👩‍👧‍👦 🏳️‍🌈",
    "RTL": "مرحبا بالعالم שלום",
    "bidi override": "\u202echarge\u202c \u2066x\u2069",
    "combining marks": "e" + "\u0301\u0302\u0303" * 300,
    "zero width": "char\u200bge \ufeff\u200d",
    "noncharacters": "\ufffe\uffff\U0010ffff",
    "case folding": "İı ß ﬁ ＡＢＣ ς",
    "long identifier": "A" * 300 + "_" + "b" * 300,
}

# Python hands argv that is not valid UTF-8 to the program as lone surrogates (surrogateescape); the
# MCP server can receive them from JSON escapes ("\ud800"). They cannot be encoded back to UTF-8.
SURROGATES: dict[str, str] = {"lone high surrogate": "\ud800", "escaped byte": "caf\udce9 charge"}
_SURROGATE = re.compile("[\ud800-\udfff]")

USAGE_ERRORS: dict[str, str] = {
    "empty lang filter": "lang:",
    "empty path filter": "charge path:",
    "unknown language": "lang:klingon charge",
    "unknown kind": "kind:spaceship",
    "negated lang": "-lang:go charge",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("hostile-queries")
    repo = base / "repo"
    shutil.copytree(FIXTURE, repo)
    (repo / "unicode.py").write_text(UNICODE_PY, encoding="utf-8")
    index = base / "index"
    run = qry("index", repo, "--embed", "hash", "--no-git-times", "--quiet", "--index-dir", index)
    assert run.code == 0, run.describe()
    return index


def _in_process(index: Path, text: str) -> tuple[int, str, str]:
    code, out, err = search_json(index, text)
    assert_clean(Run(args=("search", text[:80]), code=code, out=out, err=err))
    if code in (0, 1):
        data = json.loads(out)
        assert data["query"] == _SURROGATE.sub("\ufffd", text)  # each lone surrogate becomes U+FFFD
        for hit in data["results"]:
            assert hit["path"] and hit["start_line"] <= hit["end_line"]
    return code, out, err


@pytest.mark.parametrize("text", list(CASES.values()), ids=list(CASES))
def test_hostile_query_text_ends_cleanly(index: Path, text: str) -> None:
    _in_process(index, text)


@pytest.mark.parametrize("text", list(USAGE_ERRORS.values()), ids=list(USAGE_ERRORS))
def test_bad_filters_are_usage_errors_with_a_hint(index: Path, text: str) -> None:
    code, out, err = _in_process(index, text)
    assert code == 2 and "\n  hint: " in err, err
    assert json.loads(out)["isError"] is True


@pytest.mark.parametrize("text", list(SURROGATES.values()), ids=list(SURROGATES))
def test_lone_surrogates_end_cleanly(index: Path, text: str) -> None:
    _in_process(index, text)


def test_syntax_is_searched_as_text_not_interpreted(index: Path) -> None:
    """Tantivy operators in the text neither fail nor change what is found for the plain words."""
    for text in (
        "retry_failed_charge AND",
        "retry_failed_charge)",
        "+retry_failed_charge^2",
        "(retry_failed_charge",
    ):
        code, out, _err = _in_process(index, text)
        symbols = [h["symbol"].replace("_", "").lower() for h in json.loads(out)["results"][:3]]
        assert code == 0 and any(s.endswith("retryfailedcharge") for s in symbols), (text, symbols)


@pytest.mark.parametrize(
    ("text", "symbol"), [("café_crème", "café_crème"), ("привет_мир", "привет_мир"), ("函数名", "函数名")]
)
def test_identifiers_in_other_scripts_are_found(index: Path, text: str, symbol: str) -> None:
    code, out, _err = _in_process(index, text)
    assert code == 0 and json.loads(out)["results"][0]["symbol"] == symbol


CLI_CASES = ["", "   ", '"', "title:foo AND bar)", "*", "+-~^", ".*[a-z]+\\d{2,}", "-charge", "--",
             "charge " * 14_300, "😀 مرحبا e\u0301 " + PLANES, "\x01\x1b[31mred"]  # fmt: skip


@pytest.mark.parametrize("json_out", [False, True], ids=["plain", "json"])
def test_the_real_executable_ends_cleanly(index: Path, json_out: bool) -> None:
    for text in CLI_CASES:
        run = qry("search", *(["--json"] if json_out else []), "--index-dir", index, "--", text)
        assert_clean(run)
        if json_out and run.code in (0, 1):
            assert json.loads(run.out)["query"] == text


@pytest.mark.parametrize(
    ("argv", "json_out"),
    [(b"\xed\xa0\x80", False), (b"caf\xe9 charge", True)],
    ids=["encoded surrogate, plain: warning", "latin-1 byte, json: traceback"],
)
def test_argv_that_is_not_utf8_ends_cleanly(index: Path, argv: bytes, json_out: bool) -> None:
    run = qry("search", *(["--json"] if json_out else []), "--index-dir", index, argv)
    assert_clean(run)
    if json_out:  # each byte that is not UTF-8 is echoed as one U+FFFD
        assert json.loads(run.out)["query"] == argv.decode("utf-8", "replace")


GRAPH_CASES = {
    "empty": "",
    "garbage": "}{)(*&^%$#@!",
    "write clause": "CREATE (n:Function {name: 'x'}) RETURN n",
    "unterminated string": "MATCH (n) WHERE n.name = 'x RETURN n",
    "control characters": "MATCH (n)\x01\x1b RETURN n",
    "unicode": "MATCH (n:Function) WHERE n.name = '函数名😀' RETURN n.name",
    "huge limit": "MATCH (n) RETURN n LIMIT 99999999999999999999999",
    "huge depth": "MATCH (a)-[:CALLS*1..99999999999]->(b) RETURN b",
    "too long": "MATCH (n) RETURN n" + " " * 20_000,
    "deep parentheses": "MATCH (n) WHERE " + "(" * 500 + "n.name = 'a'" + ")" * 500 + " RETURN n",
}
GRAPH_DEEP = {
    "deep NOT": "MATCH (n) WHERE " + "NOT " * 700 + "n.name = 'a' RETURN n",
    "deep list": "MATCH (n) RETURN " + "[" * 700 + "1" + "]" * 700,
    "long AND chain": "MATCH (n) WHERE " + " AND ".join(["n.x = 1"] * 700) + " RETURN n",
}


@pytest.mark.parametrize("text", list(GRAPH_CASES.values()), ids=list(GRAPH_CASES))
def test_hostile_graph_queries_end_cleanly(index: Path, text: str) -> None:
    run = qry("graph", "--index-dir", index, "--", text)
    assert_clean(run)


@pytest.mark.parametrize("text", list(GRAPH_DEEP.values()), ids=list(GRAPH_DEEP))
def test_deeply_nested_graph_queries_end_cleanly(index: Path, text: str) -> None:
    run = qry("graph", "--index-dir", index, "--", text)
    assert_clean(run)
    assert run.code == 2 and "too_deep" in run.err and "hint: " in run.err, run.describe()


@pytest.mark.parametrize("glob", ["[", "src/[a-", "**/" * 3400])
def test_an_invalid_or_oversized_path_glob_is_an_error(index: Path, glob: str) -> None:
    """`--path '['` used to return nothing quietly; a 10 KB glob of `**/` took minutes. Both are
    now refused at once with a hint (the subprocess timeout only bounds a regression)."""
    for args in (("--path", glob), (f"path:{glob}",)):
        run = qry("search", "--index-dir", index, "retry", *args, timeout=60)
        assert run.code == 2 and "invalid path glob" in run.err and "hint:" in run.err, run.describe()


def test_a_long_hostile_path_glob_answers(index: Path) -> None:
    run = qry("search", "--index-dir", index, "retry", "--path", "**/" * 300 + "*.py", timeout=60)
    assert run.code in (0, 1) and "Traceback" not in run.err, run.describe()
