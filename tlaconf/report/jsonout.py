"""``replay --json``.

The shape (DESIGN.md): ``{"traces": [{"path", "module", "verdict", "steps", "failure"}],
"summary"}``; ``failure`` is null for a conforming trace.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tlaconf.replay.result import VERDICTS, TraceResult, exit_code


def summary(results: Sequence[TraceResult]) -> dict[str, Any]:
    """Counts per verdict, total steps and time, and the exit code the run ends with."""
    counts: dict[str, int] = {v: sum(r.verdict == v for r in results) for v in VERDICTS}
    return {
        "traces": len(results),
        **counts,
        "steps": sum(r.steps for r in results),
        "seconds": round(sum(r.seconds for r in results), 3),
        "exit_code": exit_code(list(results)),
    }


def json_report(results: Sequence[TraceResult]) -> dict[str, Any]:
    """The JSON document of DESIGN.md for ``results``."""
    return {"traces": [r.to_json() for r in results], "summary": summary(results)}
