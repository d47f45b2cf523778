"""tlaconf's own error types, and how an internal error (a bug) is reported.

Anything a user can cause derives from :class:`UserError` (exit 2); what keeps tlaconf
from deciding without being the input's fault is :class:`Undecided` (exit 3).  Any other
exception is an internal error: :func:`internal_error` saves its traceback to a
file and returns the one line to print (exit 4).
"""

from __future__ import annotations

import sys
import tempfile
import traceback
from enum import IntEnum


class ExitCode(IntEnum):
    """What a ``tlaconf`` run answers (the process's exit status), as pytest's ``ExitCode``."""

    OK = 0
    """Everything that was checked conforms."""
    NONCONFORMING = 1
    """A nonconformance was found (a violation, a vacuous trace, a crash of the
    implementation under test, a gate difference, or a warning under ``--strict``)."""
    BAD_INPUT = 2
    """Bad input: an unreadable file, a spec error, a usage error."""
    UNDECIDED = 3
    """tlaconf could not decide: an external checker failed, timed out or disagreed with
    the embedded evaluator, or a search went over its bound (``--max-candidates``,
    ``--max-states``, ``--max-seconds``)."""
    INTERNAL_ERROR = 4
    """A bug in tlaconf: one line says where its traceback was saved."""
    INTERRUPTED = 130
    """The run was interrupted (SIGINT, SIGTERM) and decided nothing (128 + SIGINT, as a
    shell reports a command ended by Ctrl-C)."""


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


class Undecided(Exception):
    """tlaconf cannot decide for a reason that is not the input (a Dask cluster it cannot
    reach or use): the CLI prints the message and exits with 3."""


def save_traceback(exc: BaseException, prefix: str = "tlaconf-internal-",
                   echo: bool = False) -> str:
    """Write ``exc``'s traceback to a new file in the temporary directory (and to stderr
    with ``echo``: ``tlaconf --debug``); its path, or a note saying why it could not be
    saved."""
    text = "".join(traceback.format_exception(exc))
    if echo:
        sys.stderr.write(text)
    try:
        with tempfile.NamedTemporaryFile(
            "w", prefix=prefix, suffix=".txt", delete=False, encoding="utf-8"
        ) as f:
            f.write(text)
        return f.name
    except OSError as err:
        return f"(not saved: {err.strerror})"


def describe(exc: BaseException) -> str:
    """``TypeError: message`` on one line."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def internal_error(exc: BaseException, echo: bool = False) -> tuple[str, str]:
    """(one-line message, traceback path) for an exception that is a bug in tlaconf;
    ``echo`` also prints the traceback to stderr."""
    path = save_traceback(exc, echo=echo)
    message = (
        f"internal error (a bug in tlaconf, please report it): {describe(exc)}; "
        f"traceback saved to {path}"
    )
    return message, path
