"""Durations: explicit boundaries only, per unit, simultaneous expiries in authored order."""

from __future__ import annotations

import pytest

from harness.composition.durations import Duration, Durations
from harness.composition.errors import CompositionError
from tests.harness.composition_helpers import holds, load
from tlaconf.values import from_python, to_tla


def durations(*ds: Duration) -> Durations:
    out = Durations()
    for d in ds:
        out = out.add(d)
    return out


def test_only_an_explicit_boundary_of_the_unit_advances() -> None:
    ds = durations(Duration(1, "turn", 2, 1), Duration(2, "phase", 1, 1))
    assert ds.event("action") == ds and ds.event("draw") == ds
    with pytest.raises(CompositionError) as err:
        ds.event("turn")
    assert err.value.code == "implicit_boundary"
    after, expired = ds.boundary("round")
    assert after == ds and expired == ()
    after, expired = ds.boundary("turn")
    assert expired == () and {d.remaining for d in after.active if d.unit == "turn"} == {1}
    assert Duration(2, "phase", 1, 1, created=2) in after.active


def test_simultaneous_expiries_come_back_in_authored_order() -> None:
    ds = durations(Duration(7, "turn", 1, 3), Duration(9, "turn", 1, 2), Duration(3, "turn", 1, 2),
                   Duration(1, "turn", 2, 1))
    after, expired = ds.boundary("turn")
    assert expired == (9, 3, 7)                  # 9 and 3 tie on order: 9 was created first
    assert after.active == {Duration(1, "turn", 1, 1, created=4)}
    assert after.boundary("turn") == (Durations(added=4), (1,))


@pytest.mark.parametrize(("d", "code"), [(Duration(1, "turn", 0, 1), "no_duration"),
                                         (Duration(1, "segment", 1, 1), "unknown_unit"),  # type: ignore[arg-type]
                                         (Duration(5, "round", 1, 1), "duplicate_duration")])
def test_refused_durations(d: Duration, code: str) -> None:
    with pytest.raises(CompositionError) as err:
        durations(Duration(5, "turn", 1, 1)).add(d)
    assert err.value.code == code


def test_the_reading_of_expiries_and_boundaries() -> None:
    ctx = load("Durations")
    ds = durations(Duration(7, "turn", 1, 3), Duration(3, "turn", 1, 2),
                   Duration(1, "phase", 2, 1))
    active = {from_python(d.state()) for d in ds.active}
    after, expired = ds.boundary("turn")
    assert holds(ctx, "ExpiriesInAuthoredOrder", list(expired), active, "turn")
    assert not holds(ctx, "ExpiriesInAuthoredOrder", list(reversed(expired)), active, "turn")
    assert not holds(ctx, "ExpiriesInAuthoredOrder", [3], active, "turn")
    assert holds(ctx, "ExpiriesInAuthoredOrder", [], active, "phase")
    got = ctx.evaluate(f'AfterBoundary({to_tla(from_python(active))}, "turn")')
    assert got == from_python({from_python(d.state()) for d in after.active})
