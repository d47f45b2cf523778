"""SIGINT and SIGTERM as an exception, so that a run ended by either unwinds cleanly.

Python turns SIGINT into :class:`KeyboardInterrupt` but dies on SIGTERM (a CI job's
timeout) without running a ``finally``: child processes keep running and temporary
folders stay.  Inside :func:`interruptible` both signals raise :class:`Interrupted` in
the main thread; every context manager and ``finally`` on the way out then runs
(checker sessions close, ``subprocess.run`` kills its child, worker pools are
terminated, ``files.writing`` drops its temporary file).  While that cleanup runs, a
second signal is ignored, so the cleanup itself is not cut short.

How a backend registers cleanup: it does not register anything.  It holds a child
process or a temporary folder in a ``with`` block, or releases it in the ``close()``
that the replay loop calls from its ``finally`` (a checker session's), exactly as it
would for any exception; a process-wide resource (a server shared by every trace) may
also use :mod:`atexit`, which runs because the interpreter exits normally.
"""

from __future__ import annotations

import signal
import subprocess
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived.  A :class:`KeyboardInterrupt`, so ``except Exception``
    never swallows it and every ``with`` block and ``finally`` on the way out runs."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.signal_name = signal.Signals(signum).name
        super().__init__(self.signal_name)


def _ignore(signum: int, frame: FrameType | None) -> None:
    """A second signal while the first one's cleanup runs: not cut short."""


_deferring = False
_pending: int | None = None


def _raise(signum: int, frame: FrameType | None) -> None:
    global _pending
    if _deferring:  # starting a child process: raised once it can be stopped
        _pending = signum
        return
    for s in SIGNALS:
        signal.signal(s, _ignore)
    raise Interrupted(signum)


def _resume() -> None:
    """End a deferral; a signal that arrived during it raises now."""
    global _deferring, _pending
    _deferring = False
    if _pending is not None:
        signum, _pending = _pending, None
        _raise(signum, None)


def run(command: Sequence[str], timeout: float | None = None,
        **options: Any) -> subprocess.CompletedProcess[Any]:
    """``subprocess.run(command, timeout=..., **options)`` that never leaves its child
    running: a signal that arrives while the child starts is held until the child can be
    killed, and any exception (Interrupted, TimeoutExpired) kills and reaps it."""
    global _deferring
    _deferring = True
    try:
        process = subprocess.Popen(command, **options)
    except BaseException:
        _resume()
        raise
    try:
        _resume()
        stdout, stderr = process.communicate(timeout=timeout)
    except BaseException:
        process.kill()
        process.wait()
        raise
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def raise_on_signals() -> None:
    """From now on SIGINT and SIGTERM raise :class:`Interrupted` (a worker process's
    initializer: its pool ends it with SIGTERM, and it unwinds as the parent does)."""
    for s in SIGNALS:
        signal.signal(s, _raise)


@contextmanager
def interruptible() -> Iterator[None]:
    """SIGINT and SIGTERM raise :class:`Interrupted` inside the block (main thread only;
    elsewhere the block runs unchanged); the previous handlers are restored after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.getsignal(s) for s in SIGNALS}
    raise_on_signals()
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
