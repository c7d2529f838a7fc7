"""The shape of the code, checked: who may import what, and how large a module or function may grow.

Why a test and not a review habit: each rule here once broke silently (an upward import that made a
cycle, a second importer of an engine that skipped its version pitfall, a CLI module reaching past the
public API). The rules read the source with `ast`, so a function-level (lazy) import counts as well.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Layers from the bottom up. A module may import its own layer or lower ones, never a higher one.
#: Within one layer, wings may import one another only where listed in SIBLING_ARROWS.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("indexlib.version", "indexlib.errors"),
    (
        "indexlib.workers",
        "indexlib.records",
        "indexlib.analyzer",
        "indexlib.pathglob",
        "indexlib.rootpaths",
        "indexlib.manifests",
        "indexlib.pathroles",
        "indexlib.timeparse",
        "indexlib.gramtext",
        "indexlib.declaration",
        "indexlib.keep",
    ),
    ("indexlib.embedding",),
    ("indexlib.store",),
    ("indexlib.engines",),
    ("indexlib.snapshot",),
    ("indexlib.index", "indexlib.graph"),
    ("indexlib.retrieval", "indexlib.grep"),
    ("indexlib.status", "indexlib.api", "indexlib.route"),
    ("indexlib.workspace",),
    ("indexlib.cluster",),
    ("indexlib",),
    ("cli",),
)

#: Third-party engines and the only modules (or packages) that may import them.
ENGINE_IMPORTERS: dict[str, tuple[str, ...]] = {
    "tantivy": ("indexlib.engines.lexical",),
    "usearch": ("indexlib.engines.vectors",),
    "onnxruntime": (
        "indexlib.engines.embed",
        "indexlib.engines.vectors",
    ),  # vectors: import order (test_import_order)
    "tokenizers": ("indexlib.engines.embed",),
    "pathspec": ("indexlib.index.discover.ignore",),
    "tree_sitter": ("indexlib.engines.treesitter",),
    "tree_sitter_language_pack": ("indexlib.engines.treesitter",),
    "lark": ("indexlib.graph.query.grammar",),
    "mcp": ("cli.mcp_server", "cli.mcp_wire"),
    "ray": ("indexlib.cluster.connect",),
    "typer": ("cli",),
    "rich": ("cli",),
}

MAX_MODULE_LINES = 520
MAX_FUNCTION_LINES = 80


def _modules() -> dict[str, ast.Module]:
    out: dict[str, ast.Module] = {}
    for top in ("indexlib", "cli"):
        for path in sorted((ROOT / top).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            out[name] = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return out


MODULES = _modules()


def _imports(tree: ast.Module) -> list[tuple[str, int]]:
    """(module, line) of every absolute import in `tree`; `from indexlib import X` counts as indexlib.X
    when X is a module, else as the package `indexlib` (its public API)."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                found.append((sub if sub in MODULES else node.module, node.lineno))
    return found


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _layer(module: str) -> tuple[int, str] | None:
    best: tuple[int, str] | None = None
    for level, wings in enumerate(LAYERS):
        for wing in wings:
            if _within(module, wing) and (best is None or len(wing) > len(best[1])):
                best = (level, wing)
    return best


def test_every_module_has_a_layer() -> None:
    assert [m for m in MODULES if _layer(m) is None] == []


def test_no_import_goes_up_a_layer_or_across_unrelated_wings() -> None:
    wrong = []
    for name, tree in MODULES.items():
        here = _layer(name)
        assert here is not None
        for target, line in _imports(tree):
            there = _layer(target)
            if there is None or there[1] == here[1]:
                continue
            if there[0] > here[0] or (there[0] == here[0] and there[1] != "indexlib"):
                if not (there[0] == here[0] and (here[1], there[1]) in SIBLING_ARROWS):
                    wrong.append(f"{name}:{line} imports {target} ({here[1]} -> {there[1]})")
    assert wrong == []


#: The one-way arrows allowed between wings of one layer (never both directions).
SIBLING_ARROWS: frozenset[tuple[str, str]] = frozenset(
    {
        ("indexlib.grep", "indexlib.retrieval"),  # grep filters parse as search's do
    }
)


def test_cli_uses_only_the_public_api() -> None:
    wrong = [
        f"{name}:{line} imports {target}"
        for name, tree in MODULES.items()
        if _within(name, "cli")
        for target, line in _imports(tree)
        if _within(target, "indexlib") and target != "indexlib"
    ]
    assert wrong == []


@pytest.mark.parametrize("engine", sorted(ENGINE_IMPORTERS))
def test_each_engine_has_its_one_importer(engine: str) -> None:
    allowed = ENGINE_IMPORTERS[engine]
    wrong = [
        f"{name}:{line}"
        for name, tree in MODULES.items()
        for target, line in _imports(tree)
        if _within(target, engine) and not any(_within(name, a) for a in allowed)
    ]
    assert wrong == []


def test_modules_and_functions_stay_small() -> None:
    large = []
    for name, tree in MODULES.items():
        if not _within(name, "indexlib"):
            continue
        lines = max((getattr(n, "end_lineno", 0) or 0) for n in ast.walk(tree)) if tree.body else 0
        if lines > MAX_MODULE_LINES:
            large.append(f"{name}: {lines} lines")
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    large.append(f"{name}.{node.name}: {length} lines")
    assert large == []
