"""Every module under ``spec/`` is valid TLA+ for real SANY (where ``TLC_JAR`` is set)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

SPEC = Path(__file__).parents[2] / "spec"
MODULES = sorted(SPEC.rglob("*.tla"))
LIBRARY = os.pathsep.join(sorted({str(p.parent) for p in MODULES}))

pytestmark = pytest.mark.skipif(
    not os.environ.get("TLC_JAR"),
    reason="needs SANY: set TLC_JAR=/path/to/tla2tools.jar (see docs/checkers.md, 'TLC')",
)


def sany(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["java", f"-DTLA-Library={LIBRARY}", "-cp", os.environ["TLC_JAR"], "tla2sany.SANY",
         path.name], cwd=path.parent, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SPEC)))
def test_sany_accepts_the_module(path: Path) -> None:
    run = sany(path)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]


def test_sany_refuses_a_chained_implication(tmp_path: Path) -> None:
    bad = tmp_path / "Chain.tla"
    bad.write_text("---- MODULE Chain ----\nCONSTANTS a, b, c\nE == a => b => c\n====\n")
    run = sany(bad)
    assert run.returncode != 0 and "Precedence conflict" in run.stdout + run.stderr
