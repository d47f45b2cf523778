"""Write the golden composition-helper traces of ``traces/composition/`` (deterministic).

Conforming traces drive the helpers; violating traces take a conforming prefix
and then record one step as an implementation with a specific bug would.
``expected.json`` names, per trace, the step and the conjunct that must be
blamed.  Run ``python -m harness.scenarios.golden_composition``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from harness.scenarios.composition import HELPERS


def write_all(out_dir: Path) -> list[Path]:
    """Write every golden trace and ``expected.json``; returns the trace paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    expected: dict[str, dict[str, Any]] = {}
    paths = []
    for _, golden in HELPERS.values():
        for name, (script, step, conjunct) in golden().items():
            script.write(out_dir / name, name.removesuffix(".trace.jsonl"))
            paths.append(out_dir / name)
            expected[name] = {"verdict": "conforms"} if step is None else (
                {"verdict": "violation", "step": step}
                | ({} if conjunct is None else {"conjunct": conjunct}))
    (out_dir / "expected.json").write_text(
        json.dumps(expected, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return paths


if __name__ == "__main__":
    write_all(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("traces/composition"))
