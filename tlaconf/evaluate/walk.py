"""Interpreting the outer structure of a formula (for blame and ENABLED) while the
sub-expressions run compiled: environments of bound names and their evaluation."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from tlaconf.evaluate.actionwalk import ActionVisitor, C, T
from tlaconf.evaluate.code import Local, Scope
from tlaconf.evaluate.compiler import Compiler
from tlaconf.evaluate.fail import Fail
from tlaconf.evaluate.lazysets import enum_set
from tlaconf.evaluate.levels import has_stateful
from tlaconf.evaluate.namespace import Entry, Namespace
from tlaconf.evaluate.runtime import NO_NEXT, NO_STATE
from tlaconf.evaluate.semantics import as_bool
from tlaconf.tla import ast as A

BindingKind: TypeAlias = Literal["val", "lazy", "op"]
"""A bound value, a thunk computing it (``value()``), or an operator argument."""


@dataclass(frozen=True)
class Binding:
    """A name bound by a quantifier, a parameter or a LET; ``defn`` keeps a LET operator's
    definition (with its namespace and environment) so that it can be descended into."""

    name: str
    kind: BindingKind
    arity: int
    value: Any
    defn: tuple[A.OpDef, Namespace, Env] | None = None
    expr: tuple[A.Node, Namespace, Env] | None = None
    """For a parameter passed by name (ENABLED): the argument expression."""


@dataclass(frozen=True)
class Env:
    bindings: tuple[Binding, ...] = ()

    def extend(self, *items: Binding) -> Env:
        return Env(self.bindings + items)

    def visible(self) -> dict[str, Binding]:
        return {b.name: b for b in self.bindings}

    def get(self, name: str) -> Binding | None:
        for b in reversed(self.bindings):
            if b.name == name:
                return b
        return None


class Walker(ActionVisitor[C, T]):
    """A visitor of a formula as an action (blame, ENABLED, coverage, the assignment
    check) that evaluates its sub-expressions compiled, in an :class:`Env`, in the walk's
    state: ``S`` (unprimed variables) and ``N`` (primed ones), set by the walk's entry
    point and passed to every compiled snippet.  Used alone, it only evaluates."""

    def __init__(self, comp: Compiler) -> None:
        self.comp = comp
        self._wrappers: dict[int, tuple[A.Node, A.Node]] = {}
        self._by_name_args: dict[tuple[int, int, tuple[str, ...]],
                                 tuple[A.Node, Namespace, bool]] = {}
        self.S: Any = NO_STATE
        self.N: Any = NO_NEXT

    @contextmanager
    def in_state(self, state: Any, nxt: Any) -> Iterator[None]:
        """Walk in ``state``/``nxt``; the previous walk state is restored afterwards (a walk
        may start inside another one: ENABLED evaluated within an action)."""
        saved = self.S, self.N
        self.S, self.N = state, nxt
        try:
            yield
        finally:
            self.S, self.N = saved

    def wrapper(self, d: A.OpDef | A.FnDef) -> A.Node:
        """One synthetic node per LET definition (a LAMBDA, or ``LET f[..] == .. IN f``), so
        that its compiled snippet is reused."""
        hit = self._wrappers.get(id(d))
        if hit is not None and hit[0] is d:
            return hit[1]
        if isinstance(d, A.OpDef):
            node: A.Node = A.Lambda(tuple(p.name for p in d.params), d.body, span=d.span)
        else:
            node = A.Let((d,), A.Name(d.name, span=d.span), span=d.span)
        self._wrappers[id(d)] = (d, node)
        return node

    def eval(self, node: A.Node, ns: Namespace, env: Env, primed: bool = False) -> Any:
        vis = env.visible()
        sig = tuple((n, b.kind, b.arity) for n, b in vis.items())
        fn = self.comp.snippet(node, ns, sig, primed)
        return fn(self.S, self.N, *(b.value for b in vis.values()))

    def eval_bool(self, node: A.Node, ns: Namespace, env: Env) -> bool:
        return as_bool(self.eval(node, ns, env), self.comp.sid(node))

    def callable_arg(self, arg: A.Expr, arity: int, ns: Namespace, env: Env) -> Any:
        vis = env.visible()
        sig = tuple((n, b.kind, b.arity) for n, b in vis.items())
        fn = self.comp.arg_snippet(arg, arity, ns, sig)
        return fn(self.S, self.N, *(b.value for b in vis.values()))

    def bind_let(self, node: A.Let, ns: Namespace, env: Env) -> Env:
        for d in node.defs:
            if isinstance(d, A.OpDef) and not d.params:
                env = env.extend(Binding(d.name, "lazy", 0, self._thunk(d.body, ns, env),
                                         (d, ns, env)))
            elif isinstance(d, A.OpDef):
                env = env.extend(Binding(d.name, "op", len(d.params),
                                         self._op(d, ns, env), (d, ns, env)))
            elif isinstance(d, A.FnDef):
                env = env.extend(Binding(d.name, "lazy", 0, self._thunk(self.wrapper(d), ns, env)))
        return env

    def _thunk(self, body: A.Node, ns: Namespace, env: Env) -> Callable[[], Any]:
        cell: list[Any] = []

        def get() -> Any:
            if not cell:
                cell.append(self.eval(body, ns, env))
            return cell[0]

        return get

    def _op(self, d: A.OpDef, ns: Namespace, env: Env) -> Any:
        return self.eval(self.wrapper(d), ns, env)

    def bindings_of(
        self, bounds: tuple[A.Bound, ...], ns: Namespace, env: Env, sid: int
    ) -> Iterator[tuple[Binding, ...]]:
        """Every binding of the bound names (the Cartesian product of their domains)."""
        groups: list[list[tuple[Binding, ...]]] = []
        for b in bounds:
            if b.domain is None:
                raise Fail("an unbounded quantifier cannot be evaluated", (), sid)
            dom = sorted_elems(self.eval(b.domain, ns, env), sid)
            if b.tuple_pattern:
                opts = []
                for t in dom:
                    if type(t) is not tuple or len(t) != len(b.names):
                        raise Fail("an element does not match the tuple pattern", (), sid)
                    opts.append(tuple(Binding(n, "val", 0, v)
                                      for n, v in zip(b.names, t, strict=True)))
                groups.append(opts)
            else:
                for n in b.names:
                    groups.append([(Binding(n, "val", 0, v),) for v in dom])
        yield from _product(groups)

    def call_target(
        self, node: A.Node, ns: Namespace, env: Env, by_name: bool = False
    ) -> tuple[A.Node, Namespace, Env, str] | None:
        """For an application of a user-defined operator: its body, namespace, the
        environment binding its parameters, and its name.  With ``by_name``, arguments
        that contain primes are passed as expressions (as TLC substitutes them), so that
        ``after = e`` inside the operator can assign ``x'`` when called with ``x'``."""
        if isinstance(node, A.Name | A.OpApp):
            args = getattr(node, "args", ())
            if not node.module:
                b = env.get(node.name)
                if b is not None:
                    if b.defn is None:
                        return None
                    d, dns, denv = b.defn
                    new = denv.extend(*self._params(d.params, args, ns, env, by_name))
                    return d.body, dns, new, node.name
            entry = self.comp.resolve_entry(ns, node.name, node.module)
            if entry is None:
                return None
            if entry.kind == "subst":
                assert entry.ns is not None
                return entry.node, entry.ns, Env(), node.name
            if entry.ns is not None and entry.ns.inst_params:
                return None
            if entry.kind == "op" and len(entry.node.params) == len(args):
                assert entry.ns is not None
                new = Env(self._params(entry.node.params, args, ns, env, by_name))
                return entry.node.body, entry.ns, new, node.name
        return None

    def _params(
        self, params: tuple[A.Param, ...], args: tuple[A.Expr, ...], ns: Namespace, env: Env,
        by_name: bool = False,
    ) -> tuple[Binding, ...]:
        out = []
        for p, a in zip(params, args, strict=True):
            if by_name and not p.arity and self._passed_by_name(a, ns, env):
                out.append(Binding(p.name, "lazy", 0, self._by_name(a, ns, env), expr=(a, ns, env)))
            elif p.arity:
                out.append(Binding(p.name, "op", p.arity, self.callable_arg(a, p.arity, ns, env),
                                   self.stands_for(a, ns, env)))
            else:
                try:
                    out.append(Binding(p.name, "val", 0, self.eval(a, ns, env)))
                except Fail as err:  # raised only where the operator uses it, as TLC
                    out.append(Binding(p.name, "lazy", 0, _raiser(err)))
        return tuple(out)

    def stands_for(self, a: A.Expr, ns: Namespace, env: Env
                   ) -> tuple[A.OpDef, Namespace, Env] | None:
        """The definition a higher-order argument stands for (a ``LAMBDA``, or an operator
        named), so that the parameter applied as an action assigns as its body does, as
        in TLC (PGo's trace specs pass ``LAMBDA c : clock' = c`` down to where it is
        applied)."""
        if isinstance(a, A.Lambda):
            params = tuple(A.Param(n, span=a.span) for n in a.params)
            return A.OpDef("LAMBDA", params, a.body, span=a.span), ns, env
        if not isinstance(a, A.Name | A.OpApp) or a.module or getattr(a, "args", ()):
            return None
        b = env.get(a.name)
        if b is not None:
            return b.defn
        entry = self.comp.resolve_entry(ns, a.name, ())
        if (entry is not None and entry.kind == "op" and isinstance(entry.node, A.OpDef)
                and entry.ns is not None and not entry.ns.inst_params):
            return entry.node, entry.ns, Env()
        return None

    def _passed_by_name(self, a: A.Expr, ns: Namespace, env: Env) -> bool:
        """Whether the argument ``a`` depends on the state or on the names bound in ``env``
        (so it is passed as an expression); cached per argument, namespace and names."""
        names = tuple(env.visible())
        key = (id(a), id(ns), names)
        hit = self._by_name_args.get(key)
        if hit is not None and hit[0] is a and hit[1] is ns:
            return hit[2]
        res = has_stateful(a) or not self.comp.levels.expr_is_const(
            a, Scope(ns, {n: Local("_") for n in names}))
        self._by_name_args[key] = (a, ns, res)
        return res

    def _by_name(self, a: A.Expr, ns: Namespace, env: Env) -> Callable[[], Any]:
        """A by-name argument: re-evaluated when the primed variables assigned so far
        (the ``N`` mapping) change, cached otherwise."""
        cell: list[Any] = [None, None]

        def get() -> Any:
            nxt = self.N
            if cell[0] is not nxt:
                cell[1] = self.eval(a, ns, env)
                cell[0] = nxt
            return cell[1]

        return get

    def primed_var(self, node: A.Node, ns: Namespace, env: Env | None = None) -> str | None:
        """The variable name if ``node`` is ``x'`` for a state variable ``x`` (or a
        parameter passed such an expression)."""
        if isinstance(node, A.Prime):
            return self.var_name(node.expr, ns, env)
        b = self._bound(node, env)
        if b is not None and b.expr is not None:
            return self.primed_var(*b.expr)
        return None

    def var_name(self, node: A.Node, ns: Namespace, env: Env | None = None) -> str | None:
        if isinstance(node, A.Name) or (isinstance(node, A.OpApp) and not node.args):
            b = self._bound(node, env)
            if b is not None:
                return self.var_name(*b.expr) if b.expr is not None else None
            entry = self.comp.resolve_entry(ns, node.name, node.module)
            return self.entry_var(entry)
        return None

    @staticmethod
    def _bound(node: A.Node, env: Env | None) -> Binding | None:
        if env is None or not isinstance(node, A.Name | A.OpApp) or node.module:
            return None
        if isinstance(node, A.OpApp) and node.args:
            return None
        return env.get(node.name)

    def entry_var(self, entry: Entry | None) -> str | None:
        if entry is None:
            return None
        if entry.kind == "var":
            return entry.name
        if entry.kind == "subst" and entry.ns is not None:
            return self.var_name(entry.node, entry.ns)
        return None


def sorted_elems(s: Any, sid: int) -> list[Any]:
    from tlaconf.values import canonical

    return canonical(enum_set(s, sid))


def _product(groups: list[list[tuple[Binding, ...]]]) -> Iterator[tuple[Binding, ...]]:
    if not groups:
        yield ()
        return
    for first in groups[0]:
        for rest in _product(groups[1:]):
            yield first + rest


def _raiser(err: Fail) -> Callable[[], Any]:
    """A lazy binding for an argument whose evaluation failed."""

    def get() -> Any:
        raise err

    return get
