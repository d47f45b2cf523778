"""TLC's value semantics: equality, membership, function application and domains.

TLC compares values of one kind only (``<<1>> = <<TRUE>>`` is an error, model values
aside), tells TRUE from 1 where Python's ``==`` does not, and looks an element up in a
set by comparing it with its neighbours in its order; these functions do the same over
plain values and the lazy values of :mod:`.lazysets`.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from typing import Any

from tlaconf.evaluate.fail import Fail, TooLarge, show
from tlaconf.evaluate.lazybase import ENUM_LIMIT, LazySet
from tlaconf.values import Fn, ModelValue, kind, make_fn, order, shape, sort_key


def is_set(v: Any) -> bool:
    return type(v) is frozenset or isinstance(v, LazySet)


def is_fn(v: Any) -> bool:
    t = type(v)
    return t is tuple or t is Fn or t is LazyFn


def enum_set(s: Any, sid: int) -> frozenset[Any]:
    if type(s) is frozenset:
        return s
    if isinstance(s, LazySet):
        return s.enum(sid)
    raise Fail(f"expected a set, got the {kind_of(s)} {show(s)}", (), sid)


def kind_of(v: Any) -> str:
    """The kind of ``v`` in messages: ``values.kind``, plus lazy values and operators."""
    if isinstance(v, LazySet):
        return "set"
    if type(v) is LazyFn:
        return "function"
    if callable(v):
        return "operator"
    return kind(v)


class Interval(LazySet):
    """``a..b`` (and ``DOMAIN`` of a sequence): kept as an interval, as TLC keeps an
    ``IntervalValue`` (``ToString(1..3)`` is ``"1..3"``; ``{1, 2, 3}`` prints as a set)."""

    __slots__ = ("hi", "lo")

    def __init__(self, lo: int, hi: int) -> None:
        super().__init__()
        self.lo = lo
        self.hi = hi

    def contains(self, x: Any, sid: int) -> bool:
        if type(x) is int:
            return self.lo <= x <= self.hi
        if self.lo > self.hi or type(x) is ModelValue:
            return False
        raise Fail(f"attempted to check whether the {kind_of(x)} {show(x)} is in the "
                   f"interval {self.describe()}", (), sid)

    def describe(self) -> str:
        return f"{show(self.lo)}..{show(self.hi)}" if self.lo <= self.hi else "{}"

    def size(self, sid: int) -> int:
        return max(0, self.hi - self.lo + 1)

    def _enum(self, sid: int) -> frozenset[Any]:
        if self.hi - self.lo >= ENUM_LIMIT:
            raise TooLarge(f"refusing to enumerate {self.describe()} (more than {ENUM_LIMIT} "
                       "elements)", (), sid)
        return frozenset(range(self.lo, self.hi + 1))


class LazyFn:
    """A function on a domain that is evaluated pointwise, memoized (``[n \\in Nat |-> ...]``,
    recursive function definitions)."""

    __slots__ = ("body", "dom", "memo")

    def __init__(self, dom: Any, body: Callable[[Any], Any]) -> None:
        self.dom = dom
        self.body = body
        self.memo: dict[Any, Any] = {}

    def apply(self, x: Any, sid: int) -> Any:
        memo = self.memo
        key = tag(x) if ambiguous(x) else x
        if key in memo:
            return memo[key]
        if not member(x, self.dom, sid):
            raise Fail(
                f"function applied to {show(x)}, which is not in its domain {show(self.dom)}",
                (), sid,
            )
        v = self.body(x)
        memo[key] = v
        return v

    def materialize(self, sid: int) -> Any:
        return make_fn({x: self.apply(x, sid) for x in enum_set(self.dom, sid)})

    def describe(self) -> str:
        return f"[x \\in {show(self.dom)} |-> ...]"

    def __repr__(self) -> str:
        return self.describe()


def as_bool(v: Any, sid: int) -> bool:
    if v is True or v is False:
        return v
    raise Fail(f"expected a boolean, got the {kind_of(v)} {show(v)}", (), sid)

def domain(f: Any, sid: int) -> Any:
    t = type(f)
    if t is tuple:
        return Interval(1, len(f))
    if t is Fn:
        return frozenset(f._d)
    if t is LazyFn:
        return f.dom
    raise Fail(f"DOMAIN of the {kind_of(f)} {show(f)}, which is not a function", (), sid)


def fn_values(f: Any, sid: int) -> Iterable[Any]:
    t = type(f)
    if t is tuple:
        return f
    if t is Fn:
        return f._d.values()
    return fn_values(f.materialize(sid), sid)


def normalize_fn(f: Any, sid: int) -> Any:
    return f.materialize(sid) if type(f) is LazyFn else f


def _family(v: Any) -> str:
    t = type(v)
    if t is frozenset or isinstance(v, LazySet):
        return "set"
    if t is tuple or t is Fn or t is LazyFn:
        return "function"
    return kind_of(v)


class _BoolTag:
    """Stands for TRUE or FALSE in :func:`tag` (equal only to itself, unlike ``True``)."""

    __slots__ = ()


_TAGS = {True: _BoolTag(), False: _BoolTag()}


def tag(v: Any) -> Any:
    """A hashable image of ``v`` in which TRUE and 1 (FALSE and 0) differ."""
    t = type(v)
    if t is bool:
        return _TAGS[v]
    if t is tuple:
        return tuple(tag(x) for x in v)
    if t is frozenset:
        return frozenset(tag(x) for x in v)
    if t is Fn:
        return Fn({tag(k): tag(x) for k, x in v._d.items()})
    if isinstance(v, LazySet) and v.finite:
        return tag(v.enum(-1))
    return v


def ambiguous(v: Any) -> bool:
    """Whether ``v`` holds a boolean, 0 or 1 at some depth (where Python's ``==`` says
    ``TRUE = 1``)."""
    t = type(v)
    if t is bool:
        return True
    if t is int:
        return v == 0 or v == 1
    if t is tuple or t is frozenset:
        return any(ambiguous(x) for x in v)
    if t is Fn:
        return any(ambiguous(k) or ambiguous(x) for k, x in v._d.items())
    return isinstance(v, LazySet) and v.finite and ambiguous(v.enum(-1))


def same(a: Any, b: Any, sid: int = -1) -> bool:
    """``a = b`` for two plain values of one Python type, as TLC: FALSE at the first
    difference met in TLC's order, an error when values of different kinds meet first
    (``<<1>> = <<TRUE>>``, ``{1} = {"a"}``)."""
    t = type(a)
    if a == b:
        if (t is tuple or t is frozenset or t is Fn) and not _strict(a, b):
            return _walk_equal(a, b, sid)
        return True
    if t is tuple or t is frozenset or t is Fn:
        return _walk_equal(a, b, sid)
    return False


def _walk_equal(a: Any, b: Any, sid: int) -> bool:
    try:
        return order.equal(a, b)
    except order.Incomparable as err:
        raise Fail(f"attempted to compare the {kind_of(err.a)} {show(err.a)} with the "
                   f"{kind_of(err.b)} {show(err.b)}", (), sid) from None


SCALARS = frozenset({int, str, bool, ModelValue})


def _strict(a: Any, b: Any) -> bool:
    """Whether ``a == b`` (given) also holds kind by kind at every depth.  Sets and
    domains never mix booleans with integers, so for scalar elements comparing the sets
    of element types suffices; elements that are containers are compared through
    :func:`tag` (only when they hold a boolean, 0 or 1).  False only means "not shown":
    the caller then compares the values as TLC does."""
    t = type(a)
    if t is not type(b):
        return (isinstance(a, LazySet) or isinstance(b, LazySet)) and tag(a) == tag(b)
    if t is tuple:
        return all(_value_strict(x, y) for x, y in zip(a, b, strict=True))
    if t is frozenset:
        return same_kinds(a, b)
    if t is Fn:
        da, db = a._d, b._d
        if not same_kinds(da, db):
            return False
        kinds = a.value_kinds() | b.value_kinds()
        if kinds <= SCALARS:  # equal scalars differ in kind only as TRUE and 1
            return not (bool in kinds and int in kinds)
        for k, x in da.items():
            y = db[k]
            tx = type(x)
            if tx is frozenset and type(y) is frozenset:  # inlined: a function of sets
                if x:
                    e = next(iter(x)).__class__  # one element of each: sets hold one kind
                    if not ((e is int or e is str) and e is next(iter(y)).__class__) \
                            and not same_kinds(x, y):
                        return False
            elif not _value_strict(x, y):
                return False
        return True
    if isinstance(a, LazySet):
        if not a.finite and not getattr(a, "by_name", False):
            return False  # an infinite set is compared (an error) by the walk, as TLC
        return bool(tag(a) == tag(b))
    return True


def _value_strict(x: Any, y: Any) -> bool:
    """:func:`_strict` for two equal values at the same place in two functions."""
    tx = type(x)
    if tx in SCALARS:
        return tx is type(y)
    if tx is frozenset and type(y) is frozenset:
        return same_kinds(x, y)
    return _strict(x, y)


def _one_kind(a: Any, b: Any) -> bool:
    """Whether two equal, non-empty collections (sets, or dicts' keys) both hold integers,
    or both strings (model values aside): sets and function domains are checked for one
    kind when built, so one element of each tells."""
    k = next(iter(a)).__class__
    return (k is int or k is str) and k is next(iter(b)).__class__


def same_kinds(a: Any, b: Any) -> bool:
    """Whether two equal collections (sets, or dicts' keys) hold the same kinds of values."""
    if not a or _one_kind(a, b):
        return True
    if type(a) is frozenset and shape.same(a, b) is not None:
        return True
    ta, tb = set(map(type, a)), set(map(type, b))
    if ta != tb:
        return False
    if ta <= SCALARS:
        return True
    if any(isinstance(x, LazySet) and not x.finite and not getattr(x, "by_name", False)
           for x in a):
        return False  # infinite sets are compared (an error) by the walk, as TLC
    return not ambiguous(frozenset(a)) or tag(frozenset(a)) == tag(frozenset(b))


def partner(x: Any, s: frozenset[Any] | dict[Any, Any]) -> Any:
    """The element of ``s`` equal to ``x`` in TLA+ (``NONE`` when there is none)."""
    if x not in s:
        return NONE
    t = type(x)
    if (t is int or t is bool) and next(iter(s)).__class__ is t:
        return x  # sets and domains hold one kind besides model values: x is found
    if not ((t is tuple or t is frozenset or t is Fn or t is bool or t is int)
            and ambiguous(x)):
        return x
    tx = tag(x)
    index = _equal_elements(s) if type(s) is frozenset and len(s) > _INDEXED else None
    if index is not None:
        for e in index.get(x, ()):
            if tag(e) == tx:
                return e
        return NONE
    for e in s:
        if e == x and tag(e) == tx:
            return e
    return NONE


NONE = object()
_INDEXED = 16
"""Sets larger than this find the elements Python finds equal to a value by an index."""
_INDEXES: dict[int, tuple[frozenset[Any], dict[Any, list[Any]]]] = {}
_ASKED: dict[int, frozenset[Any]] = {}


def _equal_elements(s: frozenset[Any]) -> dict[Any, list[Any]] | None:
    """For each element of ``s``, every element Python finds equal to it (``TRUE`` and
    ``1`` are; TLA+ tells them apart), in the set's order: an index built the second
    time a set is asked about and kept for the sets last asked about (a constant set,
    such as a type's, is indexed once); None the first time (a scan is cheaper)."""
    hit = _INDEXES.get(id(s))
    if hit is not None and hit[0] is s:
        return hit[1]
    if _ASKED.get(id(s)) is not s:
        if len(_ASKED) >= 256:
            _ASKED.clear()
        _ASKED[id(s)] = s
        return None
    index: dict[Any, list[Any]] = {}
    for e in s:
        index.setdefault(e, []).append(e)
    if len(_INDEXES) >= 64:
        _INDEXES.clear()
    _INDEXES[id(s)] = (s, index)
    return index


def equal(a: Any, b: Any, sid: int) -> bool:
    """TLC equality: values of different kinds cannot be compared (model values excepted)."""
    ta = type(a)
    if ta is type(b) and ta is not LazyFn and not isinstance(a, LazySet):
        return same(a, b, sid)
    fa, fb = _family(a), _family(b)
    if fa != fb:
        if ta is ModelValue or type(b) is ModelValue:
            return False
        raise Fail(
            f"attempted to compare the {kind_of(a)} {show(a)} with the {kind_of(b)} {show(b)}",
            (), sid,
        )
    if fa == "set":
        for x, y in ((a, b), (b, a)):
            if isinstance(x, LazySet):
                hint = x.equal_hint(y, sid)
                if hint is not None:
                    return hint
        return same(enum_set(a, sid), enum_set(b, sid), sid)
    if fa == "function":
        return same(normalize_fn(a, sid), normalize_fn(b, sid), sid)
    return bool(a == b)


_NAMES = frozenset({str, ModelValue})
"""Kinds only equal to values of their own kind (Python's ``==`` is TLC's ``=`` there)."""


def member(x: Any, s: Any, sid: int) -> bool:
    """``x \\in s`` as TLC: comparing ``x`` with elements of another kind is an error."""
    if type(s) is frozenset:
        tx = type(x)
        if x in s:
            if (tx is tuple or tx is frozenset) and _NAMES.issuperset(map(type, x)):
                return True  # of strings and model values: nothing TRUE/1 could confuse
            if tx is bool or tx is int:
                if next(iter(s)).__class__ is tx:
                    return True  # sets hold one kind besides model values: x is found
                for e in s:
                    if e == x:
                        return type(e) is tx or _mismatch(x, e, sid)
            if partner(x, s) is not NONE:
                if (tx is tuple or tx is frozenset or tx is Fn or isinstance(x, LazySet)) \
                        and opaque(x):
                    raise Fail(f"cannot compare {show(x)}: it holds an infinite set, which "
                               "TLC cannot compare", (), sid)
                return True
        elif (tx is frozenset or isinstance(x, LazySet)) and _found_unhashed(x, s):
            return True
        if s and tx is not ModelValue:
            e = next((e for e in s if type(e) is not ModelValue), None)
            if e is None:
                return False
            fx = _family(x)
            if _family(e) != fx:
                _mismatch(x, e, sid)
            if fx == "function" and tx is LazyFn:
                return member(normalize_fn(x, sid), s, sid)
            if tx is tuple or tx is frozenset or tx is Fn:
                _probe(x, s, sid)
        return False
    if isinstance(s, LazySet):
        return s.contains(x, sid)
    raise Fail(f"{show(x)} \\in {show(s)}: the {kind_of(s)} {show(s)} is not a set", (), sid)


def _found_unhashed(x: Any, s: frozenset[Any]) -> bool:
    """Whether ``s`` holds a set equal to ``x`` that ``x in s`` missed: a lazy set too large to
    hash by content (hashed by identity) is compared by content here, or refused."""
    lazy = isinstance(x, LazySet)
    return any((isinstance(e, LazySet) or (lazy and type(e) is frozenset)) and x == e
               for e in s)


def opaque(v: Any) -> bool:
    """Whether ``v`` is or holds an infinite set TLC compares by no means (not ``Nat``,
    ``Int``, ``STRING`` or ``Seq(S)``, which it compares by name)."""
    t = type(v)
    if t is tuple or t is frozenset:
        return any(opaque(x) for x in v)
    if t is Fn:
        return any(opaque(k) or opaque(x) for k, x in v._d.items())
    return isinstance(v, LazySet) and not v.finite and not getattr(v, "by_name", False)


def _probe(x: Any, s: frozenset[Any], sid: int) -> None:
    """Fails when TLC, looking ``x`` up in the sorted set ``s``, would compare it with an
    element of another kind (``<<1>> \\in {<<"a">>}``): ``x`` is compared with its
    neighbours in TLC's order."""
    found = shape.of_set(s)
    if found is not None and found == shape.of_value(x):  # all of one shape: they compare
        return
    if order.flat([x, *s]):  # all sets, tuples or records, each field of one kind
        return
    ordered = sorted(s, key=sort_key)
    keys = [sort_key(e) for e in ordered]
    i = bisect.bisect_left(keys, sort_key(x))
    for e in ordered[max(0, i - 1): i + 1]:
        try:
            order.compare(x, e)
        except order.Incomparable as err:
            raise Fail(f"attempted to check whether the {kind_of(x)} {show(x)} is in a set "
                       f"holding {show(e)}: TLC cannot compare the {kind_of(err.a)} "
                       f"{show(err.a)} with the {kind_of(err.b)} {show(err.b)}", (), sid) from None


def _mismatch(x: Any, e: Any, sid: int) -> bool:
    raise Fail(
        f"attempted to check whether the {kind_of(x)} {show(x)} is in a set of "
        f"{kind_of(e)}s (elements such as {show(e)})",
        (), sid,
    )


def apply(f: Any, x: Any, sid: int) -> Any:
    """``f[x]``: an error outside ``DOMAIN f``."""
    t = type(f)
    if t is Fn:
        d = f._d
        k = partner(x, d)
        if k is not NONE:
            return d[k]
    elif t is tuple:
        if type(x) is int and 1 <= x <= len(f):
            return f[x - 1]
    elif t is LazyFn:
        return f.apply(x, sid)
    else:
        raise Fail(f"{show(f)}[{show(x)}]: the {kind_of(f)} {show(f)} is not a function",
                   (), sid)
    raise Fail(
        f"function applied to {show(x)}, which is not in its domain {show(domain(f, sid))}",
        (("f", show(f)),), sid,
    )


def materialize(v: Any, sid: int = -1) -> Any:
    """``v`` with every finite lazy part enumerated (for printing and encoding)."""
    t = type(v)
    if t is frozenset:
        return frozenset(materialize(x, sid) for x in v)
    if isinstance(v, LazySet):
        return materialize(v.enum(sid), sid) if v.finite else v
    if t is tuple:
        return tuple(materialize(x, sid) for x in v)
    if t is Fn:
        return Fn({materialize(k, sid): materialize(x, sid) for k, x in v.items()})
    if t is LazyFn:
        dom = v.dom
        if type(dom) is frozenset or dom.finite:
            return materialize(v.materialize(sid), sid)
    return v
