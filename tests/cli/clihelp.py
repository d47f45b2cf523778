"""Helpers for end-to-end CLI tests: ``tlaconf`` run as a subprocess (:func:`runner`)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.replay.counter_backend import BACKEND

ROOT = Path(__file__).resolve().parents[2]
"""The repository (on the subprocess's PYTHONPATH, so that ``tests.replay.counter_backend``
and ``tests.replay.counter_scenarios`` import)."""
PY_BACKEND = f"{BACKEND}:PyBackend"
BACKENDS = [PY_BACKEND, "embedded"]


@dataclass
class Run:
    code: int
    out: str
    err: str


Cli = Callable[..., Run]


def runner(tmp_path: Path) -> Cli:
    """A ``cli(*args, cwd=tmp_path, env=None)`` that runs ``python -m tlaconf.cli.main``
    (no terminal)."""

    def run(*args: str | Path, cwd: Path = tmp_path, env: dict[str, str] | None = None) -> Run:
        environ = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
        environ.pop("NO_COLOR", None)
        environ.update(env or {})
        proc = subprocess.run(
            [sys.executable, "-m", "tlaconf.cli.main", *map(str, args)],
            cwd=cwd, env=environ, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        return Run(proc.returncode, proc.stdout, proc.stderr)

    return run
