"""The golden-trace gate: replay ``traces/`` and compare with ``traces/verdicts.json``."""

from tlaconf.gate.golden import (
    Difference,
    Expectation,
    assemble,
    compare,
    default_traces_dir,
    load_verdicts,
    matches,
    updated_verdicts,
    write_verdicts,
)

__all__ = [
    "Difference",
    "Expectation",
    "assemble",
    "compare",
    "default_traces_dir",
    "load_verdicts",
    "matches",
    "updated_verdicts",
    "write_verdicts",
]
