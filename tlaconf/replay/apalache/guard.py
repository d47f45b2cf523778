"""The guard of an Apalache server: it lives exactly as long as the tlaconf that started it.

tlaconf runs ``python -m tlaconf.replay.apalache.guard PARENT FOLDER COMMAND...``
with a pipe as its standard input.  The guard starts ``COMMAND`` (the server) in
``FOLDER``, in its own session and process group, its output in
``FOLDER/server.log``, and prints ``started PID``.  It stops the server's whole
process group (SIGTERM, then SIGKILL after a grace period) and removes ``FOLDER``
when its standard input ends (tlaconf closed the pipe or died, even by SIGKILL),
on SIGTERM or SIGHUP, or when tlaconf's process ``PARENT`` is gone (Linux:
``PR_SET_PDEATHSIG``).  SIGINT is ignored: a Ctrl-C reaches tlaconf, which then
closes the pipe.  The server itself gets SIGKILL when the guard dies (again
``PR_SET_PDEATHSIG``, on Linux).  When the server exits on its own, the guard
prints ``exited CODE`` and the end of the server's log, removes ``FOLDER`` and
exits.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import select
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType

GRACE = 5.0
"""Seconds the server has to stop after SIGTERM before it gets SIGKILL."""

_PR_SET_PDEATHSIG = 1


def death_signal(sig: int) -> Callable[[], None] | None:
    """A function that makes the calling process get ``sig`` when its parent dies (Linux only)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None

    def arm() -> None:
        prctl(_PR_SET_PDEATHSIG, sig, 0, 0, 0)

    return arm


_stopping: list[int] = []
"""The signals that asked the guard to stop (the main loop looks at it twice a second)."""


def _on_signal(signum: int, frame: FrameType | None) -> None:
    _stopping.append(signum)


def stop_group(process: subprocess.Popen[bytes], grace: float = GRACE) -> None:
    """SIGTERM to the process group of ``process`` (its leader), SIGKILL after ``grace`` s."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, None)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    # the leader is gone; members of its group that outlived it get SIGKILL too
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def _tail(path: Path, limit: int = 2000) -> str:
    try:
        data = path.read_bytes()
    except OSError:
        return ""
    return data[-limit:].decode(errors="replace").strip()


def _say(text: str) -> None:
    """A line to tlaconf (which may be gone)."""
    with contextlib.suppress(OSError):
        print(text, flush=True)


def main(argv: list[str]) -> int:
    parent, folder, command = int(argv[0]), Path(argv[1]), argv[2:]
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGHUP, _on_signal)
    arm = death_signal(signal.SIGTERM)
    if arm is not None:
        arm()
    process: subprocess.Popen[bytes] | None = None
    log = folder / "server.log"
    try:
        if os.getppid() != parent:  # tlaconf died before the death signal was armed
            return 0
        with open(log, "wb") as out:
            process = subprocess.Popen(
                command, cwd=folder, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=death_signal(signal.SIGKILL),
            )  # fmt: skip
        _say(f"started {process.pid}")
        while not _stopping:
            ready, _, _ = select.select([sys.stdin], [], [], 0.5)
            if ready and not os.read(sys.stdin.fileno(), 4096):
                return 0  # tlaconf closed the pipe, or died
            code = process.poll()
            if code is not None:
                _say(f"exited {code}\n{_tail(log)}")
                return 0
            if os.getppid() != parent:
                return 0
        return 0
    except OSError as err:
        _say(f"exited 127\ncannot run {command[0]}: {err.strerror}")
        return 0
    finally:
        if process is not None:
            stop_group(process)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
