"""Helpers for end-to-end CLI tests: ``tlaconf`` run as a subprocess."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

REPLAY_TESTS = Path(__file__).resolve().parents[1] / "replay"
sys.path.insert(0, str(REPLAY_TESTS))

HAS_EVALUATOR = importlib.util.find_spec("tlaconf.evaluate") is not None
PY_BACKEND = "counter_backend:PyBackend"
BACKENDS = [PY_BACKEND, pytest.param("embedded", marks=pytest.mark.skipif(
    not HAS_EVALUATOR, reason="tlaconf.evaluate is not merged yet"))]  # fmt: skip


@dataclass
class Run:
    code: int
    out: str
    err: str


Cli = Callable[..., Run]


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    """``cli(*args, cwd=tmp_path, env=None)`` runs ``python -m tlaconf.cli.main`` (no terminal)."""

    def run(*args: str | Path, cwd: Path = tmp_path, env: dict[str, str] | None = None) -> Run:
        environ = {**os.environ, "PYTHONPATH": str(REPLAY_TESTS), "COLUMNS": "200"}
        environ.pop("NO_COLOR", None)
        environ.update(env or {})
        proc = subprocess.run(
            [sys.executable, "-m", "tlaconf.cli.main", *map(str, args)],
            cwd=cwd, env=environ, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        return Run(proc.returncode, proc.stdout, proc.stderr)

    return run
