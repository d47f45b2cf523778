"""Apalache's answers recorded and played back: what lets the tests of the Apalache solver
run without Apalache (``generate_apalache_answers.py`` records them from a real server).

:class:`Recording` is the real client, keeping each exchange; :class:`Playback` answers
from the exchanges kept, and fails the test when tlaconf asks anything else than what
was recorded (the root module's text included): the request mapping is checked with
the response mapping.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from apalache_rpc.client import JsonRpcError

from tlaconf.replay.apalache.server import Client

ANSWERS = Path(__file__).with_name("apalache_answers.json")

Exchange = dict[str, Any]


def _comparable(params: Any) -> Any:
    """A request's params without what depends on the clock (the time left)."""
    return {k: v for k, v in (params or {}).items() if k != "timeoutSec"}


class Recording(Client):
    """The real client; ``exchanges`` keeps what it asked and what it was answered."""

    def __init__(self, url: str, limit: float) -> None:
        super().__init__(url, limit)
        self.exchanges: list[Exchange] = []

    def _rpc_call(self, method: str, params: Any = None, timeout: int | None = None) -> Any:
        entry: Exchange = {"method": method, "params": _comparable(params)}
        self.exchanges.append(entry)
        try:
            entry["result"] = super()._rpc_call(method, params, timeout)
        except JsonRpcError as err:
            entry["error"] = {"code": err.code, "message": err.message}
            raise
        return entry["result"]


class Playback(Client):
    """Answers from recorded exchanges, in order (AssertionError on any other request);
    ``exchanges`` is consumed, so that the sessions of one run can share it."""

    def __init__(self, exchanges: list[Exchange], limit: float = 60.0) -> None:
        super().__init__("http://127.0.0.1:1", limit)
        self._recorded = exchanges
        self.asked: list[str] = []

    def _rpc_call(self, method: str, params: Any = None, timeout: int | None = None) -> Any:
        assert self._recorded, f"asked {method} after every recorded exchange"
        entry = self._recorded.pop(0)
        self.asked.append(method)
        assert (method, _comparable(params)) == (entry["method"], entry["params"]), (
            f"asked {method} {str(_comparable(params))[:300]}, recorded {entry['method']} "
            f"{str(entry['params'])[:300]}")
        if "error" in entry:
            raise JsonRpcError(entry["error"]["code"], entry["error"]["message"])
        return entry["result"]

    @property
    def done(self) -> bool:
        return not self._recorded


def recorded() -> dict[str, list[Exchange]]:
    """Scenario name -> its exchanges, as recorded."""
    data: dict[str, list[Exchange]] = json.loads(ANSWERS.read_text(encoding="utf-8"))["scenarios"]
    return data
