"""Python calls through an import alias, by the scope the import is written in.

Owns: which name a Python call through an alias (`from .testing import FlaskClient as cls;
cls(..)`) is stored as calling: that of the caller's own import of the alias, else the one name
the file's imports give it (references.py `renamed_calls` uses it for Python).

Why: one mapping for the whole file made the last import of an alias every call's: flask's
`test_client` imports `FlaskClient as cls` and `test_cli_runner` `FlaskCliRunner as cls`, each in
its own function, and `cls(..)` in both linked, certain, to one of them.
"""

from __future__ import annotations

import msgspec

from indexlib.records import Ref, RefKind


def python_renamed(refs: list[Ref]) -> list[Ref]:
    """Python's `renamed_calls`, by the scope an import is written in: a function's own `from
    .testing import FlaskClient as cls` names what its `cls(..)` calls, though another function
    of the file imports `FlaskCliRunner as cls` (flask's `test_client` and `test_cli_runner`); an
    alias of the caller's own imports, else the one name the file's imports give it. One mapping
    for the whole file made the last import's name every call's, certain and wrong in the others."""
    own: dict[tuple[int, str], set[str]] = {}
    anywhere: dict[str, set[str]] = {}
    for r in refs:
        if r.kind == RefKind.IMPORTS and r.alias and "." in r.target.lstrip("."):
            name = r.target.rsplit(".", 1)[-1]
            own.setdefault((r.src_uid, r.alias), set()).add(name)
            anywhere.setdefault(r.alias, set()).add(name)
    if not anywhere:
        return refs
    out = []
    for r in refs:
        called = r.kind == RefKind.CALLS
        names = (own.get((r.src_uid, r.target)) or anywhere.get(r.target)) if called else None
        if names is not None and len(names) == 1 and r.target not in names:
            r = msgspec.structs.replace(r, target=next(iter(names)), alias=r.target)
        out.append(r)
    return out
