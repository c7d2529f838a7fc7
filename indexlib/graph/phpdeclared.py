"""How PHP code says the class of a local or a property (locals.py reads these beside every other
language's declarations): `$f = new Foo(..)`, a parameter's `Foo $f`, a docblock's `@var Foo $f`, a
typed or documented property. Its `instanceof` tests are read by narrowed.py, beside TypeScript's.

Owns: those declarations' patterns. Why apart from locals.py: they are PHP's own spelling of what
every language's declarations say, and locals.py stays one module within its line bound.
"""

from __future__ import annotations

import re

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

__all__ = ["PHP_FIELDS", "PHP_GIVEN", "PHP_LOCALS"]
