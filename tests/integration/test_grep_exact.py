"""`qry grep` finds exactly the (path, line) pairs ripgrep finds, pattern for pattern, on real code.

Two corpora: a copy of packages of this interpreter's standard library, and the Python tree of an
installed large real project (Ray, from the test extra: 2,500 files and 28 MB of code written by
many hands, with its vendored third-party folders). For 520 generated patterns,
every class named below, the set of matches of `run_grep` (with the n-gram index, and for a share
of them without it) must equal `rg` run with the equivalent flags over the same files (the files
grep searches, `searched_files`). Then files are edited, added and deleted without re-indexing and
every pattern is checked again. A mismatch fails the test with the pattern, its class and the differing lines.

Patterns stay in the syntax both engines read the same way (see docs/cli.md, "qry grep syntax"):
literals escaped by hand (only `\\.^$*+?()[]{}|`), `\\w`, `\\d`, `\\b`, classes of ASCII characters,
`^`, `$`, `.`, `*`, `+`, `?`, `{m,n}`, groups and alternation; no `\\s` (Python's includes
\\x1c-\\x1f), no look-around, no backreferences.
"""

from __future__ import annotations

import importlib.util
import random
import re
import shutil
import subprocess
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

from indexlib import BuildOptions, build_index
from indexlib.grep.api import GrepRequest, run_grep
from indexlib.grep.files import searched_files
from tests.tools import ripgrep

RG = ripgrep()
PACKAGES = ("json", "email", "asyncio", "http", "logging", "urllib", "concurrent", "xml", "importlib", "html")
CLASSES = ("literal", "fixed", "case", "smart", "word", "alternation", "class", "anchor", "dotstar")
N_PATTERNS = 520

pytestmark = pytest.mark.skipif(RG is None, reason="ripgrep (rg) is not installed")


def _escape(text: str) -> str:
    return re.sub(r"([\\.^$*+?()\[\]{}|])", r"\\\1", text)


#: What the large corpus copy leaves out: bytecode and the package's binaries (tens of MB that discovery
#: skips as binary anyway; rg is given discovery's file list, so they would never be compared).
LARGE_SKIP = ("__pycache__", "*.so", "*.so.*", "*.jar", "*.map", "gcs_server", "raylet")
#: Every Nth pattern is also checked by a scan without the index, before and after the edits. A scan of
#: the large corpus is pure Python over 28 MB (about a second), so it is sampled more thinly there;
#: the indexed answer, the one that can go stale, is checked for every pattern on both.
SCAN_EVERY = {"stdlib": (5, 10), "large": (25, 50)}


def _large_package() -> Path | None:
    spec = importlib.util.find_spec("ray")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _corpus(root: Path, name: str) -> None:
    if name == "stdlib":
        std = Path(sysconfig.get_paths()["stdlib"])
        for package in PACKAGES:
            shutil.copytree(std / package, root / package, ignore=shutil.ignore_patterns("__pycache__"))
        return
    source = _large_package()
    if source is None:
        pytest.skip("the large corpus is the installed Ray package (the test extra); it is not installed")
    shutil.copytree(source, root / source.name, ignore=shutil.ignore_patterns(*LARGE_SKIP))


def _files(root: Path) -> list[str]:
    """The files qry searches, from the library function that says so (grep's own walk and content
    checks, text files of types qry does not parse included): rg gets these."""
    return searched_files(root)


def _words(root: Path, files: list[str]) -> tuple[list[str], list[str]]:
    idents: set[str] = set()
    lines: list[str] = []
    for f in files:
        text = (root / f).read_text("utf-8", errors="surrogateescape")
        idents.update(re.findall(r"\b[A-Za-z_][A-Za-z0-9_]{3,20}\b", text))
        lines.extend(line for line in text.split("\n") if len(line.strip()) > 12 and line.isascii())
    return sorted(idents), lines


def generate(root: Path, files: list[str], seed: int = 14) -> list[tuple[str, str, tuple[str, ...]]]:
    """(class, pattern, rg flags) triples, N_PATTERNS of them, every class about equally often."""
    rnd = random.Random(seed)
    idents, lines = _words(root, files)

    def ident() -> str:
        return rnd.choice(idents)

    def slice_of_line() -> str:
        line = rnd.choice(lines).strip()
        start = rnd.randrange(0, max(1, len(line) - 4))
        return line[start : start + rnd.randint(4, 14)]

    def flip(s: str) -> str:
        return "".join(c.upper() if rnd.random() < 0.5 else c.lower() for c in s)

    makers = {
        "literal": lambda: (_escape(slice_of_line()), ()),
        "fixed": lambda: (slice_of_line(), ("-F",)),
        "case": lambda: (_escape(flip(ident())), ("-i",)),
        "smart": lambda: (rnd.choice([ident().lower(), ident()]), ("-S",)),
        "word": lambda: (rnd.choice([ident(), ident()[:5], ident().lower()]), ("-w",)),
        "alternation": lambda: (
            rnd.choice(
                [
                    f"{ident()}|{ident()}|{ident()}",
                    f"({ident()[:4]}|{ident()[:4]})_\\w+",
                    f"(get|set|has)_{ident()[:3].lower()}",
                    f"{ident()}(s|ed|ing)?\\b",
                ]
            ),
            (),
        ),
        "class": lambda: (
            rnd.choice(
                [
                    "[A-Z][a-z]+Error",
                    f"{ident()[:5]}[0-9]",
                    "[0-9]{3,}",
                    f"[{ident()[:3]}]{{3}}{ident()[:2]}",
                    f"\\d+\\.{ident()[:3]}",
                    f"[^a-z ]{{{rnd.randint(3, 6)}}}{ident()[:3]}",
                    f"{ident()[:4]}\\w*[A-Z]",
                ]
            ),
            (),
        ),
        "anchor": lambda: (
            rnd.choice(
                [
                    f"^import {ident()[:3]}",
                    f"^ *def {ident()[:4]}",
                    f"{ident()[:5]}$",
                    ":$",
                    f"^class \\w+\\({ident()[:2]}",
                    f"^ +return {ident()[:3]}",
                    "^$",
                    f"^{_escape(slice_of_line()[:5])}",
                ]
            ),
            (),
        ),
        "dotstar": lambda: (
            rnd.choice(
                [
                    f"{ident()}.*{ident()[:3]}",
                    f"def .*{ident()[:4]}",
                    f"{ident()[:4]}.+\\(",
                    f"self\\..*{ident()[:3]}.*:",
                    f"\\b{ident()[:5]}.*=",
                ]
            ),
            (),
        ),
    }
    out = []
    for i in range(N_PATTERNS):
        cls = CLASSES[i % len(CLASSES)]
        pattern, flags = makers[cls]()
        out.append((cls, pattern, tuple(flags)))
    return out


def rg_matches(root: Path, files: list[str], pattern: str, flags: tuple[str, ...]) -> set[tuple[str, int]]:
    assert RG is not None
    run = subprocess.run(
        [RG, "--no-config", "-n", "--no-heading", "--with-filename", *flags, "-e", pattern, "--", *files],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode in (0, 1), (pattern, run.stderr)
    out: set[tuple[str, int]] = set()
    for line in run.stdout.splitlines():
        path, num, _rest = line.split(":", 2)
        out.add((path, int(num)))
    return out


def qry_matches(root: Path, pattern: str, flags: tuple[str, ...], *, use_index: bool) -> set[tuple[str, int]]:
    out: set[tuple[str, int]] = set()

    def on_file(display: str, _text: str, lines: list[tuple[int, int, int]], *_rest: object) -> None:
        out.update((display, n) for n, _s, _e in lines)

    request = GrepRequest(
        pattern=pattern,
        fixed="-F" in flags,
        ignore_case="-i" in flags,
        smart_case="-S" in flags,
        word="-w" in flags,
        use_index=use_index,
        index_dir=str(root / ".qry") if use_index else None,
        cwd=str(root),
    )
    summary = run_grep(request, on_file)
    assert summary.index_used is use_index
    return out


def _compare(
    root: Path, patterns: list[tuple[str, str, tuple[str, ...]]], *, scan_every: int
) -> Iterator[str]:
    files = _files(root)
    for i, (cls, pattern, flags) in enumerate(patterns):
        expected = rg_matches(root, files, pattern, flags)
        modes = [True, False] if i % scan_every == 0 else [True]
        for use_index in modes:
            got = qry_matches(root, pattern, flags, use_index=use_index)
            if got != expected:
                yield (
                    f"[{cls}] {pattern!r} {flags} index={use_index}: "
                    f"only qry {sorted(got - expected)[:5]}, only rg {sorted(expected - got)[:5]}"
                )


@pytest.fixture(scope="module", params=["stdlib", "large"])
def corpus(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("grep") / request.param
    root.mkdir()
    _corpus(root, request.param)
    build_index(root, BuildOptions(embed="none", git_times=False))
    return root


def test_generated_patterns_cover_every_class(corpus: Path) -> None:
    patterns = generate(corpus, _files(corpus))
    assert len(patterns) >= 500
    assert {cls for cls, _p, _f in patterns} == set(CLASSES)


def test_grep_equals_ripgrep_then_after_edits(corpus: Path) -> None:
    patterns = generate(corpus, _files(corpus))
    matched = sum(1 for _c, p, f in patterns[:60] if rg_matches(corpus, _files(corpus), p, f))
    assert matched > 30, "most generated patterns should match something, or the test proves little"
    first, second = SCAN_EVERY[corpus.name]
    mismatches = list(_compare(corpus, patterns, scan_every=first))
    assert not mismatches, "\n".join(mismatches[:20])

    # Edit, add and delete without re-indexing: the overlay must make the answer a scan of the tree now.
    rnd = random.Random(7)
    files = _files(corpus)
    literals = [p for c, p, f in patterns if c in ("literal", "fixed", "word")][:40]
    for f in rnd.sample(files, 8):
        path = corpus / f
        path.write_text(path.read_text("utf-8") + "\n".join(literals[:20]) + "\n", "utf-8")
    for f in rnd.sample(files, 5):
        (corpus / f).unlink()
    (corpus / "added").mkdir()
    for i in range(4):
        (corpus / "added" / f"new_{i}.py").write_text(
            "\n".join(literals[i * 10 : i * 10 + 10]) + "\n", "utf-8"
        )
    mismatches = list(_compare(corpus, patterns, scan_every=second))
    assert not mismatches, "\n".join(mismatches[:20])
