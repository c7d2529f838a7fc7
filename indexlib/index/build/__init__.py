"""Build or update an index: discover -> parse changed files -> one new segment -> publish -> vectors.

Owns: the write path, as named stages: `plan` (the previous root, discovery, what changed), `parse`
(the fork pool and the spill file), `times` (git times, the source's state), `write` (the new segment,
tombstones, compaction), `publish` (the manifest), `vectors` (the embedding stage), run in order by
`run`; `options` holds what a build is asked and what it reports.
Does not own: parsing (`indexlib/index/parsing/`), engines (`indexlib/engines/`), the on-disk format
(`indexlib/store/`), or time data (`indexlib/index/gittimes.py`).
"""

from __future__ import annotations

from indexlib.index.build.options import BuildOptions, BuildReport, Progress
from indexlib.index.build.run import build_index, check_source_root

__all__ = ["BuildOptions", "BuildReport", "Progress", "build_index", "check_source_root"]
