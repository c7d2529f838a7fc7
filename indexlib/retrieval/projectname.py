"""The names a project is imported by, and a question's word naming its own project.

Owns: reading the package name a repository declares at its top (Cargo.toml, package.json,
pyproject.toml, go.mod), and weighing such a word down in BM25 when a sentence names the project it
searches (`where does serde_json escape strings` in serde_json). Every file of a project is about
the project, so its name says nothing of where in it the answer is; but the name is written where
code imports it (`use serde_json::json;` in doc examples, `from black import`), and those lines ranked
first (serde_json: five doc examples before `format_escaped_str`). A name that is also a definition's
(jsoup's class `Jsoup`, go-task's `Task`) is the user's word for it and keeps its weight.
"""

from __future__ import annotations

import functools
import json
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path

from indexlib.analyzer import query_terms
from indexlib.retrieval.definitions import exact_definitions
from indexlib.retrieval.query import Query
from indexlib.snapshot import Snapshot

PROJECT_FILES_CACHED = 64  # source roots whose project names are kept
MANIFEST_MAX_BYTES = 1 << 20  # a package manifest read for its name; a larger one is no manifest
_GO_MODULE = re.compile(r"^module\s+(\S+)", re.MULTILINE)
_GO_VERSION = re.compile(r"/v\d+$")
_EDGES = "`'\"()[]{}<>,.;:!?"


def normal(name: str) -> str:
    """A name as compared: lower case, `-` as `_` (`serde-json` is the crate `serde_json`)."""
    return name.strip().lower().replace("-", "_")


@functools.lru_cache(maxsize=PROJECT_FILES_CACHED)
def project_names(source_root: str) -> frozenset[str]:
    """The package names the repository at `source_root` declares at its top: Cargo.toml's
    [package] name, package.json's name (without its `@scope/`), pyproject.toml's [project] name,
    go.mod's module path's last element (without a `/vN`). Not the folder's name: a clone of
    serde-rs/json is `json`, a word of nearly every question asked of it."""
    root = Path(source_root)
    found: list[str] = []
    for name, read in (
        ("Cargo.toml", lambda t: tomllib.loads(t).get("package", {}).get("name")),
        ("pyproject.toml", lambda t: tomllib.loads(t).get("project", {}).get("name")),
        ("package.json", lambda t: str(json.loads(t).get("name") or "").rsplit("/", 1)[-1]),
        (
            "go.mod",
            lambda t: (
                _GO_VERSION.sub("", m.group(1)).rsplit("/", 1)[-1] if (m := _GO_MODULE.search(t)) else None
            ),
        ),
    ):
        path = root / name
        try:
            if path.stat().st_size > MANIFEST_MAX_BYTES:
                continue
            got = read(path.read_text(encoding="utf-8", errors="replace"))
        except (OSError, ValueError, AttributeError, tomllib.TOMLDecodeError):
            continue
        if isinstance(got, str) and got.strip():
            found.append(normal(got))
    return frozenset(found)


def project_name_boosts(
    snap: Snapshot, q: Query, boosts: Mapping[str, float], weight: float
) -> Mapping[str, float]:
    """`boosts` with the BM25 terms of a word of `q` naming the searched project times `weight`,
    unless a definition has that name or another word of `q` gives the same term."""
    names = project_names(snap.manifest.source_root)
    if not names:
        return boosts
    naming = [w for w in q.terms if normal(w.strip(_EDGES)) in names]
    naming = [w for w in naming if not exact_definitions(snap, w.strip(_EDGES))]
    if not naming or len(naming) == len(q.terms):
        return boosts
    kept = {t for w in q.terms if w not in naming for t in query_terms(w)}
    out = dict(boosts)
    for w in naming:
        for t in query_terms(w.strip(_EDGES)):
            if t not in kept:
                out[t] = out.get(t, 1.0) * weight
    return out
