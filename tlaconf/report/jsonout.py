"""``replay --json``.

The shape: ``{"traces": [{"path", "module", "verdict", "steps", "failure"}],
"summary"}``; ``failure`` is null for a conforming trace; ``summary`` has
``invariants`` (module -> number of invariants checked in every state),
``warnings``, and ``revision``: the run's ``--revision`` (null when every trace was
checked against the revision its header names).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tlaconf.replay.result import VERDICTS, TraceResult, exit_code, invariant_counts, warnings


def summary(
    results: Sequence[TraceResult], revision: str | None = None, strict: bool = False
) -> dict[str, Any]:
    """Counts per verdict, total steps and time, invariants checked per module, warnings,
    the exit code the run ends with and the run's ``--revision``."""
    counts: dict[str, int] = {v: sum(r.verdict == v for r in results) for v in VERDICTS}
    return {
        "traces": len(results),
        **counts,
        "steps": sum(r.steps for r in results),
        "states": sum(r.states for r in results),
        "seconds": round(sum(r.seconds for r in results), 3),
        "invariants": invariant_counts(results),
        "warnings": warnings(results),
        "exit_code": exit_code(results, strict),
        "revision": revision,
    }


def json_report(
    results: Sequence[TraceResult], revision: str | None = None, strict: bool = False
) -> dict[str, Any]:
    """The ``replay --json`` document for ``results`` (``revision``: the run's ``--revision``)."""
    return {"traces": [r.to_json() for r in results],
            "summary": summary(results, revision, strict)}
