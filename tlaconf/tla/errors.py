"""Errors of the TLA+ front end: every one is a :class:`~tlaconf.errors.UserError`."""

from __future__ import annotations

from tlaconf.errors import UserError

EXCERPT_WIDTH = 120
"""The most characters of a source line an error message shows."""


def caret_line(text: str, line: int, col: int) -> str:
    """The source line ``line`` of ``text`` followed by a caret under column ``col`` (1-based)."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    src = lines[line - 1].expandtabs(8)  # columns count tabs to the next multiple of 8
    at = max(col - 1, 0)
    if len(src) > EXCERPT_WIDTH:  # a window around the column, not a line of megabytes
        start = max(0, min(at - EXCERPT_WIDTH // 2, len(src) - EXCERPT_WIDTH))
        end = start + EXCERPT_WIDTH
        head = "…" if start > 0 else ""
        src = head + src[start:end] + ("…" if end < len(src) else "")
        at = at - start + len(head)
    return f"{src}\n{' ' * at}^"


class ParseError(UserError):
    """A lexical or syntax error, located at ``file:line:col`` with a caret line as detail."""

    def __init__(self, message: str, file: str, line: int, col: int, text: str = "") -> None:
        super().__init__(message, f"{file}:{line}:{col}", caret_line(text, line, col) or None)
        self.file = file
        self.line = line
        self.col = col


class ResolveError(UserError):
    """A resolution error: undefined name, wrong arity, duplicate definition, missing module."""

    def __init__(self, message: str, file: str, line: int, col: int, text: str = "") -> None:
        location = f"{file}:{line}:{col}" if line else file
        super().__init__(message, location, caret_line(text, line, col) or None)
        self.file = file
        self.line = line
        self.col = col
