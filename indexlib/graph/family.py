"""Which code can see which: language families and how near two files are.

Owns: the language families references resolve within (a Python call never lands on a Ruby method;
Kotlin, Scala and Java share the JVM, so each calls the others' classes as its own), what a build
script or a Go test file may call (`sees`), the JVM's
package rule, and the path closeness that orders candidates (`nearest_bodies`). Used by call
resolution (resolve.py) and by the containment of members defined outside their type's file (outside.py).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexlib.graph.callarity import same_shape
from indexlib.graph.requirements import without_defaults
from indexlib.records import Node, is_actual, is_prototype

if TYPE_CHECKING:  # a pure module: the engine's record type is only named here
    from indexlib.engines.lexical import StoredNode

_FAMILY = {
    "typescript": "javascript",
    "tsx": "javascript",
    "vue": "javascript",  # a component's scripts
    "svelte": "javascript",
    "cpp": "c",
    "kotlin": "java",
    "scala": "java",
}
# A package in the JVM family is a folder chain, the same under every source set (`src/main/java/a/b/c`
# and `src/test/kotlin/a/b/c` are package a.b.c): two files share a package when their folders
# end in the same PACKAGE_DEPTH names (or are one folder).
PACKAGE_DEPTH = 3


def family_of(language: str) -> str:
    """The language family whose definitions a reference of `language` may resolve to."""
    return _FAMILY.get(language, language)


# Gradle build scripts run against Gradle's API: `configurations.create("baseline")` in moshi's
# `build.gradle.kts` is Gradle's `create`, never one of the project's twelve. They call each other and
# the build's own sources (`buildSrc/`, `build-logic/`), not the code they build.
_BUILD_SCRIPT = re.compile(r"\.gradle(?:\.kts)?$")
_BUILD_SOURCES = re.compile(r"(?:^|/)(?:buildSrc|build-logic)/")
# Go builds a `_test.go` file into its folder's tests alone: no other code calls what it defines.
# urfave/cli's `help.go` called the test type `customBoolFlag`'s `Names` and 47 more so, ambiguous.
_GO_TEST = re.compile(r"_test\.go$")

# The definitions that name a type alone in a family, never a value a call or `new` reaches: a
# TypeScript interface. honojs/hono's 62 `new Response(..)` (the runtime's class) linked to its
# client's `export interface Response extends ClientResponse<unknown> {}`.
_TYPES_ONLY = {"javascript": frozenset({"interface"})}


def names_a_value(family: str, kind: str) -> bool:
    """Whether a definition of `kind` in language `family` may be what a call (`f(..)`, `new F(..)`)
    calls: not a TypeScript interface, which exists only as a type; a class or function of the
    same name, or none indexed (the runtime's, a library's), is the one called."""
    return kind not in _TYPES_ONLY.get(family, frozenset())


def sees(caller: str, target: str) -> bool:
    """Whether code in the file `caller` may call a definition in the file `target`: always, but
    from a build script, only another or the build's sources (`_BUILD_SCRIPT`), and a Go test
    file's definitions only from its folder's test files (`_GO_TEST`)."""
    if _GO_TEST.search(target) and not (_GO_TEST.search(caller) and same_folder(caller, target)):
        return False
    if not _BUILD_SCRIPT.search(caller):
        return True
    return bool(_BUILD_SCRIPT.search(target) or _BUILD_SOURCES.search(target))


def closeness(a: str, b: str) -> int:
    """How many leading path components two files share (nearer definitions are likelier targets)."""
    n = 0
    for x, y in zip(a.split("/")[:-1], b.split("/")[:-1], strict=False):
        if x != y:
            break
        n += 1
    return n + (100 if a == b else 0)


def same_package(a: str, b: str) -> bool:
    """Whether two JVM files are in one package: one folder, or folders ending in the same
    PACKAGE_DEPTH names (the package path under two source sets or modules)."""
    da, db = a.split("/")[:-1], b.split("/")[:-1]
    if da == db:
        return True
    return min(len(da), len(db)) >= PACKAGE_DEPTH and da[-PACKAGE_DEPTH:] == db[-PACKAGE_DEPTH:]


def may_share_a_type(language: str, a: str, b: str) -> bool:
    """Whether files `a` and `b` may both hold parts of one type of `language`: a Ruby class is
    reopened anywhere and a C# partial class spans files, but a Go type lives in one package (one
    folder; build-tagged files may each define it) and a Rust type is declared once, so two of one
    name in two modules are two types."""
    if language == "go":
        return same_folder(a, b)
    if language == "rust":
        return a == b
    return True


def folder(path: str) -> str:
    """The folder of a file ('' at the root); for Go, its package."""
    return path.rsplit("/", 1)[0] if "/" in path else ""


def same_folder(a: str, b: str) -> bool:
    """Whether two files are in one folder (for Go, one package)."""
    return folder(a) == folder(b)


def nearest_bodies(n: Node, tier: list[StoredNode]) -> list[StoredNode]:
    """One tier of `n`'s call candidates, once each, nearest `n` first. A C prototype and its body
    are one function, as are an `index.d.ts` or `.pyi` declaration and its code: the call is the body's.
    A Swift protocol's requirement and its default implementation are one too: the requirement's,
    and so are a Kotlin `expect` declaration and its platforms' `actual`s: the expected one's."""
    bodies = [c for c in tier if not is_prototype(c.node.language, c.node.kind, c.node.text, c.node.path)]
    return sorted(
        {c.node.uid: c for c in without_actuals(without_defaults(bodies or tier))}.values(),
        key=lambda c: (-closeness(n.path, c.node.path), c.node.uid),
    )


def without_actuals(tier: list[StoredNode]) -> list[StoredNode]:
    """`tier` without the Kotlin `actual`s of a declaration in it: an `actual` of the qualified name
    and shape of a candidate that is not one (the `expect fun`, or the member of an `expect class`).
    okio declares `expect object SegmentPool { fun take(): Segment }` in `commonMain` and an `actual`
    in `jvmMain` and in `nonJvmMain`, and every `SegmentPool.take()` linked to all three, ambiguous."""
    expected = [
        c.node for c in tier if c.node.language == "kotlin" and not is_actual("kotlin", c.node.signature)
    ]
    if not expected:
        return tier
    return [
        c
        for c in tier
        if not is_actual(c.node.language, c.node.signature)
        or not any(e.qualified_name == c.node.qualified_name and same_shape(e, c.node) for e in expected)
    ]


def past_prototypes(tiers: list[list[StoredNode]]) -> list[list[StoredNode]]:
    """`tiers` with a tier that holds only prototypes emptied when a later tier holds a body another
    file can call. A `.c` file declares a function another file defines (hiredis's net.c writes
    `void __redisSetError(..);` for hiredis.c's): its own file's tier held the prototype alone,
    so every call there linked to it and the body lost those callers. A body `static` to its file
    is no other file's; a prototype no file gives a body stays the one answer."""
    out = list(tiers)
    for i, tier in enumerate(tiers):
        if tier and all(_declared_only(c.node) for c in tier):
            if any(
                not _declared_only(c.node) and not _file_static(c.node) for t in tiers[i + 1 :] for c in t
            ):
                out[i] = []
    return out


def _declared_only(n: Node) -> bool:
    return is_prototype(n.language, n.kind, n.text, n.path)


def _file_static(n: Node) -> bool:
    """A C or C++ function `static` to its file (`static int twice(int x) {`)."""
    return n.language in ("c", "cpp") and n.signature.lstrip().startswith("static ")
