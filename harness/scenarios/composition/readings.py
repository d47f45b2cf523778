"""Golden traces written from the seed's text alone, state by state (no helper drives them).

Each pins a reading the seed decides and an earlier reading got wrong: the
conforming trace is what the seed says a product does, the violations what it
forbids.  They are checked against the conformance modules like every golden trace.
"""

from __future__ import annotations

from typing import Any

from harness.scenarios.composition.common import Golden, Literal

PUBLIC_LIST = {"kind": "list", "identity": "public", "order": "public", "owner": "",
               "slotKeys": []}
#: A queue (fifo: "access: lifo, fifo, anyIndex, or slots") and a public pile (lifo).
FIFO_TABLE = {
    "Policies": {"Queue": {**PUBLIC_LIST, "access": "fifo"},
                 "Pile": {**PUBLIC_LIST, "access": "lifo"}},
    "Controllers": ["SideA", "SideA", "SideA"], "Seats": {"SideA", "SideB"},
    "TargetSpecs": {}, "ActionDefinitions": set(),
}


def _queue(queue: list[int], pile: list[int]) -> dict[str, Any]:
    """Zones top first: the queue's newest arrival first, its front (oldest) last."""
    return {"zones": {"Queue": queue, "Pile": pile}}


def _move(entry: int, source: str, destination: str) -> dict[str, Any]:
    return {"entry": entry, "source": source, "destination": destination}


def _fifo_start() -> Literal:
    """1 arrived first, then 2, then 3: the queue's front is 1."""
    return Literal("TurnObservation", FIFO_TABLE,
                   {**_queue([3, 2, 1], []), "faceUp": set(), "revealed": set(), "replay": []})


def turn_observation_fifo() -> Golden:
    """A fifo zone gives up its oldest entry first; arrivals queue behind."""
    out: Golden = {}
    t = _fifo_start()
    t.step("Move", _move(1, "Queue", "Pile"), **_queue([3, 2], [1]))   # the front leaves
    t.step("Move", _move(3, "Queue", "Pile"), "rejected")              # the newest may not
    t.step("Move", _move(2, "Queue", "Pile"), **_queue([3], [2, 1]))
    t.step("Move", _move(2, "Pile", "Queue"), **_queue([2, 3], [1]))   # 2 queues behind 3
    t.step("Move", _move(2, "Queue", "Pile"), "rejected")
    t.step("Move", _move(3, "Queue", "Pile"), **_queue([2], [3, 1]))
    out["turn-views-fifo-conforming.trace.jsonl"] = (t, None, "")
    t = _fifo_start()
    step = t.step("Move", _move(3, "Queue", "Pile"), **_queue([2, 1], [3]))
    out["turn-views-fifo-read-as-a-stack.trace.jsonl"] = (
        t, step, "zones[z][Len(zones[z])] = e")
    t = _fifo_start()
    step = t.step("Move", _move(1, "Queue", "Pile"), "rejected")
    out["turn-views-fifo-front-refused.trace.jsonl"] = (t, step, None)
    t = _fifo_start()
    t.step("Move", _move(1, "Queue", "Pile"), **_queue([3, 2], [1]))
    step = t.step("Move", _move(1, "Pile", "Queue"), **_queue([3, 2, 1], []))
    out["turn-views-fifo-arrival-at-the-front.trace.jsonl"] = (
        t, step, "zones' = [zones EXCEPT ![p.source] = Remove(@, p.entry, "
                 "Policies[p.source].kind), ![p.destination] = IF "
                 "Policies[p.destination].kind = \"bag\" THEN InsertSorted(@, p.entry) "
                 "ELSE <<p.entry>> \\o @]")
    return out
