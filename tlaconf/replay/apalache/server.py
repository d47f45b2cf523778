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

import atexit
import base64
import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from apalache_rpc.client import JsonRpcClient, JsonRpcError

from tlaconf.errors import CheckerFailed, UserError

INSTALL_HINT = (
    "the apalache backend needs Apalache 0.62 or later "
    "(https://apalache-mc.org/docs/apalache/installation/, Java 17+): put apalache-mc on PATH, "
    "or set APALACHE_MC=/path/to/apalache-mc, or set APALACHE_SERVER=http://localhost:8822 "
    "to use a server started with `apalache-mc server --server-type=explorer`"
)


def find_apalache() -> tuple[str | None, str | None]:
    """``(server URL, None)`` from ``APALACHE_SERVER``, or ``(None, apalache-mc path)``."""
    url = os.environ.get("APALACHE_SERVER")
    if url:
        parsed = urlparse(url)
        if parsed.scheme != "http" or not parsed.hostname:
            raise UserError(f"APALACHE_SERVER={url} is not an http://host:port URL")
        return url, None
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """An ``apalache-mc server --server-type=explorer`` this process started."""

    def __init__(self, executable: str, startup: float = 120.0) -> None:
        self.port = _free_port()
        self.folder = tempfile.mkdtemp(prefix="tlaconf-apalache-")
        self.log = tempfile.TemporaryFile(dir=self.folder)  # noqa: SIM115 - lives with the server
        self.process = subprocess.Popen(
            [executable, "server", "--server-type=explorer", f"--port={self.port}"],
            cwd=self.folder, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        atexit.register(self.stop)
        deadline = time.monotonic() + startup
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.log.seek(0)
                err = self.log.read().decode(errors="replace").strip()[-500:]
                self.stop()
                raise CheckerFailed(f"{executable} server exited with "
                                    f"{self.process.returncode}: {err}")  # fmt: skip
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.3)
        self.stop()
        raise CheckerFailed(f"{executable} server did not listen within {startup:g} s")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        """Stop the server (idempotent) and remove its working directory."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class Client(JsonRpcClient):
    """The explorer client: raw answers, JSON-RPC errors turned into tlaconf's errors."""

    def __init__(self, url: str, timeout: int) -> None:
        parsed = urlparse(url)
        super().__init__(parsed.hostname or "127.0.0.1", parsed.port or 8822,
                         solver_timeout=timeout, load_spec_timeout=timeout)  # fmt: skip
        self.url = url

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """One request in the current session; UserError for spec errors, else CheckerFailed."""
        if method != "loadSpec":
            params = {"sessionId": self.session_id, **params}
        try:
            result: dict[str, Any] = self._rpc_call(method, params)
        except JsonRpcError as err:
            if err.code == -3:
                raise CheckerFailed(f"cannot reach the Apalache server at {self.url}: "
                                    f"{err.message}") from None  # fmt: skip
            if err.code == -1:
                raise CheckerFailed(f"Apalache gave no answer to {method}: {err.message}") from None
            if method == "loadSpec" and "Failed to load specification" in err.message:
                raise UserError(f"Apalache cannot load the module: {err.message}") from None
            raise CheckerFailed(f"Apalache, {method}: {err.message} (code {err.code})") from None
        if not isinstance(result, dict):
            raise CheckerFailed(f"Apalache, {method}: unexpected answer {result!r}")
        return result

    def load(self, texts: tuple[str, ...], invariants: list[str]) -> dict[str, Any]:
        """Open the session; the ``specParameters`` of the answer."""
        result = self.call(
            "loadSpec",
            sources=[base64.b64encode(t.encode()).decode("ascii") for t in texts],
            init="TlaconfInit", next="TlaconfNext", invariants=invariants, exports=[],
        )  # fmt: skip
        self.session_id = result["sessionId"]
        params: dict[str, Any] = result["specParameters"]
        return params

    def status(self, method: str, **params: Any) -> str:
        """The ``status`` (or ``invariantStatus``) of a checking request."""
        result = self.call(method, timeoutSec=self.solver_timeout, **params)
        status = result.get("status", result.get("invariantStatus"))
        if not isinstance(status, str):
            raise CheckerFailed(f"Apalache, {method}: no status in {result!r}")
        return status

    def dispose(self) -> None:
        if self.session_id is not None:
            with contextlib.suppress(CheckerFailed, UserError):
                self.call("disposeSpec")
        self.close()
