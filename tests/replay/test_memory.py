"""Replay streams: the memory it needs does not grow with the trace's length."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from tests.replay.counter_backend import SPEC, PyBackend, state, write_trace
from tlaconf.replay import replay_trace


def _trace(path: Path, steps: int) -> Path:
    rows = []
    count = 0
    for k in range(steps):
        if k % 7 == 6:
            rows.append(("Reset", {"atLeast": 0}, "accepted", state(0)))
            count = 0
        else:
            count += 1
            rows.append(("Inc", {"by": 1, "who": "a"}, "accepted", state(count, a=count, b=0)))
    return write_trace(path, state(0), rows)


def _peak(path: Path) -> int:
    backend = PyBackend()
    replay_trace(path, SPEC, backend)  # load the module once, outside the measurement
    tracemalloc.start()
    try:
        result = replay_trace(path, SPEC, backend)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.verdict == "conforms", result.failure
    return peak


def test_peak_memory_is_flat_in_trace_length(tmp_path: Path) -> None:
    short = _peak(_trace(tmp_path / "short.trace.jsonl", 500))
    long = _peak(_trace(tmp_path / "long.trace.jsonl", 20_000))
    assert long < short * 1.5 + 64 * 1024, (short, long)
