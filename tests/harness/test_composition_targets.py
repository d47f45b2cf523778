"""TargetSpec / enumerateTargetChoices / generic action enumeration, and their reading."""

from __future__ import annotations

import pytest

from harness.composition.errors import CompositionError
from harness.composition.targets import (
    ActionDefinition,
    ConcreteAction,
    TargetSpec,
    _tuples,
    enumerate_actions,
    enumerate_target_choices,
    is_target_tuple,
    target_choices,
)
from harness.zones import define_zones, hand
from tests.harness.composition_helpers import holds, load
from tlaconf.values import from_python

ZONES = define_zones({"a": hand("A"), "b": hand("B")}, {"a": [3, 1], "b": [2]})


def test_choices_are_canonical_and_bounded() -> None:
    spec = TargetSpec("t", ("a", "b"), 2, cap=4)
    got = enumerate_target_choices(spec, ZONES)
    assert got.choices == ((1, 2), (1, 3), (2, 1), (2, 3)) and got.truncated
    everything = enumerate_target_choices(TargetSpec("t", ("a", "b"), 2, cap=6), ZONES)
    assert len(everything.choices) == 6 and not everything.truncated


def test_repeats_only_when_not_distinct() -> None:
    spec = TargetSpec("t", ("b",), 2, distinct=False)
    assert enumerate_target_choices(spec, ZONES).choices == ((2, 2),)
    assert enumerate_target_choices(TargetSpec("t", ("b",), 2), ZONES).choices == ()
    assert not is_target_tuple(TargetSpec("t", ("a",), 2), ZONES, (1, 1))
    assert is_target_tuple(TargetSpec("t", ("a",), 2), ZONES, (3, 1))
    assert not is_target_tuple(TargetSpec("t", ("a",), 2), ZONES, (3, 2))
    with pytest.raises(CompositionError):
        TargetSpec("t", ("a",), 0)


def test_a_cap_of_exactly_the_count_is_not_truncation() -> None:
    got = enumerate_target_choices(TargetSpec("t", ("a", "b"), 1, cap=3), ZONES)
    assert got.choices == ((1,), (2,), (3,)) and not got.truncated


def test_action_enumeration_refuses_truncated_choices() -> None:
    defs = (ActionDefinition("go"), ActionDefinition("hit", "targets", "t"))
    full = target_choices({"t": TargetSpec("t", ("b",), 1)}, ZONES)
    assert enumerate_actions(defs, full) == {ConcreteAction("go"), ConcreteAction("hit", (2,))}
    capped = target_choices({"t": TargetSpec("t", ("a", "b"), 1, cap=2)}, ZONES)
    with pytest.raises(CompositionError) as err:
        enumerate_actions(defs, capped)
    assert err.value.code == "truncated_targets" and err.value.details["spec"] == "t"


def _board() -> dict:
    return {"a": {1, 3}, "b": {2}}


@pytest.mark.parametrize("cap", [0, 2, 4, 6, 9])
def test_the_reading_accepts_the_enumeration_and_refuses_tampering(cap: int) -> None:
    spec = TargetSpec("t", ("a", "b"), 2, cap=cap)
    ctx = load("Targets", {"TargetSpecs": {"t": spec.value()}})
    view = enumerate_target_choices(spec, ZONES).value()
    assert holds(ctx, "TargetChoicesOK", view, spec.value(), _board())
    flipped = {**view, "truncated": not view["truncated"]}
    assert not holds(ctx, "TargetChoicesOK", flipped, spec.value(), _board())
    if len(view["choices"]) >= 2:
        swapped = [view["choices"][1], view["choices"][0], *view["choices"][2:]]
        assert not holds(ctx, "TargetChoicesOK", {**view, "choices": swapped}, spec.value(),
                         _board())
    if view["truncated"] and view["choices"]:
        later = [*view["choices"][:-1], [3, 2]]
        assert not holds(ctx, "TargetChoicesOK", {**view, "choices": later}, spec.value(),
                         _board())


def test_the_reading_of_action_enumeration() -> None:
    ctx = load("Targets", {"TargetSpecs": {"t": TargetSpec("t", ("b",), 1).value()}})
    defs = {from_python(ActionDefinition("go").value()),
            from_python(ActionDefinition("hit", "targets", "t").value())}
    for cap, refused in ((1, False), (0, True)):
        specs = {"t": TargetSpec("t", ("b",), 1, cap=cap).value()}
        actions = set() if refused else {from_python({"action": "go", "targets": []}),
                                         from_python({"action": "hit", "targets": [2]})}
        result = {"refused": refused, "actions": actions}
        assert holds(ctx, "ActionEnumerationOK", result, defs, specs, _board())
        wrong = {"refused": not refused, "actions": actions}
        assert not holds(ctx, "ActionEnumerationOK", wrong, defs, specs, _board())


@pytest.mark.parametrize("count,distinct", [(1, True), (2, True), (2, False), (3, True),
                                            (3, False)])
def test_the_reading_enumerates_every_tuple_of_the_count(count: int, distinct: bool) -> None:
    """TargetTuples cuts sequences of MaxTargetCount elements (the greatest count of the
    product's specs) to a spec's count: the tuples of that count, as the helper lists
    them, also for a spec with fewer targets than another."""
    spec = TargetSpec("t", ("a", "b"), count, distinct=distinct)
    longest = TargetSpec("u", ("a",), 3)
    ctx = load("Targets", {"TargetSpecs": {"t": spec.value(), "u": longest.value()}})
    got = ctx.value("TargetTuples", (from_python(spec.value()), from_python(_board())))
    assert ctx.value("MaxTargetCount") == 3
    assert got == {tuple(t) for t in _tuples(spec, ZONES, None)}
    assert len(got) == (3 * 2 * 1 if count == 3 and distinct else
                        3 ** count if not distinct else {1: 3, 2: 6}[count])
