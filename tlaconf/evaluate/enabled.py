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

ENABLED written inside an instantiated module (``WF_hr(HCnxt)`` in ``HourClock``, read
through ``H == INSTANCE HourClock WITH hr <- m \\div 2``) is decided as TLC decides it
(its context is cut where ENABLED starts): the instance's variables are its own, so
``hr'`` is assigned by the action, while an unprimed ``hr`` is the substituted
expression's value in the state (:class:`Detached`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from tlaconf.evaluate.actionwalk import taken_arm
from tlaconf.evaluate.assigned import unchanged_sites
from tlaconf.evaluate.compiler import Compiler
from tlaconf.evaluate.compiler import flatten_tuple as unchanged_items
from tlaconf.evaluate.fail import Fail
from tlaconf.evaluate.lazysets import enum_set
from tlaconf.evaluate.namespace import Entry, Namespace
from tlaconf.evaluate.runtime import NO_NEXT, NextState
from tlaconf.evaluate.semantics import equal
from tlaconf.evaluate.walk import Env, Walker
from tlaconf.tla import ast as A

Assignment = dict[str, Any]
Frame = tuple[Namespace, Env, Assignment]
"""What the walk carries: the namespace, the bound names, the primed variables assigned."""


@dataclass(frozen=True)
class Detached:
    """An instantiated module's namespace as an ENABLED written in it reads it: ``ns`` is
    the module instantiated again with each substituted variable ``x`` replaced by a
    variable of its own, named ``fresh[x]`` in the state; ``read[x]`` evaluates the
    substituted expression (in the original namespace ``orig``); ``variables`` are the
    state's names of the instance's variables that ``orig`` sees."""

    ns: Namespace
    orig: Namespace
    fresh: dict[str, str]
    variables: tuple[str, ...]


class Enabler(Walker[Frame, Iterator[Assignment]]):
    def __init__(self, comp: Compiler) -> None:
        super().__init__(comp)
        self._detach_cache: dict[int, tuple[Namespace, Detached | None]] = {}

    def enabled(
        self, node: A.Node, ns: Namespace, env: Env, variables: tuple[str, ...], state: Any
    ) -> bool:
        """``ENABLED node`` in ``state``."""
        return self.successor(node, ns, env, variables, state) is not None

    def first(self, node: A.Node, ns: Namespace, env: Env, state: Any) -> Assignment | None:
        """The first assignment of primed variables with which ``node`` holds in
        ``state`` (TLC's ENABLED: a variable it leaves unassigned may take any value)."""
        ns, state, _ = self.detach(ns, state, ())
        with self.in_state(state, NextState({})):
            return next(iter(self.successors(node, ns, env, {})), None)

    def detach(self, ns: Namespace, state: Any, variables: tuple[str, ...]
               ) -> tuple[Namespace, Any, tuple[str, ...]]:
        """Where ENABLED written in ``ns`` is walked, in which state, and which variables
        its action must assign (``ns``, ``state`` and ``variables`` themselves, unless
        ``ns`` belongs to an instance that substitutes its variables: :class:`Detached`)."""
        if ns.origin is None:
            return ns, state, variables
        d = self._detached(ns)
        if d is None:
            return ns, state, variables
        with self.in_state(state, NO_NEXT):
            own = {f: self.eval(A.Name(x), d.orig, Env()) for x, f in d.fresh.items()}
        return d.ns, {**state, **own}, d.variables

    def _detached(self, ns: Namespace) -> Detached | None:
        hit = self._detach_cache.get(id(ns))
        if hit is None or hit[0] is not ns:
            hit = self._detach_cache[id(ns)] = (ns, _detached(self, ns))
        return hit[1]

    def successor(
        self, node: A.Node, ns: Namespace, env: Env, variables: tuple[str, ...], state: Any
    ) -> Assignment | None:
        """The first successor of ``state`` that ``node`` allows (TLC's search order), or
        None when there is none."""
        ns, state, variables = self.detach(ns, state, variables)
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




def _detached(w: Walker, ns: Namespace) -> Detached | None:
    """``ns`` as ENABLED reads it (TLC cuts the context where ENABLED starts, so that
    the instance's variables are looked up as its own when primed), or None when the
    substitutions already give it the same meaning: each variable is substituted by a
    distinct variable of the instantiating module."""
    o = ns.origin
    assert o is not None
    declared = _variables(o.loader.modules, o.inst.module)
    seen = {x: e for x in declared if (e := ns.entries.get(x)) is not None}
    targets = [w.entry_var(e) for e in seen.values()]
    if None not in targets and len(set(targets)) == len(targets):
        return None
    if o.params:
        raise Fail(f"ENABLED inside {ns.name}, an instance with parameters whose variables "
                   "are substituted by expressions, is not supported")
    fresh = {x: f"{o.inst.module}!{x}" for x, e in seen.items() if e.kind != "var"}
    given = dict(o.inst.substitutions)
    subs = tuple((x, A.Name(fresh[x], span=e.span) if x in fresh else e)
                 for x, e in given.items())
    subs += tuple((x, A.Name(f)) for x, f in fresh.items() if x not in given)
    outer = Namespace(o.outer.name, dict(o.outer.entries), o.outer.variables,
                      o.outer.inst_params, o.outer.inst_py, origin=o.outer.origin)
    outer.entries.update({f: Entry("var", f) for f in fresh.values()})
    return Detached(o.rebuild(subs, outer), ns, fresh,
                    tuple(fresh.get(x) or seen[x].name for x in seen))


def _variables(modules: Mapping[str, A.Module], name: str) -> list[str]:
    """The VARIABLEs of module ``name`` and of the modules it EXTENDS."""
    out: list[str] = []
    todo, done = [name], set()
    while todo:
        m = modules.get(todo.pop())
        if m is None or m.name in done:
            continue
        done.add(m.name)
        todo += m.extends
        out += [n for u in m.units if isinstance(u, A.Variable) for n in u.names]
    return list(dict.fromkeys(out))
