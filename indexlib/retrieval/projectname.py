"""The names a project is imported by, and a question's word naming its own project.

Owns: reading the package name a repository declares at its top in the manifest of its main
language (Cargo.toml, pyproject.toml, go.mod, package.json), and weighing such a word down in BM25
when a sentence names the project it searches (`where does serde_json escape strings` in serde_json). Every file of a project is about
the project, so its name says nothing of where in it the answer is; but the name is written where
code imports it (`use serde_json::json;` in doc examples, `from black import`), and those lines ranked
first (serde_json: five doc examples before `format_escaped_str`). A name that is also a definition's
(jsoup's class `Jsoup`, go-task's `Task`) is the user's word for it and keeps its weight.
"""

from __future__ import annotations

import functools
import json
import tomllib
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from indexlib.analyzer import query_terms
from indexlib.manifests import CARGO, GO_MOD, cargo_package, go_module, go_package_name
from indexlib.retrieval.definitions import exact_definitions
from indexlib.retrieval.query import Query
from indexlib.snapshot import Snapshot

PROJECT_FILES_CACHED = 64  # source roots whose project names are kept
MANIFEST_MAX_BYTES = 1 << 20  # a package manifest read for its name; a larger one is no manifest
_EDGES = "`'\"()[]{}<>,.;:!?"


def normal(name: str) -> str:
    """A name as compared: lower case, `-` as `_` (`serde-json` is the crate `serde_json`)."""
    return name.strip().lower().replace("-", "_")


# The manifest that names a project written in each language (its import name). One per language: a
# Go repository's package.json names its npm wrapper (go-task's `@go-task/cli`), not the project.
MANIFESTS: dict[str, str] = {
    "rust": CARGO,
    "python": "pyproject.toml",
    "go": GO_MOD,
    "javascript": "package.json",
    "typescript": "package.json",
}
_PROSE = frozenset({"text", "markdown"})


def _read_name(manifest: str, text: str) -> object:
    """The package name `text` (a MANIFESTS file) declares, or None."""
    if manifest == GO_MOD:
        module = go_module(text)
        return go_package_name(module) if module else None
    if manifest == CARGO:
        return cargo_package(text)
    if manifest == "package.json":
        return str(json.loads(text).get("name") or "").rsplit("/", 1)[-1]
    table = tomllib.loads(text).get("project", {})
    return table.get("name") if isinstance(table, dict) else None


@functools.lru_cache(maxsize=PROJECT_FILES_CACHED)
def declared_names(source_root: str) -> dict[str, str]:
    """manifest -> the package name it declares, for each MANIFESTS file at `source_root`'s top:
    Cargo.toml's [package] name, pyproject.toml's [project] name, go.mod's module path's package
    (without a `/vN`), package.json's name (without its `@scope/`). Not the folder's name: a clone
    of serde-rs/json is `json`, a word of nearly every question asked of it."""
    out: dict[str, str] = {}
    for manifest in sorted(set(MANIFESTS.values())):
        path = Path(source_root) / manifest
        try:
            if path.stat().st_size > MANIFEST_MAX_BYTES:
                continue
            got = _read_name(manifest, path.read_text(encoding="utf-8", errors="replace"))
        except (OSError, ValueError, AttributeError, tomllib.TOMLDecodeError):
            continue
        if isinstance(got, str) and got.strip():
            out[manifest] = normal(got)
    return out


def project_names(source_root: str, language: str) -> frozenset[str]:
    """The package name the manifest of the repository's main `language` declares (declared_names):
    one manifest, since a Go repository's package.json names its npm wrapper."""
    name = declared_names(source_root).get(MANIFESTS.get(language, ""))
    return frozenset([name]) if name else frozenset()


_MAIN_LANGUAGE: dict[str, str] = {}  # root id -> main_language (a root never changes)


def main_language(snap: Snapshot) -> str:
    """The language most of the indexed files are written in (prose and plain text aside), counted
    once per root (a count holding no snapshot, which would keep its manifest alive)."""
    got = _MAIN_LANGUAGE.get(snap.root_id)
    if got is None:
        counts = Counter(f.language for f in snap.manifest.files.values() if f.language not in _PROSE)
        got = counts.most_common(1)[0][0] if counts else ""
        if len(_MAIN_LANGUAGE) >= PROJECT_FILES_CACHED:
            _MAIN_LANGUAGE.clear()
        _MAIN_LANGUAGE[snap.root_id] = got
    return got


def project_name_boosts(
    snap: Snapshot, q: Query, boosts: Mapping[str, float], weight: float
) -> Mapping[str, float]:
    """`boosts` with the BM25 terms of a word of `q` naming the searched project times `weight`,
    unless a definition has that name or another word of `q` gives the same term."""
    declared = declared_names(snap.manifest.source_root).values()
    if not any(normal(w.strip(_EDGES)) in declared for w in q.terms):
        return boosts  # the usual question: no count of the languages (a pass over every file)
    names = project_names(snap.manifest.source_root, main_language(snap))
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
