"""Query text -> a parsed Query -> a route. Pure: no engine, no I/O.

Owns: the user-facing query syntax (bare terms, "exact phrases", prefix*, filters lang: path: kind:
repo: and their negations) and the classification of a query as an identifier, a signature/lexical fragment,
or natural language, which decides how the retrieval streams are weighted (the three kinds of
developer query). Anything that is not our syntax is kept as literal text: user input never reaches
Tantivy's query parser unescaped, so `foo:bar`, `(`, `AND` or a lone quote are searched, not errors.
"""

import re
from enum import StrEnum

import msgspec

from indexlib.errors import UsageError
from indexlib.pathglob import compile_glob
from indexlib.records import NodeKind
from indexlib.retrieval.declared import CODE_STATEMENT, DEFINITION_START, declared_name
from indexlib.retrieval.scope import CODE_SPAN, code_spans_of, scope_of

MAX_QUERY_CHARS = 4096  # longer text is cut: BM25 over 100 kB of terms helps nobody and costs time

LANGUAGE_ALIASES: dict[str, str] = {
    "py": "python",
    "python": "python",
    "js": "javascript",
    "jsx": "javascript",
    "javascript": "javascript",
    "ts": "typescript",
    "typescript": "typescript",
    "tsx": "tsx",
    "go": "go",
    "golang": "go",
    "java": "java",
    "rs": "rust",
    "rust": "rust",
    "c": "c",
    "h": "c",
    "cpp": "cpp",
    "c++": "cpp",
    "cc": "cpp",
    "cxx": "cpp",
    "cs": "csharp",
    "c#": "csharp",
    "csharp": "csharp",
    "rb": "ruby",
    "ruby": "ruby",
    "php": "php",
    "kt": "kotlin",
    "kotlin": "kotlin",
    "swift": "swift",
    "scala": "scala",
    "lua": "lua",
    "sh": "bash",
    "bash": "bash",
    "shell": "bash",
    "vue": "vue",
    "svelte": "svelte",
    "md": "markdown",
    "markdown": "markdown",
    "text": "text",
    "txt": "text",
}

KIND_ALIASES: dict[str, str] = {k.value: k.value for k in NodeKind} | {
    "func": "function",
    "fn": "function",
    "def": "function",
    "class": "class",
    "alias": "type",
    "const": "constant",
    "var": "constant",
    "variable": "constant",
    "property": "field",
    "prop": "field",
    "doc": "section",
    "docs": "section",
}


class Route(StrEnum):
    """How a query reads; it sets the stream weights."""

    IDENTIFIER = "identifier"  # ParseConfig, parse_config, Server.Handle, std::fs::read
    SIGNATURE = "signature"  # func (s *Server) Handle, def parse(path: str)
    KEYWORDS = "keywords"  # parse config, retry charge: a few plain words, maybe a name spelled out
    NATURAL = "natural"  # how does billing retry a failed charge


class Query(msgspec.Struct, kw_only=True):
    """A parsed query. `text` is the searchable part (terms, phrases, prefixes) as typed."""

    raw: str
    text: str
    terms: list[str] = []
    phrases: list[str] = []
    prefixes: list[str] = []
    negated: list[str] = []
    langs: list[str] = []
    paths: list[str] = []
    excludes: list[str] = []
    kinds: list[str] = []
    # repo: / -repo: regular expressions over a workspace's repository names (workspace/repofilter.py)
    repos: list[str] = []
    exclude_repos: list[str] = []
    scope: str = ""  # the area a commit-style title names first: `parser: x` -> `parser`
    code_spans: list[str] = []  # text typed in backticks (`Semaphore`, `--help`): code, not prose
    kind_spellings: dict[str, str] = {}  # a kind as read -> as typed (`field` -> `property`), for notes
    open_quote: bool = False  # a phrase's quote is never closed: the rest of the query is the phrase

    @property
    def is_blank(self) -> bool:
        return not (self.terms or self.phrases or self.prefixes)

    def nothing_to_search(self) -> tuple[str, str]:
        """(what is wrong, what to do) for a query with nothing to search for and no filter to list by,
        worded true of what it holds: `-word` is an exclusion, so `qry search -- -foo` asks for nothing."""
        if not self.negated:
            return (
                "the query is blank: there is nothing to search for",
                "add what to look for, e.g. qry search retry",
            )
        shown = " ".join(f'-"{w}"' if " " in w else f"-{w}" for w in self.negated)
        return (
            f"the query only excludes words ({shown}): there is nothing to search for",
            f"add a word to search for, e.g. qry search -- 'retry {shown}'; to search for a word that "
            f"starts with a dash, quote it: qry search -- '\"-{self.negated[0]}\"'",
        )

    @property
    def words(self) -> list[str]:
        """Every searchable word, phrases split: what snippets highlight and the router reads."""
        out = list(self.terms)
        for p in self.phrases:
            out.extend(p.split())
        out.extend(self.prefixes)
        return out


_TOKEN = re.compile(r'(-?)(?:(\w+):("([^"]*)"?|\S+)|"([^"]*)"?|(\S+))', re.UNICODE)
# After the first dash: a second one and a word character. `qry search "where is --help added"` names
# the flag; read as `-word` it would silently drop every result holding "help".
# A short flag, alone or beside its long form (`-H`, `-e/--extension`): one character excludes nothing.
_SHORT_FLAG = re.compile(r"[A-Za-z0-9](?:[/,]--?[\w-]+)?")
_LONG_FLAG = re.compile(r"-+\w")
_FILTER_KEYS = {"lang", "language", "path", "file", "kind", "exclude", "repo"}
_PASTED_PAIR = re.compile(r'[\w.-]+[:=]"[^"\s]+"')  # a key and its quoted value, one token
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def without_filters(text: str) -> str:
    """`text` without its filter tokens (`lang:go`, `repo:^api`, `-path:tests/**`): the words a
    workspace asks every index's statistics about. Text without a filter comes back unchanged.

    >>> without_filters('retry charge lang:go -repo:"old api"'), without_filters("std::fs read")
    ('retry charge', 'std::fs read')
    """
    kept: list[str] = []
    dropped = False
    for m in _TOKEN.finditer(text):
        key = m.group(2)
        if key is not None and key.lower() in _FILTER_KEYS:
            dropped = True
        else:
            kept.append(m.group(0))
    return " ".join(kept) if dropped else text


def well_formed(text: str) -> str:
    """`text` with lone surrogates replaced by U+FFFD, so it can be written as UTF-8.

    Python hands argv bytes that are not UTF-8 to the program as lone surrogates (surrogateescape), and
    the MCP server's JSON `\\ud800` escapes decode to them. Tantivy refuses them as terms and every UTF-8
    writer (`--json`, the terminal) raises on them, so query text is made well-formed once, on entry.

    >>> well_formed("caf\\udce9 charge")
    'caf\ufffd charge'
    """
    if text.isascii():  # the common case costs one scan
        return text
    # One U+FFFD per surrogate, as a UTF-8 decoder with errors="replace" gives for one bad argv byte
    # (`encode("utf-8", "surrogatepass").decode("utf-8", "replace")` would give three).
    return _SURROGATE.sub("\ufffd", text)


def normalize_lang(value: str) -> str:
    lang = LANGUAGE_ALIASES.get(value.lower())
    if lang is None:
        known = ", ".join(sorted(set(LANGUAGE_ALIASES.values())))
        raise UsageError(f"unknown language {value!r}", hint=f"use one of: {known}")
    return lang


def normalize_kind(value: str) -> str:
    kind = KIND_ALIASES.get(value.lower())
    if kind is None:
        known = ", ".join(k.value for k in NodeKind)
        aliases = ", ".join(f"{a} ({k})" for a, k in KIND_ALIASES.items() if a != k)
        raise UsageError(f"unknown kind {value!r}", hint=f"use one of: {known}; or an alias: {aliases}")
    return kind


def _add_phrase(q: Query, shown: list[str], phrase: str, *, typed: str, negated: bool) -> None:
    """A `"quoted phrase"` (`-"..."` leaves it out); `typed` as written, to know a quote never closed."""
    bare = typed.lstrip("-")
    q.open_quote = q.open_quote or len(bare) < 2 or not bare.endswith('"')
    phrase = phrase.strip()
    if phrase and negated:
        q.negated.append(phrase)
    elif phrase:
        q.phrases.append(phrase)
        shown.append(phrase)


def parse_query(
    raw: str,
    *,
    langs: list[str] | None = None,
    paths: list[str] | None = None,
    excludes: list[str] | None = None,
    kinds: list[str] | None = None,
    repos: list[str] | None = None,
) -> Query:
    """Parse query text plus option filters into a Query.

    >>> q = parse_query('retry "failed charge" lang:py -path:tests/* pars* -repo:^vue')
    >>> (q.terms, q.phrases, q.prefixes, q.langs, q.excludes, q.exclude_repos)
    (['retry'], ['failed charge'], ['pars'], ['python'], ['tests/*'], ['^vue'])
    """
    raw = well_formed(raw)
    text = _CONTROL.sub(" ", raw)[:MAX_QUERY_CHARS]
    q = Query(raw=raw, text="")
    shown: list[str] = []
    code = [m.span() for m in CODE_SPAN.finditer(text)]
    for m in _TOKEN.finditer(text):
        neg, key, fval, fquoted, quoted, bare = m.groups()
        if key is not None and key.lower() in _FILTER_KEYS:
            if fval.startswith('"') and (len(fval) == 1 or not fval.endswith('"')):
                raise UsageError(
                    f"the filter {key}: has a quote that is never closed: {m.group(0)}",
                    hint=f'close it: {key}:"src/**"',
                )
            value = fquoted if fquoted is not None else fval
            _add_filter(q, key.lower(), value, negated=bool(neg))
            continue
        if key is not None:  # `foo:bar` that is not a filter: literal text (e.g. `std::fs`, `http://`)
            bare = m.group(0).lstrip("-") if not neg else m.group(0)[1:]
            if neg:
                q.negated.append(bare)
                continue
        if not neg and bare is not None and _PASTED_PAIR.fullmatch(bare):
            # `binding:"required"`, `json:"name,omitempty"`, `type="submit"`: a pasted struct tag or
            # attribute, wanted as written (its words alone found `Binding` interfaces first).
            _add_phrase(q, shown, bare, typed=bare, negated=False)
            continue
        if quoted is not None:
            _add_phrase(q, shown, quoted, typed=m.group(0), negated=bool(neg))
            continue
        if bare is None:
            continue
        if re.fullmatch(r"-?(?:lang|language|path|file|kind|exclude|repo):", bare, re.IGNORECASE):
            key_only = bare.lstrip("-").rstrip(":")
            raise UsageError(f"the filter {key_only}: has no value", hint=f"write {key_only}:VALUE")
        coded = any(a < m.start() < b for a, b in code)
        if neg and (
            coded or _LONG_FLAG.match(bare) or _SHORT_FLAG.fullmatch(bare) or not re.search(r"\w", bare)
        ):
            # `--max-count`, `-H`, `-e/--extension`: a flag named in a sentence, not an exclusion;
            # nor is `--` or `->`, which hold no word to leave out, nor code typed in backticks (`set -u`)
            q.terms.append("-" + bare)
            shown.append("-" + bare)
            continue
        if neg and len(bare) > 0:
            q.negated.append(bare)
            continue
        if neg:
            bare = "-" + bare
        if bare.endswith("*") and len(bare.rstrip("*")) >= 2 and re.fullmatch(r"[\w.$:]+\*+", bare):
            q.prefixes.append(bare.rstrip("*"))
            shown.append(bare.rstrip("*"))
            continue
        q.terms.append(bare)
        shown.append(bare)
    q.text = " ".join(shown)
    q.scope = scope_of(text)
    q.code_spans = code_spans_of(text)
    _add_options(q, langs or [], paths or [], excludes or [], kinds or [], repos or [])
    return q


def _add_options(
    q: Query, langs: list[str], paths: list[str], excludes: list[str], kinds: list[str], repos: list[str]
) -> None:
    """The filters given as options (`--lang`, `--path`, ...), checked as their inline forms are."""
    for lang in langs:
        q.langs.append(normalize_lang(lang))
    for kind in kinds:
        q.kinds.append(normalize_kind(kind))
        q.kind_spellings.setdefault(q.kinds[-1], kind)
    for pattern in repos:
        q.repos.append(check_repo_pattern(well_formed(pattern)))
    q.paths.extend(well_formed(p) for p in paths)
    q.excludes.extend(well_formed(p) for p in excludes)
    for glob in [*paths, *excludes]:
        compile_glob(glob)  # --path / --exclude globs are checked like path: filters


# Syntax that means something in a regular expression and nothing in qry's query language; `|` only
# between two branches (`get|set`), not opening a word (Jinja's `|default`, a pipe) nor in `||`.
_REGEX = r"\.[*+?]|\\[dwsbDWSB]|\[[^\]\s]*-[^\]\s]*\]|\(\?|(?<=[^|\s])\|[^|\s]|^\^|\$$|\{\d+(,\d*)?\}"
_REGEX_SYNTAX = re.compile(_REGEX)


# A backslash-qualified name (PHP's `Slim\\Handlers\\Strategies`): its `\\S` is no regex class.
_BACKSLASH_NAME = re.compile(r"\\?(?:[A-Z]\w*\\)+[A-Za-z_]\w*")


def regex_syntax(text: str) -> str | None:
    """The first piece of `text` that reads as regular-expression syntax (`.*`, `\\w`, `[a-z]`, `^`),
    or None. `qry search` takes such a query as words: callers say so and point to `qry grep`. Filter
    tokens are not words: a `path:` glob (`path:src/*.c`) and a `repo:` regex mean what they say.

    >>> regex_syntax("def .*_request"), regex_syntax("parse config"), regex_syntax("x path:a/*.c")
    ('.*', None, None)
    """
    m = _REGEX_SYNTAX.search(_BACKSLASH_NAME.sub("", without_filters(text).strip()))
    return m.group(0) if m else None


def _add_filter(q: Query, key: str, value: str, *, negated: bool) -> None:
    if not value:
        raise UsageError(f"the filter {key}: has no value", hint=f'write {key}:VALUE, e.g. {key}:"src/**"')
    if key in ("path", "file", "exclude"):
        compile_glob(value)  # an invalid glob is an error now, not a filter that silently matches nothing
    if key in ("lang", "language"):
        (q.langs if not negated else q.negated).append(
            normalize_lang(value) if not negated else f"lang:{value}"
        )
        if negated:
            raise UsageError("-lang: is not supported", hint="name the languages you want with lang:")
    elif key in ("path", "file"):
        (q.excludes if negated else q.paths).append(value)
    elif key == "exclude":
        q.excludes.append(value)
    elif key == "kind":
        if negated:
            raise UsageError("-kind: is not supported", hint="name the kinds you want with kind:")
        q.kinds.append(normalize_kind(value))
        q.kind_spellings.setdefault(q.kinds[-1], value)
    elif key == "repo":
        (q.exclude_repos if negated else q.repos).append(check_repo_pattern(value))


def check_repo_pattern(pattern: str) -> str:
    """`pattern` if it compiles as the regular expression a `repo:` filter is; else a UsageError.

    >>> check_repo_pattern("^core$")
    '^core$'
    """
    try:
        re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        # Said without `repo:`: the same pattern comes from `--repo` and the MCP `repo` argument too.
        raise UsageError(
            f"{pattern!r} is not a valid regular expression for repository names ({exc})",
            hint="repo: and --repo take a regular expression over repository names: repo:^core$, --repo '^core$'",
        ) from None
    return pattern


_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9]*$")
# English function words: a query holding one reads as a sentence, not as a name spelled out.
FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "did",
        "for",
        "from",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "we",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "you",
        "your",
        "there",
        "their",
        "they",
        "should",
        "would",
        "could",
        "get",
        "gets",
        "find",
        "show",
        "use",
        "used",
        "using",
    ]
)
# A Ruby name may end in `!` or `?` (`route!`, `empty?`): a method of its own, not `route`. A C++
# destructor's name opens with `~` (`~logger`, `logger::~logger`); an annotation or decorator with `@`.
# A Swift or Objective-C method is named with its argument labels (`request(_:method:)`, DocC's
# `validate(statusCode:)`): the name before them is the identifier.
_IDENT = re.compile(
    r"^(?:\\|@)?~?[A-Za-z_$][\w$]*(?:(?:\.|::|->|#|\\)~?[A-Za-z_$][\w$]*)*[!?]?(?:\(?\)?|\((?:\w+:)+\))$"
)
SELECTOR = re.compile(r"\(((?:\w+:)+)\)$")  # the labels `(_:method:)` of a Swift or Objective-C name
# Code, not prose: a definition keyword opening the query, a call or parameter list glued to a name,
# operators and punctuation English does not use. Words like "class" or "string" inside a sentence and
# a parenthesised aside "(ABC)" stay natural language (the evaluation found both misrouted before).
_SIGNATURE_HINTS = re.compile(
    r"^\s*(?:def|func|fn|fun|function|class|struct|interface|impl|public|private|protected|static|async|"
    r"const|let|var|val|pub|type|enum|trait|void|export)\s+[\w(*&]"
    r"|\w\(|\w<\w|->|=>|::|[{};*&=\[\]]|\w:\s*\w"
)


# A prose word: letters only, maybe capitalised, maybe ending in sentence punctuation (`notation.`,
# `lex:`). Identifiers (`get_flag`, `parseConfig`, `a.b`) and code punctuation are not.
_PROSE_WORD = re.compile(r"^[(\"'`]?[A-Za-z][a-z]*(?:'[a-z]+)?[)\"'`]?[.,;:!?]?$")
PROSE_MIN_WORDS = 4
PROSE_SHARE = 0.6


def reads_as_prose(words: list[str]) -> bool:
    """True for a sentence, even one holding a name or punctuation (`parser: Don't report x in y`).

    Why: commit titles, bug reports and doc sentences mix a few identifiers and colons into English;
    read as a signature they would lose the prose weighting. Most of their words are plain words.
    """
    if len(words) < PROSE_MIN_WORDS:
        return False
    plain = sum(1 for w in words if _PROSE_WORD.match(w))
    return plain >= PROSE_SHARE * len(words)


def _regex_escape(word: str) -> bool:
    """`\\bfoo\\b` is a regular expression, `Slim\\App` a PHP name."""
    return "\\" in word and regex_syntax(word) is not None


def classify(q: Query) -> Route:
    """Route a query: one identifier-looking token, code punctuation or keywords, or prose.

    Why not ask a model: the three classes differ in surface form, a regex decides in
    microseconds, and misrouting only shifts stream weights, it never drops a stream.
    """
    words = q.text.split()
    if not words:
        return Route.NATURAL
    if len(words) == 1 and not q.phrases and _IDENT.match(words[0]) and not _regex_escape(words[0]):
        return Route.IDENTIFIER
    if DEFINITION_START.search(q.text) or CODE_STATEMENT.search(q.text):
        return Route.SIGNATURE
    if (
        len(words) <= 4
        and not q.phrases
        and all(_WORD.match(w) and w.lower() not in FUNCTION_WORDS for w in words)
    ):
        return Route.KEYWORDS
    if reads_as_prose(words):
        return Route.NATURAL
    if _SIGNATURE_HINTS.search(q.text):
        return Route.SIGNATURE
    return Route.NATURAL


def identifier_of(q: Query, route: Route | None = None) -> str | None:
    """The name an identifier query names (without call parentheses), as typed, or the joined words
    of a keywords query in lower case (`Parse Config` -> `parse_config`: words say nothing of a name's
    case), the name a signature declares (`declared_name`), else None. `route` overrides `classify(q)`."""
    route = classify(q) if route is None else route
    if route is Route.IDENTIFIER:
        name = SELECTOR.sub("", q.text.split()[0])  # `request(_:method:)`: the method `request`
        return name.rstrip("()").removeprefix("@")  # `@ToJson`: the annotation's name
    if route is Route.KEYWORDS and len(q.text.split()) > 1:
        return "_".join(q.text.lower().split())
    if route is Route.SIGNATURE:
        return declared_name(q.text)
    return None


def term_prefix(prefix: str) -> str:
    """A typed prefix as the index's terms can start with it: lower case, without the separators it
    ends in (`required_*`, `Foo.*` -> `required`, `foo`), which no analysed term holds."""
    lowered = prefix.lower()
    return lowered.rstrip("_-.:/$#@") or lowered
