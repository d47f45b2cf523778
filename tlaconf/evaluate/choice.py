"""CHOOSE: the first element, in TLC's order of values, that satisfies the predicate
(deterministic, as TLC's CHOOSE; an error when none does).

Sorting is done once per set, not once per CHOOSE: a large set's order is remembered for
the last few sets (by identity), and a :class:`~.lazysets.Without` view (``S \\ {x}`` of
a recursion over ``S``) walks the order its chain shares, from the first element it
still holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tlaconf.evaluate.fail import Fail, show
from tlaconf.evaluate.lazysets import Without, enum_set, sorted_values
from tlaconf.values import shape
from tlaconf.values.recent import Recent

REMEMBERED = 4
"""Large sets whose order is remembered."""

_ORDERS: Recent[list[Any]] = Recent(REMEMBERED)


def in_order(s: Any, sid: int) -> Iterable[Any]:
    """The elements of the set ``s`` in TLC's order."""
    if type(s) is Without:
        return s.ordered()
    elems = enum_set(s, sid)
    if len(elems) < shape.LARGE:
        return sorted_values(elems)
    return _ORDERS.get(elems, sorted_values)


def first(s: Any, pred: Callable[[Any], bool], k: int, sid: int) -> Any:
    """``CHOOSE x \\in s : pred(x)`` (``k``: the names of a tuple pattern, 0 for none)."""
    for x in in_order(s, sid):
        if k and (type(x) is not tuple or len(x) != k):
            raise Fail(f"{show(x)} does not match a tuple pattern of {k} names", (), sid)
        if pred(x):
            return x
    raise Fail(f"CHOOSE found no element of {show(s)} satisfying its predicate", (), sid)
