"""A fake Apalache explorer server (JSON-RPC over HTTP on 127.0.0.1) for the backend's tests.

It answers every method the backend uses with results of the shapes the
Apalache JSON-RPC documentation gives, records each request, and lets a test
decide the statuses with ``oracle(method, params, root) -> str`` where ``root``
is the decoded text of the root module of the current session.  Run as a
script (``fake_apalache.py server --server-type=explorer --port=N``) it stands in
for the ``apalache-mc`` executable.
"""

from __future__ import annotations

import base64
import gzip
import json
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Oracle = Callable[[str, dict[str, Any], str], str]


def default_oracle(method: str, params: dict[str, Any], root: str) -> str:
    return "ENABLED" if method == "assumeTransition" else "SATISFIED"


class FakeApalache:
    """A JSON-RPC server; ``requests`` lists ``(method, params)`` in arrival order."""

    def __init__(self, oracle: Oracle = default_oracle, n_next: int = 1, port: int = 0) -> None:
        self.oracle = oracle
        self.n_next = n_next
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.roots: dict[str, str] = {}
        self.load_error: tuple[int, str] | None = None
        self.listed = False  # answer specParameters with lists instead of counts
        self._sessions = 0
        self._snapshot = 0
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                request = json.loads(body)
                reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request["id"]}
                try:
                    reply["result"] = fake.answer(request["method"], request["params"])
                except _RpcError as err:
                    reply["error"] = {"code": err.code, "message": err.message}
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def methods(self) -> list[str]:
        return [m for m, _ in self.requests]

    def _next_snapshot(self) -> int:
        self._snapshot += 1
        return self._snapshot

    def answer(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.requests.append((method, params))
        if method == "loadSpec":
            if self.load_error:
                raise _RpcError(*self.load_error)
            self._sessions += 1
            sid = str(self._sessions)
            self.roots[sid] = base64.b64decode(params["sources"][0]).decode()
            invariants = params["invariants"]
            n_action = sum(1 for i in invariants if i == "TlaconfNotTarget")
            counts = {"InitTransitions": 1, "NextTransitions": self.n_next,
                      "StateInvariants": len(invariants) - n_action,
                      "ActionInvariants": n_action}  # fmt: skip
            if self.listed:
                spec = {k[0].lower() + k[1:]: [{"index": i} for i in range(n)]
                        for k, n in counts.items()}  # fmt: skip
            else:
                spec = {f"n{k}": n for k, n in counts.items()}
            return {"sessionId": sid, "snapshotId": 0, "specParameters": spec}
        sid = params["sessionId"]
        root = self.roots[sid]
        if method == "assumeTransition":
            status = self.oracle(method, params, root) if self._stepped(sid) else "ENABLED"
            return {"sessionId": sid, "snapshotId": self._next_snapshot(),
                    "transitionId": params["transitionId"], "status": status}  # fmt: skip
        if method == "nextStep":
            return {"sessionId": sid, "snapshotId": self._next_snapshot(), "newStepNo": 1}
        if method == "checkInvariant":
            status = self.oracle(method, params, root)
            trace = {"states": []} if status == "VIOLATED" else None
            return {"sessionId": sid, "invariantStatus": status, "trace": trace}
        if method == "rollback":
            return {"sessionId": sid, "snapshotId": params["snapshotId"]}
        if method == "disposeSpec":
            return {"sessionId": sid}
        raise _RpcError(-32601, f"Method not found: {method}")

    def _stepped(self, sid: str) -> bool:
        """Whether the session has taken its first step (past Init)."""
        return any(m == "nextStep" and p["sessionId"] == sid for m, p in self.requests)


class _RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


if __name__ == "__main__":
    port = next(int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--port="))
    server = FakeApalache(port=port)
    server._thread.join()
