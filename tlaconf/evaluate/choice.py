"""CHOOSE: the first element, in TLC's order of values, that satisfies the predicate
(deterministic, as TLC's CHOOSE; an error when none does).

Sorting is done once per set, not once per CHOOSE: a large set's order is remembered for
the last few sets (by identity), and a :class:`~.lazysets.Without` view (``S \\ {x}`` of
a recursion over ``S``) walks the order its chain shares, from the first element it
still holds.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from tlaconf.evaluate.fail import Fail, show
from tlaconf.evaluate.lazysets import Without, enum_set, sorted_values
from tlaconf.values import shape

REMEMBERED = 4
"""Large sets whose order is remembered."""

_ORDERS: OrderedDict[int, tuple[frozenset[Any], list[Any]]] = OrderedDict()


def in_order(s: Any, sid: int) -> Iterable[Any]:
    """The elements of the set ``s`` in TLC's order."""
    if type(s) is Without:
        return s.ordered()
    elems = enum_set(s, sid)
    if len(elems) < shape.LARGE:
        return sorted_values(elems)
    seen = _ORDERS.get(id(elems))
    if seen is not None and seen[0] is elems:
        _ORDERS.move_to_end(id(elems))
        return seen[1]
    order = sorted_values(elems)
    _ORDERS[id(elems)] = (elems, order)
    while len(_ORDERS) > REMEMBERED:
        _ORDERS.popitem(last=False)
    return order


def first(s: Any, pred: Callable[[Any], bool], k: int, sid: int) -> Any:
    """``CHOOSE x \\in s : pred(x)`` (``k``: the names of a tuple pattern, 0 for none)."""
    for x in in_order(s, sid):
        if k and (type(x) is not tuple or len(x) != k):
            raise Fail(f"{show(x)} does not match a tuple pattern of {k} names", (), sid)
        if pred(x):
            return x
    raise Fail(f"CHOOSE found no element of {show(s)} satisfying its predicate", (), sid)
