"""Names an import binds to a definition inside a module rather than to the module itself.

`from pkg.mod import Klass` then `Klass.make()` (Rust: `use crate::routing::Router;` then
`Router::new()`) calls a member of the type the import names; the module is the import's target
without its last name. And a Rust path may start at a crate's root: `use crate::Json` (or
`use app::Json` for the workspace's crate `app`) names the crate's `src/lib.rs`, which passes `Json`
on from one of its modules (`pub use self::json::Json`, read by reexports.py). Without these rules
the resolver looked for a module named `pkg/mod/Klass` or `crate`, found none, and made no edge:
axum's `Router::new()` and `Json(..)` had no callers from the many files importing them so.

Pure: the resolver gives the files, a file's imports and which files implement a module, and asks
which definitions an imported name can mean.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping

from indexlib.engines.lexical import StoredNode
from indexlib.graph.cargolayout import children_folder, crate_roots, crate_src, package_roots, package_src
from indexlib.graph.reexports import REEXPORT_FILES, defined_in, passed_on
from indexlib.graph.targets import anchored, module_path_matches
from indexlib.manifests import CARGO, cargo_package
from indexlib.records import Ref, is_prototype, without_companion

LOCAL_ROOTS = frozenset({"crate", "self", "super"})  # a path from a root or the own module, not a child
CRATE_ROOT = "src/lib.rs"  # what makes a folder a library crate another crate can `use` by name


def crate_folders(files: Iterable[str]) -> dict[str, str]:
    """The workspace's library crates by the name `use` spells them (`axum_core`), to their folder
    ('' for one at the top), by Cargo's layout: the folder holding `src/lib.rs`, `-` read as `_`."""
    out: dict[str, str] = {}
    for p in files:
        if p == CRATE_ROOT or p.endswith("/" + CRATE_ROOT):
            folder = p[: -len(CRATE_ROOT)].rstrip("/")
            name = folder.rsplit("/", 1)[-1].replace("-", "_")
            if name:
                out.setdefault(name, folder)
    return out


def cargo_names(files: Iterable[str], text_of: Callable[[str], str]) -> dict[str, str]:
    """Library crates by the `[package] name` their Cargo.toml gives (`serde_json` for `serde-json`
    written either way), to their folder. Why: a crate at the repository's top has no folder name
    to go by, and a crate's folder may be named otherwise than the crate (`json/` holding
    `serde_json`), yet its tests and examples `use serde_json::to_writer`."""
    names = set(files)
    out: dict[str, str] = {}
    for p in names:
        if p != CARGO and not p.endswith("/" + CARGO):
            continue
        folder = p[: -len(CARGO)].rstrip("/")
        if f"{folder}/{CRATE_ROOT}".lstrip("/") not in names:
            continue  # a workspace's manifest or a program: nothing to `use`
        package = cargo_package(text_of(p))
        if package:
            out[package.replace("-", "_")] = folder
    return out


def rust_modules(
    module: str, importer: str, crates: Mapping[str, str], indexed: Callable[[str], bool]
) -> list[str]:
    """A Rust import's module as the files it names, anchored (`/axum/src/lib`, see targets.py):
    `crate` is the importer's crate root, `crate::a::b` its `src/a/b` (a binary's own, under
    `src/bin/`: cargolayout.py), a workspace crate's name (`axum_core`, `app::routing`) that crate's
    root or a module under its src/, and a path starting at a child module of the importer (`mod
    config;`, `use config::load` beside it) that child's file. When the anchored form names an
    indexed file (`indexed`) it is the answer alone; else the path is kept as written beside it
    and matched by suffix, as a path from elsewhere is. Why: by suffix `crate::output` named every
    `output.rs`, a test fixture's copy or another workspace crate's, and each call into it was
    ambiguous."""
    head, _, rest = module.partition(".")
    child = posixpath.join("/", children_folder(importer), *module.split("."))
    # A module is no child of itself: `#[path = "../src/x.rs"] mod x;` in `tests/x.rs`.
    if head not in LOCAL_ROOTS and not module_path_matches(importer, child) and indexed(child):
        return [child]
    if head == "crate":
        src, roots = crate_src(importer), crate_roots(importer)
    elif head in crates:
        src = package_src(crates[head])
        roots = package_roots(src)
    else:
        return [module]
    if not rest:
        return list(roots)
    path = f"/{src}/{rest.replace('.', '/')}"
    return [path] if indexed(path) else [path, module]


def imported_type_members(
    qualifier: str,
    cands: list[StoredNode],
    bound: list[Ref],
    importer: str,
    crates: Mapping[str, str] | None,
    module_files: Callable[[str], list[str]],
    file_imports: Callable[[str], list[Ref]],
) -> list[StoredNode]:
    """`Klass.make()` with `from pkg.mod import Klass` (or `import ... as K`, `K.make()`): the
    candidates that are members of a container named as the import's last name (and the rest of the
    qualifier), defined in the module the import takes it from or in the one that module passes it
    on from (`pkg/__init__.py`, a Rust crate's `lib.rs`). `crates` is given for a Rust importer
    (crate_folders): its `crate::` and workspace crates' paths name their roots (rust_modules)."""
    rest = qualifier.partition(".")[2]
    found: list[StoredNode] = []
    for r in bound:
        module, _, name = r.target.rpartition(".")
        if not module.strip("."):
            continue  # `import retry`: the module itself, which the resolver's module tier covers
        container = f"{name}.{rest}" if rest else name
        written = anchored(module, importer)
        mods = (
            rust_modules(written, importer, crates, lambda m: bool(module_files(m)))
            if crates is not None
            else [written]
        )
        files = [p for m in mods for p in module_files(m)][:REEXPORT_FILES]
        sources = [s for p in files for s in passed_on(p, file_imports(p), name)]
        found += [
            c
            for c in cands
            if _member_of(c, container)
            and (
                any(module_path_matches(c.node.path, m) for m in mods)
                or any(defined_in(c.node.path, s) for s in sources)
            )
        ]
    return found


def as_written(qualifier: str, found: list[StoredNode]) -> list[StoredNode]:
    """Of the candidates found in a module an import binds, the ones the written path can reach:
    a member of a container the qualifier ends with (`br.Retrier.schedule()`: `Retrier.schedule`),
    else the module's own items (`walk::scan()` after `mod walk;`, `from attr import evolve`:
    `scan` and `evolve`, not the method `WorkerState.scan` nor the stub's `Attribute.evolve`), else
    all of them. Why: a module's file holds methods of the same name, and by its file alone a
    module-qualified call or an imported name linked to each of them, ambiguous."""
    owners = [_owner(c) for c in found]
    owned = [c for c, o in zip(found, owners, strict=True) if o and f".{qualifier}".endswith(f".{o}")]
    free = [c for c, o in zip(found, owners, strict=True) if not o]
    return owned or free or found


def declared_only(found: list[StoredNode]) -> bool:
    """Whether every candidate is a declaration without its body: a Python stub file's (`.pyi`,
    declarations by definition), a C prototype or a `.d.ts` function. Then the call lands on the body
    the module passes on (`attr/__init__.py`'s `from ._make import evolve`), not on the stub."""
    return bool(found) and all(
        c.node.path.endswith(".pyi") or is_prototype(c.node.language, c.node.kind, c.node.text, c.node.path)
        for c in found
    )


def _member_of(c: StoredNode, container: str) -> bool:
    """Is `c` a member of a container qualified as `container` (`Router` for `Router.new`, also
    `tests.Router.new` of a nested module)?"""
    owner = _owner(c)
    return owner == container or owner.endswith("." + container)


def _owner(c: StoredNode) -> str:
    """The container `c` is written a member of: a Kotlin companion's member is its class's
    (`JsonReader.of()` calls `JsonReader.Companion.of`, records.without_companion)."""
    return without_companion(c.node.qualified_name, c.node.language).replace("::", ".").rpartition(".")[0]


__all__ = [
    "as_written",
    "cargo_names",
    "crate_folders",
    "declared_only",
    "imported_type_members",
    "rust_modules",
]
