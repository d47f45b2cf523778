"""Helpers called by generated code (the names in :data:`GLOBALS`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from difflib import get_close_matches
from typing import Any, NoReturn

from tlaconf.evaluate import builtins as B
from tlaconf.evaluate import choice
from tlaconf.evaluate.actionwalk import no_case_arm
from tlaconf.evaluate.fail import Fail, show
from tlaconf.evaluate.lazysets import (
    ENUM_LIMIT,
    REDUCIBLE,
    FilterSet,
    LazyFn,
    LazySet,
    RecordSet,
    enum_set,
    is_fn,
    kind_of,
    record_set_enum,
    reducible,
    sorted_values,
)
from tlaconf.evaluate.semantics import NONE, apply, equal, member, normalize_fn, partner, same
from tlaconf.values import Fn, ModelValue, make_fn


class _NoState(dict[str, Any]):
    def __missing__(self, key: str) -> NoReturn:
        raise Fail(f"variable {key} used in a constant expression")


class NextState(dict[str, Any]):
    """The primed variables assigned so far (ENABLED); reading an unassigned one fails."""

    def __missing__(self, key: str) -> NoReturn:
        raise Fail(f"primed variable {key}' is read before the action assigns it")


class NoNext(dict[str, Any]):
    def __missing__(self, key: str) -> NoReturn:
        raise Fail(f"{key}' is used, but no next state was given (not an action context)")


NO_STATE = _NoState()
NO_NEXT = NoNext()


def _B(v: Any, sid: int) -> bool:
    if v is True or v is False:
        return v
    raise Fail(f"expected a boolean, got the {kind_of(v)} {show(v)}", (), sid)


_PLAIN = frozenset({str, int, frozenset, tuple, Fn, ModelValue})
_SCALARS = frozenset({str, int, bool, ModelValue})
"""Kinds whose Python ``==`` is TLA+'s between two values of one of them (model values are
interned)."""


def _eq(a: Any, b: Any, sid: int) -> bool:
    t = type(a)
    if t is type(b) and t in _PLAIN:
        return same(a, b, sid)
    return equal(a, b, sid)


def _eqs(a: Any, b: Any, sid: int) -> bool:
    return equal(a, b, sid)


def _in(x: Any, s: Any, sid: int) -> bool:
    if type(s) is frozenset:
        tx = type(x)
        if tx is str and x in s:
            return True
        return member(x, s, sid)
    return member(x, s, sid)


def _ap(f: Any, x: Any, sid: int) -> Any:
    if type(f) is Fn and type(x) is str:
        d = f._d
        if x in d:
            return d[x]
        if all(type(k) is str for k in d):
            raise Fail(f"record applied to {show(x)}, which is not one of its fields"
                       f"{_fields(d, x)}", (), sid)
    return apply(f, x, sid)


def _dot(r: Any, name: str, sid: int) -> Any:
    if type(r) is Fn:
        d = r._d
        if name in d:
            return d[name]
        raise Fail(f"record has no field {name}{_fields(d, name)}", (), sid)
    if type(r) is LazyFn:
        return r.apply(name, sid)
    raise Fail(f"{show(r)}.{name}: the {kind_of(r)} {show(r)} is not a record", (), sid)


_FIELDS_SHOWN = 300
"""How many characters of field names a missing-field error shows at most."""


def _fields(d: dict[Any, Any], name: str) -> str:
    """The field names of a record, those closest to ``name`` first, never its values (a
    record such as ``IOEnv`` holds the process environment: its values may be secrets a
    CI log must not show)."""
    names = sorted(map(str, d))
    close = get_close_matches(name, names, n=3)
    text = ", ".join(names)
    if len(text) > _FIELDS_SHOWN:
        text = f"{text[:_FIELDS_SHOWN].rsplit(', ', 1)[0]}, ..."
    hint = f" (closest: {', '.join(close)})" if close else ""
    return f"{hint}; its {len(names):,} field{'s' if len(names) != 1 else ''}: {text}"


def _cap(a: Any, b: Any, sid: int) -> Any:
    return B.cap(sid, a, b)


def _cup(a: Any, b: Any, sid: int) -> Any:
    return B.cup(sid, a, b)


def _minus(a: Any, b: Any, sid: int) -> Any:
    return B.setminus(sid, a, b)


def _it(s: Any, sid: int) -> frozenset[Any]:
    if type(s) is frozenset:
        return s
    return enum_set(s, sid)


def _tuples(s: Iterable[Any], n: int, sid: int) -> Iterator[tuple[Any, ...]]:
    for t in s:
        if type(t) is not tuple or len(t) != n:
            raise Fail(f"{show(t)} does not match a tuple pattern of {n} names", (), sid)
        yield t


def _unbounded(sid: int) -> NoReturn:
    raise Fail("an unbounded quantifier, CHOOSE or set cannot be evaluated (give a domain)",
               (), sid)


def _check_tuple(x: Any, k: int, sid: int) -> None:
    if type(x) is not tuple or len(x) != k:
        raise Fail(f"{show(x)} does not match a tuple pattern of {k} names", (), sid)


def _filter(s: Any, pred: Callable[[Any], bool], k: int, sid: int) -> Any:
    """``{x \\in s : pred(x)}``: built at once over an enumerated set or an interval, as TLC
    builds it (so ``pred`` fails where TLC's does); lazy over other sets."""
    if type(s) in REDUCIBLE and s.size(sid) <= ENUM_LIMIT:
        s = s.enum(sid)
    if type(s) is frozenset:
        if k:
            for x in s:
                _check_tuple(x, k, sid)
        return frozenset([x for x in s if pred(x)])
    if isinstance(s, LazySet):
        return FilterSet(s, pred)
    raise Fail(f"{{x \\in S : ...}} with S the {kind_of(s)} {show(s)}, not a set", (), sid)


def _setof(items: list[Any], sid: int) -> frozenset[Any]:
    """A set from its elements; refuses elements TLC cannot compare (``{1, "a"}``, and
    ``TRUE`` with ``1``, which Python would collapse)."""
    if len(items) > 1:
        B.check_elements(items, sid)
    return frozenset(items)


def _union_of(items: list[Any], sid: int, usid: int) -> Any:
    """``UNION {e : x \\in S}`` from the ``e``'s: their union at once when they are all
    sets of integers, or all of strings (which always compare: sets are checked for one
    kind when built, so one element of each tells); otherwise the set ``{e : x \\in S}``
    is built (and checked) first, as TLC does."""
    kind: type | None = None
    for s in items:
        if type(s) is not frozenset:
            return B.union(usid, _setof(items, sid))
        for e in s:
            if e.__class__ is not kind:
                if kind is not None or not (e.__class__ is int or e.__class__ is str):
                    return B.union(usid, _setof(items, sid))
                kind = e.__class__
            break
    return frozenset().union(*items)


def _in_filter(x: Any, s: Any, pred: Callable[[Any], bool], k: int, sid: int) -> bool:
    """``x \\in {y \\in s : pred(y)}``: over a set TLC builds the filter of (see
    :func:`_filter`) the filter is built; over another, ``x \\in s /\\ pred(x)``."""
    if reducible(s):
        return member(x, _filter(s, pred, k, sid), sid)
    if not member(x, s, sid):
        return False
    if k:
        _check_tuple(x, k, sid)
    return pred(x)


def _mkfn(d: dict[Any, Any]) -> Any:
    return make_fn(d)


def _fncons(dom: Any, body: Callable[[Any], Any], sid: int) -> Any:
    """``[x \\in S |-> body(x)]``: built at once when ``body`` never fails on ``S``, else a
    lazy function (TLC evaluates a function's body only where it is applied)."""
    if type(dom) is frozenset or (isinstance(dom, LazySet) and dom.finite):
        try:
            return make_fn({x: body(x) for x in enum_set(dom, sid)})
        except Fail:
            return LazyFn(dom, body)
    if isinstance(dom, LazySet):
        return LazyFn(dom, body)
    raise Fail(f"[x \\in S |-> ...] with S the {kind_of(dom)} {show(dom)}, not a set", (), sid)


def _fixfn(dom: Any, make: Callable[[Any], Callable[[Any], Any]]) -> LazyFn:
    """A recursive function definition: a lazy function whose body sees itself."""
    f = LazyFn(dom, lambda x: None)
    f.body = make(f)
    return f


def _recset(fields: tuple[tuple[str, Any], ...], sid: int) -> Any:
    for k, s in fields:
        if not (type(s) is frozenset or isinstance(s, LazySet)):
            raise Fail(f"[{k} : S] with S the {kind_of(s)} {show(s)}, not a set", (), sid)
    if all(type(s) is frozenset for _, s in fields):
        return record_set_enum(fields, sid)
    return RecordSet(fields)


def _except(f: Any, keys: tuple[Any, ...], value: Callable[[Any], Any], sid: int) -> Any:
    """``[f EXCEPT ![k1][k2] = value(@)]``; a key outside the domain leaves ``f`` unchanged,
    as the definition ``[x \\in DOMAIN f |-> IF x = k THEN ... ELSE f[x]]`` says, and a key
    TLC cannot compare with the domain's elements (``![{}]`` on a function of integers)
    is an error."""
    if not is_fn(f):
        raise Fail(f"EXCEPT applied to the {kind_of(f)} {show(f)}, which is not a function",
                   (), sid)
    f = normalize_fn(f, sid)
    k = keys[0]
    if type(f) is tuple:
        if not (type(k) is int and 1 <= k <= len(f)):
            if f and type(k) is not int:
                _except_key(k, frozenset(range(1, len(f) + 1)), f, sid)
            return f
        old = f[k - 1]
        new = value(old) if len(keys) == 1 else _except(old, keys[1:], value, sid)
        return (*f[: k - 1], new, *f[k:])
    d = f._d
    found = partner(k, d)
    if found is NONE:
        _except_key(k, frozenset(d), f, sid)
        return f
    old = d[found]
    new = value(old) if len(keys) == 1 else _except(old, keys[1:], value, sid)
    nd = dict(d)
    nd[found] = new
    return Fn(nd)


def _except_key(k: Any, dom: frozenset[Any], f: Any, sid: int) -> None:
    """Fails when the EXCEPT key ``k`` cannot be compared with the domain ``dom`` of ``f``."""
    try:
        member(k, dom, sid)
    except Fail as err:
        raise Fail(f"EXCEPT ![{show(k)}] on {show(f)}: the key cannot be compared with the "
                   f"function's domain ({err.message})", (), sid) from None


class _Deferred:
    """The error an operator argument raised, passed on unraised: TLC evaluates an
    argument only where the operator uses it (raised there, see ``Local`` ``maybe``).
    An argument that may print is not evaluated before that (``thunk``): the first use
    computes it, as TLC's lazy value, and prints then, once."""

    __slots__ = ("err", "thunk", "value")

    def __init__(self, err: Fail | None, thunk: Callable[[], Any] | None = None) -> None:
        self.err = err
        self.thunk = thunk
        self.value: Any = None

    def fail(self) -> Any:
        """The argument's value where the operator uses it, or its error raised."""
        if self.thunk is not None:
            thunk, self.thunk = self.thunk, None
            try:
                self.value = thunk()
            except Fail as err:
                self.err = err
        if self.err is not None:
            raise self.err
        return self.value


def _fn_kinds(f: Any) -> bool:
    """Whether the values of ``f`` are sets of integers (or all of strings), which any two
    compare: the sets' kinds were checked when built, so one element of each tells."""
    if type(f) is not Fn:
        return False
    values = f._d.values()
    if set(map(type, values)) != {frozenset}:
        return False
    kinds = {next(iter(v)).__class__ for v in values if v}
    return not kinds or kinds == {int} or kinds == {str}


def _pairwise(f: Any, dom: Any) -> bool | None:
    """``\\A a, b \\in dom : a # b => f[a] \\cap f[b] = {}`` in one pass: the sets are
    pairwise disjoint iff their sizes add up to the size of their union.  Decided only
    when every ``f[a]`` is a set of integers (or every one of strings) and ``dom`` is a
    set of strings (or of integers, ``f``'s domain too), where Python's equality is
    TLA+'s and no pair can fail; None otherwise (the general loop decides, errors
    included)."""
    if type(f) is not Fn or type(dom) is not frozenset:
        return None
    d = f._d
    if not dom <= d.keys():
        return None
    if dom:
        key = next(iter(dom)).__class__
        if not (key is str or (key is int and all(k.__class__ is int for k in d))):
            return None
    sets = [d[z] for z in dom]
    kind: type | None = None
    total = 0
    for s in sets:
        if type(s) is not frozenset:
            return None
        if s:
            k = next(iter(s)).__class__
            if k is not kind:
                if kind is not None or not (k is int or k is str):
                    return None
                kind = k
            total += len(s)
    return len(frozenset().union(*sets)) == total


def _fold_elems(s: Any) -> list[Any] | None:
    """The elements of ``s`` in the order successive ``CHOOSE y \\in S : TRUE`` pick them
    (TLC's order of values), or None when ``s`` is not a set that can be enumerated (the
    recursion then decides, errors included)."""
    if type(s) is not frozenset:
        if not isinstance(s, LazySet) or not s.finite:
            return None
        try:
            s = s.enum(-1)
        except Fail:
            return None
    return sorted_values(s)


def _case_fail(sid: int) -> NoReturn:
    raise no_case_arm(sid)


def _lazy(thunk: Callable[[], Any]) -> Callable[[], Any]:
    cell: list[Any] = []

    def get() -> Any:
        if cell:
            return cell[0]
        v = thunk()
        cell.append(v)
        return v

    return get


def _rec(make: Callable[[Callable[..., Any]], Callable[..., Any]]) -> Callable[..., Any]:
    """A recursive LET operator: ``make`` receives the operator itself."""
    holder: list[Callable[..., Any]] = []

    def call(*args: Any) -> Any:
        return holder[0](*args)

    holder.append(make(call))
    return holder[0]


GLOBALS: dict[str, Any] = {
    "_product": itertools.product,
    "_B": _B,
    "_PLAIN": _PLAIN,
    "_SCALARS": _SCALARS,
    "_eq": _eq,
    "_eqs": _eqs,
    "_same": same,
    "_in": _in,
    "_ap": _ap,
    "_dot": _dot,
    "_cap": _cap,
    "_cup": _cup,
    "_minus": _minus,
    "_it": _it,
    "_tuples": _tuples,
    "_unbounded": _unbounded,
    "_choose": choice.first,
    "_filter": _filter,
    "_setof": _setof,
    "_union_of": _union_of,
    "_in_filter": _in_filter,
    "_mkfn": _mkfn,
    "_fncons": _fncons,
    "_LazyFn": LazyFn,
    "_fixfn": _fixfn,
    "_recset": _recset,
    "_except": _except,
    "_case_fail": _case_fail,
    "_disjoint": B.disjoint,
    "_fn_kinds": _fn_kinds,
    "_pairwise": _pairwise,
    "_fold_elems": _fold_elems,
    "_Deferred": _Deferred,
    "_Fail": Fail,
    "_lazy": _lazy,
    "_rec": _rec,
    "_EMPTY": frozenset(),
    "_NOD": {},
    "_MISS": NONE,
    "_Fn": Fn,
    "__builtins__": {"all": all, "any": any, "type": type, "frozenset": frozenset,
                     "str": str, "int": int, "tuple": tuple, "len": len,
                     "next": next, "iter": iter},
}
"""The initial globals of generated code."""

