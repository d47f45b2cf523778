"""The bank example (tests/mbt/bank): a spec with Params_<Action>, a bank and its driver."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

BANK = Path(__file__).resolve().parent / "bank"


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def mbt_cli(tmp_path: Path):  # type: ignore[no-untyped-def]
    """``mbt_cli(*args)``: ``tlaconf mbt ARGS`` in ``tmp_path``, the bank driver importable as
    a user's module is: by ``PYTHONPATH`` (the child process's only)."""

    def run(*args: str | Path) -> Run:
        path = [str(BANK), str(BANK.parent / "gate"), str(BANK.parent / "vault"), *sys.path]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(path),
               "COLUMNS": "200", "NO_COLOR": "1"}
        proc = subprocess.run([sys.executable, "-m", "tlaconf.cli.main", "mbt", *map(str, args)],
                              cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
        return Run(proc.returncode, proc.stdout, proc.stderr)

    return run


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "apalache: the test solves with a real Apalache "
                            "(APALACHE_MC is kept for it)")


@pytest.fixture(autouse=True)
def _enumeration_unless_asked(request: pytest.FixtureRequest,
                              monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """``--solver auto`` picks Apalache when APALACHE_MC is set; a test that does not ask
    for it runs without, so that its time does not depend on the developer's environment."""
    if request.node.get_closest_marker("apalache") is None:
        monkeypatch.delenv("APALACHE_MC", raising=False)
        monkeypatch.delenv("APALACHE_SERVER", raising=False)
