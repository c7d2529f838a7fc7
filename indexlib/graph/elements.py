"""The class of an element of a collection a local or a field holds, where its declaration writes it,
for a call on an indexed receiver (`self.items[k].close()`, written `self.items[].close`) outside
Go (graph/typed.py reads Go's from its written types).

Owns: reading, from a function's or a class's texts, the variables declared as a collection of one
class: `items: list[Item]`, `Sequence[Item]`, `dict[str, Item]` (Python), `items: Item[]`,
`Array<Item>` (TypeScript), `items: [Item]`, `[String: Item]` (Swift), `items: Vec<Item>`, `&[Item]`,
`[Item; 4]` (Rust), `List<Item>` (Kotlin), `Item[] items`, `List<Item> items` (Java, C#). A map's
element is its value, as indexing it gives.

Why: an indexed receiver was read as the collection itself (`self.items.close`), so the call linked
to a method of the collection's declared class (a Python class with `__getitem__`, or a
TypeScript `Item[]` read as an `Item` by luck), or to the caller itself in a Go method of a slice
type. Only what a declaration says is read: no declaration, or two classes for one name, leaves the
call to be resolved by its name, marked ambiguous.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from indexlib.graph.codelines import code_only
from indexlib.records import Node
from indexlib.snapshot import Snapshot

_CLASS = r"(?P<cls{}>[A-Z]\w*)"  # numbered: a pattern names the element in either of two places
# A collection written around its element: `list[`, `Vec<`, `&[`, `[` (Swift's and Rust's own), and a
# map's key before its value (`dict[str, `, `[String: `, `HashMap<K, `).
_SEQUENCE = (
    r"(?:(?:\w+\.)?(?:list|List|Sequence|MutableSequence|Iterable|Collection|set|Set|frozenset|tuple|Tuple"
    r"|deque|Vec|VecDeque|Array|ReadonlyArray|MutableList|IList|IReadOnlyList|IEnumerable|ArrayList)"
    r"\s*[\[<]\s*|&?(?:mut\s+)?\[\s*)"
)
_MAP = (
    r"(?:(?:\w+\.)?(?:dict|Dict|Mapping|MutableMapping|HashMap|BTreeMap|Map|MutableMap|Record)"
    r"\s*[\[<][^,\[\]<>]+,\s*|\[[^:\[\]]+:\s*)"
)
# `name: <collection of Class>` or `name: Class[]` (a parameter, a property, an annotated local; a
# Python `self.items: list[Item] = []`).
_ANNOTATED = re.compile(
    r"(?:(?<![\w.$])|(?<=\bself\.)|(?<=\bthis\.))(?P<var>[a-z_]\w*)\s*\??\s*:\s*&?(?:mut\s+)?"
    rf"(?:(?:{_MAP}|{_SEQUENCE}){_CLASS.format(1)}|{_CLASS.format(2)}\s*\[\])"
)
# `Class[] name`, `List<Class> name` (Java, C#): the type first.
_TYPE_FIRST = re.compile(
    rf"(?<![\w.])(?:(?:{_MAP}|{_SEQUENCE}){_CLASS.format(1)}\s*>|{_CLASS.format(2)}\s*\[\])"
    r"\s+(?P<var>[a-z_]\w*)\s*[=;,)]"
)
_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "python": (_ANNOTATED,),
    "typescript": (_ANNOTATED,),
    "tsx": (_ANNOTATED,),
    "rust": (_ANNOTATED,),
    "swift": (_ANNOTATED,),
    "kotlin": (_ANNOTATED,),
    "java": (_TYPE_FIRST,),
    "csharp": (_TYPE_FIRST,),
}


def element_classes(language: str, texts: Sequence[str]) -> dict[str, str]:
    """variable -> the class of the elements its declarations in `texts` say it holds, for the
    variables declared with one class only."""
    seen: dict[str, set[str]] = {}
    for pattern in _PATTERNS.get(language, ()):
        for text in texts:
            for m in pattern.finditer(code_only(text, "typescript" if language == "tsx" else language)):
                seen.setdefault(m.group("var"), set()).add(_class(m))
    return {v: next(iter(cs)) for v, cs in seen.items() if len(cs) == 1}


def _class(m: re.Match[str]) -> str:
    """The element class a match of `_ANNOTATED` or `_TYPE_FIRST` names (one of its two groups)."""
    return next(g for name, g in m.groupdict().items() if name.startswith("cls") and g)


class Elements:
    """The element classes of locals and own fields, read once per function and per class."""

    def __init__(
        self, snap: Snapshot, enclosing: Callable[[Node], int], texts: Callable[[int], list[str]]
    ) -> None:
        """`enclosing` gives the class `self` means in a node; `texts` a class's texts (its parts)."""
        self.snap, self._enclosing, self._texts = snap, enclosing, texts
        self._locals: dict[int, dict[str, str]] = {}
        self._fields: dict[int, dict[str, str]] = {}

    def of(self, n: Node, name: str, field: bool, bare_fields: bool) -> str | None:
        """The element class of `n`'s local `name` (`field`: of its own class's field `name`, as
        `self.items` writes it; `bare_fields`: a field named bare, as Java's `items[i]` may)."""
        if not field:
            if n.uid not in self._locals:
                self._locals[n.uid] = element_classes(n.language, [n.text])
            found = self._locals[n.uid].get(name)
            if found is not None or not bare_fields:
                return found
        own = self._enclosing(n)
        if not own:
            return None
        if own not in self._fields:
            self._fields[own] = element_classes(n.language, self._texts(own))
        return self._fields[own].get(name)
