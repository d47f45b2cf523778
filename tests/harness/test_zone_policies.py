"""Zone definitions: policy axes, presets as configuration, structured definition errors."""

import dataclasses

import pytest

from harness.zones import (
    Access,
    Order,
    Transfer,
    Visibility,
    ZoneError,
    ZoneSpec,
    bag,
    deck,
    define_zones,
    discard,
    hand,
    observe,
    queue,
    slot_row,
    transfer,
)
from harness.zones.policy import VALID_PAIRS


@pytest.mark.parametrize("access", list(Access))
@pytest.mark.parametrize("order", list(Order))
def test_access_order_pairs_are_validated(access: Access, order: Order) -> None:
    slots = ("a",) if order is Order.SPARSE else ()
    if (access, order) in VALID_PAIRS:
        assert ZoneSpec(access, order, Visibility.PUBLIC, Visibility.PUBLIC, slot_keys=slots)
    else:
        with pytest.raises(ZoneError) as err:
            ZoneSpec(access, order, Visibility.PUBLIC, Visibility.PUBLIC, slot_keys=slots)
        assert err.value.code == "invalid_access_order"
        assert err.value.details == {"access": access.value, "order": order.value}


def test_presets_are_plain_configuration() -> None:
    assert deck() == ZoneSpec(Access.LIFO, Order.ORDERED, Visibility.HIDDEN, Visibility.HIDDEN)
    assert hand("N").owner == "N" and hand("N").identity is Visibility.OWNER
    assert queue().access is Access.FIFO
    assert bag().order is Order.BAG
    assert slot_row(("x", "y")).slot_keys == ("x", "y")
    assert discard().identity is Visibility.FACE
    assert deck(access=Access.ANY_INDEX).access is Access.ANY_INDEX


def test_same_policies_same_behaviour_whatever_the_preset() -> None:
    """No mechanism looks at a preset name: a hand-built spec equal to a preset behaves alike."""
    built = ZoneSpec(Access.LIFO, Order.ORDERED, Visibility.HIDDEN, Visibility.HIDDEN)
    a = define_zones({"d": deck(), "h": hand("N")}, {"d": [1, 2, 3]})
    b = define_zones({"d": built, "h": hand("N")}, {"d": [1, 2, 3]})
    move = Transfer((3,), "d", "h")
    assert transfer(a, move).zones["h"].entries == transfer(b, move).zones["h"].entries
    assert observe(a, "N") == observe(b, "N")


@pytest.mark.parametrize(
    ("specs", "contents", "code"),
    [
        ({"a": deck(), "b": deck()}, {"a": [1, 2], "b": [2]}, "duplicate_entry"),
        ({"a": deck()}, {"a": [1, 1]}, "duplicate_entry"),
        ({"a": deck(capacity=1)}, {"a": [1, 2]}, "capacity_exceeded"),
        ({"s": slot_row(("x",))}, {"s": {"y": 1}}, "undeclared_slot"),
        ({"a": deck()}, {"a": {"x": 1}}, "undeclared_slot"),
        ({"a": deck()}, {"zz": [1]}, "unknown_zone"),
    ],
)
def test_definitions_reject_invalid_contents(specs: dict, contents: dict, code: str) -> None:
    with pytest.raises(ZoneError) as err:
        define_zones(specs, contents)
    assert err.value.code == code
    assert err.value.details


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"slot_keys": ("a",)}, "undeclared_slot"),
        ({"capacity": -1}, "invalid_capacity"),
        ({"order_visibility": Visibility.FACE}, "invalid_visibility"),
    ],
)
def test_spec_validation(changes: dict, code: str) -> None:
    with pytest.raises(ZoneError) as err:
        deck(**changes)
    assert err.value.code == code


def test_sparse_zone_needs_distinct_declared_slots() -> None:
    with pytest.raises(ZoneError, match="missing_slots"):
        slot_row(())
    with pytest.raises(ZoneError, match="duplicate_slot"):
        slot_row(("a", "a"))


def test_custody_zone_requires_transit_records() -> None:
    custody = dataclasses.replace(deck(access=Access.ANY_INDEX), custody=True)
    with pytest.raises(ZoneError, match="transit_required"):
        define_zones({"s": custody}, {"s": [1]})


def test_collections_are_immutable() -> None:
    z = define_zones({"a": deck()}, {"a": [1]})
    with pytest.raises(TypeError):
        z.zones["b"] = z.zones["a"]  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        z.version = 3  # type: ignore[misc]
