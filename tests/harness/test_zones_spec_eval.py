"""The authored TLA+ (rev2 zone modules, TCS deal reading) on the seeds' worked examples,
evaluated by tlaconf's evaluator; fresh scenario traces replayed against the modules (the
golden traces are replayed, blamed conjunct included, by ``tests/replay/test_golden.py``)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from harness.deal import DealRequest, deal
from harness.profile import Deal
from harness.scenarios.play import SCENARIOS, play
from harness.zones import Access, define_zones, hand
from tlaconf import evaluate
from tlaconf.replay import get_backend, replay_trace
from tlaconf.values import from_python

SEATS = {"Seats4": frozenset({"SideA", "SideB"})}
ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"
SEARCH = [SPEC / "conformance", SPEC / "reference-profile" / "rev2", SPEC / "tcs"]


def rev2(module: str) -> Any:
    return evaluate.load_module(
        SPEC / "reference-profile" / "rev2" / f"{module}.tla", SEARCH, SEATS
    )


def occ(**placed: str) -> str:
    """A TLA+ occupants function over all 12 instances: ``occ(**{"SideA.Hand": "{11}"})``."""
    arms = " ".join(f'IF z = "{z}" THEN {ids} ELSE' for z, ids in placed.items())
    return f"[z \\in ZoneInstances4 |-> {arms} {{}}]"


BEFORE = occ(**{"SideA.Hand": "{11}", "Play": "{12}"})


@pytest.mark.parametrize(
    ("after", "authorized", "expected"),
    [
        (occ(Play="{11, 12}"), "TRUE", True),
        (occ(**{"SideA.Hand": "{11}", "Play": "{11, 12}"}), "TRUE", False),
        (occ(Play="{11, 12}"), "FALSE", False),
        (BEFORE, "TRUE", False),
    ],
)
def test_worked_example_atomic_move(after: str, authorized: str, expected: bool) -> None:
    """Object 11 from SideA's hand to play: empty hand, play {11, 12}; leaving 11 too fails."""
    ctx = rev2("Zones4")
    expr = (
        f'AtomicZoneMove4({{11, 12}}, {BEFORE}, {after}, 11, "SideA.Hand", "Play", '
        f"{authorized}, FALSE, FALSE)"
    )
    assert ctx.evaluate(expr) is expected


def test_zone_instances_and_partition() -> None:
    ctx = rev2("Zones4")
    assert ctx.evaluate("Cardinality(ZoneInstances4)") == 12
    assert ctx.evaluate('"SideB.Objective" \\in ZoneInstances4 /\\ "Removed" \\in ZoneInstances4')
    assert ctx.evaluate(f"ZonePartition4({{11, 12}}, {BEFORE})") is True
    assert ctx.evaluate(f"ZonePartition4({{11, 12, 13}}, {BEFORE})") is False
    missing = '[z \\in ZoneInstances4 \\ {"Removed"} |-> IF z = "Play" THEN {11, 12} ELSE {}]'
    assert ctx.evaluate(f"ZonePartition4({{11, 12}}, {missing})") is False


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ('ZoneClass4("SideA.Deck")', "Hidden"),
        ('ZoneClass4("SideB.Hand")', "Secret"),
        ('ZoneClass4("SideA.Discard")', "SchemaAtom128"),
        ('ZoneClass4("Bank")', "SchemaAtom128"),
        ('ZoneClass4("Graveyard")', "Unadmitted"),
        ('DefaultZoneLook4("SideA.Deck", "Up", "SideA", "SideA")', False),
        ('DefaultZoneLook4("SideA.Hand", "Down", "SideA", "SideA")', True),
        ('DefaultZoneLook4("SideA.Hand", "Up", "SideB", "SideA")', False),
        ('DefaultZoneLook4("Play", "Up", "SideB", "SideA")', True),
        ('DefaultZoneLook4("Play", "Down", "SideB", "SideA")', False),
        ('DefaultZoneLook4("Play", "Down", "SideA", "SideA")', True),
        ('DefaultZoneLook4("Graveyard", "Up", "SideA", "SideA")', False),
        ('ZoneSeat4("SideB.Discard")', "SideB"),
    ],
)
def test_zone_classes_and_default_look(expr: str, value: object) -> None:
    assert rev2("ZoneLook4").evaluate(expr) == value


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ("DeckSequenceValid4(<<3, 1, 2>>)", True),
        ("DeckSequenceValid4(<<>>)", True),
        ("DeckSequenceValid4(<<1, 1>>)", False),
        ("DeckReorder4(<<1, 2, 3>>, <<3, 2, 1>>, TRUE, FALSE, FALSE)", True),
        ("DeckReorder4(<<1, 2, 3>>, <<3, 2, 1>>, FALSE, FALSE, FALSE)", False),
        ("DeckReorder4(<<1, 2, 3>>, <<1, 2, 3>>, FALSE, FALSE, FALSE)", True),
        ("DeckReorder4(<<1, 2, 3>>, <<1, 2>>, TRUE, FALSE, FALSE)", False),
        ("DeckReorder4(<<1, 2, 3>>, <<1, 2, 4>>, TRUE, FALSE, FALSE)", False),
        ("DeckReorder4(<<1, 2, 3>>, <<2, 1, 3>>, TRUE, TRUE, FALSE)", False),
        ("DeckReorder4(<<1, 2, 3>>, <<2, 1, 3>>, TRUE, TRUE, TRUE)", True),
        ("HandSetupProjection4(<<3, 1>>, {1, 3})", True),
        ("HandSetupProjection4(<<3, 1>>, {1})", False),
        ("HandSetupProjection4(<<3, 3>>, {3})", False),
    ],
)
def test_deck_order_operators(expr: str, value: bool) -> None:
    assert rev2("DeckOrder4").evaluate(expr) is value


def test_object_location_prefers_host_then_deck_position_then_zone() -> None:
    ctx = rev2("Locations4")
    args = (
        '[i \\in {11} |-> 12], [d \\in {"SideA.Deck"} |-> <<5, 11, 7>>], '
        '[z \\in {"SideA.Deck", "Play"} |-> IF z = "Play" THEN {12, 13} ELSE {5, 11, 7}]'
    )
    assert ctx.evaluate(f"ObjectLocation4(11, {args}).kind") == "hosted"
    assert ctx.evaluate(f"ObjectLocation4(11, {args}).host") == 12
    assert ctx.evaluate(f"ObjectLocation4(7, {args})") == from_python(
        {"kind": "deck", "host": 0, "zone": "SideA.Deck", "position": 3}
    )
    assert ctx.evaluate(f"ObjectLocation4(13, {args}).zone") == "Play"
    assert ctx.evaluate(f"ObjectLocation4(99, {args}).kind") == "nowhere"


def test_set_aside_tracking_and_exit_view() -> None:
    ctx = rev2("SetAside4")
    rec = (
        '[origin |-> "SideA.Hand", effectInstance |-> "e1", owningAbility |-> "a1", '
        'cleanup |-> "none"]'
    )
    assert ctx.evaluate(f"SetAsideTrackingValid4({{11}}, [i \\in {{11}} |-> {rec}])") is True
    assert ctx.evaluate("SetAsideTrackingValid4({11}, [i \\in {} |-> 0])") is False
    bad = rec.replace('"SideA.Hand"', '"SetAside"')
    assert ctx.evaluate(f"SetAsideTrackingValid4({{11}}, [i \\in {{11}} |-> {bad}])") is False
    assert ctx.evaluate(f"SetAsideExitView4(11, [i \\in {{11}} |-> {rec}], TRUE)") == "SetAside"
    assert ctx.evaluate(f"SetAsideExitView4(11, [i \\in {{11}} |-> {rec}], FALSE)") == "SideA.Hand"


def _tcs() -> Any:
    return evaluate.load_module(SPEC / "tcs" / "Deal.tla", SEARCH, {})


COMBOS = list(
    itertools.product(
        ["all", 1, 2, 3],
        [("a",), ("a", "b")],
        ["round_robin", "pile_by_pile"],
        ["top", "bottom", 1, 2],
        ["top", "bottom"],
        ["face_up", "face_down", "kept"],
    )
)


def test_tcs_reading_agrees_with_the_implementation_on_every_parameter_combination() -> None:
    """Small deals (4 cards, piles a and b, b holding 9) for every parameter combination."""
    ctx = _tcs()
    specs = {"src": hand("x", access=Access.ANY_INDEX), "a": hand("x"), "b": hand("x")}
    z = define_zones(specs, {"src": [4, 3, 2, 1], "b": [9]}, faces={3: "up"})
    before = from_python({n: list(z.zone(n).top_first) for n in specs})
    up_before = from_python({3})
    for count, piles, dist, position, pile_position, face in COMBOS:
        request = DealRequest(
            "src",
            piles=piles,
            count=count,
            distribution=dist,  # type: ignore[arg-type]
            source_position=position,
            pile_position=pile_position,  # type: ignore[arg-type]
            face=face,
        )  # type: ignore[arg-type]
        d = from_python(Deal(request).params())
        after_z = deal(z, request).collection
        after = from_python({n: list(after_z.zone(n).top_first) for n in specs})
        up_after = from_python({i for i in after_z.entry_ids if after_z.face(i) == "up"})
        assert ctx.holds("DealPostState", (before, after, up_before, up_after, d), {})
        assert ctx.holds("DealEnabled", (before, d), {})
        wrong = from_python({n: list(reversed(after_z.zone(n).top_first)) for n in specs})
        if wrong != after:
            assert not ctx.holds("DealPostState", (before, wrong, up_before, up_after, d), {})


@pytest.mark.parametrize(
    "changes",
    [
        {"count": 5},
        {"source_position": 5},
        {"source_position": 3, "count": 3},
        {"piles": ("a", "a")},
        {"piles": ("a", "src")},
    ],
)
def test_tcs_reading_refuses_what_the_implementation_refuses(changes: dict) -> None:
    base = {"piles": ("a",), "count": 1}
    d = from_python(Deal(DealRequest("src", **(base | changes))).params())
    before = from_python({"src": [1, 2, 3, 4], "a": [], "b": []})
    assert not _tcs().holds("DealEnabled", (before, d), {})


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_fresh_scenarios_conform(tmp_path: Path, name: str) -> None:
    module, refine, choose, cards = SCENARIOS[name]
    path = play(
        tmp_path / f"{name}.trace.jsonl",
        module,
        refine,
        choose,
        seed=3,
        steps=40,
        name=name,
        card_level_deals=cards,
    )
    result = replay_trace(path, SPEC, get_backend("embedded"))
    assert result.verdict == "conforms", result.failure
