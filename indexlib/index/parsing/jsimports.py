"""JavaScript and TypeScript import statements and the re-exports of a barrel file, as (module, alias).

Owns: the names an `import` binds (`import a`, `import * as ns`, `import { a as b }`: the local name)
and the names an `export ... from "./mod"` passes on (an `index.ts` that makes a folder one module).
Does not own: resolving them (graph/resolve.py, graph/reexports.py).

Why a re-export is aliased by its name: a call through the barrel (`core.$constructor()` after
`import * as core from "./core/index.js"`) names the barrel, while the definition lives in the
module the barrel passes the name on from; the resolver follows the alias there.
"""

from __future__ import annotations

from indexlib.engines.treesitter import Node
from indexlib.index.parsing.text import Source, first_string
from indexlib.records import REEXPORT_ALL


def js_imports(src: Source, node: Node) -> list[tuple[str, str]]:
    """(module, the name it binds) pairs of one `import` statement, or of an `export ... from`."""
    source = first_string(src, node.child_by_field_name("source"))
    if node.type == "export_statement":
        return _js_reexports(src, node, source)
    pairs: list[tuple[str, str]] = []
    for child in node.named_children:
        if child.type != "import_clause":
            continue
        for part in child.named_children:
            if part.type == "identifier":  # default import
                pairs.append((source, src(part)))
            elif part.type == "namespace_import":  # `* as ns`
                pairs.append((source, src(part.named_children[-1]) if part.named_children else ""))
            elif part.type == "named_imports":
                for specifier in part.named_children:
                    if specifier.type == "import_specifier":
                        name = specifier.child_by_field_name("name")
                        pairs.append((source, src(specifier.child_by_field_name("alias") or name)))
    return pairs or [(source, "")]


def js_renames(src: Source, statements: list[Node]) -> dict[str, str]:
    """{local name: imported name} of the renamed specifiers of a file's `import { a as b }`
    statements: `b()` calls the module's `a` (references.renamed_calls rewrites the call so)."""
    out: dict[str, str] = {}
    for node in (n for n in statements if n.type == "import_statement"):
        for clause in (c for c in node.named_children if c.type == "import_clause"):
            for part in (p for p in clause.named_children if p.type == "named_imports"):
                for specifier in (s for s in part.named_children if s.type == "import_specifier"):
                    name, alias = (
                        specifier.child_by_field_name("name"),
                        specifier.child_by_field_name("alias"),
                    )
                    if name is not None and alias is not None and src(alias) != src(name):
                        out[src(alias)] = src(name)
    return out


def _js_reexports(src: Source, node: Node, source: str) -> list[tuple[str, str]]:
    """A barrel's `export ... from "./mod"`, aliased by the name it passes on: `export { a, b as c }`
    -> `a`, `c`; `export * as util` -> `util`; `export *` -> REEXPORT_ALL (every name of the module).
    The resolver follows them from a package's `index.ts` to the module defining the name."""
    pairs: list[tuple[str, str]] = []
    for child in node.named_children:
        if child.type == "namespace_export" and child.named_children:
            pairs.append((source, src(child.named_children[-1])))
        elif child.type == "export_clause":
            for specifier in child.named_children:
                if specifier.type == "export_specifier":
                    name = specifier.child_by_field_name("alias") or specifier.child_by_field_name("name")
                    pairs.append((source, src(name) if name is not None else ""))
    return pairs or [(source, REEXPORT_ALL)]
