"""Path globs of `--path`, `path:` and `-path:`, matched without regular expressions. Pure.

Owns: the glob syntax (ripgrep-like: `*` and `?` stay within a folder, `**` as a whole component
spans any number of folders, `[abc]` / `[!a-z]` classes, `{a,b}` alternatives (nestable), `\\`
escapes the next character; a glob without a folder part matches a file or folder name anywhere, a
glob without wildcards names a path and everything under it, `dir/` only folders), its errors (an
unclosed `[` or `{`, an unopened `}`, a reversed range, a `\\` with nothing after it: `glob_error`,
also what grep's `-g` globs are checked against), the expansion of `{a,b}` (`brace_alternatives`,
which grep's `-g` uses too, so both read braces alike) and its bounds. Does not own: which paths exist (`streams.build_filters` runs a glob over the manifest's
paths).

Why no regex: a glob translated to a backtracking regex can take exponential time (`**/` repeated 40
times took 44 s on one path list, and held the GIL, freezing the MCP server). Here a path is split
into components and matched against the glob's components by dynamic programming (one pass over
the path per glob component: O(glob components x path components) component tests), consecutive
`**` collapse into one, and a component test is the linear greedy wildcard match (it only ever
backtracks to the last `*`: O(name x pattern) at worst). Globs are also bounded in size.

Braces, as ripgrep reads them (its globset): `{a,b}` is expanded into one glob per alternative, each
matched as above (bounded: `MAX_GLOB_ALTERNATIVES`). Whether a glob is anchored and whether it names
only folders is decided by the glob as written, as in gitignore: `{src/**,b.md}` has a folder part,
so its `b.md` is the top-level file only, and an alternative that alone ends in `/` (`{src/,b}`)
names no file and is dropped. An empty alternative is dropped too (`a{b,}` is `ab`, `{}` matches
nothing): both are what rg 15 does. Braces inside `[...]` and escaped ones (`\\{`) are literal.
"""

from __future__ import annotations

from dataclasses import dataclass

from indexlib.errors import UsageError

__all__ = [
    "MAX_BRACE_DEPTH",
    "MAX_GLOB_ALTERNATIVES",
    "MAX_GLOB_CHARS",
    "PathGlob",
    "brace_alternatives",
    "compile_glob",
    "glob_error",
]

MAX_GLOB_CHARS = 1000  # longer path globs are refused (a real one is rarely over 100 characters)
MAX_GLOB_ALTERNATIVES = 256  # globs one `{a,b}{c,d}...` glob may spell (`*.{ts,tsx,js,jsx}` is 4)
MAX_BRACE_DEPTH = 16  # `{a,{b,{c}}}` nesting; the parser recurses once per level

# Component tokens: a literal character (str of length 1), or one of these, or a class.
_ANY = "?"
_STAR = "*"


@dataclass(frozen=True, slots=True)
class _Class:
    """`[...]`: a set of characters and ranges, possibly negated."""

    chars: frozenset[str]
    ranges: tuple[tuple[str, str], ...]
    negated: bool

    def matches(self, c: str) -> bool:
        hit = c in self.chars or any(lo <= c <= hi for lo, hi in self.ranges)
        return hit != self.negated


_Token = str | _Class
_Component = tuple[_Token, ...] | None  # None: `**`


_HINT = "use * and ? within a folder, ** across folders, [abc] for one of a set (\\[ for a literal [)"
_BRACE_HINT = "write {a,b} for one of a or b; escape a literal brace as \\{ or [{] (\\} or [}])"


def glob_error(glob: str, why: str, hint: str = _HINT) -> UsageError:
    """The error for a glob that cannot be read: every glob option (`path:`, `--path`, grep's `-g`)
    says it the same way, naming the glob and what is wrong with it, as ripgrep does."""
    return UsageError(f"invalid path glob {glob[:80]!r}: {why}", hint=hint)


def _class_end(text: str, start: int) -> int:
    """The index after the `[...]` class opening at `start` (`_class`'s reading, without checks);
    `len(text)` when it is unclosed (`_class` then reports it)."""
    i = start + 1
    if i < len(text) and text[i] in "!^":
        i += 1
    first = True
    while i < len(text) and (text[i] != "]" or first):
        i += 2 if text[i] == "\\" else 1
        first = False
    return min(i + 1, len(text))


def _expand(text: str, i: int, in_group: bool, shown: str, depth: int = 0) -> tuple[list[str], int]:
    """The globs the sequence starting at `i` spells, and where it ends: at the end of `text`, or
    (`in_group`) at the `,` or `}` that closes this alternative. Escapes and classes stay as written.
    `depth`: how many groups enclose `i` (bounded by MAX_BRACE_DEPTH, so hostile input cannot
    exhaust the stack)."""
    out = [""]
    while i < len(text):
        c = text[i]
        if c == "{":
            if depth >= MAX_BRACE_DEPTH:
                raise glob_error(
                    shown, f"alternate groups nested more than {MAX_BRACE_DEPTH} deep", _BRACE_HINT
                )
            alternatives, i = _group(text, i + 1, shown, depth + 1)
            out = [head + alt for head in out for alt in alternatives]
            if len(out) > MAX_GLOB_ALTERNATIVES:
                raise glob_error(shown, f"more than {MAX_GLOB_ALTERNATIVES} alternatives", _BRACE_HINT)
            continue
        if c == "}" and not in_group:
            raise glob_error(shown, "unopened alternate group; missing '{'", _BRACE_HINT)
        if in_group and c in ",}":
            return out, i
        end = i + 2 if c == "\\" else _class_end(text, i) if c == "[" else i + 1
        piece = text[i:end]
        out = [head + piece for head in out]
        i = end
    if in_group:
        raise glob_error(shown, "unclosed alternate group; missing '}'", _BRACE_HINT)
    return out, i


def _group(text: str, i: int, shown: str, depth: int) -> tuple[list[str], int]:
    """The non-empty alternatives of the `{...}` whose body starts at `i`, and the index after `}`."""
    alternatives: list[str] = []
    while True:
        spelled, i = _expand(text, i, True, shown, depth)
        alternatives += [s for s in spelled if s]
        i += 1
        if text[i - 1] == "}":
            return alternatives, i


def _trim(glob: str) -> str:
    """A glob without surrounding blanks, leading `./` and `/`: the text whose `/` anchor it."""
    g = glob.strip()
    while g.startswith("./"):
        g = g[2:]
    return g.lstrip("/")


def brace_alternatives(glob: str, shown: str | None = None) -> list[tuple[str, bool]]:
    """The globs `{a,b}` alternation spells, as (glob, anchored), in order; `[(glob, False)]` when
    there is no brace. `anchored`: the glob as written has a folder part the alternative lacks
    (`{src/**,b.md}` -> b.md at the top only). Alternatives that alone name a folder are dropped
    (see the module docstring). UsageError for an unclosed `{` or an unopened `}`."""
    shown = glob if shown is None else shown
    if "{" not in glob and "}" not in glob:
        return [(glob, False)]
    spelled, _end = _expand(glob, 0, False, shown)
    trimmed = _trim(glob)
    has_folder = "/" in trimmed.rstrip("/")
    dir_only = trimmed.endswith("/")
    out: list[tuple[str, bool]] = []
    for alt in spelled:
        t = _trim(alt)
        if t.endswith("/") and not dir_only:
            continue
        out.append((alt, has_folder and "/" not in t.rstrip("/")))
    return out


def _component(text: str, glob: str) -> tuple[_Token, ...]:
    """Tokens of one glob component (no `/` inside)."""
    out: list[_Token] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        if c == "*":
            if not out or out[-1] != _STAR:  # `**` inside a name is `*` (as in gitignore)
                out.append(_STAR)
        elif c == "?":
            out.append(_ANY)
        elif c == "[":
            cls, i = _class(text, i, glob)
            out.append(cls)
            continue
        else:
            out.append(c)
        i += 1
    return tuple(out)


def _class(text: str, start: int, glob: str) -> tuple[_Class, int]:
    """Parse `[...]` at `start`; return it and the index after `]`."""
    i = start + 1
    negated = i < len(text) and text[i] in "!^"
    if negated:
        i += 1
    chars: set[str] = set()
    ranges: list[tuple[str, str]] = []
    first = True
    while i < len(text) and (text[i] != "]" or first):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            i += 1
            c = text[i]
        if i + 2 < len(text) and text[i + 1] == "-" and text[i + 2] != "]":
            lo, hi = c, text[i + 2]
            if lo > hi:
                raise glob_error(glob, f"invalid range; {lo!r} > {hi!r}")
            ranges.append((lo, hi))
            i += 3
        else:
            chars.add(c)
            i += 1
        first = False
    if i >= len(text):
        raise glob_error(glob, "unclosed character class; missing ']'")
    return _Class(frozenset(chars), tuple(ranges), negated), i + 1


def _match_name(pattern: tuple[_Token, ...], name: str) -> bool:
    """Greedy wildcard match of one path component; backtracks only to the last `*`."""
    p = n = 0
    star_p = star_n = -1
    while n < len(name):
        tok = pattern[p] if p < len(pattern) else None
        if tok == _STAR:
            star_p, star_n = p, n
            p += 1
            continue
        if tok is not None and (
            tok == _ANY or (isinstance(tok, _Class) and tok.matches(name[n])) or tok == name[n]
        ):
            p += 1
            n += 1
            continue
        if star_p < 0:
            return False
        star_n += 1  # let the last `*` take one more character, retry after it
        p, n = star_p + 1, star_n
    while p < len(pattern) and pattern[p] == _STAR:
        p += 1
    return p == len(pattern)


class PathGlob:
    """A compiled path glob; `search(path)` says whether a POSIX relative path matches.

    >>> g = compile_glob("src/**/*.py")
    >>> g.search("src/a/b.py"), g.search("src/b.py"), g.search("lib/src/b.py")
    (True, True, False)
    >>> compile_glob("*.{toml,md}").search("docs/a.md")
    True
    """

    __slots__ = ("_alternatives", "text")

    def __init__(self, glob: str, shown: str | None = None) -> None:
        self.text = glob
        shown = glob if shown is None else shown
        if len(glob) > MAX_GLOB_CHARS:
            raise glob_error(shown, f"{len(glob):,} characters, more than {MAX_GLOB_CHARS:,}")
        if (len(glob) - len(glob.rstrip("\\"))) % 2:  # an odd run of backslashes at the end
            raise glob_error(shown, "dangling '\\'")
        self._alternatives = tuple(
            _OneGlob(alt, shown, anchored) for alt, anchored in brace_alternatives(glob, shown)
        )

    def search(self, path: str) -> bool:
        return any(alt.search(path) for alt in self._alternatives)


class _OneGlob:
    """One glob without braces (an alternative of a `PathGlob`); `anchored`: match the whole path
    even without a folder part (the braced glob it came from had one)."""

    __slots__ = ("_dir_only", "_mode", "_parts", "_plain")

    def __init__(self, glob: str, shown: str, anchored: bool) -> None:
        g = _trim(glob)
        if g in ("", "."):
            g = "**"
        self._dir_only = g.endswith("/")
        g = g.rstrip("/")
        raw = [c for c in g.split("/") if c not in ("", ".")]
        parts: list[_Component] = []
        for comp in raw:
            tokens = None if comp == "**" else _component(comp, shown)
            if tokens is None and parts and parts[-1] is None:
                continue  # `**/**` is `**`
            parts.append(tokens)
        self._parts = parts
        wild = any(ch in g for ch in "*?[\\")  # an escape too: `_component` reads it, not `_plain`
        # "name": one component, matched against any component; "plain": a path and what is under it.
        self._mode = "name" if len(raw) <= 1 and not anchored else ("full" if wild else "plain")
        self._plain = "/".join(raw)

    def search(self, path: str) -> bool:
        comps = path.split("/")
        if self._mode == "plain":
            return (path == self._plain and not self._dir_only) or path.startswith(self._plain + "/")
        if self._mode == "name":
            (part,) = self._parts or [None]
            if part is None:
                return True
            candidates = comps[:-1] if self._dir_only else comps
            return any(_match_name(part, c) for c in candidates)
        return self._full(comps)

    def _full(self, comps: list[str]) -> bool:
        """Glob components against path components; `**` takes zero or more (one or more at the end,
        so `src/**` names what is inside src). A glob ending in `/` names a folder: any path under it."""
        parts = self._parts
        # reach[i]: the first i glob components can match the path components seen so far.
        reach = [True] + [False] * len(parts)
        for i, part in enumerate(parts):  # `**` at the start matches zero components
            if part is None and reach[i] and i + 1 < len(parts):
                reach[i + 1] = True
        last = len(comps) - 1
        for k, comp in enumerate(comps):
            nxt = [False] * (len(parts) + 1)
            for i, part in enumerate(parts):
                if not reach[i]:
                    continue
                if part is None:
                    nxt[i] = True  # `**` takes this component and may take more
                    nxt[i + 1] = True
                elif _match_name(part, comp):
                    nxt[i + 1] = True
            for i, part in enumerate(parts):  # a `**` reached may also take zero components
                if part is None and nxt[i] and i + 1 < len(parts):
                    nxt[i + 1] = True
            reach = nxt
            if self._dir_only and k < last and reach[len(parts)]:
                return True  # a folder matched: the path is under it
            if not any(reach):
                return False
        return not self._dir_only and reach[len(parts)]


def compile_glob(glob: str, *, shown: str | None = None) -> PathGlob:
    """Compile a path glob; UsageError (exit 2, with a hint) for an invalid or oversized one.

    `shown` is the glob as the user wrote it, for the error (grep's `-g '!src/['`, read as `src/[`)."""
    return PathGlob(glob, shown)
