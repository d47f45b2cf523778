"""The evaluation budget: how long one evaluation (one ``holds``, ``enabled``, ``explain`` or
``evaluate`` call, the compilation of a definition with its constant folding, a module's
ASSUMEs) may run before it is stopped and reported, instead of hanging.

The budget is wall-clock seconds (no cost on the hot path): in the main thread a
``SIGALRM`` timer stops an evaluation past its deadline; in other threads (a Dask
worker's, where signals cannot be delivered) one watchdog thread does, by raising the
same exception in the evaluating thread (CPython's ``PyThreadState_SetAsyncExc``, taken
at the thread's next bytecode: a long call into C, such as sorting a huge set, ends
first).  ``tlaconf --eval-budget S`` or ``TLACONF_EVAL_BUDGET`` sets it, ``0`` turns it off.
"""

from __future__ import annotations

import contextvars
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
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


def message(budget: float) -> str:
    return (f"the evaluation budget of {budget:g} s is exhausted (a check that runs away, "
            "or a set too large to enumerate?); raise it with --eval-budget SECONDS")


class Budget:
    """One run's budget per evaluation (``seconds``; 0: unlimited) and its timer.

    Inside a run (:func:`run`) the timer costs no system call per evaluation: each
    outermost evaluation only notes its deadline; the ``SIGALRM`` handler, installed at
    the run's first evaluation, and a one-shot timer armed when none is pending, stop an
    evaluation past its deadline and re-arm for one that started later.  :meth:`close`
    (the end of the run) cancels the timer and puts the previous handler back.  Outside
    any run, each outermost evaluation arms and restores everything itself (the process
    is left as it was after every evaluation).
    """

    def __init__(self, seconds: float, lasting: bool) -> None:
        self.seconds = seconds
        self.lasting = lasting
        """Whether the handler and timer stay between evaluations (until :meth:`close`)."""
        self.depth = 0
        self.deadline = 0.0
        self.armed = False
        self.installed = False
        self.old: Any = None

    def _expired(self, signum: int, frame: Any) -> None:
        self.armed = False
        if self.depth == 0 or self.deadline == 0.0:
            return  # the timer of an evaluation that has ended
        rest = self.deadline - time.monotonic()
        if rest > 0:  # an evaluation that started after the timer was armed
            signal.setitimer(signal.ITIMER_REAL, rest)
            self.armed = True
            return
        raise BudgetExhausted

    def enter(self) -> bool:
        """Start an evaluation; whether this one is timed (the outermost, with a budget)."""
        self.depth += 1
        if self.depth > 1 or self.seconds <= 0:
            return False
        self.deadline = time.monotonic() + self.seconds
        if threading.get_ident() != _MAIN:
            _WATCHDOG.watch(threading.get_ident(), self.deadline)
            return True
        if not self.installed:
            self.old = signal.signal(signal.SIGALRM, self._expired)
            self.installed = True
        if not self.armed:
            self.armed = True
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return True

    def leave(self, timed: bool) -> None:
        self.depth -= 1
        if timed:
            self.deadline = 0.0
            if not self.lasting:
                self.close()

    def close(self) -> None:
        """Cancel the timer and put the previous ``SIGALRM`` handler back."""
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            self.armed = False
        if self.installed:
            signal.signal(signal.SIGALRM, self.old)
            self.installed = False
            self.old = None


class _Watchdog:
    """One daemon thread that raises :class:`BudgetExhausted` in a thread other than the
    main one whose evaluation runs past its deadline (started at the first such
    evaluation).  :meth:`unwatch`, called by the evaluating thread as its evaluation ends,
    withdraws an exception raised too late to be taken, so none is left pending."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.deadlines: dict[int, float] = {}
        self.posted: set[int] = set()
        self.thread: threading.Thread | None = None
        self.wake = float("inf")
        """When the watchdog looks next (it is woken only for an earlier deadline)."""

    def watch(self, tid: int, deadline: float) -> None:
        with self.cond:
            self.deadlines[tid] = deadline
            if self.thread is None:
                self.thread = threading.Thread(target=self._loop, name="tlaconf-eval-budget",
                                               daemon=True)
                self.thread.start()
            if deadline < self.wake:
                self.cond.notify()

    def unwatch(self, tid: int) -> None:
        """End ``tid``'s evaluation.  The exception may be taken while this runs (the
        caller then calls it again, as it is idempotent)."""
        with self.cond:
            self.deadlines.pop(tid, None)
            if tid in self.posted:
                _async_raise(tid, None)  # not taken yet: withdrawn
                self.posted.discard(tid)

    def _loop(self) -> None:
        with self.cond:
            while True:
                if not self.deadlines:
                    self.wake = float("inf")
                    self.cond.wait()
                    continue
                tid, deadline = min(self.deadlines.items(), key=lambda item: item[1])
                rest = deadline - time.monotonic()
                if rest > 0:
                    self.wake = deadline
                    self.cond.wait(rest)
                    continue
                del self.deadlines[tid]
                self.posted.add(tid)
                _async_raise(tid, BudgetExhausted)


def _async_raise(tid: int, exc: type[BaseException] | None) -> None:
    """Raise ``exc`` in thread ``tid`` at its next bytecode (None: withdraw a pending one)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid),
                                               None if exc is None else ctypes.py_object(exc))


_WATCHDOG = _Watchdog()
_MAIN = threading.main_thread().ident
_RUN: ContextVar[Budget | None] = ContextVar("tlaconf_budget", default=None)


def inside() -> bool:
    """Whether an evaluation here runs inside a :class:`limit` (under the budget)."""
    b = _RUN.get()
    return b is not None and b.depth > 0


def current_seconds() -> float:
    """The budget an evaluation started now would have (the run's, else the environment's)."""
    b = _RUN.get()
    return from_env() if b is None else b.seconds


@contextmanager
def run(seconds: float | None = None) -> Iterator[Budget]:
    """The block is one run: its evaluations share one :class:`Budget` of ``seconds``
    each (None: the enclosing run's, else ``TLACONF_EVAL_BUDGET``, else the default),
    whose timer is released when the block ends."""
    outer = _RUN.get()
    if seconds is None and outer is not None:
        yield outer
        return
    b = Budget(from_env() if seconds is None else seconds, lasting=True)
    token = _RUN.set(b)
    try:
        yield b
    finally:
        _RUN.reset(token)
        b.close()


RECURSION_LIMIT = 20_000
"""Generated code recurses as deep as the TLA+ recursion; Python's default (1000) is too
low.  Raised only while tlaconf evaluates or analyses (:func:`deep`), then restored."""


DEEP_LIMIT = 100_000
"""The recursion limit of an evaluation retried on a thread of its own (:func:`call`)."""
DEEP_STACK = 1 << 30
"""That thread's stack (bytes of address space: the pages it does not touch cost nothing)."""


def call(fn: Callable[..., Any], args: tuple[Any, ...],
         again: Callable[[], None] | None = None) -> Any:
    """``fn(*args)`` (under the enclosing :class:`limit`).  When it recurses deeper than
    :data:`RECURSION_LIMIT` it is run again (after ``again()`` undoes what the first run
    changed) on a thread of its own whose stack is sized for :data:`DEEP_LIMIT`, that
    limit set only while it runs: Python's limit stays low for the rest of the process, and
    a deep recursion cannot overflow the main thread's stack."""
    try:
        return fn(*args)
    except RecursionError:
        pass
    if again is not None:
        again()
    return _on_deep_thread(fn, args)


def _on_deep_thread(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    out: list[tuple[bool, Any]] = []
    context = contextvars.copy_context()  # the same run and budget

    def target() -> None:
        try:
            out.append((True, context.run(fn, *args)))
        except BaseException as exc:  # handed to the waiting thread
            out.append((False, exc))

    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, DEEP_LIMIT))  # before the thread runs, not after
    old_size = threading.stack_size(DEEP_STACK)
    try:
        thread = threading.Thread(target=target, name="tlaconf-deep-evaluation", daemon=True)
        thread.start()
    except BaseException:
        sys.setrecursionlimit(old_limit)
        raise
    finally:
        threading.stack_size(old_size)
    try:
        while thread.is_alive():
            thread.join(0.05)  # the budget's signal (or SIGINT) is taken between waits
    except BaseException:  # the waiting thread is stopped: so is the evaluation
        while thread.is_alive():
            _async_raise(thread.ident or 0, BudgetExhausted)
            thread.join(0.05)
        raise
    finally:
        sys.setrecursionlimit(old_limit)
    ok, value = out[0]
    if ok:
        return value
    raise value


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


class limit:
    """Run the block under the budget (nested blocks share the outermost one's).  When it
    runs out, the outermost block raises an ``EvalError`` located at the constant
    expression being folded, else at ``where`` (what the block evaluates).  The block
    also runs with Python's recursion limit raised (:func:`deep`)."""

    __slots__ = ("budget", "old_limit", "timed", "token", "where")

    def __init__(self, where: Span = NO_SPAN) -> None:
        self.where = where

    def __enter__(self) -> None:
        b = _RUN.get()
        self.token: Token[Budget | None] | None = None
        if b is None:  # outside a run: the blocks nested in this one share its budget
            b = Budget(from_env(), lasting=False)
            self.token = _RUN.set(b)
        self.budget = b
        self.timed = b.enter()
        self.old_limit = sys.getrecursionlimit()
        if self.old_limit < RECURSION_LIMIT:
            sys.setrecursionlimit(RECURSION_LIMIT)

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: Any) -> None:
        if self.timed and threading.get_ident() != _MAIN:
            while True:  # the watchdog's exception, taken now or withdrawn
                try:
                    _WATCHDOG.unwatch(threading.get_ident())
                    break
                except BudgetExhausted as late:
                    exc = late
        if self.old_limit < RECURSION_LIMIT:
            sys.setrecursionlimit(self.old_limit)
        if self.token is not None:
            _RUN.reset(self.token)
        self.budget.leave(self.timed)
        if isinstance(exc, BudgetExhausted) and self.timed:
            raise EvalError(message(self.budget.seconds),
                            exc.span if exc.span != NO_SPAN else self.where) from None
