"""Where the test suite's fixed data lives: everything under the repository."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The repository."""
DATA = ROOT / "tests" / "data"
SEEDS = DATA / "seeds"
"""The four source pages of the reference profile (the requirements), vendored."""
