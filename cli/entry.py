"""The console entry point, kept tiny: a plain `qry search`, `qry grep` or `qry index` never imports
Typer (cli/fastpath.py, cli/grepcmd.py, cli/indexcmd.py).

Owns: the last line of the error contract for what happens before (or outside) a command's `guarded()`:
a Ctrl-C while qry is still importing exits 130 with `qry: interrupted`, and a reader that closed the
pipe makes qry exit quietly, as ripgrep does. It does not own the error contract of commands
(`cli/console.py`).
"""

from __future__ import annotations

import atexit
import os
import signal
import sys

# cli.console.Exit.INTERRUPTED, not imported here: the fast path must not pay for console's imports.
_INTERRUPTED = 130


def run() -> None:
    """Run qry; never lets a KeyboardInterrupt or BrokenPipeError escape as a traceback.

    Everything qry writes is index data (the code's text, its vectors, caches of queries), so the
    process umask gets 077 added first: files 0600, directories 0700, whatever the shell's umask.
    """
    os.umask(os.umask(0o077) | 0o077)
    atexit.register(_ignore_ctrl_c)  # registered first, so it runs last (see _exit_on_ctrl_c)
    try:
        try:
            _run()
        except KeyboardInterrupt:
            try:
                sys.stderr.write("qry: interrupted\n")
                sys.stderr.flush()
            except (OSError, ValueError):
                pass
            sys.exit(_INTERRUPTED)
        except BrokenPipeError:
            _silence_stdout()
            sys.exit(0)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
        _exit_on_ctrl_c(code)
        if code == _INTERRUPTED and _pool_threads_alive():
            _flush_and_exit(code)
        raise


def _exit_on_ctrl_c(code: int) -> None:
    """Once the command's outcome is decided, a Ctrl-C ends the process at once with that outcome.

    Interpreter shutdown still runs Python code (atexit hooks, multiprocessing joining its children);
    a KeyboardInterrupt there would print a traceback or kill qry by SIGINT mid-exit. The last atexit
    hook then ignores SIGINT, because past it Python restores the default action and a Ctrl-C would
    kill the process by signal instead of letting it exit with `code`.
    """

    def now(_signum: int, _frame: object) -> None:
        _flush_and_exit(code)

    signal.signal(signal.SIGINT, now)


def _flush_and_exit(code: int) -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, RuntimeError):  # RuntimeError: the flush it interrupted
            pass
    os._exit(code)


def _pool_threads_alive() -> bool:
    """Whether thread-pool workers (a workspace's fan-out) outlive an interrupted command, with no
    child process that the interpreter's exit would stop.

    The interpreter joins such workers at exit, and after a Ctrl-C that join can wait for good: the
    interrupt may land while the main thread holds a module's import lock, and a worker importing
    the same module then never returns. Nothing they do needs finishing (a search writes nothing; an
    index publishes atomically), so the process ends without joining them."""
    import threading

    if "multiprocessing" in sys.modules and sys.modules["multiprocessing"].active_children():
        return False
    return any(t.name.startswith("ThreadPoolExecutor") and t.is_alive() for t in threading.enumerate())


def _ignore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run() -> None:
    if sys.argv[1:2] and sys.argv[1].startswith("--show-completion"):
        from cli.completion import completion_args, show_completion
        from cli.console import Env

        shells = completion_args(sys.argv[1:])
        if shells is not None:
            sys.exit(show_completion(Env(), shells))
    if sys.argv[1:2] == ["grep"]:
        from cli.lean import import_msgspec_lean

        import_msgspec_lean()  # before cli.grepcmd imports msgspec (via cli.console)
        from cli.grepcmd import try_fast_grep

        code = try_fast_grep(sys.argv[1:])
    elif sys.argv[1:2] == ["index"]:
        from cli.lean import import_msgspec_lean

        import_msgspec_lean()
        from cli.indexcmd import try_fast_index

        code = try_fast_index(sys.argv[1:])
    else:
        from cli.fastpath import try_fast_search

        code = try_fast_search(sys.argv[1:])
    if code is not None:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            _silence_stdout()
        sys.exit(code)
    from cli.main import main

    main()


def _silence_stdout() -> None:
    # Imported only after a closed pipe, so a plain run never pays for console's imports here.
    from cli.console import silence_stdout

    silence_stdout()
