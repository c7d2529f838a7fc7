"""The type a variable's or an own field's declaration writes, whatever type it is (`buf: &mut [u8]`,
`let v: Vec<u8>`, `buffer: bytearray`, `data?: Uint8Array`), for Rust, Python and TypeScript.

Owns: reading that written type's name (its head: `ReadBuf` of `&mut ReadBuf<'_>`, `[]` of a slice,
`Vec` of `Vec<u8>`, the pointee of a `Box<T>`, `Arc<T>` or `Optional[T]`), by variable, per function
and per Rust struct; and whether a Rust local is re-declared, where a call is, by a `let` whose
value's class is not read (`shadowed`), so that locals.py's one class per name does not answer.

Why: a variable named after an indexed type (`buf` after a `Buf`) is guessed to hold it
(qualified.py `named_after`), and that guess was certain even where the declaration says otherwise:
on tokio `buf.len()` with `buf: &mut ReadBuf<'_>` or `buf: &[u8]` linked, certain, to the
crate-internal `Buf.len`. locals.py reads a declared class only to narrow a call to its members; this
reads any written type, an unindexed one too, so that a declaration naming another type stops the
name's guess. Only a written type counts: a value (`Foo { buf: data }`, `lambda buf: ..`, `a ? b :
C.x`) is not read as one, and a name declared with two types is not known.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from indexlib.graph.builtins import BUILTIN_TYPES, RUST_PRIMITIVES
from indexlib.graph.codelines import code_only
from indexlib.graph.pyfields import PY_CLASS
from indexlib.graph.typed import variable_types
from indexlib.records import CALLED, CONTAINER_KINDS, Node
from indexlib.snapshot import Snapshot

CLASS_PARTS = 50  # same-named containers read for one class's fields (as locals.py reads them)
LANGUAGES = frozenset({"rust", "python", "typescript", "tsx"})
_OWN = frozenset({"self", "this"})
# The Rust definitions whose text declares fields alone: an `impl` block's holds its methods' parameters.
_FIELDED = frozenset({"struct", "enum"})
# Before a type's name: Rust's references, lifetimes, `mut`, `dyn` and `impl`; Python's quotes.
_PREFIX = r"(?:&\s*(?:'\w+\s+)?|mut\s+|dyn\s+|impl\s+|['\"])*"
# `name: Type` or TypeScript's optional `name?: Type`; the type is a path (`io::Result`, `httpx.Client`)
# ending where a declaration's type ends, or a Rust slice, array or tuple.
_DECLARED = re.compile(
    rf"(?<![\w.$'\"])([a-z_]\w*)\s*\??\s*:(?!:)\s*{_PREFIX}"
    r"(?:(?P<seq>[\[(])|(?P<path>(?:\w+(?:::|\.))*\w+)(?=\s*(?:[<\[,)=;|>\]'\"]|$)))",
    re.MULTILINE,
)
# Types whose value answers for what it holds (Rust's `Deref` pointers, Python's `Optional`): the
# type written inside them is the one whose members a call reaches.
_POINTERS = frozenset({"Box", "Arc", "Rc", "Pin", "Optional"})
_INNER = re.compile(rf"\s*[<\[]\s*{_PREFIX}((?:\w+(?:::|\.))*\w+)")
# Lowercase names that are types, not values (`u8`, `str`, `bytearray`, `string`).
_LOWER_TYPES = {
    "rust": RUST_PRIMITIVES,
    "python": BUILTIN_TYPES - {"object"},
    "typescript": frozenset({"string", "number", "boolean", "bigint", "symbol"}),
}
_GENERIC = re.compile(r"[A-Z]\d?")  # a type parameter's name (`T`, `B`, `R2`)
_ANY = frozenset({"Any", "any", "unknown", "object", "Object"})  # types that say nothing of the value
_OWN_CRATE = re.compile(r"^(?:(?:crate|super|self)\.)+")
SEQUENCE = "[]"
# A variable given a value where no type is written (`let p = ..`, `const o = ..`, Python's `x = ..`): a
# second declaration (a shadowing `let`, another callback's `const`, `headers = Headers(headers)`).
_GIVEN = {
    "rust": re.compile(r"\blet\s+(?:mut\s+)?([a-z_]\w*)\s*=(?!=)\s*"),
    "typescript": re.compile(r"\b(?:const|let|var)\s+([a-z_$][\w$]*)\s*=(?!=)\s*"),
    "python": re.compile(r"(?m)^[ \t]*([a-z_]\w*)[ \t]*=(?!=)[ \t]*"),
}
# Such a value whose class is read: a constructor call that is the whole value (`Parser::new(..);`,
# `new Options(..);`, `Headers(headers)`), not the start of a chain (`Command::new(..).spawn()`).
_CONSTRUCTOR = {
    "rust": re.compile(r"((?:\w+::)*[A-Z]\w*)(?:::<[^;=]*?>)?(?:::(?:new|default)\s*|\s*(?=\{))"),
    "typescript": re.compile(r"new\s+((?:\w+\.)*[A-Z]\w*)\s*"),
    "python": re.compile(rf"((?:\w+\.)*{PY_CLASS})"),
}
# A Rust `let` of one name, with its type written (group 2) or not: where a local is re-declared.
_LET = re.compile(r"\blet\s+(?:mut\s+)?([a-z_]\w*)\s*(:)?[^=;]*?=(?!=)\s*")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_UNKNOWN = "?"  # a value whose type is not read: the name then has no one type
# The type of a closure's or lambda's parameter that writes none: the caller passes a value the
# closure's text does not say (`|buf| Ok(buf.len())`, `lambda buf: ..`, `(buf) => ..`), so the name
# guesses no type (qualified.py `by_name_only`), unlike an undeclared local's, read by its name.
UNTYPED = "<untyped>"
# A closure's or lambda's parameter list: Rust's `|a, mut b|` where a value starts (after `(`, `,`,
# `=`, `move`), Python's `lambda a, b=1:`, TypeScript's `(a, b) =>` and `a =>`.
# The type a Rust function says it returns, its head (`-> &Core<T, S>`, `-> io::Result<Config>`, `->
# Option<&'a Self>`): through a wrapper whose `T` a call's `?` or `unwrap` gives, or a pointer's.
_RETURNS = re.compile(
    r"->\s*(?:(?:\w+::)*(?:Option|Result|Box|Arc|Rc|Pin)\s*<\s*)*&?\s*(?:'\w+\s+)?(?:mut\s+)?(?:\w+::)*([A-Z]\w*)"
)
_CLOSURE_PARAMS = {
    "rust": re.compile(r"(?:[(,=]|\bmove)\s*\|([^|]*)\|"),
    "python": re.compile(r"\blambda\b([^:\n]*):"),
    "typescript": re.compile(r"(?:\(([^()]*)\)|\b([a-z_$][\w$]*))\s*=>"),
}
_UNTYPED_PARAM = re.compile(r"\s*(?:mut\s+|\.\.\.|\*\*?)?([a-z_$][\w$]*)\s*(?:=[^,]*)?")
_CLOSING = {"(": ")", "[": "]", "{": "}"}


def written_types(language: str, texts: list[str]) -> dict[str, str]:
    """variable -> the head of the one type the declarations in `texts` write for it."""
    lang = "typescript" if language == "tsx" else language
    seen: dict[str, set[str]] = {}
    for text in texts:
        code = code_only(text, lang)
        for m in _DECLARED.finditer(code):
            head = _head(m, code, lang)
            if head:
                seen.setdefault(m.group(1), set()).add(head)
        for m in _GIVEN[lang].finditer(code):
            seen.setdefault(m.group(1), set()).add(_made(code, m.end(), lang))
        for name in _untyped_params(code, lang):
            seen.setdefault(name, set()).add(UNTYPED)
    # A closure's untyped parameter of the name of another declaration (`move |buf| ..` beside `buf:
    # &[u8]`) is mostly the same value passed on: the written declaration answers.
    seen = {v: (ts - {UNTYPED}) or ts for v, ts in seen.items()}
    return {v: next(iter(ts)) for v, ts in seen.items() if len(ts) == 1 and _UNKNOWN not in ts}


def _untyped_params(code: str, language: str) -> list[str]:
    """The parameters of the closures and lambdas in `code` that write no type (`buf` of `|buf|`, of
    `lambda buf:`, of `(buf) =>`); a typed one (`|buf: &[u8]|`) is read by `_DECLARED`."""
    names: list[str] = []
    for m in _CLOSURE_PARAMS[language].finditer(code):
        for param in "".join(g or "" for g in m.groups()).split(","):
            if (p := _UNTYPED_PARAM.fullmatch(param)) is not None:
                names.append(p.group(1))
    return names


def _made(code: str, at: int, language: str) -> str:
    """The class of the value written at `at` when it is one constructor call (or a Rust struct
    literal) ending the statement, else `_UNKNOWN`."""
    m = _CONSTRUCTOR[language].match(code, at)
    opening = m.end() if m else -1
    if not m or opening >= len(code) or code[opening] not in _CLOSING:
        return _UNKNOWN
    depth, end = 0, 0
    line_end = code.find(";" if language != "python" else "\n", opening)  # the statement, near enough
    tail = code[opening : len(code) if line_end < 0 else line_end + 1]
    bare = _STRING.sub(lambda s: '"' + " " * (len(s.group(0)) - 2) + '"', tail)  # `"\x1B["` opens none
    for end in range(len(bare)):
        depth += (bare[end] in _CLOSING) - (bare[end] in _CLOSING.values())
        if depth == 0:
            break
    end += opening
    rest = code[end + 1 :].lstrip(" \t?" if language == "python" else " \t\n?")  # a chain may go on below
    name = _OWN_CRATE.sub("", m.group(1).replace("::", "."))
    ended = not rest or rest[0] in (";\n#" if language == "python" else ";")
    if "." in name and language != "rust":  # `requests.Session()`: a module's, maybe not indexed
        return _UNKNOWN
    # `Arc::new(Notify::new())` holds a Notify, which this does not read
    return name if depth == 0 and ended and name.rsplit(".", 1)[-1] not in _POINTERS else _UNKNOWN


def _head(m: re.Match[str], code: str, language: str) -> str:
    """The name of the type `m` found ('' for a value): a path's last name, unwrapped from a pointer."""
    if m["seq"]:
        return SEQUENCE if language == "rust" or m["seq"] == "[" else ""
    path = m["path"].replace("::", ".")
    if path.rsplit(".", 1)[-1] in _POINTERS and (inner := _INNER.match(code, m.end())):
        path = inner.group(1).replace("::", ".")
    path = _OWN_CRATE.sub("", path)  # `super::Builder` is the crate's `Builder`, as written bare
    name = path.rsplit(".", 1)[-1]
    if _GENERIC.fullmatch(name) or name in _ANY:
        return ""  # `buf: B` with `B: Buf`: a type parameter, whose bound this does not read
    typelike = name[:1].isupper() or name in _LOWER_TYPES.get(language, frozenset())
    return path if typelike else ""


def _offset(code: str, lines: int) -> int:
    """Where line `lines` (0-based) of `code` starts; len(code) past its end."""
    at = 0
    for _ in range(lines):
        at = code.find("\n", at) + 1
        if at == 0:
            return len(code)
    return at


def _open(code: str, start: int, end: int) -> bool:
    """Whether the block `code[start]` is in is still open at `end`: no `}` closes it between."""
    depth = 0
    for ch in code[start:end]:
        depth += (ch == "{") - (ch == "}")
        if depth < 0:
            return False
    return True


class DeclaredTypes:
    """The written type of a call's receiver over one resolver's life: `enclosing` gives the class
    `self` means in a node."""

    def __init__(self, snap: Snapshot, enclosing: Callable[[Node], int]) -> None:
        self.snap, self._enclosing = snap, enclosing
        self._locals: dict[int, dict[str, str]] = {}
        self._fields: dict[int, dict[str, str]] = {}
        self._held: dict[str, bool] = {}
        self._returned: dict[tuple[str, str], str] = {}

    def shadowed(self, n: Node, name: str, line: int) -> bool:
        """Whether Rust local `name`, declared more than once in `n`, holds at `line` the value of
        a `let` whose type is not read (`let mut file = File::from_std(file);` after `let mut file =
        MockFile::default();`): a class read from another of its declarations is not this one's."""
        if n.language != "rust" or "." in name or not name:
            return False
        code = code_only(n.text, "rust")
        copy = re.compile(rf"&?(?:mut\s+)?{re.escape(name)}(?:\.clone\(\))?\s*;")  # `let tx = tx.clone();`
        lets = [m for m in _LET.finditer(code) if m.group(1) == name and not copy.match(code, m.end())]
        at = _offset(code, line - n.start_line)
        # In scope at the call: a `let` on an earlier line whose block has not closed before it.
        before = [m for m in lets if m.start() < at and _open(code, m.start(), at)]
        if len(lets) < 2 or not before:
            return False
        # locals.py reads the class of a `let` a constructor makes (`MockFile::default()`) for every
        # use of the name, and a chain (`let now = Instant::now();`) only where all lets agree.
        made = [m for m in lets if not m.group(2) and _made(code, m.end(), "rust") != _UNKNOWN]
        last = before[-1]
        return bool(made) and last not in made and not last.group(2)

    def held(self, n: Node, declared: str, qualifier: str = "") -> bool:
        """Whether the index holds a type of `n`'s language that `declared` (of `of`) may name, by its
        last name: when none, a call on the value reaches no indexed method (`state: AtomicUsize`,
        `buf: &[u8]`), as one on a capitalised qualifier the index does not hold reaches none. A
        type an indexed function returns (`qualifier` a call) is taken as held: its declaration may
        sit where no node is read (tokio's `Registration`, inside a `cfg_io_driver!` macro)."""
        if (
            declared in ("", UNTYPED)
            or qualifier.endswith(CALLED)
            or (n.language != "rust" and declared.rsplit(".", 1)[-1][:1].isupper())
        ):
            return True  # a Python or TypeScript type alias (`HeaderTypes`) is no class, yet may be one
        if declared not in self._held:
            name = declared.rsplit(".", 1)[-1]
            self._held[declared] = any(
                s.node.name == name and s.node.kind in CONTAINER_KINDS and s.node.language == n.language
                for s in self.snap.lookup("name_exact", name.lower(), limit=CLASS_PARTS)
            )
        return self._held[declared]

    def of(self, n: Node, qualifier: str) -> str:
        """The type declared for receiver `qualifier` in `n` (a parameter or local `buf`, an own field
        `self.buf`) as written, its path dotted (`ReadBuf`, `std.sync.Mutex`, `[]`, `u8`); '' when
        none is written or it is not a variable's."""
        if n.language == "go" and qualifier.isidentifier():  # `command *Other`: Other, though named `command`
            if n.uid not in self._locals:  # only a written type: a receiver, a parameter, `x := T{}`
                self._locals[n.uid] = variable_types(n)
            return self._locals[n.uid].get(qualifier, "")
        if n.language not in LANGUAGES or not qualifier or qualifier in _OWN:
            return ""  # `self: Pin<&mut Self>` is the own object, whose tiers come first
        if qualifier.endswith(CALLED):  # `self.io.registration().async_io(..)`: what it returns
            return self._returns(n.language, qualifier.removesuffix(CALLED).rsplit(".", 1)[-1])
        parts = qualifier.split(".")
        if len(parts) == 1:
            if n.uid not in self._locals:  # read once per function
                self._locals[n.uid] = written_types(n.language, [n.text])
            return self._locals[n.uid].get(parts[0], "")
        own = self._enclosing(n) if len(parts) == 2 and parts[0] in _OWN and n.language == "rust" else 0
        if not own:
            return ""
        if own not in self._fields:  # read once per class
            self._fields[own] = written_types(n.language, self._class_texts(own))
        return self._fields[own].get(parts[1], "")

    def _returns(self, language: str, name: str) -> str:
        """The type every indexed Rust function or method `name` says it returns (`fn core(&self) ->
        &Core<T, S>`; `-> Self` is its own type's), UNTYPED when they differ or one names none (`->
        impl Future`): a call's result is no variable named after a type."""
        if (language, name) not in self._returned:
            said: set[str | None] = set()
            for s in self.snap.lookup("name_exact", name.lower(), limit=CLASS_PARTS):
                c = s.node
                if c.name == name and c.language == language and c.kind in ("function", "method"):
                    m = _RETURNS.search(c.signature)
                    r = m.group(1) if m else None
                    said.add(
                        c.qualified_name.rsplit(".", 2)[-2] if r == "Self" and "." in c.qualified_name else r
                    )
            one = next(iter(said)) if len(said) == 1 else None
            self._returned[(language, name)] = one or UNTYPED
        return self._returned[(language, name)]

    def _class_texts(self, container: int) -> list[str]:
        """The texts of a Rust struct (or enum) of that name in its file: an `impl` block's text holds
        its methods' parameters, which are no fields. Many Rust types share a name (tokio's five
        `Sender`s), so another file's namesake is not read."""
        stored = self.snap.node(container)
        if stored is None:
            return []
        c = stored.node
        same = [s.node for s in self.snap.lookup("name_exact", c.name.lower(), limit=CLASS_PARTS)]
        return [
            s.text
            for s in same
            if s.qualified_name == c.qualified_name and s.path == c.path and s.kind in _FIELDED
        ]


__all__ = ["SEQUENCE", "UNTYPED", "DeclaredTypes", "written_types"]
