"""What a commit-style title says beside its words (its scope, the code it types in backticks), which
paths its scope names, which paths are prose rather than code, and which words of a query ask for
tests, generated code or docs.

Kept apart from fusion's signals because search plans with them too: the scope's files are found
once per query over the manifest, before any candidate is scored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from indexlib.analyzer import split_identifier

PATH_PARTS_CACHE = 65536  # folder and file names whose joined forms are kept (a few MB at most)
# A shorter scope (`io:`, `ui:`) names too many paths by accident inside their names (`ratio.rs`,
# `build/`) to count there: it counts only as a whole folder name or file stem (`io/`, `fs.go`).
MIN_SCOPE_CHARS = 3

# Words of a query that ask for tests, for generated code (a mock, a stub a generator wrote; a test
# word does not), for docs: code of that role is then no lower for it.
TEST_WORDS = frozenset(
    {"test", "tests", "testing", "spec", "specs", "example", "examples", "fixture", "fixtures", "mock", "mocks",
     "bench", "benches", "benchmark", "benchmarks"}
)  # fmt: skip
GENERATED_WORDS = frozenset({"generated", "mock", "mocks", "stub", "stubs"})
# Not `template`: in code it names a template engine's input, a C++ template, a component's
# markup or a scaffold a generator copies, far more often than an issue template (measured: 276
# commit titles of vite, where "template" is a project scaffold, +0.007 file MRR@10 without it).
DOCS_WORDS = frozenset({"doc", "docs", "documentation", "readme", "guide", "tutorial", "changelog"})

# Words asking for a project's changelog, which is otherwise no answer to a question (`changes`,
# `history` and `release` are as often words of the code).
HISTORY_WORDS = frozenset({"changelog", "changelogs"})

_DOCS_PATH = re.compile(r"(?:^|/)(?:docs?|documentation|\.github)(?:/|$)", re.IGNORECASE)
_PROSE_KINDS = frozenset({"section", "chunk"})
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


def is_docs(path: str, kind: str) -> bool:
    """Prose or project files rather than code: Markdown sections, text windows, docs/ and .github/."""
    return kind in _PROSE_KINDS or bool(_DOCS_PATH.search(path))


# A release-history file by its name: `CHANGELOG.md`, `CHANGES.rst`, `HISTORY`, `NEWS`, `RELEASES.md`.
_HISTORY_FILE = re.compile(
    r"(?:^|/)(?:change[-_]?log|changes|history|news|releases?|release[-_]notes)(?:\.(?:md|markdown|rst|txt|adoc))?$",
    re.IGNORECASE,
)


def prose_factors(
    path: str, kind: str, words: set[str], docs_penalty: float, history_penalty: float
) -> list[tuple[str, float]]:
    """The penalties prose takes for a question about code (`words`, lower-cased): docs unless it asks
    for docs, and a release-history file besides unless it asks for history. A changelog lists
    past changes' titles, so it holds the words of any change to come (a commit title, a bug report)
    without being where it lands; a docs word (`template`, `docs`) does not ask for it.

    >>> prose_factors("packages/vite/CHANGELOG.md", "section", {"css"}, 0.5, 0.5)
    [('docs, not code', 0.5), ('release history, not code', 0.5)]
    >>> prose_factors("CHANGES.md", "section", {"docs"}, 0.5, 0.5), prose_factors("src/history.ts", "function", set(), 0.5, 0.5)
    ([('release history, not code', 0.5)], [])
    """
    out = []
    if is_docs(path, kind) and not words & DOCS_WORDS:
        out.append(("docs, not code", docs_penalty))
    if _HISTORY_FILE.search(path) and not words & HISTORY_WORDS:
        out.append(("release history, not code", history_penalty))
    return out


def in_scope(path: str, scope: str) -> bool:
    """Whether a commit scope names `path`: a folder or file name holds it from one of its word
    boundaries on (`compilercore` is in `packages/compiler-core/src`, `keepalive` in `KeepAlive.ts`,
    `man` in `clap_mangen/`; `time` is not in `runtime/`, whose word it would only end), or, shorter
    than `MIN_SCOPE_CHARS`, is it whole (a folder name or file stem). A scope written as a path (`ignore/types`, `net/http`, `pkg/brew`) names the paths
    holding its steps in that order, each in a later folder or file name than the one before:
    `ignore/types` is `crates/ignore/src/default_types.rs`, which no single name holds.

    >>> in_scope("tokio/src/io/read.rs", "io"), in_scope("fs.go", "fs"), in_scope("src/ratio.rs", "io")
    (True, True, False)
    >>> in_scope("crates/ignore/src/default_types.rs", "ignore/types"), in_scope("src/types/ignore.rs", "ignore/types")
    (True, False)
    """
    parts = path.split("/")
    at = 0
    steps = [j for j in map(_scope_joined, scope.split("/")) if j]
    for step in steps:
        at = next((i + 1 for i in range(at, len(parts)) if _names_part(parts[i], step)), -1)
        if at < 0:
            return False
    return bool(steps)


@lru_cache(maxsize=PATH_PARTS_CACHE)
def _scope_joined(step: str) -> str:
    return "".join(split_identifier(step))


def _names_part(part: str, joined: str) -> bool:
    if len(joined) >= MIN_SCOPE_CHARS:
        return joined in _joined(part) and _names_from_a_word(part, joined)
    return _joined(part.split(".", 1)[0]) == joined


@lru_cache(maxsize=PATH_PARTS_CACHE)
def _joined(part: str) -> str:
    """A folder or file name with separators and case removed. For ASCII that is its letters and
    digits in lower case (what `split_identifier` keeps), at a tenth of the cost: most names of a
    root fail the scope's substring test here and are never split into words."""
    if part.isascii():
        return _NOT_ALNUM.sub("", part.lower())
    return "".join(split_identifier(part))


@lru_cache(maxsize=PATH_PARTS_CACHE)
def _word_suffixes(part: str) -> tuple[str, ...]:
    """A name's identifier words joined from each word on (`clap_mangen` -> `clapmangen`, `mangen`)."""
    words = split_identifier(part)
    return tuple("".join(words[i:]) for i in range(len(words)))


def _names_from_a_word(part: str, joined: str) -> bool:
    return any(s.startswith(joined) for s in _word_suffixes(part))


def scope_paths(files: Iterable[str], scope: str) -> list[str]:
    """The files a commit-style scope names (sorted): those with a folder or file name holding it.
    Empty when the scope is too short or names every file, so there is nothing to prefer."""
    if not scope:
        return []
    all_files = list(files)
    named = sorted(p for p in all_files if in_scope(p, scope))
    return named if len(named) < len(all_files) else []


CODE_SPAN = re.compile(r"`([^`\n]+)`")


def code_spans_of(text: str) -> list[str]:
    """The spans typed in backticks, as Markdown writes code in a commit title or an issue.

    >>> code_spans_of("time: wake `DelayQueue` when `clear` is called"), code_spans_of("no `close")
    (['DelayQueue', 'clear'], [])
    """
    return [m.group(1).strip() for m in CODE_SPAN.finditer(text) if m.group(1).strip()]


_MODULE_NAME = re.compile(r"[A-Za-z_][\w\-]*(?:(?:::|[./:])[A-Za-z_][\w\-]*)*")
_MODULE_SEP = re.compile(r"::|[.:]")


def module_files(files: Iterable[str], spans: Iterable[str]) -> list[str]:
    """The files a backticked module name names (sorted): `formatting` names `src/click/formatting.py`,
    `click.core` and `click/core` name `src/click/core.py`, `install.sh` names itself; a file whose
    name only holds the word (`test_formatting.py`) is not named. A title that types a module as code
    ("Add type annotations in `formatting`") says where the change is, as a scope does; the span's
    word alone also matches the many definitions that format. Empty when the spans name every file.

    >>> module_files(["src/click/core.py", "src/click/formatting.py", "tests/test_core.py"], ["click.core"])
    ['src/click/core.py']
    >>> module_files(["tokio/src/fs/mod.rs", "tokio/src/fs/file.rs", "tokio-util/src/io/mod.rs"], ["tokio::fs", "tokio_util::io"])
    ['tokio-util/src/io/mod.rs', 'tokio/src/fs/mod.rs']
    """
    all_files = list(files)
    tails: set[str] = set()
    for span in spans:
        if _MODULE_NAME.fullmatch(span):
            tails.add(span.replace("-", "_"))  # a file name as typed, extension and all
            tails.add(_MODULE_SEP.sub("/", span).replace("-", "_"))
    if not tails:
        return []
    named = sorted(p for p in all_files if not tails.isdisjoint(_module_names(p)))
    return named if len(named) < len(all_files) else []


# A file that is its folder's module: Rust's `mod.rs`, Python's `__init__.py`, a JavaScript `index.js`;
# and a Rust crate's root, named by the crate (`tokio/src/lib.rs` is `tokio`).
_FOLDER_MODULES = frozenset({"mod", "__init__", "index"})
_CRATE_ROOTS = frozenset({"lib.rs", "main.rs"})


def _module_names(path: str) -> set[str]:
    """How a module may be named: `src/click/core.py` -> `core`, `click/core`, `src/click/core`, and
    the same with the extension (`core.py`, ...); a folder's module by the folder (`tokio/src/fs/mod.rs`
    -> `fs`), a path without its `src/` folder as code names it (`tokio/fs`), a dash as the
    underscore a crate or package name has in code (`tokio_util/io`)."""
    parts = path.replace("-", "_").split("/")
    stem = parts[-1].rsplit(".", 1)[0] if "." in parts[-1].lstrip(".") else parts[-1]
    forms = [parts, [*parts[:-1], stem]]
    if stem in _FOLDER_MODULES:
        forms.append(parts[:-1])
    elif parts[-1] in _CRATE_ROOTS and parts[-2:-1] == ["src"]:
        forms.append(parts[:-2])
    forms += [[p for p in ps if p != "src"] for ps in forms if "src" in ps[:-1]]
    return {"/".join(ps[i:]) for ps in forms for i in range(len(ps)) if ps[i:]}


# `parser: x`, `fix(parser): x`; past a bracketed tag and in backticks too, as nvm writes its titles
# (`[Fix] \`nvm_alias\`: ...`, `[Robustness] \`install.sh\`: ...`).
_SCOPE = re.compile(r"^\s*(?:\[[^\]\n]*\]\s*)?(?:[A-Za-z]+\(([\w\-./]+)\)|`?([A-Za-z][\w\-./]*)`?):\s+\S")


def scope_of(text: str) -> str:
    """The scope a commit-style title opens with: `parser: x` and `fix(parser): x` -> `parser`.

    Titles name their area first by convention (a package, a module, a folder); it is a hint about
    where the answer lives, not a word the answer must contain.

    >>> scope_of("compiler-core: fix v-model"), scope_of("fix(lex): allow E"), scope_of("how: no")
    ('compiler-core', 'lex', 'how')
    >>> scope_of("[Fix] `install.sh`: avoid eval"), scope_of("[Fix] support arm64")
    ('install.sh', '')
    """
    m = _SCOPE.match(text)
    if m is None:
        return ""
    return m.group(1) or m.group(2) or ""
