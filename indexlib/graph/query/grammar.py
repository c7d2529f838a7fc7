"""The grammar of the bounded openCypher profile, and the only importer of lark.

Owns: the LALR grammar text, the parser built from it (lazily), turning lark's parse errors into the
profile's (`syntax`, `read_only` naming the write clause, `unsupported`), running a transformer over a
parse tree with lark's wrapping of its errors removed, and the lark names the transformer needs
(`Transformer`, `Token`, `Meta`, `v_args`, `Tree`), re-exported so no other module imports lark.

Does not own: what a parse tree means (transform.py builds the AST from it) or any rule that is not
syntax (validate.py).
"""

from __future__ import annotations

import functools
from typing import NoReturn, TypeVar

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken, v_args
from lark.exceptions import VisitError
from lark.tree import Meta, Tree

from indexlib.errors import GraphQueryError
from indexlib.graph.query.profile import EXAMPLE, SHAPE, fail, too_deep

_T = TypeVar("_T")

_READ_ONLY_WORDS = {
    "create": "CREATE writes to the graph",
    "merge": "MERGE writes to the graph",
    "set": "SET writes properties",
    "delete": "DELETE removes nodes or relationships",
    "detach": "DETACH DELETE removes nodes",
    "remove": "REMOVE deletes properties or labels",
    "insert": "INSERT writes to the graph",
    "foreach": "FOREACH runs write clauses",
    "drop": "DROP is a schema operation",
    "call": "CALL runs a procedure",
    "load": "LOAD CSV reads external files",
}
_UNSUPPORTED_WORDS = frozenset(
    {"unwind", "with", "union", "xor", "case", "exists", "shortestpath", "allshortestpaths", "use", "yield"}
)


KEYWORDS = [
    "match",
    "optional",
    "where",
    "return",
    "distinct",
    "as",
    "order",
    "by",
    "skip",
    "limit",
    "asc",
    "desc",
    "ascending",
    "descending",
    "and",
    "or",
    "not",
    "starts",
    "ends",
    "with",
    "contains",
    "in",
    "is",
    "null",
    "true",
    "false",
]

_GRAMMAR = (
    r"""
start: reading+ return_clause order_clause? skip_clause? limit_clause?

reading: MATCH pattern [where_clause]             -> match_clause
       | OPTIONAL MATCH pattern [where_clause]    -> optional_match_clause
where_clause: WHERE expr

pattern: path ("," path)*
path: node_pattern (rel_pattern node_pattern)*

node_pattern: "(" [NAME] [label] [prop_map] ")"
label: ":" NAME
prop_map: "{" [prop_entry ("," prop_entry)*] "}"
prop_entry: NAME ":" value
?value: literal | param | list_value
list_value: "[" [value ("," value)*] "]"

rel_pattern: "<" "-" [rel_detail] "-"        -> rel_in
           | "-" [rel_detail] "-" ">"        -> rel_out
           | "-" [rel_detail] "-"            -> rel_any
rel_detail: "[" [NAME] [rel_types] [range] [prop_map] "]"
rel_types: ":" NAME ("|" ":"? NAME)*
range: "*" [range_bounds]
range_bounds: INT                  -> range_exact
            | [INT] ".." [INT]     -> range_between

?expr: or_expr
?or_expr: and_expr | or_expr OR and_expr              -> or_op
?and_expr: not_expr | and_expr AND not_expr           -> and_op
?not_expr: comparison | NOT not_expr                  -> not_op
?comparison: operand
    | operand "=" operand                 -> eq
    | operand "<>" operand                -> ne
    | operand "<" operand                 -> lt
    | operand "<=" operand                -> le
    | operand ">" operand                 -> gt
    | operand ">=" operand                -> ge
    | operand STARTS WITH operand         -> starts_with
    | operand ENDS WITH operand           -> ends_with
    | operand CONTAINS operand            -> contains
    | operand IN operand                  -> in_op
    | operand IS NULL                     -> is_null
    | operand IS NOT NULL                 -> is_not_null
?operand: literal | param | list_expr | prop | var | call | "(" expr ")"
prop: NAME "." NAME
var: NAME
call: NAME "(" "*" ")"                         -> call_star
    | NAME "(" [DISTINCT] [expr ("," expr)*] ")" -> call_args
list_expr: "[" [expr ("," expr)*] "]"
param: PARAM
literal: STRING           -> string
       | number
       | "-" number       -> negative
       | TRUE             -> true
       | FALSE            -> false
       | NULL             -> null
number: INT | FLOAT

return_clause: RETURN [DISTINCT] return_item ("," return_item)*
return_item: expr [AS NAME]
order_clause: ORDER BY sort_item ("," sort_item)*
sort_item: expr [sort_dir]
sort_dir: ASC | DESC | ASCENDING | DESCENDING
skip_clause: SKIP count_value
limit_clause: LIMIT count_value
count_value: INT | PARAM

PARAM: /\$[A-Za-z_][A-Za-z0-9_]*/
NAME: /[A-Za-z_][A-Za-z0-9_]*/
INT: /[0-9]+/
FLOAT: /[0-9]+\.[0-9]+([eE][-+]?[0-9]+)?/
STRING: /'(?:[^'\\]|\\.)*'/s | /"(?:[^"\\]|\\.)*"/s
COMMENT: /\/\/[^\n]*/ | /\/\*(.|\n)*?\*\//
%ignore /\s+/
%ignore COMMENT
"""
    + "\n".join(f"{kw.upper()}.2: /{kw}\\b/i" for kw in KEYWORDS)
    + "\n"
)


@functools.cache
def _parser() -> Lark:
    """Built on first use: LALR analysis costs tens of milliseconds, which `qry --help` should not pay."""
    return Lark(
        _GRAMMAR, parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=True
    )


def parse_tree(text: str) -> Tree[Token]:
    """The LALR parse of `text` (iterative: any nesting parses), or the profile's parse error."""
    try:
        return _parser().parse(text)
    except UnexpectedInput as exc:
        _raise_parse_error(text, exc)


def transform(transformer: Transformer[Token, _T], tree: Tree[Token]) -> _T:
    """Run `transformer` over `tree`, re-raising what a callback raised as itself, not as VisitError."""
    try:
        return transformer.transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, GraphQueryError):
            raise exc.orig_exc from None
        if isinstance(exc.orig_exc, RecursionError):
            raise too_deep("too deeply for the stack") from None
        raise


def _describe_expected(expected: set[str]) -> str:
    parser = _parser()
    shown: list[str] = []
    for name in sorted(expected):
        try:
            term = parser.get_terminal(name)
        except KeyError:
            continue
        if name in ("NAME",):
            shown.append("a name")
        elif name == "PARAM":
            shown.append("a $parameter")
        elif name in ("INT", "FLOAT"):
            shown.append("a number")
        elif name == "STRING":
            shown.append("a string")
        elif name.upper() in (k.upper() for k in KEYWORDS):
            shown.append(name.upper())
        elif term.pattern.type == "str":
            shown.append(repr(term.pattern.value))
        else:
            shown.append(name)
    shown = list(dict.fromkeys(shown))
    return ", ".join(shown[:12]) + (", ..." if len(shown) > 12 else "")


def tree_depth(tree: Tree[Token]) -> int:
    """Levels of a lark tree, counted without recursion (the tree may be too deep to recurse over)."""
    best = 0
    stack: list[tuple[Tree[Token] | Token, int]] = [(tree, 1)]
    while stack:
        node, level = stack.pop()
        if level > best:
            best = level
        if isinstance(node, Tree):
            stack.extend((child, level + 1) for child in node.children if child is not None)
    return best


def _raise_parse_error(text: str, exc: UnexpectedInput) -> NoReturn:
    where = f"line {exc.line}, column {exc.column}"
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        word = str(tok).lower()
        if word in _READ_ONLY_WORDS:
            what = _READ_ONLY_WORDS[word]
            end = tok.end_pos
            rest = text[end:].split() if end is not None else []
            if word == "create" and rest and rest[0].lower() in ("index", "constraint"):
                what = f"CREATE {rest[0].upper()} is a schema operation"
            fail(
                "read_only",
                f"{what} ({where}); the graph query profile is read-only",
                f"use only {SHAPE}; for example {EXAMPLE}",
            )
        if word in _UNSUPPORTED_WORDS:
            fail(
                "unsupported",
                f"{str(tok).upper()} is not part of the bounded query profile ({where})",
                f"write the query as {SHAPE}; chain patterns with commas or several MATCH clauses",
            )
        if tok.type == "$END":
            fail(
                "syntax",
                f"the query ends early; expected {_describe_expected(exc.expected)}",
                f"complete the query; its shape is {SHAPE}",
            )
        fail(
            "syntax",
            f"unexpected {str(tok)!r} at {where}; expected {_describe_expected(exc.expected)}",
            f"the profile's shape is {SHAPE}; for example {EXAMPLE}",
        )
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream
        ch = text[pos] if pos is not None and pos < len(text) else ""
        fail(
            "syntax",
            f"unexpected character {ch!r} at {where}",
            f"the profile's shape is {SHAPE}; strings are quoted with ' or \", parameters are $name",
        )
    fail("syntax", f"cannot parse the query at {where}", f"the profile's shape is {SHAPE}")


__all__ = ["Meta", "Token", "Transformer", "Tree", "parse_tree", "transform", "tree_depth", "v_args"]
