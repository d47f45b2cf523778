"""Write the golden composition-helper traces of ``traces/composition/`` (deterministic).

Conforming traces drive the helpers; violating traces take a conforming prefix
and then record one step as an implementation with a specific bug would.
``expected.json`` names, per trace, the step and the conjunct that must be
blamed.  Run ``python -m harness.scenarios.golden_composition``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from harness.scenarios.composition import HELPERS
from harness.scenarios.golden_abilities import write_groups


def write_all(out_dir: Path) -> list[Path]:
    """Write every golden trace and ``expected.json``; returns the trace paths."""
    return write_groups(out_dir, (golden for _, golden in HELPERS.values()))


if __name__ == "__main__":
    write_all(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("traces/composition"))
