"""``replay --json``.

The shape: ``{"traces": [{"path", "module", "verdict", "steps", "failure"}],
"summary"}``; ``failure`` is null for a conforming trace; ``summary.revision`` is
the run's ``--revision`` (null when every trace was checked against the revision
its header names).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tlaconf.replay.result import VERDICTS, TraceResult, exit_code


def summary(results: Sequence[TraceResult], revision: str | None = None) -> dict[str, Any]:
    """Counts per verdict, total steps and time, the exit code the run ends with and the
    run's ``--revision``."""
    counts: dict[str, int] = {v: sum(r.verdict == v for r in results) for v in VERDICTS}
    return {
        "traces": len(results),
        **counts,
        "steps": sum(r.steps for r in results),
        "seconds": round(sum(r.seconds for r in results), 3),
        "exit_code": exit_code(list(results)),
        "revision": revision,
    }


def json_report(results: Sequence[TraceResult], revision: str | None = None) -> dict[str, Any]:
    """The ``replay --json`` document for ``results`` (``revision``: the run's ``--revision``)."""
    return {"traces": [r.to_json() for r in results], "summary": summary(results, revision)}
