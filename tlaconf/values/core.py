"""TLA+ values as immutable, hashable Python objects.

=====================  ===========================================================
TLA+                   Python
=====================  ===========================================================
BOOLEAN                ``bool``
integers               ``int`` (unbounded)
strings                ``str``
model values           :class:`ModelValue`
finite sets            ``frozenset``
functions on ``1..n``  ``tuple`` (tuples and sequences; ``<<>>`` is the empty function)
other functions        :class:`Fn` (records are functions on strings)
=====================  ===========================================================

Every function has exactly one representation (:func:`make_fn` normalizes), so
Python equality of two values of the same kind is TLA+ equality.  A set or
function domain whose elements TLC cannot compare (``{1, "a"}``; also ``TRUE``
and ``1``, which Python would collapse) is refused by
:func:`tlaconf.values.order.check_comparable` wherever one is built.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from typing import Any, TypeAlias, cast

from tlaconf.values.recent import Recent

_MODEL_VALUES: dict[str, ModelValue] = {}
"""Every model value made, by name (few: a model's constants)."""


class ModelValue:
    """A TLC model value: equal only to itself.  Model values are interned (one object
    per name, unpickled ones included), so equality and hashing are by identity, at C
    speed: a set, a dict key or a comparison of model values calls no Python code."""

    __slots__ = ("name",)
    name: str

    def __new__(cls, name: str) -> ModelValue:
        made = _MODEL_VALUES.get(name)
        if made is None:
            made = object.__new__(cls)
            made.name = name
            _MODEL_VALUES[name] = made
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return (ModelValue, (self.name,))

    def __repr__(self) -> str:
        return f"ModelValue({self.name!r})"


class Fn(Mapping[Any, Any]):
    """An immutable TLA+ function whose domain is not ``1..n`` (records included).

    Build with :func:`make_fn`, which returns a ``tuple`` when the domain is ``1..n``;
    ``h``, when given, is the hash as :meth:`__hash__` computes it (found in bulk).
    """

    __slots__ = ("_d", "_h", "_k")

    def __init__(self, mapping: dict[Any, Any], h: int | None = None) -> None:
        self._d = mapping
        self._h = h
        self._k: frozenset[type] | None = None

    def __getitem__(self, key: Any) -> Any:
        return self._d[key]

    def get(self, key: Any, default: Any = None) -> Any:
        return self._d.get(key, default)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __contains__(self, key: object) -> bool:
        return key in self._d

    def keys(self) -> KeysView[Any]:
        return self._d.keys()  # the dict's own (read-only) views: no Python-level iteration

    def values(self) -> ValuesView[Any]:
        return self._d.values()

    def items(self) -> ItemsView[Any, Any]:
        return self._d.items()

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Fn):
            return False
        h, g = self._h, other._h
        return (h is None or g is None or h == g) and self._d == other._d

    def __hash__(self) -> int:
        if self._h is None:
            self._h = hash(frozenset(self._d.items()))
        return self._h

    def __reduce__(self) -> tuple[Any, ...]:
        # without the cached hash: another process has its own string-hash seed
        return (Fn, (self._d,))

    def __repr__(self) -> str:
        return f"Fn({self._d!r})"

    def value_kinds(self) -> frozenset[type]:
        """The Python types of the function's values (computed once)."""
        if self._k is None:
            self._k = frozenset(map(type, self._d.values()))
        return self._k

    def as_dict(self) -> dict[Any, Any]:
        """A fresh mutable copy."""
        return dict(self._d)


Value: TypeAlias = "bool | int | str | ModelValue | frozenset[Any] | tuple[Any, ...] | Fn"


def make_fn(mapping: dict[Any, Any]) -> tuple[Any, ...] | Fn:
    """The unique value of the function ``mapping`` (a tuple when its domain is ``1..n``)."""
    n = len(mapping)
    if n == 0:
        return ()
    if all(type(k) is int for k in mapping) and all(i in mapping for i in range(1, n + 1)):
        return tuple(mapping[i] for i in range(1, n + 1))
    return Fn(mapping)


def record(**fields: Any) -> Fn:
    """``[a |-> 1, b |-> 2]`` as ``record(a=1, b=2)``."""
    return Fn(dict(fields))


def kind(v: Any) -> str:
    """The TLC kind of a value, used in error messages and for cross-kind checks."""
    t = type(v)
    if t is bool:
        return "boolean"
    if t is int:
        return "integer"
    if t is str:
        return "string"
    if t is frozenset:
        return "set"
    if t is tuple:
        return "sequence" if v else "function"
    if t is Fn:
        return "record" if all(type(k) is str for k in v) else "function"
    if t is ModelValue:
        return "model value"
    return t.__name__


_RANK = {ModelValue: -1, bool: 0, int: 1, str: 2, tuple: 4, Fn: 4, frozenset: 5}
_TUPLE_DOMAINS: dict[int, tuple[tuple[int, int], ...]] = {}


def _tuple_domain(n: int) -> tuple[tuple[int, int], ...]:
    dom = _TUPLE_DOMAINS.get(n)
    if dom is None:
        dom = _TUPLE_DOMAINS[n] = tuple((1, i) for i in range(1, n + 1))
    return dom


def sort_key(v: Any) -> tuple[Any, ...]:
    """TLC's order on values (see :mod:`tlaconf.values.order`): model values first; sets
    by size, then elements; functions (tuples and records too) by size, then domain,
    then values; strings by code point."""
    t = type(v)
    rank = _RANK.get(t, 6)
    if t in (bool, int, str):
        return (rank, v)
    if t is ModelValue:
        return (rank, v.name)
    if t is frozenset:
        return (rank, len(v), tuple(sorted(sort_key(x) for x in v)))
    if t is tuple:
        return (rank, len(v), _tuple_domain(len(v)), tuple(sort_key(x) for x in v))
    if t is Fn:
        if len(v._d) >= _KEPT_FIELDS:
            return _FN_KEYS.get(v, _fn_key)
        return _fn_key(v)
    if getattr(v, "finite", False):  # a finite lazy set of the evaluator: as its elements
        try:
            return sort_key(v.enum(-1))
        except Exception:  # too large to enumerate
            pass
    return (rank, repr(v))


def sort_key_mapped(v: Any, mv: dict[ModelValue, Any], memo: dict[int, tuple[Any, Any]]
                    ) -> tuple[Any, ...]:
    """:func:`sort_key` of ``v`` with its model values renamed, without building the
    renamed value: ``mv`` maps a model value to the key of its new name (one not in it
    keeps its own); ``memo`` remembers the keys of containers by identity (for one
    ``mv``)."""
    t = type(v)
    if t is ModelValue:
        k = mv.get(v)
        return k if k is not None else sort_key(v)
    if t is int or t is str or t is bool:
        return (_RANK[t], v)
    hit = memo.get(id(v))
    if hit is not None and hit[0] is v:
        return cast(tuple[Any, ...], hit[1])
    if t is frozenset:
        out: tuple[Any, ...] = (
            _RANK[t], len(v), tuple(sorted([sort_key_mapped(x, mv, memo) for x in v])))
    elif t is tuple:
        out = (_RANK[t], len(v), _tuple_domain(len(v)),
               tuple([sort_key_mapped(x, mv, memo) for x in v]))
    elif t is Fn:  # the renamed keys are distinct, so they alone order the pairs
        items = sorted([(sort_key_mapped(k, mv, memo), x) for k, x in v.items()],
                       key=_first)
        out = (_RANK[t], len(v), tuple([k for k, _ in items]),
               tuple([sort_key_mapped(x, mv, memo) for _, x in items]))
    else:  # a value kept unenumerated is not renamed
        out = sort_key(v)
    if len(memo) >= _KEYS_REMEMBERED:
        memo.clear()
    memo[id(v)] = (v, out)
    return out


def _first(item: tuple[Any, Any]) -> Any:
    return item[0]


_KEYS_REMEMBERED = 100_000
"""Keys a :func:`sort_key_mapped` memo holds before it is emptied."""


def _fn_key(v: Fn) -> tuple[Any, ...]:
    items = sorted((sort_key(k), x) for k, x in v.items())
    return (_RANK[Fn], len(v), tuple(k for k, _ in items), tuple(sort_key(x) for _, x in items))


_KEPT_FIELDS = 3
"""Functions of this many arguments or more (a protocol's messages) keep their key in
:data:`_FN_KEYS`: the same messages of a bag are ordered again at every step (a bag's
equality, its keys' order) and their keys walk every entry they carry."""
_FN_KEYS: Recent[tuple[Any, ...]] = Recent(4096)


def canonical(values: Iterable[Any]) -> list[Any]:
    """``values`` in the canonical order (one value is not keyed: printing a deeply
    nested singleton would key every level again at each level)."""
    out = list(values)
    if len(out) > 1:
        out.sort(key=sort_key)
    return out
