"""Code-aware term analysis for indexing and for queries.

Owns: splitting identifiers into words (camelCase, PascalCase, snake_case, kebab-case, acronyms, digit
runs), turning source text into the term list of a whitespace-tokenised Tantivy field, the same analysis
for query text, and pg_trgm-style trigram similarity for fuzzy symbol lookup.
Does not own: the Tantivy schema or tokenizer registration (`lexical.py`), query syntax such as filters,
phrases and prefixes (`query.py`).

Why in Python: Tantivy's regex tokenizer has no look-around, so `getHTTPResponse` cannot be split into
`get http response` inside Tantivy. We emit space-separated terms here and index them with the
`whitespace` tokenizer.

Term policy (the contract between the index side and the query side):
- an identifier that splits into several parts emits its *joined* form first (the parts concatenated
  without separators, so `parse_config`, `parseConfig`, `ParseConfig` and `parse-config` all give
  `parseconfig`), then each part: `parseconfig parse config`. A one-part identifier emits just that part.
  Between the two, a snake_case identifier emits the joined form of each chunk that is several words
  itself (`cJSON_Parse`: `cjsonparse cjson c json parse`), so `cJSON` finds it as written, and a
  one-letter part its join with the next word (`GZipDecoder`: `gzipdecoder gzip g zip decoder`), so
  `gzip` finds it.
- a dotted name (`os.path.join`) emits the whole chain (each segment in its joined form) and, when it
  has three or more segments, each adjacent pair (`os.path`, `path.join`), then the terms of every
  segment. Emitting the chain makes a qualified-name query (`os.path.join`) match that exact spelling with
  a rare, high-IDF term, while the parts keep `join` findable; the pairs let `path.join` match
  `os.path.join` without a substring search.
- everything is lower-cased (per character outside ASCII, so the joined parts always equal the
  identifier's letters and digits lower-cased).
- terms longer than `MAX_TERM_CHARS` are dropped; identifier-like tokens longer than `MAX_TOKEN_CHARS`
  (base64 blobs, hashes, minified runs) are dropped whole, parts included, because their parts are noise.
The whole term comes before its parts, so the parts stay adjacent and a phrase query `parse config`
matches the text `parse_config`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import chain, pairwise

__all__ = [
    "MAX_TERM_CHARS",
    "MAX_TOKEN_CHARS",
    "code_terms",
    "name_similarity",
    "query_terms",
    "split_identifier",
    "trigram_similarity",
    "trigrams",
]

# A whitespace tokenizer keeps long tokens (unlike Tantivy's `default`, which silently drops 40+ bytes),
# but nobody searches for a 65-character term, and long terms bloat the term dictionary.
MAX_TERM_CHARS = 64
# A token longer than this is data (base64, a hash, a minified run), not an identifier: drop it whole.
MAX_TOKEN_CHARS = 256

# Identifier-like runs: letters, digits, `_` (all via \w, Unicode-aware) and `$` (JavaScript, PHP),
# optionally chained with dots. A dot must be followed by another identifier character, so a sentence's
# final period is not part of a token.
_TOKEN_RE = re.compile(r"[\w$]++(?:\.[\w$]++)*+")

# Word parts over ASCII: an acronym that ends where a capitalised word starts (`HTTP` in `HTTPServer`),
# a capitalised or lower-case word, a trailing acronym, or a digit run.
_PART_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

# What separates the chunks of a snake_case identifier whose chunks may be camelCase (`cJSON_Parse`).
_CHUNK_SEP_RE = re.compile(r"[_$]+")

# Runs of letters and digits (not `_`): pg_trgm's notion of a word.
_ALNUM_RUN_RE = re.compile(r"[^\W_]+")

# Two query words separated only by spaces or hyphens are joined (`parse config` -> `parseconfig`).
_JOINABLE_GAP_RE = re.compile(r"[\s\-]+")

_CACHE_LIMIT = 200_000


def _lower(s: str) -> str:
    """Lower-case per character, so lower-casing commutes with splitting (no final-sigma context)."""
    if s.isascii():
        return s.lower()
    return "".join([c.lower() for c in s])


def _char_class(c: str) -> str:
    """Map a character onto the ASCII alphabet `_PART_RE` understands."""
    if c.isupper():
        return "A"
    if c.isalpha():
        return "a"  # lower-case, title-case and caseless letters (CJK) all continue a word
    if c.isalnum():
        return "0"  # digits and other numerics
    return " "


def split_identifier(word: str) -> list[str]:
    """Split one identifier into lower-cased word parts.

    Separators are any characters that are not letters or digits (`_`, `-`, `$`, `.`); case changes
    and letter/digit boundaries split too; an acronym stays together until the next capitalised word.

    >>> split_identifier("getHTTPResponseCode")
    ['get', 'http', 'response', 'code']
    >>> split_identifier("HTTPServer2")
    ['http', 'server', '2']
    >>> split_identifier("__init__")
    ['init']
    """
    if word.isascii():
        if word.isalpha() and word.islower():
            return [word]
        return [p.lower() for p in _PART_RE.findall(word)]
    classes = "".join([_char_class(c) for c in word])
    return [_lower(word[m.start() : m.end()]) for m in _PART_RE.finditer(classes)]


def _segment_terms(segment: str) -> tuple[str, list[str]]:
    """(joined form, terms) of one identifier without dots."""
    parts = [p for p in split_identifier(segment) if len(p) <= MAX_TERM_CHARS]
    if not parts:
        return "", []
    if len(parts) == 1:
        return parts[0], parts
    joined = "".join(parts)
    if len(joined) > MAX_TERM_CHARS:
        return joined, parts
    chunks = _chunk_forms(segment, joined)
    return joined, [joined, *chunks, *_letter_words(parts, [joined, *chunks]), *parts]


def _letter_words(parts: list[str], have: list[str]) -> list[str]:
    """A one-letter part joined to the word after it (`GZipDecoder` -> `gzip`, `OAuthClient` ->
    `oauth`, `iOSVersion` -> `ios`): a prefix letter written capitalised splits off its word, which
    a reader searches for whole; without it, `gzip` found no `GZipDecoder` but through its prose.

    >>> _letter_words(["g", "zip", "decoder"], ["gzipdecoder"]), _letter_words(["get", "x"], ["getx"])
    (['gzip'], [])
    """
    out: list[str] = []
    for letter, word in pairwise(parts):
        form = letter + word
        if (
            len(letter) == 1
            and letter.isalpha()
            and word[:1].isalpha()
            and form not in have
            and form not in out
        ):
            out.append(form)
    return out


def _chunk_forms(segment: str, joined: str) -> list[str]:
    """The joined forms of the `_`- or `$`-separated chunks of `segment` that are several words
    themselves: `cJSON_Parse` -> `cjson`, `SDL_CreateWindow` -> `createwindow`. A prefixed C API
    names its prefix and its verb in camel case, and a reader searches for either as written
    (`cJSON`, `CreateWindow`), whose joined form is one term: without these, only its parts matched.

    >>> _chunk_forms("cJSON_Parse", "cjsonparse"), _chunk_forms("parse_config", "parseconfig")
    (['cjson'], [])
    """
    if "_" not in segment and "$" not in segment:
        return []
    out: list[str] = []
    for chunk in _CHUNK_SEP_RE.split(segment):
        parts = split_identifier(chunk)
        form = "".join(parts)
        if len(parts) > 1 and form != joined and form not in out and len(form) <= MAX_TERM_CHARS:
            out.append(form)
    return out


def _token_terms(token: str) -> tuple[str, ...]:
    """All terms of one identifier-like token, whole forms before parts."""
    if len(token) > MAX_TOKEN_CHARS:
        return ()
    if "." not in token:
        return tuple(_segment_terms(token)[1])
    forms: list[str] = []
    per_segment: list[str] = []
    for segment in token.split("."):
        joined, terms = _segment_terms(segment)
        if joined:
            forms.append(joined)
            per_segment.extend(terms)
    out: list[str] = []
    if len(forms) >= 2:
        out.append(".".join(forms))
        if len(forms) >= 3:
            out.extend(f"{a}.{b}" for a, b in pairwise(forms))
    out = [t for t in out if len(t) <= MAX_TERM_CHARS]
    out.extend(per_segment)
    return tuple(out)


class _TermCache(dict[str, tuple[str, ...]]):
    """token -> terms. Source repeats identifiers heavily, so most lookups hit and stay in C."""

    def __missing__(self, token: str) -> tuple[str, ...]:
        terms = _token_terms(token)
        self[token] = terms
        return terms


_cache = _TermCache()


def code_terms(text: str) -> list[str]:
    """The index terms of a piece of source or prose, in text order (duplicates kept for BM25 tf).

    >>> code_terms("cfg = parseConfig(os.path.join(d, 'x'))")
    ['cfg', 'parseconfig', 'parse', 'config', 'os.path.join', 'os.path', 'path.join', 'os', 'path', 'join', 'd', 'x']
    """
    if len(_cache) > _CACHE_LIMIT:
        _cache.clear()
    return list(chain.from_iterable(map(_cache.__getitem__, _TOKEN_RE.findall(text))))


def _unique(terms: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(terms))


def query_terms(text: str) -> list[str]:
    """The terms of query text: `code_terms` deduplicated (first occurrence order), plus joined pairs.

    Two adjacent words separated only by spaces or hyphens also emit their concatenation, so the query
    `parse config` carries `parseconfig`, the whole-identifier term of `parse_config` / `ParseConfig`,
    and ranks the definition above text that merely mentions both words. Phrase queries need positions
    and should use `code_terms` instead.
    """
    terms = _unique(code_terms(text))
    prev_end = -1
    prev_form = ""
    for m in _TOKEN_RE.finditer(text):
        token = m.group()
        form = "" if "." in token or len(token) > MAX_TOKEN_CHARS else "".join(split_identifier(token))
        if prev_form and form and _JOINABLE_GAP_RE.fullmatch(text, prev_end, m.start()):
            pair = prev_form + form
            if len(pair) <= MAX_TERM_CHARS and pair not in terms:
                terms.append(pair)
        prev_end, prev_form = m.end(), form
    return terms


def trigrams(name: str) -> set[str]:
    """pg_trgm trigrams: lower-case, split into alphanumeric words, pad each as `"  w "`.

    >>> sorted(trigrams("cat"))
    ['  c', ' ca', 'at ', 'cat']
    """
    out: set[str] = set()
    for word in _ALNUM_RUN_RE.findall(_lower(name)):
        padded = f"  {word} "
        out.update(padded[i : i + 3] for i in range(len(padded) - 2))
    return out


def trigram_similarity(a: str, b: str) -> float:
    """Jaccard similarity of the trigram sets, as pg_trgm's `similarity()`: 0.3 means what it means there.

    Two names without any letters or digits have no trigrams; they score 1.0 only when equal.
    """
    ta = trigrams(a)
    tb = trigrams(b)
    if not ta or not tb:
        return 1.0 if a == b else 0.0
    if a == b:
        return 1.0
    shared = len(ta & tb)
    return shared / (len(ta) + len(tb) - shared)


def _typo_budget(length: int) -> int:
    """Edits a typed name of this length may hold and still mean a name (Elasticsearch's `AUTO`
    fuzziness: none under 3 characters, one up to 5, two from 6)."""
    return 0 if length < 3 else 1 if length < 6 else 2


def _edits(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance (insert, delete, substitute, swap neighbours), or
    `limit + 1` as soon as it must exceed `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        before, row = row, current
    return row[-1]


def name_similarity(typed: str, name: str) -> float:
    """How near a typed name is to a definition's name, in [0, 1]: pg_trgm's trigram similarity, or,
    when the two are a typo apart (their lower-case, separator-free forms within `_typo_budget`
    edits of each other), `1 - edits / length` if that is higher.

    Trigrams alone hardly tell the name a typo misspells from a name it contains: `ShouldBindJSN` is
    0.71 like `ShouldBindJSON`, one edit away, and 0.67 like `ShouldBind`, whose shorter body then
    wins on BM25.

    >>> round(name_similarity("ShouldBindJSN", "ShouldBindJSON"), 2)
    0.93
    >>> round(name_similarity("ShouldBindJSN", "ShouldBind"), 2)
    0.67
    """
    gram = trigram_similarity(typed, name)
    a = "".join(_ALNUM_RUN_RE.findall(_lower(typed)))
    b = "".join(_ALNUM_RUN_RE.findall(_lower(name)))
    budget = _typo_budget(len(a))
    if not budget or not b:
        return gram
    edits = _edits(a, b, budget)
    return gram if edits > budget else max(gram, 1.0 - edits / max(len(a), len(b)))
