"""The trigram side of `qry grep`: how file text is normalised for the index, and regex -> trigram query.

Owns: `trigram_query` (the boolean query over
trigrams that every match of a pattern must satisfy: Russ Cox's "Regular Expression Matching with a
Trigram Index", the scheme behind Google Code Search and Zoekt). Does not own: the index itself
(`lexical.GramIndexWriter`, `lexical.GramIndex`) nor verification (`lines.py`).

Normalisation (what the index stores, and why it is safe for every flag) is `indexlib/gramtext.py`.

The query is a small tree: `None` matches every file (no usable trigram: a scan), a `str` is one
trigram, `("and" | "or", children)` combine. `.*`, classes and optional parts contribute nothing;
concatenations of small literal sets are multiplied out (`(get|set)_value` -> `get_value | set_value`)
so trigrams that straddle the parts are used too.
"""

from __future__ import annotations

import re._parser as sre_parse
from typing import NamedTuple, TypeAlias

from indexlib.gramtext import CASE_EQUIVALENTS, norm_char, normalise

__all__ = ["CASE_EQUIVALENTS", "GramQuery", "normalise", "query_grams", "trigram_query"]

MAX_EXACT = 16  # literal alternatives carried through a concatenation before they become a query
MAX_CLASS = 8  # a character class of at most this many (normalised) characters is an alternation
MAX_AND = 24  # trigrams kept per conjunction (any subset of required trigrams is still required)

GramQuery: TypeAlias = "str | tuple[str, tuple[GramQuery, ...]] | None"


class _Info(NamedTuple):
    exact: frozenset[str] | None  # every (normalised) string the part can match, when few
    query: GramQuery  # what any match of the part requires, when `exact` is None


_ALL = _Info(None, None)
_EMPTY = _Info(frozenset({""}), None)


def _and(parts: list[GramQuery]) -> GramQuery:
    flat: list[GramQuery] = []
    for p in parts:
        if p is None:
            continue
        if isinstance(p, tuple) and p[0] == "and":
            flat.extend(p[1])
        elif p not in flat:
            flat.append(p)
    if not flat:
        return None
    if len(flat) == 1:
        return flat[0]
    if len(flat) > MAX_AND:  # keep grams spread over the literal, and every disjunction
        grams = [p for p in flat if isinstance(p, str)]
        others = [p for p in flat if not isinstance(p, str)]
        step = len(grams) / MAX_AND
        flat = [grams[int(i * step)] for i in range(MAX_AND)] + others
    return ("and", tuple(flat))


def _or(parts: list[GramQuery]) -> GramQuery:
    if any(p is None for p in parts):
        return None
    uniq: list[GramQuery] = []
    for p in parts:
        if p not in uniq:
            uniq.append(p)
    return uniq[0] if len(uniq) == 1 else ("or", tuple(uniq))


def _exact_query(strings: frozenset[str]) -> GramQuery:
    alts: list[GramQuery] = []
    for s in sorted(strings):
        if len(s) < 3:
            return None
        alts.append(_and([s[i : i + 3] for i in range(len(s) - 2)]))
    return _or(alts)


def _q(info: _Info) -> GramQuery:
    return _exact_query(info.exact) if info.exact is not None else info.query


def _alternate(infos: list[_Info]) -> _Info:
    if all(i.exact is not None for i in infos):
        union = frozenset().union(*(i.exact for i in infos if i.exact is not None))
        if len(union) <= MAX_EXACT:
            return _Info(union, None)
    return _Info(None, _or([_q(i) for i in infos]))


def _class(items: list[tuple[object, object]]) -> _Info:
    chars: set[str] = set()
    for op, arg in items:
        if op is sre_parse.LITERAL and isinstance(arg, int):
            chars.add(norm_char(arg))
        elif op is sre_parse.RANGE and isinstance(arg, tuple) and arg[1] - arg[0] < 64:
            chars.update(norm_char(c) for c in range(arg[0], arg[1] + 1))
        else:  # NEGATE, CATEGORY (\w, \d ...), a wide range
            return _ALL
        if len(chars) > MAX_CLASS:
            return _ALL
    return _Info(frozenset(chars), None)


def _sequence(parsed: sre_parse.SubPattern) -> _Info:
    """A concatenation: runs of exactly known parts are multiplied out; the rest are required side by side."""
    required: list[GramQuery] = []
    run = _EMPTY
    for op, arg in parsed.data:
        part = _node(op, arg)
        if run.exact is not None and part.exact is not None and len(run.exact) * len(part.exact) <= MAX_EXACT:
            run = _Info(frozenset(x + y for x in run.exact for y in part.exact), None)
            continue
        required.append(_q(run))
        if part.exact is not None:
            run = part
        else:
            required.append(part.query)
            run = _EMPTY
    if not required:
        return run
    return _Info(None, _and([*required, _q(run)]))


def _node(op: object, arg: object) -> _Info:
    if op is sre_parse.LITERAL and isinstance(arg, int):
        return _Info(frozenset({norm_char(arg)}), None)
    if op is sre_parse.IN and isinstance(arg, list):
        return _class(arg)
    if op is sre_parse.SUBPATTERN and isinstance(arg, tuple):
        return _sequence(arg[-1])
    if op is sre_parse.ATOMIC_GROUP and isinstance(arg, sre_parse.SubPattern):
        return _sequence(arg)
    if op is sre_parse.BRANCH and isinstance(arg, tuple):
        return _alternate([_sequence(b) for b in arg[1]])
    if op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, sre_parse.POSSESSIVE_REPEAT) and isinstance(
        arg, tuple
    ):
        lo, hi, sub = arg
        inner = _sequence(sub)
        if lo == 0:
            if hi == 1 and inner.exact is not None and len(inner.exact) < MAX_EXACT:
                return _Info(inner.exact | {""}, None)  # `colou?r`
            return _ALL  # `x*`: any text, including none
        if lo == hi == 1:
            return inner
        return _Info(None, _q(inner))  # one or more copies: at least one is there
    if op in (sre_parse.AT, sre_parse.ASSERT, sre_parse.ASSERT_NOT):
        return _EMPTY  # zero-width
    return _ALL  # ANY, NOT_LITERAL, CATEGORY, GROUPREF, ...


def trigram_query(source: str) -> GramQuery:
    """The trigram query every line matching `source` (a Python regex) satisfies; None: no narrowing.

    >>> trigram_query("def .*_request")
    ('and', ('def', '_re', 'req', 'equ', 'que', 'ues', 'est'))
    """
    return _q(_sequence(sre_parse.parse(source)))


def query_grams(query: GramQuery) -> set[str]:
    """Every trigram a query names (for tests and `--explain`-style diagnostics)."""
    if query is None:
        return set()
    if isinstance(query, str):
        return {query}
    out: set[str] = set()
    for child in query[1]:
        out |= query_grams(child)
    return out
