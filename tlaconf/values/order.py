"""TLC's order on values, and where TLC cannot compare two values.

TLC keeps a set sorted (``SetEnumValue.normalize``) and compares functions by size,
then domain, then values (``FcnRcdValue.compareTo``); tuples shorter first, sets
smaller first; an untyped model value before any other value.  Comparing a boolean,
an integer, a string, a set and a function with a value of another of these kinds is
an error in TLC (``Attempted to compare integer 1 with non-integer "a"``), and so is
any set or function domain whose sorting would make such a comparison.

Strings (and record field names) are ordered by code point here; TLC orders them by
when its JVM first met them, which no other run can reproduce.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from tlaconf.values.core import Fn, ModelValue, kind
from tlaconf.values.recent import Recent


class Incomparable(ValueError):
    """TLC cannot compare ``a`` with ``b``."""

    def __init__(self, a: Any, b: Any) -> None:
        super().__init__(f"the {kind(a)} and the {kind(b)}")
        self.a = a
        self.b = b


_SCALAR_KIND = {bool: "boolean", int: "integer", str: "string"}
_FAMILY = {bool: "boolean", int: "integer", str: "string", frozenset: "set",
           tuple: "function", Fn: "function"}


def family(v: Any) -> str:
    """``boolean``, ``integer``, ``string``, ``set``, ``function``, ``model value`` (or
    the Python type name of anything else)."""
    f = _FAMILY.get(type(v))
    if f is not None:
        return f
    if type(v) is ModelValue:
        return "model value"
    if hasattr(v, "enum"):  # the evaluator's lazy sets
        return "set"
    if hasattr(v, "materialize"):  # the evaluator's lazy functions
        return "function"
    return type(v).__name__


def _settle(v: Any) -> Any:
    """A lazy value of the evaluator nested in a value, enumerated when it is finite and
    small enough (else it stays as is, equal only to itself)."""
    try:
        if getattr(v, "finite", False):
            return v.enum(-1)
        if hasattr(v, "materialize"):
            return v.materialize(-1)
    except Exception:  # too large to enumerate, or an infinite domain
        pass
    return v


def _is_record(v: Any) -> bool:
    return type(v) is Fn and all(type(k) is str for k in v)


def _fn_items(v: Any) -> list[tuple[Any, Any]]:

    if type(v) is tuple:
        return list(enumerate(v, 1))
    if all(type(k) is str for k in v._d):  # a record: strings in TLC's order are Python's
        return sorted(v._d.items(), key=_first)
    if len(v) >= _SORTED_FROM:  # a bag compared with each binding's candidate
        return _SORTED.get(v, _by_key)
    return _by_key(v)


def _by_key(v: Any) -> list[tuple[Any, Any]]:
    from tlaconf.values.core import sort_key

    return sorted(v.items(), key=lambda kv: sort_key(kv[0]))


_SORTED_FROM = 8
_SORTED: Recent[list[tuple[Any, Any]]] = Recent(16)
"""Functions last put in TLC's order, by identity (a next state's bag of messages is
compared with the bag each binding of a step builds)."""


def _first(kv: tuple[Any, Any]) -> Any:
    return kv[0]


def compare(a: Any, b: Any) -> int:
    """TLC's ``compareTo``: negative, zero or positive; :class:`Incomparable` where TLC
    reports an error."""
    from tlaconf.values.core import sort_key

    if a is b:  # a value is its own equal at every depth (the walk below finds 0)
        return 0
    ta, tb = type(a), type(b)
    if ta is ModelValue or tb is ModelValue:
        if ta is tb:
            return (a.name > b.name) - (a.name < b.name)
        return -1 if ta is ModelValue else 1
    fa, fb = family(a), family(b)
    if fa != fb:
        raise Incomparable(a, b)
    if ta in _SCALAR_KIND:
        return (a > b) - (a < b)
    if ta not in _FAMILY or tb not in _FAMILY:  # lazy values nested in a value
        a, b = _settle(a), _settle(b)
        if type(a) not in _FAMILY or type(b) not in _FAMILY:
            return 0 if a == b else -1
        return compare(a, b)
    if fa == "set":
        if len(a) != len(b):
            return len(a) - len(b)
        for x, y in zip(sorted(a, key=sort_key), sorted(b, key=sort_key), strict=True):
            c = compare(x, y)
            if c:
                return c
        return 0
    if fa == "function":
        if ta is tuple and tb is tuple and len(a) == len(b):  # the same domain 1..n
            for x, y in zip(a, b, strict=True):
                c = compare(x, y)
                if c:
                    return c
            return 0
        if ta is Fn and tb is Fn and a._d.keys() == b._d.keys() \
                and all(type(k) is str for k in a._d):  # records with the same fields
            for k in sorted(a._d):
                c = compare(a._d[k], b._d[k])
                if c:
                    return c
            return 0
        if len(a) and len(b) and _is_record(a) != _is_record(b):
            raise Incomparable(a, b)  # RecordValue.compareTo: "compare record with non-record"
        if len(a) != len(b):
            return len(a) - len(b)
        ia, ib = _fn_items(a), _fn_items(b)
        for (x, _), (y, _) in zip(ia, ib, strict=True):
            c = compare(x, y)
            if c:
                return c
        for (_, x), (_, y) in zip(ia, ib, strict=True):
            c = compare(x, y)
            if c:
                return c
        return 0
    if a == b:
        return 0
    ka, kb = sort_key(a), sort_key(b)
    return (ka > kb) - (ka < kb)


def equal(a: Any, b: Any) -> bool:
    """TLC's ``equals``: FALSE at the first difference met in TLC's order,
    :class:`Incomparable` when a comparison of different kinds comes first."""
    from tlaconf.values.core import sort_key

    ta, tb = type(a), type(b)
    if a is b and (ta is tuple or ta is frozenset or ta is Fn) and _SETTLED.get(a, _settled):
        return True  # a bag's keys compared with themselves: one walk per value, not per use
    if ta is ModelValue or tb is ModelValue:
        return ta is tb and a.name == b.name
    fa, fb = family(a), family(b)
    if fa != fb:
        raise Incomparable(a, b)
    if ta in _SCALAR_KIND:
        return bool(a == b)
    if ta not in _FAMILY or tb not in _FAMILY:  # lazy values nested in a value
        a, b = _settle(a), _settle(b)
        if type(a) not in _FAMILY or type(b) not in _FAMILY:
            if getattr(a, "by_name", False) and getattr(b, "by_name", False):
                return bool(a == b)  # Nat, Int, STRING, Seq(S): TLC compares them by name
            if getattr(a, "finite", True) and getattr(b, "finite", True):
                return bool(a == b)  # too large to enumerate: compared by size first
            raise Incomparable(a, b)  # TLC cannot enumerate an infinite set to compare it
        return equal(a, b)
    if fa == "set":
        if len(a) != len(b):
            return False
        types = set(map(type, a))
        if len(types) == 1 and types <= _HOMOGENEOUS and types == set(map(type, b)):
            return bool(a == b)
        return all(equal(x, y) for x, y in zip(sorted(a, key=sort_key), sorted(b, key=sort_key),
                                                strict=True))
    if fa == "function":
        if len(a) != len(b):
            return False
        if ta is Fn and tb is Fn and a._d.keys() == b._d.keys() \
                and all(type(k) is str for k in a._d):  # records with the same fields
            if _plain_pairs(a._d, b._d):
                return a._d == b._d
            return all(equal(a._d[k], b._d[k]) for k in sorted(a._d))
        if len(a) and _is_record(a) != _is_record(b):
            raise Incomparable(a, b)
        ia, ib = _fn_items(a), _fn_items(b)
        return (all(equal(x, y) for (x, _), (y, _) in zip(ia, ib, strict=True))
                and all(equal(x, y) for (_, x), (_, y) in zip(ia, ib, strict=True)))
    return bool(a == b)


_HOMOGENEOUS = frozenset({int, str, bool, ModelValue})


def _settled(v: Any) -> bool:
    """Whether ``v`` holds no lazy value at any depth: it then equals itself without
    error (a lazy set TLC cannot enumerate does not)."""
    t = type(v)
    if t in _SCALAR_KIND or t is ModelValue:
        return True
    if t is tuple or t is frozenset:
        return all(map(_settled, v))
    if t is Fn:
        return all(_settled(k) and _settled(x) for k, x in v._d.items())
    return False


_SETTLED: Recent[bool] = Recent(8192)
"""Values last found :func:`_settled`, by identity."""


def _plain_pairs(da: dict[Any, Any], db: dict[Any, Any]) -> bool:
    """Whether the values of two functions with the same domain compare without error at
    every argument, so that Python's ``==`` on them is TLC's equality, whatever the order:
    at each argument two strings, two integers, two booleans, or two sets of integers
    (or of strings) or an empty set (one element of a set tells: sets are checked for
    one kind when built)."""
    for k, x in da.items():
        y = db[k]
        tx = type(x)
        if tx is not type(y):
            return False
        if tx is frozenset:
            if x and y:
                e = next(iter(x)).__class__
                if not ((e is int or e is str) and e is next(iter(y)).__class__):
                    return False
        elif not (tx is str or tx is int or tx is bool):
            return False
    return True


def _message_order(v: Any) -> tuple[int, Any]:
    """Canonical order where it exists (lazy sets too large to sort come last)."""
    from tlaconf.values.core import sort_key

    try:
        return 0, sort_key(v)
    except Exception:  # a value the canonical order cannot place
        return 1, ()


def incomparable(values: Iterable[Any]) -> tuple[Any, Any] | None:
    """Two of ``values`` that TLC could not compare when sorting them into one set (or
    function domain), else None.  Values are checked next to their neighbours in TLC's
    order, as TLC's sort would meet them."""
    from tlaconf.values.core import sort_key

    items = values if isinstance(values, list) else list(values)
    if len(items) < 2:
        return None
    types = set(map(type, items))
    if len(types) == 1 and (types <= _HOMOGENEOUS or flat(items)):
        return None
    plain = [v for v in items if type(v) is not ModelValue]
    kinds = {family(v) for v in plain}
    if len(kinds) > 1:  # the least of each of the two first kinds: no hash order in messages
        fa, fb = sorted(kinds, key=str)[:2]
        first = min((v for v in plain if family(v) == fa), key=_message_order)
        other = min((v for v in plain if family(v) == fb), key=_message_order)
        return first, other
    if not plain or type(plain[0]) in _SCALAR_KIND:
        return None
    ordered = sorted(plain, key=sort_key)
    for x, y in itertools.pairwise(ordered):
        try:
            compare(x, y)
        except Incomparable:
            return x, y
    return None


def flat(items: list[Any]) -> bool:
    """Whether ``items`` always compare, told without sorting them: all sets whose
    elements are of one scalar kind (sets of sets of ids), all tuples whose elements at
    each position are of one scalar kind (sequences of integers, pairs ``<<id, "name">>``),
    or all records of the same fields whose values at each field are of one scalar kind
    (cards ``[id |-> 1, zone |-> "hand"]``).  A set is sampled by one element: sets are
    checked for one kind when built."""
    t = type(items[0])
    if len(set(map(type, items))) != 1:
        return False
    if t is frozenset:
        kinds = {next(iter(v)).__class__ for v in items if v}
        return len(kinds) <= 1 and (not kinds or next(iter(kinds)) in _SCALAR_KIND)
    if t is tuple:
        columns: Iterable[Sequence[Any]] = itertools.zip_longest(*items, fillvalue=_GAP)
    elif t is Fn:
        fields = items[0]._d.keys()
        if not all(type(k) is str for k in fields) or any(v._d.keys() != fields for v in items):
            return False
        columns = ([v._d[k] for v in items] for k in fields)
    else:
        return False
    for column in columns:
        kinds = set(map(type, column))
        kinds.discard(_Gap)
        kinds.discard(ModelValue)  # a model value compares with any value
        if len(kinds) > 1 or not kinds <= _SCALAR_KIND.keys():
            return False
    return True


class _Gap:
    """Where a shorter tuple has no element (tuples of different lengths compare by length)."""


_GAP = _Gap()


def check_comparable(values: Iterable[Any], what: str = "a set (or function domain) holds"
                     ) -> str | None:
    """A message when ``values`` cannot be the elements of one TLC set, else None."""
    pair = incomparable(values)
    if pair is None:
        return None
    from tlaconf.values.printing import to_tla

    a, b = pair
    return (f"{what} the {kind(a)} {to_tla(a)} and the {kind(b)} {to_tla(b)}, "
            "which TLC cannot compare")
