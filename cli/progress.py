"""A Rich progress bar on stderr for `qry index`, only when stderr is a terminal."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from cli.console import Env

_LABELS = {"parse": "parsing", "write": "writing segment", "compact": "compacting", "embed": "embedding"}


class Reporter:
    """The `(stage, done, total)` callback a build reports to, and `say`, which prints a line on
    stderr while the bar runs: written past Rich's live display, a line would be drawn over by the
    bar's next refresh (`qry index -w` says each repository as its build ends)."""

    def __init__(self, update: Callable[[str, int, int], None], print_line: Callable[[str], None]) -> None:
        self._update = update
        self._print = print_line

    def __call__(self, stage: str, done: int, total: int) -> None:
        self._update(stage, done, total)

    def say(self, line: str) -> None:
        self._print(line)


@contextmanager
def progress_reporter(env: Env, *, enabled: bool) -> Iterator[Reporter]:
    """Yield a Reporter; its callback is a no-op when disabled (pipes, CI, --json)."""
    if not enabled:

        def plain(line: str) -> None:
            env.err(line + "\n")
            env.stderr.flush()

        yield Reporter(lambda _stage, _done, _total: None, plain)
        return
    from rich.console import Console
    from rich.markup import escape
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

        yield Reporter(update, lambda line: bar.console.print(escape(line), highlight=False, soft_wrap=True))
