"""The optional phase runner: a fixed cycle of phases and its events, in deterministic order.

Leaving a phase emits ``exit``; wrapping past the last phase (or moving to a
phase not after the current one) completes the cycle, ``cycleComplete``; then
``enter`` for the new phase, with the cycle it belongs to.  Phases skipped on
the way emit nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from harness.composition.errors import CompositionError

EventKind = Literal["exit", "cycleComplete", "enter"]


@dataclass(frozen=True)
class PhaseEvent:
    """One runner event (``phase`` is empty for ``cycleComplete``)."""

    kind: EventKind
    phase: str
    cycle: int

    def value(self) -> dict[str, Any]:
        return {"kind": self.kind, "phase": self.phase, "cycle": self.cycle}


def transition_events(phases: tuple[str, ...], current: str, cycle: int,
                      to: str) -> tuple[PhaseEvent, ...]:
    """exit current, cycleComplete when the move wraps, enter ``to``."""
    wraps = phases.index(to) <= phases.index(current)
    done = (PhaseEvent("cycleComplete", "", cycle),) if wraps else ()
    return (PhaseEvent("exit", current, cycle), *done,
            PhaseEvent("enter", to, cycle + 1 if wraps else cycle))


@dataclass(frozen=True)
class PhaseRunner:
    """Where the cycle is (``current`` is None before the start; cycles count from 1)."""

    phases: tuple[str, ...]
    current: str | None = None
    cycle: int = 0

    def start(self) -> tuple[PhaseRunner, tuple[PhaseEvent, ...]]:
        if self.current is not None:
            raise CompositionError("started", "the phase runner has already started")
        first = self.phases[0]
        return replace(self, current=first, cycle=1), (PhaseEvent("enter", first, 1),)

    def advance(self, to: str | None = None) -> tuple[PhaseRunner, tuple[PhaseEvent, ...]]:
        """Move to ``to`` (default: the next phase, wrapping)."""
        if self.current is None:
            raise CompositionError("not_started", "the phase runner has not started")
        if to is None:
            to = self.phases[(self.phases.index(self.current) + 1) % len(self.phases)]
        if to not in self.phases:
            raise CompositionError("unknown_phase", f"{to!r} is not a phase", phase=to)
        events = transition_events(self.phases, self.current, self.cycle, to)
        return replace(self, current=to, cycle=events[-1].cycle), events
