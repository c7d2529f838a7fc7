"""The class of a Ruby object made by `Const.new(..)`, for graph/locals.py: a local `req =
Rack::MockRequest.new(app)`, and the receiver of a call on a new object
(`Rack::MockRequest.new(app).get`).

Why: Ruby had no class for any local, so a call through one was linked by the method's name alone.
On rack the hundreds of `Rack::MockRequest.new(app).get('/')` in its specs made no edge (`get` on a
value of unknown class is taken for a library collection's), and `req.options('/x')` after `req =
Rack::MockRequest.new(..)` linked to `Rack::Builder#options`, a guess.

What is read is the declaration's shape: `.new` with its arguments ends the value (`res =
Foo.new(app).get('/')` is what `get` returns, no Foo); a name given two classes is left alone
(locals.py). A call on a constant itself (`Base.call`) stays rubyconst.py's lexical lookup; only a
path followed by `.new` names an instance's class here, found by its written path, as locals.py
finds other languages' classes (`Base` may be any class of that name).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import takewhile

# `.new`'s arguments, nested up to two levels (`Foo.new(files(root(x)))`), or none (`Foo.new do`).
_ARGS = r"(?:\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\))?"
_NEW = r"\s*=\s*(?P<cls>(?:::)?[A-Z]\w*(?:::[A-Z]\w*)*)\.new" + _ARGS + r"[ \t]*(?=$|;|#|do\b|\{)"
RUBY_LOCAL = re.compile(rf"(?m)^[ \t]*(?P<var>[a-z_]\w*){_NEW}")  # `req = Rack::MockRequest.new(app)`


def constructed(parts: list[str], holds: Callable[[str], bool]) -> tuple[str | None, list[str]]:
    """The longest constant path opening `parts` that `holds` says names a class, when `new` follows
    it (`Rack.MockRequest` of `Rack.MockRequest.new`, through a module `Rack` no class is), and
    the steps from `new` on; (None, parts) for any other."""
    consts = len(list(takewhile(lambda p: p[:1].isupper(), parts)))
    for end in range(consts, 0, -1):
        if parts[end : end + 1] == ["new"] and holds(".".join(parts[:end])):
            return ".".join(parts[:end]), parts[end:]
    return None, parts


__all__ = ["RUBY_LOCAL", "constructed"]
