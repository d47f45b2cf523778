"""``ToString(v)`` as TLC prints values (``toString`` of tlc2/value/impl/*Value.java).

Sets in TLC's order (see :mod:`tlaconf.values.order`), an interval as ``1..3`` (a set
enumeration or ``\\cup`` result as ``{1, 2, 3}``), ``SUBSET S`` expanded when ``S`` has
fewer than 7 elements, ``[S -> T]``, ``[a : S]`` and ``S \\X T`` expanded below 2000
elements (TLC's ``enumBound``), a function whose domain is identifier strings as a record
(``[a |-> 1]``; ``("" :> 1)`` otherwise, as a bag of ``""``), the empty function
as ``<<>>``; ``Nat``, ``Int``, ``STRING`` and ``Seq(S)`` by name.  Strings (and record
fields) are in code-point order: TLC's order of strings depends on its run.
"""

from __future__ import annotations

import re
from typing import Any

from tlaconf.evaluate.fail import Fail
from tlaconf.evaluate.lazysets import (
    FnSet,
    Interval,
    IntSet,
    LazyFn,
    LazySet,
    NatSet,
    ProductSet,
    RecordSet,
    SeqSet,
    StringSet,
    SubsetSet,
    set_size,
)
from tlaconf.values import Fn, ModelValue, canonical
from tlaconf.values.bigint import decimal_text

ENUM_BOUND = 2000
"""TLC's ``enumBound``: larger sets of functions, records and tuples print unexpanded."""

_FIELD = re.compile(r"[A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*")
"""A string TLC prints as a record field: a TLA+ identifier (``a``, ``_x``, ``1a``; not
``""``, ``"1"`` or ``"a b"``)."""

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def tlc_string(v: Any, sid: int) -> str:
    t = type(v)
    if t is bool:
        return "TRUE" if v else "FALSE"
    if t is int:
        return decimal_text(v)
    if t is str:
        return '"' + "".join(_ESCAPES.get(ch, ch) for ch in v) + '"'
    if t is ModelValue:
        return v.name
    if t is frozenset:
        return "{" + ", ".join(tlc_string(x, sid) for x in canonical(v)) + "}"
    if t is tuple:
        return "<<" + ", ".join(tlc_string(x, sid) for x in v) + ">>"
    if t is Fn:
        keys = canonical(v)
        if all(type(k) is str and _FIELD.fullmatch(k) for k in keys):
            return "[" + ", ".join(f"{k} |-> {tlc_string(v[k], sid)}" for k in keys) + "]"
        return "(" + " @@ ".join(f"{tlc_string(k, sid)} :> {tlc_string(v[k], sid)}"
                                 for k in keys) + ")"
    if t is LazyFn:
        return tlc_string(v.materialize(sid), sid)
    if isinstance(v, LazySet):
        return _lazy_set(v, sid)
    raise Fail(f"ToString of {v!r}", (), sid)


def _lazy_set(v: LazySet, sid: int) -> str:
    if type(v) is Interval:
        return v.describe()
    names: dict[type[LazySet], str] = {NatSet: "Nat", IntSet: "Int", StringSet: "STRING"}
    if type(v) in names:
        return names[type(v)]
    if type(v) is SeqSet:
        return f"Seq({tlc_string(v.base, sid)})"
    if not v.finite:
        raise Fail(f"ToString of the infinite set {v.describe()}: TLC prints it with its "
                   "defining expression, which tlaconf does not keep", (), sid)
    if type(v) is SubsetSet:
        base = v.base
        if set_size(base, sid) >= 7:
            inner = tlc_string(base, sid)
            return f"SUBSET ({inner})" if type(base) is Interval else f"SUBSET {inner}"
    elif type(v) in (FnSet, RecordSet, ProductSet) and v.size(sid) >= ENUM_BOUND:
        return _unexpanded(v, sid)
    return tlc_string(v.enum(sid), sid)


def _unexpanded(v: LazySet, sid: int) -> str:
    if type(v) is FnSet:
        return f"[{tlc_string(v.dom, sid)} -> {tlc_string(v.rng, sid)}]"
    if type(v) is RecordSet:
        return "[" + ", ".join(f"{k}: {tlc_string(s, sid)}" for k, s in v.fields) + "]"
    assert type(v) is ProductSet
    return "(" + " \\X ".join(tlc_string(s, sid) for s in v.factors) + ")"
