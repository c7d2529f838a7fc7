"""References as written: call targets, import bindings, base types, per grammar.

Owns: reading one call site, import statement or class header and returning what it names, in the
shared conventions (see extract.py): targets are dotted (`Foo::new` -> `Foo.new`), import aliases
are the local name bound. It does not decide which node owns a reference (extract.py does) or
what it resolves to (resolution is late, at query time).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import msgspec

from indexlib.engines.treesitter import Node
from indexlib.index.parsing import kotlinswift, rubydefs, targettyped
from indexlib.index.parsing.jsimports import js_imports
from indexlib.index.parsing.languages import DOLLAR_LANGUAGES
from indexlib.index.parsing.pyrenames import python_renamed
from indexlib.index.parsing.rustvalues import called_receiver, variant_receiver
from indexlib.index.parsing.text import (
    Source,
    absolute,
    callee_target,
    collapse,
    first_string,
    normalize_target,
    split_name,
    strip_sigils,
    with_arity,
)
from indexlib.manifests import go_package_name
from indexlib.records import WILDCARD_IMPORT, NodeKind, Ref, RefKind

# Children of a base-type list that are not base types.
_NOT_A_BASE = frozenset(
    {"comment", "access_specifier", "virtual", "type_arguments", "keyword_argument", "list_splat",
     "dictionary_splat", "argument_list"}
)  # fmt: skip
_INTERFACE_NAME = re.compile(r"I[A-Z]")


def _type_targets(src: Source, nodes: Iterable[Node], dollar: bool = False, arity: bool = False) -> list[str]:
    """The types `nodes` name; with `arity` (C#), each with its written type-argument count (with_arity)."""
    targets: list[str] = []
    for node in nodes:
        if node.type in _NOT_A_BASE:
            continue
        if node.type == "primary_constructor_base_type":
            node = node.child_by_field_name("type") or node
        target = absolute(src(node), normalize_target(src(node), dollar))
        if target:
            targets.append(with_arity(target, src(node)) if arity else target)
    return targets


def base_refs(src: Source, node: Node, kind: str, language: str) -> list[tuple[str, str]]:
    """(inherits|implements, target) for the base types a class-like definition names."""
    inherits, implements = RefKind.INHERITS.value, RefKind.IMPLEMENTS.value
    found: list[tuple[str, str]] = []
    node_type = node.type
    dollar = language in DOLLAR_LANGUAGES
    if language in kotlinswift.LANGUAGES:
        return kotlinswift.base_refs(src, node, kind, language)
    if language == "python":
        superclasses = node.child_by_field_name("superclasses")
        if superclasses is not None:
            found += [(inherits, t) for t in _type_targets(src, superclasses.named_children)]
        return found
    for child in node.named_children:
        child_type = child.type
        if child_type == "class_heritage":
            for clause in child.named_children:
                if clause.type == "extends_clause":
                    found += [(inherits, t) for t in _type_targets(src, clause.named_children, dollar)]
                elif clause.type == "implements_clause":
                    found += [(implements, t) for t in _type_targets(src, clause.named_children, dollar)]
                else:
                    found += [(inherits, t) for t in _type_targets(src, [clause], dollar)]
        elif child_type in ("extends_type_clause", "extends_interfaces", "base_class_clause"):
            found += [(inherits, t) for t in _type_targets(src, _flatten_type_list(child), dollar)]
        elif child_type == "superclass":
            found += [(inherits, t) for t in _type_targets(src, child.named_children, dollar)]
        elif child_type == "super_interfaces":
            found += [(implements, t) for t in _type_targets(src, _flatten_type_list(child), dollar)]
        elif child_type == "base_clause":  # PHP: extends
            found += [(inherits, t) for t in _type_targets(src, child.named_children, dollar)]
        elif child_type == "class_interface_clause":  # PHP: implements
            found += [(implements, t) for t in _type_targets(src, child.named_children, dollar)]
        elif child_type == "base_list":  # C#: classes and interfaces are not told apart by syntax
            # An interface extends; a struct only implements; a class implements `IName`s.
            for target in _type_targets(src, child.named_children, dollar, arity=True):
                if kind == NodeKind.INTERFACE.value:
                    found.append((inherits, target))
                elif kind == NodeKind.STRUCT.value or _INTERFACE_NAME.match(target.rsplit(".", 1)[-1]):
                    found.append((implements, target))
                else:
                    found.append((inherits, target))
        elif child_type == "extends_clause":  # Scala: `extends Base with Mixin`, mixins implemented
            written = [t for t in child.children_by_field_name("type") if t.is_named]
            targets = _type_targets(src, written, dollar)
            found += [(inherits if i == 0 else implements, t) for i, t in enumerate(targets)]
        elif child_type == "trait_bounds" and node_type == "trait_item":
            found += [(inherits, t) for t in _type_targets(src, child.named_children, dollar)]
    if language == "go" and node_type == "type_spec":
        found += _go_embedded(src, node)
    return found


def _flatten_type_list(node: Node) -> list[Node]:
    out: list[Node] = []
    for child in node.named_children:
        if child.type == "type_list":
            out.extend(child.named_children)
        else:
            out.append(child)
    return out


def _go_embedded(src: Source, node: Node) -> list[tuple[str, str]]:
    inner = node.child_by_field_name("type")
    found: list[tuple[str, str]] = []
    if inner is None:
        return found
    if inner.type == "struct_type":
        for fields in inner.named_children:
            for declaration in fields.named_children:
                if (
                    declaration.type == "field_declaration"
                    and declaration.child_by_field_name("name") is None
                ):
                    kind = declaration.child_by_field_name("type")
                    if kind is not None:
                        found.append((RefKind.INHERITS.value, normalize_target(src(kind))))
    elif inner.type == "interface_type":
        for element in inner.named_children:
            if element.type == "type_elem":
                found += [(RefKind.INHERITS.value, t) for t in _type_targets(src, element.named_children)]
    return found


# --------------------------------------------------------------------------------------------------
# Calls and imports


_REQUIRE_RUBY = frozenset({"require", "require_relative", "load"})


def call_target(src: Source, node: Node, language: str) -> tuple[str, Node | None, bool]:
    """(target, the node naming the callee, is_import) for one call-site capture."""
    kind = node.type
    dollar = language in DOLLAR_LANGUAGES
    if language in kotlinswift.LANGUAGES:
        callee = kotlinswift.callee(node)
        return (callee_target(src.code(callee)) if callee is not None else ""), callee, False
    if kind == targettyped.TARGET_TYPED_NEW:  # C# `Foo f = new(..)`: the class its target declares
        return (*targettyped.constructed(src, node), False)
    if kind in ("new_expression", "object_creation_expression", "instance_expression"):
        if kind == "instance_expression":  # Scala `new Greeter(n)`: the type comes first
            callee = node.named_child(0) if node.named_child_count else None
        elif language == "php":
            callee = next((c for c in node.named_children if c.type in ("name", "qualified_name")), None)
        else:
            callee = node.child_by_field_name("constructor") or node.child_by_field_name("type")
        target = absolute(src(callee), normalize_target(src(callee), dollar))
        return (with_arity(target, src(callee)) if language == "csharp" else target), callee, False
    if kind == "command":  # shell: `deploy "$tag"` calls deploy; `source lib.sh` imports lib.sh
        name = node.child_by_field_name("name")
        word = src(name) if name is not None else ""
        if word in _SOURCE_SHELL:
            sourced = first_string(src, node.child_by_field_name("argument")) or _shell_word(src, node)
            # A path from a variable (`"$DIR/lib.sh"`, mostly the script's own folder) or bare: from
            # the script's folder, as `./lib.sh` is.
            sourced = _SHELL_PREFIX.sub("", sourced)
            return (sourced if sourced.startswith(("/", "./", "../")) else "./" + sourced), name, True
        called = _SHELL_NAME.fullmatch(word) and word not in _SHELL_BUILTINS
        return (word if called else ""), name, False
    if kind == "function_call":  # Lua: `util.format(...)`, `self:other(x)`; `require "a.b"` imports a.b
        callee = node.child_by_field_name("name")
        target = callee_target(src(callee).replace(":", ".")) if callee is not None else ""
        if target == "require":
            return first_string(src, node.child_by_field_name("arguments")), callee, True
        return target, callee, False
    if kind == "macro_invocation":  # Rust `arg!(...)` calls `macro_rules! arg`; the standard ones none
        macro = node.child_by_field_name("macro")
        target = normalize_target(src(macro)) if macro is not None else ""
        return ("" if target in _STD_MACROS else target), macro, False
    if kind == "method_invocation":  # Java
        name = node.child_by_field_name("name")
        obj = node.child_by_field_name("object")
        text = (src.code(obj) + "." if obj is not None else "") + src(name)
        return callee_target(text), name, False
    if kind in ("member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression"):
        name = node.child_by_field_name("name")
        obj = node.child_by_field_name("object") or node.child_by_field_name("scope")
        text = (src.code(obj) + "." if obj is not None else "") + src(name)
        return absolute(text, strip_sigils(callee_target(text))), name, False
    if kind == "super":  # Ruby: the same-named method of an ancestor (rubydefs.py)
        return rubydefs.super_target(src, node), node, False
    if kind == "call" and language == "ruby":
        return _ruby_call_target(src, node)
    callee = node.child_by_field_name("function")
    if callee is None:
        return "", None, False
    if loads_module(src, node, language):
        return first_string(src, node.child_by_field_name("arguments")), callee, True
    target = callee_target(src.code(callee), dollar)
    if language == "csharp":  # `ParseArguments<Options>(..)`: a generic method of one type parameter
        target = with_arity(target, src(callee))
    if language == "php":
        target = absolute(src(callee), strip_sigils(target))
    if language == "go" and callee.type == "selector_expression":
        target = _go_literal_receiver(src, callee) or target
    if language == "rust" and callee.type == "field_expression":  # `ExitCode::GeneralError.exit()`
        target = called_receiver(src, callee, variant_receiver(src, callee, target))
    return target, callee, False


def _ruby_call_target(src: Source, node: Node) -> tuple[str, Node | None, bool]:
    """call_target for a Ruby `call`: `require 'x'` imports, `Site.new` calls the class, `route!`
    keeps its mark, an assignment's target calls the writer (`self.x = v` -> `self.x=`), a constant
    path from the top level (`::Logger.new`) keeps a leading `\\` (`\\Logger`)."""
    method = node.child_by_field_name("method")
    receiver = node.child_by_field_name("receiver")
    if method is None:
        return "", None, False
    if method.type == "super":  # `super(x)`
        return rubydefs.super_target(src, node), method, False
    method_name = src(method)
    if receiver is None and method_name in _REQUIRE_RUBY:
        return first_string(src, node.child_by_field_name("arguments")), method, True
    text = (src.code(receiver) + "." if receiver is not None else "") + method_name
    target = strip_sigils(callee_target(rubydefs.constructed(src, receiver, method_name) or text))
    if text.startswith("::") and target:  # `::Logger.new`: the top level's, marked as PHP's `\Foo`
        target = "\\" + target
    if method_name[-1:] in ("?", "!") and target.endswith(method_name[:-1]):
        target += method_name[-1]  # `route!` and `route` are two methods, as `empty?` is not `empty`
    elif receiver is not None and rubydefs.assigned(node):
        target += "="  # `self.url_prefix = url` calls `url_prefix=`, not the reader `url_prefix`
    return target, method, False


def _go_literal_receiver(src: Source, callee: Node) -> str:
    """`(JSON{data}).Render` and `(&Server{}).Serve` call a method of the literal's type:
    `JSON.Render` (written as is, the literal's braces would leave a bare `Render`, a type's name)."""
    operand = callee.child_by_field_name("operand")
    while operand is not None and operand.type in ("parenthesized_expression", "unary_expression"):
        operand = operand.named_child(0) if operand.named_child_count else None
    field = callee.child_by_field_name("field")
    if operand is None or field is None or operand.type != "composite_literal":
        return ""
    kind = operand.child_by_field_name("type")
    name = normalize_target(src(kind)) if kind is not None else ""
    return f"{name}.{src(field)}" if name else ""


# Macros of Rust's standard library: a call of one can only ever resolve to nothing.
_STD_MACROS = frozenset(
    {"println", "print", "eprintln", "eprint", "format", "format_args", "vec", "write", "writeln",
     "assert", "assert_eq", "assert_ne", "debug_assert", "debug_assert_eq", "debug_assert_ne",
     "panic", "unreachable", "todo", "unimplemented", "matches", "concat", "stringify", "include",
     "include_str", "include_bytes", "env", "option_env", "cfg", "dbg", "thread_local", "line",
     "file", "column", "module_path", "compile_error"}
)  # fmt: skip
_SOURCE_SHELL = frozenset({"source", ".", "\\."})  # `\\.` is `.`, escaped past an alias
_SHELL_NAME = re.compile(r"[A-Za-z_][\w:.-]*")  # a command named as written, not `$cmd` or `"$@"`
# Where a sourced path starts from a variable (`"$DIR/env.sh"`, `${ROOT}/lib/x.sh`): the rest.
_SHELL_PREFIX = re.compile(r"^.*\$(?:\{[^}]*\}|\([^)]*\)|\w+)/")
# Builtins a script runs on nearly every line: calls that can only ever resolve to nothing.
_SHELL_BUILTINS = frozenset(
    {"set", "echo", "printf", "cd", "exit", "return", "export", "local", "read", "test", "true",
     "false", "shift", "eval", "exec", "trap", "unset", "declare", "readonly", "[", "[["}
)  # fmt: skip


def _shell_word(src: Source, command: Node) -> str:
    """The first argument of a shell command when it is a plain word (`source ./lib/common.sh`)."""
    argument = command.child_by_field_name("argument")
    return src(argument) if argument is not None and argument.type == "word" else ""


def renamed_calls(refs: list[Ref], language: str, renames: dict[str, str] | None = None) -> list[Ref]:
    """Calls through an import alias (Python's `from pkg import option as opt; opt()`, JavaScript's
    `import { option as opt }`: `renames`, jsimports.js_renames) target the name defined (`option`),
    with the alias the file calls it by: callers are found by the called name, and the resolver
    finds the import by the alias."""
    if language == "python":
        return python_renamed(refs)
    if not renames:
        return refs
    renames = {alias: name for alias, name in renames.items() if alias != name}
    if not renames:
        return refs
    return [
        msgspec.structs.replace(r, target=renames[r.target], alias=r.target)
        if r.kind == RefKind.CALLS and r.target in renames
        else r
        for r in refs
    ]


def loads_module(src: Source, call: Node, language: str) -> bool:
    """Whether a call expression is an import: `require("x")` (JavaScript, TypeScript) or a dynamic
    `import("x")`. Its target is an `imports` edge, and a binding of its value is no definition."""
    callee = call.child_by_field_name("function")
    if callee is None:
        return False
    if callee.type == "import":
        return True
    return (
        language in ("javascript", "typescript", "tsx")
        and callee.type == "identifier"
        and src(callee) == "require"
    )


def require_alias(src: Source, node: Node) -> str:
    """`const fs = require("fs")` binds `fs`; Lua `local json = require("cjson")` binds `json`."""
    parent = node.parent
    if parent is not None and parent.type == "expression_list":  # Lua
        statement = parent.parent
        names = statement.named_child(0) if statement is not None and statement.named_child_count else None
        first = names.named_child(0) if names is not None and names.type == "variable_list" else None
        return src(first) if first is not None and first.type == "identifier" else ""
    while parent is not None and parent.type in ("await_expression", "parenthesized_expression"):
        parent = parent.parent
    if parent is not None and parent.type == "variable_declarator":
        name = parent.child_by_field_name("name")
        if name is not None and name.type == "identifier":
            return src(name)
    return ""


def import_pairs(src: Source, node: Node, language: str) -> list[tuple[str, str]]:
    """(target, alias) pairs of one import statement."""
    kind = node.type
    if language == "python":
        return _python_imports(src, node)
    if language in kotlinswift.LANGUAGES:
        return kotlinswift.import_pairs(src, node, language)
    if kind in ("import_statement", "export_statement"):
        return js_imports(src, node)
    if kind == "import_declaration" and language == "scala":
        return _scala_imports(src, node)
    if kind == "import_declaration":
        return _go_imports(src, node) if language == "go" else _java_import(src, node)
    if kind == "using_directive":
        return _csharp_using(src, node)
    if kind == "use_declaration":  # Rust
        argument = node.child_by_field_name("argument")
        return _rust_use(src, argument, []) if argument is not None else []
    if kind in ("mod_item", "extern_crate_declaration"):  # Rust `mod retry;`, `extern crate foo as bar;`
        crate = src(node.child_by_field_name("name"))
        bound = node.child_by_field_name("alias")
        return [(crate, src(bound) if bound is not None else crate)]
    if kind == "preproc_include":
        return [(first_string(src, node.child_by_field_name("path")), "")]
    if kind == "namespace_use_declaration":  # PHP
        return _php_uses(src, node)
    if kind.startswith(("require", "include")):  # PHP require/include(_once)
        target = first_string(src, node)
        return [(target, "")] if target else []
    return []


def _go_imports(src: Source, node: Node) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for specifier in _descendants(node, "import_spec"):
        package = first_string(src, specifier.child_by_field_name("path"))
        bound = specifier.child_by_field_name("name")
        pairs.append((package, src(bound) if bound is not None else go_package_name(package)))
    return pairs


def _java_import(src: Source, node: Node) -> list[tuple[str, str]]:
    text = collapse(src(node)).removeprefix("import").strip().rstrip(";").strip()
    text = text.removeprefix("static ").strip().replace(" ", "")
    if text.endswith(".*"):
        return [(text[:-2], WILDCARD_IMPORT)]
    return [(text, text.rsplit(".", 1)[-1])]


def _scala_imports(src: Source, node: Node) -> list[tuple[str, str]]:
    """`import a.b.C`, `import a.b._` (or `*`), `import a.b.{C, D => E}`: (target, bound name) each."""
    path = ".".join(src(p) for p in node.children_by_field_name("path") if p.type == "identifier")
    pairs: list[tuple[str, str]] = []
    for child in node.named_children:
        if child.type == "namespace_wildcard":
            return [(path, WILDCARD_IMPORT)]
        if child.type == "namespace_selectors":
            for selector in child.named_children:
                if selector.type == "identifier":
                    pairs.append((f"{path}.{src(selector)}", src(selector)))
                elif selector.type == "arrow_renamed_identifier":
                    name, alias = selector.child_by_field_name("name"), selector.child_by_field_name("alias")
                    if name is not None and alias is not None and src(alias) != "_":
                        pairs.append((f"{path}.{src(name)}", src(alias)))
                elif selector.type == "namespace_wildcard":
                    pairs.append((path, WILDCARD_IMPORT))
    if pairs or not path:
        return pairs
    return [(path, path.rsplit(".", 1)[-1])]


def _csharp_using(src: Source, node: Node) -> list[tuple[str, str]]:
    text = collapse(src(node)).removeprefix("global ").removeprefix("using").strip().rstrip(";").strip()
    text = text.removeprefix("static ").strip()
    if "=" in text:
        bound, _, target = text.partition("=")
        return [(normalize_target(target), bound.strip())]
    return [(normalize_target(text), "")]


def _descendants(node: Node, node_type: str) -> list[Node]:
    found: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == node_type:
            found.append(current)
            continue
        stack.extend(reversed(current.named_children))
    return found


def _python_imports(src: Source, node: Node) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    if node.type == "import_statement":
        for child in node.children_by_field_name("name"):
            if child.type == "aliased_import":
                pairs.append(
                    (src(child.child_by_field_name("name")), src(child.child_by_field_name("alias")))
                )
            else:
                name = src(child)
                pairs.append((name, "" if "." in name else name))
        return pairs
    if node.type == "future_import_statement":
        module = "__future__"
    else:
        module = collapse(src(node.child_by_field_name("module_name"))).replace(" ", "")
    names = node.children_by_field_name("name")
    if not names:
        if any(child.type == "wildcard_import" for child in node.named_children):
            return [(module, WILDCARD_IMPORT)]
        return [(module, "")]
    for child in names:
        if child.type == "aliased_import":
            name = src(child.child_by_field_name("name"))
            alias = src(child.child_by_field_name("alias"))
        else:
            name = src(child)
            alias = name.rsplit(".", 1)[-1]
        target = module + name if module.endswith(".") else f"{module}.{name}"
        pairs.append((target, alias))
    return pairs


def _rust_use(src: Source, node: Node, prefix: list[str]) -> list[tuple[str, str]]:
    kind = node.type
    if kind == "use_as_clause":
        path = prefix + split_name(src(node.child_by_field_name("path")))
        return [(".".join(path), src(node.child_by_field_name("alias")))]
    if kind == "use_wildcard":
        inner = [c for c in node.named_children]
        path = prefix + (split_name(src(inner[0])) if inner else [])
        return [(".".join(path), WILDCARD_IMPORT)]
    if kind == "scoped_use_list":
        path_node = node.child_by_field_name("path")
        path = prefix + (split_name(src(path_node)) if path_node is not None else [])
        list_node = node.child_by_field_name("list")
        return _rust_use(src, list_node, path) if list_node is not None else []
    if kind == "use_list":
        pairs: list[tuple[str, str]] = []
        for child in node.named_children:
            if child.type == "self":
                if prefix:
                    pairs.append((".".join(prefix), prefix[-1]))
            elif child.type not in ("line_comment", "block_comment"):
                pairs.extend(_rust_use(src, child, prefix))
        return pairs
    path = prefix + split_name(src(node))
    if not path:
        return []
    return [(".".join(path), path[-1])]


def _php_uses(src: Source, node: Node) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    prefix: list[str] = []
    for child in node.named_children:
        if child.type in ("namespace_name", "qualified_name", "name") and not pairs:
            prefix = split_name(src(child))
        elif child.type == "namespace_use_group":
            for clause in child.named_children:
                pairs.extend(_php_clause(src, clause, prefix))
        elif child.type == "namespace_use_clause":
            pairs.extend(_php_clause(src, child, []))
    return pairs


def _php_clause(src: Source, clause: Node, prefix: list[str]) -> list[tuple[str, str]]:
    if clause.type != "namespace_use_clause":
        return []
    alias_node = clause.child_by_field_name("alias")
    names = [c for c in clause.named_children if c is not alias_node and c.type in ("name", "qualified_name")]
    if not names:
        return []
    path = prefix + split_name(src(names[0]))
    if not path:
        return []
    alias = src(alias_node) if alias_node is not None else path[-1]
    return [(".".join(path), alias)]
