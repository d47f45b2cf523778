"""tlaconf's own error types.  Anything a user can cause derives from :class:`UserError`."""

from __future__ import annotations


class UserError(Exception):
    """Bad input (file, spec, trace, usage): the CLI prints the message and exits with 2.

    ``location`` is ``file:line:col`` (or ``file:line``) when known; ``detail`` is
    an optional multi-line addition such as a caret line.
    """

    def __init__(
        self, message: str, location: str | None = None, detail: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.detail = detail

    def __str__(self) -> str:
        head = f"{self.location}: {self.message}" if self.location else self.message
        return f"{head}\n{self.detail}" if self.detail else head


class CheckerFailed(Exception):
    """An external model checker failed, timed out or gave no answer: tlaconf cannot decide.

    Replay reports the trace as undecided and the CLI exits with 3.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
