"""A Rich progress bar on stderr for `qry index`, only when stderr is a terminal."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from cli.console import Env

_LABELS = {"parse": "parsing", "write": "writing segment", "compact": "compacting", "embed": "embedding"}


@contextmanager
def progress_reporter(env: Env, *, enabled: bool) -> Iterator[Callable[[str, int, int], None]]:
    """Yield a `(stage, done, total)` callback; a no-op when disabled (pipes, CI, --json)."""
    if not enabled:
        yield lambda _stage, _done, _total: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

    console = Console(file=env.stderr)
    with Progress(
        TextColumn("{task.description:>16}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        tasks: dict[str, TaskID] = {}

        def update(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(_LABELS.get(stage, stage), total=max(total, 1))
            bar.update(tasks[stage], completed=done, total=max(total, 1))

        yield update
