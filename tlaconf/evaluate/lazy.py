"""Lazy sets and lazy functions: values that support membership (and application) first.

TLC keeps ``Nat``, ``Int``, ``STRING``, ``SUBSET S``, ``[S -> T]``, ``Seq(S)`` and
set filters over them unevaluated until it must enumerate them; so do we.  A lazy
set that is finite is enumerated (once, cached) when iterated; an infinite one
raises :class:`Fail` saying it cannot be enumerated.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterable
from typing import Any

from tlaconf.values import Fn, ModelValue, kind, make_fn, order, sort_key, to_tla

ENUM_LIMIT = 1_000_000
"""Largest set the evaluator will build by enumerating a lazy set."""


class Fail(Exception):
    """An evaluation error raised inside compiled code; ``sid`` indexes the span table."""

    def __init__(self, message: str, values: tuple[tuple[str, Any], ...] = (), sid: int = -1):
        super().__init__(message)
        self.message = message
        self.values = values
        self.sid = sid


class TooLarge(Fail):
    """A finite set that the evaluator refuses to enumerate (over :data:`ENUM_LIMIT`)."""


def is_set(v: Any) -> bool:
    return type(v) is frozenset or isinstance(v, LazySet)


def is_fn(v: Any) -> bool:
    t = type(v)
    return t is tuple or t is Fn or t is LazyFn


class LazySet:
    """Base of the lazy sets.  Subclasses define ``contains``, ``describe`` and ``_enum``."""

    __slots__ = ("_cache",)
    finite = True

    def __init__(self) -> None:
        self._cache: frozenset[Any] | None = None

    def contains(self, x: Any, sid: int) -> bool:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def _enum(self, sid: int) -> frozenset[Any]:
        raise NotImplementedError

    def size(self, sid: int) -> int:
        """The number of elements (without enumerating when the set knows it)."""
        return len(self.enum(sid))

    def enum(self, sid: int) -> frozenset[Any]:
        """The elements, as a frozenset; :class:`Fail` when the set is infinite or too big."""
        if self._cache is None:
            if not self.finite:
                raise Fail(f"cannot enumerate the infinite set {self.describe()}", (), sid)
            self._cache = self._enum(sid)
        return self._cache

    def __repr__(self) -> str:
        return self.describe()

    def __eq__(self, other: object) -> bool:
        """By content, as a frozenset would compare (a lazy set inside a tuple, record or
        set: ``<<SUBSET {1}>> = <<SUBSET {1}>>``); an infinite set only equals itself."""
        if self is other:
            return True
        if not isinstance(other, LazySet | frozenset):
            return NotImplemented
        if not self.finite or (isinstance(other, LazySet) and not other.finite):
            return False
        if type(other) is frozenset and self.size(-1) != len(other):
            return False
        return self.enum(-1) == enum_set(other, -1)

    def __hash__(self) -> int:
        if self.finite:
            try:
                return hash(self.enum(-1))
            except TooLarge:  # hashed by identity, compared on demand
                pass
        return id(self)


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


def show(v: Any, limit: int = 300) -> str:
    """``v`` in TLA+ syntax, shortened for error messages."""
    try:
        text = to_tla(v, limit)
    except Exception:  # values that cannot be printed fully (lazy parts)
        text = repr(v)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _not_in_builtin(x: Any, name: str, sid: int) -> bool:
    """``x \\in Nat`` (``Int``, ``STRING``) for ``x`` of another kind: FALSE for a model
    value, otherwise an error (TLC: "Attempted to check if ... is in Nat")."""
    if type(x) is ModelValue:
        return False
    raise Fail(f"attempted to check whether the {kind_of(x)} {show(x)} is in {name}", (), sid)


class NatSet(LazySet):
    __slots__ = ()
    finite = False
    by_name = True

    def contains(self, x: Any, sid: int) -> bool:
        if type(x) is int:
            return x >= 0
        return _not_in_builtin(x, "Nat", sid)

    def describe(self) -> str:
        return "Nat"


class IntSet(LazySet):
    __slots__ = ()
    finite = False
    by_name = True

    def contains(self, x: Any, sid: int) -> bool:
        return type(x) is int or _not_in_builtin(x, "Int", sid)

    def describe(self) -> str:
        return "Int"


class StringSet(LazySet):
    __slots__ = ()
    finite = False
    by_name = True

    def contains(self, x: Any, sid: int) -> bool:
        return type(x) is str or _not_in_builtin(x, "STRING", sid)

    def describe(self) -> str:
        return "STRING"


BUILTIN_SETS = (NatSet, IntSet, StringSet)
"""Nat, Int and STRING: TLC compares them by name (``Nat = Nat``, ``Nat # Int``)."""


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
        return f"{self.lo}..{self.hi}" if self.lo <= self.hi else "{}"

    def size(self, sid: int) -> int:
        return max(0, self.hi - self.lo + 1)

    def _enum(self, sid: int) -> frozenset[Any]:
        if self.hi - self.lo >= ENUM_LIMIT:
            raise TooLarge(f"refusing to enumerate {self.describe()} (more than {ENUM_LIMIT} "
                       "elements)", (), sid)
        return frozenset(range(self.lo, self.hi + 1))


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
            raise Fail(f"{show(x)} \\in SUBSET ...: a {kind_of(x)} is not a set", (), sid)
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
            raise Fail(f"{show(x)} \\in {self.describe()}: a {kind_of(x)} is not a function",
                       (), sid)
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
        raise Fail(f"{show(x)} \\in Seq(...): a {kind_of(x)} is not a sequence", (), sid)

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
            raise Fail(f"{show(x)} \\in {self.describe()}: a {kind_of(x)} is not a record",
                       (), sid)
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
            raise Fail(f"{show(x)} \\in {self.describe()}: a {kind_of(x)} is not a tuple",
                       (), sid)
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
        left = enum_set(self.left, sid)
        if self.op == "\\cup":
            right = enum_set(self.right, sid)
            return frozenset(checked([*left, *right], sid, "the two sets hold"))
        keep = self.op == "\\cap"
        return frozenset(x for x in left if member(x, self.right, sid) == keep)


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


# --------------------------------------------------------------------------- core operations


def as_bool(v: Any, sid: int) -> bool:
    if v is True or v is False:
        return v
    raise Fail(f"expected a boolean, got the {kind_of(v)} {show(v)}", (), sid)


def sorted_values(s: Iterable[Any]) -> list[Any]:
    from tlaconf.values import canonical

    return canonical(s)


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
        return _same_kinds(a, b)
    if t is Fn:
        da, db = a._d, b._d
        if not _same_kinds(da, db):
            return False
        for k, x in da.items():
            y = db[k]
            tx = type(x)
            if tx is frozenset and type(y) is frozenset:  # inlined: a function of sets
                if x:
                    e = next(iter(x)).__class__  # one element of each: sets hold one kind
                    if not ((e is int or e is str) and e is next(iter(y)).__class__) \
                            and not _same_kinds(x, y):
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
        return _same_kinds(x, y)
    return _strict(x, y)


def _one_kind(a: Any, b: Any) -> bool:
    """Whether two equal, non-empty collections (sets, or dicts' keys) both hold integers,
    or both strings (model values aside): sets and function domains are checked for one
    kind when built, so one element of each tells."""
    k = next(iter(a)).__class__
    return (k is int or k is str) and k is next(iter(b)).__class__


def _same_kinds(a: Any, b: Any) -> bool:
    """Whether two equal collections (sets, or dicts' keys) hold the same kinds of values."""
    if not a or _one_kind(a, b):
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
    if not ((t is tuple or t is frozenset or t is Fn or t is bool or t is int)
            and ambiguous(x)):
        return x
    tx = tag(x)
    for e in s:
        if e == x and tag(e) == tx:
            return e
    return NONE


NONE = object()


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
        if type(a) is SeqSet and type(b) is SeqSet:
            return equal(a.base, b.base, sid)
        if type(a) in BUILTIN_SETS and type(b) in BUILTIN_SETS:
            if type(a) is type(b) or {type(a), type(b)} == {NatSet, IntSet}:
                return type(a) is type(b)
            raise Fail(f"attempted to compare {show(a)} with {show(b)}", (), sid)
        return same(enum_set(a, sid), enum_set(b, sid), sid)
    if fa == "function":
        return same(normalize_fn(a, sid), normalize_fn(b, sid), sid)
    return bool(a == b)


def member(x: Any, s: Any, sid: int) -> bool:
    """``x \\in s`` as TLC: comparing ``x`` with elements of another kind is an error."""
    if type(s) is frozenset:
        tx = type(x)
        if x in s:
            if tx is bool or tx is int:
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
