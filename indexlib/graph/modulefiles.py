"""Which indexed files implement a module an import or a qualified call names, over one snapshot.

Owns: the lookups from a module path (`pkg.helpers`, `crate::walk`, a Go import path) to the files
of one language family implementing it, and to the node standing for each (its module remainder,
else its first top-level definition), and each file's imports, cached per resolver. Call
resolution (resolve.py) and the typing of locals (locals.py) ask them.
"""

from __future__ import annotations

from indexlib.engines.lexical import StoredNode
from indexlib.graph.family import family_of
from indexlib.graph.reexports import REEXPORT_FILES
from indexlib.graph.targets import module_path_matches
from indexlib.records import Ref
from indexlib.snapshot import Snapshot


class ModuleFiles:
    """Module-path lookups over one snapshot, cached."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self._indexed: dict[tuple[str, str], bool] = {}
        self._files_of: dict[tuple[str, str], list[str]] = {}
        self._imports: dict[str, list[Ref]] = {}

    def imports(self, path: str) -> list[Ref]:
        """The imports file `path` makes (Snapshot.file_imports), read once."""
        if path not in self._imports:
            self._imports[path] = self.snap.file_imports(path)
        return self._imports[path]

    def files(self, module: str, family: str) -> list[str]:
        """The indexed files (of a language family) implementing `module`, at most REEXPORT_FILES."""
        key = (module, family)
        if key not in self._files_of:
            found = (
                p
                for p, rec in self.snap.manifest.files.items()
                if family_of(rec.language) == family
                and module_path_matches(p, module, package_dirs=family == "go")
            )
            self._files_of[key] = [p for _, p in zip(range(REEXPORT_FILES), found, strict=False)]
        return self._files_of[key]

    def indexed(self, module: str, family: str) -> bool:
        """Whether any indexed file (of a language family) implements `module`."""
        key = (module, family)
        if key not in self._indexed:
            self._indexed[key] = any(
                family_of(rec.language) == family
                and module_path_matches(p, module, package_dirs=family == "go")
                for p, rec in self.snap.manifest.files.items()
            )
        return self._indexed[key]

    def nodes(self, target: str, own_path: str, family: str, limit: int) -> list[StoredNode]:
        """Module-remainder nodes (else first definitions) of the first `limit` files of the
        importer's language family that implement `target`."""
        out: list[StoredNode] = []
        paths = [
            p
            for p, rec in self.snap.manifest.files.items()
            if p != own_path
            and family_of(rec.language) == family
            and module_path_matches(p, target, package_dirs=family == "go")
        ]
        for p in paths[:limit]:
            nodes = self.snap.nodes_in_file(p)
            module = next((s for s in nodes if s.node.kind == "module"), None)
            # A file of definitions only has no module node: its first top-level definition stands in.
            top = [s for s in nodes if s.node.parent_uid == 0 and s.node.part == 0]
            first = module or min(top, key=lambda s: s.node.start_line, default=None)
            if first is not None:
                out.append(first)
        return out


__all__ = ["ModuleFiles"]
