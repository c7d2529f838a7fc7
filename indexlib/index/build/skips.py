"""The files a build leaves out, counted by reason and listed (to a bound) for `qry status --skipped`.

Skips are found in four places (the walk, path redaction, the content check when a file is read,
the parser); one log collects them so the counts and the list cannot disagree.
"""

from __future__ import annotations

from indexlib.store.manifest import SKIPPED_LIST_CAP, SkippedFile


class SkipLog:
    """Skip counts by reason, and the first SKIPPED_LIST_CAP skipped paths in the order found."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.files: list[SkippedFile] = []

    def add(self, path: str, reason: str, detail: str = "") -> None:
        self.counts[reason] = self.counts.get(reason, 0) + 1
        if len(self.files) < SKIPPED_LIST_CAP:
            self.files.append(SkippedFile(path=path, reason=reason, detail=detail))

    def listed(self) -> list[SkippedFile]:
        """The list as the manifest stores it: sorted by path, so equal trees give equal roots."""
        return sorted(self.files, key=lambda s: (s.path, s.reason))
