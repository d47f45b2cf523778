"""DurationClock scenarios: durations added (some invalid), ordinary events, boundaries of
every unit (and a misspelt one), simultaneous expiries."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.composition.durations import UNITS, Duration, Durations
from harness.composition.errors import CompositionError
from harness.scenarios.composition.common import Golden, Request, Script, keep, record_walk
from tlaconf.values import from_python

EVENTS = ("action", "draw", "priority", "phase", "turn")


@dataclass(frozen=True)
class Add:
    duration: Duration
    label = "Add"

    def params(self) -> dict[str, Any]:
        return {"duration": self.duration.value()}


@dataclass(frozen=True)
class Event:
    name: str
    label = "Event"

    def params(self) -> dict[str, Any]:
        return {"name": self.name}


@dataclass(frozen=True)
class Boundary:
    """A boundary of ``unit``; ``expired``: the ids the helper returned for it."""

    unit: str
    expired: tuple[int, ...]
    label = "Boundary"

    def params(self) -> dict[str, Any]:
        return {"unit": self.unit, "expired": list(self.expired)}


DurationRequest = Add | Event | Boundary


@dataclass
class DurationMachine:
    """``DurationClock``: the active durations."""

    durations: Durations = field(default_factory=Durations)
    module = "DurationClock"

    def boundary(self, unit: str) -> Boundary:
        try:
            return Boundary(unit, self.durations.boundary(unit)[1])  # type: ignore[arg-type]
        except CompositionError:
            return Boundary(unit, ())

    def apply(self, r: DurationRequest) -> bool:
        try:
            match r:
                case Add():
                    self.durations = self.durations.add(r.duration)
                case Event():
                    self.durations = self.durations.event(r.name)
                case Boundary():
                    self.durations = self.durations.boundary(r.unit)[0]  # type: ignore[arg-type]
        except CompositionError:
            return False
        return True

    def variables(self) -> dict[str, Any]:
        return {"active": {from_python(d.state()) for d in self.durations.active},
                "added": self.durations.added}


def situations(m: DurationMachine) -> Iterator[Request]:
    """Illegal requests every walk makes first, one per refusal guard: a duration of an
    unknown unit, one of no length, an id in use, a boundary as an event, a boundary of
    an unknown unit."""
    yield Add(Duration(90, "segment", 1, 1))  # type: ignore[arg-type]
    yield Add(Duration(90, "turn", 0, 1))
    yield Add(Duration(90, "turn", 1, 1))
    yield Add(Duration(90, "round", 2, 1))
    yield Event("turn")
    yield m.boundary("segment")


def requests(rng: random.Random, m: DurationMachine, steps: int) -> Iterator[Request]:
    """The situations, then adds (some with a used id, no length or an unknown unit),
    events and boundaries."""
    yield from situations(m)
    next_id = 1
    for _ in range(steps):
        roll = rng.random()
        if roll < 0.35:
            did = next_id if rng.random() < 0.9 or next_id == 1 else next_id - 1
            unit = rng.choice(UNITS) if rng.random() < 0.95 else "segment"
            length = rng.randint(1, 3) if rng.random() < 0.9 else 0
            yield Add(Duration(did, unit, length, rng.randint(1, 4)))  # type: ignore[arg-type]
            next_id += 1
        elif roll < 0.55:
            yield Event(rng.choice(EVENTS))
        else:
            yield m.boundary(rng.choice(UNITS) if rng.random() < 0.95 else "segment")


def walk(rng: random.Random) -> tuple[DurationMachine, Iterator[Request]]:
    m = DurationMachine()
    return m, requests(rng, m, 60)


def generate(out_dir: Path, seed: int) -> list[Path]:
    """This helper's scenario trace for ``seed``."""
    return [record_walk(out_dir, "durations", seed, walk)]


def _added() -> tuple[Script, DurationMachine]:
    """Turn durations 1 (order 2), 2 (order 1), 3 (order 1, 2 turns); phase duration 4."""
    m = DurationMachine()
    s = Script(m)
    for d in (Duration(1, "turn", 1, 2), Duration(2, "turn", 1, 1), Duration(3, "turn", 2, 1),
              Duration(4, "phase", 1, 1)):
        s.do(Add(d))
    return s, m


def golden() -> Golden:
    """A conforming trace; one violation per boundary and ordering rule."""
    out: Golden = {}
    s, m = _added()
    s.do(Event("draw")).do(Event("turn")).do(m.boundary("segment"))
    s.do(Add(Duration(1, "round", 1, 1))).do(Add(Duration(5, "round", 0, 1)))
    s.do(m.boundary("turn")).do(m.boundary("phase")).do(m.boundary("round"))
    s.do(m.boundary("turn"))
    out["durations-conforming.trace.jsonl"] = (s, None, "")
    s, m = _added()

    def counted_down(st: dict[str, Any]) -> None:
        st["active"] = {from_python({**d.state(), "remaining": d.remaining - 1})
                        if d.remaining > 1 else from_python(d.state())
                        for d in m.durations.active}
    step = s.bug(Event("action"), "accepted", counted_down)
    out["durations-advance-on-event.trace.jsonl"] = (s, step, "UNCHANGED <<active, added>>")
    s, m = _added()
    after = m.durations.boundary("turn")[0]
    step = s.bug(Boundary("turn", (2, 1)), "accepted", lambda st: st.update(active={
        from_python(d.state()) for d in after.active if d.unit != "phase"}))
    out["durations-other-unit-advanced.trace.jsonl"] = (
        s, step, "active' = AfterBoundary(active, p.unit)")
    s, m = _added()
    step = s.bug(Boundary("turn", (1, 2)), "accepted",
                 lambda st: st.update(active={from_python(d.state()) for d in after.active}))
    out["durations-expiries-not-in-authored-order.trace.jsonl"] = (
        s, step, "a.order < b.order")
    s, m = _added()
    step = s.bug(Boundary("turn", (2,)), "accepted",
                 lambda st: st.update(active={from_python(d.state()) for d in after.active}))
    out["durations-expiry-not-returned.trace.jsonl"] = (
        s, step, "Len(expired) = Cardinality(Expiring(active, unit))")
    s, m = _added()
    step = s.bug(Boundary("turn", (2, 3)), "accepted",
                 lambda st: st.update(active={from_python(d.state()) for d in after.active}))
    out["durations-wrong-expiry-returned.trace.jsonl"] = (
        s, step, "{expired[i] : i \\in 1..Len(expired)} = {d.id : d \\in Expiring(active, unit)}")
    s, m = _added()
    s.do(Add(Duration(5, "phase", 1, 1)))
    tied = m.durations.boundary("phase")[0]
    step = s.bug(Boundary("phase", (5, 4)), "accepted",
                 lambda st: st.update(active={from_python(d.state()) for d in tied.active}))
    out["durations-tie-not-in-creation-order.trace.jsonl"] = (s, step, "a.created < b.created")
    out.update(_created_order())
    s, m = _added()
    step = s.bug(Add(Duration(2, "round", 1, 1)), "accepted", lambda st: st.update(
        active={*st["active"], from_python(Duration(2, "round", 1, 1, 5).state())}, added=5))
    out["durations-id-reused.trace.jsonl"] = (s, step, "d.id # p.duration.id")
    s, m = _added()
    step = s.bug(m.boundary("phase"), "rejected", keep)
    out["durations-legal-boundary-refused.trace.jsonl"] = (s, step, None)
    return out


def _created_order() -> Golden:
    """"Simultaneous expiries returned in authored order": two durations of one authored
    position expire together in the order they were created, whatever their ids."""
    out: Golden = {}
    m = DurationMachine()
    s = Script(m).do(Add(Duration(9, "phase", 1, 1))).do(Add(Duration(6, "phase", 1, 1)))
    s.do(m.boundary("phase"))
    out["durations-tie-in-creation-order.trace.jsonl"] = (s, None, "")
    m = DurationMachine()
    s = Script(m).do(Add(Duration(9, "phase", 1, 1))).do(Add(Duration(6, "phase", 1, 1)))
    step = s.bug(Boundary("phase", (6, 9)), "accepted", lambda st: st.update(active=set()))
    out["durations-tie-broken-by-id.trace.jsonl"] = (s, step, "a.created < b.created")
    return out
