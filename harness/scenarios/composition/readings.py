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


def _window(priority: str, passes: int, *responses: str) -> dict[str, Any]:
    return {"priority": priority, "passes": passes,
            "responses": [{"id": r, "seat": s} for r, s in (x.split("@") for x in responses)]}


def _respond(seat: str, rid: str, nested: bool) -> dict[str, Any]:
    return {"seat": seat, "response": {"id": rid, "seat": seat}, "nested": nested}


def _arrive(entry: int, opens: bool, seat: str) -> dict[str, Any]:
    return {"entry": entry, "zone": "Play", "opens": opens, "seat": seat}


def _windows() -> Literal:
    t = Literal("ResponseWindow", {"SeatOrder": ["SideA", "SideB", "SideC"]},
                {"frames": [], "unwound": []})
    t.step("Open", {"seat": "SideA"}, frames=[_window("SideA", 0)])
    return t


def response_nesting() -> Golden:
    """"Decide whether a response or arrival opens a nested priority window": the product
    decides for each response and each arrival, and the window follows its decision."""
    out: Golden = {}
    t = _windows()
    t.step("Respond", _respond("SideA", "r1", True),                    # r1 nests
           frames=[_window("SideB", 0, "r1@SideA"), _window("SideB", 0)])
    t.step("Respond", _respond("SideB", "r2", False),                   # r2 does not
           frames=[_window("SideB", 0, "r1@SideA"), _window("SideC", 0, "r2@SideB")])
    t.step("Arrive", _arrive(7, False, "SideA"))                        # opens nothing
    t.step("Pass", {"seat": "SideC", "kind": "pass"},
           frames=[_window("SideB", 0, "r1@SideA"), _window("SideA", 1, "r2@SideB")])
    t.step("Pass", {"seat": "SideA", "kind": "timeout"},
           frames=[_window("SideB", 0, "r1@SideA"), _window("SideB", 2, "r2@SideB")])
    t.step("Pass", {"seat": "SideB", "kind": "wait"},                   # r2 resolves
           frames=[_window("SideB", 0, "r1@SideA")], unwound=[{"id": "r2", "seat": "SideB"}])
    t.step("Arrive", _arrive(8, True, "SideC"),                         # opens a window
           frames=[_window("SideB", 0, "r1@SideA"), _window("SideC", 0)])
    t.step("Pass", {"seat": "SideC", "kind": "pass"},
           frames=[_window("SideB", 0, "r1@SideA"), _window("SideA", 1)])
    t.step("Pass", {"seat": "SideA", "kind": "pass"},
           frames=[_window("SideB", 0, "r1@SideA"), _window("SideB", 2)])
    t.step("Pass", {"seat": "SideB", "kind": "pass"}, frames=[_window("SideB", 0, "r1@SideA")])
    t.step("Pass", {"seat": "SideB", "kind": "pass"}, frames=[_window("SideC", 1, "r1@SideA")])
    t.step("Pass", {"seat": "SideC", "kind": "pass"}, frames=[_window("SideA", 2, "r1@SideA")])
    t.step("Pass", {"seat": "SideA", "kind": "pass"}, frames=[],
           unwound=[{"id": "r2", "seat": "SideB"}, {"id": "r1", "seat": "SideA"}])
    out["responses-nesting-decided-per-response.trace.jsonl"] = (t, None, "")
    t = _windows()
    step = t.step("Respond", _respond("SideA", "r1", False),
                  frames=[_window("SideB", 0, "r1@SideA"), _window("SideB", 0)])
    out["responses-nested-without-the-decision.trace.jsonl"] = (
        t, step, "frames' = AfterResponse(SeatOrder, p.nested, frames, p.seat, p.response)")
    opened = "frames' = IF p.opens THEN Append(frames, NewWindow(p.seat)) ELSE frames"
    t = _windows()
    step = t.step("Arrive", _arrive(7, True, "SideC"))
    out["responses-arrival-window-not-opened.trace.jsonl"] = (t, step, opened)
    t = _windows()
    step = t.step("Arrive", _arrive(7, False, "SideC"),
                  frames=[_window("SideA", 0), _window("SideC", 0)])
    out["responses-arrival-opened-unasked.trace.jsonl"] = (t, step, opened)
    return out
