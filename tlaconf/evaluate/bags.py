"""The Bags module as TLC evaluates it: TLC's built-in implementations
(``tlc2/module/Bags.java``), not the text of ``Bags.tla``, whose answers differ for
functions that are not bags (``BagIn(1, 1 :> 0)`` is FALSE in TLC: a count must be
positive).  Every function takes the span id ``sid`` first."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from tlaconf.evaluate.fail import Fail, show
from tlaconf.evaluate.lazysets import enum_set, is_fn, kind_of, sorted_values
from tlaconf.evaluate.semantics import NONE, member, normalize_fn, partner
from tlaconf.values import Fn, ModelValue, make_fn, order
from tlaconf.values.recent import Recent

EMPTY_BAG: tuple[Any, ...] = ()


def _fn(v: Any, sid: int, op: str) -> Any:
    """``v`` as a finite function (TLC: ``toFcnRcd``), else an error."""
    if not is_fn(v):
        raise Fail(f"{op} expects a bag (a function), got the {kind_of(v)} {show(v)}", (), sid)
    return normalize_fn(v, sid)


def _items(f: Any) -> list[tuple[Any, Any]]:
    return list(f.items()) if type(f) is Fn else list(enumerate(f, 1))


def _count(c: Any, b: Any, sid: int, op: str) -> int:
    if type(c) is not int:
        raise Fail(f"{op}: {show(b)} is not a bag (the count {show(c)} is not an integer)",
                   (), sid)
    return c


def _lookup(e: Any, f: Any, sid: int) -> Any:
    """``f``'s key equal to ``e`` (TLC compares ``e`` with the domain: an error for values
    of another kind), or NONE."""
    d = f._d if type(f) is Fn else dict(enumerate(f, 1))
    k = partner(e, d)
    if k is NONE and d:
        member(e, frozenset(d), sid)
    return k if k is NONE else (k, d[k])


def _merge(pairs: list[tuple[Any, Any]], sid: int, op: str, bag: Any,
           first: Any = None) -> Any:
    """The function summing the counts of equal keys.  ``first``: the function whose
    items begin ``pairs``; a function whose keys were checked already (:data:`_CHECKED`)
    is not checked again."""
    d: dict[Any, int] = {}
    keys = _Keys(sid)
    known = 0 if first is None else len(first)
    trusted = known > 0 and _CHECKED.get(first, _unchecked)
    for i, (k, c) in enumerate(pairs):
        if i == known and known and not trusted:
            _CHECKED.put(first, True)
        c = _count(c, bag, sid, op)
        found = partner(k, d)
        if found is NONE:
            keys.add(k, check=not (trusted and i < known))
            d[k] = c
        else:
            d[found] += c
    out = make_fn(d)
    if type(out) is Fn:
        _CHECKED.put(out, True)
    return out


def _unchecked(_: Any) -> bool:
    return False


_CHECKED: Recent[bool] = Recent(16)
"""The bags last built or checked here: their keys compare with each other (``m (+)
SetToBag({x})`` for each ``x`` of a step checks the keys of ``m`` once, not for each)."""


class _Keys:
    """The distinct keys of a function being built, each new one checked as ``member``
    checks it against those before it (an error where TLC would compare values it
    cannot).  ``member`` sorts the keys to compare a new one with its neighbours in TLC's
    order, which walks every value (a bag of messages carrying log entries); a tuple, set
    or function of the keys' kind that compares with every key before it (TLC's order
    stops at the first difference, and a log entry two messages share is the same
    value) cannot fail that check, which is then skipped."""

    def __init__(self, sid: int) -> None:
        self.sid = sid
        self.keys: list[Any] = []
        self.kind: str | None = None
        """The family of the first key that is not a model value."""

    def add(self, k: Any, check: bool = True) -> None:
        t = type(k)
        if check and self.keys and not ((t is tuple or t is frozenset or t is Fn)
                                        and self._compares(k)):
            member(k, frozenset(self.keys), self.sid)
        self.keys.append(k)
        if self.kind is None and t is not ModelValue:
            self.kind = order.family(k)

    def _compares(self, k: Any) -> bool:
        """Whether ``k`` compares with every key without error.  A record with other
        fields than ``k``'s, or a tuple of another length, compares with it without
        looking at values (TLC's order decides on the fields or the length first)."""
        if self.kind is not None and order.family(k) != self.kind:
            return False
        fields = k._d.keys() if type(k) is Fn and _is_record(k) else None
        size = len(k) if type(k) is tuple else -1
        try:
            for e in self.keys:
                t = type(e)
                if t not in _PLAIN:
                    return False
                if (fields is not None and t is Fn and e._d.keys() != fields
                        and _is_record(e)) or (t is tuple and size >= 0 and len(e) != size):
                    continue
                order.compare(k, e)
        except order.Incomparable:
            return False
        return True


def _is_record(f: Fn) -> bool:
    return all(type(x) is str for x in f._d)


_PLAIN = frozenset({tuple, frozenset, Fn, ModelValue, int, str, bool})
"""Keys compared without the lazy sets' content rule of ``member``."""


def is_a_bag(sid: int, b: Any) -> bool:
    """FALSE for a value that is not a function (TLC, not an error)."""
    if not is_fn(b):
        return False
    return all(type(c) is int and c > 0 for _, c in _items(normalize_fn(b, sid)))


def bag_to_set(sid: int, b: Any) -> Any:
    return frozenset(k for k, _ in _items(_fn(b, sid, "BagToSet")))


def set_to_bag(sid: int, s: Any) -> Any:
    return make_fn(dict.fromkeys(enum_set(s, sid), 1))


def bag_in(sid: int, e: Any, b: Any) -> bool:
    found = _lookup(e, _fn(b, sid, "BagIn"), sid)
    return found is not NONE and _count(found[1], b, sid, "BagIn") > 0


def copies_in(sid: int, e: Any, b: Any) -> int:
    found = _lookup(e, _fn(b, sid, "CopiesIn"), sid)
    return 0 if found is NONE else _count(found[1], b, sid, "CopiesIn")


def bag_plus(sid: int, a: Any, b: Any) -> Any:
    for which, v in (("first", a), ("second", b)):
        if not is_a_bag(sid, v):
            raise Fail(f"the {which} argument of (+) is not a bag: {show(v)}", (), sid)
    fa = normalize_fn(a, sid)
    return _merge(_items(fa) + _items(normalize_fn(b, sid)), sid, "(+)", a, fa)


def bag_minus(sid: int, a: Any, b: Any) -> Any:
    fa, fb = _fn(a, sid, "(-)"), _fn(b, sid, "(-)")
    out: dict[Any, int] = {}
    for k, c in _items(fa):
        n = _count(c, a, sid, "(-)")
        found = _lookup(k, fb, sid)
        if found is not NONE:
            n -= _count(found[1], b, sid, "(-)")
        if n > 0:
            out[k] = n
    return make_fn(out)


def bag_union(sid: int, s: Any) -> Any:
    bags = sorted_values(enum_set(s, sid))
    if len(bags) == 1:
        return bags[0]
    return _merge([kc for v in bags for kc in _items(_fn(v, sid, "BagUnion"))], sid,
                  "BagUnion", s)


def sub_bag_leq(sid: int, a: Any, b: Any) -> bool:
    fa, fb = _fn(a, sid, "\\sqsubseteq"), _fn(b, sid, "\\sqsubseteq")
    for k, c in _items(fa):
        n = _count(c, a, sid, "\\sqsubseteq")
        found = _lookup(k, fb, sid)
        if found is not NONE:
            n -= _count(found[1], b, sid, "\\sqsubseteq")
        if n > 0:
            return False
    return True


def bag_of_all(sid: int, f: Callable[[Any], Any], b: Any) -> Any:
    return _merge([(f(k), c) for k, c in _items(_fn(b, sid, "BagOfAll"))], sid, "BagOfAll", b)


def bag_cardinality(sid: int, b: Any) -> int:
    total = 0
    for _, c in _items(_fn(b, sid, "BagCardinality")):
        if type(c) is not int or c <= 0:
            raise Fail(f"BagCardinality of {show(b)}, which is not a bag", (), sid)
        total += c
    return total


def sub_bag(sid: int, b: Any) -> Any:
    """The set of sub-bags (the definition of ``Bags.tla``, which TLC evaluates)."""
    items = sorted(_items(_fn(b, sid, "SubBag")), key=lambda kc: repr(kc[0]))
    choices = [range(_count(c, b, sid, "SubBag") + 1) for _, c in items]
    return frozenset(make_fn({k: n for (k, _), n in zip(items, combo, strict=True) if n})
                     for combo in itertools.product(*choices))


OPERATORS: dict[str, Any] = {
    "IsABag": (is_a_bag, 1),
    "BagToSet": (bag_to_set, 1),
    "SetToBag": (set_to_bag, 1),
    "BagIn": (bag_in, 2),
    "EmptyBag": EMPTY_BAG,
    "(+)": (bag_plus, 2),
    "(-)": (bag_minus, 2),
    "BagUnion": (bag_union, 1),
    "\\sqsubseteq": (sub_bag_leq, 2),
    "SubBag": (sub_bag, 1),
    "BagOfAll": (bag_of_all, 2),
    "BagCardinality": (bag_cardinality, 1),
    "CopiesIn": (copies_in, 2),
}
"""The names the Bags module defines (see ``builtins.STANDARD``)."""
