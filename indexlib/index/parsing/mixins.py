"""Bases a type's body names: PHP trait uses and Ruby mixins.

Owns: reading the statements of a class, trait, enum or module body that give the type another
type's methods, and returning the names they write, with the line of the statement:
- PHP `use A, \\B\\C;` and `use A { a as b; }` in a class, trait or enum body (not the file-level
  `use A\\B;`, an import, which is another node type);
- Ruby `include A, B`, `extend A::B`, `prepend A` (or `include(A)`) written directly in a class or
  module body, with a constant or a constant path as argument (`extend self` names no module).
Does not own: the header's bases (`extends`, `< Base`: references.py), nor what a name resolves to
(graph/phpnames.py, graph/rubyconst.py: the resolver reads these refs as `inherits` marked MIXIN).

Why: PHP copies a trait's methods into the class and Ruby puts a mixed-in module among the
class's ancestors, so `$this->getFormatter()` in monolog's AbstractProcessingHandler is the
`getFormatter` of the FormattableHandlerTrait it uses, as an inherited method would be. Without
these refs the resolver's base-class walk never saw the trait or module, and the call was linked
by name alone to every `getFormatter` in the repository, ambiguously.
"""

from __future__ import annotations

from indexlib.engines.treesitter import Node
from indexlib.index.parsing.text import Source, absolute, normalize_target

_PHP_BODIES = frozenset({"declaration_list", "enum_declaration_list"})
_PHP_NAMES = frozenset({"name", "qualified_name"})
_RUBY_MIXIN_CALLS = frozenset({"include", "extend", "prepend"})
_RUBY_CONSTANTS = frozenset({"constant", "scope_resolution"})


def mixin_refs(src: Source, node: Node, language: str) -> list[tuple[str, int]]:
    """(target, line) for each trait or module the body of the type `node` mixes in, targets
    written as references.py writes base types (`\\B.C` for PHP's fully qualified `\\B\\C`,
    `A.B` for Ruby's `A::B`); [] for other languages."""
    if language == "php":
        return _php_uses(src, node)
    if language == "ruby":
        return _ruby_mixins(src, node)
    return []


def _php_uses(src: Source, node: Node) -> list[tuple[str, int]]:
    """The traits of the `use` statements of a PHP class, trait or enum body."""
    found: list[tuple[str, int]] = []
    for body in node.named_children:
        if body.type not in _PHP_BODIES:
            continue
        for statement in body.named_children:
            if statement.type != "use_declaration":
                continue
            line = statement.start_point.row + 1
            for name in statement.named_children:  # the `{ a as b; }` block is a `use_list`
                if name.type in _PHP_NAMES:
                    written = src(name)
                    found.append((absolute(written, normalize_target(written)), line))
    return [(target, line) for target, line in found if target]


def _ruby_mixins(src: Source, node: Node) -> list[tuple[str, int]]:
    """The constants an `include`, `extend` or `prepend` statement of a Ruby class or module body
    names: only a statement of the body itself, not one inside a method or a block."""
    body = node.child_by_field_name("body")
    found: list[tuple[str, int]] = []
    if body is None:
        return found
    for statement in body.named_children:
        if statement.type != "call" or statement.child_by_field_name("receiver") is not None:
            continue
        if src(statement.child_by_field_name("method")) not in _RUBY_MIXIN_CALLS:
            continue
        arguments = statement.child_by_field_name("arguments")
        line = statement.start_point.row + 1
        for argument in arguments.named_children if arguments is not None else ():
            if argument.type in _RUBY_CONSTANTS:
                target = normalize_target(src(argument))
                if target:
                    found.append((target, line))
    return found
