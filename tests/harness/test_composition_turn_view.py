"""TurnView: counts always, identities/order/slots by policy, canonical hidden order, the leak
check over views, legal actions and target choices, revelations in a public replay."""

from __future__ import annotations

import pytest

from harness.composition import turn_view
from harness.composition.errors import CompositionError
from harness.composition.targets import ConcreteAction
from harness.composition.turn_view import assert_no_turn_view_leak, create_turn_view
from harness.scenarios.composition.turn_views import RULES, ViewMachine, deck_top_shown, new_table
from harness.zones import InformationLeak, Transfer, create_information_revelation, reorder
from tests.harness.composition_helpers import holds, load


def test_counts_always_identities_and_order_by_policy() -> None:
    view = create_turn_view(new_table().zones, "SideA", RULES)
    z = view.zones
    assert (z["SideA.Deck"].count, z["SideA.Deck"].identities, z["SideA.Deck"].order) == (4, (),
                                                                                         None)
    assert z["SideB.Hand"].count == 2 and z["SideB.Hand"].identities == ()
    assert z["SideA.Hand"].identities == (5, 6)
    assert z["Play"].order == (None, 9) and z["Play"].identities == (9,)    # 10 is face down
    play_b = create_turn_view(new_table().zones, "SideB", RULES).zones["Play"]
    assert play_b.identities == (9, 10)                                     # SideB controls 10
    assert z["Bag"].count == 2 and z["Bag"].order is None
    assert z["Row"].slots == (("left", True, 13), ("mid", False, None), ("right", True, 14))


def test_hidden_order_is_canonicalized() -> None:
    zones = new_table().zones
    shuffled = reorder(zones, "SideA.Deck", (1, 3, 2, 4))
    revealed = (create_information_revelation(2, {"SideA"}),)
    a = create_turn_view(zones, "SideA", RULES, revealed)
    b = create_turn_view(shuffled, "SideA", RULES, revealed)
    assert a.zones["SideA.Deck"] == b.zones["SideA.Deck"]
    assert a.zones["SideA.Deck"].identities == (2,)


def test_choices_and_actions_only_name_what_the_seat_identifies() -> None:
    zones = new_table().zones
    view = create_turn_view(zones, "SideA", RULES)
    assert view.target_choices["foe"].choices == ()
    peek = (create_information_revelation(8, {"SideA"}),)
    assert create_turn_view(zones, "SideA", RULES, peek).target_choices["foe"].choices == ((8,),)
    assert view.target_choices["pair"].choices == () and not view.target_choices["pair"].truncated
    assert view.actions == {ConcreteAction("pass"), ConcreteAction("play", (5,)),
                            ConcreteAction("play", (6,)), ConcreteAction("play", (9,))}
    crowded = new_table().move(Transfer((5,), "SideA.Hand", "Play")).move(
        Transfer((6,), "SideA.Hand", "Play"))
    assert create_turn_view(crowded.zones, "SideA", RULES).actions is None   # pair: truncated


def test_the_leak_check_passes_the_honest_view() -> None:
    zones = new_table().zones
    for seat in ("SideA", "SideB"):
        assert assert_no_turn_view_leak(zones, seat, RULES) > 0


def test_the_leak_check_catches_choices_over_hidden_entries(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(turn_view, "seat_may_target", lambda *args: True)
    with pytest.raises(InformationLeak) as err:
        assert_no_turn_view_leak(new_table().zones, "SideA", RULES)
    assert "SideA" in str(err.value)


def test_the_leak_check_catches_legal_actions_over_hidden_entries(
        monkeypatch: pytest.MonkeyPatch) -> None:
    honest = turn_view.create_turn_view

    def leaky(zones, seat, rules, revelations=()):  # type: ignore[no-untyped-def]
        v = honest(zones, seat, rules, revelations)
        extra = frozenset(turn_view.ConcreteAction("peek", (e,))
                          for e in zones.zone("SideB.Hand").members)
        return turn_view.TurnView(v.seat, v.zones, v.target_choices, (v.actions or frozenset())
                                  | extra)
    monkeypatch.setattr(turn_view, "create_turn_view", leaky)
    with pytest.raises(InformationLeak) as err:
        assert_no_turn_view_leak(new_table().zones, "SideA", RULES)
    assert "legal actions" in str(err.value)


def test_revelations_go_to_the_public_replay_and_state_stays_authoritative() -> None:
    t = new_table().reveal(create_information_revelation(7, {"SideA"}, "peek"))
    assert t.zones == new_table().zones and len(t.replay) == 1
    assert create_turn_view(t.zones, "SideA", RULES, t.revelations).zones["SideB.Hand"] \
        .identities == (7,)
    moved = t.move(Transfer((7,), "SideB.Hand", "Play"))
    assert moved.revelations == () and moved.replay == t.replay
    assert 7 not in create_turn_view(moved.zones, "SideA", RULES).zones["Play"].identities
    with pytest.raises(CompositionError):
        t.reveal(create_information_revelation(99, {"SideA"}))
    for seats in (set(), {"SideA", "SideZ"}):
        with pytest.raises(CompositionError):
            t.reveal(create_information_revelation(7, seats))


def test_the_reading_accepts_the_view_and_ignores_what_the_seat_cannot_see() -> None:
    m = ViewMachine()
    consts = m.constants
    ctx = load("TurnViews", {"TargetSpecs": consts["TargetSpecs"]})
    st = {**m.variables(), "policies": consts["Policies"], "controllers": consts["Controllers"]}
    st.pop("replay")
    view = m.observe("SideA").view
    args = ("SideA", consts["TargetSpecs"], consts["ActionDefinitions"])
    assert holds(ctx, "TurnViewOK", view, st, *args)
    other = {**st, "zones": {**st["zones"], "SideA.Deck": [1, 3, 4, 2]}}
    assert holds(ctx, "TurnViewOK", view, other, *args)
    swapped = {**st, "zones": {**st["zones"], "SideA.Deck": [1, 3, 7, 2],
                               "SideB.Hand": [8, 4]}}        # hidden identities permuted
    assert holds(ctx, "TurnViewOK", view, swapped, *args)
    seen = {**st, "zones": {**st["zones"], "SideA.Deck": [1, 3, 5, 2],
                            "SideA.Hand": [4, 6]}}          # SideA's own hand differs
    assert not holds(ctx, "TurnViewOK", view, seen, *args)


def test_the_recorded_leak_check_reports_every_world_and_stops_at_a_leak() -> None:
    table = new_table()
    honest = table.leak_check("SideA", RULES)
    assert honest.leak is None and len(honest.worlds) >= 2
    assert honest.view == table.turn_view("SideA", RULES)
    assert all(v.zones == honest.view.zones for _, v in honest.worlds)
    leaky = table.leak_check("SideA", RULES, projection=deck_top_shown)
    assert leaky.leak is not None and leaky.worlds
    *same, (_, last) = leaky.worlds
    assert all(v.zones == leaky.view.zones for _, v in same)
    assert last.zones != leaky.view.zones                  # the world that showed the leak
    with pytest.raises(CompositionError) as err:
        table.leak_check("SideZ", RULES)
    assert err.value.code == "unknown_seat"
