"""``DealReceived`` (spec/tcs/Deal.tla) is written in closed form, for model checkers that
cannot count sets cheaply (Apalache); it must be the sequence its comment describes: the
departures ``i`` with ``DealPileOf(i, n, P, distribution) = j``, in order."""

from __future__ import annotations

from pathlib import Path

from tlaconf.evaluate import load_module

PROJECT = Path(__file__).resolve().parents[2]

BY_COUNTING = r"""---- MODULE DealByCounting ----
EXTENDS Naturals, Sequences, FiniteSets, Deal
Counted(dep, P, j, distribution) ==
    LET idx == {i \in 1..Len(dep) : DealPileOf(i, Len(dep), P, distribution) = j}
    IN  [k \in 1..Cardinality(idx) |->
            dep[CHOOSE i \in idx : Cardinality({m \in idx : m <= i}) = k]]
Differ(distribution) ==
    {<<n, P, j>> \in (0..11) \X (1..5) \X (1..5) :
        LET dep == [i \in 1..n |-> 100 + i] IN
        j <= P /\ Counted(dep, P, j, distribution) # DealReceived(dep, P, j, distribution)}
====
"""


def test_deal_received_is_the_departures_of_the_pile(tmp_path: Path) -> None:
    (tmp_path / "DealByCounting.tla").write_text(BY_COUNTING)
    ctx = load_module(tmp_path / "DealByCounting.tla", (tmp_path, PROJECT / "spec" / "tcs"))
    for distribution in ("round_robin", "pile_by_pile"):
        assert ctx.evaluate(f'Differ("{distribution}")') == frozenset()
    assert ctx.evaluate('DealReceived(<<1, 2, 3, 4, 5>>, 2, 1, "pile_by_pile")') == (1, 2, 3)
    assert ctx.evaluate('DealReceived(<<1, 2, 3, 4, 5>>, 2, 2, "round_robin")') == (2, 4)
