"""Which indexed files implement a module an import or a qualified call names, over one snapshot.

Owns: the lookups from a module path (`pkg.helpers`, `crate::walk`, a Go import path) to the files
of one language family implementing it, and to the node standing for each (its module remainder,
else its first top-level definition), and each file's imports, cached per resolver. Call
resolution (resolve.py) and the typing of locals (locals.py) ask them.
"""

from __future__ import annotations

import re

from indexlib.engines.lexical import StoredNode
from indexlib.graph.family import family_of
from indexlib.graph.reexports import REEXPORT_FILES
from indexlib.graph.targets import module_path_matches
from indexlib.records import Ref
from indexlib.snapshot import Snapshot

# A JVM file's package clause (Scala may chain them, `package a` then `package b` is `a.b`; a
# `package object` is a definition, its own node).
_PACKAGE = re.compile(r"^\s*package\s+([a-z_][\w.]*)\s*;?\s*$", re.MULTILINE)
_PACKAGE_NAME = re.compile(r"[a-z_]\w*(?:\.[a-z_]\w*)*")


class ModuleFiles:
    """Module-path lookups over one snapshot, cached."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self._indexed: dict[tuple[str, str], bool] = {}
        self._files_of: dict[tuple[str, str], list[str]] = {}
        self._imports: dict[str, list[Ref]] = {}
        self._packages: dict[str, str] = {}
        self._folders: dict[str, list[str]] = {}  # folder -> its files, for a file's package

    def imports(self, path: str) -> list[Ref]:
        """The imports file `path` makes (Snapshot.file_imports), read once."""
        if path not in self._imports:
            self._imports[path] = self.snap.file_imports(path)
        return self._imports[path]

    def packaged(self, language: str, qualifier: str, cands: list[StoredNode]) -> list[StoredNode]:
        """The top-level definitions of `cands` in the JVM package `qualifier` names whole: Scala calls a package's objects through it, os-lib's API as
        `os.move(..)`, `os.read(..)` (`object move` in `package os`), which named no type or
        variable and linked to nothing. [] outside Java, Kotlin and Scala, or for another word."""
        if family_of(language) != "java" or not _PACKAGE_NAME.fullmatch(qualifier):
            return []
        return [c for c in cands if c.node.parent_uid == 0 and self.package(c.node.path) == qualifier]

    def package(self, path: str) -> str:
        """The package a JVM file's clauses name, read once from its module node; a file whose only
        lines outside its definitions are its package's has none (remainder.py), so its folder's
        other files say it, as the JVM's layout puts one package in a folder ('' when none does)."""
        if path not in self._packages:
            home = path.rpartition("/")[0]
            if not self._folders:
                for p in sorted(self.snap.manifest.files):
                    self._folders.setdefault(p.rpartition("/")[0], []).append(p)
            siblings = (p for p in self._folders.get(home, []) if p != path)
            self._packages[path] = self._clauses(path) or next(
                (c for c in map(self._clauses, siblings) if c), ""
            )
        return self._packages[path]

    def _clauses(self, path: str) -> str:
        module = next((s.node.text for s in self.snap.nodes_in_file(path) if s.node.kind == "module"), "")
        return ".".join(_PACKAGE.findall(module))

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
