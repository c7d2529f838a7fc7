"""The publish stage: the new root's manifest, and HEAD moved to it.

Owns: what a manifest records of a build (segments, files, tombstones, skips, git state, settings, the
model record kept or dropped) and the report's totals. The previous root stays whole until this stage:
`Store.publish` moves HEAD last, atomically. A build that changed nothing publishes nothing.
Does not own: the manifest format or the atomic publish itself (`indexlib/store/`).
"""

from __future__ import annotations

import time
from pathlib import Path

from indexlib.index.build.options import BuildOptions, BuildReport
from indexlib.index.build.plan import Previous
from indexlib.index.build.skips import SkipLog
from indexlib.index.build.times import SourceState
from indexlib.index.build.write import Layout
from indexlib.store.manifest import FORMAT_VERSION, Manifest, ModelInfo
from indexlib.store.store import Store
from indexlib.version import __version__

__all__ = ["publish_stage"]


def publish_stage(
    store: Store,
    root: Path,
    opts: BuildOptions,
    prev: Previous,
    layout: Layout,
    source: SourceState,
    skipped: SkipLog,
    report: BuildReport,
) -> None:
    """Publish the layout as a new root unless nothing changed; fill in the report's totals."""
    report.files = len(layout.files)
    report.skipped = skipped.counts
    report.nodes_total = sum(r.nodes for r in layout.files.values())
    report.segments = len(layout.segments)
    if source.unchanged:
        assert prev.id is not None
        report.root_id = prev.id
        return
    manifest = Manifest(
        format_version=FORMAT_VERSION,
        qry_version=__version__,
        created_at=time.time(),
        parent=prev.id,
        segments=layout.segments,
        files=layout.files,
        tombstones={k: sorted(v) for k, v in sorted(layout.tombstones.items())},
        skipped=skipped.counts,
        skipped_files=skipped.listed(),
        git_commit=source.git_commit,
        git_branch=source.git_branch,
        model=_model_record(opts, prev, layout),
        source_root=str(root),
        settings=source.settings,
    )
    report.root_id = store.publish(manifest)
    report.published = True


def _model_record(opts: BuildOptions, prev: Previous, layout: Layout) -> ModelInfo | None:
    """The previous root's model record, dropped when embedding is on and no segment kept vectors."""
    model: ModelInfo | None = prev.manifest.model if prev.manifest else None
    if model is not None and opts.embed != "none":
        # Keep vector attachments of reused segments; drop the model record if none remain.
        if not any(s.vectors for s in layout.segments):
            model = None
    return model if opts.embed != "none" else (prev.manifest.model if prev.manifest else None)
