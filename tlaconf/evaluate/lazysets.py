"""Lazy sets and lazy functions: values that support membership (and application) first.

TLC keeps ``Nat``, ``Int``, ``STRING``, ``SUBSET S``, ``[S -> T]``, ``Seq(S)`` and
set filters over them unevaluated until it must enumerate them; so do we.  A lazy
set that is finite is enumerated (once, cached) when iterated; an infinite one
raises :class:`Fail` saying it cannot be enumerated.

Membership and equality of the elements are TLC's (:mod:`.semantics`, which knows
only their base, :mod:`.lazybase`, and asks a lazy set's ``contains`` and
``equal_hint``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from tlaconf.evaluate.fail import Fail, TooLarge, show
from tlaconf.evaluate.lazybase import ENUM_LIMIT as ENUM_LIMIT
from tlaconf.evaluate.lazybase import LazySet as LazySet
from tlaconf.evaluate.semantics import (
    NONE,
    as_bool,
    domain,
    equal,
    fn_values,
    member,
    partner,
    same,
    same_kinds,
)
from tlaconf.evaluate.semantics import Interval as Interval
from tlaconf.evaluate.semantics import LazyFn as LazyFn
from tlaconf.evaluate.semantics import enum_set as enum_set
from tlaconf.evaluate.semantics import is_fn as is_fn
from tlaconf.evaluate.semantics import is_set as is_set
from tlaconf.evaluate.semantics import kind_of as kind_of
from tlaconf.values import Fn, ModelValue, make_fn, order


def _not_a(x: Any, what: str, where: str, sid: int) -> Fail:
    """``x \\in where`` for an ``x`` that is not a ``what``."""
    return Fail(f"{show(x)} \\in {where}: the {kind_of(x)} {show(x)} is not a {what}", (), sid)


def _not_in_builtin(x: Any, name: str, sid: int) -> bool:
    """``x \\in Nat`` (``Int``, ``STRING``) for ``x`` of another kind: FALSE for a model
    value, otherwise an error (TLC: "Attempted to check if ... is in Nat")."""
    if type(x) is ModelValue:
        return False
    raise Fail(f"attempted to check whether the {kind_of(x)} {show(x)} is in {name}", (), sid)


class ByName(LazySet):
    """``Nat``, ``Int`` and ``STRING``: infinite, and compared by name as TLC compares them
    (``Nat = Nat``, ``Nat # Int``; ``Nat = STRING`` is an error)."""

    __slots__ = ()
    finite = False
    by_name = True

    def equal_hint(self, other: Any, sid: int) -> bool | None:
        if type(other) not in BUILTIN_SETS:
            return None
        if type(self) is type(other) or {type(self), type(other)} == {NatSet, IntSet}:
            return type(self) is type(other)
        raise Fail(f"attempted to compare {show(self)} with {show(other)}", (), sid)


class NatSet(ByName):
    __slots__ = ()

    def contains(self, x: Any, sid: int) -> bool:
        if type(x) is int:
            return x >= 0
        return _not_in_builtin(x, "Nat", sid)

    def describe(self) -> str:
        return "Nat"


class IntSet(ByName):
    __slots__ = ()

    def contains(self, x: Any, sid: int) -> bool:
        return type(x) is int or _not_in_builtin(x, "Int", sid)

    def describe(self) -> str:
        return "Int"


class StringSet(ByName):
    __slots__ = ()

    def contains(self, x: Any, sid: int) -> bool:
        return type(x) is str or _not_in_builtin(x, "STRING", sid)

    def describe(self) -> str:
        return "STRING"


BUILTIN_SETS = (NatSet, IntSet, StringSet)
"""Nat, Int and STRING: TLC compares them by name (``Nat = Nat``, ``Nat # Int``)."""


class SubsetSet(LazySet):
    """``SUBSET base``."""

    __slots__ = ("base",)

    def __init__(self, base: Any) -> None:
        super().__init__()
        self.base = base

    @property
    def finite(self) -> bool:  # type: ignore[override]
        return type(self.base) is frozenset or self.base.finite

    def contains(self, x: Any, sid: int) -> bool:
        if not is_set(x):
            raise _not_a(x, "set", "SUBSET ...", sid)
        base = self.base
        if type(base) is frozenset:
            return all(member(e, base, sid) for e in enum_set(x, sid))
        return all(base.contains(e, sid) for e in enum_set(x, sid))

    def describe(self) -> str:
        return f"SUBSET {show(self.base)}"

    def size(self, sid: int) -> int:
        return 2 ** set_size(self.base, sid)

    def _enum(self, sid: int) -> frozenset[Any]:
        elems = list(enum_set(self.base, sid))
        if len(elems) > 20:
            raise TooLarge(f"refusing to enumerate {self.describe()} (2^{len(elems)} elements)",
                       (), sid)
        return frozenset(
            frozenset(c) for r in range(len(elems) + 1) for c in itertools.combinations(elems, r)
        )


class FnSet(LazySet):
    """``[dom -> rng]``."""

    __slots__ = ("dom", "rng")

    def __init__(self, dom: Any, rng: Any) -> None:
        super().__init__()
        self.dom = dom
        self.rng = rng

    @property
    def finite(self) -> bool:  # type: ignore[override]
        return all(type(s) is frozenset or s.finite for s in (self.dom, self.rng))

    def contains(self, x: Any, sid: int) -> bool:
        if not is_fn(x):
            raise _not_a(x, "function", self.describe(), sid)
        if not equal(domain(x, sid), self.dom, sid):
            return False
        return all(member(v, self.rng, sid) for v in fn_values(x, sid))

    def describe(self) -> str:
        return f"[{show(self.dom)} -> {show(self.rng)}]"

    def size(self, sid: int) -> int:
        return int(set_size(self.rng, sid) ** set_size(self.dom, sid))

    def _enum(self, sid: int) -> frozenset[Any]:
        keys = sorted_values(enum_set(self.dom, sid))
        vals = sorted_values(enum_set(self.rng, sid))
        if len(vals) ** len(keys) > ENUM_LIMIT:
            raise TooLarge(f"refusing to enumerate {self.describe()} (too many functions)", (), sid)
        return frozenset(
            make_fn(dict(zip(keys, combo, strict=True)))
            for combo in itertools.product(vals, repeat=len(keys))
        )


class SeqSet(LazySet):
    """``Seq(S)``: infinite unless ``S`` is empty."""

    __slots__ = ("base",)
    finite = False
    by_name = True

    def __init__(self, base: Any) -> None:
        super().__init__()
        self.base = base

    def __eq__(self, other: object) -> bool:
        """``Seq(S) = Seq(T)`` when ``S = T`` (TLC compares the ranges)."""
        return type(other) is SeqSet and bool(self.base == other.base)

    def __hash__(self) -> int:
        return hash(("Seq", self.base))

    def contains(self, x: Any, sid: int) -> bool:
        if type(x) is tuple:
            return all(member(e, self.base, sid) for e in x)
        if is_fn(x):
            return False
        raise _not_a(x, "sequence", "Seq(...)", sid)

    def equal_hint(self, other: Any, sid: int) -> bool | None:
        return equal(self.base, other.base, sid) if type(other) is SeqSet else None

    def describe(self) -> str:
        return f"Seq({show(self.base)})"


class RecordSet(LazySet):
    """``[a : S, b : T]`` where some field set is infinite."""

    __slots__ = ("fields",)

    def __init__(self, fields: tuple[tuple[str, Any], ...]) -> None:
        super().__init__()
        self.fields = fields

    @property
    def finite(self) -> bool:  # type: ignore[override]
        return all(type(s) is frozenset or s.finite for _, s in self.fields)

    def contains(self, x: Any, sid: int) -> bool:
        if not is_fn(x):
            raise _not_a(x, "record", self.describe(), sid)
        if type(x) is not Fn or len(x) != len(self.fields):
            return False
        return all(k in x and member(x[k], s, sid) for k, s in self.fields)

    def describe(self) -> str:
        return "[" + ", ".join(f"{k} : {show(s)}" for k, s in self.fields) + "]"

    def size(self, sid: int) -> int:
        n = 1
        for _, s in self.fields:
            n *= set_size(s, sid)
        return n

    def _enum(self, sid: int) -> frozenset[Any]:
        return record_set_enum(self.fields, sid)


def record_set_enum(fields: tuple[tuple[str, Any], ...], sid: int) -> frozenset[Any]:
    names = [k for k, _ in fields]
    sets = [enum_set(s, sid) for _, s in fields]
    return frozenset(Fn(dict(zip(names, c, strict=True))) for c in itertools.product(*sets))


class ProductSet(LazySet):
    """``S \\X T`` where a factor is infinite."""

    __slots__ = ("factors",)

    def __init__(self, factors: tuple[Any, ...]) -> None:
        super().__init__()
        self.factors = factors

    @property
    def finite(self) -> bool:  # type: ignore[override]
        return all(type(s) is frozenset or s.finite for s in self.factors)

    def contains(self, x: Any, sid: int) -> bool:
        if type(x) is not tuple:
            if is_fn(x):
                return False
            raise _not_a(x, "tuple", self.describe(), sid)
        return len(x) == len(self.factors) and all(
            member(e, s, sid) for e, s in zip(x, self.factors, strict=True)
        )

    def describe(self) -> str:
        return " \\X ".join(show(s) for s in self.factors)

    def size(self, sid: int) -> int:
        n = 1
        for s in self.factors:
            n *= set_size(s, sid)
        return n

    def _enum(self, sid: int) -> frozenset[Any]:
        return frozenset(itertools.product(*(enum_set(s, sid) for s in self.factors)))


class FilterSet(LazySet):
    """``{x \\in S : P}`` over a lazy ``S``."""

    __slots__ = ("base", "pred")

    def __init__(self, base: Any, pred: Callable[[Any], Any]) -> None:
        super().__init__()
        self.base = base
        self.pred = pred

    @property
    def finite(self) -> bool:  # type: ignore[override]
        return type(self.base) is frozenset or bool(self.base.finite)

    def contains(self, x: Any, sid: int) -> bool:
        return member(x, self.base, sid) and as_bool(self.pred(x), sid)

    def describe(self) -> str:
        return f"{{x \\in {show(self.base)} : ...}}"

    def _enum(self, sid: int) -> frozenset[Any]:
        return frozenset(x for x in enum_set(self.base, sid) if as_bool(self.pred(x), sid))


UNENUMERABLE = (NatSet, IntSet, StringSet, SeqSet)
"""The sets TLC holds as user values, which it cannot enumerate at all."""


class BinarySet(LazySet):
    """``S \\cup T``, ``S \\cap T`` or ``S \\ T`` where a side is infinite."""

    __slots__ = ("left", "op", "right")

    def __init__(self, op: str, left: Any, right: Any) -> None:
        super().__init__()
        self.op = op
        self.left = left
        self.right = right

    @property
    def finite(self) -> bool:  # type: ignore[override]
        fin = [type(s) is frozenset or s.finite for s in (self.left, self.right)]
        if self.op == "\\cap":  # TLC: finite when either side is
            return fin[0] or fin[1]
        return fin[0] and fin[1] if self.op == "\\cup" else fin[0]

    def contains(self, x: Any, sid: int) -> bool:
        a = member(x, self.left, sid)
        if self.op == "\\cup":
            return a or member(x, self.right, sid)
        if self.op == "\\cap":
            return a and member(x, self.right, sid)
        return a and not member(x, self.right, sid)

    def describe(self) -> str:
        return f"{show(self.left)} {self.op} {show(self.right)}"

    def _enum(self, sid: int) -> frozenset[Any]:
        if self.op == "\\cup":
            left, right = enum_set(self.left, sid), enum_set(self.right, sid)
            return frozenset(checked([*left, *right], sid, "the two sets hold"))
        if self.op == "\\":
            return frozenset(x for x in enum_set(self.left, sid)
                             if not member(x, self.right, sid))
        # TLC's SetCapValue enumerates its first set when it can (Nat, Int, STRING and
        # Seq(S) it cannot), else its second, and tests membership in the other
        few, other = self.left, self.right
        if type(few) in UNENUMERABLE:
            few, other = other, few
        if type(few) in UNENUMERABLE:
            raise Fail(f"cannot enumerate {self.describe()}: neither {show(self.left)} nor "
                       f"{show(self.right)} is enumerable", (), sid)
        return frozenset(x for x in enum_set(few, sid) if member(x, other, sid))


VIEW_FROM = 64
"""``S \\ {x}`` of a set at least this large is a :class:`Without` view (not a copy)."""


class Removals:
    """What a chain of :class:`Without` views of one set shares: the set, the order in
    which elements were removed (``stamp``: element -> its removal's index) and, once a
    CHOOSE asked for it, the set's elements in TLC's order."""

    __slots__ = ("base", "count", "index", "order", "skip", "stamp")

    def __init__(self, base: frozenset[Any], order: list[Any] | None = None) -> None:
        self.base = base
        self.stamp: dict[Any, int] = {}
        self.count = 0
        self.order = order
        self.index: dict[Any, int] | None = None
        """Each element's place in ``order`` (once the order is known)."""
        self.skip: dict[int, int] = {}
        """For a place in ``order`` whose element the newest view lacks: a later place to
        look at instead (path-compressed, so CHOOSE skips runs of removed elements)."""

    def sorted(self) -> list[Any]:
        """``order``, computed the first time (and the places of what is removed noted)."""
        if self.order is None:
            self.order = sorted_values(self.base)
        if self.index is None:
            self.index = {x: i for i, x in enumerate(self.order)}
            for x in self.stamp:
                self.skip[self.index[x]] = self.index[x] + 1
        return self.order

    def removed(self, x: Any) -> None:
        """Note that the newest view lacks ``x``."""
        self.stamp[x] = self.count
        self.count += 1
        if self.index is not None:
            i = self.index[x]
            self.skip[i] = i + 1

    def live(self, i: int) -> int:
        """The first place from ``i`` on whose element the newest view holds."""
        skip = self.skip
        j = i
        while j in skip:
            j = skip[j]
        while i in skip and skip[i] != j:  # compress the path walked
            skip[i], i = j, skip[i]
        return j


class Without(LazySet):
    """``base \\ {x1} \\ {x2} ...``, the first ``k`` removals of a shared
    :class:`Removals`: built in constant time, as recursion over a set removes one element
    per call (a copy per call would make the recursion quadratic).  Removing from the
    newest view extends the shared log; from an older view, the view is copied first.
    Each view is a finite set with exactly the elements of that difference."""

    __slots__ = ("k", "lo", "log")

    def __init__(self, log: Removals, k: int, lo: int = 0) -> None:
        super().__init__()
        self.log = log
        self.k = k
        self.lo = lo
        """In ``log.order``, the elements before this index are not in this view."""

    def has(self, x: Any) -> bool:
        """Whether the element ``x`` of the base (as Python finds it) is still in the view."""
        i = self.log.stamp.get(x)
        return i is None or i >= self.k

    def contains(self, x: Any, sid: int) -> bool:
        log = self.log
        if not member(x, log.base, sid):
            return False
        found = partner(x, log.base)
        return found is NONE or self.has(found)

    def size(self, sid: int) -> int:
        return len(self.log.base) - self.k

    def equal_hint(self, other: Any, sid: int) -> bool | None:
        """FALSE when the sizes differ (``S = {}`` for a large ``S`` less some elements,
        without a copy)."""
        if isinstance(other, Without | frozenset):
            n = other.size(sid) if isinstance(other, Without) else len(other)
            if self.size(sid) != n:
                return False
        return None

    def describe(self) -> str:
        from tlaconf.values import to_tla

        try:
            return to_tla(self.enum(-1))
        except Fail:
            return "{...}"

    def _enum(self, sid: int) -> frozenset[Any]:
        stamp, k = self.log.stamp, self.k
        if not stamp:
            return self.log.base
        return frozenset(x for x in self.log.base if stamp.get(x, k) >= k)

    def ordered(self) -> Iterator[Any]:
        """The elements in TLC's order (the base sorted once for the whole chain; while
        this is the newest view, runs of removed elements are skipped at once)."""
        log = self.log
        order, stamp, k = log.sorted(), log.stamp, self.k
        i, first = self.lo, True
        while True:
            if k == log.count:  # (a CHOOSE predicate may extend the chain meanwhile)
                i = log.live(i)
            else:
                while i < len(order) and stamp.get(order[i], k) < k:
                    i += 1
            if first:
                self.lo = i  # the elements before are gone from this view and its successors
                first = False
            if i >= len(order):
                return
            yield order[i]
            i += 1

    def without(self, x: Any, sid: int) -> Any:
        """This set minus the element ``x`` (the set itself when ``x`` is not in it)."""
        log = self.log
        found = partner(x, log.base) if member(x, log.base, sid) else NONE
        if found is NONE or not self.has(found):
            return self
        i = log.stamp.get(found)
        if i == self.k:  # this very removal was made before: the same view
            return Without(log, self.k + 1, self.lo)
        if self.k == log.count and i is None:
            if 2 * (self.k + 1) > len(log.base) and len(log.base) > VIEW_FROM:
                return without(self.enum(sid), found, self._order())  # compact
            log.removed(found)
            return Without(log, self.k + 1, self.lo)
        return without(self.enum(sid), found, self._order())  # a branch: copied

    def _order(self) -> list[Any] | None:
        order = self.log.order
        if order is None:
            return None
        stamp, k = self.log.stamp, self.k
        return [x for x in order[self.lo:] if stamp.get(x, k) >= k]


def without(base: frozenset[Any], x: Any, order: list[Any] | None = None) -> Without:
    """``base \\ {x}`` for an element ``x`` of ``base`` (as Python finds it), as a view."""
    log = Removals(base, order)
    log.removed(x)
    return Without(log, 1)


PLUS_FROM = 100_000
"""``S \\cup T`` of a set at least this large and one of at most :data:`PLUS_FEW` elements is a
:class:`Plus` (not a copy)."""
PLUS_FEW = 16


class Plus(LazySet):
    """``big \\cup few``: a large set and a few elements kept apart, so that checking
    ``s' = s \\cup {x}`` of a large ``s`` compares without a third copy of ``s`` (the
    union is built only when something needs all its elements)."""

    __slots__ = ("big", "few", "n")

    def __init__(self, big: frozenset[Any], few: frozenset[Any]) -> None:
        super().__init__()
        self.big = big
        self.few = few - big
        self.n = len(big) + len(self.few)

    def contains(self, x: Any, sid: int) -> bool:
        return member(x, self.big, sid) or member(x, self.few, sid)

    def size(self, sid: int) -> int:
        return self.n

    def equal_hint(self, other: Any, sid: int) -> bool | None:
        """``p = c`` for a plain set ``c`` without building ``p``: when ``c`` holds all of
        ``p``'s elements and no more, of the same kinds; otherwise as any other set."""
        if type(other) is not frozenset:
            return None
        if len(other) != self.n:
            return False
        if self.big <= other and same_kinds(self.big, other) \
                and all(partner(x, other) is not NONE for x in self.few):
            return True
        return same(self.enum(sid), other, sid)

    def describe(self) -> str:
        from tlaconf.values import to_tla

        return to_tla(self.enum(-1))

    def _enum(self, sid: int) -> frozenset[Any]:
        return self.big | self.few


class UnionSet(LazySet):
    """``UNION S`` where some member of ``S`` is infinite."""

    __slots__ = ("sets",)

    def __init__(self, sets: frozenset[Any]) -> None:
        super().__init__()
        self.sets = sets

    @property
    def finite(self) -> bool:  # type: ignore[override]
        return all(type(s) is frozenset or s.finite for s in self.sets)

    def contains(self, x: Any, sid: int) -> bool:
        return any(member(x, s, sid) for s in self.sets)

    def describe(self) -> str:
        return f"UNION {show(self.sets)}"

    def _enum(self, sid: int) -> frozenset[Any]:
        return frozenset(checked([x for s in self.sets for x in enum_set(s, sid)], sid))


def checked(items: list[Any], sid: int, what: str = "a set (or function domain) holds"
            ) -> list[Any]:
    """``items``, when TLC can compare them all (to sort them into one set); else Fail."""
    if len(items) > 1:
        t = type(items[0])
        if t is frozenset or t is tuple:
            if order.flat(items):
                return items
        elif (t is int or t is str) and len(set(map(type, items))) == 1:
            return items
        bad = order.check_comparable(items, what)
        if bad:
            raise Fail(bad, (), sid)
    return items


def set_size(s: Any, sid: int) -> int:
    if type(s) is frozenset:
        return len(s)
    if isinstance(s, LazySet):
        if not s.finite:
            raise Fail(f"the infinite set {s.describe()} has no cardinality", (), sid)
        return s.size(sid)
    raise Fail(f"expected a set, got the {kind_of(s)} {show(s)}", (), sid)


def sorted_values(s: Iterable[Any]) -> list[Any]:
    from tlaconf.values import canonical

    return canonical(s)


REDUCIBLE = (Interval, Plus, Without)
"""Lazy sets TLC holds as an ``IntervalValue`` or a ``SetEnumValue`` (its ``Reducible``
values): it builds ``{x \\in S : P}`` over one at once, and enumerates one in ``S \\cap T``."""


def reducible(s: Any) -> bool:
    """Whether TLC holds ``s`` as an interval or an enumerated set (see :data:`REDUCIBLE`)."""
    return type(s) is frozenset or type(s) in REDUCIBLE


