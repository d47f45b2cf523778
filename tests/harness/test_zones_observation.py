"""Per-seat observations, revelations and the information-leak check."""

from collections.abc import Hashable, Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.profile import legal_actions, new_game
from harness.zones import (
    InformationLeak,
    Revelation,
    Transfer,
    ZoneCollection,
    assert_no_information_leak,
    bag,
    create_information_revelation,
    deck,
    define_zones,
    discard,
    draw,
    hand,
    observe,
    shuffle,
    slot_row,
    transfer,
)


def table() -> ZoneCollection:
    return define_zones(
        {
            "deck": deck("N"),
            "north": hand("N"),
            "south": hand("S"),
            "discard": discard(),
            "bag": bag(),
            "row": slot_row(("l", "r")),
        },
        {
            "deck": [1, 2, 3],
            "north": [4, 5],
            "south": [6],
            "discard": [7, 8],
            "bag": [9, 10],
            "row": {"r": 11},
        },
        faces={7: "up", 8: "down"},
        controllers={7: "N", 8: "N"},
    )


def test_counts_always_identities_and_order_only_when_allowed() -> None:
    north = observe(table(), "N")
    south = observe(table(), "S")
    assert (
        north["deck"].count == 3 and north["deck"].identities == () and north["deck"].order is None
    )
    assert north["north"].identities == (4, 5) and north["north"].order == (5, 4)
    assert south["north"].count == 2 and south["north"].identities == ()
    assert south["north"].order is None
    assert south["discard"].identities == (7,) and south["discard"].order == (None, 7)
    assert north["discard"].identities == (7, 8)
    assert north["bag"].count == 2 and north["bag"].identities == () and north["bag"].order is None
    assert north["row"].slots == (("l", False, None), ("r", True, 11))


def test_hidden_order_is_canonicalized() -> None:
    specs = {"hand": hand("N", order_visibility=deck().order_visibility)}
    a = define_zones(specs, {"hand": [3, 1, 2]})
    b = define_zones(specs, {"hand": [2, 3, 1]})
    assert observe(a, "N") == observe(b, "N")
    assert observe(a, "N")["hand"].identities == (1, 2, 3)


def test_revelation_grants_identity_to_the_named_seats_only() -> None:
    r = create_information_revelation(1, ["S"], "peek")
    assert r == Revelation(1, frozenset({"S"}), "peek")
    assert observe(table(), "S", [r])["deck"].identities == (1,)
    assert observe(table(), "N", [r])["deck"].identities == ()


def test_profile_passes_the_leak_check_with_its_legal_actions() -> None:
    game = new_game(
        {"SideA": [1, 2, 3], "SideB": [4, 5, 6]},
        others={"SideA.Hand": [11], "SideB.Hand": [21, 22], "Bank": [31, 32]},
    )
    for seat in ("SideA", "SideB"):
        assert assert_no_information_leak(game.zones, seat, legal_actions=legal_actions) > 3


def test_leaky_legal_actions_are_caught() -> None:
    def peeking(zones: ZoneCollection, seat: str) -> Iterable[Hashable]:
        return [("Draw", zones.zone("deck").top_first[0])]

    with pytest.raises(InformationLeak) as err:
        assert_no_information_leak(table(), "N", legal_actions=peeking)
    assert err.value.code == "information_leak" and "legal actions" in err.value.message


def test_leaky_observation_is_caught() -> None:
    def insertion_order(zones: ZoneCollection, seat: str, _r: tuple[Revelation, ...]) -> object:
        return zones.zone("south").entries, zones.zone("deck").count

    south_two = transfer(table(), Transfer((4,), "north", "south"))
    with pytest.raises(InformationLeak, match="observation"):
        assert_no_information_leak(south_two, "N", observer=insertion_order)


def test_bag_order_is_permuted_too() -> None:
    def bag_order(zones: ZoneCollection, seat: str, _r: tuple[Revelation, ...]) -> object:
        return zones.zone("bag").entries

    with pytest.raises(InformationLeak, match="bag order"):
        assert_no_information_leak(table(), "N", observer=bag_order)


@settings(max_examples=30, deadline=None)
@given(
    a=st.lists(st.integers(1, 40), max_size=8, unique=True),
    b=st.lists(st.integers(41, 80), max_size=8, unique=True),
    hand_b=st.lists(st.integers(81, 90), max_size=4, unique=True),
    bank=st.lists(st.integers(91, 99), max_size=4, unique=True),
    up=st.sets(st.integers(1, 99), max_size=10),
)
def test_no_leak_in_random_profile_states(
    a: list[int], b: list[int], hand_b: list[int], bank: list[int], up: set[int]
) -> None:
    game = new_game(
        {"SideA": a, "SideB": b},
        others={"SideB.Hand": hand_b, "Bank": bank},
        face_up=[i for i in up if i in {*a, *b, *hand_b, *bank}],
    )
    for seat in ("SideA", "SideB"):
        assert_no_information_leak(game.zones, seat, legal_actions=legal_actions, samples=4)


@given(st.lists(st.integers(0, 50), min_size=1, max_size=15, unique=True), st.integers(0, 99))
def test_shuffle_and_bag_draws_replay(entries: list[int], seed: int) -> None:
    z = define_zones(
        {"d": deck(), "b": bag(), "h": hand("N")}, {"d": entries, "b": [e + 100 for e in entries]}
    )
    once = shuffle(z, "d", seed)
    assert once == shuffle(z, "d", seed)
    assert sorted(once.zone("d").entries) == sorted(entries)
    k = max(1, len(entries) // 2)
    assert draw(z, "b", "h", k, seed=seed) == draw(z, "b", "h", k, seed=seed)
