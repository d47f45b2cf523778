"""ENABLED, computed as TLC computes successor states.

The action is walked left to right: a conjunct ``x' = e`` assigns ``x'`` when it is
still unassigned (otherwise it is a test), ``x' \\in S`` tries every element of
``S``, ``UNCHANGED x`` assigns ``x' = x`` (also through ``vars == <<x, y>>``),
disjunctions and ``\\E`` branch, ``IF``/``CASE``/``LET`` and calls of defined
operators are followed.  Every
other conjunct is evaluated with the primed variables assigned so far; reading
an unassigned one is an error naming it.  The action is enabled when some branch
reaches its end; a branch that ends with a variable still unassigned is an error
(the action does not determine the successor state).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tlaconf.evaluate.actionwalk import taken_arm
from tlaconf.evaluate.assigned import unchanged_sites
from tlaconf.evaluate.compiler import flatten_tuple as unchanged_items
from tlaconf.evaluate.fail import Fail
from tlaconf.evaluate.lazysets import enum_set
from tlaconf.evaluate.namespace import Namespace
from tlaconf.evaluate.runtime import NextState
from tlaconf.evaluate.semantics import equal
from tlaconf.evaluate.walk import Env, Walker
from tlaconf.tla import ast as A

Assignment = dict[str, Any]
Frame = tuple[Namespace, Env, Assignment]
"""What the walk carries: the namespace, the bound names, the primed variables assigned."""


class Enabler(Walker[Frame, Iterator[Assignment]]):
    def enabled(
        self, node: A.Node, ns: Namespace, env: Env, variables: tuple[str, ...], state: Any
    ) -> bool:
        """``ENABLED node`` in ``state``."""
        return self.successor(node, ns, env, variables, state) is not None

    def successor(
        self, node: A.Node, ns: Namespace, env: Env, variables: tuple[str, ...], state: Any
    ) -> Assignment | None:
        """The first successor of ``state`` that ``node`` allows (TLC's search order), or
        None when there is none."""
        with self.in_state(state, NextState({})):
            for asg in self.successors(node, ns, env, {}):
                missing = [v for v in variables if v not in asg]
                if missing:
                    raise Fail(
                        "the action leaves " + ", ".join(f"{v}'" for v in missing)
                        + " unassigned, so ENABLED cannot be decided", (), self.comp.sid(node))
                return asg
            return None

    def _eval(self, node: A.Node, ns: Namespace, env: Env, asg: Assignment) -> Any:
        self.N = NextState(asg)
        return self.eval(node, ns, env)

    def _test(self, node: A.Node, ns: Namespace, env: Env, asg: Assignment) -> bool:
        self.N = NextState(asg)
        return self.eval_bool(node, ns, env)

    def successors(
        self, node: A.Node, ns: Namespace, env: Env, asg: Assignment
    ) -> Iterator[Assignment]:
        """Every assignment of the primed variables that extends ``asg`` and with which
        ``node`` holds, in TLC's order."""
        return self.visit(node, (ns, env, asg))

    def other(self, node: A.Node, c: Frame) -> Iterator[Assignment]:
        ns, env, asg = c
        if self._test(node, ns, env, asg):
            yield asg

    def conj(self, node: A.Junction, c: Frame) -> Iterator[Assignment]:
        ns, env, asg = c
        yield from self._conj(node.items, 0, ns, env, asg)

    def disj(self, node: A.Junction, c: Frame) -> Iterator[Assignment]:
        ns, env, asg = c
        for item in node.items:
            yield from self.successors(item, ns, env, asg)

    def relation(self, node: A.OpApp, c: Frame) -> Iterator[Assignment]:
        ns, env, asg = c
        var = self.primed_var(node.args[0], ns, env)
        if var is None or var in asg:
            yield from self.call(node, c)
            return
        value = self._eval(node.args[1], ns, env, asg)
        if node.name == "=":
            yield {**asg, var: value}
            return
        for v in sorted_values(enum_set(value, self.comp.sid(node))):
            yield {**asg, var: v}

    def unchanged(self, node: A.Unchanged, c: Frame) -> Iterator[Assignment]:
        yield from self._unchanged(node.expr, *c)

    def exists(self, node: A.Quant, c: Frame) -> Iterator[Assignment]:
        ns, env, asg = c
        for binding in self.bindings_of(node.bounds, ns, env, self.comp.sid(node)):
            yield from self.successors(node.body, ns, env.extend(*binding), asg)

    def if_(self, node: A.If, c: Frame) -> Iterator[Assignment]:
        ns, env, asg = c
        branch = node.then if self._test(node.cond, ns, env, asg) else node.else_
        yield from self.successors(branch, ns, env, asg)

    def case(self, node: A.Case, c: Frame) -> Iterator[Assignment]:
        ns, env, asg = c
        arm = taken_arm(node, lambda g: self._test(g, ns, env, asg), self.comp.sid(node))
        yield from self.successors(arm, ns, env, asg)

    def let(self, node: A.Let, c: Frame) -> Iterator[Assignment]:
        ns, env, asg = c
        self.N = NextState(asg)
        yield from self.successors(node.body, ns, self.bind_let(node, ns, env), asg)

    def box(self, node: A.ActionBox, c: Frame) -> Iterator[Assignment]:
        ns, env, asg = c
        if node.angle:
            for a in self.successors(node.action, ns, env, asg):
                if not all(self._same(it, ns, env, a) for it in unchanged_items(node.sub)):
                    yield a
        else:
            yield from self.successors(node.action, ns, env, asg)
            yield from self._unchanged(node.sub, ns, env, asg)

    def call(self, node: A.Name | A.OpApp, c: Frame) -> Iterator[Assignment]:
        ns, env, asg = c
        if self.may_assign(node, ns, env, asg):
            self.N = NextState(asg)
            called = self.call_target(node, ns, env, by_name=True)
            if called is not None:
                body, tns, tenv, _ = called
                yield from self.successors(body, tns, tenv, asg)
                return
        yield from self.other(node, c)

    def may_assign(self, node: A.Name | A.OpApp, ns: Namespace, env: Env,
                   asg: Assignment) -> bool:
        """Whether a call must be walked (its body is an action, or an argument is a
        still unassigned ``x'``); otherwise it is evaluated as a whole, compiled."""
        for a in getattr(node, "args", ()):
            var = self.primed_var(a, ns, env)
            if var is not None and var not in asg:
                return True
        if not node.module:
            b = env.get(node.name)
            if b is not None:
                if b.defn is None:
                    return False
                d, dns, _ = b.defn
                return self.comp.node_is_action(d.body, dns, {p.name for p in d.params})
        entry = self.comp.resolve_entry(ns, node.name, node.module)
        return entry is not None and self.comp.entry_is_action(entry)

    def _conj(
        self, items: tuple[A.Expr, ...], i: int, ns: Namespace, env: Env, asg: Assignment
    ) -> Iterator[Assignment]:
        if i == len(items):
            yield asg
            return
        for a in self.successors(items[i], ns, env, asg):
            yield from self._conj(items, i + 1, ns, env, a)

    def _unchanged(
        self, target: A.Expr, ns: Namespace, env: Env, asg: Assignment
    ) -> Iterator[Assignment]:
        out = dict(asg)
        for it, ins, ienv in unchanged_sites(self, target, ns, env):
            var = self.var_name(it, ins, ienv)
            if var is not None and var not in out:
                out[var] = self.S[var]
            elif not self._same(it, ins, ienv, out):
                return
        yield out

    def _same(self, item: A.Node, ns: Namespace, env: Env, asg: Assignment) -> bool:
        self.N = NextState(asg)
        sid = self.comp.sid(item)
        return equal(self.eval(item, ns, env, primed=True), self.eval(item, ns, env), sid)


def sorted_values(s: frozenset[Any]) -> list[Any]:
    from tlaconf.values import canonical

    return canonical(s)


