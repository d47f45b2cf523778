"""JSON scalars, and large sets of flat records decoded in a few passes at C speed.

A set of flat records of one shape (cards ``[id |-> 1, zone |-> "hand"]``: every element a
record of the same fields, each field holding strings only, booleans only or safe
integers only) is read a field at a time: one pass per field tells its kind and bounds,
the parsed JSON objects become the records themselves (no copy) and their hashes are
computed in bulk. The last such set decoded is kept with its elements in the order of
its JSON array; the next set of the same shape (the next state's, in a trace) takes from
it the elements it holds too, the very same objects, and is built from it by adding and
removing the few that differ: a step that adds one card to a million is then decoded
without hashing a million records one by one, and compared with ``s \\cup {c}`` by
identity. Only that one set is kept (until the next one replaces it).
"""

from __future__ import annotations

from collections.abc import Collection
from itertools import compress, repeat
from operator import attrgetter, eq, itemgetter, not_
from typing import Any

from tlaconf.values import recent, shape
from tlaconf.values.core import Fn

SAFE_INT = 2**53 - 1
"""The largest integer a JSON number may hold exactly (larger ones are ``#bigint``)."""

SMALL = 8
"""A set of more elements, or a record of more fields, is checked a column at a time."""

_SCALARS = frozenset({str, int, bool})
_INT = frozenset({int})
_DICT = {dict}
_DICT_OF = attrgetter("_d")
_NONE = Fn({})
"""Stands for "no element of the last set has this hash" (it equals no record)."""


def scalars(values: Collection[Any]) -> bool:
    """Whether ``values`` are all strings, booleans or safe integers (a sequence or a
    record of them holds them as they are)."""
    return _scalar_kinds(values) is not None


def _scalar_kinds(values: Collection[Any]) -> set[type] | None:
    """The kinds of ``values`` when they are all strings, booleans or safe integers."""
    kinds = set(map(type, values))
    if not kinds <= _SCALARS:
        return None
    if int in kinds:
        ints = values if kinds == _INT else [v for v in values if type(v) is int]
        if min(ints) < -SAFE_INT or max(ints) > SAFE_INT:
            return None
    return kinds


class _Last:
    """The last set decoded here: its shape, and its elements and their hashes in the
    order of its JSON array."""

    __slots__ = ("found", "hashes", "items", "value")

    def __init__(self, found: shape.Shape, value: frozenset[Fn], items: list[Fn],
                 hashes: list[int]) -> None:
        self.found = found
        self.value = value
        self.items = items
        self.hashes = hashes


_last: list[_Last] = recent.kept([])


def decode_set(body: list[Any]) -> frozenset[Fn] | None:
    """The set of the records in the JSON array ``body`` when it holds over :data:`SMALL`
    non-empty objects of the same keys, none starting with ``#``, each key holding one
    kind of scalar; else None (then the elements are decoded, and an error named, one by
    one)."""
    if len(body) <= SMALL or set(map(type, body)) != _DICT or not body[0]:
        return None
    names = sorted(body[0])
    if any(name.startswith("#") for name in names) or set(map(len, body)) != {len(names)}:
        return None
    kinds = []
    for name in names:  # all the objects are of that many keys, and all have these
        try:
            kind = _scalar_kinds(list(map(itemgetter(name), body)))
        except KeyError:
            return None
        if kind is None or len(kind) != 1:
            return None
        kinds.append(kind.pop())
    found = (Fn, tuple(zip(names, kinds, strict=True)))
    hashes = list(map(hash, map(frozenset, map(dict.items, body))))  # as Fn.__hash__ does
    last = _last.pop() if _last else None
    if last is not None and last.found == found:
        items, value = _from_last(body, hashes, last)
    else:
        items = list(map(Fn, body, hashes))
        value = frozenset(items)
    del last
    shape.remember(value, found)
    if len(value) == len(items):  # no element twice: each element is at one place
        _last.append(_Last(found, value, items, hashes))
    return value


def _from_last(body: list[dict[str, Any]], hashes: list[int],
               last: _Last) -> tuple[list[Fn], frozenset[Fn]]:
    """The records of ``body`` (of ``last``'s shape: equal dicts are equal records), those
    in ``last`` taken from it, and their set, built from ``last``'s."""
    n = len(last.items)
    places = _places(last.hashes, hashes)
    pool = [*last.items, _NONE]
    items = list(map(pool.__getitem__, places))
    found = list(map(eq, map(_DICT_OF, items), body))
    added = []
    for i in compress(range(len(items)), map(not_, found)):
        items[i] = Fn(body[i], hashes[i])
        added.append(items[i])
    kept = bytearray(n + 1)
    for _ in map(kept.__setitem__, compress(places, found), repeat(1)):
        pass
    removed = list(compress(last.items, map(not_, kept[:n])))
    if not added and not removed:
        return items, last.value
    value = set(last.value)  # a copy, with the hashes it holds
    value.difference_update(removed)  # an element of the hash of another one is
    value.update(added)  # in added again if it stays
    return items, frozenset(value)


def _places(old: list[int], new: list[int]) -> list[int]:
    """For each hash of ``new``, the place of that hash in ``old`` (``len(old)``: none):
    the arrays often hold the same elements in the same order but for a few, so the
    common start and end are matched in place and only what lies between is indexed."""
    n, m = len(old), len(new)
    start = _common(old, new, min(n, m))
    end = _common(old[start:][::-1], new[start:][::-1], min(n, m) - start)
    at = dict(zip(old[start:n - end], range(start, n - end), strict=True))
    return [*range(start), *map(at.get, new[start:m - end], repeat(n)), *range(n - end, n)]


_RUN = 4096


def _common(a: list[int], b: list[int], most: int) -> int:
    """How many of the first ``most`` items of ``a`` and ``b`` are equal, from the start."""
    i = 0
    while i < most and a[i:i + _RUN] == b[i:i + _RUN]:
        i += _RUN
    while i < most and a[i] == b[i]:
        i += 1
    return min(i, most)
