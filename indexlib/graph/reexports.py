"""Names a package passes on from its modules: `from .deco import option` in `pkg/__init__.py`.

A call through the package (`import pkg; pkg.option()`, `from pkg import option`) names the package,
while the function lives in the module the package imported it from. Pure: the resolver gives the
package files' import references and asks where a name they pass on is defined.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from indexlib.graph.cargolayout import children_folder, crate_roots, crate_src
from indexlib.records import REEXPORT_ALL, WILDCARD_IMPORT, Ref

REEXPORT_FILES = 8  # package files read for one bound module (a module name matching many files is vague)
REEXPORT_STEPS = 2  # packages passing a name on followed in a row (`a` from `a.b`, `a.b` from `a.b.c`)
# The extensions a JavaScript or TypeScript import may write or leave off for the file it names.
SCRIPT_EXTENSIONS = frozenset({".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"})


def passed_on(package_path: str, imports: Iterable[Ref], name: str, namespace: str = "") -> list[str]:
    """The module paths (without extension, `pkg/deco`) that `package_path`'s imports take `name`
    from, when the package binds `name` by them (`from .deco import option`, `... import x as name`).
    Relative targets are resolved against the package file's folder. A JavaScript barrel passes on
    a name by `export { name } from "./mod"` or `export * from "./mod"`, and a whole module as
    `namespace` by `export * as namespace from "./mod"` (`util.shallowClone()` after `import { util }
    from "./index.js"`: `shallowClone` of `./util`). A wildcard import (`from ._api import *`, Rust
    `pub use self::json::*`) passes on any name but, in Python, a `_private` one."""
    out: list[str] = []
    for r in imports:
        if r.target.startswith(("./", "../")):  # a path import: JavaScript's
            if r.alias in (name, REEXPORT_ALL) or (namespace and r.alias == namespace):
                out.append(_script_module(package_path, r.target))
            continue
        if r.alias == WILDCARD_IMPORT:  # `from ._api import *`: every public name of the module
            if not (name.startswith("_") and package_path.endswith((".py", ".pyi"))):
                out.append(_absolute(package_path, r.target))
            continue
        bound_as = r.alias or r.target.rsplit(".", 1)[-1]
        if bound_as != name or "." not in r.target.lstrip("."):
            continue
        module = r.target.rsplit(".", 1)[0]
        out.append(_absolute(package_path, module))
    return out


def _script_module(importer: str, target: str) -> str:
    """`./core.js` re-exported by `src/core/index.ts` -> `src/core/core` (a TypeScript file imports
    its sibling by the `.js` it compiles to); `../util` -> `src/util`."""
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(importer), target))
    stem, ext = posixpath.splitext(joined)
    return stem if ext in SCRIPT_EXTENSIONS else joined


def _absolute(importer: str, module: str) -> str:
    """`.deco` imported by `pkg/__init__.py` -> `pkg/deco`; `..x.y` from `a/b/c.py` -> `a/x/y`; an
    absolute `pkg.deco` -> `pkg/deco`; Rust's `self.json` see `_rust_absolute`."""
    if importer.endswith(".rs"):
        return _rust_absolute(importer, module)
    dots = len(module) - len(module.lstrip("."))
    rest = module.lstrip(".").replace(".", "/")
    if not dots:
        return rest
    base = posixpath.dirname(importer)
    for _ in range(dots - 1):
        base = posixpath.dirname(base)
    return posixpath.join(base, rest) if base else rest


def _rust_absolute(importer: str, module: str) -> str:
    """A Rust `pub use` path as the module file it names, without extension: from a crate's
    `axum/src/lib.rs` (or a `mod.rs`), `self.json` -> `axum/src/json`; from `a/b.rs`, `self.x` ->
    `a/b/x` and `super.x` -> `a/x`; `crate.a.b` -> the crate's `src/a/b` (`crate` alone:
    `src/lib`). A path from another crate is returned as written, as a path (it names no file of
    this crate)."""
    parts = module.split(".")
    if parts == ["crate"]:
        return crate_roots(importer)[0].lstrip("/")
    if parts[0] == "crate":
        base, parts = crate_src(importer), parts[1:]
    elif parts[0] in ("self", "super"):
        base = children_folder(importer)
        while parts and parts[0] in ("self", "super"):
            base = posixpath.dirname(base) if parts[0] == "super" else base
            parts = parts[1:]
    else:
        return module.replace(".", "/")
    return posixpath.join(base, *parts)


def defined_in(path: str, module_path: str) -> bool:
    """Does file `path` implement module `module_path` (`pkg/deco` -> `pkg/deco.py` or
    `pkg/deco/__init__.py`, Rust's `routing` -> `routing.rs` or `routing/mod.rs`), or, for an
    absolute module, a file ending so (`src/pkg/deco.py`)?"""
    stem, ext = posixpath.splitext(path)
    stems = [stem]
    if stem.endswith("/__init__") or (ext in SCRIPT_EXTENSIONS and stem.endswith("/index")):
        stems = [stem.rsplit("/", 1)[0]] + (stems if ext in SCRIPT_EXTENSIONS else [])  # `./sub/index.js`
    elif path.endswith(".rs") and stem.endswith("/mod"):
        stems = [stem[: -len("/mod")]]
    return any(s == module_path or s.endswith("/" + module_path) for s in stems)
