"""CostsAndDrafts scenarios: payments (some short, some of unknown resources), gains, and
draft rounds of simultaneous intents (contested, stale, duplicate seats) under both
arbitrations."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from harness.composition.errors import CompositionError
from harness.composition.transactions import Intent, Ledger
from harness.scenarios.composition.common import (
    Golden,
    Request,
    Script,
    assign,
    keep,
    record_walk,
)

SEATS = ("SideA", "SideB", "SideC")
ITEMS = tuple(f"d{n}" for n in range(1, 9))
RESOURCES = ("gold", "mana")


def ledger() -> Ledger:
    return Ledger(SEATS, {s: {"gold": 3, "mana": 2} for s in SEATS}, frozenset(ITEMS),
                  {s: frozenset() for s in SEATS})


@dataclass(frozen=True)
class Pay:
    seat: str
    cost: dict[str, int]
    label = "Pay"

    def params(self) -> dict[str, Any]:
        return {"seat": self.seat, "cost": dict(self.cost)}


@dataclass(frozen=True)
class Gain:
    seat: str
    gain: dict[str, int]
    label = "Gain"

    def params(self) -> dict[str, Any]:
        return {"seat": self.seat, "gain": dict(self.gain)}


@dataclass(frozen=True)
class Draft:
    """A draft round; ``granted``: the intents the helper let succeed."""

    intents: frozenset[Intent]
    arbitration: str
    granted: frozenset[Intent]
    submitted: tuple[Intent, ...] = ()
    label = "Draft"

    def order(self) -> tuple[Intent, ...]:
        """The intents in the order they were submitted (seat, then item, unless given)."""
        return self.submitted or tuple(sorted(self.intents, key=lambda i: (i.seat, i.item)))

    def params(self) -> dict[str, Any]:
        return {"intents": [i.value() for i in self.order()], "arbitration": self.arbitration,
                "granted": {i.value() for i in self.granted}}


TransactionRequest = Pay | Gain | Draft


@dataclass
class TransactionMachine:
    """``CostsAndDrafts``: resource pools, the draft pool and the picks."""

    ledger: Ledger = field(default_factory=ledger)
    module = "CostsAndDrafts"
    constants: ClassVar[dict[str, Any]] = {"SeatOrder": list(SEATS)}

    def draft(self, intents: frozenset[Intent], arbitration: str) -> Draft:
        try:
            granted = self.ledger.draft(intents, arbitration)[1]  # type: ignore[arg-type]
        except CompositionError:
            granted = frozenset()
        return Draft(intents, arbitration, granted)

    def apply(self, r: TransactionRequest) -> bool:
        try:
            match r:
                case Pay():
                    self.ledger = self.ledger.pay(r.seat, r.cost)
                case Gain():
                    self.ledger = self.ledger.gain(r.seat, r.gain)
                case Draft():
                    self.ledger = self.ledger.draft(r.intents, r.arbitration)[0]  # type: ignore[arg-type]
        except CompositionError:
            return False
        return True

    def variables(self) -> dict[str, Any]:
        lg = self.ledger
        return {"pools": {s: dict(p) for s, p in lg.pools.items()},
                "available": set(lg.available), "picks": {s: set(p) for s, p in lg.picks.items()}}


def _intents(rng: random.Random, m: TransactionMachine) -> frozenset[Intent]:
    pool = sorted(m.ledger.available) or list(ITEMS)
    hot = rng.choice(pool)
    out = {Intent(s, hot if rng.random() < 0.4 else rng.choice(pool if rng.random() < 0.9
                                                               else ITEMS))
           for s in SEATS if rng.random() < 0.8}
    if rng.random() < 0.08:
        out.add(Intent("SideA", rng.choice(ITEMS)))       # maybe a second intent of a seat
    if rng.random() < 0.05:
        out.add(Intent("SideZ", hot))                      # an intent by no seat
    return frozenset(out)


def situations(m: TransactionMachine) -> Iterator[Request]:
    """Illegal requests every walk makes first, one per refusal guard: a payment or a gain
    by no seat, of an unknown resource, of a negative amount, a payment beyond the pool;
    draft rounds of an unknown arbitration, with an intent by no seat, with two intents
    of one seat."""
    for seat, amounts in (("SideZ", {"gold": 1}), ("SideA", {"ore": 1}),
                          ("SideA", {"gold": -1})):
        yield Pay(seat, amounts)
        yield Gain(seat, amounts)
    yield Pay("SideA", {"gold": 4})
    yield m.draft(frozenset({Intent("SideA", "d1")}), "lottery")
    yield m.draft(frozenset({Intent("SideA", "d1"), Intent("SideZ", "d2")}), "priority")
    yield m.draft(frozenset({Intent("SideA", "d1"), Intent("SideA", "d2")}), "allFail")


def requests(rng: random.Random, m: TransactionMachine, steps: int) -> Iterator[Request]:
    """The situations, then payments, gains and draft rounds."""
    yield from situations(m)
    for _ in range(steps):
        roll = rng.random()
        seat = rng.choice(SEATS) if rng.random() < 0.95 else "SideZ"
        if roll < 0.35:
            cost = {r: rng.randint(0, 3) for r in RESOURCES if rng.random() < 0.7}
            odd = rng.random()
            if odd < 0.1:
                cost["ore" if odd < 0.05 else "gold"] = 1 if odd < 0.05 else -1
            yield Pay(seat, cost)
        elif roll < 0.5:
            gain = {r: rng.randint(0, 2) for r in RESOURCES if rng.random() < 0.7}
            odd = rng.random()
            if odd < 0.15:
                gain["ore" if odd < 0.07 else "mana"] = 1 if odd < 0.07 else -2
            yield Gain(seat, gain)
        elif m.ledger.available:
            arbitration = rng.choice(("allFail", "priority")) if rng.random() < 0.95 else "lottery"
            d = m.draft(_intents(rng, m), arbitration)
            yield replace(d, submitted=tuple(rng.sample(d.order(), len(d.intents))))


def walk(rng: random.Random) -> tuple[TransactionMachine, Iterator[Request]]:
    m = TransactionMachine()
    return m, requests(rng, m, 50)


def generate(out_dir: Path, seed: int) -> list[Path]:
    """This helper's scenario trace for ``seed``."""
    return [record_walk(out_dir, "transactions", seed, walk)]


CONTESTED = frozenset({Intent("SideA", "d2"), Intent("SideB", "d1"), Intent("SideC", "d1")})


def golden() -> Golden:
    """A conforming trace; one violation per transaction and arbitration rule."""
    out: Golden = {}
    m = TransactionMachine()
    s = Script(m).do(Pay("SideA", {"gold": 2, "mana": 1})).do(Pay("SideA", {"gold": 2}))
    s.do(Pay("SideB", {"gold": 1, "ore": 1})).do(Gain("SideA", {"gold": 1}))
    s.do(Pay("SideA", {"gold": 2})).do(m.draft(CONTESTED, "allFail"))
    s.do(m.draft(CONTESTED, "priority")).do(m.draft(CONTESTED, "priority"))
    s.do(m.draft(frozenset({Intent("SideA", "d3"), Intent("SideA", "d4")}), "priority"))
    s.do(m.draft(frozenset({Intent("SideC", "d5")}), "lottery"))
    out["transactions-conforming.trace.jsonl"] = (s, None, "")

    m = TransactionMachine()
    s = Script(m)
    partial = {**m.variables()["pools"], "SideA": {"gold": 0, "mana": 0}}
    step = s.bug(Pay("SideA", {"gold": 3, "mana": 3}), "accepted", assign(pools=partial))
    out["transactions-partial-payment.trace.jsonl"] = (
        s, step, "pool[r] >= cost[r]")
    m = TransactionMachine()
    s = Script(m)
    wrong = {**m.variables()["pools"], "SideA": {"gold": 1, "mana": 2}}
    step = s.bug(Pay("SideA", {"gold": 1}), "accepted", assign(pools=wrong))
    out["transactions-wrong-amount-paid.trace.jsonl"] = (
        s, step, "pools' = [pools EXCEPT ![p.seat] = Paid(@, p.cost)]")

    def contested(arbitration: str, granted: frozenset[Intent], conjunct: str, name: str) -> None:
        m = TransactionMachine()
        s = Script(m)
        after = m.variables()
        after["available"] = after["available"] - {g.item for g in granted}
        for g in granted:
            after["picks"][g.seat] = {g.item}
        step = s.bug(Draft(CONTESTED, arbitration, granted), "accepted",
                     assign(available=after["available"], picks=after["picks"]))
        out[f"transactions-{name}.trace.jsonl"] = (s, step, conjunct)

    a2, b1, c1 = Intent("SideA", "d2"), Intent("SideB", "d1"), Intent("SideC", "d1")
    contested("allFail", frozenset({a2, b1}), "~Contested(intents, g.item)",
              "all-fail-grants-a-contested-claim")
    contested("priority", frozenset({a2, c1}),
              r"(i \in granted <=> \A s \in Claimants(intents, i.item) : "
              "SeatRank(priority, i.seat) <= SeatRank(priority, s))",
              "priority-to-the-later-seat")
    contested("priority", frozenset({a2, b1, c1}), "g = h",
              "claim-granted-twice")
    contested("priority", frozenset({b1}), r"i \in granted", "uncontested-claim-failed")
    m = TransactionMachine()
    s = Script(m).do(m.draft(frozenset({b1}), "priority"))
    stale = frozenset({Intent("SideC", "d1")})
    step = s.bug(Draft(stale, "priority", stale), "accepted", keep)
    out["transactions-taken-item-granted.trace.jsonl"] = (
        s, step, r"granted \subseteq {i \in intents : i.item \in available}")
    m = TransactionMachine()
    s = Script(m)
    step = s.bug(Pay("SideB", {"gold": 3, "mana": 2}), "rejected", keep)
    out["transactions-affordable-cost-refused.trace.jsonl"] = (s, step, None)
    out.update(_simultaneous())
    return out


def _simultaneous() -> Golden:
    """"Draft picks remain ordinary simultaneous intents": the order of submission decides
    nothing; a helper that serves the first submitted claim breaks priority arbitration."""
    out: Golden = {}
    late, early = Intent("SideB", "d1"), Intent("SideC", "d1")
    m = TransactionMachine()
    s = Script(m)
    s.do(replace(m.draft(frozenset({late, early}), "priority"), submitted=(early, late)))
    s.do(replace(m.draft(frozenset({Intent("SideA", "d2"), Intent("SideB", "d2")}), "allFail"),
                 submitted=(Intent("SideB", "d2"), Intent("SideA", "d2"))))
    out["transactions-submission-order-ignored.trace.jsonl"] = (s, None, "")
    m = TransactionMachine()
    s = Script(m)
    after = m.variables()
    step = s.bug(Draft(frozenset({late, early}), "priority", frozenset({early}), (early, late)),
                 "accepted", assign(available=after["available"] - {"d1"},
                                    picks={**after["picks"], "SideC": {"d1"}}))
    out["transactions-first-submitted-served.trace.jsonl"] = (
        s, step, r"(i \in granted <=> \A s \in Claimants(intents, i.item) : "
                 "SeatRank(priority, i.seat) <= SeatRank(priority, s))")
    return out
