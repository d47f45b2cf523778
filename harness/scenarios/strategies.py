"""Hypothesis strategies for profile requests (legal and illegal), drawn from a current state."""

from __future__ import annotations

from typing import Any

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
    ProfileState,
    Reorder,
    Request,
    Reveal,
    SetAside,
    Shuffle,
    pile_zones,
    zone_instances,
)
from harness.scenarios.play import NOT_A_SEAT, NOT_A_ZONE, NOT_AN_ID
from harness.zones import Custody

bools = st.booleans()


def requests(state: ProfileState) -> st.SearchStrategy[Request]:
    """Any request of the profile, most of them about the objects and zones of ``state``."""
    ids = st.sampled_from([*sorted(int(i) for i in state.zones.entry_ids), NOT_AN_ID])
    zones = st.sampled_from([*zone_instances(state.seats), NOT_A_ZONE])
    piles = st.sampled_from(pile_zones(state.seats))
    seats = st.sampled_from([*state.seats, NOT_A_SEAT])
    decks = st.sampled_from([f"{s}.Deck" for s in state.seats] + ["Play"])
    custody = st.builds(Custody, st.just("e1"), st.just("a1"), st.sampled_from(["none", "x"]))
    deal: st.SearchStrategy[Any] = st.builds(
        DealRequest,
        piles,
        piles=st.lists(piles, min_size=1, max_size=3).map(tuple),
        count=st.one_of(st.just("all"), st.integers(-1, 6)),
        distribution=st.sampled_from(["round_robin", "pile_by_pile", "zigzag"]),
        source_position=st.one_of(st.sampled_from(["top", "bottom", "middle"]), st.integers(0, 9)),
        pile_position=st.sampled_from(["top", "bottom", "side"]),
        face=st.sampled_from(["face_up", "face_down", "kept", "sideways"]),
    )
    return st.one_of(
        st.builds(Move, ids, zones, zones, bools, bools, bools, st.one_of(st.none(), custody)),
        st.builds(SetAside, ids, zones, st.just("e1"), st.just("a1"), st.just("none"), bools),
        st.builds(ExitSetAside, ids, zones, bools, bools),
        st.builds(Draw, seats, bools),
        st.builds(Shuffle, decks, st.integers(-3, 1000)),
        st.builds(Reorder, decks, st.lists(ids, max_size=9).map(tuple), bools, bools, bools),
        st.builds(Locate, ids),
        st.builds(Deal, deal, bools),
        st.builds(Flip, ids, st.sampled_from(["Up", "Down", "Sideways"])),
        st.builds(Reveal, ids, seats),
        st.builds(Observe, seats),
    )
