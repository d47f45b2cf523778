"""Decoding consecutive states with structural sharing: a part of a state whose JSON is
the same as in the previous state is not decoded again, the previous state's value (the
very same object) is taken.

A trace's consecutive states differ in a few places (one move changes two zones of
twelve), so most of a state is decoded once; and an unchanged variable or zone is then
the same object in ``s`` and ``s'``, which the evaluator's ``is`` tests (``UNCHANGED x``,
the memo of an operator applied to the very same arguments) see at once.

"The same JSON" is strict: Python's ``1 == True`` and ``1 == 1.0`` would take a JSON
``true`` for ``1``, so a list is reused only when it holds scalars (no list, no object)
of the same types, element by element, as the previous one.  Only one previous state is
held, so memory does not grow with the trace.
"""

from __future__ import annotations

from itertools import compress
from operator import is_, ne
from typing import Any

from tlaconf.values import Fn, Value, decode


def _same_scalars(a: list[Any], b: list[Any]) -> bool:
    """Whether the JSON arrays ``a`` and ``b`` hold the same scalars, of the same types
    (first by identity: the parser gives small integers and booleans as shared objects)."""
    if len(a) != len(b):
        return False
    if all(map(is_, a, b)):
        return True
    if a != b:
        return False
    kinds = list(map(type, a))
    return kinds == list(map(type, b)) and list not in kinds and dict not in kinds


def _same_wrapped(obj: dict[str, Any], old: Any) -> bool:
    """Whether the one-key JSON objects ``obj`` and ``old`` (``{"#set": [...]}``, a record
    of one field) wrap the same array of scalars."""
    if type(old) is not dict or len(old) != 1:
        return False
    key, body = next(iter(obj.items()))
    was = old.get(key)
    return type(body) is list and type(was) is list and _same_scalars(body, was)


def count_booleans(obj: Any) -> int:
    """How many booleans the JSON value ``obj`` holds."""
    t = type(obj)
    if t is bool:
        return 1
    if t is dict:
        obj = list(obj.values())
    elif t is not list:
        return 0
    kinds = list(map(type, obj))
    if dict in kinds or list in kinds:
        return sum(map(count_booleans, obj))
    return kinds.count(bool)


def _shared(obj: Any, old: Any, value: Any, path: str) -> Any:
    """The value of the JSON ``obj``: ``value`` (the decoded ``old``) where ``obj`` is
    the same as ``old``, else decoded, reusing ``value``'s parts that are the same."""
    t = type(obj)
    if t is not type(old):
        return decode(obj, path)
    if t is list:
        return value if _same_scalars(obj, old) else decode(obj, path)
    if t is str or t is int or t is bool:
        return value if obj == old else decode(obj, path)
    if t is not dict:
        return decode(obj, path)
    if len(obj) == 1:
        if _same_wrapped(obj, old):
            return value
        if next(iter(obj))[:1] == "#":  # an encoded value, changed
            return decode(obj, path)
    if type(value) is not Fn or obj.keys() != old.keys():
        return decode(obj, path)
    d = value._d
    out: dict[str, Any] = {}
    changed = False
    for k, v in obj.items():  # a record, field by field
        was, o = d[k], old[k]
        if type(v) is dict and type(o) is dict and len(v) == 1 == len(o):
            ((key, body),) = v.items()  # inlined _same_wrapped, first test (identity)
            ob = o.get(key)
            if (type(body) is list and type(ob) is list and len(body) == len(ob)
                    and (all(map(is_, body, ob)) or _same_scalars(body, ob))):
                out[k] = was
                continue
        x = _shared(v, o, was, f"{path}.{k}")
        changed = changed or x is not was
        out[k] = x
    return Fn(out) if changed else value


def _shared_exact(obj: Any, old: Any, value: Any, path: str) -> Any:
    """:func:`_shared` for JSON without booleans, where Python's ``==`` is exact (an
    integer and a float that are equal decode to the same integer): a record's changed
    fields are found by comparing them all at once."""
    if obj == old:
        return value
    if (type(obj) is not dict or type(old) is not dict or type(value) is not Fn
            or len(obj) < 2 or list(obj) != list(old)):
        return decode(obj, path)
    d = value._d
    out = dict(d)
    for k in compress(obj, map(ne, obj.values(), old.values())):
        out[k] = _shared_exact(obj[k], old[k], d[k], f"{path}.{k}")
    return Fn(out)


class SharedStates:
    """The decoder of one trace's states: remembers the previous state's JSON and values
    (per variable) and decodes the next one against them."""

    def __init__(self) -> None:
        self._prev: dict[str, tuple[Any, Value]] = {}
        self._exact = False
        """Whether the previous state is known to hold no boolean."""

    def decode(self, raw: dict[str, Any], what: str = "state", exact: bool = False,
               keep: bool = True) -> dict[str, Value]:
        """The values of the JSON object ``raw`` of named values (an
        :class:`~tlaconf.values.ITFDecodeError` names the bad part, as
        :func:`~tlaconf.values.decode` does).  ``exact``: the caller knows that ``raw``
        holds no boolean (if the previous state held none either, Python's ``==`` then
        tells the same JSON at once); ``keep``: remember this state (else the next one is
        decoded alone)."""
        prev = self._prev
        share = _shared_exact if exact and self._exact else _shared
        out: dict[str, Value] = {}
        for name, obj in raw.items():
            old = prev.get(name)
            path = f"{what}.{name}"
            out[name] = decode(obj, path) if old is None else share(obj, old[0], old[1], path)
        self.remember(raw, out, exact, keep)
        return out

    def remember(self, raw: dict[str, Any], values: dict[str, Value], exact: bool = False,
                 keep: bool = True) -> None:
        """Take ``values`` (decoded from ``raw``; ``exact``: it holds no boolean) as the
        previous state; with ``keep`` False, forget the previous state instead."""
        self._prev = {name: (raw[name], values[name]) for name in values} if keep else {}
        self._exact = exact
