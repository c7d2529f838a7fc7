"""What a Go variable's declared type says about the calls made through it.

Owns: reading a Go function's receiver and parameter types from its signature
(`func (e *Engine) serve(c *Context, n int)` -> e: Engine, c: Context, n: int) and a struct field's
type from its node's signature (`pool sync.Pool`), and a local's where its declaration writes it
(`f := &JSONFormatter{...}`, `var b bytes.Buffer`), or the result type of the function making it
(`v := New()`, `x := viper.New()`), and a package-level variable's (`var v *Viper`, `var std =
New()`), as the written type name: `Context`, or `sync.Pool` for another package's. Call resolution (resolve.py) uses them for `c.Next()` and
`e.pool.Get()`: the method of that type, or no edge when the type is one the index does not hold
(`sync.Pool`), instead of every method of that name.

Go only: its parameters always carry their types, and a name is never rebound to another type
within a function; in other languages a parameter's type is often left out, or a subclass's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from indexlib.engines.lexical import StoredNode
from indexlib.graph.brackets import balanced, top_level_split
from indexlib.graph.chainmade import MAX_CHAIN
from indexlib.graph.family import folder, same_folder
from indexlib.graph.gomodules import go_package, package_folder
from indexlib.graph.gosigs import FUNC, TYPE_KEYWORDS, result_type, result_written, type_name
from indexlib.manifests import go_package_name
from indexlib.records import CONTAINER_KINDS, INDEXED, VALUE_KINDS, Node
from indexlib.snapshot import Snapshot

_NAME = re.compile(r"[A-Za-z_]\w*")
FIELDS_READ = 50  # same-named members read for the own package's (`Fs.client` of each package's `Fs`)
_LITERAL = re.compile(r"\bfunc\s*\(")  # a function literal: `func(` with no name
# A local variable whose type is written where it is declared: `f := &JSONFormatter{`, `var b Buffer`,
# and a type assertion's (`rctx := v.(*Context)`, `if m, ok := h.(*Mux); ok {`; not a switch's `.(type)`).
_LOCAL = re.compile(
    r"(?m)(?:^\s*(?P<short>[A-Za-z_]\w*)\s*:=\s*&?(?P<literal>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\{"
    r"|^\s*var\s+(?P<var>[A-Za-z_]\w*)\s+(?P<type>\*?[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\s*(?:=|$)"
    r"|^\s*(?:if\s+)?(?P<held>[A-Za-z_]\w*)(?:\s*,\s*[A-Za-z_]\w*)?\s*:=[^\n:=;]*?\.\("
    r"(?P<asserted>\*?(?!type\))[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\)\s*(?:;|$))"
)
# Variables made by a call, each typed by the function's result at its position: `v := New()`,
# `c, r := CreateTestContext(w)` (r: the second), `var std = New()` (a package-level one's node
# signature is that line), `f, err := s.client.Open(p)` (the method of the field's type).
# A `for` loop's first clause declares as well: `for p := c.Root(); p != nil; p = p.Parent() {`, and
# an `if` or `switch` init statement: `if r := c.Root(); r != nil {`, `switch f := v.Field(); f.Kind() {`.
_MADE = re.compile(
    r"(?m)(?:^\s*|\b(?:for|if|switch)\s+)(?P<var>var\s+)?(?P<names>[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(?P<op>:?=)\s*"
    r"(?P<call>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\("
)
# A local declared as a copy of another variable or a field of one: `p := c`, `for p := c.parent;`,
# `if p := c.parent; p != nil {`.
_COPIED = re.compile(
    r"(?m)(?:^\s*|\b(?:for|if|switch)\s+)(?P<name>[A-Za-z_]\w*)\s*:=\s*&?(?P<source>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*(?:;|$)"
)
_ELEMENT_READ = re.compile(
    r"(?m)(?:^\s*|\b(?:if|for)\s+)(?P<name>[A-Za-z_]\w*)(?:\s*,\s*[A-Za-z_]\w*)?\s*:=\s*"
    r"(?P<source>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\[[^\]\n]*\]\s*(?:;|$)"
)
# `for k, v := range xs {`, `for v := range xs {`; over a field (`cmd.flags`) or a call without
# arguments (`cmd.allFlags()`, `all()`), read through GoTypes.
_RANGE = re.compile(
    r"\bfor\s+(?:(?P<k>[A-Za-z_]\w*)\s*,\s*)?(?P<v>[A-Za-z_]\w*)\s*:=\s*range\s+"
    r"(?P<x>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?(?P<call>\(\))?)\s*\{"
)
# `var xs []*Shape`, `var byName map[string]Task` (a local collection a range may go over).
_VAR_COLLECTION = re.compile(
    r"(?m)^\s*var\s+(?P<name>[A-Za-z_]\w*)\s+(?P<type>(?:\[|map\[|chan\s)[^=\n]*?)\s*$"
)
_VAR = re.compile(r"var\s+(?P<name>[A-Za-z_]\w*)\s+(?P<type>[^=\s]+)\s*$")  # `var v *Viper`
EMBEDDED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?(?:\[[^\]]*\])?")  # a struct line that is a type alone


def variable_types(node: Node) -> dict[str, str]:
    """The declared types of a Go function's receiver, parameters and typed locals, by variable name."""
    if node.language != "go" or node.kind not in ("function", "method"):
        return {}
    head = FUNC.match(node.signature)
    if head is None:
        return {}
    receiver, params = head.group(1) or "", balanced(node.signature, head.end())
    out = _declared(receiver)
    out.update(_declared(params))
    written = {**_written(receiver), **_written(params)}
    written.update({v["name"]: v["type"] for v in _VAR_COLLECTION.finditer(node.text)})
    # Parameters of the function literals in its body (`r.Use(func(c *Context) { c.Next() })`) and
    # variables it declares with their type written (`f := &JSONFormatter{...}`, `var b Buffer`),
    # unless one name is declared with two types.
    literal: dict[str, set[str]] = {}
    for lit in _LITERAL.finditer(node.text, 1):
        for v, t in _declared(balanced(node.text, lit.end())).items():
            literal.setdefault(v, set()).add(t)
    for m in _LOCAL.finditer(node.text):
        t = type_name(m["literal"] or m["type"] or m["asserted"])
        if t and t.rpartition(".")[2] not in TYPE_KEYWORDS:
            literal.setdefault(m["short"] or m["var"] or m["held"], set()).add(t)
    # The variables of a `range` over a parameter or a `var` of a written collection type, and the
    # elements of those read by index (`bags[i]`, written `bags[]`).
    for v, t in ranged(node.text, written):
        if t.rpartition(".")[2] not in TYPE_KEYWORDS:
            literal.setdefault(v, set()).add(t)
    for v, ts in literal.items():
        if v not in out and len(ts) == 1:
            out[v] = next(iter(ts))
    for v, t in written.items():
        if element_type(t):
            out[v + INDEXED] = element_type(t)
    return out


def element_type(collection: str) -> str:
    """The named type of an element of a written Go collection type read by index: a slice's or
    array's (`[]*Shape` -> Shape), a map's value (`map[string]*Task` -> Task); '' for any other
    (a named slice type's elements are its declaration's, not read here)."""
    t = collection.strip()
    if t.startswith("map["):
        return type_name(t[_closing_bracket(t, 4) + 1 :])
    return type_name(t[t.index("]") + 1 :]) if t.startswith("[") else ""


def _binds(n: Node, name: str) -> bool:
    """Whether Go function `n` binds `name` itself (a parameter, a `:=`, a `var`, a range
    variable), so that `name` in it is not its package's variable of that name."""
    word = re.escape(name)
    return bool(
        re.search(rf"\b{word}\b", n.signature.removeprefix("func"))
        or re.search(rf"(?<![\w.])(?:\w+\s*,\s*)*{word}\s*(?:,\s*\w+\s*)*:=", n.text)
        or re.search(rf"\bvar\s+{word}\b|\bfunc\s*\([^)]*\b{word}\b", n.text)
    )


def field_written(field: Node) -> str:
    """A Go struct field's type as written (`flags []Flag` and a tag after it -> `[]Flag`), '' for none."""
    parts = field.signature.split(None, 1)
    if field.language != "go" or len(parts) != 2 or parts[0] != field.name:
        return ""
    return parts[1].split("`", 1)[0].strip()


def _declared(params: str) -> dict[str, str]:
    """`a, b int, c *Context` -> {c: Context}: the parameters of a named type (`_written`)."""
    named = {v: type_name(w) for v, w in _written(params).items()}
    return {v: t for v, t in named.items() if t}


def _written(params: str) -> dict[str, str]:
    """`a, b int, c []*Context` -> {a: int, b: int, c: []*Context}: names waiting for a type take the
    next one written; unnamed parameters (`func(int, string)`) declare nothing."""
    out: dict[str, str] = {}
    waiting: list[str] = []
    for item in top_level_split(params):
        words = item.split(None, 1)
        if len(words) == 1:
            if _NAME.fullmatch(words[0]):
                waiting.append(words[0])
            continue
        name, written = words
        if not _NAME.fullmatch(name):
            continue
        for v in (*waiting, name):
            out[v] = written.strip()
        waiting = []
    return out


def ranged(text: str, written: dict[str, str]) -> list[tuple[str, str]]:
    """The (variable, type) pairs of the `for k, v := range xs {` loops in `text` over a variable of a
    written collection type: a slice's or array's element (`[]*Shape` -> v: Shape), a map's key and
    value (`map[string]*Task` -> k: string is no named type, v: Task), a channel's element."""
    out: list[tuple[str, str]] = []
    for m in _RANGE.finditer(text):
        out += range_variables(m, written.get(m["x"], ""))
    return out


def range_variables(m: re.Match[str], collection: str) -> list[tuple[str, str]]:
    """The named types of a `range` loop's variables (`_RANGE` match `m`) over a `collection` of that
    written type: a slice's or array's element (`[]*Shape` -> v: Shape), a map's key and value
    (`map[string]*Task` -> v: Task; the key `string` is no named type), a channel's element."""
    t = collection.strip()
    key, value = "", ""
    if t.startswith("map["):
        close = _closing_bracket(t, 4)
        key, value = t[4:close], t[close + 1 :]
    elif t.startswith("["):
        value = t[t.index("]") + 1 :]
    elif t.startswith(("chan ", "<-chan ")):
        key = t.split(None, 1)[1]  # `for v := range ch`: a channel's one variable is its element
    out = [(m["k"] or m["v"], type_name(key))] if key else []
    if m["k"] and value:
        out.append((m["v"], type_name(value)))
    return [(v, t) for v, t in out if v != "_" and t]


def _closing_bracket(text: str, start: int) -> int:
    """The index of the `]` closing the `[` just before `start` (len(text) when none does)."""
    depth = 1
    for i in range(start, len(text)):
        depth += {"[": 1, "]": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return len(text)


class GoTypes:
    """The calls a Go function makes through typed variables, over one snapshot (cached per read)."""

    def __init__(self, snap: Snapshot, modules: Callable[[], dict[str, str]]) -> None:
        """`modules`: the indexed go.mod files' module paths to their folders (gomodules.py), read
        when first needed."""
        self.snap = snap
        self._modules = modules
        self._types: dict[tuple[str, str], list[StoredNode]] = {}
        self._packages: dict[str, str] = {}
        self._variables: dict[int, dict[str, str]] = {}
        self._fields: dict[tuple[str, str], str] = {}
        self._results: dict[tuple[str, str, int], str] = {}
        self._method_results: dict[tuple[str, str, int], str] = {}

    def through(self, n: Node, qualifier: str, cands: list[StoredNode]) -> list[StoredNode] | None:
        """The candidates `qualifier.name()` in `n` may call by the type of `qualifier` (`c` of `c
        *Context`, `e.pool` of `pool sync.Pool`): that type's methods, or those of a type it
        embeds; [] for a type the index does not hold (no edge); None when the type is not known
        or its methods are not found (resolve by name as before)."""
        declared = self._type_of(n, qualifier)
        if not declared:
            return None
        types = self._types_named(n, declared)
        if not types:  # `sync.Pool`: the standard library's (no domain in its path), no edge
            return [] if self._outside(n.path, declared.rpartition(".")[0]) else None
        found, outside = self._members(types, cands)
        # Not the type's, nor a held type's it embeds: the embedded `http.ResponseWriter`'s.
        return found or ([] if outside else None)

    def _members(self, types: list[StoredNode], cands: list[StoredNode]) -> tuple[list[StoredNode], bool]:
        """The candidates that are methods of `types`, else of the types of their package they embed,
        and whether they embed another package's. A method is declared in its type's package
        (folder): `codec.Encode()` on dotenv's `Codec` is not yaml's `Codec.Encode`, though both are
        named so; an embedded type of the own package is in that folder too. A method the type
        declares shadows an embedded type's of that name (Go promotes only what the outer type
        lacks): `engine.Use()` is Engine's, not also its RouterGroup's."""
        own = {(t.node.qualified_name, folder(t.node.path)) for t in types}
        embedded: set[tuple[str, str]] = set()
        outside = False
        for t in types:
            local, elsewhere = self._embedded(t.node)
            embedded |= {(name, folder(t.node.path)) for name in local}
            outside = outside or elsewhere
        return _declared_by(cands, own) or _declared_by(cands, embedded), outside

    def _type_of(self, n: Node, qualifier: str) -> str:
        """The declared type of `qualifier` in `n`: a variable's (`c`), a field's of one (`c.w`), or
        what a chain of fields and method calls on one gives (`c.Root().Parent()`: the result type
        each method declares). A reference writes a call's qualifier without its parentheses
        (`c.Root.Find`), so each step is a field of the type or else one of its methods."""
        if n.uid not in self._variables:  # read once per function, not once per call in it
            self._variables[n.uid] = variable_types(n)
        head, _, rest = qualifier.partition(".")
        known = self._variables[n.uid]
        if head not in known:  # made by a call, a package variable or a range: looked up once per name
            known[head] = ""  # unknown while it is read: `a := a.Next()` asks for its own type
            known[head] = self._made(n, head) or self._ranged(n, head)
        declared = known[head]
        if not declared and head.endswith(INDEXED):  # `c[i].Name()` on `c commandSorterByName`
            declared = self._named_element(n, self._type_of(n, head.removesuffix(INDEXED)))
        steps = rest.split(".") if rest else []
        if len(steps) > MAX_CHAIN:
            return ""
        for step in steps:  # `c.w.X()` a field's type; `c.Root().Find()` (written `c.Root.Find`) a result's
            if not declared or "." in declared:
                return ""  # unknown, or another package's type, whose fields this does not read
            if step.endswith(INDEXED):  # `n.children[i].find()`: an element of the field's collection
                written = self._field_written(n, f"{declared}.{step.removesuffix(INDEXED)}")
                declared = element_type(written) or self._named_element(n, type_name(written))
                continue
            field = type_name(self._field_written(n, f"{declared}.{step}"))
            declared = field or self._method_result(n, declared, step, 0)
        return declared

    def _made(self, n: Node, head: str) -> str:
        """The type of a variable `n` makes by a call (`v := New()`: New's result type), declares as a
        copy of a typed one (`p := c`) or reads from a field's collection (`v, ok := m.cache[k]`), else
        of its package's variable `head` (`var v *Viper`, `var std = New()`) when `n` binds no `head`."""
        found = [m for m in _MADE.finditer(n.text) if _position(m, head) >= 0]
        # Go never retypes a variable: its declarations (`:=`, `var`) say its type, and `p =
        # p.Parent()` after `p := c.Parent()` says nothing more (nor can be read while `p` is).
        declared = [m for m in found if m["op"] == ":=" or m["var"]]
        made = [(m["call"], _position(m, head)) for m in declared or found]
        copies = {m["source"] for m in _COPIED.finditer(n.text) if m["name"] == head and m["source"] != head}
        read = {m["source"] for m in _ELEMENT_READ.finditer(n.text) if m["name"] == head}
        if made or copies or read:  # made more than once (in several subtests): by calls agreeing on the type
            types = {self._made_by(n, call, at) for call, at in made} | {self._type_of(n, c) for c in copies}
            types |= {element_type(self._collection(n, source)) for source in read}  # `v := m.cache[k]`
            return types.pop() if len(types) == 1 else ""
        if _binds(n, head):
            return ""
        for s in self.snap.lookup("name_exact", head.lower(), limit=50):
            g = s.node
            if (
                g.language == "go"
                and g.kind in VALUE_KINDS
                and g.name == head
                and same_folder(g.path, n.path)
            ):
                typed, made_by = _VAR.match(g.signature), _MADE.match(g.signature)
                if typed and typed["name"] == head:
                    return type_name(typed["type"])
                if made_by and _position(made_by, head) >= 0:
                    return self._result(g.path, made_by["call"], _position(made_by, head))
        return ""

    def _made_by(self, n: Node, call: str, position: int) -> str:
        """The named type `call` in `n` returns at `position`: a method's, called on a variable of
        `n` whose type is known (`group := router.Group(..)` after `router := New()`: RouterGroup),
        else a function's of its package or of an imported one (`_result`)."""
        owner, _, method = call.rpartition(".")
        declared = self._type_of(n, owner) if owner and not self._imported(n.path, owner) else ""
        if declared:
            return self._method_result(n, declared, method, position)
        return self._result(n.path, call, position)

    def _method_result(self, n: Node, declared: str, method: str, position: int) -> str:
        """The named type the method `method` of type `declared` (as `n`'s file writes it) returns
        at `position`, when its declarations agree; a bare type of another package's is that package's."""
        key = (n.path, f"{declared}.{method}", position)
        if key not in self._method_results:
            found = [
                s for s in self.snap.lookup("name_exact", method.lower(), limit=200) if s.node.name == method
            ]
            methods, _ = self._members(self._types_named(n, declared), found)
            results = {result_type(m.node.signature, position) for m in methods if m.node.kind == "method"}
            got = results.pop() if len(results) == 1 else ""
            pkg = declared.rpartition(".")[0]
            if pkg and not methods and self._outside(n.path, pkg):  # `f, _ := s.client.Open(p)`, sftp's
                got = method  # some type of that package, named by the method, whose methods are none held
            self._method_results[key] = f"{pkg}.{got}" if pkg and got and "." not in got else got
        return self._method_results[key]

    def _ranged(self, n: Node, head: str) -> str:
        """The type of a `range` variable `head` of `n` over a field (`for _, f := range cmd.flags`)
        or a call's result (`range cmd.allFlags()`, `range all()`) of a written collection type,
        when every such loop binding `head` agrees."""
        found: set[str] = set()
        for m in _RANGE.finditer(n.text):
            if head not in (m["k"], m["v"]) or ("." not in m["x"] and not m["call"]):
                continue
            found |= {t for v, t in range_variables(m, self._collection(n, m["x"])) if v == head}
        return found.pop() if len(found) == 1 else ""

    def _collection(self, n: Node, expr: str) -> str:
        """The written type of `a.field`, `a.method()` or `function()` in `n`, '' when unknown."""
        name = expr.removesuffix("()")
        owner, _, member = name.rpartition(".")
        if not owner:  # `all()`: a function of the own package
            funcs = self._functions(n.path, name)
            return result_written(funcs[0].signature) if len(funcs) == 1 else ""
        declared = self._type_of(n, owner)
        if not declared or "." in declared:
            return ""
        want = f"{declared}.{member}"
        for s in self.snap.lookup("qsuffix", want.lower(), limit=FIELDS_READ):
            g = s.node
            if g.language == "go" and g.qualified_name == want and same_folder(g.path, n.path):
                if expr.endswith("()") and g.kind == "method":
                    return result_written(g.signature)
                if not expr.endswith("()") and g.kind in VALUE_KINDS:
                    return field_written(g)
        return ""

    def _functions(self, path: str, name: str, package: str = "") -> list[Node]:
        """The Go functions `name` in the file `path` calls: of its own package, or of the package
        `package` (an import path, or the name it is imported by) when the call is qualified."""
        return [
            s.node
            for s in self.snap.lookup("name_exact", name.lower(), limit=50)
            if s.node.language == "go"
            and s.node.kind == "function"
            and s.node.name == name
            and (self._provides(s.node.path, package) if package else same_folder(s.node.path, path))
        ]

    def _result(self, path: str, call: str, position: int = 0) -> str:
        """The named type a Go function returns at `position`, called as `call` in file `path` (`New`
        of its package, `viper.New` of the package imported as `viper`: then `viper.Viper`; for its
        first, `call` itself for a function of the standard library or a dependency), else ''."""
        key = (folder(path), call, position)
        if key not in self._results:
            pkg, _, name = call.rpartition(".")
            imported = self._imported(path, pkg) if pkg else ""
            funcs = self._functions(path, name, imported or pkg)
            results = {result_type(f.signature, position) for f in funcs}
            t = results.pop() if len(results) == 1 else ""
            if pkg:  # a bare type another package's function returns is that package's: `viper.Viper`
                t = f"{pkg}.{t}" if t and "." not in t else ""  # (`*other.T` there: its file's import)
            if pkg and not funcs and not position and self._outside(path, pkg):
                # `cmd := exec.CommandContext(..)`: some type of a package the index does not hold,
                # named by the call (`exec.CommandContext`), whose methods `through` links to none.
                t = call
            self._results[key] = t
        return self._results[key]

    def _field_written(self, n: Node, field: str) -> str:
        """The type of struct field `Type.name` as declared in `n`'s package (a bare type's), '' for
        none: afero's `sftpfs.Fs` and `gcsfs.Fs` have a `client` each, of another type."""
        key = (folder(n.path), field)
        if key not in self._fields:
            found = [s.node for s in self.snap.lookup("qsuffix", field.lower(), limit=FIELDS_READ)]
            own = [g for g in found if g.qualified_name == field and folder(g.path) == key[0]]
            values = [g for g in own if g.language == "go" and g.kind in VALUE_KINDS]
            self._fields[key] = field_written(values[0]) if values else ""
        return self._fields[key]

    def _named_element(self, n: Node, declared: str) -> str:
        """The element type of a named slice, array or map type of `n`'s package (`type
        commandSorterByName []*Command` -> Command), '' for another type or one of another package,
        whose element type names would be read in the wrong package."""
        if not declared or "." in declared:
            return ""
        said = {
            element_type(t.node.signature.split(None, 2)[2])
            for t in self._types_named(n, declared)
            if t.node.kind == "type" and len(t.node.signature.split(None, 2)) == 3
        }
        return said.pop() if len(said) == 1 else ""

    def _types_named(self, n: Node, declared: str) -> list[StoredNode]:
        """The type nodes a type name written in `n`'s file names: its own package's for a bare
        name; for `pkg.Type`, those of the package its file imports as `pkg` (the package clause
        names it, and the folder ends the import path: `fs` of `.../internal/fs`, imported as
        `filesystem`)."""
        key = (n.path, declared)
        if key not in self._types:
            pkg, _, name = declared.rpartition(".")
            path = self._imported(n.path, pkg) if pkg else ""
            self._types[key] = [
                s
                for s in self.snap.lookup("name_exact", name.lower(), limit=200)
                if s.node.language == "go"
                and (s.node.kind in CONTAINER_KINDS or s.node.kind == "type")  # `type Params []Param`
                and s.node.name == name
                and (self._provides(s.node.path, path or pkg) if pkg else same_folder(s.node.path, n.path))
            ]
        return self._types[key]

    def _outside(self, path: str, binding: str) -> bool:
        """Whether the package `path`'s file imports as `binding` is one the index does not hold:
        the standard library's (`sync`), or, when a go.mod is indexed, one under no indexed module's
        path (a dependency: `crypt.ConfigManager`'s `cm.Get()` is none of the indexed `Get`s)."""
        imported = self._imported(path, binding)
        if not imported:
            return False
        modules = self._modules()
        return _standard(imported) or (bool(modules) and package_folder(imported, modules) is None)

    def _imported(self, path: str, binding: str) -> str:
        """The import path `path`'s file binds to `binding` (`net/http` for `http`), else ''."""
        return next((r.target for r in self.snap.file_imports(path) if r.alias == binding), "")

    def _provides(self, path: str, imported: str) -> bool:
        """Whether the Go file `path` is in the package of import path `imported` (or of a package
        named so when no import says which): in the folder an indexed go.mod gives the path (the
        top for `github.com/urfave/cli/v3`), else with the package clause the import binds (the
        element before a `/vN` major version: `cli`) in a folder ending the import path (a root
        package's folder is the module, which any does)."""
        home = folder(path)
        anchored = package_folder(imported, self._modules()) if "/" in imported else None
        if anchored is not None:  # one folder is one package: its files' clause need not be read
            return anchored.strip("/") == home
        if self._package(path) != go_package_name(imported):
            return False
        return not home or f"/{imported}".endswith(f"/{home}") or "/" not in imported

    def _package(self, path: str) -> str:
        if path not in self._packages:
            self._packages[path] = go_package(self.snap, path)
        return self._packages[path]

    def _embedded(self, container: Node) -> tuple[set[str], bool]:
        """The types a Go struct embeds (a line of its body that is a type alone: `RouterGroup`,
        `*Tree`, `http.ResponseWriter`): the names of its own package's, and whether it embeds
        another package's."""
        local: set[str] = set()
        elsewhere = False
        body = container.text.split("{", 1)[1] if "{" in container.text else ""
        for line in body.splitlines():
            written = line.split("//", 1)[0].split("`", 1)[0].strip().lstrip("*")
            if EMBEDDED.fullmatch(written):
                if "." in written:
                    elsewhere = True
                else:
                    local.add(written.split("[", 1)[0])
        return local, elsewhere


def _position(made: re.Match[str], name: str) -> int:
    """Where `name` stands among the variables a `_MADE` match assigns (`r` of `c, r :=` is 1), -1
    when it is none of them."""
    names = [v.strip() for v in made["names"].split(",")]
    return names.index(name) if name in names else -1


def _standard(imported: str) -> bool:
    """Whether an import path is the Go standard library's (`sync`, `net/http`: no domain)."""
    return bool(imported) and "." not in imported.split("/", 1)[0]


def _declared_by(cands: list[StoredNode], holders: set[tuple[str, str]]) -> list[StoredNode]:
    """The candidates that are members of one of `holders` (a type's qualified name and folder): a
    member's name qualifies it (`Render.Render`), so the type `Render` itself, named as its own
    method, is none."""
    return [
        c
        for c in cands
        if "." in c.node.qualified_name
        and (c.node.qualified_name.rsplit(".", 1)[0], folder(c.node.path)) in holders
    ]
