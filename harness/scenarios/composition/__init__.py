"""Seeded scenarios of the card composition helpers (seed 002), one conformance module each.

Every walk mixes legal and illegal requests; rejected requests are recorded
with the unchanged state.  The same seed gives byte-identical traces.  Each
helper's module also has ``generate(out_dir, seed)`` (for ``tlaconf check
--scenarios``) and ``golden()`` (its golden traces).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from harness.scenarios.composition import (
    decks,
    durations,
    keywords,
    phases,
    responses,
    targets,
    transactions,
    turn_views,
)
from harness.scenarios.composition.common import Golden, Walk, record_walk

#: helper name -> (seeded walk, golden traces)
HELPERS: dict[str, tuple[Walk, Callable[[], Golden]]] = {
    "keywords": (keywords.walk, keywords.golden),
    "responses": (responses.walk, responses.golden),
    "targets": (targets.walk, targets.golden),
    "durations": (durations.walk, durations.golden),
    "phases": (phases.walk, phases.golden),
    "decks": (decks.walk, decks.golden),
    "transactions": (transactions.walk, transactions.golden),
    "turn-views": (turn_views.walk, turn_views.golden),
}


def generate(out_dir: Path, seed: int) -> list[Path]:
    """Write one trace per helper for ``seed``; their paths."""
    return [record_walk(Path(out_dir), name, seed, w) for name, (w, _) in HELPERS.items()]
