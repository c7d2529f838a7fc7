"""`qry --show-completion [SHELL]`: the completion script of the shell named, not of the one running.

Typer's own `--show-completion` is a flag: it ignores a SHELL after it and prints the script of the
shell it detects (bash in a Dockerfile or CI step), with exit 0 even for `bogus`. A zsh or fish user
who writes the script from a bash session needs the shell they name. The scripts themselves and the
completion protocol (`_QRY_COMPLETE=complete_zsh ...`) stay Typer's.
"""

from __future__ import annotations

from cli.console import Env, Exit, guarded

PROG = "qry"
COMPLETE_VAR = "_QRY_COMPLETE"  # Typer's name for it: _{PROG}_COMPLETE, upper case


def shells() -> list[str]:
    """The shells the installed Typer has a completion script for (bash, zsh, fish, powershell, pwsh)."""
    from typer._completion_shared import _completion_scripts

    return list(_completion_scripts)


def show_completion(env: Env, args: list[str]) -> int:
    """Print the script for `args[0]` (or the detected shell); an unknown shell is a usage error."""

    def run() -> int:
        from typer._completion_shared import _get_shell_name, get_completion_script
        from typer.completion import completion_init

        from indexlib import UsageError

        known = shells()
        if len(args) > 1:
            raise UsageError(
                f"--show-completion takes one shell, not {len(args)} arguments",
                hint=f"e.g. qry --show-completion zsh; shells: {', '.join(known)}",
            )
        shell = args[0] if args else (_get_shell_name() or "")
        if shell.lower() not in known:
            said = f"unknown shell {shell!r}" if args else "the current shell could not be detected"
            raise UsageError(
                f"--show-completion: {said}",
                hint=f"name one of: {', '.join(known)} (e.g. qry --show-completion zsh)",
            )
        completion_init()  # registers Typer's zsh/fish/powershell completion classes with Click
        script = get_completion_script(prog_name=PROG, complete_var=COMPLETE_VAR, shell=shell.lower())
        env.out(script + "\n")
        return Exit.OK

    return guarded(env, run)


def completion_args(argv: list[str]) -> list[str] | None:
    """The SHELL arguments when `argv` (without the program name) asks `--show-completion`, else None."""
    if not argv:
        return None
    first = argv[0]
    if first == "--show-completion":
        return argv[1:]
    if first.startswith("--show-completion="):
        return [first.partition("=")[2], *argv[1:]]
    return None
