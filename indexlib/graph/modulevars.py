"""The declaration of a module-level Python variable a function reads: its own file's, or the one an
import binds (`from .globals import current_app`), through the packages that pass it on.

Owns: finding that declaration (a `constant` node at the top of a module) for a name a function uses
as a call's receiver, and telling when the function shadows it (a parameter or an assignment of its
own). What class the declaration names is locals.py's to read (`declared_classes`).

Why: a module-level instance is called through from functions everywhere (flask's `current_app:
FlaskProxy = LocalProxy(..)` in `globals.py`, read as `current_app.url_for(..)` by `helpers.py`; an
`app = Flask(__name__)` its view functions call), and such a call had no edge at all when the name
was imported (the imported module defines no `url_for`), else one guessed by the method's name.
"""

from __future__ import annotations

import re

from indexlib.graph.reexports import REEXPORT_FILES, REEXPORT_STEPS, defined_in, passed_on
from indexlib.records import Node, NodeKind, Ref
from indexlib.snapshot import Snapshot

LANGUAGES = frozenset({"python"})
DECLARATIONS = 20  # same-named nodes read for one variable's declaration


def shadows(n: Node, name: str) -> bool:
    """Whether function `n` binds `name` itself: a parameter (`def f(app): app.run()`), an
    assignment, a loop or `with ... as` target, so that the module's variable is not the one read."""
    word = re.escape(name)
    params = n.signature.partition("(")[2]
    if re.search(rf"(?:^|[,(])\s*\*{{0,2}}{word}\s*[:=,)]", params):
        return True
    bound_here = rf"(?m)^\s*{word}\s*(?::[^=\n]+)?=(?!=)|\bfor\s+{word}\s+in\b|\bas\s+{word}\b"
    return re.search(bound_here, n.text) is not None and not re.search(rf"\bglobal\s+{word}\b", n.text)


class ModuleVariables:
    """Module-level variable declarations over one resolver's life (read once per file and name)."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self._found: dict[tuple[str, str, tuple[str, ...]], list[Node]] = {}

    def declarations(self, n: Node, name: str, bound: list[Ref]) -> list[Node]:
        """The module-level declarations of `name` that a call in `n` reads: the module's an import
        binds it from (`bound`), else `n`'s own file's; [] when `n` shadows it or none is indexed."""
        if n.language not in LANGUAGES or shadows(n, name):
            return []
        key = (n.path, name, tuple(r.target for r in bound))
        if key not in self._found:
            self._found[key] = self._imported(n.path, name, bound) if bound else self._own(n.path, name)
        return self._found[key]

    def _top_level(self, name: str) -> list[Node]:
        named = self.snap.lookup("name_exact", name.lower(), limit=DECLARATIONS)
        return [
            s.node
            for s in named
            if s.node.name == name and s.node.qualified_name == name and s.node.kind == NodeKind.CONSTANT
        ]

    def _own(self, path: str, name: str) -> list[Node]:
        return [d for d in self._top_level(name) if d.path == path]

    def _imported(self, importer: str, name: str, bound: list[Ref]) -> list[Node]:
        """`from .globals import current_app`: the declaration in `globals.py`; `from flask import
        current_app`: the one `flask/__init__.py` takes from `.globals`, REEXPORT_STEPS packages on."""
        mods = passed_on(importer, bound, name)
        declared = self._top_level(name) if mods else []
        for _ in range(REEXPORT_STEPS + 1):
            found = [d for d in declared if any(defined_in(d.path, m) for m in mods)]
            if found or not mods:
                return found
            files = [p for p in sorted(self.snap.manifest.files) if any(defined_in(p, m) for m in mods)]
            mods = [m for p in files[:REEXPORT_FILES] for m in passed_on(p, self.snap.file_imports(p), name)]
        return []
