"""TLC's comparison rules, written down independently of tlaconf for the differential
tests' oracles (from tlc2/value/impl/*Value.java ``compareTo``/``equals``/``member``).

- Booleans, integers, strings, sets and functions compare only with their own kind
  (an untyped model value compares with anything, and sorts first).
- Sets: smaller first, then element by element in sorted order.  Functions (tuples,
  records): smaller domain first, then the domains element by element, then the
  values; a record never compares with a non-record function of the same size.
- ``=`` stops at the first difference; ``\\in`` compares the element with elements of
  the set; building a set sorts it.

Values are tlaconf's Python values (``frozenset``, ``tuple``, ``Fn``).
"""

from __future__ import annotations

from typing import Any

from tlaconf.values import Fn, ModelValue


class OracleError(Exception):
    """The expression is an evaluation error (TLC would report one)."""


class Indeterminate(Exception):
    """The result depends on an evaluation order or a choice TLA+ leaves open."""


def family(v: Any) -> str:
    t = type(v)
    if t is frozenset:
        return "set"
    if t is tuple or t is Fn:
        return "function"
    return t.__name__


def _items(f: Any) -> list[tuple[Any, Any]]:
    if type(f) is tuple:
        return list(enumerate(f, 1))
    return sorted(f.items(), key=lambda kv: key(kv[0]))


def key(v: Any) -> Any:
    """A sort key in TLC's order (for values TLC can compare)."""
    t = type(v)
    if t is ModelValue:
        return (-1, v.name)
    if t in (bool, int, str):
        return ({bool: 0, int: 1, str: 2}[t], v)
    if t is frozenset:
        return (5, len(v), tuple(sorted(key(x) for x in v)))
    items = _items(v)
    return (4, len(items), tuple(key(k) for k, _ in items), tuple(key(x) for _, x in items))


def _record(v: Any) -> bool:
    return type(v) is Fn and len(v) > 0 and all(type(k) is str for k in v)


def compare(a: Any, b: Any) -> int:
    """TLC's compareTo; OracleError where TLC raises."""
    if type(a) is ModelValue or type(b) is ModelValue:
        return 0 if a == b else (-1 if type(a) is ModelValue else 1)
    if family(a) != family(b):
        raise OracleError(f"cannot compare {a!r} with {b!r}")
    if type(a) in (bool, int, str):
        return (a > b) - (a < b)
    if len(a) != len(b):
        if family(a) == "function" and len(a) and len(b) and _record(a) != _record(b):
            raise OracleError("record with non-record")
        return len(a) - len(b)
    if type(a) is frozenset:
        pairs = list(zip(sorted(a, key=key), sorted(b, key=key), strict=True))
    else:
        if len(a) and _record(a) != _record(b):
            raise OracleError("record with non-record")
        ia, ib = _items(a), _items(b)
        pairs = [(x, y) for (x, _), (y, _) in zip(ia, ib, strict=True)]
        pairs += [(x, y) for (_, x), (_, y) in zip(ia, ib, strict=True)]
    for x, y in pairs:
        c = compare(x, y)
        if c:
            return c
    return 0


def equal(a: Any, b: Any) -> bool:
    """TLC's equals: FALSE at the first difference, an error at the first comparison of
    different kinds."""
    if type(a) is ModelValue or type(b) is ModelValue:
        return a == b and type(a) is type(b)
    if family(a) != family(b):
        raise OracleError(f"cannot compare {a!r} with {b!r}")
    if type(a) in (bool, int, str):
        return bool(a == b)
    if len(a) != len(b):
        return False
    if type(a) is frozenset:
        return all(equal(x, y) for x, y in zip(sorted(a, key=key), sorted(b, key=key),
                                               strict=True))
    if len(a) and _record(a) != _record(b):
        raise OracleError("record with non-record")
    ia, ib = _items(a), _items(b)
    return (all(equal(x, y) for (x, _), (y, _) in zip(ia, ib, strict=True))
            and all(equal(x, y) for (_, x), (_, y) in zip(ia, ib, strict=True)))


def comparable(a: Any, b: Any) -> bool:
    try:
        compare(a, b)
    except OracleError:
        return False
    return True


def member(x: Any, s: frozenset[Any]) -> bool:
    """``x \\in s`` for a finite set: TRUE when found; an error when no element can be
    compared with ``x``; undecided when only some can (TLC's answer then depends on
    which elements its search meets)."""
    if any(comparable(x, e) and compare(x, e) == 0 for e in s):
        return True
    bad = [e for e in s if not comparable(x, e)]
    if not bad:
        return False
    if len(bad) == len(s):
        raise OracleError("\\in a set of another kind")
    raise Indeterminate("membership meets some incomparable elements")


def build(items: list[Any]) -> frozenset[Any]:
    """A set of ``items`` as TLC builds (sorts) it."""
    plain = [v for v in items if type(v) is not ModelValue]
    if len({family(v) for v in plain}) > 1:
        raise OracleError("a set of values of different kinds")
    bad = [(a, b) for i, a in enumerate(plain) for b in plain[i + 1:] if not comparable(a, b)]
    if bad:
        if len({key(v) for v in plain}) == 2:
            raise OracleError("a set of two values TLC cannot compare")
        raise Indeterminate("whether TLC's sort meets the incomparable pair")
    return frozenset(items)
