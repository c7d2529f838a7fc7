"""Go import paths of the indexed modules, read as the folders they name by each `go.mod`.

Why: a Go import path names a package by its module's path plus the package's folder in the
module (`charm.land/bubbletea/v2` is the module's top folder, `.../v2/internal/x` its
`internal/x`). Matched by its last element alone, a module's top package (`v2`, or `bubbletea` for
a module at the repository's top, whose files sit in no folder of that name) matched no file:
bubbletea's 36 examples import it as `tea` and every `tea.Batch(..)`, `tea.NewProgram(..)` had no
edge, so `qry related --callers NewProgram` listed tests only. Each indexed `go.mod` says which
path its folder answers to; an import under that path names one folder exactly.

Also what a call through an imported package's name can mean (`through_package`), and which
package a file's `package` clause names (`go_package`).

Pure but for reading the go.mod files' and package clauses' text from the snapshot.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from indexlib.engines.lexical import StoredNode
from indexlib.graph.family import folder
from indexlib.manifests import GO_MOD, go_module
from indexlib.snapshot import Snapshot

_PACKAGE = re.compile(r"^package\s+(\w+)", re.MULTILINE)


def go_modules(files: Iterable[str], text_of: Callable[[str], str]) -> dict[str, str]:
    """Each indexed go.mod's module path -> its folder ('' for the top)."""
    out: dict[str, str] = {}
    for path in files:
        if path == GO_MOD or path.endswith("/" + GO_MOD):
            module = go_module(text_of(path))
            if module:
                out[module] = path[: -len(GO_MOD)].rstrip("/")
    return out


def package_folder(import_path: str, modules: dict[str, str]) -> str | None:
    """The folder an import path names inside an indexed module, anchored as targets.anchored
    spells a path from the index's root (`/` for the top folder, `/internal/x`); None for an
    import of another module (the standard library, a dependency)."""
    path = import_path.strip().strip('"')
    owners = [m for m in modules if path == m or path.startswith(m + "/")]
    if not owners:
        return None
    module = max(owners, key=len)  # a nested module (`examples/go.mod`) owns its own folders
    parts = [modules[module], path[len(module) :].strip("/")]
    return "/" + "/".join(p for p in parts if p)


def through_package(found: list[StoredNode], qualifier: str) -> list[StoredNode]:
    """What a Go call through an imported package's name can mean, of the package's definitions
    `found`. `logrus.WithField()` (the qualifier is the package alone) is a function or type of the
    package: Go reaches no method through a package name, so its `Entry.WithField` and
    `Logger.WithField` are no candidates. `logrus.NewEntry(l).WithField()` or `http.DefaultClient.Do()`
    (more after the package) call a method of a value the package returns or holds, never the
    package's function of that name; after a type of the package (`cli.Command.Run`, as the parser
    reads `(&cli.Command{}).Run()`) that type's method, not a same-named one of another type (a test
    type of the package's folder made it ambiguous)."""
    kept = [c for c in found if (c.node.kind == "method") == ("." in qualifier)]
    named = qualifier.split(".")[1] if qualifier.count(".") == 1 else ""
    typed = [c for c in kept if named and c.node.qualified_name.rpartition(".")[0] == named]
    return typed or kept


def go_package(snap: Snapshot, path: str) -> str:
    """The package a Go file's `package` clause names (its module node's text), else the one its
    folder's other files name (a file with no import nor doc comment has no module node: a root
    package's folder name is no package name), else its folder's name."""
    home = folder(path)
    own = _package_clause(snap, path)
    if own:
        return own
    for p in sorted(p for p in snap.manifest.files if p.endswith(".go") and p != path and folder(p) == home):
        named = _package_clause(snap, p)
        if named and not named.endswith("_test"):  # not an external test package's
            return named
    return path.rsplit("/", 2)[-2] if "/" in path else ""


def _package_clause(snap: Snapshot, path: str) -> str:
    """The package a Go file's module node names, '' when it has none."""
    for s in snap.nodes_in_file(path):
        m = _PACKAGE.search(s.node.text) if s.node.kind == "module" else None
        if m:
            return m.group(1)
    return ""


__all__ = ["go_modules", "go_package", "package_folder", "through_package"]
