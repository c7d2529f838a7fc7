"""Node times of a definition split into windows: every part carries the whole definition's times.

Owns: spreading (earliest created, latest changed) over the parts of one split definition. Why: a
definition too long for one node is stored as windows (parts 0, 1, ...), and search answers a hit on
any of them as the whole definition (its uid, its full span, `last_changed` read from part 0). With
per-window times, `--since 2026-07-01` could keep a class through the window of a method changed in
July and print the hit with part 0's `last_changed` of May, and `--until` could keep a definition whose
later window changed after the date. One time per definition makes the filter and the hit agree.
Does not own: line times (the rest of gittimes) or how windows are cut (parsing/chunks.py); parts are
grouped as `Snapshot.later_parts` groups them (same qualified name and kind, consecutive part numbers,
up to the next part 0 of that name).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from indexlib.records import Node

__all__ = ["spread_over_parts"]


def spread_over_parts(nodes: Sequence[Node]) -> list[Node]:
    """`nodes` (one file's, timed) with each split definition's parts given the whole's times.

    >>> spread_over_parts([])
    []
    """
    groups: list[list[int]] = []
    open_by_name: dict[tuple[str, str], list[int]] = {}
    for i in sorted(range(len(nodes)), key=lambda i: (nodes[i].start_line, nodes[i].part)):
        n = nodes[i]
        key = (n.qualified_name, n.kind)
        if n.part == 0:
            open_by_name[key] = [i]
            groups.append(open_by_name[key])
            continue
        group = open_by_name.get(key)
        if group is not None and nodes[group[-1]].part == n.part - 1:
            group.append(i)
    out = list(nodes)
    for group in groups:
        if len(group) < 2:
            continue
        created = [c for c in (nodes[i].created_at for i in group) if c]
        changed = [c for c in (nodes[i].changed_at for i in group) if c]
        first, last = (min(created) if created else None), (max(changed) if changed else None)
        for i in group:
            out[i] = msgspec.structs.replace(nodes[i], created_at=first, changed_at=last)
    return out
