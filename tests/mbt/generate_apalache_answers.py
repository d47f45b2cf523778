"""Regenerate ``apalache_answers.json``: a real Apalache explorer server's answers to the
Apalache solver on the vault (``vault/Vault.tla``), so that the tests need no Apalache.

    APALACHE_MC=/path/to/apalache-mc python -m tests.mbt.generate_apalache_answers
"""

from __future__ import annotations

import json
import subprocess
import time
from typing import Any

from tlaconf.mbt.apalache_solver import Connection
from tlaconf.replay.apalache.server import find_apalache

from .apalache_exchanges import ANSWERS, Recording
from .vault_solver import SCENARIOS, vault_solver


def main() -> None:
    connection = Connection()
    _, executable = find_apalache()
    version = (subprocess.run([executable, "version"], capture_output=True, text=True,
                              check=False).stdout.strip() if executable else "a server")
    scenarios: dict[str, Any] = {}
    seconds: dict[str, float] = {}
    try:
        for name, (action, state) in SCENARIOS.items():
            clients: list[Recording] = []

            def connect(limit: float, clients: list[Recording] = clients) -> Recording:
                client = Recording(connection(limit).url, limit)
                clients.append(client)
                return client

            solver = vault_solver(connect)
            start = time.perf_counter()
            solver.solve(action, state, 0)
            seconds[name] = round(time.perf_counter() - start, 1)
            scenarios[name] = [e for c in clients for e in c.exchanges]
            print(f"{name}: {len(scenarios[name])} exchanges in {seconds[name]} s")
    finally:
        connection.close()
    ANSWERS.write_text(json.dumps({"apalache": version, "seconds": seconds,
                                   "scenarios": scenarios}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
