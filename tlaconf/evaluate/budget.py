"""The evaluation budget: how long one evaluation (one ``holds``, ``enabled``, ``explain`` or
``evaluate`` call, the compilation of a definition with its constant folding, a module's
ASSUMEs) may run before it is stopped and reported, instead of hanging.

The budget is wall-clock seconds, enforced with ``SIGALRM`` (no cost on the hot path);
``tlaconf --eval-budget S`` or ``TLACONF_EVAL_BUDGET`` sets it, ``0`` turns it off.
Outside the main thread (where signals cannot be delivered) evaluations are not limited.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tlaconf.errors import UserError
from tlaconf.evaluate.errors import EvalError
from tlaconf.tla.ast import NO_SPAN, Span

DEFAULT_SECONDS = 60.0
ENV = "TLACONF_EVAL_BUDGET"


class BudgetExhausted(BaseException):
    """Raised inside the evaluation when the budget runs out.  A ``BaseException``, so that
    no ``except Exception`` of the evaluator (deferred errors, constant folding) takes it
    for an ordinary failure; the outermost :func:`limit` turns it into an ``EvalError``.
    ``span``: the innermost constant expression being folded when it ran out, if any."""

    def __init__(self) -> None:
        super().__init__("the evaluation budget is exhausted")
        self.span: Span = NO_SPAN


def parse_seconds(text: str) -> float:
    """A budget in seconds (``>= 0``, finite); ValueError saying what was expected."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"expected a number of seconds, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"expected a number of seconds >= 0, got {text!r}")
    return value


def from_env() -> float:
    """The budget ``TLACONF_EVAL_BUDGET`` sets (the default when unset); UserError when
    it is not a number of seconds."""
    raw = os.environ.get(ENV, "").strip()
    if not raw:
        return DEFAULT_SECONDS
    try:
        return parse_seconds(raw)
    except ValueError as err:
        raise UserError(f"{ENV}={raw}: {err}") from None


seconds: float | None = None
"""The budget set by ``--eval-budget`` (None: ``TLACONF_EVAL_BUDGET``, else the default)."""
_active = 0


def current() -> float:
    """The budget per evaluation in seconds (0: unlimited)."""
    return from_env() if seconds is None else seconds


def _expired(signum: int, frame: Any) -> None:
    raise BudgetExhausted


def message(budget: float) -> str:
    return (f"the evaluation budget of {budget:g} s is exhausted (a check that runs away, "
            "or a set too large to enumerate?); raise it with --eval-budget SECONDS")


RECURSION_LIMIT = 20_000
"""Generated code recurses as deep as the TLA+ recursion; Python's default (1000) is too
low.  Raised only while tlaconf evaluates or analyses (:func:`deep`), then restored."""


@contextmanager
def deep() -> Iterator[None]:
    """Run the block with Python's recursion limit raised to :data:`RECURSION_LIMIT` (the
    previous limit is restored after it: importing or calling tlaconf leaves the process
    as it was)."""
    old = sys.getrecursionlimit()
    if old >= RECURSION_LIMIT:
        yield
        return
    sys.setrecursionlimit(RECURSION_LIMIT)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


@contextmanager
def limit(where: Span = NO_SPAN) -> Iterator[None]:
    """Run the block under the budget (nested blocks share the outermost one's).  When it
    runs out, the outermost block raises an ``EvalError`` located at the constant
    expression being folded, else at ``where`` (what the block evaluates)."""
    global _active
    budget = current() if _active == 0 else 0.0
    armed = budget > 0 and threading.current_thread() is threading.main_thread()
    _active += 1
    old: Any = None
    if armed:
        old = signal.signal(signal.SIGALRM, _expired)
        signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        try:
            with deep():
                yield
        finally:
            _active -= 1
            if armed:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
    except BudgetExhausted as exc:
        if not armed:
            raise
        raise EvalError(message(budget), exc.span if exc.span != NO_SPAN else where) from None
