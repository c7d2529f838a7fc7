"""Rust calls through a path that starts at a module: `crate::ser::to_writer(w)`,
`super::ser::to_writer(w)`, `super::super::de::parse(s)`, `crate::routing::Router::new()`.

Why: such a path names one module of the caller's crate by the crate's file layout, so the callee
is the function (or the type's member) defined in that module's file. Without this rule the
resolver read `super` as Python's `super()` (a base class: none, so no edge) and `crate::ser` as a
variable named `ser` (a method of a type `ser`: none), and serde_json's `super::ser::to_writer`
and `crate::de::from_trait` calls had no edge.

Pure: the resolver passes the caller's path, the written qualifier and the candidates of the
called name; the answer is the candidates the path names, or None when the qualifier does not
start at a module (`Foo::new`, `x.len`), where the resolver's other rules apply.
"""

from __future__ import annotations

import posixpath

from indexlib.engines.lexical import StoredNode
from indexlib.graph.outside import crate_of, crate_src
from indexlib.graph.targets import module_path_matches
from indexlib.records import Node

# `self::x` is left out: split_target spells it as `self.x`, a method call on `self`, far commoner.
PATH_HEADS = frozenset({"crate", "super"})
ROOT_FILES = ("lib", "main", "mod")  # a file whose child modules sit beside it, in its own folder


def children_folder(path: str) -> str:
    """The folder holding the child modules of the module file `path`: `src/lib.rs` and
    `src/value/mod.rs` keep theirs beside them (`src`, `src/value`), `src/ser.rs` under `src/ser`."""
    folder, name = posixpath.split(path)
    stem = name.rsplit(".", 1)[0]
    return folder if stem in ROOT_FILES else posixpath.join(folder, stem)


def _module_files(folder: str, crate_src: str) -> list[str]:
    """The module whose children live in `folder`, as anchored module paths (targets.anchored):
    a crate's `src` is its root, `lib.rs` or `main.rs`; any other folder `x` is `x.rs` or
    `x/mod.rs`, both of which the anchored `/x` names."""
    if folder == crate_src:
        return [f"/{folder}/{root}" for root in ("lib", "main")]
    return [f"/{folder}"]


def _start(caller: str, segments: list[str]) -> tuple[str, list[str]] | None:
    """The children folder the leading `crate` or `super` segments name, and the rest."""
    folder = children_folder(caller)
    i = 0
    if segments and segments[0] == "crate":
        folder, i = crate_src(caller), 1
    while i < len(segments) and segments[i] == "super":
        folder, i = posixpath.dirname(folder), i + 1
    return (folder, segments[i:]) if i else None


def module_path_tier(n: Node, qualifier: str, cands: list[StoredNode]) -> list[StoredNode] | None:
    """The candidates a module-rooted qualifier of a Rust caller `n` (`crate::a`, `super::a::Type`)
    names: a free item of the module `a`, else a member of a type `Type` of the caller's crate;
    None for a qualifier that starts elsewhere or another language's."""
    caller = n.path
    started = _start(caller, qualifier.split(".")) if n.language == "rust" and qualifier else None
    if started is None:
        return None
    folder, rest = started
    crate = crate_of(caller)
    module = _module_files(posixpath.join(folder, *rest), crate_src(caller))
    free = [
        c
        for c in cands
        if "." not in c.node.qualified_name and any(module_path_matches(c.node.path, m) for m in module)
    ]
    if free or not rest:
        return free
    # A type's members may sit in an `impl` anywhere in its crate: the type's name and crate decide.
    return [
        c
        for c in cands
        if f".{c.node.qualified_name}".endswith(f".{rest[-1]}.{c.node.name}")
        and crate_of(c.node.path) == crate
    ]


__all__ = ["PATH_HEADS", "children_folder", "module_path_tier"]
