"""The build's orchestrator: the stages of `qry index` in order, each timed, under the writer lock.

Owns: `build_index` (the lock, and cleaning up after any failure) and `_build_locked`, which reads as
the list of stages: previous root -> discover -> classify (and retime: `retime.py`) -> parse and spill
-> git times -> source state -> write segment -> publish -> vectors (begun during the parse where cores
idle: `prefetch.py`).
Every run writes at most one new segment (plus, when
compaction triggers, one merged segment instead), so a crash can only leave staging files behind,
which `gc` removes; the previous root stays whole because HEAD moves last, atomically. Re-indexing
an unchanged tree publishes nothing.
Does not own: the work of any stage (the sibling modules of this package), the on-disk format
(`indexlib/store/`).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import msgspec

from indexlib.errors import QryError, UsageError, write_failure
from indexlib.index.build.options import (
    DEFAULT_EMBED,
    BuildOptions,
    BuildReport,
    EmbedderFactory,
    ParseMap,
    Progress,
)
from indexlib.index.build.parse import parse_and_spill, parse_cores
from indexlib.index.build.plan import classify, discover_sources, load_previous
from indexlib.index.build.prefetch import start_prefetch
from indexlib.index.build.publish import publish_stage
from indexlib.index.build.retime import retime_committed
from indexlib.index.build.times import TimesJob, node_times, source_state
from indexlib.index.build.vectors import attach_vectors
from indexlib.index.build.write import write_stage
from indexlib.store.locate import default_index_dir
from indexlib.store.lock import writer_lock
from indexlib.store.store import Store
from indexlib.workers import available_cores

__all__ = ["build_index", "check_source_root"]


def check_source_root(root: Path) -> Path:
    """`root` made absolute, if it is a folder that exists; else UsageError saying which it is not.

    The CLI calls it before it says anything about where the index goes, so a file or a typo
    gets one error, not a note about a new index inside the file.
    """
    root = root.resolve()
    if root.is_dir():
        return root
    if not root.exists():
        raise UsageError(f"{root} does not exist", hint="pass the folder of a repository: qry index PATH")
    raise UsageError(
        f"{root} is a file, not a folder", hint=f"pass the folder of a repository: qry index {root.parent}"
    )


def build_index(
    root: Path,
    options: BuildOptions | None = None,
    progress: Progress | None = None,
    *,
    parse_map: ParseMap | None = None,
    embedder: EmbedderFactory | None = None,
) -> BuildReport:
    """Index `root` incrementally and publish a new root if anything changed; `parse_map`, when given,
    runs the parsing, and `embedder` makes the vector stage's embedder (`indexlib/cluster/`: as Ray
    tasks and Ray actors). A build given an `embedder` computes its vectors itself, never in the
    background.

    Raises UsageError for a root that is not a folder (`check_source_root`) or an option no build can use, LockBusy when
    another writer runs.
    """
    opts = options or BuildOptions()
    opts.check()
    if embedder is not None:
        opts.check_embeds_here()
    root = check_source_root(root)
    index_dir = (opts.index_dir or default_index_dir(root)).resolve()
    store = Store.open(index_dir, create=True)
    opts = resolve_embed(store, opts)
    report = BuildReport(index_dir=str(index_dir))
    with writer_lock(index_dir, wait=opts.wait):
        # A writer killed outright (SIGKILL, a power cut) left its staging in tmp/, which no later
        # successful build removed (15 MiB on cobra) until `qry gc`: we hold the lock, so it is dead.
        store.discard_staging()
        try:
            steps = progress or (lambda _s, _d, _t: None)
            _build_locked(root, store, opts, report, steps, parse_map, embedder)
        except BaseException as exc:
            # Whatever failed (a full disk, Ctrl-C, a bug), nothing this run staged is of use, and HEAD
            # still names the previous root: the staging files go now, not at the next gc (on a full
            # disk they are the space the user needs back). We hold the lock, so no other writer
            # is staging in tmp/.
            store.discard_staging()
            failure = write_failure(exc, index_dir)  # a full disk, a folder of the index made read-only
            if failure is not None:
                raise failure from exc
            raise
        if report.published:
            _trim_history(store, report)
        if opts.background and opts.embed != "none":
            from indexlib.index.background import start_vector_worker

            # Started while this process still holds the lock: the worker waits for it, so the
            # vectors follow this root before any other writer's.
            report.background_pid = start_vector_worker(store, index_dir, opts)
    return report


def _trim_history(store: Store, report: BuildReport) -> None:
    """Keep HEAD's last keep.AUTO_KEEP_RUNS index runs (under the build's writer lock). A trim the file
    system refuses leaves the index as it was: the build it follows has published, so it is a note."""
    from indexlib.store.gc import trim

    try:
        done = trim(store)
    except QryError as exc:
        report.notes.append(f"old roots not removed: {exc.message}")
        return
    if done is not None:
        report.trimmed_roots = len(done.removed_roots)


@contextmanager
def _timed(report: BuildReport, stage: str, since: float | None = None) -> Iterator[None]:
    """Record the seconds of the enclosed stage (from `since`, when given) as `report.timings[stage]`."""
    start = time.perf_counter() if since is None else since
    yield
    report.timings[stage] = time.perf_counter() - start


def resolve_embed(store: Store, opts: BuildOptions) -> BuildOptions:
    """`opts` with `embed` decided: as asked, else as the index was last built (a plain `qry index`
    of an index built with `--embed none` stays lexical instead of loading the model and embedding
    every node), else DEFAULT_EMBED (a new index, a root older than the record, or one recording a
    name no build takes: an unknown `--embed` once published a root before it was refused)."""
    from indexlib.engines.embedders import build_names

    if opts.embed is not None:
        return opts
    recorded = None
    head = store.head()
    if head is not None:
        try:
            recorded = store.load(head)[1].settings.get("embed")
        except QryError:
            recorded = None  # a damaged or older root: the build will say so, or rebuild it
    known = recorded if recorded in build_names() else None
    return msgspec.structs.replace(opts, embed=known or DEFAULT_EMBED)


def _build_locked(
    root: Path,
    store: Store,
    opts: BuildOptions,
    report: BuildReport,
    progress: Progress,
    parse_map: ParseMap | None = None,
    embedder: EmbedderFactory | None = None,
) -> None:
    with _timed(report, "discover"):
        prev = load_previous(store, opts, report)
        sources, skipped = discover_sources(root, opts, report)
    with _timed(report, "hash"):
        plan = classify(sources, skipped, prev.files, opts, report)
        retime_committed(root, prev, plan, sources, opts, report)
    times_job = TimesJob(root, plan.to_parse, opts)  # history is read while the files parse
    # Vectors begin now where the parse leaves cores idle (an edit's in-process parse, or more cores
    # than the parse pool takes); elsewhere after the lexical root, which is what a user waits for.
    prefetch = None
    if plan.to_parse and not opts.background and embedder is None:
        idle = available_cores() - parse_cores(len(plan.to_parse), parse_map)
        prefetch = start_prefetch(store, opts, prev.manifest, idle, busy=lambda: int(times_job.running()))
    try:
        on_file = prefetch.offer if prefetch is not None else None
        steps = prefetch.pumping(progress) if prefetch is not None else progress
        try:
            with _timed(report, "parse"):
                spill = parse_and_spill(
                    store, plan.to_parse, opts, report, plan.skipped, steps, parse_map, on_file
                )
            if prefetch is not None:
                prefetch.parse_done()
            with _timed(report, "times"):  # what the history read still takes once the parse is done
                times, times_from = node_times(spill, times_job)
        finally:
            times_job.close()
        source = source_state(root, opts, prev, plan, times_from, report)
        with _timed(report, "write"):
            layout = write_stage(store, root, opts, prev, plan, spill, times, source.unchanged, report, steps)
        shutil.rmtree(spill.dir, ignore_errors=True)
        publish_stage(store, root, opts, prev, layout, source, plan.skipped, report)
        if opts.embed != "none" and not opts.background:
            with _timed(report, "embed"):
                attach_vectors(store, report, opts, progress, prefetch, embedder)
    finally:
        if prefetch is not None:
            prefetch.close()
