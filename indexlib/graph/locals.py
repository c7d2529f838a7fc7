"""The class a local variable or a field is given where it is declared, outside Go (typed.py's).

Owns: reading, from a function's text, the variables whose declaration names their class
(`let te = TestEnv::new(..)`, `let cfg: Config = ..`, `r = Retrier(..)`, `const c = new Client()`,
`Parser p = new Parser(..)`, `val b = Builder()`, PHP's `$f = new Foo()` and `Foo $f`, Ruby's `r = Foo.new`), and from a
class's texts its fields' (`self.p = Parser()`, `self.client = via` after `via: Gateway`, a struct's
`settings: Config`, Java's `private Tokeniser tok;`, PHP's `private ?Foo $f` and `/** @var Foo */`); and narrowing a call through one (`te.assert_output()`, `self.p.parse()`, Java's
bare `tok.read()`) to the methods that class declares, else to those of the nearest class it
inherits from as far as the index holds them.

Why: a call through a local was linked by the method's name alone, so fd's ~330 `te.assert_output(..)`
calls on a `TestEnv` were ambiguous edges to every `assert_output`, and `qry related --callers` listed
them all as guesses. The declaration says which class it is, as a Go parameter's type does.

What is read is a declaration's shape, not a type inference: a constructor call or a written type,
with the class's name capitalised (`Type::new`, `Type::default`, `Type { .. }`, `new Type(`,
`Type(` in Python and Kotlin). A name declared with two classes in one function is left alone, and
when no method of the class is found (inherited from a class the index does not hold, or the
declaration read wrongly), the call is resolved as before: this only ever narrows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial

from indexlib.engines.lexical import StoredNode
from indexlib.graph.casts import CASTS
from indexlib.graph.chainmade import MAX_CHAIN, chain_made
from indexlib.graph.classmembers import CLASS_PARTS, class_texts, declared_in, is_class
from indexlib.graph.codelines import code_only
from indexlib.graph.elements import Elements
from indexlib.graph.family import family_of
from indexlib.graph.foreign import ForeignTypes
from indexlib.graph.modulefiles import ModuleFiles
from indexlib.graph.modulevars import ModuleVariables
from indexlib.graph.narrowed import LANGUAGES as NARROWED
from indexlib.graph.narrowed import tested_classes as narrowed
from indexlib.graph.phpdeclared import PHP_FIELDS, PHP_GIVEN, PHP_LOCALS
from indexlib.graph.phpmade import php_made
from indexlib.graph.pyfields import PY_CLASS, is_py_class, python_fields
from indexlib.graph.pymade import MadeLocals, Resolve
from indexlib.graph.returned import EXISTENTIAL, enclosing_named, returned_class
from indexlib.graph.rubymade import RUBY_LOCAL, constructed
from indexlib.graph.typeparams import bounded
from indexlib.records import CALLED, CONTAINER_KINDS, INDEXED, ROUTINE_KINDS, Node, Ref
from indexlib.snapshot import Snapshot

_SELF_TYPES = frozenset({"Self", "this", "self", "static"})  # `self`, `static`: PHP's
# Rust steps of a chain that give back the value they are called on, unwrapped: `Option<T>` and
# `Result<T, E>` (a declaration's return type is read as its `T`) give a `T`, `&T` an owned one.
_RUST_SAME = frozenset({"unwrap", "expect", "unwrap_or_default", "clone", "to_owned"})
# Base classes walked up for an inherited method (`self.m()`, `super`, PHP `Child::m()`, a local's).
MAX_ANCESTRY = 8
_TYPE = r"([A-Z]\w*)"
# A Java, C# or Kotlin class as a declaration may write it, through the classes it is nested in
# (`CallAdapter.Factory f`, `new Retrofit.Builder()`): every name capitalised, so no package's.
_NESTED_TYPE = r"([A-Z]\w*(?:\.[A-Z]\w*)*)"
# `name: Type` (a parameter or an annotated local: `te: &TestEnv`, `req: Request`, `c: Client`).
_ANNOTATED = re.compile(rf"(?<![\w.$])([a-z_]\w*)\s*:\s*&?(?:mut\s+)?{EXISTENTIAL}{_TYPE}")
# `Type name` followed by `=`, `;`, `,` or `)` (a Java or C# parameter or local: `Parser p = ..`).
# Type arguments, nested up to three deep (`<Func<Context, Task<T>>>`): balanced, so they never run
# on across parameters (`Func<Context, T> func, ISyncPolicy<T> inner` is two).
_TYPE_ARGS = r"<(?:[^<>;=(){}]|<(?:[^<>;=(){}]|<[^<>;=(){}]*>)*>)*>"
_TYPE_FIRST = re.compile(rf"(?<![\w.]){_NESTED_TYPE}(?:{_TYPE_ARGS})?\??(?:\[\])?\s+([a-z_]\w*)\s*[=;,)]")
# A Python constructor may be written through the module that holds it (`httpx.Client(..)`); the
# qualifier counts only when the file imports it as a module the index holds (LocalTypes._modules),
# since `b.Thing()` on a local is a call whose result says nothing of its class.
_PY_VIA = r"(?P<via>(?:[a-z_]\w*\.)+)?"
# A Python annotation may quote its class (`env: "Environment"`), write it through a module (`node:
# nodes.For`, counted as a constructor's `via` is) and wrap it in `Optional[..]`; `Frame | None` is a Frame.
_PY_HINT = r"['\"]?(?:(?:[a-z_]\w*\.)?Optional\[\s*['\"]?)?"
_PY_ANNOTATED = re.compile(rf"(?<![\w.$])(?P<var>[a-z_]\w*)\s*:\s*{_PY_HINT}{_PY_VIA}(?P<cls>{PY_CLASS})")
_PY_ASSIGNED = re.compile(rf"(?m)^\s*(?P<var>[a-z_]\w*)\s*=\s*{_PY_VIA}(?P<cls>{PY_CLASS})\(")
# `with Client(..) as client:` (also `async with`, each item of `with A() as a, B() as b`): a context
# manager's `__enter__` returns the instance itself nearly always (clients, sessions, files), and a
# call the class does not declare falls back as before. Arguments may nest one level of parentheses.
_PY_WITH = re.compile(
    rf"(?:\bwith\s+\(?|,)\s*{_PY_VIA}(?P<cls>{PY_CLASS})\((?:[^()]|\([^()]*\))*\)\s+as\s+(?P<var>[a-z_]\w*)"
)
# Kotlin's `val server = MockWebServer()`, `val b = Retrofit.Builder()`: a local or a property.
_KOTLIN_CONSTRUCTED = re.compile(rf"\b(?:val|var)\s+(\w+)\s*=\s*{_NESTED_TYPE}\(")
# Scala's `val p = new Parser(..)`, `val c = Config(..)` (a case class's `apply`), `var b = new Buffer`.
_SCALA_CLASS = r"[A-Z]\w*(?:\.[A-Z]\w*)*"
_SCALA_CONSTRUCTED = re.compile(
    rf"\b(?:val|var)\s+(\w+)\s*=\s*(?:new\s+(?={_SCALA_CLASS}(?![\w.]))|(?={_SCALA_CLASS}(?:\[[^\]=]*\])?\())"
    rf"({_SCALA_CLASS})"
)
_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "php": PHP_LOCALS,
    "ruby": (RUBY_LOCAL,),
    "rust": (
        _ANNOTATED,
        re.compile(
            rf"\blet\s+(?:mut\s+)?(\w+)\s*=\s*{_TYPE}(?:::<[^;]*?>)?(?:::(?:new|default)\s*\(|\s*\{{)"
        ),
    ),
    "python": (_PY_ANNOTATED, _PY_ASSIGNED, _PY_WITH),
    "typescript": (
        _ANNOTATED,
        re.compile(rf"\b(?:const|let|var)\s+(\w+)\s*(?::\s*[^=;]+)?=\s*new\s+{_TYPE}"),
    ),
    "javascript": (re.compile(rf"\b(?:const|let|var)\s+(\w+)\s*=\s*new\s+{_TYPE}"),),
    "kotlin": (_ANNOTATED, _KOTLIN_CONSTRUCTED),
    "scala": (_ANNOTATED, _SCALA_CONSTRUCTED),
    "swift": (_ANNOTATED, re.compile(rf"\b(?:let|var)\s+(\w+)\s*=\s*{_TYPE}\(")),
    "java": (_TYPE_FIRST, re.compile(rf"\bvar\s+(\w+)\s*=\s*new\s+{_NESTED_TYPE}")),
    "csharp": (_TYPE_FIRST, re.compile(rf"\bvar\s+(\w+)\s*=\s*new\s+{_NESTED_TYPE}")),
}
_PATTERNS = {lang: (*found, *CASTS.get(lang, ())) for lang, found in _PATTERNS.items()}  # casts.py
# A field of the own class: `x: Foo` (a Rust struct's, a TypeScript or Kotlin property's, a Python
# annotation), `self.x = Foo(..)`, `this.x = new Foo(..)`, Java's and C#'s `Foo x;`, `val x = Foo()`.
_SELF_CONSTRUCTED = re.compile(rf"\bself\.(\w+)\s*(?::\s*[^=\n]+)?=\s*({PY_CLASS})\(")
_SELF_GIVEN = re.compile(r"(?m)\bself\.(\w+)\s*=\s*([a-z_]\w*)\s*$")  # `self.gateway = gateway`
_THIS_NEW = re.compile(rf"\bthis\.(\w+)\s*=\s*new\s+{_TYPE}")
_FIELDS: dict[str, tuple[re.Pattern[str], ...]] = {
    "php": PHP_FIELDS,
    "rust": (_ANNOTATED,),
    "python": (_SELF_CONSTRUCTED,),  # and pyfields.py's annotations
    "typescript": (_ANNOTATED, _THIS_NEW),
    "javascript": (_THIS_NEW,),
    "kotlin": (_ANNOTATED, _KOTLIN_CONSTRUCTED),
    "scala": (_ANNOTATED, _SCALA_CONSTRUCTED),
    "swift": (_ANNOTATED,),
    "java": (_TYPE_FIRST, _THIS_NEW),
    "csharp": (_TYPE_FIRST, _THIS_NEW),
}
_OWN = frozenset({"self", "this"})
# Where a chain's step no method is named reads a field's declared class (`r.connection.send()`); not
# Rust, whose fields' types are often a wrapper (`Arc<Mutex<T>>`), nor Go (typed.py's).
_FIELD_STEPS = frozenset(
    {"python", "typescript", "tsx", "javascript", "php", "java", "csharp", "kotlin", "scala", "swift"}
)
# An attribute given a value in a method (`self.app = app`, `self.cb: Callback = cb`, `this.handler =
# fn`; not `==`, `+=`): a call `self.app(..)` calls the value held, no method of another class.
_ATTRIBUTE_SET = {
    "python": re.compile(r"(?m)^\s*self\.(\w+)\s*(?::[^=\n]+)?=(?!=)"),
    "javascript": re.compile(r"(?m)(?:^|[;{])\s*this\.(\w+)\s*=(?!=)"),
    "typescript": re.compile(r"(?m)(?:^|[;{])\s*this\.(\w+)\s*=(?!=)"),
}
_BARE_FIELDS = frozenset({"java", "csharp", "kotlin", "scala", "swift"})  # a field named without `this.`
LANGUAGES = frozenset(_PATTERNS) | {"tsx", "jsx"}
_ALIAS = {"tsx": "typescript", "jsx": "javascript"}


def _no_modules(_head: str) -> bool:
    """The default of `declared_classes`: no imports known, so no qualified constructor counts."""
    return False


def declared_classes(node: Node, is_module: Callable[[str], bool] = _no_modules) -> dict[str, str]:
    """variable -> the class its declarations in `node` name, for the variables declared with one;
    a class written through a qualifier (`httpx.Client()`) only when `is_module` says its head names
    a module (asked only then: the answer reads the file's imports)."""
    return _declared(_PATTERNS, node.language, [node.text], is_module)


def field_classes(
    language: str, texts: Sequence[str], is_module: Callable[[str], bool] = _no_modules
) -> dict[str, str]:
    """field -> the class its declarations in a class's texts (its parts: a Rust struct and its
    `impl` blocks) name, for the fields declared with one; in Python also a field given an
    annotated parameter (`def __init__(self, gateway: Gateway): self.gateway = gateway`)."""
    seen = _seen(_FIELDS, language, texts, is_module)
    for field, cls in python_fields(texts) if language == "python" else ():
        seen.setdefault(field, set()).add(cls)
    if language in ("python", "php"):
        given = _SELF_GIVEN if language == "python" else PHP_GIVEN
        for text in (code_only(t, language) for t in texts):
            said = _seen(_PATTERNS, language, [text], is_module)
            params = {v: cs.pop() for v, cs in said.items() if len(cs) == 1}
            for m in given.finditer(text):
                if m.group(2) in params:
                    seen.setdefault(m.group(1), set()).add(params[m.group(2)])
    return {v: next(iter(cs)) for v, cs in seen.items() if len(cs) == 1}


def _declared(
    patterns: dict[str, tuple[re.Pattern[str], ...]],
    language: str,
    texts: Sequence[str],
    is_module: Callable[[str], bool] = _no_modules,
) -> dict[str, str]:
    seen = _seen(patterns, language, texts, is_module)
    return {v: next(iter(cs)) for v, cs in seen.items() if len(cs) == 1}


def _seen(
    patterns: dict[str, tuple[re.Pattern[str], ...]],
    language: str,
    texts: Sequence[str],
    is_module: Callable[[str], bool] = _no_modules,
) -> dict[str, set[str]]:
    """name -> every class the declarations in `texts` give it."""
    seen: dict[str, set[str]] = {}
    lang = _ALIAS.get(language, language)
    codes = [code_only(text, lang) for text in texts]  # a doc comment's `- name: Word` declares nothing
    for pattern in patterns.get(lang, ()):
        for text in codes:
            for m in pattern.finditer(text):
                via = m.groupdict().get("via")
                if via and not is_module(via.split(".", 1)[0]):
                    continue  # `a = b.Thing()`: `b` is no module this file imports
                if "var" in pattern.groupindex:  # the Python patterns name their groups
                    var, cls = m.group("var"), m.group("cls")
                elif pattern is _TYPE_FIRST:
                    var, cls = m.group(2), m.group(1)
                else:
                    var, cls = m.group(1), m.group(2)
                seen.setdefault(var, set()).add(cls.replace("::", ".").lstrip("."))  # Ruby's `Rack::Lint`
    return seen


class LocalTypes:
    """The calls a function makes through locals and fields of a declared class, over one
    resolver's life: `enclosing` gives the class `self` means in a node, `ancestry` the classes some
    containers inherit from, level by level (uids, as far as the index holds them)."""

    def __init__(
        self,
        snap: Snapshot,
        enclosing: Callable[[Node], int],
        ancestry: Callable[[frozenset[int]], list[frozenset[int]]],
        modules: ModuleFiles,
        resolve: Resolve,
    ) -> None:
        """`modules`: the resolver's lookups of indexed modules and of each file's imports;
        `resolve` links a reference (a call making a Python local) to node uids."""
        self.snap, self._enclosing, self._ancestry, self._modules = snap, enclosing, ancestry, modules
        self._variables: dict[int, dict[str, str]] = {}
        self._fields: dict[int, dict[str, str]] = {}
        self._attributes: dict[int, frozenset[str]] = {}
        self._chain_made: dict[tuple[int, str], str | None] = {}
        self._lineage: dict[tuple[str, str], list[set[str]]] = {}
        self._returned: dict[tuple[str, str, str], str | None] = {}
        self._classes: dict[tuple[str, str], bool] = {}
        self._variables_of = ModuleVariables(snap)
        self._foreign = ForeignTypes(snap, ancestry)
        self._made = MadeLocals(snap, resolve)
        self._elements = Elements(snap, enclosing, partial(class_texts, snap))

    def through(
        self, n: Node, qualifier: str, cands: list[StoredNode], bound: Sequence[Ref] = (), line: int = 0
    ) -> list[StoredNode] | None:
        """The candidates of `qualifier.name()` in `n` that the class of the local, own field or
        module-level variable `qualifier` (`te`, `self.parser`, `this.tokeniser`, a Python module's
        `current_app`, imported when `bound` holds the imports binding it) declares, or the nearest
        class it inherits from declares; through a chain of calls (`doc.select(q).first()`,
        `Command::new(x).arg(a)`) the class each call's declaration says it returns. None when
        the class is not known or declares none of them. `line`: the call's, for a test's branch."""
        if n.language not in LANGUAGES:
            return None
        parts = qualifier.split(".")
        at = 1 if parts[0] in _OWN else 0
        if at and parts[1:2] and parts[1].endswith(CALLED):
            return None  # `self.inner().lock()`: an own method's result, no field's
        called = [p.endswith(CALLED) for p in parts]  # Rust marks a step that is a call's result
        parts = [p.removesuffix(CALLED) for p in parts]  # `Command::new(x).arg(a)`: each a call anyway
        if INDEXED in qualifier:  # `self.items[k].close()`: an element's class, as the collection's says
            if not parts[at:] or not parts[at].endswith(INDEXED) or INDEXED in "".join(parts[at + 1 :]):
                return None  # indexed further along a chain (`a.b()[0].c()`): not read
            field, name = bool(at), parts[at].removesuffix(INDEXED)
            cls, rest = self._elements.of(n, name, field, n.language in _BARE_FIELDS), parts[at + 1 :]
        elif at:
            cls, rest = (self._own_field(n, parts[1]) if len(parts) > 1 else None), parts[2:]
        elif n.language == "ruby" and parts[0][:1].isupper():  # `Rack::MockRequest.new(app).get`
            cls, rest = constructed(parts, partial(self._holds, language="ruby"))  # rubymade.py
        else:  # a Java import binds a class (`import retrofit2.Retrofit;`), never a variable
            cls = None if bound and n.language not in _BARE_FIELDS else self._local(n, parts[0])
            cls, rest = cls or self._module_level(n, parts[0], list(bound)), parts[1:]
        declared = cls is not None and cls != parts[0]  # a variable's class, not a type named itself
        while not declared and cls and rest and self._holds(f"{cls}.{rest[0]}", n.language):
            cls, rest = f"{cls}.{rest[0]}", rest[1:]  # `new Retrofit.Builder().baseUrl(u)`: the nested class
        if len(rest) > MAX_CHAIN:
            return None
        start, found = len(parts) - len(rest), None
        tested: list[str] = []  # narrowed.py: `instanceof` tests (holding the call's line, when known)
        if n.language in NARROWED:
            tested = narrowed(n.text, parts[:start], n.language, line - n.start_line if line else -1)
        for head in dict.fromkeys([cls, *tested]):  # `$o instanceof Foo` where `$o`'s own class answers none
            found = found or self._walked(head, rest, called[start:], n.language, cands)
        if found is None and declared and cls and not rest:  # `server.enqueue()` on a library's MockWebServer
            return self._foreign.implementing(n, cls, cands)
        # Two classes of one name (a Scala `object Macros` per compiler version's source folder): the
        # one in the caller's own file, when it declares the member, is the one it names.
        own_file = [c for c in found or [] if c.node.path == n.path]
        return own_file or found

    def _walked(
        self, cls: str | None, rest: list[str], called: list[bool], language: str, cands: list[StoredNode]
    ) -> list[StoredNode] | None:
        """The candidates the class a chain's `rest` steps make from `cls` declares (or inherits)."""
        for step, call in zip(rest, called, strict=True):
            cls = self._step(cls, step, language, call) if cls is not None else None
        return None if cls is None else self._members(cls, language, cands)

    def _local(self, n: Node, name: str) -> str | None:
        """The class of a local `name` of `n` (Java's bare field too), or `name` itself when it names
        a class the index holds (`Command::new(..)`: a chain that starts at a type)."""
        if n.uid not in self._variables:  # read once per function, not once per call in it
            declared = declared_classes(n, partial(self._is_module, n.path))
            outer = self.snap.node(self._enclosing(n))  # a type parameter's bound (typeparams.py)
            self._variables[n.uid] = bounded(n, declared, outer.node if outer is not None else None)
        cls = self._variables[n.uid].get(name)
        if cls in _SELF_TYPES:  # `router: Self`, `other: &Self`: the class (the `impl`'s type) `n` is in
            own = self.snap.node(self._enclosing(n))
            cls = own.node.name if own is not None and own.node.kind in CONTAINER_KINDS else None
        if cls is None:  # `let f = SizeFilter::from_string(s)?;`, `val b = CodeBlock.builder()`
            cls = self._chained(n.uid, lambda: [n.text], name, n.language)
        # Java's `tokeniser.read()` is `this.`'s, unless the function declares its own `var policy = ..`
        # (whose class is unread): another method's `Action<..> policy` is no field of the class.
        if (
            cls is None
            and n.language in _BARE_FIELDS
            and not re.search(rf"\b(?:var|val|let)\s+{name}\b", n.text)
        ):
            cls = self._field(n, name)
        if cls is None and n.language in _BARE_FIELDS:  # `var c = CreateController();`: what it returns
            made = re.search(rf"\b(?:var|val|let)\s+{name}\s*=\s*(?:this\.)?(\w+)\s*[(<]", n.text)
            own = self.snap.node(self._enclosing(n)) if made else None
            cls = self._returns(own.node.name, made.group(1), n.language) if own and made else None
        if cls is None and n.language == "python":  # `d = self._decoder()`: what it says it returns
            cls = self._made.class_of(n, name)
        if cls is None and n.language == "php":  # `$b = $a->map(..)`: what `map` says it returns
            own = self.snap.node(self._enclosing(n))
            mine, returns = own.node.name if own else None, partial(self._returns, language="php")
            cls = php_made(code_only(n.text, "php"), name, mine, self._variables[n.uid], returns)
        if (
            cls is None
            and (is_py_class(name) if n.language == "python" else name[:1].isupper())
            and len(self._levels(name, n.language)[0])
            and self._holds(name, n.language)
        ):
            cls = name
        return cls

    def _chained(self, uid: int, texts: Callable[[], list[str]], name: str, language: str) -> str | None:
        """The class a chain from a type makes `name` in the texts of the function or class `uid`
        (chainmade.py; read once per name there)."""
        if (uid, name) not in self._chain_made:
            holds = partial(self._holds, language=language)
            made = chain_made(texts(), name, language, holds, partial(self._returns, language=language))
            self._chain_made[(uid, name)] = made
        return self._chain_made[(uid, name)]

    def _module_level(self, n: Node, name: str, bound: list[Ref]) -> str | None:
        """The class the module-level declaration of `name` that `n` reads names (modulevars.py),
        when every such declaration names the same one."""
        said = {
            declared_classes(d, partial(self._is_module, d.path)).get(name)
            for d in self._variables_of.declarations(n, name, bound)
        }
        return next(iter(said)) if len(said) == 1 else None

    def _is_module(self, path: str, head: str) -> bool:
        """Whether an import of file `path` binds `head` to a module the index holds (`httpx` of
        `import httpx`, `br` of `import billing.retry as br`): a constructor written through one
        names its class, and one of a module outside the index may share a name with an indexed class."""
        family = (
            family_of(self.snap.manifest.files[path].language) if path in self.snap.manifest.files else ""
        )
        return any(
            (r.alias or r.target.split(".", 1)[0]) == head and self._modules.indexed(r.target, family)
            for r in self._modules.imports(path)
        )

    def _members(self, cls: str, language: str, cands: list[StoredNode]) -> list[StoredNode] | None:
        for level in self._levels(cls, language):
            found = [c for c in cands if any(declared_in(c, name) for name in level)]
            if found:
                return found
        return None

    def _step(self, cls: str, step: str, language: str, called: bool) -> str | None:
        """The class one step of a chain on a `cls` gives: what its method `step` says it returns,
        else, for a step no method of `cls` is named (`r.connection` of `r.connection.send()` with
        `r: Response`), the class the field's declaration in `cls` names (`connection: HTTPAdapter`)."""
        returned = self._returns(cls, step, language)
        if returned is not None or called or language not in _FIELD_STEPS:
            return returned
        return None if self._routine(cls, step, language) else self._member_field(cls, step, language)

    def _own_field(self, n: Node, field: str) -> str | None:
        """The class of `self.field` in `n`: its own class's declaration of the field, else (where a
        chain's steps read fields) one its bases declare (click's `self.param` in `MissingParameter`,
        declared `param: Parameter | None` in `BadParameter`), else what its own property `field`
        says it returns (httpx's `self.base_url`, `def base_url(self) -> URL`)."""
        found = self._field(n, field)
        own = self.snap.node(self._enclosing(n)) if found is None and n.language in _FIELD_STEPS else None
        if own is None:
            return found
        return self._member_field(own.node.name, field, n.language) or self._returns(
            own.node.name, field, n.language
        )

    def _routine(self, cls: str, name: str, language: str) -> bool:
        """Whether `cls` or a class it inherits from declares a routine `name` (whose return, not a
        field, a step of that name reads)."""
        found = [
            s
            for s in self.snap.lookup("name_exact", name.lower(), limit=CLASS_PARTS)
            if s.node.name == name and s.node.kind in ROUTINE_KINDS
        ]
        return bool(self._members(cls, language, found))

    def _member_field(self, cls: str, field: str, language: str) -> str | None:
        """The class the declaration of field `field` of `cls`, or of the nearest class it inherits
        from that declares one, names; None when none does or two classes of that name disagree."""
        for level in self._levels(cls, language):
            said = {
                self._class_fields(u, language).get(field)
                for name in level
                for u in self._holders(name, language)
            } - {None}
            if said:
                return said.pop() if len(said) == 1 else None
        return None

    def _class_fields(self, own: int, language: str) -> dict[str, str]:
        """field -> declared class, for the class `own` (read once per class); a class written through
        a module (`nodes.For`) counts when the class's file imports that module."""
        if own not in self._fields:
            held = self.snap.node(own)
            is_module = partial(self._is_module, held.node.path) if held is not None else _no_modules
            fields = field_classes(language, class_texts(self.snap, own), is_module)
            self._fields[own] = bounded(held.node, fields) if held is not None else fields
        return self._fields[own]

    def _returns(self, cls: str, method: str, language: str) -> str | None:
        """The class a method `method` of `cls` (or of the nearest class it inherits from) says it
        returns, when every such declaration says the same (`-> Self` and `this` are `cls`)."""
        key = (cls, method, language)
        if key not in self._returned:  # a chain's calls repeat across a file's functions
            self._returned[key] = self._read_return(cls, method, language)
        return self._returned[key]

    def _read_return(self, cls: str, method: str, language: str) -> str | None:
        found = [
            s
            for s in self.snap.lookup("name_exact", method.lower(), limit=CLASS_PARTS)
            if s.node.name == method
        ]
        mine = self._members(cls, language, found) or []
        if not mine and language == "kotlin":  # `CodeBlock.builder()`: its companion object's
            mine = self._members(f"{cls}.Companion", language, found) or []
        if not mine and language == "rust" and method in _RUST_SAME:
            return cls  # `TimeFilter::after(s).unwrap()`: the `TimeFilter` that `after` wraps
        if not mine and language == "ruby" and method == "new":
            return cls  # `Rack::MockRequest.new(app).get(..)`: Class#new makes an instance of `cls`
        said = {returned_class(m.node.signature, method, language) for m in mine}
        # a Python property's setter says `-> None`: the value read through it is its getter's
        said = {cls if r in _SELF_TYPES else r for r in said} - ({"None"} if len(said) > 1 else set())
        # `Builder baseUrl(..)` in `Retrofit.Builder` returns that Builder, not another class's
        said = {enclosing_named(cls, r) if r else r for r in said}
        # `fun builder(): Builder` in `CodeBlock`'s companion: the `CodeBlock.Builder` nested in it
        said = {
            f"{cls}.{r}" if r and "." not in r and self._holds(f"{cls}.{r}", language) else r for r in said
        }
        return next(iter(said)) if len(said) == 1 and None not in said else None

    def _holds(self, name: str, language: str) -> bool:
        """Whether the index holds a class `name` of `language` (read once per name)."""
        if (name, language) not in self._classes:
            self._classes[(name, language)] = any(
                is_class(s, name) and s.node.language == language
                for s in self.snap.lookup("name_exact", name.rsplit(".", 1)[-1].lower(), limit=CLASS_PARTS)
            )
        return self._classes[(name, language)]

    def _field(self, n: Node, field: str) -> str | None:
        own = self._enclosing(n)
        if not own:
            return None
        fields = self._class_fields(own, n.language)
        made = n.language == "python" and field not in fields  # `self.x = env._tokenize(..)`
        found = fields.get(field) or (self._made.field_of(own, field) if made else None)
        if found is None and n.language in _BARE_FIELDS:  # `internal val body = CodeBlock.builder()`
            found = self._chained(own, partial(class_texts, self.snap, own), field, n.language)
        return found

    def assigned(self, n: Node, name: str) -> bool:
        """Whether the class `self` means in `n`, or one it inherits from, gives its attribute
        `name` a value (`self.app = app` in `__init__`): `self.app(..)` that no method answers
        then calls what the attribute holds (a wrapped ASGI app, a callback), not a method of
        another class that happens to be named `app`."""
        pattern = _ATTRIBUTE_SET.get(_ALIAS.get(n.language, n.language))
        own = self._enclosing(n)
        if pattern is None or not own:
            return False
        if own not in self._attributes:  # read once per class
            classes = [own, *(u for level in self._ancestry(frozenset({own})) for u in level)]
            texts = [t for c in classes for t in class_texts(self.snap, c)]
            self._attributes[own] = frozenset(m.group(1) for t in texts for m in pattern.finditer(t))
        return name in self._attributes[own]

    def _holders(self, cls: str, language: str) -> frozenset[int]:
        """The uids of the indexed classes `cls` names in `language`."""
        return frozenset(
            s.node.uid
            for s in self.snap.lookup("name_exact", cls.rsplit(".", 1)[-1].lower(), limit=CLASS_PARTS)
            if is_class(s, cls) and s.node.language == language
        )

    def _levels(self, cls: str, language: str) -> list[set[str]]:
        """`{cls}`, then the names of the classes it inherits from, level by level (the resolver's
        ancestry walk)."""
        key = (cls, language)
        if key not in self._lineage:
            holders = self._holders(cls, language)
            levels = [{cls}]
            for level in self._ancestry(holders) if holders else []:
                levels.append({st.node.name for u in level if (st := self.snap.node(u)) is not None})
            self._lineage[key] = levels
        return self._lineage[key]
