"""Where a class's members and fields are written: whether a member is declared in a class named so,
whether a container is a class of a name, and the texts of a class and its same-named parts.

Owns: those three readings, shared by graph/locals.py (a local's or field's class narrowing a call)
and graph/declared.py (a written type's members).

Why here: they read the index's names and texts, not a function's declarations; apart from
locals.py, which stays within its size.
"""

from __future__ import annotations

from indexlib.engines.lexical import StoredNode
from indexlib.records import CONTAINER_KINDS
from indexlib.snapshot import Snapshot

CLASS_PARTS = 50  # same-named containers read for one class's fields


def declared_in(c: StoredNode, cls: str) -> bool:
    """Whether member `c` is declared in class `cls`, by the qualifiers of its name (`TestEnv` of
    `TestEnv.assert_output`, `tests.TestEnv.assert_output`); a nested class by its outer ones too
    (`Retrofit.Builder` holds `Retrofit.Builder.build`, not `Phone.Builder.build`)."""
    qualified = c.node.qualified_name.replace("::", ".")
    owner = qualified.rsplit(".", 1)[0] if "." in qualified else ""
    return owner == cls or owner.endswith("." + cls)


def is_class(s: StoredNode, cls: str) -> bool:
    """Whether `s` is a class named `cls`, which may be written through its outer classes."""
    q = s.node.qualified_name.replace("::", ".")
    last = cls.rsplit(".", 1)[-1]
    return s.node.name == last and s.node.kind in CONTAINER_KINDS and (q == cls or q.endswith("." + cls))


def class_texts(snap: Snapshot, container: int) -> list[str]:
    """The texts of a class and of the same-named containers of its language (a Rust struct beside
    the `impl` block its methods are in, a class reopened in another file), and of what they nest:
    where its fields are declared."""
    stored = snap.node(container)
    if stored is None:
        return []
    c = stored.node
    same = [s.node for s in snap.lookup("name_exact", c.name.lower(), limit=CLASS_PARTS)]
    kin = [s for s in same if s.qualified_name == c.qualified_name and s.language == c.language]
    parts = [c, *(s for s in kin if s.kind in CONTAINER_KINDS and s.uid != c.uid)]
    # A class's text elides its methods' bodies, where `self.x = Foo()` is written (`__init__`).
    return [t.text for part in parts for t in (part, *snap.nested(part))]
