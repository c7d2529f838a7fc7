"""The body of `qry grep` and its Typer-free argument parser.

Owns: turning options into a library grep, the output formats (`path:line:text` like `rg -n`, `-l`,
`-c`, context with `--` between groups, colour on a terminal, `--json`, `--jsonl`, rg's notes on
binary files), the report of paths that could not be searched (`qry: PATH: reason`) and the exit
status (0 a match, 1 none, 2 an error or such a path, as in rg). A line's bytes that are not UTF-8
are printed as they are, as rg prints them (stdout writes lone surrogates back as bytes). Imports only what a grep needs (no Typer, Rich, numpy or the
model), so a one-shot grep pays for the interpreter, msgspec and, with an index, Tantivy.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cli.console import Env, Exit, guarded
from cli.flagparse import parse_flags
from cli.grepopts import GREP_OPTIONS

_PATH, _LINE, _MATCH, _RESET = "\x1b[35m", "\x1b[32m", "\x1b[1;31m", "\x1b[0m"
_CHUNK = 1 << 16  # characters gathered before one write to a pipe or file
SKIPPED_HINT = "search it with rg, which reads a file in pieces (qry grep reads each file whole)"
# A byte that is not UTF-8 is read as a lone surrogate (it prints back as the byte); JSON cannot
# hold one, so JSON output carries U+FFFD for each (one character each: the offsets stay right).
_SURROGATES = {c: 0xFFFD for c in range(0xDC80, 0xDD00)}


def json_text(text: str) -> str:
    return text if text.isascii() else text.translate(_SURROGATES)


def parse_grep_args(argv: Sequence[str]) -> tuple[str | None, list[str], dict[str, Any]] | None:
    """`PATTERN [PATH | lang:X | path:GLOB]... [options]` -> parts; None when Typer should decide.

    Takes ripgrep's forms: `-i -w`, bundled `-iw`, `-A3`, `-A 3`, `--max-count=5`, `--` before a
    pattern that starts with a dash, `-e PATTERN` (repeatable; then every positional is a PATH and
    the pattern part is None). `--help` and anything unknown go to Typer.
    """
    parsed = parse_flags(argv, GREP_OPTIONS, bundled=True)
    if parsed is None:
        return None
    positional, values = parsed
    if values.get("regexp"):
        return None, positional, values
    if not positional:
        return None
    return positional[0], positional[1:], values


def grep_command(env: Env, pattern: str | None, args: Sequence[str], values: dict[str, Any]) -> int:
    """Run a grep. With `-e` (`values["regexp"]`) those are the patterns and `pattern`, if given, is
    the first PATH (Typer reads the first positional as PATTERN), as rg reads `rg -e X PATH`."""
    json_out = bool(values.get("json") or values.get("jsonl"))  # a program reads the error as a record
    patterns = list(values.get("regexp") or [])
    if patterns:
        args = [pattern, *args] if pattern is not None else list(args)
    elif pattern is not None:
        patterns = [pattern]
    return guarded(env, lambda: _run(env, patterns, list(args), values), json_out=json_out)


def _colour(env: Env, v: dict[str, Any]) -> bool:
    return bool(env.stdout_tty and env.color and not v.get("no_color") and not v.get("json"))


def _run(env: Env, patterns: list[str], args: list[str], v: dict[str, Any]) -> int:
    from indexlib import GrepRequest, UsageError, run_grep

    if not patterns:
        raise UsageError("no pattern given", hint="qry grep PATTERN [PATH]..., or -e PATTERN (repeatable)")
    pattern_text = patterns[0]
    if v.get("json") and v.get("jsonl"):
        raise UsageError("--json and --jsonl exclude each other", hint="pick one output format")
    for key in ("after_context", "before_context", "context", "max_count"):
        if v.get(key) is not None and int(v[key]) < 0:
            raise UsageError(f"--{key.replace('_', '-')} must be 0 or more", hint="see: qry grep --help")
    context = int(v.get("context") or 0)
    before = int(v.get("before_context") or 0) or context
    after = int(v.get("after_context") or 0) or context
    request = GrepRequest(
        pattern=pattern_text,
        patterns=patterns[1:],
        args=args,
        fixed=bool(v.get("fixed_strings")),
        ignore_case=bool(v.get("ignore_case")),
        smart_case=bool(v.get("smart_case")),
        word=bool(v.get("word_regexp")),
        max_count=v.get("max_count"),
        after_context=after,
        globs=list(v.get("glob") or []),
        hidden=bool(v.get("hidden")),
        no_ignore=bool(v.get("no_ignore")),
        use_index=not v.get("no_index"),
        index_dir=_one_index_dir(v),
    )
    fmt = "json" if v.get("json") else "jsonl" if v.get("jsonl") else "plain"
    printer = _Printer(env, v, fmt, before, after, _colour(env, v))
    errors: list[tuple[str, str]] = []

    def on_error(path: str, reason: str) -> None:
        """`qry: PATH: reason` as rg prints it (`rg: PATH: reason (os error N)`); the grep goes on."""
        printer.flush()  # the matches found before it come first, as they would on a terminal
        errors.append((path, reason))
        env.err(f"qry: {path}: {reason}\n")
        if v.get("word_regexp") and not os.path.exists(path) and _is_workspace(path):
            env.err(
                f"  hint: -w is --word-regexp here, as in rg; to grep workspace {path}: --workspace {path}\n"
            )

    def notice(msg: str) -> None:
        env.err(f"qry: {msg}\n")

    skipped: list[tuple[str, str]] = []

    def on_skipped(path: str, why: str) -> None:
        """A file rg would search that grep leaves out (over its memory bound): a warning, which
        leaves the exit status alone; `--json` lists it under `errors` too."""
        printer.flush()
        skipped.append((path, why))
        env.err(f"qry: warning: {path}: {why}\n  hint: {SKIPPED_HINT}\n")

    try:
        if v.get("workspace") is not None or len(_index_dirs(v)) > 1:
            summary = _grep_workspace(request, printer, v, notice, on_error)
        elif v.get("repo") or any(a.startswith(("repo:", "-repo:")) and not os.path.exists(a) for a in args):
            raise UsageError(
                "--repo and repo: choose among a workspace's repositories; this greps one tree",
                hint="grep a workspace: qry grep PATTERN --workspace W --repo NAME",
            )
        else:
            summary = run_grep(
                request,
                printer.file,
                notice=notice,
                on_error=on_error,
                on_binary=printer.binary,
                on_skipped=on_skipped,
            )
    finally:
        printer.flush()  # what was found before an error or Ctrl-C is still printed
    printer.finish(pattern_text, summary, errors + skipped)
    if errors:  # as rg: a path that could not be searched makes the status 2, matches or not
        return Exit.ERROR
    return Exit.OK if summary.lines_matched else Exit.NO_MATCH


def _is_workspace(name: str) -> bool:
    """Whether `name` is a workspace of the user's file (a PATH that does not exist may have been
    meant as one after `-w`, which `qry search` reads as --workspace)."""
    from indexlib import QryError, load_workspaces

    try:
        return name in load_workspaces()
    except QryError:
        return False


def _index_dirs(v: dict[str, Any]) -> list[str]:
    """`--index-dir` values: none, one (a string, as tests pass it), or several."""
    raw = v.get("index_dir") or []
    return [str(raw)] if isinstance(raw, str | Path) else [str(d) for d in raw]


def _one_index_dir(v: dict[str, Any]) -> str | None:
    dirs = _index_dirs(v)
    return dirs[0] if len(dirs) == 1 else None


def _grep_workspace(request: Any, printer: _Printer, v: dict[str, Any], notice: Any, on_error: Any) -> Any:
    """A workspace's repositories, or the indexes of `--index-dir` given several times (each
    labelled by its folder, as `qry search` labels them): the last alone would be grepped, and,
    run outside its tree, the working directory instead."""
    from cli.wscmd import refuse_one_index_flags
    from indexlib import Workspace, grep_members, members_of_dirs, resolve_workspace

    if v.get("workspace") is not None:
        refuse_one_index_flags(v.get("index_dir"))
        ws = resolve_workspace(str(v["workspace"]))
    else:
        ws = Workspace("index-dirs", members_of_dirs(_index_dirs(v)))

    def on_repo(name: str) -> None:
        printer.repo = name

    return grep_members(
        ws.name,
        ws.members,
        request,
        printer.file,
        repos=list(v.get("repo") or []),
        on_repo=on_repo,
        notice=notice,
        on_error=on_error,
    )


class _Printer:
    """Writes each file's matches as they come (plain, -l, -c, JSONL) or collects them (JSON)."""

    def __init__(self, env: Env, v: dict[str, Any], fmt: str, before: int, after: int, colour: bool) -> None:
        self.env = env
        self.fmt = fmt
        self.before = before
        self.after = after
        self.colour = colour
        self.files_only = bool(v.get("files_with_matches"))
        # With -m N, lines past the Nth are matches in its trailing context: they open no window.
        self.max_count: int | None = v.get("max_count")
        self.count = bool(v.get("count"))
        self.numbers = bool(v.get("line_number", True))
        self.collected: list[Any] = []
        self.repo: str | None = None  # `--workspace`: the repository being grepped, shown before paths
        self.groups_printed = 0
        # Output is gathered into large writes (one per file would be a system call per file when
        # stdout is unbuffered, as under PYTHONUNBUFFERED); a terminal still sees each file at once.
        self._chunk = 0 if env.stdout_tty else _CHUNK
        self._pending: list[str] = []
        self._size = 0
        reconfigure = getattr(env.stdout, "reconfigure", None)
        if reconfigure is not None and fmt == "plain":  # undecodable bytes go out as they came in
            try:
                reconfigure(errors="surrogateescape")
            except (ValueError, OSError):
                pass

    def write(self, text: str) -> None:
        self._pending.append(text)
        self._size += len(text)
        if self._size >= self._chunk:
            self.flush()

    def flush(self) -> None:
        if self._pending:
            self.env.stdout.write("".join(self._pending))
            self._pending.clear()
            self._size = 0

    def file(
        self, display: str, text: str, lines: list[tuple[int, int, int]], regex: Any, show_path: bool
    ) -> None:
        if self.fmt in ("json", "jsonl"):
            import msgspec

            from indexlib import GrepLine, match_spans

            records: list[Any] = []
            if self.before or self.after:
                for group in self._groups(text, lines):
                    for n, line_text, is_match in group:
                        spans = (
                            [(m.start(), m.end()) for m in regex.finditer(line_text) if m.end() > m.start()]
                            if is_match
                            else []
                        )
                        records.append(
                            GrepLine(
                                path=json_text(display),
                                line=n,
                                text=json_text(line_text),
                                submatches=spans,
                                match=is_match,
                            )
                        )
            else:
                for ln in lines:
                    records.append(
                        GrepLine(
                            path=json_text(display),
                            line=ln[0],
                            text=json_text(text[ln[1] : ln[2]]),
                            submatches=match_spans(text, ln, regex),
                        )
                    )
            if self.repo is not None:
                records = [msgspec.structs.replace(r, repo=self.repo) for r in records]
            if self.fmt == "json":
                self.collected.extend(records)
            else:
                enc = msgspec.json.encode
                self.write("".join(enc(r).decode() + "\n" for r in records))
            return
        if self.repo is not None:
            display = f"{self.repo}:{display}"
        path = f"{_PATH}{display}{_RESET}" if self.colour else display
        if self.files_only:
            self.write(path + "\n")
            return
        if self.count:
            self.write(f"{path}:{len(lines)}\n" if show_path else f"{len(lines)}\n")
            return
        prefix = path if show_path else ""
        out: list[str] = []
        if not (self.before or self.after or self.colour):  # the common case: one f-string a line
            head = prefix + ":" if prefix else ""
            if self.numbers:
                self.write("".join([f"{head}{n}:{text[s:e]}\n" for n, s, e in lines]))
            else:
                self.write("".join([f"{head}{text[s:e]}\n" for _n, s, e in lines]))
            return
        if self.before or self.after:
            for group in self._groups(text, lines):
                if self.groups_printed:
                    out.append("--\n")
                self.groups_printed += 1
                for n, line_text, is_match in group:
                    sep = ":" if is_match else "-"
                    body = self._paint(line_text, regex) if (is_match and self.colour) else line_text
                    out.append(self._head(prefix, n, sep) + body + "\n")
        else:
            for ln in lines:
                line_text = text[ln[1] : ln[2]]
                body = self._paint(line_text, regex) if self.colour else line_text
                out.append(self._head(prefix, ln[0], ":") + body + "\n")
        self.write("".join(out))

    def binary(
        self,
        display: str,
        text: str,
        lines: list[tuple[int, int, int]],
        regex: Any,
        show_path: bool,
        note: Any,
    ) -> None:
        """A file holding a NUL byte, as rg prints it: the lines before the NUL's buffer, then its
        note; `-l` and `-c` as rg's summary modes have it (a walked one is not counted)."""
        if self.fmt != "plain":
            if lines:
                self.file(display, text, lines, regex, show_path)
            return
        matched = note.counted if note.named else len(lines)
        if not matched or (self.count and not note.named):
            return
        shown = f"{self.repo}:{display}" if self.repo is not None else display
        path = f"{_PATH}{shown}{_RESET}" if self.colour else shown
        if self.count:  # only a named file is counted here
            self.write(f"{path}:{note.counted}\n" if show_path else f"{note.counted}\n")
            return
        if self.files_only:
            self.write(path + "\n")
            return
        if lines:
            self.file(display, text, lines, regex, show_path)
        head = f"{path}: " if show_path else ""
        found = f'(found "\\0" byte around offset {note.offset})'
        if not note.named:
            self.write(f"{head}WARNING: stopped searching binary file after match {found}\n")
            return
        self.groups_printed += 1  # no `--` before the note, but one before the next group (as rg)
        self.write(f"{head}binary file matches {found}\n")

    def _groups(self, text: str, lines: list[tuple[int, int, int]]) -> list[list[tuple[int, str, bool]]]:
        from indexlib import context_groups

        counted = lines if self.max_count is None else lines[: self.max_count]
        return context_groups(text, counted, self.before, self.after, matched={n for n, _s, _e in lines})

    def _head(self, prefix: str, n: int, sep: str) -> str:
        num = (f"{_LINE}{n}{_RESET}" if self.colour else str(n)) if self.numbers else ""
        parts = [p for p in (prefix, num) if p]
        return sep.join(parts) + sep if parts else ""

    def _paint(self, line_text: str, regex: Any) -> str:
        out, last = [], 0
        for m in regex.finditer(line_text):
            if m.end() > m.start():
                out += [line_text[last : m.start()], _MATCH, m.group(), _RESET]
                last = m.end()
        out.append(line_text[last:])
        return "".join(out)

    def finish(self, pattern: str, summary: Any, errors: list[tuple[str, str]]) -> None:
        if self.fmt == "json":
            import msgspec

            from indexlib import GrepError, GrepResult

            failed = [GrepError(path=p, reason=r) for p, r in errors]
            result = GrepResult(
                pattern=pattern, lines=self.collected, summary=summary, errors=failed or msgspec.UNSET
            )
            self.write(msgspec.json.encode(result).decode() + "\n")
        self.flush()
        self.env.stdout.flush()


def try_fast_grep(argv: Sequence[str]) -> int | None:
    """Run `qry grep ...` without Typer when the command line parses; None sends it to Typer."""
    if not argv or argv[0] != "grep" or any(a in ("--help", "-h") for a in argv):
        return None
    parsed = parse_grep_args(argv[1:])
    if parsed is None:
        return None
    pattern, args, values = parsed
    return grep_command(Env(), pattern, args, values)
