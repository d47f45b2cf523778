"""Seeded scenarios of the implementation under test, written as ``tlaconf-trace`` files."""

from __future__ import annotations

from pathlib import Path

from harness.scenarios.play import generate


def generate_all(out_dir: Path, seed: int) -> list[Path]:
    """Write every scenario trace (deterministic for ``seed``) into ``out_dir``; their paths."""
    return list(generate(Path(out_dir), seed))
