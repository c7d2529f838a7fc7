"""How many arguments a call writes, and with which labels, where a language tells overloads apart by them.

Owns: the count stored with a call's reference (`Ref.args`) for Java, C#, C++, Kotlin and Swift,
whose classes declare several methods of one name (jsoup's `Element.text()` and
`Element.text(String)`, moshi's eight `Moshi.adapter`), and a Swift call's argument labels
(`Ref.labels`): Swift overloads differ by their labels more than by their count (Alamofire's
`adapt(_:for:completion:)` and `adapt(_:using:completion:)`, `validate(statusCode:)` and
`validate(contentType:)`); the resolver keeps the overloads whose parameters admit them
(graph/callarity.py). Ruby's count too: it has no overloads, but a call linked by the method's name
alone (jekyll's `k.process(options)`) need not list every `process` of the repository, `Site#process`
of no parameter among them. Elsewhere, and where the call's argument list cannot be read, -1: unknown.
"""

from __future__ import annotations

from collections.abc import Callable

from indexlib.engines.treesitter import Node
from indexlib.records import TRAILING, UNLABELED

COUNTED_LANGUAGES = frozenset({"java", "csharp", "cpp", "kotlin", "swift", "ruby"})
# What a call writes, as stored with its reference: (Ref.args, Ref.labels).
Written = tuple[int, tuple[str, ...]]
UNREAD: Written = (-1, ())  # a reference that is no call, or a call whose arguments are not read


def written(src: Callable[[Node], str], call: Node, language: str) -> Written:
    """(how many arguments, which labels) `call` writes: a Swift call's labels read once give both
    (`adapt(r, for: s) { ... }` -> 3, `("_", "for", "")`); elsewhere the count (`argument_count`)."""
    if language == "swift":
        labels = swift_labels(src, call)
        return UNREAD if labels is None else (len(labels), labels)
    return argument_count(call, language), ()


def argument_count(call: Node, language: str) -> int:
    """The arguments written in `call`'s argument list (comments aside), or -1 when unknown (a
    Swift call's count is its labels', `written`)."""
    if language not in COUNTED_LANGUAGES or language == "swift":
        return -1
    if language == "kotlin":
        return _kotlin_count(call)
    if language == "ruby":
        return _ruby_count(call)
    found = call.child_by_field_name("arguments")
    if found is None and call.type == "implicit_object_creation_expression":  # C# `new(a, b)`: no field
        found = next((c for c in call.named_children if c.type == "argument_list"), None)
    if found is None or found.type != "argument_list":
        return -1
    return sum(1 for c in found.named_children if "comment" not in c.type)


def _suffix(call: Node) -> Node | None:
    """A Swift `call_expression`'s `call_suffix` (its arguments), None for none."""
    suffix = call.named_child(call.named_child_count - 1) if call.named_child_count else None
    return (
        suffix
        if call.type == "call_expression" and suffix is not None and suffix.type == "call_suffix"
        else None
    )


def closure_only(call: Node) -> bool:
    """Whether a Swift `call_expression` is the trailing closure of the call it wraps: the grammar
    reads `let t = s.task(with: u) { .. }` (a declaration's value, not a statement) as a call of
    `s.task(with: u)` whose suffix holds only the closure. It is one call, the inner one's."""
    suffix = _suffix(call)
    callee = call.named_child(0) if call.named_child_count else None
    return (
        suffix is not None
        and callee is not None
        and callee.type == "call_expression"
        and all(part.type != "value_arguments" for part in suffix.named_children)
    )


def swift_labels(src: Callable[[Node], str], call: Node) -> tuple[str, ...] | None:
    """The labels of a Swift `call_expression`'s arguments: UNLABELED for `f(x)`, the label of
    `f(for: x)`, TRAILING for an unlabeled trailing closure and the label of a later one
    (`f(x) { a } onCancel: { b }`), also where the grammar wraps the call in another holding its
    closures (`closure_only`); None when the call has no argument suffix to read."""
    suffix = _suffix(call)
    if suffix is None:
        return None
    labels = list(_labels(src, suffix))
    outer = call.parent
    if outer is not None and closure_only(outer) and outer.named_child(0) == call:
        labels += _labels(src, outer.named_child(outer.named_child_count - 1))
    return tuple(labels)


def _labels(src: Callable[[Node], str], suffix: Node) -> list[str]:
    labels: list[str] = []
    pending = TRAILING  # the label a trailing closure after a `name:` carries
    for part in suffix.named_children:
        if part.type == "value_arguments":
            for arg in part.named_children:
                if arg.type != "value_argument":
                    continue
                label = next((c for c in arg.named_children if c.type == "value_argument_label"), None)
                labels.append(src(label).strip() if label is not None else UNLABELED)
        elif part.type == "simple_identifier":
            pending = src(part).strip()
        elif part.type == "lambda_literal":
            labels.append(pending)
            pending = TRAILING
    return labels


# Ruby arguments that are no positional value: keywords (counted as one, the hash a method without
# keyword parameters receives) and a block.
_RUBY_KEYWORDS = frozenset({"pair", "hash_splat_argument"})


def _ruby_count(call: Node) -> int:
    """A Ruby `call`'s positional arguments, plus one for any keywords written (`f(a, b: 1)` -> 2); a
    block (`&blk`, `do .. end`) is none. Unknown (-1) for a splat (`f(*xs)`), for a call Ruby writes
    as an assignment's target (`x.y = v` calls `y=` with the value), and for any other node."""
    parent = call.parent
    if call.type != "call" or (
        parent is not None
        and parent.type in ("assignment", "operator_assignment")
        and parent.child_by_field_name("left") == call
    ):
        return -1
    found = call.child_by_field_name("arguments")
    if found is None:
        return 0
    args = [c for c in found.named_children if c.type not in ("comment", "block_argument")]
    if any(c.type == "splat_argument" for c in args):
        return -1
    keywords = any(c.type in _RUBY_KEYWORDS for c in args)
    return sum(1 for c in args if c.type not in _RUBY_KEYWORDS) + keywords


def _kotlin_count(call: Node) -> int:
    """A Kotlin `call_expression`'s arguments: those in its parentheses plus a trailing lambda, which
    is the last argument written outside them (`foo(a) { b }` passes two, `xs.let { it }` one)."""
    suffix = call.named_child(call.named_child_count - 1) if call.named_child_count else None
    if call.type != "call_expression" or suffix is None or suffix.type != "call_suffix":
        return -1
    count = 0
    for part in suffix.named_children:
        if part.type == "value_arguments":
            count += sum(1 for c in part.named_children if c.type == "value_argument")
        elif part.type == "annotated_lambda":
            count += 1
    return count
