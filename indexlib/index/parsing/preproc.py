"""The preprocessor: parse a C# file as a compiler sees one configuration of it, a C/C++ file
without the macros the grammar cannot read.

Owns: the blanked copy of a file in which every `#elif`/`#else` branch (the first branch instead
under `#if false`) and the directive lines themselves are spaces, newlines kept, so byte offsets and
line numbers are the original's; and the choice between the parse of the file as written and the
parse of a blanked copy (this one, or the C/C++ copy without macros that decorations.py makes).
Does not own: parsing (treesitter.py) or extraction (extract.py), which reads names and references
from the parsed bytes and takes node text from the original.

Why: the grammars accept `#if` only around whole declarations or statements. A directive inside
an expression, a base list or a parameter list, or branches that each open a brace
(`Write(a,\\n#if X\\n b)\\n#else\\n c)\\n#endif`), derail the parse: serilog's ILogger.cs became
one ERROR node, its interface lost and its members taken for functions. ctags-like tools keep the
first branch; so does this. The copy is parsed only when the file as written has syntax errors, and
kept only when it has fewer, so a file the grammar reads well is never changed. On serilog (214
.cs files) files with errors went from 19 to 1 (the one left is C# 12 collection syntax). A
definition written only in an `#else` branch is not a node then; its text stays in its container's.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable

from indexlib.engines.treesitter import Deadline, Node, Tree, captures, parse
from indexlib.index.parsing import kotlinswift
from indexlib.index.parsing.decorations import macro_copies
from indexlib.index.parsing.text import blank

# Languages `blank_inactive` knows: C# blanks all its directives (`#region`, `#pragma`, `#nullable`
# mean nothing to the syntax); C and C++ only the conditionals (`#define`, `#include` are nodes and refs).
_BLANKABLE = frozenset({"csharp", "c", "cpp"})
# Languages whose erroneous parses try the blanked copy. Not C/C++: on hiredis it cleared 8 of 18
# files with errors but dropped 60 definitions (48 `#define`s, 12 prototypes and functions, most of
# them in `#else` branches) and made include guards constants: that grammar reads `#ifdef`ed
# declarations well, and its errors come mostly from macros (`va_arg(ap, char*)`), not `#if`.
PREPROCESSED = frozenset({"csharp"})
# Languages whose files are parsed without their decoration macros (decorations.py).
DECORATED = frozenset({"c", "cpp"})

_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*([a-z]*)(.*)$")
_OPENS = frozenset({b"if", b"ifdef", b"ifndef"})
_BRANCHES = frozenset({b"elif", b"elifdef", b"elifndef", b"else"})
_FALSE = re.compile(rb"^\s*(?:0|false)\s*(?:(?://|/\*).*)?$")
# What ends a conditional's claim to be a fragment of a declaration (blank_fragments): a statement
# or a body. A comment holding one makes it no fragment either, which only errs on the safe side.
_FRAGMENT_BREAKS = re.compile(rb"[;{}]")


def blank_inactive(data: bytes, language: str) -> bytes | None:
    """`data` with the directive lines and every branch after the first blanked (the first
    branch of `#if 0` / `#if false` is the inactive one); None when nothing was blanked.

    >>> blank_inactive(b"int f(int a\\n#if X\\n, int b\\n#else\\n)\\n#endif\\n", "c")
    b'int f(int a\\n     \\n, int b\\n     \\n \\n      \\n'
    """
    if language not in _BLANKABLE or b"#" not in data:
        return None
    lines = data.split(b"\n")
    out: list[bytes] = []
    # One frame per open conditional: (its branch is kept, a later branch may be kept: `#if 0`).
    stack: list[tuple[bool, bool]] = []
    blanked = False
    continued = False  # a C directive continued by a trailing backslash
    for line in lines:
        if continued:
            continued = line.rstrip(b"\r").endswith(b"\\")
            out.append(blank(line))
            continue
        match = _DIRECTIVE.match(line)
        word = match.group(1) if match else b""
        if match and (language == "csharp" or word in _OPENS or word in _BRANCHES or word == b"endif"):
            _step(stack, word, match.group(2))
            continued = language != "csharp" and line.rstrip(b"\r").endswith(b"\\")
            out.append(blank(line))
            blanked = True
        elif all(kept for kept, _ in stack):
            out.append(line)
        else:
            out.append(blank(line))
            blanked = True
    return b"\n".join(out) if blanked else None


def blank_fragments(data: bytes) -> bytes | None:
    """`data` with the directive lines of each fragment conditional blanked, the code between them
    kept (as the compiler reads it when the condition holds); None when there is none.

    A fragment conditional has one branch (no `#elif`/`#else`), no directive inside, a condition
    that is not `#if 0`, and code without `;`, `{` or `}`: a piece of a declaration, such as
    spdlog's `#if __cplusplus >= 201703L` / `constexpr` / `#endif` before `static ... names[] = ..;`.
    The grammar reads such a directive as a statement and the rest of the declaration as an error
    that swallows the next `}`, so a namespace ran on to the end of the file and every later
    definition took its name. Blanking only these loses no definition (none fits in a fragment),
    where blanking every `#else` branch did (test_c_is_parsed_as_written).

    >>> blank_fragments(b"#if X\\nconstexpr\\n#endif\\nint n[] = {1};\\n")
    b'     \\nconstexpr\\n      \\nint n[] = {1};\\n'
    """
    if b"#" not in data:
        return None
    lines = data.split(b"\n")
    out = list(lines)
    opened: int | None = None  # the row of the innermost `#if` with nothing but code after it so far
    for row, line in enumerate(lines):
        match = _DIRECTIVE.match(line)
        if match is None:
            if opened is not None and _FRAGMENT_BREAKS.search(line):
                opened = None
            continue
        word = match.group(1)
        if word == b"endif" and opened is not None and any(x.strip() for x in lines[opened + 1 : row]):
            out[opened], out[row] = blank(lines[opened]), blank(line)
        single = (
            word in _OPENS and not _FALSE.match(match.group(2)) and not line.rstrip(b"\r").endswith(b"\\")
        )
        opened = row if single else None
    return b"\n".join(out) if out != lines else None


def blank_split(data: bytes) -> bytes | None:
    """`data` with each split C/C++ conditional read in the configuration that defines no macro: its
    directive lines and every other branch blanked; None when there is none.

    A split conditional has a branch that is no whole declaration or statement: its braces or
    parentheses do not balance, or its code ends in neither `;`, `{`, `}`, `,` nor `:`. jq's
    jv_print.c writes `#ifdef USE_DECNUM` / `if (lit) { .. } else {` / `#endif` and, later, the `}`
    in a second `#ifdef USE_DECNUM`; main.c `#ifdef WIN32` .. `int umain(..) {` / `#else` / `int
    main(..) {`; util.c `#ifdef _WIN32` / `if (localtime_s(..))` / `#else` / `if (localtime_r(..))`.
    The grammar reads both branches as one text, so a body ran on to the end of the file (each later
    function nested in `jv_dump_term`) or became an ERROR that lost the definition (`strptime`). The
    branch kept is the one a compiler reads with no macro defined (`#ifdef X` no, `#ifndef X` yes,
    `#if X && Y` no), the same for a conditional and its partner, so their braces balance again.
    Other conditionals are left as written (test_c_is_parsed_as_written).

    >>> blank_split(b"#ifdef W\\nint u() {\\n#else\\nint main() {\\n#endif\\n}\\n")
    b'        \\n         \\n     \\nint main() {\\n      \\n}\\n'
    """
    if b"#" not in data:
        return None
    lines = data.split(b"\n")
    code = _CODE_NOISE.sub(_code_noise, data).split(b"\n")
    out = list(lines)
    for branches, end in _conditionals(lines):
        if not any(_is_piece(b"\n".join(code[row] for row in own)) for _head, own in branches):
            continue
        kept = _default_branch([lines[head] for head, _own in branches])
        heads = [head for head, _own in branches] + [end]
        for index, head in enumerate(heads[:-1]):
            # A kept branch loses only its directive line; the others their code too.
            stop = head + 1 if index == kept else heads[index + 1]
            out[head:stop] = [blank(line) for line in lines[head:stop]]
        out[end] = blank(lines[end])
    return b"\n".join(out) if out != lines else None


# Comments and string and character literals, whose brackets are no code's (blank_split).
_CODE_NOISE = re.compile(rb'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.DOTALL)


def _code_noise(match: re.Match[bytes]) -> bytes:
    """A comment blanked, a literal made a `0`: a branch holding only a string piece (`"-b ..\\n"`
    in a concatenation) still ends with a value, and its brackets count for nothing."""
    text = match.group()
    return blank(text) if text.startswith(b"/") else b"0"


# The last characters a whole declaration or statement ends with (a label's or an initializer's too).
_WHOLE_ENDS = frozenset(b";{},:")


def _conditionals(lines: list[bytes]) -> list[tuple[list[tuple[int, list[int]]], int]]:
    """Every closed conditional of `lines`: its branches (the directive's row and the rows of code
    it holds itself, not a nested conditional's nor a directive's) and its `#endif` row."""
    found: list[tuple[list[tuple[int, list[int]]], int]] = []
    stack: list[list[tuple[int, list[int]]]] = []
    continued = False
    for row, line in enumerate(lines):
        if continued:
            continued = line.rstrip(b"\r").endswith(b"\\")
            continue
        match = _DIRECTIVE.match(line)
        if match is None:
            if stack:
                stack[-1][-1][1].append(row)
            continue
        continued = line.rstrip(b"\r").endswith(b"\\")
        word = match.group(1)
        if word in _OPENS:
            stack.append([(row, [])])
        elif word in _BRANCHES and stack:
            stack[-1].append((row, []))
        elif word == b"endif" and stack:
            found.append((stack.pop(), row))
    return found


def _is_piece(code: bytes) -> bool:
    """Whether a branch's code is a piece of a declaration or statement, not whole ones."""
    text = code.strip()
    if not text:
        return False
    unbalanced = text.count(b"{") != text.count(b"}") or text.count(b"(") != text.count(b")")
    return unbalanced or text[-1] not in _WHOLE_ENDS


def _default_branch(directives: list[bytes]) -> int | None:
    """The index of the branch a compiler reads when no macro is defined: the first whose
    condition holds, or whose condition is not understood; None when no branch is read."""
    for index, line in enumerate(directives):
        match = _DIRECTIVE.match(line)
        word, rest = (match.group(1), match.group(2)) if match else (b"", b"")
        holds = _holds_undefined(word, rest)
        if holds is None or holds:
            return index
    return None


MAX_CONDITION_BYTES = 500  # the longest `#if` condition evaluated; a longer one's branch is kept
# What `#if` conditions are rewritten to before they are evaluated with no macro defined:
# `defined X`, a macro call and a name are 0; C's operators are Python's.
_DEFINED = re.compile(rb"defined\s*(?:\(\s*\w+\s*\)|\w+)|\b[A-Za-z_]\w*\s*\([^()]*\)|\b[A-Za-z_]\w*\b")
_NUMBER_SUFFIX = re.compile(rb"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b")
_OPERATORS = ((b"&&", b" and "), (b"||", b" or "), (b"!=", b" <> "), (b"!", b" not "), (b"<>", b"!="))


def _holds_undefined(word: bytes, rest: bytes) -> bool | None:
    """Whether a conditional branch's directive holds when no macro is defined; None when its
    condition is not understood."""
    if word in (b"ifdef", b"elifdef"):
        return False
    if word in (b"ifndef", b"elifndef", b"else"):
        return True
    if word not in (b"if", b"elif"):
        return None
    condition = _CODE_NOISE.sub(b" ", rest)
    condition = _DEFINED.sub(b"0", _NUMBER_SUFFIX.sub(rb"\1", condition))
    for c_operator, python in _OPERATORS:
        condition = condition.replace(c_operator, python)
    if len(condition) > MAX_CONDITION_BYTES:
        return None  # a condition this long is no configuration switch worth reading
    try:
        return bool(_evaluate(ast.parse(condition.decode("ascii").strip(), mode="eval").body))
    # RecursionError: a file's `#if !!!...0` or `1 + 1 + ...` nested past Python's stack, as written
    except (SyntaxError, UnicodeDecodeError, ValueError, ArithmeticError, KeyError, RecursionError):
        return None


# The operators a rewritten `#if` condition may use (no shift nor power: a number is never made big).
_BINARY: dict[type[ast.operator], Callable[[int, int], int]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Mod: operator.mod,
    ast.Div: operator.floordiv,
    ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
}
_UNARY: dict[type[ast.unaryop], Callable[[int], int]] = {
    ast.Not: operator.not_,
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
    ast.Invert: operator.invert,
}
_COMPARE: dict[type[ast.cmpop], Callable[[int, int], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def _evaluate(node: ast.expr) -> int:
    """The value of a rewritten `#if` condition's expression; KeyError for what it may not hold."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.BoolOp):
        values = [bool(_evaluate(value)) for value in node.values]
        return int(all(values) if isinstance(node.op, ast.And) else any(values))
    if isinstance(node, ast.UnaryOp):
        return int(_UNARY[type(node.op)](_evaluate(node.operand)))
    if isinstance(node, ast.BinOp):
        return int(_BINARY[type(node.op)](_evaluate(node.left), _evaluate(node.right)))
    if isinstance(node, ast.Compare):
        left, holds = _evaluate(node.left), True
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _evaluate(right_node)
            holds, left = holds and _COMPARE[type(op)](left, right), right
        return int(holds)
    raise KeyError(type(node).__name__)


def directive_rows(text: bytes, parsed: bytes) -> frozenset[int]:
    """The 0-based rows of `text` that are preprocessor directives blanked in `parsed`, its copy."""
    return frozenset(
        row
        for row, (line, copy) in enumerate(zip(text.split(b"\n"), parsed.split(b"\n"), strict=False))
        if _DIRECTIVE.match(line) and not copy.strip()
    )


def _step(stack: list[tuple[bool, bool]], word: bytes, rest: bytes) -> None:
    """Move the conditional stack past one directive."""
    if word in _OPENS:
        dead = word == b"if" and bool(_FALSE.match(rest))
        stack.append((not dead, dead))  # `#if 0`: skip this branch, keep the next
    elif word in _BRANCHES and stack:
        _kept, later = stack[-1]
        stack[-1] = (later, False)
    elif word == b"endif" and stack:
        stack.pop()


def parse_best(data: bytes, language: str, deadline: Deadline) -> tuple[Tree, bytes]:
    """The tree to extract from and the bytes it was parsed from (`data`, or its blanked copy).

    C#: the copy without inactive branches is tried only when the file as written has a syntax
    error, and kept only when its parse is less damaged (fewer bytes under ERROR nodes, then fewer
    MISSING ones). C and C++: the copy without decoration macros (decorations.py) is parsed first
    when there is one, since the file as written often parses without an error but wrongly (`class
    FOO_API Widget {` as a function); it is kept unless it is more damaged than the file as written,
    and then the copy without only its statement macros is kept if it is the less damaged of those two."""
    if language in kotlinswift.LANGUAGES:
        view = kotlinswift.parse_view(data, language)
        if view is not None:
            return _less_damaged(parse(view, language, deadline), view, data, language, deadline)
    if language in DECORATED:
        return _without_fragments(_decorated(data, language, deadline), language, deadline)
    return _as_written(data, language, deadline)


def _decorated(data: bytes, language: str, deadline: Deadline) -> tuple[Tree, bytes]:
    """The best parse of a C/C++ file among it as written and its copies without macros."""
    copies = macro_copies(data, deadline)
    chosen = _undecorated(copies.plain, data, language, deadline) or _as_written(data, language, deadline)
    wider = copies.extended
    if wider == copies.plain:
        return chosen
    # The macros only the extended rules find (access labels, ...): their copy is kept when its
    # parse loses no class body and holds more members (what either copy is for), or as many and
    # is less damaged.
    other = _undecorated(wider, data, language, deadline) or chosen
    return other if _standing(other[0], language) > _standing(chosen[0], language) else chosen


def _without_fragments(best: tuple[Tree, bytes], language: str, deadline: Deadline) -> tuple[Tree, bytes]:
    """`best`, or when its parse has errors the parse of its bytes without the directives of
    fragment conditionals (blank_fragments), if that is the less damaged."""
    tree, parsed = best
    if not tree.root_node.has_error:
        return best
    tree, parsed = _better(tree, parsed, blank_fragments(parsed), language, deadline)
    if not tree.root_node.has_error:
        return tree, parsed
    return _better(tree, parsed, blank_split(parsed), language, deadline)


def _as_written(data: bytes, language: str, deadline: Deadline) -> tuple[Tree, bytes]:
    """The parse of `data`, or (C#) of its copy without inactive branches when that is less damaged."""
    tree = parse(data, language, deadline)
    if language not in PREPROCESSED or not tree.root_node.has_error:
        return tree, data
    return _better(tree, data, blank_inactive(data, language), language, deadline)


def _undecorated(
    copies: tuple[bytes | None, bytes | None], data: bytes, language: str, deadline: Deadline
) -> tuple[Tree, bytes] | None:
    """The parse of `copies[0]` (without every macro), of `data` as written when that is less
    damaged, and then of `copies[1]` (without only the statement macros) when that is; None when
    there is no copy."""
    undecorated, statements_only = copies
    if undecorated is None:
        return None
    tree, parsed = _less_damaged(
        parse(undecorated, language, deadline), undecorated, data, language, deadline
    )
    if parsed is not data:
        return tree, parsed
    # The copy without every macro parsed worse than the file as written (fmt's base.h: one ERROR
    # over the whole file), where a statement macro alone on its line still misleads the grammar
    # (`FMT_END_EXPORT` then `namespace detail {` read as a function `namespace`): the copy without
    # only those is kept when it parses less damaged.
    return _better(tree, data, statements_only, language, deadline)


# A class or struct body, and each member it holds.
_BODIES = (
    "[(class_specifier body: (field_declaration_list) @body) (struct_specifier body: (field_declaration_list) @body)]"
    " (field_declaration_list [(function_definition) (field_declaration) (declaration) (template_declaration)] @member)"
)


def _standing(tree: Tree, language: str) -> tuple[int, int, int, int]:
    """How good a parse is for extraction, best highest: bodies, members, then less damage."""
    errors, missing = damage(tree.root_node)
    return (*_bodies(tree, language), -errors, -missing)


def _bodies(tree: Tree, language: str) -> tuple[int, int]:
    """(class and struct bodies, members they hold) of a parse: a copy that loses a class (its
    members then read as free functions, or not at all) is worse whatever else it gains."""
    found = captures(language, _BODIES, tree.root_node)
    return len(found.get("body", [])), len(found.get("member", []))


def _less_damaged(
    tree: Tree, parsed: bytes, data: bytes, language: str, deadline: Deadline
) -> tuple[Tree, bytes]:
    """(`tree`, `parsed`), or the parse of `data` as written when `tree` is the more damaged one."""
    if not tree.root_node.has_error:
        return tree, parsed
    return _better(tree, parsed, data, language, deadline)


def _better(
    tree: Tree, parsed: bytes, other: bytes | None, language: str, deadline: Deadline
) -> tuple[Tree, bytes]:
    """(`tree`, `parsed`), or the parse of `other` (another version of the same file; None: there is
    none) when that is less damaged."""
    if other is None:
        return tree, parsed
    theirs = parse(other, language, deadline)
    if damage(theirs.root_node) < damage(tree.root_node):
        return theirs, other
    return tree, parsed


def damage(root: Node) -> tuple[int, int]:
    """(bytes under ERROR nodes, MISSING nodes) of a tree; (0, 0) for a clean parse."""
    error_bytes = missing = 0
    stack = [root] if root.has_error else []
    while stack:
        node = stack.pop()
        if node.is_error:
            error_bytes += node.end_byte - node.start_byte
        elif node.is_missing:
            missing += 1
        else:
            stack.extend(child for child in node.children if child.has_error)
    return error_bytes, missing
