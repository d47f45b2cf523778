"""A value compared with itself (the same object: a bag's keys, shared log entries) is
equal after one walk of it; one holding a set TLC cannot enumerate is still an error."""

from __future__ import annotations

import pytest

from tests.evaluate.tlahelp import ev, fails
from tlaconf.values import Fn, order


def test_a_settled_value_equals_itself() -> None:
    assert ev("LET s == [a |-> <<1, 2>>, b |-> {3}] IN s = s") is True
    v = Fn({"m": (1, Fn({"t": frozenset({"x"})}))})
    assert order.equal(v, v) is True


@pytest.mark.parametrize("expr", [
    "LET s == <<{n \\in Nat : n > 2}>> IN s = s",
    "LET s == (1 :> {n \\in Nat : n > 2}) IN s = s",
])
def test_a_lazy_infinite_set_inside_is_still_compared(expr: str) -> None:
    fails(expr, "attempted to compare the set")
