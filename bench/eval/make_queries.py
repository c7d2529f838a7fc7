"""Query sets with objective ground truth, generated from the pinned corpora with qry's own parser.

Owns: turning each corpus into three query kinds and one "stripped" copy of the corpus to index:
- `symbol`: a definition whose name occurs once (case-insensitively) as a definition name in the
  corpus; the query is the name, the answer that definition.
- `symbol_words`: the same name split into lower-case words (`parse_config`, `ParseConfig` ->
  "parse config"), kept only when the split form is unique too.
- `concept`: a function or method whose doc comment opens with a sentence of at least five words; the
  query is that sentence, the answer the function. The stripped copy has the doc comments of these
  functions removed (replaced by blank lines, so line numbers stay put), so the words cannot simply
  match; each stripped file is re-parsed to check the answer still exists and has lost its doc.

Answers name a node by path and qualified name (plus its lines, for reading); a hit is relevant when
its path and symbol equal the answer's. Only definitions outside test code are answers: the queries
model a developer looking for the implementation. Samples are seeded, so a run repeats exactly.
Output, under `bench/.cache/`: `queries/<corpus>.jsonl`, `queries/manifest.json` (versions, counts),
and `stripped/<corpus>/`. It does not index or search (run.py does).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import random
import re
import subprocess
import sys
from collections import Counter
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path

import corpora

from indexlib.index.parsing import detect_language, is_code, parse_file
from indexlib.records import DEFINITION_KINDS, Node, NodeKind

GENERATOR_VERSION = 2  # 2: doc comments inside a node's span are stripped too
SEED = 20240601
PER_KIND = 150  # queries per kind per corpus (fewer when the corpus has fewer candidates)
KINDS = ("symbol", "symbol_words", "concept")

QUERIES = corpora.CACHE / "queries"
STRIPPED = corpora.CACHE / "stripped"
MANIFEST = QUERIES / "manifest.json"

MIN_CONCEPT_WORDS = 5
MAX_CONCEPT_WORDS = 40
MIN_NAME_CHARS = 3

# Test code, by path: these definitions are never answers (independent of qry's own ranking rules).
_TEST_PATH = re.compile(
    r"(?:^|/)(?:tests?|testing|testdata|__tests__|spec|examples?|benches|fixtures?)(?:/|$)"
    r"|(?:^|/)(?:test_[^/]*\.py|[^/]*_test\.(?:go|py)|[^/]*\.(?:test|spec)\.[jt]sx?)$"
)
_TEST_SCOPES = frozenset({"test", "tests"})  # Rust's inline `mod tests`, and the like
_NOT_PROSE = re.compile(
    r"^(?:todo|fixme|xxx|hack|note|deprecated|see|copyright|nolint|safety)\b", re.IGNORECASE
)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9']*")
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)[.!?](?=\s|$)")
_COMMENT_LINE = re.compile(r"^\s*(?://|/\*|\*|#\[doc)")


@dataclass(frozen=True, slots=True)
class Query:
    """One evaluation query and its single relevant answer."""

    id: str
    corpus: str
    kind: str  # symbol | symbol_words | concept
    query: str
    path: str
    qualified_name: str
    name: str
    node_kind: str
    language: str
    start_line: int
    end_line: int


@dataclass(slots=True)
class _Def:
    node: Node
    file_lines: int


# --- parsing the corpus ---------------------------------------------------------------------------


def _files(root: Path) -> list[tuple[str, bytes, str]]:
    """(relative path, bytes, language) of every code file under `root`, sorted by path."""
    out: list[tuple[str, bytes, str]] = []
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        data = path.read_bytes()
        language = detect_language(rel, data[:256])
        if language is not None and is_code(language):
            out.append((rel, data, language))
    return out


def _definitions(files: list[tuple[str, bytes, str]]) -> list[Node]:
    defs: list[Node] = []
    for rel, data, language in files:
        for node in parse_file(rel, data, language).nodes:
            if node.kind in DEFINITION_KINDS and node.part == 0:
                defs.append(node)
    return defs


def is_test_code(node: Node) -> bool:
    """Test code by path (`*_test.go`, `tests/`) or by scope (a Rust `mod tests` inside a source file)."""
    scopes = node.qualified_name.split(".")[:-1]
    return bool(_TEST_PATH.search(node.path)) or any(s in _TEST_SCOPES for s in scopes)


def normalize(text: str) -> str:
    """Lower-case words joined by single spaces: comment markers and punctuation do not count."""
    return " ".join(_WORD.findall(text.lower()))


def split_words(name: str) -> list[str]:
    """Identifier -> lower-case words: `parseConfig`, `parse_config`, `HTTPServer2` -> parse config, ..."""
    parts = re.findall(r"[A-Z]+(?=[A-Z][a-z]|\d|\b|_)|[A-Z]?[a-z]+|[A-Z]+|\d+", name)
    return [p.lower() for p in parts]


def first_sentence(doc: str) -> str:
    """The first sentence of a doc comment's first paragraph, with markup reduced to plain words."""
    paragraph = re.split(r"\n\s*\n", doc.strip(), maxsplit=1)[0]
    text = " ".join(paragraph.split())
    text = re.sub(r"\{@\w+\s+([^}|]+?)(?:\|[^}]*)?\}", r"\1", text)  # {@link Foo} -> Foo
    text = re.sub(r"<[^>]+>", " ", text)  # html tags
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)  # markdown links
    text = re.sub(r":\w+:`~?([^`]+)`", r"\1", text)  # :meth:`foo` -> foo
    text = text.replace("`", "").replace("**", "")
    text = " ".join(text.split())
    match = _SENTENCE_END.search(text)
    return text[: match.end()] if match else text


def concept_text(node: Node) -> str | None:
    """The concept query for a documented function, or None when its doc does not make one."""
    sentence = first_sentence(node.doc)
    if not sentence or _NOT_PROSE.match(sentence) or sentence.startswith(("@", ">>>", "-", "|")):
        return None
    words = sentence.split()
    # Go's convention opens a doc comment with the symbol's own name ("ExecuteC executes ..."): keeping
    # it would turn the concept query into a symbol query.
    if words and words[0].strip(".,:;`'\"") in (node.name, node.qualified_name):
        words = words[1:]
    sentence = " ".join(words)
    n_words = len(_WORD.findall(sentence))
    if not MIN_CONCEPT_WORDS <= n_words <= MAX_CONCEPT_WORDS:
        return None
    return sentence


# --- stripping doc comments -----------------------------------------------------------------------


def _python_doc_lines(source: str, node: Node) -> tuple[int, int, bool] | None:
    """(first, last) 1-based lines of `node`'s docstring and whether it is the only statement."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for item in ast.walk(tree):
        if not isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) or item.name != node.name:
            continue
        if not node.start_line <= item.lineno <= node.end_line:
            continue
        body = item.body
        first = body[0] if body else None
        if not (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
            and first.end_lineno is not None
        ):
            return None
        if first.lineno <= item.lineno:  # `def f(): """doc"""` on one line: leave it
            return None
        if len(body) > 1 and body[1].lineno <= first.end_lineno:  # `"""doc"""; x = 1`
            return None
        return first.lineno, first.end_lineno, len(body) == 1
    return None


def _comment_block_above(lines: list[str], start_line: int) -> tuple[int, int] | None:
    """(first, last) 1-based lines of the comment block ending right above `start_line`."""
    last = start_line - 1
    first = last
    while first >= 1 and _COMMENT_LINE.match(lines[first - 1]):
        first -= 1
    first += 1
    return (first, last) if first <= last else None


def _comment_block_at(lines: list[str], start_line: int) -> tuple[int, int] | None:
    """(first, last) 1-based lines of the comment block `start_line` opens: the parser counts a
    definition's doc comment as the first lines of its node."""
    last = start_line
    while last <= len(lines) and _COMMENT_LINE.match(lines[last - 1]):
        last += 1
    return (start_line, last - 1) if last > start_line else None


def strip_docs(data: bytes, language: str, nodes: list[Node]) -> bytes:
    """`data` with the doc comments of `nodes` blanked out, keeping every other line where it was."""
    text = data.decode("utf-8")
    lines = text.split("\n")
    for node in sorted(nodes, key=lambda n: -n.start_line):
        if language == "python":
            found = _python_doc_lines("\n".join(lines), node)
            if found is None:
                continue
            first, last, only = found
            indent = re.match(r"\s*", lines[first - 1])
            pad = indent.group(0) if indent else ""
            for i in range(first, last + 1):
                lines[i - 1] = ""
            if only:  # the body must keep a statement
                lines[first - 1] = pad + "pass"
        else:
            block = _comment_block_at(lines, node.start_line) or _comment_block_above(lines, node.start_line)
            if block is None:
                continue
            for i in range(block[0], block[1] + 1):
                lines[i - 1] = ""
    return "\n".join(lines).encode("utf-8")


# --- generating -----------------------------------------------------------------------------------


def _qid(corpus: str, kind: str, node: Node) -> str:
    raw = f"{corpus}\0{kind}\0{node.path}\0{node.qualified_name}"
    return hashlib.sha1(raw.encode()).hexdigest()[:12]


def _query(corpus: str, kind: str, text: str, node: Node) -> Query:
    return Query(
        id=_qid(corpus, kind, node),
        corpus=corpus,
        kind=kind,
        query=text,
        path=node.path,
        qualified_name=node.qualified_name,
        name=node.name,
        node_kind=node.kind,
        language=node.language,
        start_line=node.start_line,
        end_line=node.end_line,
    )


def _sample(items: list[Query], n: int, rng: random.Random) -> list[Query]:
    items = sorted(items, key=lambda q: q.id)
    rng.shuffle(items)
    return items[:n]


@dataclass(slots=True)
class CorpusQueries:
    corpus: str
    queries: list[Query]
    candidates: dict[str, int]
    dropped_after_strip: int
    stripped_files: int
    definitions: int


def generate(corpus: corpora.Corpus, per_kind: int = PER_KIND, seed: int = SEED) -> CorpusQueries:
    """Queries for one corpus, and its stripped copy written to `bench/.cache/stripped/<name>/`."""
    source = corpora.ensure(corpus)
    files = _files(source)
    defs = _definitions(files)
    answerable = [d for d in defs if not is_test_code(d)]

    name_count = Counter(d.name.lower() for d in defs)
    words_count = Counter(" ".join(split_words(d.name)) for d in defs)
    ident_count = Counter((d.path, d.qualified_name) for d in defs)

    symbol: list[Query] = []
    symbol_words: list[Query] = []
    for d in answerable:
        if (
            len(d.name) < MIN_NAME_CHARS
            or name_count[d.name.lower()] != 1
            or ident_count[(d.path, d.qualified_name)] != 1
        ):
            continue
        symbol.append(_query(corpus.name, "symbol", d.name, d))
        words = split_words(d.name)
        phrase = " ".join(words)
        if len(words) >= 2 and words_count[phrase] == 1:
            symbol_words.append(_query(corpus.name, "symbol_words", phrase, d))

    concept_all: list[tuple[str, Node]] = []
    for d in answerable:
        if d.kind not in (NodeKind.FUNCTION, NodeKind.METHOD) or not d.doc:
            continue
        if ident_count[(d.path, d.qualified_name)] != 1:
            continue
        text = concept_text(d)
        if text:
            concept_all.append((text, d))
    text_count = Counter(t.lower() for t, _ in concept_all)
    concept = [_query(corpus.name, "concept", t, d) for t, d in concept_all if text_count[t.lower()] == 1]

    rng = random.Random(f"{seed}:{corpus.name}")
    picked = {
        "symbol": _sample(symbol, per_kind, rng),
        "symbol_words": _sample(symbol_words, per_kind, rng),
        "concept": _sample(concept, per_kind, rng),
    }
    kept_concept, stripped_files = _write_stripped(corpus, files, defs, picked["concept"])
    dropped = len(picked["concept"]) - len(kept_concept)
    picked["concept"] = kept_concept
    return CorpusQueries(
        corpus=corpus.name,
        queries=[q for kind in KINDS for q in picked[kind]],
        candidates={"symbol": len(symbol), "symbol_words": len(symbol_words), "concept": len(concept)},
        dropped_after_strip=dropped,
        stripped_files=stripped_files,
        definitions=len(defs),
    )


def _write_stripped(
    corpus: corpora.Corpus, files: list[tuple[str, bytes, str]], defs: list[Node], concept: list[Query]
) -> tuple[list[Query], int]:
    """Write the stripped copy; return the concept queries whose answers verifiably lost their doc."""
    source = corpus.dir
    dest = STRIPPED / corpus.name
    by_key = {(d.path, d.qualified_name): d for d in defs}
    targets: dict[str, list[Node]] = {}
    for q in concept:
        targets.setdefault(q.path, []).append(by_key[(q.path, q.qualified_name)])
    language_of = {rel: lang for rel, _, lang in files}

    wanted: dict[str, bytes] = {}
    for path in sorted(source.rglob("*")):
        if path.is_file():
            rel = path.relative_to(source).as_posix()
            wanted[rel] = path.read_bytes()
    ok: set[tuple[str, str]] = set()
    for rel, nodes in targets.items():
        stripped = strip_docs(wanted[rel], language_of[rel], nodes)
        after = {
            n.qualified_name: n for n in parse_file(rel, stripped, language_of[rel]).nodes if n.part == 0
        }
        for node in nodes:
            new = after.get(node.qualified_name)
            if new is not None and not new.doc and new.kind == node.kind:
                ok.add((rel, node.qualified_name))
        wanted[rel] = stripped

    # Write only what differs, so the incremental index build sees unchanged files as unchanged.
    dest.mkdir(parents=True, exist_ok=True)
    for path in sorted(dest.rglob("*"), reverse=True):
        rel = path.relative_to(dest).as_posix()
        if path.is_file() and rel not in wanted:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    for rel, data in wanted.items():
        target = dest / rel
        if target.is_file() and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    # A sentence that still occurs in the stripped copy (another function's doc says the same) would
    # make the lexical stream find that other place: such a query has no single answer.
    corpus_text = "\n".join(normalize(data.decode("utf-8", "replace")) for data in wanted.values())
    kept = [
        q
        for q in concept
        if (q.path, q.qualified_name) in ok and f" {normalize(q.query)} " not in f" {corpus_text} "
    ]
    return kept, len(targets)


# --- files ----------------------------------------------------------------------------------------


def _qry_commit() -> str:
    proc = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=corpora.HERE, capture_output=True, text=True, check=False
    )
    return proc.stdout.strip() or "unknown"


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "absent"


def manifest_key(corpus_list: list[corpora.Corpus], per_kind: int, seed: int) -> dict[str, object]:
    """What the query files depend on: when any of it changes, they are regenerated."""
    return {
        "generator": GENERATOR_VERSION,
        "seed": seed,
        "per_kind": per_kind,
        "corpora": {c.name: c.stamp_data() for c in corpus_list},
        "tree_sitter_language_pack": _version("tree-sitter-language-pack"),
        "parser_digest": _parser_digest(),
    }


def _parser_digest() -> str:
    """A hash of qry's parsing sources: a changed extractor may change names, docs or lines."""
    import indexlib.index.parsing as parsing

    h = hashlib.sha1()
    for path in sorted(Path(parsing.__file__).parent.glob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def load(corpus: str) -> list[Query]:
    path = QUERIES / f"{corpus}.jsonl"
    return [Query(**json.loads(line)) for line in path.read_text().splitlines() if line.strip()]


def is_current(corpus_list: list[corpora.Corpus], per_kind: int = PER_KIND, seed: int = SEED) -> bool:
    if not MANIFEST.is_file():
        return False
    try:
        manifest = json.loads(MANIFEST.read_text())
    except ValueError:
        return False
    key = manifest_key(corpus_list, per_kind, seed)
    same = all(manifest.get(k) == v for k, v in key.items() if k != "corpora")
    have = manifest.get("corpora", {})
    return same and all(
        have.get(c.name) == c.stamp_data()
        and (QUERIES / f"{c.name}.jsonl").is_file()
        and (STRIPPED / c.name).is_dir()
        for c in corpus_list
    )


def ensure(
    corpus_list: list[corpora.Corpus], per_kind: int = PER_KIND, seed: int = SEED
) -> dict[str, object]:
    """Generate the query files unless they are current; returns the manifest."""
    if not is_current(corpus_list, per_kind, seed):
        write_all(corpus_list, per_kind, seed)
    manifest: dict[str, object] = json.loads(MANIFEST.read_text())
    return manifest


def write_all(
    corpus_list: list[corpora.Corpus], per_kind: int = PER_KIND, seed: int = SEED
) -> dict[str, object]:
    """Generate every corpus's queries and stripped copy, and the manifest (for the corpora given)."""
    QUERIES.mkdir(parents=True, exist_ok=True)
    previous: dict[str, object] = {}
    if MANIFEST.is_file():
        try:
            previous = json.loads(MANIFEST.read_text())
        except ValueError:
            previous = {}
    key = manifest_key(corpus_list, per_kind, seed)
    same_key = all(previous.get(k) == v for k, v in key.items() if k != "corpora")
    stats: dict[str, object] = dict(previous.get("stats", {})) if same_key else {}  # type: ignore[call-overload]
    corpora_pins: dict[str, object] = dict(previous.get("corpora", {})) if same_key else {}  # type: ignore[call-overload]
    for corpus in corpus_list:
        result = generate(corpus, per_kind, seed)
        lines = [json.dumps(asdict(q), sort_keys=True) for q in result.queries]
        (QUERIES / f"{corpus.name}.jsonl").write_text("\n".join(lines) + "\n")
        counts = Counter(q.kind for q in result.queries)
        stats[corpus.name] = {
            "queries": {k: counts.get(k, 0) for k in KINDS},
            "candidates": result.candidates,
            "definitions": result.definitions,
            "concept_dropped_after_strip": result.dropped_after_strip,
            "stripped_files": result.stripped_files,
        }
        corpora_pins[corpus.name] = corpus.stamp_data()
    manifest = {**key, "corpora": corpora_pins, "stats": stats, "qry_commit": _qry_commit(),
                "python": sys.version.split()[0]}  # fmt: skip
    MANIFEST.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", nargs="*", help="corpus names (default: all)")
    parser.add_argument("--per-kind", type=int, default=PER_KIND)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--show", type=int, default=0, help="print N example queries per kind")
    args = parser.parse_args(argv)
    corpus_list = corpora.get(args.corpus)
    manifest = write_all(corpus_list, args.per_kind, args.seed)
    stats = manifest["stats"]
    assert isinstance(stats, dict)
    for corpus in corpus_list:
        print(corpus.name, json.dumps(stats[corpus.name]))
        if args.show:
            for kind in KINDS:
                for q in [q for q in load(corpus.name) if q.kind == kind][: args.show]:
                    print(f"  {kind:12} {q.query!r:70} -> {q.path}:{q.start_line} {q.qualified_name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
