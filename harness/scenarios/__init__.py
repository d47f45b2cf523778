"""Seeded scenarios of the implementation under test, written as ``tlaconf-trace`` files."""

from __future__ import annotations

from pathlib import Path

from harness.scenarios import abilities, composition, library, play, views


def generate_all(out_dir: Path, seed: int) -> list[Path]:
    """Write every scenario trace (deterministic for ``seed``) into ``out_dir``; their paths.

    Zones, deck order, deals, observation and custody first, then the seat views, then the
    ability lifecycle, then the zone library's other policy axes, then the card composition
    helpers.
    """
    out = Path(out_dir)
    return [*play.generate(out, seed), *views.generate(out, seed), *abilities.generate(out, seed),
            *library.generate(out, seed), *composition.generate(out, seed)]
