"""Costs (all-or-nothing resource transactions) and drafts (simultaneous intents, all-fail
or priority arbitration), and their reading."""

from __future__ import annotations

import pytest

from harness.composition.errors import CompositionError
from harness.composition.transactions import Intent, arbitrate
from harness.scenarios.composition.transactions import ITEMS, SEATS, ledger
from tests.harness.composition_helpers import holds, load

A, B, C = SEATS
AVAILABLE = frozenset(ITEMS)


def test_a_cost_is_paid_whole_or_not_at_all() -> None:
    lg = ledger()
    assert lg.pay(A, {"gold": 2, "mana": 1}).pools[A] == {"gold": 1, "mana": 1}
    for cost in ({"gold": 2, "mana": 3}, {"ore": 1}, {"gold": -1}):
        with pytest.raises(CompositionError) as err:
            lg.pay(A, cost)
        assert err.value.code == "insufficient"
    assert lg.pools[A] == {"gold": 3, "mana": 2}
    assert lg.gain(A, {"mana": 2}).pools[A] == {"gold": 3, "mana": 4}


def test_uncontested_claims_succeed_and_stale_claims_fail() -> None:
    intents = frozenset({Intent(A, "d1"), Intent(B, "d2"), Intent(C, "x")})
    assert arbitrate(intents, AVAILABLE, "allFail", SEATS) == {Intent(A, "d1"), Intent(B, "d2")}


def test_contested_claims_all_fail_or_go_by_priority() -> None:
    intents = frozenset({Intent(C, "d1"), Intent(B, "d1"), Intent(A, "d2")})
    assert arbitrate(intents, AVAILABLE, "allFail", SEATS) == {Intent(A, "d2")}
    assert arbitrate(intents, AVAILABLE, "priority", SEATS) == {Intent(A, "d2"), Intent(B, "d1")}
    assert arbitrate(intents, AVAILABLE, "priority", (C, B, A)) == {Intent(A, "d2"),
                                                                    Intent(C, "d1")}


def test_a_draft_round_moves_picks_out_of_the_pool() -> None:
    lg, granted = ledger().draft(frozenset({Intent(B, "d1"), Intent(C, "d1")}), "priority")
    assert granted == {Intent(B, "d1")} and "d1" not in lg.available and lg.picks[B] == {"d1"}
    with pytest.raises(CompositionError):
        ledger().draft(frozenset({Intent(A, "d1"), Intent(A, "d2")}), "priority")
    with pytest.raises(CompositionError):
        ledger().draft(frozenset({Intent(A, "d1")}), "lottery")  # type: ignore[arg-type]


def test_the_reading_of_arbitration_and_payment() -> None:
    ctx = load("Transactions")
    intents = frozenset({Intent(C, "d1"), Intent(B, "d1"), Intent(A, "d2"), Intent("D", "x")})
    avail = set(AVAILABLE)
    for arb in ("allFail", "priority"):
        granted = arbitrate(intents, AVAILABLE, arb, SEATS)  # type: ignore[arg-type]
        args = ({i.value() for i in intents}, avail, arb, list(SEATS))
        assert holds(ctx, "ArbitrationOK", {g.value() for g in granted}, *args)
        wrong = granted ^ {Intent(C, "d1")}
        assert not holds(ctx, "ArbitrationOK", {g.value() for g in wrong}, *args)
        assert not holds(ctx, "ArbitrationOK", {g.value() for g in granted - {Intent(A, "d2")}},
                         *args)
    assert holds(ctx, "CanPay", {"gold": 2}, {"gold": 2})
    assert not holds(ctx, "CanPay", {"gold": 2}, {"gold": 2, "mana": 0})
    assert ctx.evaluate('Paid([gold |-> 3, mana |-> 2], [gold |-> 1]) = [gold |-> 2, mana |-> 2]')
