"""The operators of TLA+ itself and of the standard modules, as Python functions.

Every function takes the span id ``sid`` first (for error locations), then the
operator's arguments.  :data:`STANDARD` maps each standard module to the names it
defines; :data:`CORE` lists the operators every module has.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from tlaconf.evaluate.bags import OPERATORS as BAGS
from tlaconf.evaluate.community import HIGHER_ORDER as COMMUNITY_HIGHER_ORDER
from tlaconf.evaluate.fail import Fail, TooLarge, show
from tlaconf.evaluate.lazysets import (
    ENUM_LIMIT,
    PLUS_FEW,
    PLUS_FROM,
    VIEW_FROM,
    BinarySet,
    FnSet,
    Interval,
    IntSet,
    LazyFn,
    LazySet,
    NatSet,
    Plus,
    ProductSet,
    SeqSet,
    StringSet,
    SubsetSet,
    UnionSet,
    Without,
    checked,
    enum_set,
    is_fn,
    kind_of,
    reducible,
    set_size,
    sorted_values,
    without,
)
from tlaconf.evaluate.semantics import (
    NONE,
    as_bool,
    domain,
    equal,
    member,
    normalize_fn,
    partner,
)
from tlaconf.evaluate.tostring import tlc_string
from tlaconf.values import Fn, ModelValue, make_fn, shape, to_tla

NAT = NatSet()
INT = IntSet()
STRING = StringSet()
BOOLEAN = frozenset({False, True})


def _int(v: Any, sid: int, op: str) -> int:
    if type(v) is int:
        return v
    raise Fail(f"{op} expects integers, got the {kind_of(v)} {show(v)}", (), sid)


def _set(v: Any, sid: int, op: str) -> Any:
    if type(v) is frozenset or isinstance(v, LazySet):
        return v
    raise Fail(f"{op} expects a set, got the {kind_of(v)} {show(v)}", (), sid)


def _seq(v: Any, sid: int, op: str) -> tuple[Any, ...]:
    if type(v) is tuple:
        return v
    if type(v) is LazyFn:
        v = v.materialize(sid)
        if type(v) is tuple:
            return v
    raise Fail(f"{op} expects a sequence, got the {kind_of(v)} {show(v)}", (), sid)


# --------------------------------------------------------------------------- arithmetic


def plus(sid: int, a: Any, b: Any) -> int:
    return _int(a, sid, "+") + _int(b, sid, "+")


def minus(sid: int, a: Any, b: Any) -> int:
    return _int(a, sid, "-") - _int(b, sid, "-")


def times(sid: int, a: Any, b: Any) -> int:
    return _int(a, sid, "*") * _int(b, sid, "*")


def neg(sid: int, a: Any) -> int:
    return -_int(a, sid, "-")


def div(sid: int, a: Any, b: Any) -> int:
    """``\\div`` rounds toward negative infinity, as TLC (and Python's ``//``)."""
    if _int(b, sid, "\\div") == 0:
        raise Fail(f"division by zero: {show(a)} \\div 0", (), sid)
    return _int(a, sid, "\\div") // b


def mod(sid: int, a: Any, b: Any) -> int:
    """``a % b`` needs ``b > 0`` (TLC); the result is in ``0..b-1``."""
    if _int(b, sid, "%") <= 0:
        raise Fail(f"modulus by a non-positive number: {show(a)} % {show(b)}", (), sid)
    return _int(a, sid, "%") % b


def power(sid: int, a: Any, b: Any) -> int:
    if _int(b, sid, "^") < 0:
        raise Fail(f"negative exponent: {show(a)} ^ {show(b)}", (), sid)
    if _int(a, sid, "^") == 0 and b == 0:
        raise Fail("0 ^ 0 is undefined", (), sid)
    if b > 100_000 and abs(a) > 1:
        raise Fail(f"{show(a)} ^ {show(b)} is too large to compute", (), sid)
    return int(a**b)


def lt(sid: int, a: Any, b: Any) -> bool:
    return _int(a, sid, "<") < _int(b, sid, "<")


def gt(sid: int, a: Any, b: Any) -> bool:
    return _int(a, sid, ">") > _int(b, sid, ">")


def le(sid: int, a: Any, b: Any) -> bool:
    return _int(a, sid, "<=") <= _int(b, sid, "<=")


def ge(sid: int, a: Any, b: Any) -> bool:
    return _int(a, sid, ">=") >= _int(b, sid, ">=")


def interval(sid: int, a: Any, b: Any) -> Any:
    return Interval(_int(a, sid, ".."), _int(b, sid, ".."))


# --------------------------------------------------------------------------- sets


def eq(sid: int, a: Any, b: Any) -> bool:
    return equal(a, b, sid)


def neq(sid: int, a: Any, b: Any) -> bool:
    return not equal(a, b, sid)


def in_(sid: int, a: Any, b: Any) -> bool:
    return member(a, b, sid)


def notin(sid: int, a: Any, b: Any) -> bool:
    return not member(a, b, sid)


def check_elements(items: list[Any], sid: int,
                   what: str = "a set (or function domain) holds") -> None:
    """Fails when ``items`` cannot be the elements of one set: TLC cannot compare some
    of them (``{1, "a"}``; ``TRUE`` and ``1``, which Python would collapse)."""
    checked(items, sid, what)


def _clash(a: frozenset[Any], b: frozenset[Any], sid: int) -> None:
    """Fails when an element of ``a`` and one of ``b`` cannot be compared (TLC compares
    them to build ``a \\cup b``, or to test membership for ``\\cap`` and ``\\``)."""
    if a and b:
        ta, tb = type(next(iter(a))), type(next(iter(b)))
        if ta is tb and (ta is int or ta is str):
            return  # each set holds one kind besides model values (checked when built)
        if shape.same(a, b) is not None:
            return  # elements of one shape: they all compare
        check_elements([*a, *b], sid, "the two sets hold")


def disjoint(a: frozenset[Any], b: frozenset[Any], sid: int) -> bool:
    """``a \\cap b = {}`` without building the intersection (the kind check of
    :func:`_clash` inlined: this runs for every pair of sets a partition compares)."""
    if not a.isdisjoint(b):
        return False
    if a and b:
        t = type(next(iter(a)))
        if t is not type(next(iter(b))) or not (t is int or t is str):
            _clash(a, b, sid)
    return True


def cup(sid: int, a: Any, b: Any) -> Any:
    if type(a) is Plus:
        a = a.enum(sid)
    if type(b) is Plus:
        b = b.enum(sid)
    if type(a) is frozenset and type(b) is frozenset:
        _clash(a, b, sid)
        big, few = (a, b) if len(a) >= len(b) else (b, a)
        if len(big) >= PLUS_FROM and len(few) <= PLUS_FEW:
            return Plus(big, few)
        out = a | b
        if len(out) >= shape.LARGE:
            shape.remember(out, shape.same(a, b))
        return out
    a, b = _set(a, sid, "\\cup"), _set(b, sid, "\\cup")
    # TLC: an enumerated set or an interval first (its membership is asked first), and
    # the other set itself when that one is empty
    for few, other in ((a, b), (b, a)):
        if reducible(few):
            return other if set_size(few, sid) == 0 else BinarySet("\\cup", few, other)
    return BinarySet("\\cup", a, b)


def cap(sid: int, a: Any, b: Any) -> Any:
    if type(a) is frozenset and type(b) is frozenset:
        _clash(a, b, sid)
        return a & b
    _set(a, sid, "\\cap")
    _set(b, sid, "\\cap")
    if type(a) is Interval and type(b) is Interval:  # TLC enumerates the left one
        lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
        return frozenset(range(lo, hi + 1)) if hi - lo < ENUM_LIMIT else Interval(lo, hi)
    # TLC enumerates the side that is an interval or an enumerated set (its Reducible
    # values), the left one first, and tests membership in the other
    for few, other in ((a, b), (b, a)):
        if reducible(few):
            return frozenset(x for x in enum_set(few, sid) if member(x, other, sid))
    return BinarySet("\\cap", a, b)


def setminus(sid: int, a: Any, b: Any) -> Any:
    if type(b) is frozenset and len(b) == 1:
        view = _remove_one(sid, a, next(iter(b)), b)
        if view is not None:
            return view
    if type(a) is frozenset and type(b) is frozenset:
        _clash(a, b, sid)
        out = a - b
        if len(out) >= shape.LARGE:
            shape.remember(out, shape.of_set(a))
        return out
    _set(b, sid, "\\")
    if type(_set(a, sid, "\\")) is frozenset:
        return frozenset(x for x in a if not member(x, b, sid))
    return BinarySet("\\", a, b)


def _remove_one(sid: int, a: Any, x: Any, b: frozenset[Any]) -> Any:
    """``a \\ {x}`` as a :class:`Without` view when ``a`` is large and holds ``x`` (or
    is a view already), else None (the set is then built)."""
    if type(a) is Without:
        return a.without(x, sid)
    if type(a) is Interval:
        if type(x) is not int or not a.lo <= x <= a.hi or not (
                VIEW_FROM <= a.size(sid) <= ENUM_LIMIT):
            return None
        return without(a.enum(sid), x)
    if type(a) is frozenset and len(a) >= VIEW_FROM:
        _clash(a, b, sid)
        found = partner(x, a)
        return None if found is NONE else without(a, found)
    return None


def subseteq(sid: int, a: Any, b: Any) -> bool:
    if type(a) is frozenset and type(b) is frozenset and all(type(x) is str for x in a):
        return a <= b
    return all(member(x, _set(b, sid, "\\subseteq"), sid) for x in enum_set(a, sid))


def subset_strict(sid: int, a: Any, b: Any) -> bool:
    return subseteq(sid, a, b) and not equal(a, b, sid)


def supseteq(sid: int, a: Any, b: Any) -> bool:
    return subseteq(sid, b, a)


def supset_strict(sid: int, a: Any, b: Any) -> bool:
    return subset_strict(sid, b, a)


def subset(sid: int, a: Any) -> Any:
    return SubsetSet(_set(a, sid, "SUBSET"))


def union(sid: int, a: Any) -> Any:
    if type(a) is frozenset and all(type(s) is frozenset for s in a):
        # each set holds one kind (checked when built): one element tells
        kinds = {next(iter(s)).__class__ for s in a if s}
        if len(kinds) > 1 or (kinds and not kinds <= {int, str}):
            check_elements([x for s in a for x in s], sid)
        return frozenset().union(*a)
    members = enum_set(a, sid)
    for s in members:
        _set(s, sid, "UNION")
    if not all(type(s) is frozenset or s.finite for s in members):
        return UnionSet(members)
    out: list[Any] = []
    for s in enum_set(a, sid):
        out.extend(enum_set(s, sid))
    check_elements(out, sid)
    return frozenset(out)


def dom(sid: int, f: Any) -> Any:
    return domain(f, sid)


def product(sid: int, *sets: Any) -> Any:
    import itertools

    for s in sets:
        _set(s, sid, "\\X")
    if all(type(s) is frozenset for s in sets):
        return frozenset(itertools.product(*sets))
    return ProductSet(sets)


def fnset(sid: int, a: Any, b: Any) -> Any:
    return FnSet(_set(a, sid, "[S -> T]"), _set(b, sid, "[S -> T]"))


# --------------------------------------------------------------------------- FiniteSets


def cardinality(sid: int, s: Any) -> int:
    if type(s) is frozenset:
        return len(s)
    try:
        return set_size(_set(s, sid, "Cardinality"), sid)
    except Fail as err:
        if "no cardinality" in err.message:
            raise Fail(f"cannot enumerate the infinite set {show(s)}", (), sid) from None
        raise


def is_finite_set(sid: int, s: Any) -> bool:
    s = _set(s, sid, "IsFiniteSet")
    return type(s) is frozenset or bool(s.finite)


# --------------------------------------------------------------------------- Sequences


def seq(sid: int, s: Any) -> Any:
    return SeqSet(_set(s, sid, "Seq"))


def length(sid: int, s: Any) -> int:
    """``Len``; TLC also accepts a string."""
    if type(s) is str:
        return len(s)
    return len(_seq(s, sid, "Len"))


def concat(sid: int, a: Any, b: Any) -> Any:
    if type(a) is str and type(b) is str:
        return a + b
    return _seq(a, sid, "\\o") + _seq(b, sid, "\\o")


def append(sid: int, s: Any, e: Any) -> Any:
    return (*_seq(s, sid, "Append"), e)


def head(sid: int, s: Any) -> Any:
    if not _seq(s, sid, "Head"):
        raise Fail("Head of the empty sequence <<>>", (), sid)
    return s[0]


def tail(sid: int, s: Any) -> Any:
    """``Tail``; TLC also accepts a non-empty string (``Tail("abc") = "bc"``)."""
    if type(s) is str and s:
        return s[1:]
    if not (s if type(s) is str else _seq(s, sid, "Tail")):
        raise Fail("Tail of the empty sequence <<>>", (), sid)
    return s[1:]


def subseq(sid: int, s: Any, m: Any, n: Any) -> Any:
    """``SubSeq``; TLC also accepts a string."""
    if type(s) is not str:
        s = _seq(s, sid, "SubSeq")
    m, n = _int(m, sid, "SubSeq"), _int(n, sid, "SubSeq")
    if m > n:
        return "" if type(s) is str else ()
    if m < 1 or n > len(s):
        raise Fail(f"SubSeq({show(s)}, {m}, {n}): indices out of 1..{len(s)}", (), sid)
    return s[m - 1 : n]


def select_seq(sid: int, s: Any, test: Callable[[Any], Any]) -> Any:
    return tuple(e for e in _seq(s, sid, "SelectSeq") if as_bool(test(e), sid))


# --------------------------------------------------------------------------- TLC


def colon_gt(sid: int, a: Any, b: Any) -> Any:
    return make_fn({a: b})


def at_at(sid: int, f: Any, g: Any) -> Any:
    for v in (f, g):
        if not is_fn(v):
            raise Fail(f"@@ expects functions, got the {kind_of(v)} {show(v)}", (), sid)
    f, g = normalize_fn(f, sid), normalize_fn(g, sid)
    d = dict(g.items()) if type(g) is Fn else dict(enumerate(g, 1))
    d.update(f.items() if type(f) is Fn else enumerate(f, 1))
    if f and g:
        _clash(enum_set(domain(f, sid), sid), enum_set(domain(g, sid), sid), sid)
        if len(d) < len(f) + len(g):
            check_elements([*(f.keys() if type(f) is Fn else range(1, len(f) + 1)),
                            *(g.keys() if type(g) is Fn else range(1, len(g) + 1))], sid)
    return make_fn(d)


_SILENT: ContextVar[bool] = ContextVar("tlaconf_silent_prints", default=False)


@contextmanager
def silent_prints() -> Iterator[None]:
    """``Print`` and ``PrintT`` print nothing inside: for evaluations TLC never makes (a
    diagnosis evaluating the last steps of a search again)."""
    token = _SILENT.set(True)
    try:
        yield
    finally:
        _SILENT.reset(token)


def print_(sid: int, out: Any, val: Any) -> Any:
    """``Print(out, val)``: TLC prints both, two spaces apart, and gives ``val``."""
    if not _SILENT.get():
        print(f"{to_tla(out)}  {to_tla(val)}", file=sys.stderr)
    return val


def print_t(sid: int, out: Any) -> bool:
    if not _SILENT.get():
        print(to_tla(out), file=sys.stderr)
    return True


def assert_(sid: int, cond: Any, out: Any) -> bool:
    if as_bool(cond, sid):
        return True
    raise Fail(f"Assert failed: {out if type(out) is str else show(out)}", (), sid)


def to_string(sid: int, v: Any) -> str:
    return tlc_string(v, sid)


def tlc_eval(sid: int, v: Any) -> Any:
    return v


def permutations(sid: int, s: Any) -> Any:
    import itertools

    elems = sorted_values(enum_set(s, sid))
    if len(elems) > 9:
        raise TooLarge(f"refusing to enumerate Permutations of {len(elems)} elements", (), sid)
    return frozenset(make_fn(dict(zip(elems, p, strict=True)))
                     for p in itertools.permutations(elems))


def sort_seq(sid: int, s: Any, less: Callable[[Any, Any], Any]) -> Any:
    import functools

    def cmp(a: Any, b: Any) -> int:
        if as_bool(less(a, b), sid):
            return -1
        return 1 if as_bool(less(b, a), sid) else 0

    return tuple(sorted(_seq(s, sid, "SortSeq"), key=functools.cmp_to_key(cmp)))


def random_element(sid: int, s: Any) -> Any:
    """Nondeterministic in TLC; here the first element in canonical order, so that
    every replay of a trace gives the same verdict."""
    elems = enum_set(s, sid)
    if not elems:
        raise Fail("RandomElement of the empty set", (), sid)
    return sorted_values(elems)[0]


def tlc_set(registers: dict[Any, Any], sid: int, i: Any, v: Any) -> bool:
    """``TLCSet(i, v)`` in the registers of one evaluation context.  ``TLCSet("exit",
    TRUE)`` asks the search to stop once the state being explored has its successors:
    a search that does (``tlaconf validate``) holds a register ``"exit"``, which this
    sets; elsewhere it is an error, never ignored.  ``TLCSet("pause", ...)`` does nothing
    here (TLC waits for a key press)."""
    if i == "exit":
        if "exit" not in registers:
            raise Fail('TLCSet("exit", ...) stops a search: tlaconf validate supports it, '
                       "this command does not", (), sid)
        if v is True:
            registers["exit"] = True
        return True
    if i == "pause":
        return True
    if type(i) is not int or i < 0:
        raise Fail(f"TLCSet({show(i)}, ...): only integer registers, \"exit\" and "
                   "\"pause\" are supported", (), sid)
    registers[i] = v
    return True


def tlc_get(registers: dict[Any, Any], sid: int, i: Any) -> Any:
    """``TLCGet(i)`` from the registers of one evaluation context; a search
    (``tlaconf validate``) also keeps ``"level"``, ``"stats"`` and ``"config"`` there."""
    if (type(i) is int or type(i) is str) and i in registers:
        return registers[i]
    if type(i) is int:
        raise Fail(f"TLCGet({show(i)}): the register was never set", (), sid)
    if type(i) is str and i.startswith("-D"):  # TLC: the JVM's system property, or i unset
        return i
    raise Fail(f"TLCGet({show(i)}): TLC's model-checking statistics are not kept here "
               '(tlaconf validate keeps "level", "stats", "queue" and "config"; tlaconf '
               'explore gives "queue" and "level" to PROPERTY formulas of a breadth-first '
               "search)", (), sid)


def tlc_get_next(registers: dict[Any, Any], sid: int, i: Any) -> Any:
    """``TLCGet(i)'``: as TLC evaluates a primed expression in the next state, the
    level there is one more (``TLCGet("level")'``); every other register is the same."""
    value = tlc_get(registers, sid, i)
    return value + 1 if i == "level" and type(value) is int else value


def model_value(sid: int, name: Any) -> Any:
    if type(name) is not str:
        raise Fail("TLCModelValue expects a string", (), sid)
    return ModelValue(name)


def tlc_cache(sid: int, expression: Any, closure: Any) -> Any:
    """``TLCCache(expression, closure)``: TLC computes ``expression`` once per value of
    ``closure``; its value is ``expression``'s."""
    return expression


def assert_eq(sid: int, a: Any, b: Any) -> bool:
    if not equal(a, b, sid):
        print(f"AssertEq: {show(a)} # {show(b)}", file=sys.stderr)
        return False
    return True


def any_(sid: int) -> Any:
    raise Fail("TLC's Any cannot be evaluated", (), sid)


# --------------------------------------------------------------------------- tables


Builtin = tuple[Callable[..., Any], int]
"""A Python implementation and the operator's arity (0: a value, taken as is)."""

CORE: dict[str, Builtin] = {
    "=": (eq, 2),
    "/=": (neq, 2),
    "\\in": (in_, 2),
    "\\notin": (notin, 2),
    "\\cup": (cup, 2),
    "\\cap": (cap, 2),
    "\\": (setminus, 2),
    "\\subseteq": (subseteq, 2),
    "\\subset": (subset_strict, 2),
    "\\supseteq": (supseteq, 2),
    "\\supset": (supset_strict, 2),
    "SUBSET": (subset, 1),
    "UNION": (union, 1),
    "DOMAIN": (dom, 1),
    "\\X": (product, -1),
}

NATURALS: dict[str, Builtin] = {
    "+": (plus, 2),
    "-": (minus, 2),
    "*": (times, 2),
    "\\div": (div, 2),
    "%": (mod, 2),
    "^": (power, 2),
    "<": (lt, 2),
    ">": (gt, 2),
    "<=": (le, 2),
    ">=": (ge, 2),
    "..": (interval, 2),
}

STANDARD: dict[str, dict[str, Any]] = {
    "Naturals": {**NATURALS, "Nat": NAT},
    "Integers": {**NATURALS, "Nat": NAT, "Int": INT, "-.": (neg, 1)},
    "Sequences": {
        **NATURALS,
        "Nat": NAT,
        "Seq": (seq, 1),
        "Len": (length, 1),
        "\\o": (concat, 2),
        "Append": (append, 2),
        "Head": (head, 1),
        "Tail": (tail, 1),
        "SubSeq": (subseq, 3),
        "SelectSeq": (select_seq, 2),
    },
    "FiniteSets": {
        **NATURALS,
        "Nat": NAT,
        "IsFiniteSet": (is_finite_set, 1),
        "Cardinality": (cardinality, 1),
    },
    "TLC": {
        **NATURALS,
        "Nat": NAT,
        ":>": (colon_gt, 2),
        "@@": (at_at, 2),
        "Print": (print_, 2),
        "PrintT": (print_t, 1),
        "Assert": (assert_, 2),
        "ToString": (to_string, 1),
        "TLCEval": (tlc_eval, 1),
        "Permutations": (permutations, 1),
        "SortSeq": (sort_seq, 2),
        "RandomElement": (random_element, 1),
        "Any": (any_, 0),
        "TLCSet": (tlc_set, 2),
        "TLCGet": (tlc_get, 1),
    },
    "TLCExt": {
        "TLCModelValue": (model_value, 1),
        "AssertEq": (assert_eq, 2),
        "TLCCache": (tlc_cache, 2),
    },
    "Bags": {
        **NATURALS,
        "Nat": NAT,
        **BAGS,
    },
}
"""Names each standard module defines: a :data:`Builtin` pair, or a plain value."""

def is_operator(entry: Any) -> bool:
    """Whether a :data:`STANDARD` entry is an operator (else it is a value)."""
    return type(entry) is tuple and len(entry) == 2 and callable(entry[0])


WITH_REGISTERS = frozenset({tlc_set, tlc_get, tlc_get_next})
"""Builtins whose first argument is the TLCSet/TLCGet registers of the evaluation context
(the compiler binds them to its own)."""
EFFECTS = WITH_REGISTERS | {print_, print_t, assert_eq}
"""The standard operators an evaluation of which does more than give a value."""

BUILTIN_VALUES: dict[str, Any] = {"BOOLEAN": BOOLEAN, "STRING": STRING}
"""Constants of TLA+ itself."""

HIGHER_ORDER: dict[str, tuple[int, ...]] = {
    "SelectSeq": (1,),
    "SortSeq": (1,),
    "BagOfAll": (0,),
    **COMMUNITY_HIGHER_ORDER,
}
"""Argument positions of builtins that take an operator."""

