"""A Java or Kotlin variable declared of a class the index does not hold (`MockWebServer server`,
`CountDownLatch latch`, `val body: ResponseBody`): its calls are that library class's methods.

Owns: telling such a class from an indexed one, a type parameter or an import's alias, and which
indexed classes implement it (`class MainThreadExecutor implements Executor`), the only indexed code
a call on it may reach.

Why: a call on such a variable was linked by the method's name alone, to every indexed method of the
name: on retrofit, the tests' `server.enqueue(..)` on okhttp's `MockWebServer` were 468 ambiguous
callers of `Call.enqueue`, `OkHttpCall.enqueue` and eight more. Java and Kotlin declare every
variable's class and bind a class name only by an import or their own package, so a name no
indexed class has is a class of a library's. C# does too, but its extension methods
(`services.AddSerilog()`) are indexed static methods called on a library's type: such a call may
also reach an extension method whose `this` parameter is that type or one the index does not hold
(an interface the library type may implement, a type parameter), never one extending an indexed
type, which no library type derives from. On Polly, `_tasks.Add(execution)` on a field `List<..>
_tasks` was an ambiguous edge to the four indexed `Add` methods, none of them `List`'s. A Python
local's class is read where a constructor, an annotation or a called definition's return annotation
names it (locals.py, pymade.py); a name no indexed node has at all (no class, nor a type alias's
variable) is a library's there too: httpx's `flow = self.auth_flow(request)`, a
`typing.Generator`, made `flow.send(response)` a guess at `Client.send`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from indexlib.engines.lexical import StoredNode
from indexlib.graph.family import family_of
from indexlib.records import CONTAINER_KINDS, Node, RefKind
from indexlib.snapshot import Snapshot

LANGUAGES = frozenset({"java", "kotlin", "csharp", "python"})
TYPE_KINDS = CONTAINER_KINDS | {"type"}  # what a declaration's class may be: a Kotlin `typealias` too
NAMES_READ = 50  # same-named nodes read to tell whether the index holds a class of the name
SCOPES_READ = 6  # enclosing definitions read for a type parameter (`<T>` of a method or its classes)
_BASES = (RefKind.INHERITS, RefKind.IMPLEMENTS)
# A C# extension method's `this` parameter's type (`AddRetry(this ResiliencePipelineBuilder b, ..)`,
# `([NotNull] this IList<T> xs)`): its last name, before any type arguments.
_EXTENDED = re.compile(r"\((?:\s*\[[^\]]*\])*\s*this\s+(?:[\w]+\.)*([A-Za-z_]\w*)")


class Overriders(list[StoredNode]):
    """Indexed methods overriding a library class's (`ContentTypeOverridingRequestBody.writeTo` for
    `body.writeTo(..)` on an okhttp `RequestBody`): the call may dispatch to one, or to the library's
    own, so an edge to them is a guess (ambiguous), not a link the declaration names."""


class ForeignTypes:
    """The answers for one resolver's life: `ancestry` gives the classes some containers inherit
    from, level by level (uids, as far as the index holds them)."""

    def __init__(self, snap: Snapshot, ancestry: Callable[[frozenset[int]], list[frozenset[int]]]) -> None:
        self.snap, self._ancestry = snap, ancestry
        self._known: dict[tuple[str, str], bool] = {}
        self._bases: dict[int, frozenset[str]] = {}

    def implementing(self, n: Node, cls: str, cands: list[StoredNode]) -> Overriders | None:
        """The candidates of a call in `n` on a variable declared of class `cls` that no member of an
        indexed `cls` answered: those of the indexed classes implementing `cls` when the index holds
        no class of the name (none at all: the call is the library's); None when it may hold one (a
        class of the name, a type parameter, an import's alias), to resolve as before."""
        name = cls.rsplit(".", 1)[-1]
        if n.language not in LANGUAGES or self._holds(name, family_of(n.language)):
            return None
        if self._type_parameter(n, name) or self._aliased(n.path, name):
            return None
        found = Overriders(c for c in cands if name in self._base_names(c.node.parent_uid))
        if n.language == "csharp":  # `list.Add(x)`: also an extension method that may take a `List`
            found.extend(c for c in cands if c not in found and self._extends(c, name))
        return found

    def _extends(self, c: StoredNode, name: str) -> bool:
        """Whether `c` is a C# extension method a value of the library class `name` may be passed
        to: one of `name` itself, or of a type the index does not hold (an interface of a library's,
        a type parameter); one of an indexed type takes no library class's value."""
        m = _EXTENDED.search(c.node.signature)
        return m is not None and (m.group(1) == name or not self._holds(m.group(1), "csharp"))

    def _holds(self, name: str, family: str) -> bool:
        key = (name, family)
        if key not in self._known:  # once per class name, not per call
            self._known[key] = any(
                s.node.name == name
                and (s.node.kind in TYPE_KINDS or family == "python")  # a Python alias is a variable
                and family_of(s.node.language) == family
                for s in self.snap.lookup("name_exact", name.lower(), limit=NAMES_READ)
            )
        return self._known[key]

    def _aliased(self, path: str, name: str) -> bool:
        """Whether an import of file `path` binds `name` to a class of another name (Kotlin's
        `import okhttp3.Call as RawCall`), which may be an indexed one."""
        return any(r.alias == name and _last_name(r.target) != name for r in self.snap.file_imports(path))

    def _type_parameter(self, n: Node, name: str) -> bool:
        """Whether `name` may be a type parameter `n` or a definition around it declares (`<T> void
        each(T item)`, `class Box<T>`): written between angle brackets in one's signature."""
        within = re.compile(rf"<[^(){{}}]*\b{re.escape(name)}\b")
        node: Node | None = n
        for _ in range(SCOPES_READ):
            if node is None:
                return False
            if within.search(node.signature):
                return True
            parent = self.snap.node(node.parent_uid) if node.parent_uid else None
            node = parent.node if parent is not None else None
        return False

    def _base_names(self, container: int) -> frozenset[str]:
        """The last names of the classes a container and its indexed ancestors name as bases."""
        if container not in self._bases:
            holders = frozenset({container}) if container else frozenset()
            names: set[str] = set()
            for level in [holders, *self._ancestry(holders)] if holders else []:
                for uid in level:
                    stored = self.snap.node(uid)
                    refs = stored.refs if stored is not None else []
                    names.update(_last_name(r.target) for r in refs if r.kind in _BASES)
            self._bases[container] = frozenset(names)
        return self._bases[container]


def _last_name(target: str) -> str:
    """`java.util.concurrent.Executor` -> `Executor`; `Converter<F, T>` -> `Converter`."""
    return target.split("<", 1)[0].rsplit(".", 1)[-1].strip()
