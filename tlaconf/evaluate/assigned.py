"""Which variables an action determines, found statically when a module loads.

TLC reports an action that leaves a primed variable unassigned only when it
generates successors through it.  Here every path of the action is examined
without evaluating anything, whether or not a step ever takes it: a
conjunction assigns what any of its conjuncts assigns; a disjunction, an
``IF`` and a ``CASE`` assign only what every branch assigns; ``\\E`` and ``LET``
assign what their body assigns; a call of an operator whose body is an action
(or that is passed a primed variable) assigns what its body assigns, with the
parameters standing for the arguments.  ``x' = e``, ``x' \\in S`` and
``UNCHANGED x`` (also through a definition such as ``vars == <<x, y>>``)
assign ``x``; ``[A]_v`` is ``A \\/ UNCHANGED v``.  Anything else assigns
nothing.  This is exact for the union/intersection structure: the variables
found are those assigned on every path.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from tlaconf.evaluate.compiler import flatten_tuple
from tlaconf.evaluate.levels import has_stateful
from tlaconf.evaluate.namespace import Namespace
from tlaconf.evaluate.walk import Binding, Env, Walker
from tlaconf.tla import ast as A

Site = tuple[A.Node, Namespace, Env]
At = tuple[Namespace, Env]
"""Where the check is: the namespace and the names bound."""


@dataclass(frozen=True)
class Paths:
    """What a formula assigns on every path; ``gaps``: for a variable it does not assign,
    the innermost branch (disjunct, IF branch, CASE arm) through which it stays unassigned."""

    assigned: frozenset[str]
    gaps: Mapping[str, A.Node] = field(default_factory=dict)


def _all(parts: Iterable[Paths]) -> Paths:
    """A conjunction: every part is on the path."""
    parts = list(parts)
    assigned = frozenset().union(*(p.assigned for p in parts))
    gaps: dict[str, A.Node] = {}
    for p in parts:
        for var, node in p.gaps.items():
            if var not in assigned:
                gaps.setdefault(var, node)
    return Paths(assigned, gaps)


def _any(branches: Iterable[tuple[A.Node, Paths]]) -> Paths:
    """A choice: one branch is on the path."""
    branches = list(branches)
    assigned = frozenset.intersection(*(p.assigned for _, p in branches))
    some = frozenset().union(*(p.assigned for _, p in branches))
    candidates = some.union(*(p.gaps for _, p in branches)) - assigned
    gaps: dict[str, A.Node] = {}
    for var in sorted(candidates):
        for node, p in branches:
            if var not in p.assigned:
                gap = p.gaps.get(var, node if var in some else None)
                if gap is not None:
                    gaps[var] = gap
                    break
    return Paths(assigned, gaps)


def unchanged_sites(w: Walker, target: A.Node, ns: Namespace, env: Env) -> list[Site]:
    """The expressions ``UNCHANGED target`` keeps: tuples flattened and names of
    definitions without parameters (``vars == <<x, y>>``) expanded."""
    out: list[Site] = []
    for item in flatten_tuple(target):  # type: ignore[arg-type]
        if w.var_name(item, ns, env) is None and isinstance(item, A.Name | A.OpApp) \
                and not getattr(item, "args", ()):
            b = Walker._bound(item, env)
            if b is not None and b.expr is not None:
                out.extend(unchanged_sites(w, *b.expr))
                continue
            entry = None if b is not None else w.comp.resolve_entry(ns, item.name, item.module)
            if entry is not None and entry.kind == "op" and not entry.node.params \
                    and entry.ns is not None and not entry.ns.inst_params:
                out.extend(unchanged_sites(w, entry.node.body, entry.ns, Env()))
                continue
        out.append((item, ns, env))
    return out


class AssignmentChecker(Walker["At", Paths]):
    """Computes :class:`Paths` of action formulas (nothing is evaluated)."""

    def __init__(self, comp: object, variables: Iterable[str]) -> None:
        super().__init__(comp)  # type: ignore[arg-type]
        self.variables = frozenset(variables)
        self._open: set[int] = set()

    def undetermined(self, body: A.Expr, ns: Namespace, env: Env) -> dict[str, A.Node | None]:
        """Each variable some path of ``body`` leaves unassigned, with the branch it escapes
        through (None: the formula has no branch that assigns it)."""
        p = self.paths(body, ns, env)
        return {v: p.gaps.get(v) for v in sorted(self.variables - p.assigned)}

    def _leaf(self, variables: Iterable[str | None]) -> Paths:
        return Paths(frozenset(v for v in variables if v is not None) & self.variables)

    def paths(self, node: A.Node, ns: Namespace, env: Env) -> Paths:
        return self.visit(node, (ns, env))

    def other(self, node: A.Node, c: At) -> Paths:
        return self._leaf(())

    def conj(self, node: A.Junction, c: At) -> Paths:
        return _all(self.visit(i, c) for i in node.items)

    def disj(self, node: A.Junction, c: At) -> Paths:
        return _any((i, self.visit(i, c)) for i in node.items)

    def relation(self, node: A.OpApp, c: At) -> Paths:
        return self._leaf([self.primed_var(node.args[0], *c)])

    def unchanged(self, node: A.Unchanged, c: At) -> Paths:
        return self._unchanged(node.expr, *c)

    def exists(self, node: A.Quant, c: At) -> Paths:
        ns, env = c
        names = [n for b in node.bounds for n in b.names]
        return self.paths(node.body, ns, env.extend(*(Binding(n, "val", 0, None) for n in names)))

    def if_(self, node: A.If, c: At) -> Paths:
        return _any([(node.then, self.visit(node.then, c)),
                     (node.else_, self.visit(node.else_, c))])

    def case(self, node: A.Case, c: At) -> Paths:
        arms = [arm for _, arm in node.arms] + ([node.other] if node.other else [])
        return _any((arm, self.visit(arm, c)) for arm in arms)

    def let(self, node: A.Let, c: At) -> Paths:
        ns, env = c
        return self.paths(node.body, ns, self._let(node, ns, env))

    def box(self, node: A.ActionBox, c: At) -> Paths:
        action = self.visit(node.action, c)
        if node.angle:
            return action
        return _any([(node.action, action), (node, self._unchanged(node.sub, *c))])

    def call(self, node: A.Name | A.OpApp, c: At) -> Paths:
        return self._call(node, *c)

    def _unchanged(self, target: A.Expr, ns: Namespace, env: Env) -> Paths:
        return self._leaf(self.var_name(*site) for site in unchanged_sites(self, target, ns, env))

    def _let(self, node: A.Let, ns: Namespace, env: Env) -> Env:
        for d in node.defs:
            if isinstance(d, A.OpDef):
                env = env.extend(Binding(d.name, "op" if d.params else "lazy", len(d.params),
                                         None, (d, ns, env)))
            elif isinstance(d, A.FnDef):
                env = env.extend(Binding(d.name, "lazy", 0, None))
        return env

    def _call(self, node: A.Name | A.OpApp, ns: Namespace, env: Env) -> Paths:
        args = getattr(node, "args", ())
        primed_arg = any(self.primed_var(a, ns, env) is not None for a in args)
        target: tuple[A.Node, Namespace, Env, int] | None = None
        b = None if node.module else env.get(node.name)
        if b is not None:
            if b.expr is not None and not args and has_stateful(b.expr[0]):
                target = (*b.expr, id(b))
            elif b.defn is not None and len(b.defn[0].params) == len(args):
                d, dns, denv = b.defn
                if primed_arg or self.comp.node_is_action(d.body, dns, {p.name for p in d.params}):
                    target = (d.body, dns, denv.extend(*self._by_expr(d.params, args, ns, env)),
                              id(d))
        else:
            entry = self.comp.resolve_entry(ns, node.name, node.module)
            if entry is not None and entry.ns is not None and not entry.ns.inst_params and (
                    primed_arg or self.comp.entry_is_action(entry)):
                if entry.kind == "subst":
                    target = (entry.node, entry.ns, Env(), id(entry))
                elif entry.kind == "op" and len(entry.node.params) == len(args):
                    target = (entry.node.body, entry.ns,
                              Env(self._by_expr(entry.node.params, args, ns, env)), id(entry))
        if target is None:
            return self._leaf(())
        body, tns, tenv, key = target
        if key in self._open:  # a recursive action: its own analysis decides
            return Paths(self.variables)
        self._open.add(key)
        try:
            return self.paths(body, tns, tenv)
        finally:
            self._open.discard(key)

    @staticmethod
    def _by_expr(params: tuple[A.Param, ...], args: tuple[A.Expr, ...], ns: Namespace,
                 env: Env) -> tuple[Binding, ...]:
        """Parameters standing for their argument expressions (nothing is evaluated)."""
        return tuple(
            Binding(p.name, "op", p.arity, None) if p.arity
            else Binding(p.name, "lazy", 0, None, expr=(a, ns, env))
            for p, a in zip(params, args, strict=True)
        )
