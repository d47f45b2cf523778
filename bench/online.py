"""Online checking: what ``tlaconf.Recorder(check=True)`` costs per recorded event.

The same ``ZoneMembership`` moves (random objects between random zones, every one
conforming) are recorded three ways, full and partial (a partial event logs the two
zones the move touched): without checking, with checking, and without checking then
replayed afterwards (``tlaconf.replay`` of the written file).  Printed: microseconds per
event for each, and the checking's overhead per event beside the replay's cost.
``TLACONF_BENCH_ONLINE_STEPS`` sets the number of events (default 2,000).
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tlaconf
from bench.replay import SEATS, SPEC, ZONES

Event = tuple[dict[str, Any], dict[str, Any]]
"""(params of a Move, the state after it)."""


def moves(steps: int, seed: int = 1, objects: int = 24) -> tuple[dict[str, Any], list[Event]]:
    """An initial state and ``steps`` conforming moves from it."""
    rng = random.Random(seed)
    where = {i: rng.choice(ZONES) for i in range(1, objects + 1)}

    def state() -> dict[str, Any]:
        return {"inGameIds": set(where),
                "occupants": {z: {i for i, z2 in where.items() if z2 == z} for z in ZONES}}

    first, events = state(), []
    for _ in range(steps):
        obj = rng.randint(1, objects)
        source = where[obj]
        destination = rng.choice([z for z in ZONES if z != source])
        where[obj] = destination
        events.append(({"id": obj, "source": source, "destination": destination,
                        "movementAuthorized": True, "revealRequired": False,
                        "revealedBeforeMove": True}, state()))
    return first, events


def record(path: Path, first: dict[str, Any], events: list[Event], partial: bool,
           check: bool) -> float:
    """Seconds to record ``events`` (after the recorder is set up: the module loaded)."""
    observe: Callable[[str | None, Any, dict[str, Any]], dict[str, Any]] | None = None
    if partial:
        def observe(action: str | None, p: Any, s: dict[str, Any]) -> dict[str, Any]:
            zones = (p["source"], p["destination"])
            return {"occupants": tlaconf.Some({z: s["occupants"][z] for z in zones})}
    with tlaconf.Recorder(path, "ZoneMembership", observe=observe, revision="2",
                          constants={"Seats4": set(SEATS)}, check=check, spec=SPEC) as rec:
        rec.init(first)
        start = time.perf_counter()
        for params, after in events:
            rec.accepted("Move", params, after)
        seconds = time.perf_counter() - start
    if check:
        assert rec.result is not None and rec.result.verdict == "conforms", rec.result
    return seconds


def main() -> None:
    if not (SPEC / "conformance" / "ZoneMembership.tla").is_file():
        print("online bench: skipped (spec/conformance/ZoneMembership.tla is not there)")
        return
    steps = int(os.environ.get("TLACONF_BENCH_ONLINE_STEPS", "2000"))
    first, events = moves(steps)
    with tempfile.TemporaryDirectory(prefix="tlaconf-bench-") as tmp:
        for partial in (False, True):
            kind = "partial" if partial else "full"
            plain = record(Path(tmp) / f"{kind}-plain.trace.jsonl", first, events, partial,
                           False)
            checked = record(Path(tmp) / f"{kind}-checked.trace.jsonl", first, events,
                             partial, True)
            start = time.perf_counter()
            [after] = tlaconf.replay(Path(tmp) / f"{kind}-plain.trace.jsonl", spec=SPEC)
            replayed = time.perf_counter() - start
            assert after.verdict == "conforms", after

            def us(seconds: float) -> str:
                return f"{seconds / steps * 1e6:>9,.0f} us/event"

            print(f"{kind} trace, {steps:,} events:")
            print(f"  recorded, not checked            {us(plain)}")
            print(f"  recorded and checked online      {us(checked)}  "
                  f"(overhead {us(checked - plain)}, x{checked / plain:,.1f})")
            print(f"  replayed afterwards (whole file) {us(replayed)}")


if __name__ == "__main__":
    main()
