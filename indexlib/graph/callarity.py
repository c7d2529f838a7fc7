"""Overloads told apart by the number of arguments a call writes (Java, C#, C++, Kotlin, Swift)
and, in Swift, by their argument labels.

Owns: reading how many arguments a declaration's parameter list admits (defaults and a variadic
last parameter included) and keeping, of a call's candidates, the methods that admit the call's
(`Ref.args`, parsing/arguments.py). jsoup's `el.text()` linked ambiguously to `Element.text()` and
`Element.text(String)`, and 3,089 of its ambiguous call sites were overloads of one class alone.

A declaration whose parameters cannot be read from its signature (a list spread over lines past
the signature) admits any call, and when no candidate admits the call (a count read wrongly) every
candidate stays: this only ever narrows.

Swift names a method by its labels (`adapt(_:for:completion:)`, `adapt(_:using:completion:)`):
Alamofire's `Interceptor` declares four `adapt`s, two of four parameters, and a call of one was
ambiguous among all four. A call's labels must be the declaration's external labels in order, a
parameter with a default value (or a variadic one) left out or not; a trailing closure written
without a label may fill any parameter.
"""

from __future__ import annotations

import functools
import re

from indexlib.engines.lexical import StoredNode
from indexlib.records import (
    MAX_SIGNATURE_CHARS,
    ROUTINE_KINDS,
    TRAILING,
    UNLABELED,
    Node,
    is_constructor,
    is_prototype,
)

_OPEN, _CLOSE = "(<[{", ")>]}"
_VARARG = re.compile(r"(?:@\S+\s+)*vararg\s")  # `vararg names: String`, after any annotations


def parameters(signature: str) -> list[str] | None:
    """The parameters of the first parameter list of `signature`, as written (`void` left out), or
    None when the list does not close within it."""
    start = signature.find("(")
    if start < 0:
        return None
    depth = 0
    params: list[str] = []
    current: list[str] = []
    prev = " "
    for ch in signature[start + 1 :]:
        if ch == ")" and depth == 0:
            break
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE and not (ch == ">" and prev in "-="):  # a Kotlin `(T) -> Unit`, a C# `=>`
            depth -= 1
        elif ch == "," and depth == 0:
            params.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
        prev = ch
    else:
        return None
    params.append("".join(current).strip())
    return [p for p in params if p and p != "void"]


def declared_signature(n: Node) -> str:
    """`n`'s signature whole: read again from its text when it was cut at MAX_SIGNATURE_CHARS, where
    its parameter list did not close and so admitted every call (Alamofire's `Session.init`, twelve
    defaulted parameters, was a candidate of every `self.init(..)` of the class)."""
    if len(n.signature) < MAX_SIGNATURE_CHARS:
        return n.signature
    text = " ".join(n.text.split())  # as the signature was collapsed
    at = text.find(n.signature)
    return text[at:] if at >= 0 else n.signature


def parameter_range(signature: str) -> tuple[int, int | None] | None:
    """(fewest, most) arguments the first parameter list of `signature` admits (most None when the
    last is variadic), or None when the list does not close within it.

    >>> parameter_range("Element text(String text) {"), parameter_range("void f(int a, int b = 2)")
    ((1, 1), (1, 2))
    >>> parameter_range("static String join(String sep, String... parts)"), parameter_range("int f(void);")
    ((1, None), (0, 0))
    >>> parameter_range("static int Count(this IEnumerable<T> xs, Func<T, bool> p)"), parameter_range("f(a,")
    ((1, 2), None)
    >>> parameter_range("fun <T> f(cb: (T) -> Unit, n: Int = 0)"), parameter_range("fun g(t: Type, vararg a: A)")
    ((1, 2), (1, None))
    """
    params = parameters(signature)
    if params is None:
        return None
    fewest, most = sum(1 for p in params if "=" not in p), len(params)
    if params and ("..." in params[-1] or params[-1].startswith("params ")):
        return fewest - 1, None
    if any(_VARARG.match(p) for p in params):  # Kotlin: a `vararg` takes any number, and need not be last
        return fewest - 1, None
    if params and params[0].startswith("this "):  # a C# extension method: `xs.Count(p)` or `Count(xs, p)`
        fewest -= 1
    return fewest, most


# A Ruby `def` up to its parameters: its name through a receiver (`self.`), an operator (`==`, `[]=`)
# or a name ending `?`, `!` or `=`.
_RUBY_DEF = re.compile(r"^\s*def\s+(?:\w+\.)?(?:\w+[?!=]?|[^\s\w(;]+)")
_RUBY_KEYWORD = re.compile(r"^\w+:")  # `timeout:`, `mode: nil`


def ruby_range(signature: str) -> tuple[int, int | None, bool] | None:
    """(fewest, most, takes keywords) of the positional arguments a Ruby `def` admits (most None
    for a splat), or None when unread: parameters written without parentheses, a method made
    otherwise (`attr_reader :name`, `def_delegator`). Keywords and a block are no positional ones.

    >>> ruby_range("def process"), ruby_range("def m(a, b = 1, *c, d:, e: 2, **f, &g)")
    ((0, 0, False), (1, None, True))
    >>> ruby_range("def self.slugify(string, mode: nil)"), ruby_range("attr_reader :config"), ruby_range("def o a, b")
    ((1, 1, True), None, None)
    """
    head = _RUBY_DEF.match(signature)
    if head is None:
        return None
    rest = signature[head.end() :].lstrip()
    if rest and rest[0] not in "(;#=":
        return None
    params = parameters(rest) if rest.startswith("(") else []
    if params is None:
        return None
    fewest, most, keywords = 0, 0, False
    variadic = False
    for p in params:
        if p == "...":
            return 0, None, True
        if p.startswith("**") or _RUBY_KEYWORD.match(p):
            keywords = True
        elif p.startswith("*"):
            variadic = True
        elif not p.startswith("&"):
            most += 1
            fewest += "=" not in p
    return fewest, None if variadic else most, keywords


def swift_parameters(signature: str) -> tuple[tuple[str, bool, bool], ...] | None:
    """(external label, may be left out, variadic) of each parameter of a Swift declaration, or None
    when its list cannot be read.

    >>> swift_parameters("func adapt(_ r: URLRequest, for session: Session, completion: @escaping (R) -> Void)")
    (('_', False, False), ('for', False, False), ('completion', False, False))
    >>> swift_parameters("func f(method: HTTPMethod = .get, _ xs: Int...)")
    (('method', True, False), ('_', True, True))
    """
    params = parameters(signature)
    if params is None:
        return None
    out: list[tuple[str, bool, bool]] = []
    for p in params:
        head, colon, kind = p.partition(":")
        words = head.split()
        if not colon or not words:
            return None
        variadic = kind.split("=", 1)[0].rstrip().endswith("...")
        out.append((words[0], "=" in kind.replace("->", "").replace("==", "") or variadic, variadic))
    return tuple(out)


def admits_labels(params: tuple[tuple[str, bool, bool], ...], labels: tuple[str, ...]) -> bool:
    """Whether a Swift call writing `labels` can call a declaration of `params` (swift_parameters).

    >>> ps = swift_parameters("func adapt(_ r: R, for s: S, completion: C)")
    >>> admits_labels(ps, ("_", "for", "completion")), admits_labels(ps, ("_", "for", "")), admits_labels(ps, ("_", "using", ""))
    (True, True, False)
    """

    @functools.cache  # a few parameters and labels: each (i, j) once
    def fit(i: int, j: int) -> bool:
        if i == len(labels):
            return all(optional for _label, optional, _variadic in params[j:])
        if j == len(params):
            return False
        label, optional, variadic = params[j]
        written = labels[i]
        if written in (label, TRAILING) and fit(i + 1, j + 1):
            return True
        if variadic and written in (label, UNLABELED, TRAILING) and i and fit(i + 1, j):
            return True  # `f(a, b, c)` of `f(_ xs: Int...)`: later values of a variadic are unlabeled
        return optional and fit(i, j + 1)

    return fit(0, 0)


# Where an override or an implementation declares the parameters of the method it overrides: a method
# of another shape is an overload beside it, not it.
_SAME_SHAPE_LANGUAGES = frozenset({"java", "csharp", "kotlin", "go"})
_GO_RECEIVER = re.compile(r"^\s*func\s*\([^()]*\)\s*")  # `func (c *Circle) ` before a Go method's name


def same_shape(a: Node, b: Node) -> bool:
    """Whether two same-named methods may be one overriding (or implementing) the other: in Swift
    their external labels are the same (`request(for:)` is not `request(_:method:)`), in Java, C#,
    Kotlin and Go their parameter counts (a Go method's after its receiver: `Close()` implements no
    `Close(force bool)`); any two elsewhere, or when either list cannot be read."""
    if a.language != b.language:
        return True
    if a.language == "swift":
        pa, pb = swift_parameters(declared_signature(a)), swift_parameters(declared_signature(b))
        return pa is None or pb is None or [p[0] for p in pa] == [p[0] for p in pb]
    if a.language in _SAME_SHAPE_LANGUAGES:
        ca, cb = (parameters(_GO_RECEIVER.sub("", declared_signature(n), count=1)) for n in (a, b))
        return ca is None or cb is None or len(ca) == len(cb)
    return True


def of_call_arity(cands: list[StoredNode], args: int, labels: tuple[str, ...] = ()) -> list[StoredNode]:
    """The candidates a call writing `args` arguments (with Swift's `labels`) can mean: a type or a
    constructor (which class `new T(..)` makes is resolved by the class), or a function or method
    whose parameters admit them; all of them when none does."""
    kept = [c for c in cands if _admits(c, args, labels)]
    return _with_defined_bodies(kept, cands) or cands


def _with_defined_bodies(kept: list[StoredNode], cands: list[StoredNode]) -> list[StoredNode]:
    """`kept` with the C++ bodies of the prototypes in it. C++ writes a default argument on the
    declaration alone (`int recognize(const string &s, bool all = true) const;` in the class, `int
    App::recognize(const string &s, bool all) const {..}` out of line), so the body reads as taking
    two arguments and `recognize(arg)` kept the declaration alone: on CLIUtils/CLI11 that call linked
    to App.hpp's declaration, and the body lost it. A body of a kept prototype's name and parameter
    count admits what the prototype admits."""
    shapes = {
        (c.node.qualified_name, _count(c.node))
        for c in kept
        if is_prototype(c.node.language, c.node.kind, c.node.text, c.node.path)
    }
    if not shapes:
        return kept
    ids = {c.node.uid for c in kept}
    bodies = [
        c
        for c in cands
        if c.node.uid not in ids
        and (c.node.qualified_name, _count(c.node)) in shapes
        and not is_prototype(c.node.language, c.node.kind, c.node.text, c.node.path)
    ]
    return kept + bodies


def _count(n: Node) -> int | None:
    """How many parameters `n` declares, None when its list cannot be read."""
    params = parameters(declared_signature(n))
    return None if params is None else len(params)


def _admits(c: StoredNode, args: int, labels: tuple[str, ...]) -> bool:
    if c.node.kind not in ROUTINE_KINDS or is_constructor(c.node.qualified_name):
        return True  # a type, or a constructor: which class `new T(..)` makes is the class's own question
    if labels and c.node.language == "swift":
        params = swift_parameters(declared_signature(c.node))
        return params is None or admits_labels(params, labels)
    if c.node.language == "ruby":
        return _admits_ruby(ruby_range(declared_signature(c.node)), args)
    got = parameter_range(declared_signature(c.node))
    if got is None:
        return True
    fewest, most = got
    return fewest <= args and (most is None or args <= most)


def _admits_ruby(got: tuple[int, int | None, bool] | None, args: int) -> bool:
    """Whether a Ruby method of `got` (ruby_range) admits a call of `args` (parsing/arguments.py:
    its keywords written count as one, the hash a method without keyword parameters is passed)."""
    if got is None:
        return True
    fewest, most, keywords = got
    return fewest <= args and (most is None or args <= most + keywords)
