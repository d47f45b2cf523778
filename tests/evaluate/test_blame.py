"""Blame on the seed operators' worked example (seed 000): object 11 in SideA's hand,
12 in play, every other zone empty."""

from pathlib import Path

import pytest

from tests.evaluate.tlahelp import module
from tlaconf.evaluate import Context, load_module
from tlaconf.values import Fn

BENCH = Path(__file__).parents[2] / "bench" / "data" / "ZoneMoveBench.tla"
SEATS = frozenset({"SideA", "SideB"})


@pytest.fixture(scope="module")
def ctx() -> Context:
    return load_module(BENCH, [], {"Seats4": SEATS})


def zones(ctx: Context, **occupied: frozenset[int]) -> Fn:
    out = {z: frozenset() for z in ctx.value("ZoneInstances4")}
    out.update({k.replace("_", "."): v for k, v in occupied.items()})
    return Fn(out)


def move(ctx: Context, after: Fn) -> tuple[object, ...]:
    before = zones(ctx, SideA_Hand=frozenset({11}), Play=frozenset({12}))
    return (frozenset({11, 12}), before, after, 11, "SideA.Hand", "Play", True, False, False)


def test_zone_instances(ctx: Context) -> None:
    assert len(ctx.value("ZoneInstances4")) == 12


def test_worked_example_holds(ctx: Context) -> None:
    args = move(ctx, zones(ctx, Play=frozenset({11, 12})))
    assert ctx.holds("AtomicZoneMove4", args, {}) is True
    assert ctx.holds("ZonePartition4", (args[0], args[2]), {}) is True


def test_leaving_11_in_the_hand_blames_the_after_equality(ctx: Context) -> None:
    args = move(ctx, zones(ctx, SideA_Hand=frozenset({11}), Play=frozenset({11, 12})))
    assert ctx.holds("AtomicZoneMove4", args, {}) is False
    blame = ctx.explain("AtomicZoneMove4", args, {})
    assert blame.reason == "AtomicZoneMove4 is FALSE"
    assert blame.children[0].reason == "conjunct 8 of 9 is FALSE"
    leaf = blame.innermost()
    assert leaf.text.startswith("after = [z \\in ZoneInstances4 |->")
    assert leaf.span.line == 21 and leaf.span.file.endswith("ZoneMoveBench.tla")
    names = dict(leaf.bindings)
    assert '"SideA.Hand" :> {11}' in names["after"]
    assert names["id"] == "11" and names["source"] == '"SideA.Hand"'


def test_partition_blame_gives_the_counterexample(ctx: Context) -> None:
    occ = zones(ctx, SideA_Hand=frozenset({11}), Play=frozenset({11, 12}))
    assert ctx.holds("ZonePartition4", (frozenset({11, 12}), occ), {}) is False
    blame = ctx.explain("ZonePartition4", (frozenset({11, 12}), occ), {})
    quant = blame.children[0].children[0]
    assert quant.reason == "counterexample for \\A"
    assert dict(quant.bindings) == {"a": '"Play"', "b": '"SideA.Hand"'}
    assert blame.innermost().text == "occupants[a] \\intersect occupants[b] = {}"


def test_disjunction_and_case_blame() -> None:
    m = module("EXTENDS Naturals\nP(x) == \\/ x > 5\n          \\/ x = 0\n"
               "Q(x) == CASE x = 1 -> x > 3 [] OTHER -> TRUE")
    b = m.explain("P", (3,), {})
    assert b.children[0].reason == "no disjunct holds"
    assert [c.text for c in b.children[0].children] == ["x > 5", "x = 0"]
    q = m.explain("Q", (1,), {})
    assert q.children[0].reason == "CASE arm 1 is taken and FALSE"
    assert q.innermost().text == "x > 3"


def test_conformance_move_enabled_and_blame() -> None:
    """The fixed ``ZoneMembership`` shape: ENABLED assigns ``occupants'`` through the
    ``after = ...`` conjunct of AtomicZoneMove4 (arguments are substituted, as in TLC)."""
    ctx = load_module(Path(__file__).parent / "data" / "ZoneMembershipTest.tla",
                      [BENCH.parent], {"Seats4": SEATS})
    before = zones(ctx, SideA_Hand=frozenset({11}), Play=frozenset({12}))
    state = {"inGameIds": frozenset({11, 12}), "occupants": before}
    p = Fn({"id": 11, "source": "SideA.Hand", "destination": "Play",
            "movementAuthorized": True, "revealRequired": False, "revealedBeforeMove": False})
    assert ctx.enabled("Move", (p,), state) is True
    assert ctx.enabled("Move", (Fn({**p.as_dict(), "movementAuthorized": False}),),
                       state) is False
    assert ctx.enabled("Move", (Fn({**p.as_dict(), "id": 12}),), state) is False
    bad = {**state, "occupants": zones(ctx, SideA_Hand=frozenset({11}),
                                       Play=frozenset({11, 12}))}
    assert ctx.holds("Move", (p,), state, bad) is False
    leaf = ctx.explain("Move", (p,), state, bad).innermost()
    assert leaf.text.startswith("after = [z \\in ZoneInstances4")
    assert ctx.holds("Partition", (), state) is True
