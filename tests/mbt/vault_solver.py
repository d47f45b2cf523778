"""The Apalache solver on the vault (``vault/Vault.tla``), as the recorded answers and the
tests build it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tlaconf.evaluate.coverage import CoverageProbe
from tlaconf.mbt.apalache_solver import ApalacheSolver
from tlaconf.mbt.run import session_for
from tlaconf.mbt.solver import EnumerationSolver
from tlaconf.replay import get_backend
from tlaconf.replay.apalache.server import Client
from tlaconf.replay.apalache.solving import Solving
from tlaconf.spec.lookup import module_spec

VAULT = Path(__file__).resolve().parent / "vault"
if str(VAULT) not in sys.path:
    sys.path.insert(0, str(VAULT))

from vault import CODE, VaultDriver  # noqa: E402

SCENARIOS: dict[str, tuple[str, dict[str, Any]]] = {
    "withdraw-initial": ("Withdraw", {"balance": 300}),
    "sweep-initial": ("Sweep", {"balance": 300}),
}
"""Scenario -> the action solved for and the state."""


def vault_solver(connect: Callable[[float], Client], timeout: float = 120.0) -> ApalacheSolver:
    session = session_for(VaultDriver(), VAULT)
    spec = module_spec(VAULT, "Vault", "1", {"Code": CODE})
    enumeration = EnumerationSolver(session.domains, CoverageProbe(session.domains.ctx))
    return ApalacheSolver(enumeration, Solving(spec, get_backend("embedded").load(spec)),
                          connect, timeout)
