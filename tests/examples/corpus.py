"""The public tlaplus/Examples corpus: where it is, and what real SANY says of its modules.

The checkout comes from ``TLACONF_EXAMPLES`` (``git clone https://github.com/tlaplus/Examples``);
SANY from ``TLC_JAR``.  Tests that need either skip with a message saying how to set it.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest

SANY_PROBE = Path(__file__).parents[1] / "tla" / "sany" / "SanyProbe.java"

HOW = ("set TLACONF_EXAMPLES to a checkout of the tlaplus/Examples repository "
       "(git clone https://github.com/tlaplus/Examples; make test-examples)")  # fmt: skip


def examples_root() -> Path:
    """The checkout's folder (the test is skipped when it is not set)."""
    value = os.environ.get("TLACONF_EXAMPLES")
    if not value:
        pytest.skip(HOW)
    root = Path(value)
    if not (root / "specifications").is_dir():
        pytest.fail(f"TLACONF_EXAMPLES={value} has no specifications/ folder: {HOW}")
    return root


def tlc_jar() -> str:
    jar = os.environ.get("TLC_JAR")
    if not jar:
        pytest.skip("needs SANY and TLC: set TLC_JAR=/path/to/tla2tools.jar")
    return jar


def modules(root: Path) -> list[Path]:
    """Every module file of the corpus, in a stable order."""
    return sorted((root / "specifications").rglob("*.tla"))


@lru_cache(maxsize=4)
def sany_verdicts(jar: str, root: Path) -> dict[Path, str]:
    """SANY's verdict on every module (``accept``, ``reject``: syntax or a missing module,
    ``semantic``: refused by semantic analysis or level checking), in one JVM."""
    files = modules(root)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["javac", "-cp", jar, "-d", tmp, str(SANY_PROBE)], check=True)
        out: dict[Path, str] = {}
        by_folder: dict[Path, list[Path]] = {}
        for f in files:
            by_folder.setdefault(f.parent, []).append(f)
        for folder, group in by_folder.items():  # SANY finds imports in the working folder
            run = subprocess.run(
                ["java", "-Dfull=true", "-Dlevels=true", "-cp", f"{jar}{os.pathsep}{tmp}",
                 "SanyProbe", *(f.name for f in group)],
                cwd=folder, capture_output=True, text=True, check=True, timeout=600,
            )  # fmt: skip
            for line in run.stdout.splitlines():
                name, verdict, *_ = line.split("\t")
                out[folder / name] = verdict
    return out
