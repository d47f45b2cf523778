"""The requests a conformance module offers in a state: params domains and ENABLED.

For an action ``A`` of the module, the operator ``Params_A`` (no parameters; it may read
the state variables) gives the params to request, in one of two forms:

- a **record of sets**, ``[id |-> inGameIds \\cup {99}, source |-> ZoneInstances4]``: each
  field is drawn from its own set (cheap however large the product, and each field
  shrinks on its own);
- a **set of records**, ``[id : inGameIds, source : ZoneInstances4]`` or any set
  expression: a request is drawn whole (the set is enumerated in every state).

A request ``A(p)`` is *allowed* in state ``s`` when ``ENABLED A(p)`` is TRUE there, else
*forbidden*; both kinds are sent to the implementation.  Actions without ``Params_A``
are not requested.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tlaconf.errors import UserError
from tlaconf.evaluate import Context
from tlaconf.mbt.memo import Memo, state_key, value_key
from tlaconf.values import Fn, canonical

PREFIX = "Params_"


@dataclass(frozen=True, slots=True)
class Request:
    """``action(params)``, and whether the module allows it in the state it was made for."""

    action: str
    params: Fn
    allowed: bool


@dataclass(frozen=True, slots=True)
class Domain:
    """One action's params domain in one state: per field (``fields``) or whole (``records``)."""

    action: str
    fields: tuple[tuple[str, tuple[Any, ...]], ...] | None
    records: tuple[Fn, ...] | None

    @property
    def empty(self) -> bool:
        if self.records is not None:
            return not self.records
        return any(not values for _, values in self.fields or ())

    @property
    def count(self) -> int:
        """How many requests the domain holds."""
        return math.prod(self.sizes())

    def sizes(self) -> tuple[int, ...]:
        """How many values each field ranges over (one size for a set of records)."""
        if self.records is not None:
            return (len(self.records),)
        return tuple(len(values) for _, values in self.fields or ())

    def nth(self, index: int) -> Fn:
        """Request number ``index`` (``0 <= index < count``; the last field varies fastest)."""
        if self.records is not None:
            return self.records[index]
        assert self.fields is not None
        picked: dict[str, Any] = {}
        for name, values in reversed(self.fields):
            index, i = divmod(index, len(values))
            picked[name] = values[i]
        return Fn({name: picked[name] for name, _ in self.fields})

    def changed(self, params: Fn, field: int, value: int) -> Fn:
        """``params`` with field number ``field`` set to its ``value``-th value (for a set of
        records: record number ``value``)."""
        if self.records is not None:
            return self.records[value]
        assert self.fields is not None
        name, values = self.fields[field]
        return Fn({**dict(params.items()), name: values[value]})


def stride(total: int) -> int:
    """A step through ``0..total-1`` that visits every index (coprime with ``total``)."""
    step = max(1, int(total * 0.618))
    while math.gcd(step, total) != 1:
        step += 1
    return step


def _finite(value: Any, what: str, where: str) -> tuple[Any, ...]:
    """The elements of a finite set value, in TLC's order; UserError otherwise."""
    if type(value) is frozenset:
        return tuple(canonical(value))
    enum = getattr(value, "enum", None)
    if enum is None:
        raise UserError(f"{what} is not a set (it must give the values to request)", where)
    if not getattr(value, "finite", True):
        raise UserError(f"{what} is the infinite set {value!r}: give a finite set to draw from",
                        where)
    return tuple(canonical(enum(-1)))


class Domains:
    """The ``Params_<Action>`` operators of a loaded module, evaluated per state (each
    domain and ``ENABLED`` computed once per state: ``key`` is the state's
    :func:`~tlaconf.mbt.memo.state_key`, made when not given)."""

    def __init__(self, ctx: Context, actions: Sequence[str], module: str) -> None:
        self.ctx = ctx
        self.every_action = tuple(actions)
        """Every action of the module (those without a params domain too)."""
        self._domains: Memo[Domain] = Memo()
        self._enabled: Memo[bool] = Memo()
        found = {a: ctx.operators.get(PREFIX + a) for a in actions}
        for action, info in found.items():
            if info is not None and info.arity != 0:
                raise UserError(f"{PREFIX}{action} takes {info.arity} parameter(s); a params "
                                "domain takes none (it may read the state variables)",
                                str(info.span))
        self.actions: tuple[str, ...] = tuple(a for a, info in found.items() if info is not None)
        self._where = {a: str(info.span) for a, info in found.items() if info is not None}
        if not self.actions:
            raise UserError(
                f"module {module} defines no params domain, so no request can be drawn: define "
                f"{PREFIX}<Action> for some of its actions ({', '.join(actions) or 'none'}), "
                f"e.g. {PREFIX}{actions[0] if actions else 'Move'} == [id |-> 1..3]"
            )

    def domain(self, action: str, state: Mapping[str, Any], key: int | None = None) -> Domain:
        """``Params_<action>`` in ``state``."""
        key = state_key(state) if key is None else key
        return self._domains.get((action, key), lambda: self._domain(action, state))

    def _domain(self, action: str, state: Mapping[str, Any]) -> Domain:
        name, where = PREFIX + action, self._where[action]
        value = self.ctx.value(name, (), state)
        if type(value) is Fn:
            fields = []
            for field in canonical(value):
                if type(field) is not str:
                    raise UserError(f"{name} is a function on {field!r}, not a record of sets",
                                    where)
                fields.append((field, _finite(value[field], f"{name}.{field}", where)))
            return Domain(action, tuple(fields), None)
        records = _finite(value, name, where)
        for r in records:
            if type(r) is not Fn or not all(type(k) is str for k in r):
                raise UserError(f"{name} holds {r!r}, which is not a params record", where)
        return Domain(action, None, records)

    def allowed(self, action: str, params: Fn, state: Mapping[str, Any],
                key: int | None = None) -> bool:  # fmt: skip
        """``ENABLED action(params)`` in ``state``."""
        key = state_key(state) if key is None else key
        return self._enabled.get((action, value_key(params), key),
                                 lambda: self.ctx.enabled(action, (params,), state))

    def requests(self, state: Mapping[str, Any], limit: int = 20) -> tuple[list[Request], ...]:
        """Up to ``limit`` allowed and ``limit`` forbidden requests per action in ``state``,
        the first ones of each domain in order (among its first ``50 * limit``)."""
        allowed: list[Request] = []
        forbidden: list[Request] = []
        key = state_key(state)
        for action in self.actions:
            dom = self.domain(action, state, key)
            taken = [0, 0]
            for index in range(min(dom.count, 50 * limit)):
                params = dom.nth(index)
                ok = self.allowed(action, params, state, key)
                if taken[ok] < limit:
                    taken[ok] += 1
                    (allowed if ok else forbidden).append(Request(action, params, ok))
                if min(taken) >= limit:
                    break
        return allowed, forbidden
