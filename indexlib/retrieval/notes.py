"""What a search says about its own answer: a name no definition has, why nothing matched.

Kept apart from ranking: these notes read the ranked candidates and the index, never reorder them.
A script or an agent reads ten hits as "it exists" unless told otherwise, so an identifier query
that finds no definition says so, and a miss with a cause the user may not see says the cause.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from indexlib.analyzer import split_identifier
from indexlib.declaration import first_code_line
from indexlib.pathroles import is_test_path
from indexlib.records import CONTAINER_KINDS, TYPO_SIMILARITY, Node, NodeKind, StreamHit
from indexlib.retrieval.definitions import exact_definitions
from indexlib.retrieval.fusion import Candidate
from indexlib.retrieval.names import dotted
from indexlib.retrieval.query import Query, term_prefix
from indexlib.retrieval.request import SearchRequest
from indexlib.snapshot import Snapshot

EDITED_COUNT_LIMIT = 100  # files counted as edited since the root before "100 or more" is said
NAMED_FILES = 20  # files a query naming a file name may mean (`index.ts` names many)
# A query that could be a file name or a path: no spaces, a name, a dot and an extension.
_FILE_NAME = re.compile(r"[\w.\-/]*\w\.[A-Za-z][A-Za-z0-9]{0,9}")


def _defined_outside(snap: Snapshot, name: str, query: Query | None) -> str:
    """Where `name` is defined when the query's path or language filters left it out (`PATH:LINE`,
    the first), or "": `cJSON_Minify path:cJSON_Utils.c` said no definition was named so, though
    `cJSON.c` defines it."""
    if query is None or not (query.paths or query.excludes or query.langs):
        return ""
    found = sorted(exact_definitions(snap, name), key=lambda n: (n.path, n.start_line))
    return f"{found[0].path}:{found[0].start_line}" if found else ""


def named_files(snap: Snapshot, text: str) -> list[str]:
    """The indexed files a query names by file name or path suffix (`md_docs.go`, `doc/md_docs.go`),
    at most NAMED_FILES; [] for any other query. A file name is what the user asks for then, not
    a definition of that spelling."""
    text = text.strip().lstrip("./")
    if not _FILE_NAME.fullmatch(text):
        return []
    suffix = "/" + text
    found = [p for p in snap.manifest.files if p == text or p.endswith(suffix)]
    return sorted(found)[:NAMED_FILES]


def answer_notes(
    snap: Snapshot,
    name: str | None,
    cands: Sequence[Candidate],
    opts: SearchRequest,
    *,
    head: bool,
    streams: Mapping[str, list[StreamHit]],
    files: Sequence[str] = (),
    query: Query | None = None,
) -> list[str]:
    """The notes for one ranked answer: `name` is the identifier the query typed (None for prose),
    `head` whether fusion had candidates, `streams` what each stream found, `files` the indexed files
    the query names by file name (then no "no definition" note: the file is what was asked for),
    `query` the parsed query (its quoted phrases, each one required, and its `word*` prefixes,
    required when nothing else is searched for, are causes of a miss)."""
    notes: list[str] = []
    spelled_as_code = name is not None and len(split_identifier(name)) > 1
    if name is not None and spelled_as_code and cands and not files and not any(c.defines for c in cands):
        # Only for a name spelled as code (`parse_config`, `ParseConfig`, `a.b`): a plain word
        # (`billing`) is a topic.
        member = member_line(snap, name) or member_of_candidates(snap, name, cands)
        outside = _defined_outside(snap, name, query)
        if outside:
            notes.append(f"no definition named {name!r} within the filters; it is defined at {outside}")
        elif member is not None:
            notes.append(f"no definition named {name!r}: {member}")
        elif any(c.mentions for c in cands[: opts.top_k]):
            notes.append(
                f"no definition named {name!r}: the results spelling it come first"
                + last_part_line(snap, name)
            )
        else:
            near = _misspelt(cands)
            notes.append(
                f"no definition named {name!r}{f' (did you mean {near!r}?)' if near else ''}, and no result"
                " spells it: these hold only its words" + edited_since(snap)
            )
    if head and not cands:
        why = (
            "the candidates matched only function words of the query or fell below the dense floor"
            if streams.get("bm25") or streams.get("symbol")
            else f"nothing is close enough in meaning ({opts.given('mode')} does not match words)"
            if opts.mode == "semantic"
            else "no indexed file holds the query's words, and none is close enough in meaning"
        )
        notes.append("no result: " + why + edited_since(snap))
    elif not head and (why_not := _why_nothing(snap, opts, query) + edited_since(snap)):
        # A plain miss is silent, as grep's: exit 1 says it. A cause the user may not see is said.
        notes.append("no result" + why_not)
    return notes


MEMBER_TYPES = 3  # types of a name a `Type.member` query looks for the member in
_MEMBER_HOLDERS = frozenset({*CONTAINER_KINDS, NodeKind.TYPE})  # kinds whose body may declare members
MEMBER_SCAN = 20  # ranked candidates a bare name no definition has is looked for in, as a member
LAST_PART_DEFINITIONS = 3  # definitions of a dotted query's last part named when its qualifier names none


def last_part_line(snap: Snapshot, name: str) -> str:
    """For `z.object` whose qualifier names no type here (an import alias, `import * as z`; a
    variable, `ctx.render`): where its last part is defined, outside tests and top-level first, as
    `; 'z' names no type here, 'object' is defined at a.ts:3, b.ts:9`; "" otherwise."""
    container, _, last = dotted(name).rpartition(".")
    if (
        not container
        or not last
        or any(n.kind in CONTAINER_KINDS for n in exact_definitions(snap, container))
    ):
        return ""
    found = sorted(
        exact_definitions(snap, last),
        key=lambda n: (is_test_path(n.path), n.parent_uid != 0, n.path, n.start_line),
    )
    if not found:
        return ""
    at = ", ".join(f"{n.path}:{n.start_line}" for n in found[:LAST_PART_DEFINITIONS])
    more = f" and {len(found) - LAST_PART_DEFINITIONS} more" if len(found) > LAST_PART_DEFINITIONS else ""
    return f"; {container!r} names no type here, {last!r} is defined at {at}{more}"


def member_line(snap: Snapshot, name: str) -> str | None:
    """Where a type declares `member` of a `Type.member` query when the member is no definition of
    its own (a Python class attribute, a Java field, a TS class property, a Rust struct field):
    `its class Response declares it at starlette/responses.py:32`; None when no type of that name
    declares it (`_declaring_line`)."""
    container, _, member = dotted(name).rpartition(".")
    if not container or not member:
        return None
    for n in [n for n in exact_definitions(snap, container) if _declares_members(n)][:MEMBER_TYPES]:
        at = _declaring_line(_whole_text(snap, n), member, enum=n.kind == "enum")
        if at is not None:
            return f"its {n.kind} {n.qualified_name} declares it at {n.path}:{n.start_line + at}"
    return None


def member_of_candidates(snap: Snapshot, name: str, cands: Sequence[Candidate]) -> str | None:
    """For a bare name no definition has: the type among the ranked head whose body declares it
    (`forceKillAfterDelay`, an option property of `type CommonOptions = {..}` in a `.d.ts`), said as
    `the type CommonOptions declares it at types/options.d.ts:307`; None when none does."""
    if "." in dotted(name):
        return None
    for c in cands[:MEMBER_SCAN]:
        stored = snap.node(c.uid) if c.kind in _MEMBER_HOLDERS else None
        n = snap.first_part(stored.node) if stored is not None else None  # a window answers as its first
        if n is not None and _declares_members(n):
            at = _declaring_line(_whole_text(snap, n), name, enum=n.kind == "enum")
            if at is not None:
                return f"the {n.kind} {n.qualified_name} declares it at {n.path}:{n.start_line + at}"
    return None


def _whole_text(snap: Snapshot, n: Node) -> str:
    """A definition's text across the windows a long one is split into (`type Options = {` of 400
    lines: its members past the first window are in later parts), each line once."""
    lines: dict[int, str] = {}
    for part in [n, *(s.node for s in snap.later_parts(n))]:
        for i, line in enumerate(part.text.split("\n")):
            lines.setdefault(part.start_line + i, line)
    return "\n".join(lines.get(i, "") for i in range(n.start_line, max(lines) + 1))


def _declares_members(n: Node) -> bool:
    """A type whose body lists members: a class or its kin, or an object type alias (`type O = {`)."""
    return n.kind in CONTAINER_KINDS or (n.kind == NodeKind.TYPE and "{" in n.signature + n.text[:400])


_DOC_QUOTES = ('"""', "'''")


def _declaring_line(text: str, member: str, *, enum: bool = False) -> int | None:
    """Index of the line of a type's text that declares `member` as a statement of the type's body:
    at the body's indentation (not a method's parameter on a line of its own), outside a docstring,
    the name after nothing but modifier and type words (`private final int size`, `pub id: Id`),
    then `:`, `=`, `;`, `,` or the line's end (an enum constant also `(` or `{`: `DOUBLE {`)."""
    ends = r"[:=;,({]" if enum else r"[:=;,]"
    # PHP spells a property with `$` where it is declared and not where it is used (`$this->stack`).
    member = member.removeprefix("$")
    # TypeScript marks an optional or definitely assigned property after its name: `timeout?: number`.
    declares = re.compile(rf"\s*(?:[@\w$<>\[\],.?]+\s+)*?\$?{re.escape(member)}[?!]?\s*(?:{ends}|$)")
    lines = text.split("\n")
    header = first_code_line(lines)
    body = _body_indent(lines[header + 1 :])
    in_doc = False
    for i, line in enumerate(lines[header + 1 :], header + 1):
        if sum(line.count(q) for q in _DOC_QUOTES) % 2:
            in_doc = not in_doc
            continue
        if in_doc or len(line) - len(line.lstrip()) != body:
            continue
        if declares.match(line):
            return i
    return None


def _body_indent(lines: list[str]) -> int:
    """The indentation of a type's body: of the first line after its header holding more than an
    opening brace (C# and PHP put a type's `{` on a line of its own, at the header's indentation)."""
    first = next((line for line in lines if line.strip() not in ("", "{")), "")
    return len(first) - len(first.lstrip())


def _why_nothing(snap: Snapshot, opts: SearchRequest, query: Query | None) -> str:
    """`: <cause>` when no stream found a candidate for a reason the user may not see; "" for a
    plain miss (no indexed file holds the words). A quoted phrase is such a reason: a pasted commit
    title or error message quotes words (`Avoid "method redefined" warnings`) that the code may not
    hold in that order, and the quotes made them a requirement. So is punctuation alone (`(`): the
    index's terms are words and names, which it holds none of."""
    if not snap.manifest.files:
        return ": the index holds no files (qry index PATH indexes a folder)"
    if opts.mode == "symbol":
        return f": no definition's name matches ({opts.given('mode')} matches names only)"
    phrases, prefixes = (query.phrases, query.prefixes) if query is not None else ([], [])
    unknown = [p for p in prefixes if not _starts_a_term(snap, p)]
    if unknown:
        shown = ", ".join(f"{p}*" for p in unknown)
        return f": no indexed name or word starts with {shown} (a word ending in * is a prefix)"
    if query is not None and not phrases and not any(c.isalnum() for t in query.terms for c in t):
        shown = " ".join(query.terms)
        return f": {shown!r} holds no word or name to search for (qry grep -F {shown!r} finds it as typed)"
    if phrases:
        quoted = ", ".join(f'"{p}"' for p in phrases)
        return (
            f": no indexed text holds {quoted} as written (quotes require the words in that order;"
            " without them, the words are searched)"
        )
    return ""


def _starts_a_term(snap: Snapshot, prefix: str) -> bool:
    """Whether an indexed name part, word or whole name starts with `prefix` (as search expands it)."""
    fields = ("name_terms", "body_terms", "name_exact")
    return bool(snap.terms_with_prefix(fields, term_prefix(prefix), 1))


def _misspelt(ranked: Sequence[Candidate]) -> str | None:
    """The best-ranked definition whose name the query misspells by a typo (`ShouldBindJSN` ->
    `Context.ShouldBindJSON`), as a hint: the ranking has put code that does the work before a test
    helper of the same spelling. None when no result is a typo away."""
    near = next((c for c in ranked if TYPO_SIMILARITY <= (c.provenance.symbol_score or 0.0) < 1.0), None)
    return (near.qualified_name or near.name) if near is not None else None


def edited_since(snap: Snapshot) -> str:
    """`; N indexed files changed since the index ...` when some did: a name typed but spelled
    nowhere in the index may be in one of them (a function written after `qry index`)."""
    from indexlib.index.freshness import modified_or_deleted

    modified, deleted = modified_or_deleted(snap, limit=EDITED_COUNT_LIMIT)
    n = len(modified) + len(deleted)
    if not n:
        return ""
    said = f"{n} or more" if n >= EDITED_COUNT_LIMIT else str(n)
    files = "file" if n == 1 else "files"
    return f"; {said} indexed {files} changed since the index (qry index brings them in)"


def exclusion_note(removed: list[str]) -> str:
    """What `-word` exclusions did, said only when they removed matches (see TOLD_NOTES).

    >>> exclusion_note(["help", "two words"])[:70]
    'left out results containing help, "two words" (the exclusions -help -"'
    """
    words = ", ".join(f'"{w}"' if " " in w else w for w in removed)
    typed = " ".join(f'-"{w}"' if " " in w else f"-{w}" for w in removed)
    return (
        f"left out results containing {words} (the exclusion{'s' if len(removed) > 1 else ''} {typed}; "
        f'to search for a word that starts with a dash, quote it: "-{removed[0]}")'
    )
