"""How PHP code says the class of a local or a property (locals.py reads these beside every other
language's declarations): `$f = new Foo(..)`, a parameter's `Foo $f`, a docblock's `@var Foo $f`, a
typed or documented property; and the classes a function tests a variable or an own property against
with `instanceof`: `if ($output instanceof ConsoleOutputInterface) { $output->getErrorOutput(); }`,
`$this->output instanceof ConsoleOutputInterface ? $this->output->section() : ..`, `if (!$e
instanceof Foo) { return; }`.

Owns: those declarations' patterns, and reading a function's tests of one subject, as locals.py's
qualifier writes it (`output`, `this.output`).

Why: a PHP parameter is typed by its interface (`OutputInterface $output`) and narrowed by a test
before a call the interface does not declare; the declared class answered nothing, so the call was
linked by its name alone. On symfony/console 10 such `$output->getErrorOutput()` calls linked,
ambiguous, to `ConsoleOutput::getErrorOutput`, and `ConsoleOutputInterface::getErrorOutput`, the
method they name, had no caller. locals.py asks for these classes only when the declared one (or
none) answers nothing, so a test narrows and never overrides a declaration.
"""

from __future__ import annotations

import re

from indexlib.graph.codelines import code_only

# PHP writes a class through its namespace (`new Handler\\CurlFactory(3)`, `\\Foo\\Bar $x`): the class
# is the last name, as locals.py's `_container` reads a member's class.
_PHP_CLASS = r"\\?(?:\w+\\)*(?P<cls>[A-Z]\w*)"
# `$f = new Foo(..)`; a parameter or caught exception `Foo $f` (`?Foo $f`, `Foo ...$fs`); a
# docblock's `@var Foo $f` or `@param Foo $f`.
PHP_LOCALS = (
    re.compile(rf"\$(?P<var>\w+)\s*=\s*new\s+{_PHP_CLASS}"),
    re.compile(rf"(?<![\w\\$]){_PHP_CLASS}\s+&?(?:\.\.\.)?\$(?P<var>\w+)"),
    re.compile(rf"@(?:var|param)\s+\??{_PHP_CLASS}\s+\$(?P<var>\w+)"),
)
_PHP_MODIFIERS = r"(?:(?:public|protected|private|static|readonly|var)\s+)+"
# A property: typed (`private ?Foo $f;`, a promoted constructor parameter), documented (`/** @var
# Foo */ private $f;`), or given `new Foo(..)` in a method (`$this->f = new Foo(..)`).
PHP_FIELDS = (
    re.compile(rf"{_PHP_MODIFIERS}\??{_PHP_CLASS}\s+\$(?P<var>\w+)"),
    re.compile(rf"@var\s+\??{_PHP_CLASS}\s*\*/\s*{_PHP_MODIFIERS}\$(?P<var>\w+)"),
    re.compile(rf"\$this->(?P<var>\w+)\s*=\s*new\s+{_PHP_CLASS}"),
)
PHP_GIVEN = re.compile(r"\$this->(\w+)\s*=\s*\$(\w+)\s*;")  # `$this->factory = $factory;`
# The class after `instanceof`, written through its namespace (`\Foo\Bar`) or not: its last name.
_TESTED = r"\s+instanceof\s+\\?(?:\w+\\)*([A-Za-z_]\w*)\b"


def tested_classes(text: str, subject: list[str]) -> list[str]:
    """The classes, once each in order, that PHP code `text` tests `subject` against (`["output"]`
    for `$output`, `["this", "output"]` for `$this->output`); none for a subject that is no
    variable or property chain (an element, a call's result)."""
    if not subject or not all(p.isidentifier() for p in subject):
        return []
    found = re.finditer(re.escape("$" + "->".join(subject)) + _TESTED, code_only(text, "php"))
    return list(dict.fromkeys(m.group(1) for m in found if m.group(1).lower() not in ("self", "static")))


__all__ = ["PHP_FIELDS", "PHP_GIVEN", "PHP_LOCALS", "tested_classes"]
