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
import re

from indexlib.engines.lexical import StoredNode
from indexlib.graph.cargolayout import children_folder, crate_of, crate_roots, crate_src
from indexlib.graph.targets import module_path_matches
from indexlib.records import Node

# `self::x` is left out: split_target spells it as `self.x`, a method call on `self`, far commoner.
PATH_HEADS = frozenset({"crate", "super"})


def _module_files(folder: str, caller: str) -> list[str]:
    """The module whose children live in `folder`, as anchored module paths (targets.anchored):
    the caller's crate's `src` is its root, `lib.rs` or `main.rs` (a binary's `src/bin/x/main.rs`,
    cargolayout.crate_roots); any other folder `x` is `x.rs` or `x/mod.rs`, both of which the
    anchored `/x` names."""
    if folder == crate_src(caller):
        return list(crate_roots(caller))
    return [f"/{folder}"]


def _start(caller: str, segments: list[str], inline: int = 0) -> tuple[str, list[str]] | None:
    """The children folder the leading `crate` or `super` segments name, and the rest. The first
    `inline` `super`s leave the `mod x { .. }` blocks of the caller's file it sits in: they name
    the file's own module, whose children folder is the caller's own."""
    folder = children_folder(caller)
    i = 0
    if segments and segments[0] == "crate":
        folder, i = crate_src(caller), 1
    while i < len(segments) and segments[i] == "super":
        folder, i = (folder if i < inline else posixpath.dirname(folder)), i + 1
    return (folder, segments[i:]) if i else None


def inline_modules(n: Node) -> int:
    """How many `mod x { .. }` blocks of its file the Rust definition `n` sits in: the leading
    snake_case names of its qualified name's container (`tests.runs`, `tests.Fake.run`: 1), since
    Rust names a module so and a type in CamelCase, and a file's own module is in no node's name."""
    container = n.qualified_name.split(".")[:-1]
    return next((i for i, part in enumerate(container) if not part[:1].islower()), len(container))


def module_path_tier(n: Node, qualifier: str, cands: list[StoredNode]) -> list[StoredNode] | None:
    """The candidates a module-rooted qualifier of a Rust caller `n` (`crate::a`, `super::a::Type`)
    names: a free item of the module `a`, else a member of a type `Type` of the caller's crate;
    None for a qualifier that starts elsewhere or another language's."""
    caller = n.path
    rust = n.language == "rust" and qualifier
    started = _start(caller, qualifier.split("."), inline_modules(n)) if rust else None
    if started is None:
        return None
    folder, rest = started
    crate = crate_of(caller)
    module = _module_files(posixpath.join(folder, *rest), caller)
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


def on_value(text: str, target: str) -> bool:
    """Whether the Rust call `target` (`assets.themes`, `input.description.title`) is written in
    `text` on a value, `assets.themes()` (the dot maybe on the next line), and never through a path,
    `assets::themes()`: Rust writes a module's item with `::`, a method call with `.`, while a
    call's target spells both with a dot. A local or parameter named as a module (`let assets =
    ..` beside `mod assets;`) shadows it."""
    head, _, rest = target.partition(".")
    step = rest.partition(".")[0]
    if not step:
        return False
    written = rf"(?<![\w.:]){re.escape(head)}\s*{{}}\s*{re.escape(step)}\b"
    return bool(re.search(written.format(r"\."), text)) and not re.search(written.format("::"), text)


__all__ = ["PATH_HEADS", "inline_modules", "module_path_tier", "on_value"]
