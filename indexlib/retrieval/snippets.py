"""Bounded snippets: an excerpt of a node centred on its best query-term match. Pure.

Owns: choosing which part of a node's text a result shows, and flagging truncation. A snippet is the
token lever after top-k: callers choose its width (bounds.py: 80..4000 chars), and a reader
always knows whether they saw the whole node. Hits holding no query word (found by their vector, or by
their path or name alone) fall back to their declaration, with as much of the doc comment above it as
fits, else to the head of the node.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

import msgspec

from indexlib.declaration import COMMENT_LINE, bare_signature, past_licence
from indexlib.records import Snippet
from indexlib.retrieval.bounds import SEARCH_BOUNDS
from indexlib.retrieval.names import last_name_part

_WIDTH = SEARCH_BOUNDS.snippet_chars
DEFAULT_CHARS: int = _WIDTH.default or 0
MIN_CHARS, MAX_CHARS = _WIDTH.lo, _WIDTH.hi or _WIDTH.lo


# A stem shorter than this would light up unrelated words (`use` in `user`, `reuse`).
MIN_STEM_CHARS = 4


def _word_pattern(words: Sequence[str], stems: Sequence[str] = ()) -> re.Pattern[str] | None:
    """Match any query word (and its identifier parts) case-insensitively, longest first, and any
    word that starts with one of `stems` (the stemmed forms BM25 matched: `regist` lights up the
    `register` of `register_blueprint` for a question saying "registered")."""
    from indexlib.analyzer import split_identifier

    forms: set[str] = set()
    for w in words:
        w = w.strip()
        if not w:
            continue
        forms.add(w)
        for part in split_identifier(w):
            if len(part) >= 3:
                forms.add(part)
    forms = {f for f in forms if len(f) >= 2}
    prefixes = {s for s in stems if len(s) >= MIN_STEM_CHARS and s not in forms}
    if not forms and not prefixes:
        return None
    alts = [(len(f), re.escape(f)) for f in forms] + [(len(p), re.escape(p) + "[a-z]*") for p in prefixes]
    return re.compile("|".join(a for _n, a in sorted(alts, key=lambda t: -t[0])), re.IGNORECASE)


def _best_match(text: str, pattern: re.Pattern[str]) -> re.Match[str] | None:
    """The first match on the line matching the most different query words: the first match of the
    node, unless a later line holds more of the query (`if response.next_request` is the line
    holding all three words, not an earlier `request: Request`). A match counts each identifier word
    it spells and itself, so a name spelled whole (`c.SilenceUsage`, `module.exports`) outweighs a
    line holding its words apart (`SilenceErrors`, `Module exports`). Among lines of as many words,
    the one spelling more different ones as whole names: `impl Matcher for RegexMatcher`, not an earlier
    `impl Default for RegexMatcherBuilder`, for `impl Matcher for`."""
    from indexlib.analyzer import split_identifier

    best: re.Match[str] | None = None
    best_count = (0, 0)
    line_start, words, whole, first = -1, set[str](), set[str](), None
    spelled: dict[str, frozenset[str]] = {}  # a matched text's words and itself: texts repeat
    for m in pattern.finditer(text):
        start = text.rfind("\n", 0, m.start()) + 1
        if start != line_start:
            line_start, words, whole, first = start, set(), set(), m
        found = m.group()
        if found not in spelled:
            spelled[found] = frozenset([*split_identifier(found), found.lower()])
        words |= spelled[found]
        if _whole(text, m):
            whole.add(found.lower())
        if (len(words), len(whole)) > best_count:
            best, best_count = first, (len(words), len(whole))
    return best


def _whole(text: str, m: re.Match[str]) -> bool:
    """Whether a match is a name of its own, not part of a longer one (`Matcher` in `RegexMatcher`)."""
    before = text[m.start() - 1] if m.start() else " "
    after = text[m.end()] if m.end() < len(text) else " "
    return not (before.isalnum() or before in "_$") and not (after.isalnum() or after in "_$")


SIGNATURE_TOKENS = 4  # leading tokens of a signature that find its line in the node's text


def _declaration(text: str, name: str, signature: str = "") -> re.Match[str] | None:
    """Where the node declares itself: its signature's first tokens (`class HTTPError<T = unknown>`),
    else the first whole-word `name` (its last part: `Slim\\App` -> `App`) on a line that is not a
    comment (the doc comment above a constructor names its class too), else the first one anywhere."""
    tokens = bare_signature(signature).split()[:SIGNATURE_TOKENS]  # past `[Fact]`, `@Override`
    if tokens:
        found = re.search(r"\s+".join(re.escape(t) for t in tokens), text)
        if found is not None:
            return found
    last = last_name_part(name)
    if not last:
        return None
    first = None
    for m in re.finditer(r"(?<![\w$])" + re.escape(last) + r"(?![\w$])", text, re.IGNORECASE):
        if not COMMENT_LINE.match(text, text.rfind("\n", 0, m.start()) + 1):
            return m
        first = first or m
    return first


def make_snippet(
    text: str,
    start_line: int,
    words: Sequence[str],
    width: int = DEFAULT_CHARS,
    *,
    indent: str = "",
    hidden_lines: Collection[int] = (),
    elided: Collection[int] = (),
    stems: Sequence[str] = (),
    declares: str | None = None,
    signature: str = "",
) -> Snippet:
    """Cut `text` (a node starting at `start_line`) to about `width` characters around its first match
    on the line matching the most different query words.

    The window snaps outward to whole lines when that fits, so snippets read as code; the reported
    lines are those the excerpt spans; `truncated` is True when anything of the node was left out.

    `indent` is what the file holds before the node's first character on its first line (a method's
    `def` starts at its indentation), so the first line reads as it does in the file. `hidden_lines`
    are the lines of the file other nodes own when the node is a module remainder (its text keeps
    their line breaks but not their code): a blank text line there is not a blank line of the file,
    so the snippet keeps to the run of the node's own lines that holds the match and never shows
    those lines. `elided` are the lines of a definition whose text is not the file's (nested bodies,
    elision.py): the text leaves them out and names them (`_outline_snippet`). `stems` are the
    query words' stems: a word starting with one counts as a match too. `declares` is the name the
    query asked for when this node defines it: the window opens on its declaration (the line holding
    the first tokens of `signature`, else the first code line spelling the name as a whole word),
    not on a member whose line holds more of its parts (`collectRoutes(): RouteGroupInterface` for
    `RouteGroup`) or on prose naming it in the doc comment. Without a match the window opens on the
    line holding the first tokens of `signature`, when one does (a long doc comment above a method
    would otherwise fill it), else at the node's head.

    >>> s = make_snippet("a\\nb\\ndef charge():\\n  pass\\n", 10, ["charge"], 80)
    >>> (s.start_line, s.truncated, s.text.splitlines()[0])
    (10, False, 'a')
    """
    if elided:
        return _outline_snippet(
            text, start_line, frozenset(elided), words, width, indent, stems, (declares, signature)
        )
    width = max(MIN_CHARS, min(MAX_CHARS, width))
    pattern = _word_pattern(words, stems)
    text = indent + text
    match = _declaration(text, declares, signature) if declares else None
    if match is None and pattern:
        match = _best_match(text, pattern)
    if match is None and signature:  # no query word in it: its declaration, not a long doc above it
        match = _declaration(text, "", signature)
    skip = past_licence(text.split("\n")) if match is None else 0
    if skip:  # no query word in a file's module row: from past its licence header, not the header
        rest = text.split("\n", skip)[-1]
        inner = make_snippet(rest, start_line + skip, words, width, hidden_lines=hidden_lines, elided=elided)
        return msgspec.structs.replace(inner, truncated=True)
    if hidden_lines:
        block, block_line, cut = _own_block(text, start_line, match, frozenset(hidden_lines))
        if cut:
            inner = make_snippet(
                block, block_line, words, width, stems=stems, declares=declares, signature=signature
            )
            return msgspec.structs.replace(inner, truncated=True)
    lo, hi = (0, len(text)) if len(text) <= width else _window(text, match, width)
    excerpt = text[lo:hi]
    first_line = start_line + text.count("\n", 0, lo)
    body = excerpt.rstrip("\n")
    last_line = first_line + body.count("\n")
    highlights = [(m.start(), m.end()) for m in pattern.finditer(body)][:64] if pattern else []
    truncated = lo > 0 or hi < len(text.rstrip("\n"))
    partial = [first_line] if lo > 0 and text[lo - 1] != "\n" else []
    if hi < len(text) and text[hi] != "\n" and not excerpt.endswith("\n") and last_line not in partial:
        partial.append(last_line)
    return Snippet(
        text=body,
        start_line=first_line,
        end_line=last_line,
        truncated=truncated,
        highlights=highlights,
        cut=partial,
    )


def _outline_snippet(
    text: str,
    start_line: int,
    elided: frozenset[int],
    words: Sequence[str],
    width: int,
    indent: str,
    stems: Sequence[str],
    named: tuple[str | None, str],
) -> Snippet:
    """`make_snippet` of a definition whose text elides nested bodies: cut from its text without the
    `elided` lines, which name the lines it leaves out. Those lines are a body's marker and the line
    breaks the body kept, one per line of the file: a class's outline was its members' heads apart
    by as many blank lines as their bodies were long (110 lines of which 90 blank for os-lib's
    `object os` in build.mill), and they spent the snippet's width on nothing. `named` is
    `make_snippet`'s (declares, signature)."""
    rows = [start_line + i for i in range(text.count("\n") + 1) if start_line + i not in elided]
    kept = "\n".join(line for i, line in enumerate(text.split("\n")) if start_line + i not in elided)
    declares, signature = named
    s = make_snippet(
        kept, 0, words, width, indent=indent, stems=stems, declares=declares, signature=signature
    )
    first, last = rows[s.start_line], rows[s.end_line]
    while last + 1 in elided:  # the excerpt's last member's body, which it shows as left out
        last += 1
    return msgspec.structs.replace(
        s,
        start_line=first,
        end_line=last,
        elided=sorted(line for line in elided if first <= line <= last),
        cut=[rows[at] for at in s.cut],
    )


def _window(text: str, match: re.Match[str] | None, width: int) -> tuple[int, int]:
    """The [lo, hi) of `text` (longer than `width`) a snippet shows: at most `width` characters with the
    match a third in, holding the whole line of the match when that line fits (the line a piped hit
    is shown by, `path:line: text`, is then the file's line, not a cut one: `self.regex =
    compile_path` without its `(path)`), starting and ending on whole lines where that costs little."""
    anchor = match.start() if match else 0
    # Centre the first match, but never start past what would leave the window short at the end.
    lo = max(0, min(anchor - width // 3, len(text) - width)) if match else 0
    must_show = 0
    if match is not None:
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.end())
        line_end = len(text) if line_end < 0 else line_end
        must_show = match.end()
        if line_end - line_start <= width:  # the match's line fits: show all of it
            lo = max(min(lo, line_start), line_end - width)
            must_show = line_end
    # Snap to the start of the line if that costs little, and leaves the match in the window (a
    # declaration under a long doc comment is the last line of its node).
    line_start = text.rfind("\n", 0, lo) + 1
    if lo - line_start <= width // 4 and line_start + width >= must_show:
        lo = line_start
    hi = min(len(text), lo + width)
    if hi >= len(text):
        return lo, hi
    line_end = text.rfind("\n", lo, hi)
    if line_end > lo + width // 2 and line_end >= must_show:
        return lo, line_end + 1  # end on a whole line when we keep at least half the window
    # Finish the line cut short when little of it is left, starting as much later (the width is a
    # bound), as long as the window still starts at or before the match's line.
    rest = text.find("\n", hi)
    rest = len(text) if rest < 0 else rest
    keep = text.rfind("\n", 0, match.start()) + 1 if match is not None else 0
    if rest - hi <= width // 4 and lo + (rest - hi) <= keep:
        return lo + (rest - hi), rest
    return lo, hi


def _own_block(
    text: str, start_line: int, match: re.Match[str] | None, hidden: frozenset[int]
) -> tuple[str, int, bool]:
    """The run of lines of `text` that holds `match` (the declaration asked for, else the best
    match; without one the first run), leaving out the blank lines that stand for other nodes' code;
    returns (block text, its first line, cut anything)."""
    lines = text.split("\n")
    runs: list[tuple[int, int]] = []  # [first, last] indexes into `lines` of each run of own lines
    for i, line in enumerate(lines):
        own = line.strip() != "" or (start_line + i) not in hidden
        if not own:
            continue
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    if not runs:
        return text, start_line, False
    chosen = runs[0]
    if match is not None:
        at = text.count("\n", 0, match.start())
        chosen = next((r for r in runs if r[0] <= at <= r[1]), chosen)
    first, last = chosen
    while first < last and not lines[first].strip():  # a run's edge blank lines say nothing
        first += 1
    while last > first and not lines[last].strip():
        last -= 1
    block = "\n".join(lines[first : last + 1])
    whole = first == 0 and last >= len(text.rstrip("\n").split("\n")) - 1
    return block, start_line + first, not whole
