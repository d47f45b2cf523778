"""The TCS v0.8 ``deal`` verb: every parameter, default and domain, and the decided edge cases."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.deal import DealRequest, deal, deal_steps, pile_assignment, plan_deal
from harness.zones import Access, ZoneCollection, ZoneError, bag, deck, define_zones, hand


def table(n: int = 6) -> ZoneCollection:
    """Source ``src`` holds 1..n, 1 on top; piles ``a``, ``b``, ``c`` (``c`` holds 99)."""
    return define_zones(
        {
            "src": deck(access=Access.ANY_INDEX),
            "a": hand("A"),
            "b": hand("B"),
            "c": hand("C"),
            "bag": bag(),
        },
        {"src": list(range(n, 0, -1)), "c": [99]},
    )


def dealt(**params: Any) -> dict[str, tuple]:
    z = deal(table(), DealRequest("src", **params)).collection
    return {name: z.zone(name).top_first for name in ("src", "a", "b", "c")}


def test_defaults_deal_everything_to_the_target_reversed() -> None:
    r = DealRequest("src", target="a")
    assert (r.count, r.distribution, r.source_position, r.pile_position, r.face) == (
        "all",
        "round_robin",
        "top",
        "top",
        "kept",
    )
    assert dealt(target="a") == {"src": (), "a": (6, 5, 4, 3, 2, 1), "b": (), "c": (99,)}


def test_round_robin_top_each_pile_receives_reversed() -> None:
    assert dealt(piles=("a", "b"), count=4) == {"src": (5, 6), "a": (3, 1), "b": (4, 2), "c": (99,)}


def test_pile_position_bottom_keeps_departure_order() -> None:
    got = dealt(piles=("a", "c"), count=4, pile_position="bottom")
    assert got["a"] == (1, 3) and got["c"] == (99, 2, 4)


def test_pile_by_pile_uneven_first_piles_get_one_more() -> None:
    got = dealt(piles=("a", "b", "c"), count=5, distribution="pile_by_pile", pile_position="bottom")
    assert got["a"] == (1, 2) and got["b"] == (3, 4) and got["c"] == (99, 5)
    assert pile_assignment(5, 3, "pile_by_pile") == (0, 0, 1, 1, 2)
    assert pile_assignment(2, 3, "pile_by_pile") == (0, 1)
    assert pile_assignment(5, 3, "round_robin") == (0, 1, 2, 0, 1)


def test_source_positions() -> None:
    assert dealt(target="a", count=2, source_position="bottom")["a"] == (5, 6)
    got = dealt(target="a", count=2, source_position=3)
    assert got["a"] == (4, 3) and got["src"] == (1, 2, 5, 6)
    assert dealt(target="a", source_position=5)["a"] == (6, 5)
    moves = plan_deal(table(), DealRequest("src", target="a", count=3, source_position="bottom"))
    assert [(m.entry, m.index) for m in moves] == [(6, 6), (5, 5), (4, 4)]


def test_faces() -> None:
    up = deal(table(), DealRequest("src", target="a", count=2, face="face_up")).collection
    assert up.face(1) == "up" and up.face(3) == "down"
    down = deal(up, DealRequest("a", target="b", face="face_down")).collection
    assert down.face(1) == "down"
    kept = deal(up, DealRequest("a", target="b")).collection
    assert kept.face(1) == "up"


def test_each_card_is_its_own_transfer() -> None:
    steps = deal_steps(table(), DealRequest("src", piles=("a", "b"), count=3))
    assert [m.entry for m, _ in steps] == [1, 2, 3]
    assert [(z.zone("a").count, z.zone("b").count, z.zone("src").count) for _, z in steps] == [
        (1, 0, 5),
        (1, 1, 4),
        (2, 1, 3),
    ]
    assert [z.version for _, z in steps] == [1, 2, 3]


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"count": 0}, "bad_parameter"),
        ({"count": -2}, "bad_parameter"),
        ({"count": "some"}, "bad_parameter"),
        ({"count": True}, "bad_parameter"),
        ({"distribution": "zigzag"}, "bad_parameter"),
        ({"source_position": 0}, "bad_parameter"),
        ({"source_position": "middle"}, "bad_parameter"),
        ({"pile_position": "side"}, "bad_parameter"),
        ({"face": "sideways"}, "bad_parameter"),
        ({"count": 7}, "not_enough_cards"),
        ({"count": 3, "source_position": 5}, "not_enough_cards"),
        ({"source_position": 7}, "source_position_out_of_range"),
        ({"piles": ("a", "src")}, "source_is_destination"),
        ({"piles": ("a", "a")}, "duplicate_destination"),
        ({"piles": ()}, "no_destination"),
        ({"piles": ("bag",)}, "not_ordered"),
        ({"piles": ("nope",)}, "unknown_zone"),
    ],
)
def test_invalid_deals_move_nothing(params: dict, code: str) -> None:
    z = table()
    params.setdefault("piles", ("a",))
    with pytest.raises(ZoneError) as err:
        deal(z, DealRequest("src", **params))
    assert err.value.code == code
    assert z == table()


def test_all_of_an_empty_source_is_nothing_to_deal() -> None:
    with pytest.raises(ZoneError, match="nothing_to_deal"):
        deal(table(0), DealRequest("src", target="a"))


@given(
    n=st.integers(1, 8),
    piles=st.integers(1, 3),
    count=st.one_of(st.just("all"), st.integers(1, 8)),
    distribution=st.sampled_from(["round_robin", "pile_by_pile"]),
    position=st.one_of(st.sampled_from(["top", "bottom"]), st.integers(1, 8)),
    pile_position=st.sampled_from(["top", "bottom"]),
)
def test_deal_properties(
    n: int, piles: int, count: Any, distribution: Any, position: Any, pile_position: Any
) -> None:
    z = table(n)
    names = ("a", "b", "c")[:piles]
    request = DealRequest(
        "src",
        piles=names,
        count=count,
        distribution=distribution,
        source_position=position,
        pile_position=pile_position,
    )
    try:
        moves = plan_deal(z, request)
    except ZoneError:
        return
    result = deal(z, request).collection
    order = [m.entry for m in moves]
    assert sorted(e for name in ("src", *names) for e in result.zone(name).members) == sorted(
        [*range(1, n + 1), *([99] if piles == 3 else [])]
    )
    sizes = [sum(1 for m in moves if m.pile == p) for p in names]
    other = "pile_by_pile" if distribution == "round_robin" else "round_robin"
    assert sizes == [list(pile_assignment(len(order), piles, other)).count(j) for j in range(piles)]
    for p in names:
        got = [m.entry for m in moves if m.pile == p]
        before = list(z.zone(p).top_first)
        expected = (got[::-1] + before) if pile_position == "top" else (before + got)
        assert list(result.zone(p).top_first) == expected
