"""Text split by its brackets: what a parenthesis closes, and the parts of a list between
separators outside any bracket. Pure; shared by the readers of signatures and annotations (a Go
parameter list in gosigs.py and typed.py, a Python return annotation's union in pymade.py).
"""

from __future__ import annotations


def balanced(text: str, start: int) -> str:
    """The text from `start` to the parenthesis closing the one just before it."""
    depth = 1
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[start:i]
    return ""


def top_level_split(params: str, sep: str = ",") -> list[str]:
    """`a int, f func(x, y int) error, m map[K]V` split at the commas (or `sep`: a Python
    annotation's `|`) outside brackets, each part stripped, an empty last one left out."""
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in params:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


__all__ = ["balanced", "top_level_split"]
