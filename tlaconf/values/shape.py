"""The shape of a set's elements: the kind at every scalar position, told in one pass.

A set whose elements all have one shape (integers; strings; records of the same fields
with one scalar kind per field, such as cards ``[id |-> 1, zone |-> "hand"]``; tuples of
one length with one scalar kind per position; sets of one scalar kind) compares with
itself everywhere, and two such sets of the same shape compare element by element without
error, with Python's ``==`` telling TLA+'s (no TRUE met a 1).  The shape of a large set is
remembered by identity for the few sets seen last (a frozenset takes no attributes), and
a union or difference of two sets of one shape has that shape without a new pass.
"""

from __future__ import annotations

from collections.abc import Collection
from operator import attrgetter, itemgetter
from typing import Any

from tlaconf.values.core import Fn, ModelValue
from tlaconf.values.recent import Recent

Shape = tuple[Any, ...]
SCALAR = frozenset({int, str, bool, ModelValue})
"""Kinds of values that compare with every value of their kind (a model value with any
value), and whose Python ``==`` is TLA+'s among them."""
SAMPLED = frozenset({int, str, bool})
"""The kinds a set's elements are told by one of them: a set holds one kind besides model
values, so one sampled model value tells nothing of the others."""
REMEMBERED = 4
"""Sets whose shape is remembered (the last ones asked about or built)."""
LARGE = 256
"""Smaller sets are not remembered (one pass over them costs little)."""

_SEEN: Recent[Shape | None] = Recent(REMEMBERED)

_DICT = attrgetter("_d")


def of_set(s: frozenset[Any]) -> Shape | None:
    """The one shape of the elements of ``s`` (None: empty, or not all of one shape)."""
    return _compute(s) if len(s) < LARGE else _SEEN.get(s, _compute)


def of_items(items: list[Any]) -> Shape | None:
    """The one shape of ``items`` (the elements of a set being built), else None."""
    return _compute(items)


def of_value(v: Any) -> Shape | None:
    """The shape of the one value ``v`` (as an element of a set)."""
    return _compute((v,))


def remember(s: frozenset[Any], shape: Shape | None) -> None:
    """Note that ``s`` (built from sets of known shape) has ``shape``."""
    if len(s) >= LARGE:
        _SEEN.put(s, shape)


def same(a: frozenset[Any], b: frozenset[Any]) -> Shape | None:
    """The shape of both ``a`` and ``b`` when they have one and the same, else None."""
    sa = of_set(a)
    return sa if sa is not None and sa == of_set(b) else None


def _compute(items: Collection[Any]) -> Shape | None:
    if not items:
        return None
    types = set(map(type, items))
    if len(types) != 1:
        return None
    t = types.pop()
    if t in SCALAR:
        return (t,)
    if t is Fn:
        return _records(items)
    if t is tuple:
        return _tuples(items)
    if t is frozenset:
        kinds = {next(iter(v)).__class__ for v in items if v}  # sets hold one kind
        if len(kinds) > 1 or not kinds <= SAMPLED:
            return None
        return (frozenset, kinds.pop() if kinds else None)
    return None


def _records(items: Collection[Any]) -> Shape | None:
    dicts = list(map(_DICT, items))
    first = dicts[0]
    if not all(type(k) is str for k in first) or len(set(map(len, dicts))) != 1:
        return None
    fields = []
    try:
        for k in sorted(first):  # every dict has the first's size and all its keys
            kinds = set(map(type, map(itemgetter(k), dicts)))
            if len(kinds) != 1 or not kinds <= SCALAR:
                return None
            fields.append((k, kinds.pop()))
    except KeyError:
        return None
    return (Fn, tuple(fields))


def _tuples(items: Collection[Any]) -> Shape | None:
    lengths = set(map(len, items))
    if len(lengths) != 1:
        return None
    kinds_at = []
    for column in zip(*items, strict=True):  # the elements at one position
        kinds = set(map(type, column))
        if len(kinds) != 1 or not kinds <= SCALAR:
            return None
        kinds_at.append(kinds.pop())
    return (tuple, tuple(kinds_at))
