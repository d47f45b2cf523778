"""The reference profile on the zone library: the seed's worked example, rejections, refinement."""

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.deal import DealRequest
from harness.profile import (
    Deal,
    Draw,
    ExitSetAside,
    Flip,
    Locate,
    Move,
    Observe,
    Reorder,
    Reveal,
    SetAside,
    Shuffle,
    apply,
    custody_vars,
    deal_vars,
    membership_vars,
    new_game,
    observation_vars,
    pile_vars,
    zone_instances,
)
from harness.scenarios.play import initial_state
from harness.scenarios.strategies import requests


def worked() -> Any:
    return new_game({"SideA": [], "SideB": []}, others={"SideA.Hand": [11], "Play": [12]})


def test_twelve_zone_instances_for_two_seats() -> None:
    assert len(zone_instances()) == 12
    occupants = membership_vars(worked())["occupants"]
    assert set(occupants) == set(zone_instances())
    assert occupants["Removed"] == set()


def test_worked_example_moving_11_from_sidea_hand_to_play() -> None:
    """Seed 000: 11 in SideA's hand, 12 in play, all else empty; with permission, move 11."""
    after, out = apply(worked(), Move(11, "SideA.Hand", "Play", movementAuthorized=True))
    assert out.accepted
    occupants = membership_vars(after)["occupants"]
    assert occupants["SideA.Hand"] == set()
    assert occupants["Play"] == {11, 12}
    assert all(not v for z, v in occupants.items() if z not in ("Play",))
    assert membership_vars(after)["inGameIds"] == {11, 12}


def test_worked_example_guards_reject_without_partial_move() -> None:
    start = worked()
    for request in [
        Move(11, "SideA.Hand", "Play", movementAuthorized=False),
        Move(11, "SideA.Hand", "Play", revealRequired=True, revealedBeforeMove=False),
        Move(12, "SideA.Hand", "Play"),
        Move(11, "SideA.Hand", "SideA.Hand"),
        Move(11, "SideA.Hand", "Graveyard"),
        Move(11, "Graveyard", "Play"),
        Move(11, "SideA.Hand", "SetAside"),
    ]:
        after, out = apply(start, request)
        assert not out.accepted and out.reason
        assert after is start


def test_reveal_requirement_met_allows_the_move() -> None:
    _, out = apply(
        worked(), Move(11, "SideA.Hand", "Play", revealRequired=True, revealedBeforeMove=True)
    )
    assert out.accepted


def test_refinement_mappings_have_the_module_variables() -> None:
    s = initial_state()
    assert set(membership_vars(s)) == {"inGameIds", "occupants"}
    assert set(pile_vars(s)) == {"inGameIds", "occupants", "piles"}
    assert set(deal_vars(s)) == {"inGameIds", "occupants", "piles", "faceUp"}
    assert set(observation_vars(s)) == {
        "inGameIds",
        "occupants",
        "faceUp",
        "controller",
        "revealed",
    }
    assert set(custody_vars(s)) == {"inGameIds", "occupants", "transit"}
    assert pile_vars(s)["piles"]["SideA.Deck"] == list(range(1, 9))
    assert deal_vars(s)["faceUp"] == {12, 13}


def test_draw_shuffle_reorder() -> None:
    s = initial_state()
    drawn, out = apply(s, Draw("SideA"))
    assert out.accepted and out.result == 1
    assert pile_vars(drawn)["piles"]["SideA.Hand"] == [1, 11]
    shuffled, out = apply(s, Shuffle("SideA.Deck", 3))
    assert out.params["result"] == pile_vars(shuffled)["piles"]["SideA.Deck"]
    assert apply(s, Shuffle("SideA.Deck", 3))[1].params == out.params
    _, out = apply(s, Reorder("SideA.Deck", tuple(range(1, 9)), reorderContext=False))
    assert out.accepted
    for bad in [
        Reorder("SideA.Deck", tuple(range(8, 0, -1)), reorderContext=False),
        Reorder("SideA.Deck", tuple(range(1, 8)), reorderContext=True),
        Reorder("SideA.Deck", (*range(1, 9), 1), reorderContext=True),
        Reorder("SideA.Deck", tuple(range(1, 9)), True, searchCompletion=True),
        Reorder("Play", (12,), True),
        Shuffle("Play", 1),
        Shuffle("SideA.Deck", -1),
        Draw("SideC"),
        Draw("SideA", movementAuthorized=False),
    ]:
        after, out = apply(s, bad)
        assert not out.accepted and after is s


def test_deal_params_split_union_types() -> None:
    d = Deal(DealRequest("SideA.Deck", piles=("SideA.Hand",), source_position=3))
    assert d.params()["sourcePosition"] == "index" and d.params()["sourceIndex"] == 3
    assert d.params()["countAll"] is True and d.params()["count"] == 0


def test_custody_and_exit_views() -> None:
    s = initial_state()
    held, out = apply(s, SetAside(2, "SideA.Deck", "e1", "ab1", "return"))
    assert out.accepted
    assert custody_vars(held)["transit"] == {
        2: {
            "origin": "SideA.Deck",
            "effectInstance": "e1",
            "owningAbility": "ab1",
            "cleanup": "return",
        }
    }
    _, out = apply(held, ExitSetAside(2, "Play", observerQualifies=False))
    assert out.params["reported"] == "SideA.Deck"
    gone, out = apply(held, ExitSetAside(2, "Play", observerQualifies=True))
    assert out.params["reported"] == "SetAside" and custody_vars(gone)["transit"] == {}
    same, out = apply(held, ExitSetAside(2, "SetAside", observerQualifies=True))
    assert not out.accepted and out.params["reported"] == "SetAside" and same is held


def test_observation_flip_reveal() -> None:
    s = initial_state()
    _, seen = apply(s, Observe("SideB"))
    assert seen.params["view"]["SideA.Hand"] == {"count": 1, "ids": set(), "listed": []}
    revealed, out = apply(s, Reveal(11, "SideB"))
    assert out.accepted
    _, seen = apply(revealed, Observe("SideB"))
    assert seen.params["view"]["SideA.Hand"]["ids"] == {11}
    moved, _ = apply(revealed, Move(11, "SideA.Hand", "SideA.Discard"))
    assert observation_vars(moved)["revealed"]["SideB"] == set()
    flipped, out = apply(s, Flip(11, "Up"))
    assert out.accepted and 11 in observation_vars(flipped)["faceUp"]
    for bad in [
        Flip(11, "Sideways"),
        Flip(999, "Up"),
        Reveal(999, "SideA"),
        Reveal(11, "SideC"),
        Observe("SideC"),
    ]:
        after, out = apply(s, bad)
        assert not out.accepted and after is s


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_every_rejected_request_leaves_the_state_exactly_as_it_was(data: st.DataObject) -> None:
    state = initial_state()
    for _ in range(12):
        request = data.draw(requests(state))
        after, out = apply(state, request)
        if not out.accepted:
            assert after is state
            assert observation_vars(after) == observation_vars(state)
        else:
            occ = membership_vars(after)["occupants"]
            members = [i for v in occ.values() for i in v]
            assert len(members) == len(set(members))
            assert set(members) == membership_vars(state)["inGameIds"]
        state = after


def test_locate_reports_deck_positions_and_zones() -> None:
    s = initial_state()
    _, out = apply(s, Locate(3))
    assert out.params["location"] == {
        "kind": "deck",
        "host": 0,
        "zone": "SideA.Deck",
        "position": 3,
    }
    _, out = apply(s, Locate(12))
    assert out.params["location"] == {"kind": "zone", "host": 0, "zone": "Play", "position": 0}
    after, out = apply(s, Locate(999))
    assert not out.accepted and after is s


def test_harness_never_imports_the_checker() -> None:
    import ast
    from pathlib import Path

    import harness

    for path in Path(harness.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            )
            for name in names:
                assert not name.startswith(("tlaconf.evaluate", "tlaconf.replay")), path
