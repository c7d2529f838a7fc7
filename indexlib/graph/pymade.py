"""A Python local made by a call whose definition annotates what it returns (`decoder =
self._get_content_decoder()` with `-> ContentDecoder`, `response = await client.send(req)`,
`cfg = load_config(path)`): the local is of that class.

Owns: finding the assignments of a local in a function's text whose value is one call (nothing
chained after it), resolving that call as the resolver does, and reading the class the resolved
definitions' return annotations name.

Why: a call through such a local was linked by the method's name alone. On httpx,
`decoder.decode(raw)` in `Response.iter_bytes` was an ambiguous edge to all nine `decode` methods
(`GZipDecoder.decode`, `TextDecoder.decode`, ...), although `_get_content_decoder` says it returns a
`ContentDecoder`. A constructor (`r = Retrier(..)`) is locals.py's; Go and Rust have their own.

Every call assigned whole to the local must resolve to its definitions exactly (not a guess by
name) and all must agree on the class: one the index does not hold (`x = next(it)`) leaves the local
unknown. An assignment of another shape (`x = y`, `x = a or b`) is not read, as for a constructor's.

A loop over one call (`for signer in self.iter_unsigners(salt):`) makes its variable of the class
of the elements the annotation says the call gives (`-> Iterator[Signer]`, `-> list[Rule]`,
`-> Generator[Token, None, None]`): on pallets/itsdangerous `signer.unsign(s, max_age=..)` in
`TimedSerializer.loads` was a guess at both `Signer.unsign` and `TimestampSigner.unsign`, though
its `iter_unsigners` says `-> cabc.Iterator[TimestampSigner]`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from indexlib.engines.lexical import StoredNode
from indexlib.graph.brackets import top_level_split
from indexlib.graph.pyfields import is_py_class
from indexlib.records import Node, Ref, RefKind
from indexlib.snapshot import Snapshot

# `name = call(`, `name = await obj.method(`: a plain assignment of one name (not `==`, `+=`, a tuple),
# or of an own field (`self.stream = environment._tokenize(..)`).
_MADE = re.compile(
    r"(?m)^[ \t]*(?P<var>(?:self\.)?[a-z_]\w*)[ \t]*=[ \t]*(?:await[ \t]+)?"
    r"(?P<call>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\("
)
# `for name in call(` (also `async for`), read when the call is all the loop goes over.
_LOOPED = re.compile(
    r"(?m)^[ \t]*(?:async[ \t]+)?for[ \t]+(?P<var>[a-z_]\w*)[ \t]+in[ \t]+"
    r"(?P<call>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\("
)
# Annotations of what gives its first type argument's values one by one, as a loop reads them.
_ITERABLES = frozenset(
    {"Iterator", "Iterable", "Generator", "AsyncIterator", "AsyncIterable", "AsyncGenerator", "Sequence"}
    | {"MutableSequence", "Collection", "list", "List", "set", "Set", "frozenset", "FrozenSet", "deque"}
)
# A definition's return annotation: what follows its last `->` (a signature ends before the `:`).
_ANNOTATION = re.compile(r"->([^>]*)$")
_NAME = re.compile(r"[A-Za-z_]\w*")
_UNWRAPPED = 3  # `Optional[..]` layers read through
# What an annotation may name that is no class whose methods a call on the value runs.
_NOT_A_CLASS = frozenset({"None", "Any", "NoReturn", "Never", "Union", "Annotated", "object"})
_WRAPPERS = frozenset({"Awaitable", "Coroutine", "type", "Type"})  # their value is another's
_OPEN, _CLOSE = "([{", ")]}"

Resolve = Callable[[StoredNode, Ref], tuple[list[int], bool]]


def made_by_calls(text: str, start_line: int, name: str, looped: bool = False) -> list[tuple[str, int]]:
    """The calls (target as a reference writes it, line) whose value is assigned whole to `name` in
    a function's `text` starting at `start_line`: `x = self.m(a)` gives (`self.m`, line); `x =
    self.m(a).n()` and `x = f(a) or y` give none, their value being another's. `looped`: the calls
    a `for name in call(..):` loop goes over instead, `name` being each of their elements."""
    out: list[tuple[str, int]] = []
    for m in (_LOOPED if looped else _MADE).finditer(text):
        if m["var"] != name or is_py_class(m["call"].rsplit(".", 1)[-1]):
            continue  # another local, or a constructor (`Client(..)`: locals.py reads those)
        end = _closing(text, m.end())
        rest = text[end:].split("\n", 1)[0].strip() if end else "?"
        if looped and rest.startswith(":"):
            rest = ""  # a loop's header ends at its colon (its body may follow on the line)
        if rest and not rest.startswith("#"):
            continue
        out.append((m["call"], start_line + text.count("\n", 0, m.start("call"))))
    return out


def returned(signature: str, owner: str) -> str | None:
    """The class a Python definition's return annotation names, as its last name: `-> Response |
    None`, `-> Optional["Response"]`: Response; `-> typing.Iterator[bytes]`: Iterator (a library's
    class, whose methods locals.py links to none); `-> Self`: `owner`, the definition's class. None
    for no annotation, `-> None`, a union of classes or a wrapper whose value is another's
    (`Awaitable[T]`, `type[T]`)."""
    m = _ANNOTATION.search(signature)
    written = re.sub(r"['\"]", "", m.group(1)) if m else ""  # `-> 'Response | None'` as unquoted
    for _ in range(_UNWRAPPED):
        options = [o for o in top_level_split(written, "|") if o not in ("None", "")]
        if len(options) != 1:
            return None
        written = options[0]
        head, _, inner = written.partition("[")
        last = head.rsplit(".", 1)[-1].strip()
        if last != "Optional":
            if last == "Self":
                return owner or None
            return None if last in _NOT_A_CLASS | _WRAPPERS or not _NAME.fullmatch(last) else last
        written = inner.rsplit("]", 1)[0]
    return None


def yielded(signature: str, owner: str = "") -> str | None:
    """The class of the elements a Python definition's return annotation says it gives: `->
    cabc.Iterator[Signer]`, `-> list["Rule"]`, `-> Generator[Token, None, None]`: the first type
    argument, read as `returned` reads a whole annotation (`owner` as there, for `Iterator[Self]`).
    None for any other annotation."""
    m = _ANNOTATION.search(signature)
    written = re.sub(r"['\"]", "", m.group(1)).strip() if m else ""
    head, _, inner = written.partition("[")
    if head.rsplit(".", 1)[-1].strip() not in _ITERABLES or not inner.endswith("]"):
        return None
    return returned(f"-> {top_level_split(inner[:-1], ',')[0].strip()}", owner)


def _closing(text: str, start: int) -> int:
    """The index just past the bracket closing the `(` before `start`; 0 when it never closes."""
    depth, quote = 1, ""
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            quote = "" if ch == quote and text[i - 1] != "\\" else quote
        elif ch in "'\"":
            quote = ch
        elif ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
            if depth == 0:
                return i + 1
    return 0


class MadeLocals:
    """The classes of Python locals made by calls, over one resolver's life (one read per local)."""

    def __init__(self, snap: Snapshot, resolve: Resolve) -> None:
        """`resolve` links a reference to node uids and says whether the link is a guess."""
        self.snap, self._resolve = snap, resolve
        self._classes: dict[tuple[int, str], str | None] = {}

    def class_of(self, n: Node, name: str) -> str | None:
        """The class the calls making local `name` in function `n` return, when they agree."""
        key = (n.uid, name)
        if key not in self._classes:
            self._classes[key] = None  # unknown while it is read: `node = node.next()` asks for itself
            self._classes[key] = self._read(n, name)
        return self._classes[key]

    def field_of(self, container: int, field: str) -> str | None:
        """The class the calls assigned whole to `self.<field>` in the methods of class `container`
        return, when they agree: jinja's `self.stream = environment._tokenize(..)` in
        `Parser.__init__`, with `-> TokenStream`, makes the parser's ~60 `self.stream.expect(..)`
        calls TokenStream's, where they were guesses by name."""
        key = (container, f"self.{field}")
        if key not in self._classes:
            self._classes[key] = None  # unknown while it is read, as for a local
            stored = self.snap.node(container)
            methods = self.snap.nested(stored.node) if stored is not None else []
            said = {self.class_of(m, key[1]) for m in methods if made_by_calls(m.text, m.start_line, key[1])}
            self._classes[key] = said.pop() if len(said) == 1 else None
        return self._classes[key]

    def _read(self, n: Node, name: str) -> str | None:
        made = [(c, line, returned) for c, line in made_by_calls(n.text, n.start_line, name)]
        made += [(c, line, yielded) for c, line in made_by_calls(n.text, n.start_line, name, looped=True)]
        stored = self.snap.node(n.uid) if made else None
        if stored is None:
            return None
        said: set[str | None] = set()
        for call, line, gives in made:
            ref = next(
                (r for r in stored.refs if r.kind == RefKind.CALLS and r.target == call and r.line == line),
                None,
            )
            uids, guess = self._resolve(stored, ref) if ref is not None else ([], True)
            if guess or not uids:
                return None  # a call the index does not hold, or one linked by its name alone
            for uid in uids:
                found = self.snap.node(uid)
                owner = found.node.qualified_name.rpartition(".")[0].rpartition(".")[2] if found else ""
                said.add(gives(found.node.signature, owner) if found is not None else None)
        return said.pop() if len(said) == 1 else None
