"""Costs and drafts: resource transactions and simultaneous intents, no card-only system.

A cost is a resource transaction: every resource is paid or none is (a failed
payment changes nothing).  A draft round is a set of simultaneous intents, one
per seat, each claiming an available item of the shared pool.  Uncontested
claims succeed; a contested claim (two or more seats want it) is arbitrated
either ``allFail`` (nobody gets it) or ``priority`` (the claimant earliest in the
seat priority order gets it).  A claim of an item no longer available fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from harness.composition.errors import CompositionError
from tlaconf.values import from_python

Arbitration = Literal["allFail", "priority"]
ARBITRATIONS: tuple[Arbitration, ...] = ("allFail", "priority")
Resources = Mapping[str, int]


@dataclass(frozen=True, order=True)
class Intent:
    """``seat`` claims ``item`` this round."""

    seat: str
    item: str

    def value(self) -> Any:
        return from_python({"seat": self.seat, "item": self.item})


def priority_winner(claimants: frozenset[str], priority: tuple[str, ...]) -> str:
    """The claimant earliest in the priority order."""
    return min(claimants, key=priority.index)


def arbitrate(intents: frozenset[Intent], available: frozenset[str], arbitration: Arbitration,
              priority: tuple[str, ...]) -> frozenset[Intent]:
    """The intents that succeed."""
    granted = set()
    for item in {i.item for i in intents} & available:
        claimants = frozenset(i.seat for i in intents if i.item == item)
        if len(claimants) == 1:
            granted.add(Intent(next(iter(claimants)), item))
        elif arbitration == "priority":
            granted.add(Intent(priority_winner(claimants, priority), item))
    return frozenset(granted)


@dataclass(frozen=True)
class Ledger:
    """Each seat's resources, the draft pool and each seat's picks (immutable)."""

    seats: tuple[str, ...]
    pools: Mapping[str, Resources]
    available: frozenset[str]
    picks: Mapping[str, frozenset[str]]

    def _seat(self, seat: str) -> Resources:
        if seat not in self.pools:
            raise CompositionError("unknown_seat", f"{seat!r} is not a seat", seat=seat)
        return self.pools[seat]

    def pay(self, seat: str, cost: Resources) -> Ledger:
        """Pay every resource of ``cost`` or nothing (``insufficient``)."""
        pool = self._seat(seat)
        short = sorted(r for r, n in cost.items() if r not in pool or n < 0 or pool[r] < n)
        if short:
            raise CompositionError("insufficient", f"{seat} cannot pay {short}", seat=seat,
                                   resources=short)
        paid = {r: n - cost.get(r, 0) for r, n in pool.items()}
        return replace(self, pools={**self.pools, seat: paid})

    def gain(self, seat: str, gain: Resources) -> Ledger:
        """Add resources (a seat's pool lists every resource it can hold)."""
        pool = self._seat(seat)
        if any(r not in pool or n < 0 for r, n in gain.items()):
            raise CompositionError("invalid_gain", f"{seat} cannot gain {dict(gain)}", seat=seat)
        return replace(self, pools={**self.pools, seat: {r: n + gain.get(r, 0)
                                                          for r, n in pool.items()}})

    def draft(self, intents: frozenset[Intent],
              arbitration: Arbitration) -> tuple[Ledger, frozenset[Intent]]:
        """One round of simultaneous picks; the new ledger and the intents that succeeded."""
        if arbitration not in ARBITRATIONS:
            raise CompositionError("unknown_arbitration", f"{arbitration!r}")
        seats = [i.seat for i in intents]
        if len(set(seats)) != len(seats) or not set(seats) <= set(self.seats):
            raise CompositionError("invalid_intents", "one intent per seat, by seats only")
        granted = arbitrate(intents, self.available, arbitration, self.seats)
        picks = {s: self.picks[s] | {g.item for g in granted if g.seat == s} for s in self.seats}
        return replace(self, available=self.available - {g.item for g in granted},
                       picks=picks), granted
