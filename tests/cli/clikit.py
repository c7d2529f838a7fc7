"""Helpers of the CLI tests: run `qry` as a real subprocess, normalise volatile output, compare goldens.

Owns: how the CLI is launched in tests (`python -m cli`, no tty, NO_COLOR=1, COLUMNS=100, no inherited
QRY_INDEX_DIR), the normalisation of fields that change from run to run (root ids, times, elapsed
milliseconds, the temporary repository path), the table of bad inputs several tests share, and the
golden-file switch: `QRY_UPDATE_GOLDENS=1 pytest tests/cli` rewrites `tests/cli/golden/*` instead of
comparing, so an intended change is one command and shows up as a reviewable diff.
Does not own: the fixtures (tests/cli/conftest.py).
"""

from __future__ import annotations

import difflib
import os
import re
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
UPDATE_ENV = "QRY_UPDATE_GOLDENS"


@dataclass(frozen=True, slots=True)
class Run:
    """One finished `qry` process."""

    args: tuple[str, ...]
    code: int
    out: str
    err: str

    def describe(self) -> str:
        return f"qry {' '.join(self.args)} -> {self.code}\n--- stdout\n{self.out}--- stderr\n{self.err}"


RunQry = Callable[..., Run]


def cli_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment every CLI subprocess gets: pinned width, no colour, no index from the caller."""
    env = {k: v for k, v in os.environ.items() if k not in ("QRY_INDEX_DIR", "FORCE_COLOR", "CLICOLOR_FORCE")}
    env.update(
        {"NO_COLOR": "1", "COLUMNS": "100", "LINES": "40", "TERM": "dumb", "PYTHONIOENCODING": "utf-8"}
    )
    env.update(extra or {})
    return env


def run_qry_process(*args: str, cwd: Path, env: Mapping[str, str] | None = None, timeout: float = 120) -> Run:
    """Run `python -P -m cli ARGS` with stdin closed and stdout/stderr captured (so neither is a tty).

    `-P` keeps the working directory off sys.path, as the installed `qry` script has it: a repository
    under test with a `cli/` folder of its own must not shadow qry's."""
    proc = subprocess.run(
        [sys.executable, "-P", "-m", "cli", *args],
        cwd=cwd,
        env=cli_env(env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
    )
    return Run(args=tuple(args), code=proc.returncode, out=proc.stdout, err=proc.stderr)


# Bad input on the shared index, shared by the exit-code tests and the error-message golden:
# name -> (arguments, what the first stderr line must contain)
BAD_INPUT: dict[str, tuple[tuple[str, ...], str]] = {
    "top-k-zero": (("search", "charge", "--top-k", "0"), "--top-k must be between 1 and"),
    "top-k-too-big": (("search", "charge", "-k", "100000"), "--top-k must be between 1 and"),
    "snippet-chars": (("search", "charge", "--snippet-chars", "10"), "--snippet-chars must be between 80"),
    "mode": (("search", "charge", "--mode", "bogus"), "unknown mode 'bogus'"),
    "lang-in-query": (("search", "charge lang:cobol"), "unknown language 'cobol'"),
    "lang-option": (("search", "charge", "--lang", "cobol"), "unknown language 'cobol'"),
    "kind": (("search", "charge", "--kind", "gadget"), "unknown kind 'gadget'"),
    "negated-kind": (("search", "charge -kind:method"), "-kind: is not supported"),
    "empty-filter": (("search", "charge path:"), "the filter path: has no value"),
    "json-and-jsonl": (("search", "charge", "--json", "--jsonl"), "--json and --jsonl exclude each other"),
    "graph-depth": (("search", "charge", "--graph-depth", "5"), "--graph-depth must be between 0 and 4"),
    "rrf-k": (("search", "charge", "--rrf-k", "0"), "--rrf-k must be at least 1"),
    "budget-tokens-negative": (
        ("search", "charge", "--budget-tokens", "-5"),
        "--budget-tokens must be at least 1, not -5",
    ),
    "budget-tokens-zero": (
        ("search", "charge", "--budget-tokens", "0", "--json"),
        "--budget-tokens must be at least 1, not 0",
    ),
    "query-only-excludes": (("search", "--", "-charge"), "the query only excludes words (-charge)"),
    "since": (("search", "charge", "--since", "the day after never"), "cannot read 'the day after never'"),
    "root": (("search", "charge", "--root", "ffffffff"), "no root matches"),
    "model-missing": (
        ("search", "charge", "--model", "/no/such/model"),
        "--model '/no/such/model' holds no model.onnx",
    ),
    "since-after-until": (
        ("search", "charge", "--since", "2025-01-01", "--until", "2020-01-01"),
        "--since 2025-01-01 is after --until 2020-01-01",
    ),
    "semantic-without-vectors": (("search", "retry", "--mode", "semantic"), "this index has no vectors"),
    "related-depth": (("related", "charge", "--depth", "0"), "--depth must be between 1 and 4"),
    "graph-write": (("graph", "MATCH (n) DELETE n"), "read_only"),
    "graph-unbounded": (("graph", "MATCH (a)-[:calls*]->(b) RETURN b"), "unbounded"),
    "graph-param": (("graph", "MATCH (n) RETURN n", "--param", "novalue"), "is not NAME=VALUE"),
    "gc-keep": (("gc", "--keep", "0"), "--keep must be at least 1"),
    "index-threads": (
        ("index", "--threads", "-1", "--embed", "none"),
        "--threads must be at least 0, not -1",
    ),
    "index-max-file-bytes": (
        ("index", "--max-file-bytes", "0"),
        "--max-file-bytes must be at least 1, not 0",
    ),
    "index-wait": (("index", "--wait", "-2"), "--wait must be at least 0, not -2"),
}


_VOLATILE_JSON = {
    "elapsed_ms": 0,
    "elapsed": 0,
    "published_at": 0,
    "created_at": 0,
    "last_changed": 0,
    "size_bytes": 0,
    "timings": {},
}


def _scrub(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: (_VOLATILE_JSON[k] if k in _VOLATILE_JSON and v is not None else _scrub(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    return value


class Normaliser:
    """Replace what changes between runs with stable placeholders; everything else must match byte for byte."""

    def __init__(self, repo: Path, root: str) -> None:
        self.paths = sorted({str(repo), str(repo.resolve())}, key=len, reverse=True)
        self.root = root

    def text(self, text: str) -> str:
        for p in self.paths:
            text = text.replace(p, "<REPO>")
        # the root id in full, or its 16- or 12-character prefix (status, roots, the table footer)
        text = re.sub(rf"\b{self.root[:12]}[0-9a-f]*\b", "<ROOT>", text)
        text = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", "<TIME>", text)
        text = re.sub(r"\b\d+(\.\d+)? (B|KiB|MiB|GiB)\b", "<SIZE>", text)
        text = re.sub(r"\b\d+ ms\b", "<N> ms", text)
        text = re.sub(r"\bin \d+\.\d+ s\b", "in <N> s", text)
        return text

    def json_line(self, line: str) -> str:
        """One JSON document: volatile fields zeroed by key (order of keys kept), then text rules."""
        return self.text(msgspec.json.encode(_scrub(msgspec.json.decode(line))).decode())

    def jsonl(self, text: str) -> str:
        return "".join(self.json_line(line) + "\n" for line in text.splitlines() if line.strip())


def check_golden(name: str, actual: str) -> None:
    """Compare `actual` with tests/cli/golden/NAME, or rewrite the file when QRY_UPDATE_GOLDENS=1."""
    path = GOLDEN_DIR / name
    if os.environ.get(UPDATE_ENV) == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"golden file {path} is missing; create it with {UPDATE_ENV}=1 pytest tests/cli")
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                f"golden/{name}",
                "actual",
            )
        )
        pytest.fail(f"output differs from golden/{name} (rewrite with {UPDATE_ENV}=1 if intended):\n{diff}")


def assert_clean_stderr(run: Run) -> None:
    """No Python traceback ever reaches the user."""
    assert "Traceback (most recent call last)" not in run.err, run.describe()
