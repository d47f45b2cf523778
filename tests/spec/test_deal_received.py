"""``DealReceived`` and ``DealPiles`` (spec/tcs/Deal.tla) are written for model checkers that
build every branch of an expression and count sets at a high price (Apalache): the one in
closed form, the other building each receiving pile once.  Each must be what its plain
form was: the departures ``i`` with ``DealPileOf(i, n, P, distribution) = j``, in order;
and the piles with each zone's new contents computed zone by zone."""

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
ByZone(before, d) ==
    LET dep == DealDepartures(before[d.source], d)
        got(z) == DealReceived(dep, Len(d.piles),
                               CHOOSE j \in 1..Len(d.piles) : d.piles[j] = z, d.distribution)
    IN  [z \in DOMAIN before |->
            IF z = d.source THEN DealRemaining(before[d.source], d)
            ELSE IF \E j \in 1..Len(d.piles) : d.piles[j] = z
                 THEN IF d.pilePosition = "top" THEN DealReverse(got(z)) \o before[z]
                      ELSE before[z] \o got(z)
                 ELSE before[z]]
Before == [a |-> <<1, 2, 3, 4, 5>>, b |-> <<6>>, c |-> <<>>, e |-> <<7, 8>>]
Requests ==
    [source : {"a", "e"}, piles : {<<"b">>, <<"c", "b">>, <<"b", "c", "a">>},
     countAll : BOOLEAN, count : 1..4, distribution : {"round_robin", "pile_by_pile"},
     sourcePosition : {"top", "bottom", "index"}, sourceIndex : 1..2,
     pilePosition : {"top", "bottom"}, face : {"kept"}]
PilesDiffer ==
    {d \in Requests : DealEnabled(Before, d) /\ ByZone(Before, d) # DealPiles(Before, d)}
Dealt == Cardinality({d \in Requests : DealEnabled(Before, d)})
====
"""


def test_deal_received_and_deal_piles_are_their_plain_forms(tmp_path: Path) -> None:
    (tmp_path / "DealByCounting.tla").write_text(BY_COUNTING)
    ctx = load_module(tmp_path / "DealByCounting.tla", (tmp_path, PROJECT / "spec" / "tcs"))
    for distribution in ("round_robin", "pile_by_pile"):
        assert ctx.evaluate(f'Differ("{distribution}")') == frozenset()
    assert ctx.evaluate('DealReceived(<<1, 2, 3, 4, 5>>, 2, 1, "pile_by_pile")') == (1, 2, 3)
    assert ctx.evaluate('DealReceived(<<1, 2, 3, 4, 5>>, 2, 2, "round_robin")') == (2, 4)
    assert ctx.evaluate("PilesDiffer") == frozenset()
    assert ctx.evaluate("Dealt") > 100
