"""Members defined outside their type's file: a Go method in another file of the package, a Rust
`impl` block in another module, a C++ `Foo::bar` defined in a `.cpp` beside its header.

Owns: which container such a definition belongs to, and the reverse, the members a container has in
other files. The parser sets `parent_uid` within one file only (files are parsed alone and cached by
content), so these links are found at read time, like every other edge: a definition whose parent
is the file's top level, whose qualified name is `Type.name`, and whose family holds exactly one
container `Type` it may belong to. The rules of "may belong":

- Go: a method belongs to a type of its own package (the same folder).
- Rust: an impl extends a type of its own crate (Cargo's layout), and none elsewhere when its own
  file declares the type where no node was made of it (inside a macro).
- A type the file names through a module (an import, `use std::ffi::OsStr`, or a path written in
  the impl header, `impl From<E> for io::Error`) is that module's: one whose file is elsewhere is
  not it.
- Everywhere: code outside tests never belongs to a type a test defines (`type Option<T> = ...` in
  a test is not `Option`); of several, the nearest by path; still several (two same-named types
  equally near): none, since guessing would list one type's methods under another.

Both directions use the one rule (`container_of` decides, `members_of` finds candidates by the
qualified-name word and keeps those it assigns to the container), so `qry related` and the graph
queries agree whichever end they start from.
"""

from __future__ import annotations

import re

from indexlib.engines.lexical import StoredNode
from indexlib.engines.lexterms import joined_name
from indexlib.graph.cargolayout import CRATE_FOLDERS, crate_of
from indexlib.graph.family import closeness, family_of, same_folder
from indexlib.pathroles import is_test_path
from indexlib.records import CONTAINER_KINDS, Node
from indexlib.snapshot import Snapshot

OUTSIDE_KINDS = frozenset({"method", "function"})  # what may be a type's member from another file
CANDIDATES_CAP = 500  # nodes read when looking for a type, or for its members in other files
LOCAL_ROOTS = frozenset({"crate", "self", "super"})  # a Rust path from the own crate: no module to check
PUBLIC = re.compile(r"\s*pub\s")  # a Rust item any crate may name (`pub(crate)` is its own crate's)
IMPL_HEADER = re.compile(r"\s*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?impl\b")
IMPL_HEADER_LINES = 4  # an impl header (`impl<T>` / `Trait for Type<T>` / `where ...`) read this far


def holds_members(n: Node) -> bool:
    """Whether `n` is a type members may belong to: a container, or a Go named type of another kind
    (`type HandlerFunc func(..)`, `type byName []Flag`), which declares methods as a struct does."""
    return n.kind in CONTAINER_KINDS or (n.language == "go" and n.kind == "type")


def impl_type(header: str) -> list[str]:
    """The type a Rust impl header implements for, as written: `impl<T: Fn() -> u8> From<T> for
    io::Error {` -> [io, Error]; `impl Buffer {` -> [Buffer]; [] when it cannot be read."""
    text = IMPL_HEADER.sub("", header, count=1).split("{", 1)[0].replace("->", " ")
    while re.search(r"<[^<>]*>", text):
        text = re.sub(r"<[^<>]*>", "", text)
    text = re.split(r"\bwhere\b", text, maxsplit=1)[0]
    text = re.split(r"\bfor\b", text)[-1]
    text = re.sub(r"&|'\w+|\b(?:mut|dyn)\b", " ", text).strip()
    return [p for p in text.split("::") if p] if re.fullmatch(r"[\w:]+", text) else []


def _laid_out(path: str) -> bool:
    """Whether a Rust file sits in one of Cargo's crate folders, whose crate crate_of then knows."""
    return any(part in CRATE_FOLDERS for part in path.split("/")[:-1])


def qualifier(node: Node) -> str:
    """`Executor.Run` -> `Executor`; `a::B::c` -> `a.B`; '' for an unqualified name."""
    q = node.qualified_name.replace("::", ".")
    return q.rsplit(".", 1)[0] if "." in q else ""


class OutsideMembers:
    """The read-time containment of definitions outside their type's file, cached per snapshot read."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self._types: dict[tuple[str, str], list[StoredNode]] = {}
        self._of: dict[int, int] = {}

    def container_of(self, node: Node) -> int:
        """The uid of the type `node` is a member of though defined at the top level of its file
        (0: none, or `node` has a parent in its file)."""
        if node.uid in self._of:
            return self._of[node.uid]
        found = 0
        if node.kind in OUTSIDE_KINDS and node.part == 0 and not self._has_parent(node):
            q = qualifier(node)
            types = self._types_named(q, family_of(node.language)) if q else []
            if types and not any(t.node.path == node.path for t in types) and self._declared_unparsed(node):
                types = []
            found = _pick(node, [t for t in types if self._visible(node, t.node)])
        self._of[node.uid] = found
        return found

    def members_of(self, container: Node) -> list[StoredNode]:
        """The definitions outside `container`'s own members that `container_of` assigns to it."""
        if not holds_members(container) or container.part != 0:
            return []
        word = joined_name(container.name)
        prefix = container.qualified_name.replace("::", ".") + "."
        out = []
        for s in self.snap.lookup("qname_terms", word, limit=CANDIDATES_CAP):
            n = s.node
            if n.parent_uid != container.uid and n.qualified_name.replace("::", ".").startswith(prefix):
                if "." not in n.qualified_name.replace("::", ".")[len(prefix) :]:
                    if self.container_of(n) == container.uid:
                        out.append(s)
        return out

    def reachable(self, caller: Node, member: Node) -> bool:
        """Whether code in `caller` may hold a value of the type `member` belongs to: in Rust, a type
        of another crate only when it is `pub` (`pub(crate) struct Buf`, a private `struct Inner`
        never leaves its crate); anywhere else, and in Rust within one crate, always. Crates are
        told apart only where both files sit in Cargo's layout (a `src/`, `tests/`, .. folder):
        ripgrep's `crates/core/main.rs` keeps its modules in folders crate_of reads as crates."""
        if caller.language != "rust" or not (_laid_out(caller.path) and _laid_out(member.path)):
            return True
        if crate_of(caller.path) == crate_of(member.path):
            return True
        home = self.snap.node(self.container_of(member) or member.parent_uid)
        return (
            home is None or home.node.kind not in CONTAINER_KINDS or bool(PUBLIC.match(home.node.signature))
        )

    def _visible(self, node: Node, type_: Node) -> bool:
        """Whether `node`'s file may mean `type_` by the name it qualifies with: a name written with a
        module path, or imported from a module (`impl From<E> for io::Error`, `use std::ffi::OsStr`,
        `import java.io.File`), is that module's type, not one in a file elsewhere; and a Rust impl
        extends a type of its own crate."""
        if node.language == "rust" and crate_of(node.path) != crate_of(type_.path):
            return False
        written = self._written(node)
        for r in self.snap.file_imports(node.path):
            target = r.target.replace("::", ".").split(".")
            if r.alias == written[0] or (not r.alias and target[-1] == written[0]):
                written = target + written[1:]
                break
        module = written[:-1]
        while module and module[0] in LOCAL_ROOTS:
            module = module[1:]
        where = f"/{type_.path.rsplit('.', 1)[0]}/"  # `crate::buffer` is src/buffer.rs, `a.b` is a/b/
        return not module or f"/{'/'.join(module)}/" in where

    def _written(self, node: Node) -> list[str]:
        """The type `node` is qualified by, as its file writes it: a Rust impl's type with its path
        (`io::Error` -> [io, Error]), else the qualifier's first name."""
        head = qualifier(node).split(".", 1)[0]
        if node.language != "rust":
            return [head]
        m = self._module_at(node)
        if m is not None:
            lines = m.text.splitlines()
            for i in range(min(node.start_line - m.start_line, len(lines)) - 1, -1, -1):
                if IMPL_HEADER.match(lines[i]):
                    path = impl_type(" ".join(lines[i : i + IMPL_HEADER_LINES]))
                    return path if path and path[-1] == head else [head]
        return [head]

    def _declared_unparsed(self, node: Node) -> bool:
        """Whether `node`'s own Rust file declares its type where no node was made of it: inside a
        macro (`cfg_rt! { pub struct JoinHandle<T> { .. } }`), so the type meant is that one, and a
        same-named type elsewhere (a mock) is not."""
        if node.language != "rust":
            return False
        head = re.escape(qualifier(node).split(".", 1)[0])
        declared = re.compile(rf"\b(?:struct|enum|union|trait|type)\s+{head}\b")
        return any(
            s.node.kind == "module" and declared.search(s.node.text)
            for s in self.snap.nodes_in_file(node.path)
        )

    def _module_at(self, node: Node) -> Node | None:
        """The module node (part) of `node`'s file holding its first line: the file's text outside
        its definitions, line for line."""
        for s in self.snap.nodes_in_file(node.path):
            m = s.node
            if m.kind == "module" and m.start_line <= node.start_line <= m.end_line:
                return m
        return None

    def _has_parent(self, node: Node) -> bool:
        if not node.parent_uid:
            return False
        parent = self.snap.node(node.parent_uid)
        return parent is not None and parent.node.kind != "module"

    def _types_named(self, qualified: str, family: str) -> list[StoredNode]:
        key = (qualified, family)
        if key not in self._types:
            self._types[key] = [
                s
                for s in self.snap.lookup("qsuffix", qualified.lower(), limit=CANDIDATES_CAP)
                if holds_members(s.node)
                and s.node.part == 0
                and s.node.qualified_name.replace("::", ".") == qualified
                and family_of(s.node.language) == family
            ]
        return self._types[key]


def _pick(node: Node, types: list[StoredNode]) -> int:
    """The one type of `types` `node` belongs to by the module's rules, or 0."""
    if node.language == "go":  # a method of its own package's type only
        types = [t for t in types if same_folder(node.path, t.node.path)]
    if not is_test_path(node.path):
        types = [t for t in types if not is_test_path(t.node.path)]
    if not types:
        return 0
    near = max(closeness(node.path, t.node.path) for t in types)
    nearest = [t for t in types if closeness(node.path, t.node.path) == near]
    return nearest[0].node.uid if len(nearest) == 1 else 0
