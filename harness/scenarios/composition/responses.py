"""ResponseWindow scenarios: windows opened, responses and passes (timeouts, waits) in turn
and out of turn, closing and LIFO unwinds, responses and arrivals that the product decides,
each time, to nest or not."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.composition.errors import CompositionError
from harness.composition.responses import PassKind, Response, ResponseWindows
from harness.scenarios.composition import readings
from harness.scenarios.composition.common import (
    Golden,
    Mutation,
    Request,
    Script,
    keep,
    record_walk,
)

SEATS = ("SideA", "SideB", "SideC")


@dataclass(frozen=True)
class Open:
    seat: str
    label = "Open"

    def params(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True)
class Respond:
    seat: str
    response: Response
    nested: bool = False
    label = "Respond"

    def params(self) -> dict[str, Any]:
        return {"seat": self.seat, "response": self.response.value(), "nested": self.nested}


@dataclass(frozen=True)
class Pass:
    seat: str
    kind: str
    label = "Pass"

    def params(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind}


@dataclass(frozen=True)
class Arrive:
    """``entry`` arrived in ``zone``; the product decided whether it opens a window."""

    entry: int
    zone: str
    opens: bool
    seat: str
    label = "Arrive"

    def params(self) -> dict[str, Any]:
        return {"entry": self.entry, "zone": self.zone, "opens": self.opens, "seat": self.seat}


ResponseRequest = Open | Respond | Pass | Arrive


@dataclass
class ResponseMachine:
    """``ResponseWindow``: open windows and the unwound responses."""

    windows: ResponseWindows = field(default_factory=lambda: ResponseWindows(SEATS))
    module = "ResponseWindow"

    @property
    def constants(self) -> dict[str, Any]:
        return {"SeatOrder": list(self.windows.seats)}

    def apply(self, r: ResponseRequest) -> bool:
        w = self.windows
        try:
            match r:
                case Open():
                    self.windows = w.open(r.seat)
                case Respond():
                    self.windows = w.respond(r.seat, r.response, r.nested)
                case Arrive():
                    self.windows = w.arrive(r.opens, r.seat)
                case Pass():
                    kind: PassKind = r.kind  # type: ignore[assignment]
                    self.windows = w.pass_(r.seat, kind)
        except CompositionError:
            return False
        return True

    def variables(self) -> dict[str, Any]:
        return {"frames": [f.value() for f in self.windows.frames],
                "unwound": [r.value() for r in self.windows.unwound]}


def situations(m: ResponseMachine) -> Iterator[Request]:
    """The requests every walk makes first, one per refusal guard: a window opened by no
    seat, a second window, a response and a pass out of turn, a response made for
    another seat, a response id made before, a pass of an unknown kind, an arrival
    opening a window for no seat."""
    yield Open("SideZ")
    yield Open("SideA")
    yield Open("SideB")
    yield Respond("SideB", Response("r0", "SideB"))
    yield Pass("SideB", "pass")
    yield Respond("SideA", Response("r0", "SideA"))
    holder = m.windows.frames[-1].priority
    other = next(s for s in SEATS if s != holder)
    yield Respond(holder, Response("r00", other))
    yield Respond(holder, Response("r0", holder))
    yield Pass(holder, "skip")
    yield Arrive(1, "Play", True, "SideZ")


def requests(rng: random.Random, m: ResponseMachine, steps: int) -> Iterator[Request]:
    """The situations, then mostly the priority holder acting; sometimes another seat, an
    unknown pass kind, a response id made before, a second window opened, a response with
    no window."""
    yield from situations(m)
    made = 0
    for n in range(steps):
        frames = m.windows.frames
        if rng.random() < 0.06:
            seat = rng.choice(SEATS) if rng.random() < 0.9 else "SideZ"
            yield Arrive(n, rng.choice(("Play", "SideA.Hand")), rng.random() < 0.5, seat)
            continue
        if not frames or rng.random() < 0.04:
            yield Open(rng.choice(SEATS) if rng.random() < 0.9 else "SideZ")
            continue
        holder = frames[-1].priority
        seat = holder if rng.random() < 0.85 else rng.choice(SEATS)
        if rng.random() < 0.35 / len(frames):
            made += 1
            rid = f"r{made}" if rng.random() < 0.9 or made == 1 else f"r{made - 1}"
            yield Respond(seat, Response(rid, seat if rng.random() < 0.9 else rng.choice(SEATS)),
                          rng.random() < 0.4)
        else:
            kinds = ("pass", "timeout", "wait", "pass", "skip")
            yield Pass(seat, rng.choice(kinds) if rng.random() < 0.95 else "skip")


def walk(rng: random.Random) -> tuple[ResponseMachine, Iterator[Request]]:
    m = ResponseMachine()
    return m, requests(rng, m, 80)


def generate(out_dir: Path, seed: int) -> list[Path]:
    """This helper's scenario trace for ``seed``."""
    return [record_walk(out_dir, "responses", seed, walk)]


def _opened() -> Script:
    """A window opened by SideA, SideA responded r1, SideB passed."""
    s = Script(ResponseMachine())
    return s.do(Open("SideA")).do(Respond("SideA", Response("r1", "SideA"))).do(
        Pass("SideB", "pass"))


def _frame(state: dict[str, Any], **change: Any) -> Mutation:
    def mutate(st: dict[str, Any]) -> None:
        st["frames"] = [dict(f) for f in state["frames"]]
        st["frames"][-1].update(change)
        st["unwound"] = list(state["unwound"])
    return mutate


def golden() -> Golden:
    """Conforming flat and nested traces; one violation per window rule."""
    out: Golden = {}
    s = _opened()
    s.do(Pass("SideA", "pass")).do(Respond("SideB", Response("r2", "SideB")))  # out of turn
    s.do(Pass("SideC", "skip")).do(Respond("SideC", Response("r1", "SideC")))  # bad kind, id
    s.do(Open("SideB")).do(Respond("SideC", Response("r2", "SideC")))          # open twice
    s.do(Pass("SideA", "timeout")).do(Pass("SideB", "wait")).do(Pass("SideC", "pass"))
    s.do(Pass("SideA", "pass")).do(Open("SideZ")).do(Open("SideC"))
    out["responses-conforming.trace.jsonl"] = (s, None, "")
    s = Script(ResponseMachine()).do(Open("SideA"))
    s.do(Respond("SideA", Response("r1", "SideA"), nested=True)).do(Pass("SideB", "pass"))
    s.do(Pass("SideC", "pass")).do(Respond("SideA", Response("r2", "SideA"), nested=True))
    for seat in ("SideB", "SideC", "SideA", "SideB", "SideC", "SideA", "SideB"):
        s.do(Pass(seat, "wait"))
    out["responses-nested-conforming.trace.jsonl"] = (s, None, "")
    frames = "frames' = AfterResponse(SeatOrder, p.nested, frames, p.seat, p.response)"
    passed = "frames' = AfterPass(SeatOrder, frames, p.seat)"
    r2 = Response("r2", "SideC")
    s = _opened()
    step = s.bug(Respond("SideC", r2), "accepted", _frame(
        s.machine.variables(), priority="SideC", passes=0,
        responses=[Response("r1", "SideA").value(), r2.value()]))
    out["responses-priority-not-rotated.trace.jsonl"] = (s, step, frames)
    s = _opened()
    step = s.bug(Respond("SideC", r2), "accepted", _frame(
        s.machine.variables(), priority="SideA", passes=1,
        responses=[Response("r1", "SideA").value(), r2.value()]))
    out["responses-passes-not-reset.trace.jsonl"] = (s, step, frames)
    s = _opened()
    step = s.bug(Pass("SideC", "timeout"), "accepted",
                 _frame(s.machine.variables(), priority="SideA"))
    out["responses-timeout-not-a-pass.trace.jsonl"] = (s, step, passed)
    s = _opened().do(Pass("SideC", "pass"))
    step = s.bug(Pass("SideA", "wait"), "accepted",
                 _frame(s.machine.variables(), priority="SideB", passes=3))
    out["responses-not-closed-after-all-passed.trace.jsonl"] = (s, step, passed)
    s = _opened().do(Pass("SideC", "pass")).do(Respond("SideA", Response("r2", "SideA")))
    for seat in ("SideB", "SideC"):
        s.do(Pass(seat, "pass"))

    def fifo(st: dict[str, Any]) -> None:
        st["frames"] = []
        st["unwound"] = [Response("r1", "SideA").value(), Response("r2", "SideA").value()]
    step = s.bug(Pass("SideA", "pass"), "accepted", fifo)
    out["responses-unwind-not-lifo.trace.jsonl"] = (
        s, step, "unwound' = unwound \\o UnwoundByPass(SeatOrder, frames)")
    s = _opened()
    after = ResponseWindows(SEATS).open("SideA").respond("SideA", Response("r1", "SideA")).pass_(
        "SideB", "pass").respond("SideC", r2)
    step = s.bug(Respond("SideC", r2, nested=True), "accepted",
                 lambda st: st.update(frames=[f.value() for f in after.frames]))
    out["responses-nested-window-not-opened.trace.jsonl"] = (s, step, frames)
    s = _opened()
    step = s.bug(Respond("SideA", Response("r2", "SideA")), "accepted", keep)
    out["responses-without-priority.trace.jsonl"] = (s, step, "frames[Len(frames)].priority = seat")
    s = _opened()
    step = s.bug(Pass("SideC", "wait"), "rejected", keep)
    out["responses-legal-wait-refused.trace.jsonl"] = (s, step, None)
    out.update(readings.response_nesting())
    return out
