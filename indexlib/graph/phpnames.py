"""PHP names as PHP reads them: the fully qualified names a class or function name written in code
may mean, from the file's namespace and its `use` imports.

Why a rule of its own: a PHP file names another namespace's class through `use GuzzleHttp\\Utils;`,
and the import names a namespace, not a file (Composer maps namespaces to folders as it likes), so
the path rules that serve Python or Go imports find nothing, and `Utils::currentTime()` made no edge.
PHP itself never guesses: every class name stands for exactly one fully qualified name, so the
definitions of that name (qualified names hold the namespace: `GuzzleHttp.Utils.currentTime`) are
the call's targets, and a name that means a class the index does not hold (`Psr\\...`, `\\Exception`)
is no edge rather than a same-named method elsewhere.

The rules (php.net, "Name resolution rules"), names compared case aside as PHP compares them:
- `\\A\\B` (fully qualified; the parser keeps the backslash): `A\\B`;
- `namespace\\A`: `A` in the current namespace;
- `A\\B` (qualified): when `A` is imported (`use X\\A;`, `use X\\Y as A;`, `use X\\{A, C};`), the
  import's name followed by `\\B`, else `A\\B` in the current namespace;
- `A` (unqualified): a class name is the import of that alias, else `A` in the current namespace; a
  function name is the import too (`use function`), else the current namespace's `A`, then the
  global `A` (PHP's fallback for functions only).
`self::`, `static::` and `$this->` mean the caller's own class and `parent::` its base class: the
resolver's own-class rules answer those (`keywords`); so do calls on a variable (`$client->send()`),
which PHP cannot resolve from the text either.

Pure but for reading a file's namespace (`PhpNames.namespace`); the resolver (resolve.py) turns
the names into candidates.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from indexlib.records import Node, Ref
from indexlib.snapshot import Snapshot

# `namespace App\Http;` or `namespace App\Http {` (a module node's text keeps these statements).
NAMESPACE_LINE = re.compile(r"^\s*namespace\s+([A-Za-z_\\][\w\\]*)\s*[;{]", re.MULTILINE)
# What PHP's own-class words mean to the resolver: `static::` is late-bound `self::`, `parent::` the base.
KEYWORDS = {"static": "self", "parent": "super"}
OWN_CLASS = frozenset({"self", "super", "this"})


def keywords(qualifier: str) -> str:
    """`static::make()` and `parent::boot()` as the resolver spells their qualifiers (`self`,
    `super`), case aside as PHP reads them; any other qualifier as it is."""
    head, dot, rest = qualifier.partition(".")
    own = KEYWORDS.get(head.lower())
    return f"{own}{dot}{rest}" if own else qualifier


def names_a_class(qualifier: str, absolute: bool) -> bool:
    """Whether a call's qualifier is a class name PHP resolves from the text: fully qualified,
    `namespace\\...`, or a name (StudlyCaps, as PSR-1 writes classes), not a variable (`$client`,
    whose `$` the parser drops) and not `self`/`static`/`parent`/`$this`."""
    head = qualifier.split(".", 1)[0]
    if not head or head.lower() in OWN_CLASS:
        return False
    return absolute or head == "namespace" or head[:1].isupper()


def expand(written: str, namespace: str, imports: Sequence[Ref], *, function: bool = False) -> list[str]:
    """The fully qualified names (dotted, lowercase) `written` (dotted, as the parser writes it; a
    leading backslash for a fully qualified name) may mean in `namespace`, in PHP's order."""
    if written.startswith("\\"):
        return [written.lstrip("\\").lower()]
    ns = namespace.lower()
    head, dot, rest = written.lower().partition(".")
    if head == "namespace" and dot:
        return [_join(ns, rest)]
    bound = next((r.target.lower() for r in imports if r.alias and r.alias.lower() == head), "")
    if bound:
        return [_join(bound, rest)]
    if function and not dot:
        return [_join(ns, head), head] if ns else [head]
    return [_join(ns, written.lower())]


def _join(prefix: str, rest: str) -> str:
    return f"{prefix}.{rest}" if prefix and rest else prefix or rest


class PhpNames:
    """The namespace each PHP node is in, cached per snapshot read."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self._of: dict[int, str] = {}

    def namespace(self, n: Node, line: int) -> str:
        """The namespace `n`'s code at `line` is in: for a definition, its outermost definition's
        qualified name without the last name (`GuzzleHttp.Handler.CurlMultiHandler.tick` in class
        `GuzzleHttp.Handler.CurlMultiHandler` -> `GuzzleHttp.Handler`); for a file's top-level code
        (the module node, whose name is the file's), the last `namespace` statement above `line`."""
        if n.kind == "module":
            return _statement_namespace(n, line)
        if n.uid not in self._of:
            outer = n
            for _ in range(8):  # a definition nests a few levels at most (a function in a method)
                parent = self.snap.node(outer.parent_uid) if outer.parent_uid else None
                if parent is None or parent.node.kind == "module":
                    break
                outer = parent.node
            self._of[n.uid] = outer.qualified_name.rsplit(".", 1)[0] if "." in outer.qualified_name else ""
        return self._of[n.uid]


def _statement_namespace(module: Node, line: int) -> str:
    """The last `namespace X;` (or `namespace X {`) of a module node's text at or above `line`
    (its text keeps the file's lines outside definitions, from `start_line` on)."""
    found = ""
    for m in NAMESPACE_LINE.finditer(module.text):
        if module.start_line + module.text.count("\n", 0, m.start()) > line:
            break
        found = m.group(1).strip("\\").replace("\\", ".")
    return found


__all__ = ["PhpNames", "expand", "keywords", "names_a_class"]
