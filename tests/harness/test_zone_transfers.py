"""Plan/commit transfers, shuffle, draw and deals of the zone library."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.zones import (
    Access,
    Arrival,
    Custody,
    PlanFailure,
    Transfer,
    ZoneCollection,
    ZoneError,
    bag,
    commit_transfer,
    deal_batches,
    deal_round_robin,
    deck,
    define_zones,
    discard,
    draw,
    hand,
    plan_transfer,
    queue,
    reorder,
    shuffle,
    slot_row,
    transfer,
)


def table() -> ZoneCollection:
    return define_zones(
        {
            "deck": deck(),
            "north": hand("north"),
            "south": hand("south"),
            "discard": discard(),
            "queue": queue(),
            "bag": bag(),
            "row": slot_row(("l", "r")),
            "small": hand("north", capacity=1),
            "pile": deck(access=Access.ANY_INDEX),
            "custody": deck(access=Access.ANY_INDEX, custody=True),
        },
        {
            "deck": ["c1", "c2", "c3"],
            "queue": ["q1", "q2"],
            "bag": ["b1", "b2", "b3"],
            "row": {"l": "r1"},
        },
    )


def test_list_storage_is_bottom_to_top() -> None:
    z = table()
    assert z.zone("deck").entries == ("c1", "c2", "c3")
    assert z.zone("deck").top_first == ("c3", "c2", "c1")


def test_plan_is_mutation_free_and_commit_applies_it() -> None:
    z = table()
    plan = plan_transfer(z, Transfer(("c3", "c2"), "deck", "north"))
    assert plan.ok
    assert z.zone("deck").entries == ("c1", "c2", "c3") and z.version == 0
    after = commit_transfer(z, plan)
    assert after.zone("deck").entries == ("c1",)
    assert after.zone("north").top_first == ("c2", "c3")
    assert after.version == 1 and after.location("c3") == "north"


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        (Transfer(("c2",), "deck", "north"), "access_violation"),
        (Transfer(("q2",), "queue", "north"), "access_violation"),
        (Transfer(("c9",), "deck", "north"), "not_in_source"),
        (Transfer(("c3",), "deck", "deck"), "same_zone"),
        (Transfer(("c3", "c3"), "deck", "north"), "duplicate_entry"),
        (Transfer((), "deck", "north"), "empty_transfer"),
        (Transfer(("c3", "c2"), "deck", "small"), "capacity_exceeded"),
        (Transfer(("c3",), "deck", "row", slot="l"), "slot_occupied"),
        (Transfer(("c3",), "deck", "row", slot="z"), "undeclared_slot"),
        (Transfer(("c3",), "deck", "row"), "undeclared_slot"),
        (Transfer(("c3",), "deck", "north", slot="l"), "undeclared_slot"),
        (Transfer(("c3",), "deck", "custody"), "transit_required"),
        (Transfer(("c3",), "deck", "discard", insert=1), "access_violation"),
        (Transfer(("c3",), "deck", "pile", insert=5), "bad_position"),
        (Transfer(("c3",), "deck", "nowhere"), "unknown_zone"),
        (Transfer(("c3",), "deck", "north", face="sideways"), "invalid_face"),  # type: ignore[arg-type]
    ],
)
def test_failed_plan_says_why_and_leaves_collection(request_: Transfer, code: str) -> None:
    z = table()
    plan = plan_transfer(z, request_)
    assert isinstance(plan, PlanFailure)
    assert plan.error.code == code
    assert plan.collection is z
    assert z == table()


def test_access_rules_allow_the_right_ends() -> None:
    z = table()
    assert transfer(z, Transfer(("q1",), "queue", "north")).zone("queue").entries == ("q2",)
    assert transfer(z, Transfer(("b2",), "bag", "north")).zone("bag").entries == ("b1", "b3")
    moved = transfer(z, Transfer(("r1",), "row", "north"))
    assert moved.zone("row").slots == (("l", None), ("r", None))
    into_slot = transfer(z, Transfer(("c3",), "deck", "row", slot="r"))
    assert into_slot.zone("row").slots == (("l", "r1"), ("r", "c3"))


def test_insert_positions() -> None:
    z = define_zones(
        {"a": deck(access=Access.ANY_INDEX), "b": hand("n")}, {"a": [1, 2, 3], "b": [9, 8]}
    )
    top = transfer(z, Transfer((3, 2), "a", "b", "top")).zone("b").top_first
    bottom = transfer(z, Transfer((3, 2), "a", "b", "bottom")).zone("b").top_first
    middle = transfer(z, Transfer((3, 2), "a", "b", 1)).zone("b").top_first
    assert top == (2, 3, 8, 9)
    assert bottom == (8, 9, 3, 2)
    assert middle == (8, 3, 2, 9)


def test_commit_rejects_a_plan_from_another_version() -> None:
    z = table()
    plan = plan_transfer(z, Transfer(("c3",), "deck", "north"))
    assert plan.ok
    newer = transfer(z, Transfer(("q1",), "queue", "south"))
    with pytest.raises(ZoneError) as err:
        commit_transfer(newer, plan)
    assert err.value.code == "stale_plan"


def test_arrival_callback_sees_the_complete_new_state() -> None:
    z = table()
    seen: list[tuple[Arrival, int, int, str | None]] = []

    def arrive(arrival: Arrival, complete: ZoneCollection) -> None:
        seen.append(
            (
                arrival,
                complete.zone("deck").count,
                complete.zone("north").count,
                complete.location("c3"),
            )
        )

    plan = plan_transfer(z, Transfer(("c3", "c2"), "deck", "north"))
    assert plan.ok
    commit_transfer(z, plan, arrive)
    assert seen == [(Arrival(("c3", "c2"), "deck", "north"), 1, 2, "north")]


def test_custody_records_origin_and_drops_it_on_exit() -> None:
    z = table()
    held = transfer(z, Transfer(("c3",), "deck", "custody", custody=Custody("e1", "a1", "return")))
    record = held.transit["c3"]
    assert (record.origin, record.effect_instance, record.owning_ability, record.cleanup) == (
        "deck",
        "e1",
        "a1",
        "return",
    )
    assert "c3" not in transfer(held, Transfer(("c3",), "custody", "north")).transit


def test_shuffle_is_seeded_and_only_for_ordered_lists() -> None:
    z = define_zones({"d": deck(), "b": bag(), "r": slot_row(("a",))}, {"d": list(range(20))})
    assert shuffle(z, "d", 4) == shuffle(z, "d", 4)
    assert shuffle(z, "d", 4).zone("d").entries != shuffle(z, "d", 5).zone("d").entries
    assert sorted(shuffle(z, "d", 4).zone("d").entries) == list(range(20))
    for name in ("b", "r"):
        with pytest.raises(ZoneError, match="not_ordered"):
            shuffle(z, name, 1)


def test_reorder_needs_a_permutation() -> None:
    z = define_zones({"d": deck()}, {"d": [1, 2, 3]})
    assert reorder(z, "d", [1, 3, 2]).zone("d").top_first == (1, 3, 2)
    with pytest.raises(ZoneError, match="not_a_permutation"):
        reorder(z, "d", [1, 2])


def test_draw_takes_top_front_or_seeded_bag_sample() -> None:
    z = table()
    after, drawn = draw(z, "deck", "north", 2)
    assert drawn == ("c3", "c2") and after.zone("north").count == 2
    _, front = draw(z, "queue", "north")
    assert front == ("q1",)
    _, s1 = draw(z, "bag", "north", 2, seed=11)
    _, s2 = draw(z, "bag", "north", 2, seed=11)
    assert s1 == s2 and set(s1) <= {"b1", "b2", "b3"}
    with pytest.raises(ZoneError, match="seed_required"):
        draw(z, "bag", "north")
    with pytest.raises(ZoneError, match="not_enough_entries"):
        draw(z, "deck", "north", 4)
    with pytest.raises(ZoneError, match="bad_count"):
        draw(z, "deck", "north", 0)
    with pytest.raises(ZoneError, match="not_ordered"):
        draw(z, "row", "north")


def test_deal_round_robin_and_batches() -> None:
    z = define_zones({"d": deck(), "n": hand("n"), "s": hand("s")}, {"d": [1, 2, 3, 4, 5, 6]})
    rr = deal_round_robin(z, "d", ["n", "s"], 2)
    assert rr.zone("n").top_first == (4, 6) and rr.zone("s").top_first == (3, 5)
    batches = deal_batches(z, "d", ["n", "s"], 2)
    assert batches.zone("n").top_first == (5, 6) and batches.zone("s").top_first == (3, 4)
    seeded = deal_round_robin(z, "d", ["n", "s"], 3, shuffle_seed=9)
    assert seeded == deal_round_robin(z, "d", ["n", "s"], 3, shuffle_seed=9)
    for bad, code in [
        (["d"], "source_is_destination"),
        ([], "no_destination"),
        (["n", "n"], "duplicate_destination"),
    ]:
        with pytest.raises(ZoneError) as err:
            deal_round_robin(z, "d", bad, 1)
        assert err.value.code == code
    with pytest.raises(ZoneError, match="not_enough_entries"):
        deal_batches(z, "d", ["n", "s"], 4)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["c1", "c2", "c3", "q1", "q2", "b1", "r1", "zz"]),
            st.sampled_from(
                ["deck", "north", "south", "discard", "queue", "bag", "row", "small", "pile"]
            ),
            st.sampled_from(
                ["deck", "north", "south", "discard", "queue", "bag", "row", "small", "pile"]
            ),
            st.sampled_from(["top", "bottom", 0, 1]),
            st.sampled_from([None, "l", "r"]),
        ),
        max_size=12,
    )
)
def test_entries_stay_a_partition_and_failures_change_nothing(moves: list) -> None:
    z = table()
    universe = z.entry_ids
    for entry, src, dst, insert, slot in moves:
        plan = plan_transfer(z, Transfer((entry,), src, dst, insert, slot=slot))
        if not plan.ok:
            assert plan.collection is z
            continue
        z = commit_transfer(z, plan)
        members = [e for zone in z.zones.values() for e in zone.members]
        assert len(members) == len(set(members)) and set(members) == universe
