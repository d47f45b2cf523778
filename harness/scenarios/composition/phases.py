"""PhaseRunner scenarios: start (twice), advances to the next phase, jumps forward and back
(wrapping the cycle), unknown phases, advances before the start."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from harness.composition.errors import CompositionError
from harness.composition.phases import PhaseEvent, PhaseRunner
from harness.scenarios.composition.common import (
    Golden,
    Request,
    Script,
    assign,
    keep,
    record_walk,
)

PHASES = ("Ready", "Draw", "Main", "End")


@dataclass(frozen=True)
class Start:
    events: tuple[PhaseEvent, ...]
    label = "Start"

    def params(self) -> dict[str, Any]:
        return {"events": [e.value() for e in self.events]}


@dataclass(frozen=True)
class Advance:
    to: str
    events: tuple[PhaseEvent, ...]
    label = "Advance"

    def params(self) -> dict[str, Any]:
        return {"to": self.to, "events": [e.value() for e in self.events]}


PhaseRequest = Start | Advance


@dataclass
class PhaseMachine:
    """``PhaseRunner``: the current phase and cycle."""

    runner: PhaseRunner = field(default_factory=lambda: PhaseRunner(PHASES))
    module = "PhaseRunner"
    constants: ClassVar[dict[str, Any]] = {"Phases": list(PHASES)}

    def start(self) -> Start:
        try:
            return Start(self.runner.start()[1])
        except CompositionError:
            return Start(())

    def advance(self, to: str | None = None) -> Advance:
        try:
            after, events = self.runner.advance(to)
            return Advance(after.current or "", events)
        except CompositionError:
            return Advance(to or "", ())

    def apply(self, r: PhaseRequest) -> bool:
        try:
            self.runner = (self.runner.start() if isinstance(r, Start)
                           else self.runner.advance(r.to))[0]
        except CompositionError:
            return False
        return True

    def variables(self) -> dict[str, Any]:
        return {"phase": self.runner.current or "", "cycle": self.runner.cycle}


def situations(m: PhaseMachine) -> Iterator[Request]:
    """The requests every walk makes first: an advance before the start, a second start, an
    advance to a phase that is not one."""
    yield m.advance()
    yield m.start()
    yield m.start()
    yield m.advance("Combat")


def requests(rng: random.Random, m: PhaseMachine, steps: int) -> Iterator[Request]:
    """The situations, then mostly the next phase; jumps to any phase (wrapping); unknown
    phases; restarts."""
    yield from situations(m)
    for _ in range(steps):
        roll = rng.random()
        if (m.runner.current is None and roll < 0.7) or roll < 0.04:
            yield m.start()
        elif roll < 0.65:
            yield m.advance()
        else:
            yield m.advance(rng.choice(PHASES) if rng.random() < 0.9 else "Combat")


def walk(rng: random.Random) -> tuple[PhaseMachine, Iterator[Request]]:
    m = PhaseMachine()
    return m, requests(rng, m, 50)


def generate(out_dir: Path, seed: int) -> list[Path]:
    """This helper's scenario trace for ``seed``."""
    return [record_walk(out_dir, "phases", seed, walk)]


def _at_main() -> tuple[Script, PhaseMachine]:
    m = PhaseMachine()
    s = Script(m)
    s.do(m.start()).do(m.advance()).do(m.advance())
    return s, m


def golden() -> Golden:
    """A conforming trace; one violation per event-order and cycle rule."""
    out: Golden = {}
    m = PhaseMachine()
    s = Script(m).do(m.advance()).do(m.start()).do(m.start())
    s.do(m.advance()).do(m.advance("End")).do(m.advance()).do(m.advance("Main"))
    s.do(m.advance("Main")).do(m.advance("Combat")).do(m.advance())
    out["phases-conforming.trace.jsonl"] = (s, None, "")
    s, m = _at_main()
    honest = m.advance("Draw")
    cycle = assign(phase="Draw", cycle=2)
    step = s.bug(Advance("Draw", honest.events[::-1]), "accepted", cycle)
    out["phases-enter-before-exit.trace.jsonl"] = (
        s, step, 'events[1] = PhaseEvent("exit", from, cycle)')
    s, m = _at_main()
    exit_, done, enter = honest.events
    step = s.bug(Advance("Draw", (exit_, enter, done)), "accepted", cycle)
    out["phases-cycle-complete-after-enter.trace.jsonl"] = (
        s, step, 'events[2] = PhaseEvent("cycleComplete", "", cycle)')
    s, m = _at_main()
    step = s.bug(Advance("Draw", (exit_, enter)), "accepted", cycle)
    out["phases-cycle-complete-missing.trace.jsonl"] = (
        s, step, "Len(events) = IF wraps THEN 3 ELSE 2")
    s, m = _at_main()
    step = s.bug(Advance("Draw", (exit_, done, PhaseEvent("enter", "Ready", 2))), "accepted",
                 cycle)
    out["phases-wrong-phase-entered.trace.jsonl"] = (
        s, step, 'events[Len(events)] = PhaseEvent("enter", to, IF wraps THEN cycle + 1 '
        'ELSE cycle)')
    m = PhaseMachine()
    s = Script(m)
    step = s.bug(Start(()), "accepted", assign(phase="Ready", cycle=1))
    out["phases-start-not-announced.trace.jsonl"] = (
        s, step, 'p.events = <<PhaseEvent("enter", Phases[1], 1)>>')
    s, m = _at_main()
    step = s.bug(honest, "accepted", assign(phase="Draw", cycle=1))
    out["phases-cycle-not-counted.trace.jsonl"] = (
        s, step, "cycle' = IF Wraps(Phases, phase, p.to) THEN cycle + 1 ELSE cycle")
    m = PhaseMachine()
    s = Script(m)
    step = s.bug(Advance("Draw", (PhaseEvent("enter", "Draw", 0),)), "accepted",
                 assign(phase="Draw"))
    out["phases-advance-before-start.trace.jsonl"] = (s, step, 'phase # ""')
    s, m = _at_main()
    step = s.bug(m.advance(), "rejected", keep)
    out["phases-legal-advance-refused.trace.jsonl"] = (s, step, None)
    return out
