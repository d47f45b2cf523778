"""Durations: effects that last a number of phase, turn or round boundaries.

A duration counts down only on an explicit boundary of its own unit; any other
event (an action, a draw, priority passing) advances nothing.  Durations that
reach zero on the same boundary expire together and come back in authored order:
the product's ``order``, then the order the durations were created in (``created``,
numbered by the helper as they are added; ids are the product's, minted by counters
or seeded draws, so their order says nothing about when a duration was authored).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from harness.composition.errors import CompositionError

Unit = Literal["phase", "turn", "round"]
UNITS: tuple[Unit, ...] = ("phase", "turn", "round")


@dataclass(frozen=True)
class Duration:
    """Lasts ``remaining`` more boundaries of ``unit``; ``order``: its authored position;
    ``created``: when it was added (0 until it is)."""

    id: int
    unit: Unit
    remaining: int
    order: int
    created: int = 0

    def value(self) -> dict[str, Any]:
        """As the product authors it (without ``created``)."""
        return {"id": self.id, "unit": self.unit, "remaining": self.remaining,
                "order": self.order}

    def state(self) -> dict[str, Any]:
        return {**self.value(), "created": self.created}


def authored_key(d: Duration) -> tuple[int, int]:
    """Authored order: the product's order, then the order of creation."""
    return (d.order, d.created)


@dataclass(frozen=True)
class Durations:
    """The active durations and how many were ever added (immutable)."""

    active: frozenset[Duration] = frozenset()
    added: int = 0

    def add(self, d: Duration) -> Durations:
        if d.unit not in UNITS:
            raise CompositionError("unknown_unit", f"{d.unit!r} is not a boundary unit",
                                   unit=d.unit)
        if d.remaining < 1:
            raise CompositionError("no_duration", "a duration lasts at least one boundary",
                                   duration=d.id)
        if any(a.id == d.id for a in self.active):
            raise CompositionError("duplicate_duration", f"duration {d.id} is active",
                                   duration=d.id)
        return Durations(self.active | {replace(d, created=self.added + 1)}, self.added + 1)

    def event(self, name: str) -> Durations:
        """A non-boundary event: nothing advances (a boundary must be explicit)."""
        if name in UNITS:
            raise CompositionError("implicit_boundary",
                                   f"{name!r} is a boundary: signal it with boundary()")
        return self

    def boundary(self, unit: Unit) -> tuple[Durations, tuple[int, ...]]:
        """One ``unit`` boundary: its durations count down; the expired ids, authored order."""
        if unit not in UNITS:
            raise CompositionError("unknown_unit", f"{unit!r} is not a boundary unit", unit=unit)
        expired = sorted((d for d in self.active if d.unit == unit and d.remaining == 1),
                         key=authored_key)
        kept = frozenset(replace(d, remaining=d.remaining - 1) if d.unit == unit else d
                         for d in self.active if d not in expired)
        return Durations(kept, self.added), tuple(d.id for d in expired)
