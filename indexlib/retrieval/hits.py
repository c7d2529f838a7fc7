"""A ranked candidate as the hit a person reads: the whole definition, its snippet, the line it is
shown by.

Owns: cutting a hit's snippet from its node (the window of a split definition that holds the match,
or the first window when the query names it), setting the line each hit is shown by, and cutting a
snippet again at its node's declaration when every line of it is one other hits of the file are
shown by (a class whose snippet is the outline line of a member that is a hit itself: printed by that
line too, `path:line` would repeat, and the class would show nothing of its own).
Does not own: which line of a snippet a hit is shown by (hitline.py) or how a snippet is cut
(snippets.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from indexlib.records import Hit, Node, Snippet
from indexlib.retrieval import definitions, streams
from indexlib.retrieval.elision import outline_lines
from indexlib.retrieval.fusion import Candidate
from indexlib.retrieval.hitline import crowded_hits, printed_lines, shown_line
from indexlib.retrieval.query import Query
from indexlib.retrieval.request import SearchRequest
from indexlib.retrieval.snippets import make_snippet
from indexlib.snapshot import Snapshot

__all__ = ["hit_of", "mark_stale", "place_lines", "set_lines"]


def hit_of(snap: Snapshot, c: Candidate, q: Query, opts: SearchRequest, declares: str | None) -> Hit:
    """The hit of candidate `c`: a window of a split definition answers as the definition (its uid,
    its whole span); its snippet is the window holding the match, or the first part when the query
    names it (`declares`)."""
    stored = snap.node(c.uid)
    assert stored is not None
    window = stored.node
    first = snap.first_part(window)
    n = definitions.whole(snap, first)
    rec = snap.manifest.files.get(n.path)
    return Hit.of_node(
        n,
        score=c.score,
        snippet=_snippet(snap, first if declares else window, q, opts, declares),
        provenance=c.provenance,
        explain=c.explain if opts.explain else [],
        last_changed=n.changed_at or (rec.changed_at if rec else None),
        generated=bool(rec and rec.generated),
    )


def _snippet(snap: Snapshot, shown: Node, q: Query, opts: SearchRequest, declares: str | None) -> Snippet:
    outline = outline_lines(shown, snap.nested(shown))
    return make_snippet(
        outline.apply(shown.text, shown.start_line),
        shown.start_line,
        streams.words_for_snippets(q),
        opts.snippet_chars,
        indent=snap.first_line_indent(shown),
        hidden_lines=snap.hidden_lines(shown),
        elided=outline.elided,
        stems=streams.stems_for_snippets(q),
        declares=declares,
        signature=shown.signature,
    )


def set_lines(snap: Snapshot, q: Query, opts: SearchRequest, hits: list[Hit]) -> None:
    """Set each hit's `line` (hitline.shown_line, then `place_lines`); a hit whose snippet holds no
    line that other hits of its file are not shown by (`crowded_hits`) gets a snippet cut at its
    declaration first, from its first part (the whole definition's head). Once each: a cut moves the
    lines others give way to."""
    for h in hits:
        h.line = h.snippet.line_of(shown_line(h))
    cut: set[int] = set()
    while crowded := [i for i in crowded_hits(hits) if i not in cut]:
        for i in crowded:
            cut.add(i)
            h = hits[i]
            stored = snap.node(int(h.uid, 16))
            if stored is None:
                continue
            snippet = _snippet(snap, stored.node, q, opts, stored.node.name)
            hits[i] = msgspec.structs.replace(h, snippet=snippet)
            hits[i].line = snippet.line_of(shown_line(hits[i]))
    place_lines(hits)


def place_lines(hits: list[Hit]) -> None:
    """Set each hit's `line` to the one it is printed by (`printed_lines`: no two hits of a file on
    one line), so the JSON `line` and the piped `path:line` are the same line; again after hits are
    left out (a budget), which frees the lines they held."""
    for h, line in zip(hits, printed_lines(hits), strict=True):
        h.line = line


def mark_stale(snap: Snapshot, hits: list[Hit]) -> None:
    """Flag hits whose file changed on disk since the root was published (size or mtime differ)."""
    base = Path(snap.manifest.source_root)
    for h in hits:
        rec = snap.manifest.files.get(h.path)
        if rec is None:
            continue
        try:
            st = os.stat(base / h.path)
        except OSError:
            h.stale = True
            continue
        h.stale = st.st_size != rec.size or st.st_mtime_ns != rec.mtime_ns
