"""Single-file components (Vue `.vue`, Svelte `.svelte`): their `<script>` blocks are code.

Owns: the copy of a component in which everything outside its `<script>` blocks (the template, the
styles, the tags themselves) is spaces, newlines kept, so byte offsets and line numbers are the
file's; and which grammar reads the scripts (`lang="ts"` is TypeScript, else JavaScript). Does not
own: parsing or extraction, which read names and references from the copy and take node text from
the file as written, so the module node of a component holds its template and styles as text;
and the components and event handlers its template uses (`<VPSidebarItem />`, `@click="reset"`),
calls of the module node.

Why: in a Vue or Svelte application the components are most of the code; as line windows of text
their functions, props and imports were neither definitions nor edges, and an `import Foo from
'./Foo.vue'` resolved to nothing.
"""

from __future__ import annotations

import re

from indexlib.index.parsing.text import blank
from indexlib.records import COMPONENT_LANGUAGES, Node, Ref, RefKind

__all__ = ["COMPONENT_LANGUAGES", "script_view", "template_components", "template_refs"]

_SCRIPT = re.compile(rb"<script\b([^>]*)>(.*?)</script\s*>", re.DOTALL | re.IGNORECASE)
_TYPESCRIPT = re.compile(rb"""\blang\s*=\s*["']?(?:ts|typescript)\b""", re.IGNORECASE)
_TSX = re.compile(rb"""\blang\s*=\s*["']?tsx\b""", re.IGNORECASE)


def script_view(data: bytes) -> tuple[str, bytes]:
    """(grammar, `data` with every byte outside its `<script>` blocks' contents blanked).

    >>> script_view(b'<template>\\n  <p/>\\n</template>\\n<script setup lang="ts">\\nconst a = 1\\n</script>\\n')
    ('typescript', b'          \\n      \\n           \\n                        \\nconst a = 1\\n         \\n')
    """
    grammar = "javascript"
    out = bytearray(blank(data))
    for match in _SCRIPT.finditer(data):
        attributes = match.group(1)
        if _TSX.search(attributes):
            grammar = "tsx"
        elif _TYPESCRIPT.search(attributes) and grammar == "javascript":
            grammar = "typescript"
        start, end = match.span(2)
        out[start:end] = data[start:end]
    return grammar, bytes(out)


# What a template calls: a component, as a tag in PascalCase (`<VPSidebarItem`, not an HTML
# element), and a handler its events name (Vue `@click="reset"`, `v-on:input="update($event)"`,
# Svelte `on:click={increment}`).
_TEMPLATE_CALL = re.compile(
    rb"<([A-Z][A-Za-z0-9]*)\b"
    rb"|(?:\s@|\sv-on:|\son:)[\w.:-]+\s*=\s*[\"'{]\s*([A-Za-z_$][\w$]*)\s*(?=[(\"'}])"
)


def template_components(data: bytes) -> list[tuple[str, int]]:
    """(name, 1-based line) of each component and event handler a template uses outside the
    `<script>` blocks, first use of each name per line.

    >>> template_components(b'<template>\\n  <VPLink @click="open(1)"><Badge/></VPLink>\\n</template>\\n')
    [('VPLink', 2), ('open', 2), ('Badge', 2)]
    """
    scripts = [m.span() for m in _SCRIPT.finditer(data)]
    seen: set[tuple[str, int]] = set()
    out: list[tuple[str, int]] = []
    for match in _TEMPLATE_CALL.finditer(data):
        if any(start <= match.start() < end for start, end in scripts):
            continue
        name = (match.group(1) or match.group(2)).decode("ascii")
        used = (name, data.count(b"\n", 0, match.start()) + 1)
        if used not in seen:
            seen.add(used)
            out.append(used)
    return out


def template_refs(nodes: list[Node], data: bytes) -> list[Ref]:
    """What a component's template calls (`template_components`), as calls of its module node
    (none when the component has no module node)."""
    module = next((n for n in nodes if n.kind == "module" and n.part == 0), None)
    if module is None:
        return []
    return [
        Ref(src_uid=module.uid, kind=RefKind.CALLS.value, target=name, line=line)
        for name, line in template_components(data)
    ]
