"""The evaluation budget: how long one check (one ``holds``, ``enabled``, ``explain`` or
``evaluate`` call) may run before it is stopped and reported, instead of hanging.

The budget is wall-clock seconds, enforced with ``SIGALRM`` (no cost on the hot path);
``tlaconf --eval-budget S`` or ``TLACONF_EVAL_BUDGET`` sets it, ``0`` turns it off.
Outside the main thread (where signals cannot be delivered) checks are not limited.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

DEFAULT_SECONDS = 60.0


class BudgetExhausted(Exception):
    """Raised inside the evaluation when the budget runs out."""


def _from_env() -> float:
    raw = os.environ.get("TLACONF_EVAL_BUDGET", "")
    try:
        return float(raw) if raw else DEFAULT_SECONDS
    except ValueError:
        return DEFAULT_SECONDS


seconds: float = _from_env()
"""The current budget per check (0: unlimited)."""
_active = 0


def _expired(signum: int, frame: Any) -> None:
    raise BudgetExhausted


@contextmanager
def limit() -> Iterator[None]:
    """Run the block under the budget (nested blocks share the outermost one's)."""
    global _active
    armed = (_active == 0 and seconds > 0
             and threading.current_thread() is threading.main_thread())
    _active += 1
    old: Any = None
    if armed:
        old = signal.signal(signal.SIGALRM, _expired)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        _active -= 1
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
