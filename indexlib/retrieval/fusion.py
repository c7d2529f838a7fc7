"""Reciprocal Rank Fusion and the code-aware ranking signals applied after it. Pure.

Owns: turning per-stream ranked lists into one ranking, and the documented, switchable adjustments
(definition boost, path match, test/vendored penalty, per-file saturation, dense-only floor).
Each adjustment appends a line to the candidate's `explain`, so `--explain` shows every term.

Why RRF (Cormack et al. 2009) rather than score blending: BM25 is unbounded, cosine is in [-1, 1] and a
trigram similarity is in [0, 1]; ranks are comparable, raw scores are not. k = 60 is the
paper's default: large enough that the first few ranks of one stream cannot drown agreement between
streams, small enough that rank 1 still counts.
"""

import re
from collections.abc import Mapping, Sequence
from itertools import pairwise

import msgspec

from indexlib.analyzer import code_terms, split_identifier
from indexlib.pathroles import is_test_code
from indexlib.records import (
    DEFINITION_KINDS,
    NAME_LOCATED_SCORE,
    VALUE_KINDS,
    Provenance,
    StreamHit,
    is_constructor,
)
from indexlib.retrieval.bounds import RRF_K
from indexlib.retrieval.names import dotted, last_name_part, qualified_by_path
from indexlib.retrieval.scope import (
    GENERATED_WORDS,
    TEST_WORDS,
    in_scope,
    is_docs,
    prose_factors,
)
from indexlib.retrieval.signals import Signals

CANDIDATE_CAP = 300


class Candidate(msgspec.Struct, kw_only=True):
    """A fused candidate with what ranking needs to know about its node."""

    uid: int
    score: float
    provenance: Provenance
    explain: list[str] = msgspec.field(default_factory=list)
    # Filled in by the caller from the stored node before `apply_signals`.
    path: str = ""
    kind: str = ""
    name: str = ""
    qualified_name: str = ""
    part: int = 0  # window number of a split node
    quote_share: float = 0.0  # share of the query's adjacent word pairs the node's text holds
    weak: bool = False  # a lexical-only match on function words alone: no evidence
    mentions: bool = False  # its text spells the query's multi-word identifier whole (`max_connections`)
    literal: bool = False  # its text holds the code fragment the query is, as typed (spacing aside)
    generated: bool = False  # its file carries a generated-code marker: supporting code, like a test
    defines: str = ""  # set by apply_signals: "exact" / "spelled" when it defines the query identifier
    prototype: bool = False  # a declaration without a body (`int f(void);` in a header, an index.d.ts method)
    deprecated: bool = False  # marked deprecated where declared (`records.is_deprecated`)
    local: bool = False  # defined inside a function or method body: visible there only
    private: bool = False  # declared private where defined (`declaration.declared_standing`)
    overrides: bool = False  # marked as overriding an inherited method (`declaration.declared_standing`)


def quote_pairs(texts: Sequence[str]) -> set[tuple[str, str]]:
    """The adjacent term pairs of texts, analysed as the index analyses code (stop words kept)."""
    seq = code_terms(" ".join(texts))
    return set(pairwise(seq))


def collapse_parts(cands: list[Candidate]) -> list[Candidate]:
    """Keep one candidate per split symbol: the windows of a very large function are one result.

    Parts share path, qualified name and kind; only keys where some candidate is a later part
    (part > 0) are collapsed, so same-named overloads stay separate.
    """
    split = {(c.path, c.qualified_name, c.kind) for c in cands if c.part > 0}
    if not split:
        return cands
    best: dict[tuple[str, str, str], Candidate] = {}
    out: list[Candidate] = []
    for c in cands:  # already sorted best first
        key = (c.path, c.qualified_name, c.kind)
        if key in split:
            if key in best:
                continue
            best[key] = c
        out.append(c)
    return out


def rrf(
    streams: Mapping[str, Sequence[StreamHit]],
    *,
    k: int = RRF_K,
    cap: int = CANDIDATE_CAP,
    weights: Mapping[str, float] | None = None,
) -> list[Candidate]:
    """Fuse ranked lists: score(d) = sum over streams of w_s / (k + rank_s(d)).

    Each stream is cut to `cap` before fusion. Ties break on uid so the same input always gives the
    same order, whatever order the streams arrive in.

    >>> a = [StreamHit(uid=1, score=9.0), StreamHit(uid=2, score=5.0)]
    >>> b = [StreamHit(uid=2, score=0.9)]
    >>> [c.uid for c in rrf({"bm25": a, "vector": b})]
    [2, 1]
    """
    by_uid: dict[int, Candidate] = {}
    for stream in sorted(streams):
        hits = streams[stream]
        w = 1.0 if weights is None else weights.get(stream, 1.0)
        seen: set[int] = set()
        rank = 0
        for hit in hits:
            if hit.uid in seen:
                continue  # a stream lists a node once; later duplicates (other segments) are ignored
            seen.add(hit.uid)
            rank += 1
            if rank > cap:
                break
            cand = by_uid.get(hit.uid)
            if cand is None:
                cand = by_uid[hit.uid] = Candidate(uid=hit.uid, score=0.0, provenance=Provenance())
            term = rrf_term(stream, w, k, rank, hit.score)
            cand.score += term
            _set_provenance(cand.provenance, stream, rank, hit.score)
            # Compared as the factor, not `term * (k + rank) == w`, which 1.4/(60+10) misses in floats.
            alike = "" if term == w / (k + rank) else f" x{hit.score:.2f} alike"
            cand.explain.append(f"rrf {stream}: {w:g}/({k}+{rank}){alike} = {term:.5f}")
    return sorted(by_uid.values(), key=lambda c: (-c.score, c.uid))


def ranked_scores(
    streams: Mapping[str, Sequence[StreamHit]], cap: int = CANDIDATE_CAP
) -> dict[str, list[float]]:
    """Each stream's scores in the order `rrf` ranks them (a node once, at most `cap`): score i is that
    of rank i + 1. A workspace merge reads another index's rank of any score off these.

    >>> ranked_scores({"bm25": [StreamHit(uid=1, score=9.0), StreamHit(uid=1, score=8.0), StreamHit(uid=2, score=5.0)]})
    {'bm25': [9.0, 5.0]}
    """
    out: dict[str, list[float]] = {}
    for stream, hits in streams.items():
        seen: set[int] = set()
        scores: list[float] = []
        for hit in hits:
            if hit.uid in seen:
                continue
            seen.add(hit.uid)
            scores.append(hit.score)
            if len(scores) >= cap:
                break
        out[stream] = scores
    return out


# Symbol-stream scores below this are near spellings (trigram similarity); name tiers score 3.0+.
NEAR_SPELLING_BELOW = 1.0


def rrf_term(stream: str, weight: float, k: int, rank: int, score: float | None) -> float:
    """One stream's RRF term for a hit at `rank`: weight / (k + rank), and for a near spelling of the
    symbol stream, times its similarity. Rank alone would make a 0.32-alike name at rank 1 (the
    `ConnectError` of `max_connections`, which nothing defines) weigh as much as the name itself.

    >>> round(rrf_term("symbol", 1.5, 60, 1, 4.0), 5), round(rrf_term("symbol", 1.5, 60, 1, 0.32), 5)
    (0.02459, 0.00787)
    """
    term = weight / (k + rank)
    if stream == "symbol" and score is not None and score < NEAR_SPELLING_BELOW:
        term *= score
    return term


def _set_provenance(p: Provenance, stream: str, rank: int, score: float) -> None:
    if stream == "bm25":
        p.bm25_rank, p.bm25_score = rank, score
    elif stream == "vector":
        p.vector_rank, p.vector_score = rank, score
    elif stream == "symbol":
        p.symbol_rank, p.symbol_score = rank, score


def _supporting(c: Candidate, wants_tests: bool = False, wants_generated: bool = False) -> bool:
    """Code supporting the work (tests, examples, vendored, generated), less what the query asks for."""
    if c.generated:
        return not wants_generated
    return not wants_tests and is_test_code(c.path, c.qualified_name)


def _defines(
    c: Candidate, ident: str | None, ident_last: str | None, ident_joined: str | None, cased: str | None
) -> str | None:
    """ "exact" when `c` defines the query identifier as typed, "spelled" when with its words spelled
    another way (`parse_config` for `ParseConfig`), else None. As typed is smart case, as in `rg -S`:
    an identifier typed with an upper-case letter (`cased`, its last part) is matched case and all,
    so `Searcher` is the type and `searcher` (a method) only spelled alike; typed in lower case, any
    case matches."""
    if not ident or c.kind not in DEFINITION_KINDS:
        return None
    qn = dotted(c.qualified_name).lower()
    exact = c.name == cased if cased else c.name.lower() in (ident, ident_last)
    spelled = exact or "".join(split_identifier(c.name)) == ident_joined
    # Whole name parts: `JsonAdapter.Factory` is not `RecordJsonAdapter.Factory`.
    if spelled and (
        ident == ident_last
        or f".{qn}".endswith(f".{dotted(ident)}")
        or qualified_by_path(c.path, c.qualified_name, ident)
    ):
        return "exact" if exact else "spelled"
    return None


def _outranks_constants(cands: Sequence[Candidate], kinds: Mapping[int, str | None]) -> bool:
    """Whether a function or type defines the identifier as typed, for a constant of its name to
    yield to: the flag `var List bool` yields to `func List`; the module-level `const ky =
    createInstance()` does not yield to the class `Ky` (another case) nor to a local function `ky`."""
    return any(
        kinds.get(c.uid) == "exact"
        and c.kind not in VALUE_KINDS
        and not (c.local or c.prototype or is_constructor(c.qualified_name))
        for c in cands
    )


def _defining(cands: Sequence[Candidate], identifier: str, signals: Signals) -> dict[int, str | None]:
    """Each candidate's `_defines` answer for the query identifier ({} with the signal off).

    A name located as typed (the symbol stream's NAME_LOCATED_SCORE: `flask.url_for`, the function
    the package passes on; `serde_json::Value`, the item the crate's root passes on, which no
    qualifier names as a container or folder) defines it exactly, and then a suffix or folder match
    in another case (the method `Flask.url_for`) is spelled alike."""
    if "definition" not in signals.enabled:
        return {}
    ident = identifier.lower()
    ident_last = last_name_part(ident)
    # `parse config`, `ParseConfig` and `parse_config` name the same definition: compare joined forms.
    ident_joined = "".join(split_identifier(ident_last))
    cased = _case_to_match(cands, last_name_part(identifier))
    located = {c.uid for c in cands if c.provenance.symbol_score == NAME_LOCATED_SCORE}
    kinds = {c.uid: _defines(c, ident, ident_last, ident_joined, cased) for c in cands}
    return {
        u: ("exact" if u in located else "spelled" if k == "exact" and located else k)
        for u, k in kinds.items()
    }


class _DefinitionContext(msgspec.Struct, frozen=True):
    """What the candidates defining the identifier say about each other."""

    in_code: bool  # one lives outside tests, fixtures and examples
    top_level: bool  # a bare name is defined, as typed to the letter, at top level (not a constant)
    outranked: bool  # a function or type defines it as typed: constants of its name yield
    shadowed: bool  # something outside a function defines it as typed: locals of its name yield
    current: bool  # a definition not marked deprecated defines it as typed: deprecated ones yield

    @classmethod
    def of(
        cls, cands: Sequence[Candidate], kinds: Mapping[int, str | None], identifier: str
    ) -> "_DefinitionContext":
        last = last_name_part(identifier)
        # When the only definitions of the identifier live in tests, fixtures or examples, the one
        # asked for is among them: the test penalty would put every mention in code above it.
        in_code = any(k is not None and not _supporting(c) for c in cands if (k := kinds.get(c.uid)))
        # A bare name (`Engine`, not `StructValidator.Engine`) defined, as typed to the letter, at top
        # level as well as a member (typed in another case, `searcher`, scores decide).
        top_level = dotted(identifier) == last and any(
            kinds.get(c.uid) is not None and not _nested(c) and c.kind not in VALUE_KINDS and c.name == last
            for c in cands
        )
        shadowed = any(kinds.get(c.uid) == "exact" and not c.local for c in cands)
        current = any(kinds.get(c.uid) == "exact" and not c.deprecated for c in cands)
        return cls(in_code, top_level, _outranks_constants(cands, kinds), shadowed, current)


def _boost_definition(
    c: Candidate, defined: str, identifier: str | None, signals: Signals, ctx: _DefinitionContext
) -> None:
    """The definition signal (`defined`: "exact" or "spelled": `parse_headers` over `_parse_headers`,
    which beats a mere mention). A member yields as a constant does to a top-level definition
    (`ctx.top_level`: `type Engine struct` over `StructValidator.Engine`), a constant to a function or
    type (`ctx.outranked`), a local to anything outside a function (`ctx.shadowed`), a deprecated
    definition to a current one (`ctx.current`)."""
    c.defines = defined
    exact = defined == "exact"
    f = 1.0 + (signals.definition_boost if exact else signals.definition_boost / 2)
    if (
        (c.kind in VALUE_KINDS and ctx.outranked)
        or (c.local and ctx.shadowed)
        or c.prototype
        or (c.deprecated and ctx.current)
        or is_constructor(c.qualified_name)
        or (ctx.top_level and _nested(c))
    ):
        # A variable of the same name (a flag `var List bool`) yields to the function or type, and
        # a constructor (Java, C#, C++: named as its class) to its class, a prototype to its body.
        f = 1.0 + (f - 1.0) * signals.constant_share
        c.mentions = c.mentions and not c.deprecated  # nor spelling the name (`fun Moshi.adapter()`)
    c.score *= f
    c.explain.append(f"definition of {identifier!r}{'' if exact else ' (spelled alike)'}: x{f:g}")


def _case_to_match(cands: Sequence[Candidate], typed: str) -> str | None:
    """The spelling a definition must have to the letter to count as exact, or None for any case.
    Smart case, as in `rg -S`: an identifier typed with an upper-case letter is matched case and all;
    typed in lower case, any case matches unless a definition is spelled as typed, which is then the
    one meant (`ky`: the constant `ky`, not the class `Ky`)."""
    if not typed:
        return None
    if typed != typed.lower() or any(c.name == typed and c.kind in DEFINITION_KINDS for c in cands):
        return typed
    return None


def _nested(c: Candidate) -> bool:
    """A member of a type or module-level container: its qualified name holds more than its name."""
    return dotted(c.qualified_name) != c.name


def apply_signals(
    cands: list[Candidate],
    *,
    identifier: str | None,
    query_words: Sequence[str],
    signals: Signals = Signals(),
    scope: str = "",
) -> list[Candidate]:
    """Adjust fused scores with code-aware signals and re-sort; returns the surviving candidates."""
    # A commit scope is a word of the query too: `examples: fix ...` asks for examples, `docs: ...`
    # for docs, as the same word in the sentence would.
    words = {w.lower() for w in [*query_words, *split_identifier(scope)] if len(w) >= 3}
    wants_tests = bool(words & TEST_WORDS)
    wants_generated = bool(words & GENERATED_WORDS)

    kinds = _defining(cands, identifier, signals) if identifier else {}
    ctx = _DefinitionContext.of(cands, kinds, identifier or "")
    # A name no code that does the work spells (`sni_hostname`, an option documented only in Markdown;
    # a local of the tests): the docs or tests spelling it are the answer, as grep would show them,
    # not supporting text to rank below code holding its words.
    code_spells = any(c.mentions and not is_docs(c.path, c.kind) and not _supporting(c) for c in cands)
    # So with a code fragment only tests or docs hold as typed (`new Client(['base_uri'`, an example).
    code_holds = any(c.literal and not is_docs(c.path, c.kind) and not _supporting(c) for c in cands)
    out: list[Candidate] = []
    for c in cands:
        p = c.provenance
        if "evidence" in signals.enabled and c.weak:
            continue
        if "dense_floor" in signals.enabled and p.bm25_rank is None and p.symbol_rank is None:
            if (p.vector_score or 0.0) < signals.dense_floor:
                continue
        defined = kinds.get(c.uid)
        if defined is not None:
            _boost_definition(c, defined, identifier, signals, ctx)
        _boost_text_evidence(c, identifier, signals)
        _boost_path(c, signals, scope, words)
        if "remainder" in signals.enabled and c.kind == "module":
            # Named after its file, a remainder matches the name of the definition the file holds
            # (`HTTPError.ts`): its imports are not what `HTTPError` asks for, once that is defined.
            f = signals.remainder_penalty ** (2 if ctx.in_code and p.named else 1)
            c.score *= f
            c.explain.append(f"module remainder: x{f:g}")
        if "tests" in signals.enabled and _supporting(c, wants_tests, wants_generated):
            role = "generated code" if c.generated else "test/example/vendored path"
            where = _only_there(c, defined is not None and not ctx.in_code, code_spells, code_holds)
            if where:
                c.explain.append(f"{role}, but {where} only there: x1")
                out.append(c)
                continue
            c.score *= signals.test_penalty
            c.explain.append(f"{role}: x{signals.test_penalty:g}")
        elif "docs" in signals.enabled and (code_spells or not c.mentions) and (code_holds or not c.literal):
            for why, f in prose_factors(c.path, c.kind, words, signals.docs_penalty, signals.history_penalty):
                c.score *= f
                c.explain.append(f"{why}: x{f:g}")
        out.append(c)
    out.sort(key=lambda c: (-c.score, c.uid))
    if "saturation" in signals.enabled:
        _saturate(out, signals)
    if "definition" in signals.enabled:
        _declaring_first(out)
    if "mention" in signals.enabled and identifier and not any(c.defines for c in out):
        # Nothing defines the name: the places spelling it are the answer, as grep's lines would
        # be, so each comes before any node holding only its words (a test asserting on a
        # `CURLOPT_SSL_VERIFYPEER` over another file's `verify_peer`), in score order (stable sort).
        out.sort(key=lambda c: not c.mentions)
    return out


def _declaring_first(out: list[Candidate]) -> None:
    """Among definitions of the identifier as typed that rank alike by role (the same docs, test,
    prototype, deprecated, local and nesting standing), the one declaring the name for callers comes
    first: a method marked as overriding yields its place to the one it overrides, a private one to
    one that is not. `qry search peek` in a JSON library means the reader's `peek()`, not a tree
    reader's override of it nor a writer's private helper whose short body BM25 favours. Only those
    places are refilled (in score order within each standing), so no other hit moves."""

    def role(c: Candidate) -> tuple[bool, ...]:
        return (is_docs(c.path, c.kind), _supporting(c), c.prototype, c.deprecated, c.local, _nested(c))

    def standing(c: Candidate) -> tuple[bool, bool]:
        return (c.private, c.overrides)

    groups: dict[tuple[bool, ...], list[int]] = {}
    for i, c in enumerate(out):
        if c.defines == "exact":
            groups.setdefault(role(c), []).append(i)
    for slots in groups.values():
        held = [out[i] for i in slots]
        if len({standing(c) for c in held}) < 2:
            continue
        for i, c in zip(slots, sorted(held, key=standing), strict=True):
            if out[i] is not c and any(standing(c)):
                why = "private" if c.private else "an override"
                c.explain.append(f"{why}: after the name's other definitions")
            out[i] = c


def _only_there(c: Candidate, defined_only_there: bool, code_spells: bool, code_holds: bool) -> str:
    """Why a test, example or generated node is the answer itself and keeps its score ("" if not):
    the only definitions of the identifier are there, or no code spells the identifier, or none
    holds the code fragment as typed, and this one does."""
    if defined_only_there:
        return "the identifier is defined"
    if c.mentions and not code_spells:
        return "the identifier is spelled"
    if c.literal and not code_holds:
        return "the code is held as typed"
    return ""


def _boost_path(c: Candidate, signals: Signals, scope: str, words: set[str]) -> None:
    """What the path shows: it lies in the query's commit scope, or (off by default) a query word
    names one of its folders or its file."""
    if "scope" in signals.enabled and scope and in_scope(c.path, scope):
        f = 1.0 + signals.scope_boost
        c.score *= f
        c.explain.append(f"path lies in scope {scope!r}: x{f:g}")
    if "path" in signals.enabled and words:
        parts = {seg.lower() for seg in re.split(r"[/._\-]", c.path) if seg}
        hit = sorted(words & parts)
        if hit:
            f = 1.0 + signals.path_boost
            c.score *= f
            c.explain.append(f"path names {', '.join(hit)}: x{f:g}")


def _boost_text_evidence(c: Candidate, identifier: str | None, signals: Signals) -> None:
    """What the node's text showed (`search._read_evidence`): it spells the identifier whole, it holds
    the code fragment asked for, or it quotes the question."""
    if "literal" in signals.enabled and c.literal:
        f = 1.0 + signals.literal_boost
        c.score *= f
        c.explain.append(f"holds the code as typed: x{f:g}")
    if "mention" in signals.enabled and c.mentions:
        f = 1.0 + signals.mention_boost
        c.score *= f
        c.explain.append(f"spells {identifier!r} whole: x{f:g}")
    if "quote" in signals.enabled and c.quote_share >= signals.quote_min:
        f = 1.0 + signals.quote_boost * c.quote_share
        c.score *= f
        c.explain.append(f"quotes {c.quote_share:.0%} of the query's word pairs: x{f:.3g}")


def _saturate(out: list[Candidate], signals: Signals) -> None:
    """The first `saturation_after` hits of a file are left alone (a class and its methods, or
    overloads, are often all right); later ones are damped so one file cannot fill the page."""
    seen: dict[str, int] = {}
    for c in out:
        n = seen.get(c.path, 0)
        seen[c.path] = n + 1
        if n >= signals.saturation_after:
            f = signals.file_saturation ** (n - signals.saturation_after + 1)
            c.score *= f
            c.explain.append(f"hit {n + 1} of {c.path}: x{f:.3g}")
    out.sort(key=lambda c: (-c.score, c.uid))


ROUTE_WEIGHTS: dict[str, dict[str, float]] = {
    # Identifiers: the symbol stream knows; dense vectors blur exact names.
    "identifier": {"symbol": 1.5, "bm25": 1.0, "vector": 0.5},
    # Signatures and fragments: lexical first.
    "signature": {"bm25": 1.5, "symbol": 0.5, "vector": 0.7},
    # Questions: dense and lexical evidence both count; names matter little. BM25 at 2.0 (0.8, then
    # 1.4): commit titles gain 0.010 file MRR@10 in the dev set and 0.009 in four repositories outside
    # it (where the dense stream costs them at any weight: lexical search ranks them 0.026 better), for
    # 0.006 on the dev set's doc-less sentences and 0.001 on those outside it (docs/benchmarks.md,
    # "BM25's weight on questions").
    "natural": {"bm25": 2.0, "vector": 1.0, "symbol": 0.1},
    # A few plain words that may spell a name (`parse config`): lexical and names first, dense weakly.
    "keywords": {"bm25": 1.0, "symbol": 1.0, "vector": 0.3},
}


def boost_paths(cands: list[Candidate], paths: set[str], factor: float, why: str) -> list[Candidate]:
    """`cands` with those in `paths` scored `factor` times higher, re-sorted."""
    for c in cands:
        if c.path in paths:
            c.score *= factor
            c.explain.append(f"{why}: x{factor:g}")
    return sorted(cands, key=lambda c: (-c.score, c.uid))
