"""Apalache's JSON-RPC explorer server: finding it, starting and stopping it, talking to it.

``APALACHE_SERVER=http://host:port`` uses a server already started with
``apalache-mc server --server-type=explorer``.  Otherwise tlaconf starts one from
``APALACHE_MC`` (the path of ``apalache-mc``), else ``apalache-mc`` on ``PATH``,
else ``$APALACHE_HOME/bin/apalache-mc``, on a free port, with a private
temporary working directory (Apalache writes ``_apalache-out/`` there), and
stops it when the backend closes or the process exits.  Apalache 0.62 has no
option to choose the interface: its server listens on every interface of the
port, so tlaconf only ever connects to it on 127.0.0.1.
"""

from __future__ import annotations

import base64
import contextlib
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from apalache_rpc.client import JsonRpcClient, JsonRpcError
from requests.adapters import HTTPAdapter

from tlaconf.errors import CheckerFailed, UserError
from tlaconf.replay.apalache import guard

INSTALL_HINT = (
    "the apalache backend needs Apalache 0.62 or later "
    "(https://apalache-mc.org/docs/apalache/installation/, Java 17+): put apalache-mc on PATH, "
    "or set APALACHE_MC=/path/to/apalache-mc, or set APALACHE_SERVER=http://localhost:8822 "
    "to use a server started with `apalache-mc server --server-type=explorer`"
)


def find_apalache() -> tuple[str | None, str | None]:
    """``(server URL, None)`` from ``APALACHE_SERVER``, or ``(None, apalache-mc path)``."""
    text = os.environ.get("APALACHE_SERVER", "").strip()
    if text:
        host, port = server_address(text)
        return f"http://{host}:{port}", None
    explicit = os.environ.get("APALACHE_MC")
    if explicit and not (Path(explicit).is_file() and os.access(explicit, os.X_OK)):
        raise UserError(f"APALACHE_MC={explicit} is not an executable file; {INSTALL_HINT}")
    candidates = [explicit, shutil.which("apalache-mc")]
    home = os.environ.get("APALACHE_HOME")
    if home:
        candidates.append(str(Path(home) / "bin" / "apalache-mc"))
    for c in candidates:
        if c and Path(c).is_file() and os.access(c, os.X_OK):
            return None, c
    raise UserError(f"apalache-mc not found; {INSTALL_HINT}")


_ADDRESS = re.compile(
    r"http://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)"
    r"(?::(?P<port>[0-9]{1,5}))?/?\Z"
)
"""``http://host[:port][/]``: a host name, an IPv4 address or a bracketed IPv6 one."""

DEFAULT_PORT = 8822
"""The port of ``apalache-mc server`` when it is not given one (and of an URL without one)."""


def server_address(text: str) -> tuple[str, int]:
    """The host and port of an ``APALACHE_SERVER`` URL; UserError (exit 2) when it is not one."""
    expected = (f"expected http://host:port with a port from 1 to 65535 "
                f"(e.g. http://localhost:{DEFAULT_PORT})")  # fmt: skip
    match = _ADDRESS.match(text)
    if match is None:
        bare = _ADDRESS.match(f"http://{text}") if "://" not in text else None
        hint = f"; did you mean http://{text}?" if bare is not None and bare["port"] else ""
        raise UserError(f"APALACHE_SERVER={text} is not a server URL: {expected}{hint}")
    port = int(match["port"]) if match["port"] is not None else DEFAULT_PORT
    if not 1 <= port <= 65535:
        raise UserError(f"APALACHE_SERVER={text} has port {port}, out of range: {expected}")
    return match["host"], port


_PASS = re.compile(r"PASS #\d+: \w+")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _close_guard(guard: subprocess.Popen[bytes], wait: float) -> None:
    """Close the guard's pipe (it then stops the server and removes its folder) and wait."""
    with contextlib.suppress(OSError):
        if guard.stdin is not None:
            guard.stdin.close()
    try:
        guard.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        guard.terminate()  # SIGTERM: the guard still stops the server before it exits
        with contextlib.suppress(subprocess.TimeoutExpired):
            guard.wait(timeout=wait)
    if guard.stdout is not None:
        guard.stdout.close()


class Server:
    """An ``apalache-mc server --server-type=explorer`` this process started, under a guard.

    The server runs in its own process group in a private temporary folder
    (Apalache writes ``_apalache-out/`` and its temporary files there); the guard
    (:mod:`~tlaconf.replay.apalache.guard`) stops it and removes the folder when
    :meth:`stop` runs (a ``with`` block, the checker's ``close``, interpreter
    exit) and also when tlaconf is killed outright, since its pipe to the guard
    then ends.
    """

    def __init__(self, executable: str, startup: float = 120.0) -> None:
        self.port = _free_port()
        self.folder = tempfile.mkdtemp(prefix="tlaconf-apalache-")
        command = [executable, "server", "--server-type=explorer", f"--port={self.port}"]
        env = {**os.environ, "TMPDIR": self.folder}  # apalache-mc's own temporary folders
        self.guard = subprocess.Popen(
            [sys.executable, "-P", guard.__file__, str(os.getpid()), self.folder, *command],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
        )  # fmt: skip
        self._finalizer = weakref.finalize(self, _close_guard, self.guard, guard.GRACE + 5)
        try:
            self.pid = self._started(executable)
            self._listening(executable, startup)
        except BaseException:
            self.stop()
            raise

    def _started(self, executable: str) -> int:
        assert self.guard.stdout is not None
        line = self.guard.stdout.readline().decode(errors="replace")
        if line.startswith("started "):
            return int(line.split()[1])
        raise CheckerFailed(f"{executable} server did not start: {self._exit_report(line)}")

    def _exit_report(self, first: str) -> str:
        assert self.guard.stdout is not None
        rest = self.guard.stdout.read().decode(errors="replace")
        code, _, tail = (first + rest).partition("\n")
        return f"{code.strip() or 'the guard exited'}: {tail.strip()[-500:]}"

    def _listening(self, executable: str, startup: float) -> None:
        deadline = time.monotonic() + startup
        while time.monotonic() < deadline:
            if self.guard.poll() is not None:
                assert self.guard.stdout is not None
                raise CheckerFailed(f"{executable} server {self._exit_report('')}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.3)
        raise CheckerFailed(f"{executable} server did not listen within {startup:g} s")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_size(self) -> int:
        """How much the server has logged so far (see :meth:`last_pass`)."""
        try:
            return (Path(self.folder) / "server.log").stat().st_size
        except OSError:
            return 0

    def last_pass(self, since: int = 0) -> str:
        """The last pass (``PASS #1: TypeCheckerSnowcat``) the server logged after ``since``."""
        try:
            with open(Path(self.folder) / "server.log", "rb") as f:
                f.seek(since)
                text = f.read().decode(errors="replace")
        except OSError:
            return ""
        passes = _PASS.findall(text)
        return passes[-1] if passes else ""

    @property
    def running(self) -> bool:
        return self.guard.poll() is None

    def stop(self) -> None:
        """Stop the server and remove its folder (idempotent; waits until both are done)."""
        self._finalizer()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


_SPEC_ERRORS = ("Failed to load specification", "type input error")
"""What ``loadSpec`` answers for a module Apalache refuses (the second as an internal error)."""


class CheckerTimedOut(CheckerFailed):
    """The server gave no answer within the trace's time limit (it may be stuck: restart it)."""


SOLVING = frozenset({"loadSpec", "assumeTransition", "checkInvariant", "nextStep"})
"""The methods that may take long (the others get a few seconds)."""


class Client(JsonRpcClient):
    """The explorer client for one trace: raw answers, every request within the trace's limit.

    ``limit`` seconds count from the client's creation; each request gets what is
    left (as the HTTP read timeout and as Apalache's ``timeoutSec``), and no
    request is retried.  ``doing`` says what the current request asks Apalache to
    do, for the message when it does not answer.
    """

    def __init__(self, url: str, limit: float, log: Callable[[], str] | None = None) -> None:
        host, port = server_address(url)
        whole = max(1, math.ceil(limit))
        super().__init__(host, port, solver_timeout=whole, load_spec_timeout=whole)
        self._session.mount("http://", HTTPAdapter(max_retries=0))
        self.url = url
        self.limit = limit
        self.deadline = time.monotonic() + limit
        self.doing = "loading the modules"
        self.hung = False
        self._log = log

    def _left(self, method: str) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise self._timed_out(method)
        return left if method in SOLVING else min(left, 10.0)

    def _timed_out(self, method: str) -> CheckerTimedOut:
        self.hung = True
        where = self._log() if self._log is not None and method == "loadSpec" else ""
        seen = f", in {where}" if where else ""
        return CheckerTimedOut(
            f"Apalache gave no answer within the time limit of {self.limit:g} s "
            f"(--checker-timeout) while {self.doing} ({method}){seen}"
        )

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """One request in the current session; UserError for spec errors, else CheckerFailed."""
        if method != "loadSpec":
            params = {"sessionId": self.session_id, **params}
        left = self._left(method)
        if method in ("assumeTransition", "checkInvariant"):  # loadSpec refuses timeoutSec
            params["timeoutSec"] = max(1, math.ceil(left))
        try:
            result: dict[str, Any] = self._rpc_call(method, params, timeout=math.ceil(left) + 1)
        except JsonRpcError as err:
            if err.code == -3:
                raise CheckerFailed(f"cannot reach the Apalache server at {self.url} while "
                                    f"{self.doing}: {err.message}") from None  # fmt: skip
            if err.code == -1:
                raise self._timed_out(method) from None
            if method == "loadSpec" and any(m in err.message for m in _SPEC_ERRORS):
                raise UserError(f"Apalache cannot load the module: {err.message}") from None
            raise CheckerFailed(f"Apalache, {method} while {self.doing}: {err.message} "
                                f"(code {err.code})") from None  # fmt: skip
        if not isinstance(result, dict):
            raise CheckerFailed(f"Apalache, {method}: unexpected answer {result!r}")
        return result

    def load(self, texts: tuple[str, ...], invariants: list[str]) -> dict[str, Any]:
        """Open the session; the ``specParameters`` of the answer."""
        self.doing = "loading the modules (parsing, type checking with Snowcat, preprocessing)"
        result = self.call(
            "loadSpec",
            sources=[base64.b64encode(t.encode()).decode("ascii") for t in texts],
            init="TlaconfInit", next="TlaconfNext", invariants=invariants, exports=[],
        )  # fmt: skip
        self.session_id = result["sessionId"]
        params: dict[str, Any] = result["specParameters"]
        return params

    def status(self, method: str, doing: str, **params: Any) -> str:
        """The ``status`` (or ``invariantStatus``) of a checking request."""
        self.doing = doing
        result = self.call(method, **params)
        status = result.get("status", result.get("invariantStatus"))
        if not isinstance(status, str):
            raise CheckerFailed(f"Apalache, {method}: no status in {result!r}")
        return status

    def step(self, doing: str) -> None:
        """``nextStep``."""
        self.doing = doing
        self.call("nextStep")

    def dispose(self) -> None:
        if self.session_id is not None and not self.hung:
            self.deadline = max(self.deadline, time.monotonic() + 10)
            with contextlib.suppress(CheckerFailed, UserError):
                self.call("disposeSpec")
        self.close()
