"""Coverage of an action: which conjuncts, disjuncts, CASE arms and IF conditions one
step made TRUE and which FALSE, through the operators the action calls.

Used only when coverage is asked for (the replay hot path never comes here).  The
action is walked as ENABLED walks it (:class:`~tlaconf.evaluate.enabled.Enabler`),
left to right with TLC's short-circuit order: for an accepted step every primed
variable is pre-assigned from ``s'`` (so a walk that reaches the end means ``A(p)``
holds from ``s`` to ``s'``), for a rejected step none is (the walk is ``ENABLED A(p)``
in ``s``).  Sub-formulas evaluated as a whole by ENABLED (calls of operators that do
not touch the next state) are walked too, so a guard inside such an operator is a
point of its own.  A point is *noted* with the value it had; a point ENABLED tried on
several branches can be noted both TRUE and FALSE in one step.

:func:`outline` lists an action's points statically, each with its role: a **guard**
is a conjunct in positive position that does not read the next state (no prime,
``UNCHANGED``, ``ENABLED``, action operator, or parameter passed a primed expression);
it is a *state guard* when it does not read the step's params either.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from tlaconf.evaluate.compiler import Compiler
from tlaconf.evaluate.enabled import Assignment, Enabler
from tlaconf.evaluate.lazy import Fail
from tlaconf.evaluate.namespace import Namespace
from tlaconf.evaluate.runtime import NextState
from tlaconf.evaluate.walk import Env
from tlaconf.tla import ast as A

if TYPE_CHECKING:
    from tlaconf.evaluate.context import Context

KINDS = ("conjunct", "disjunct", "case-arm", "other", "if")
"""Point kinds: an item of ``/\\``, an item of ``\\/``, a CASE arm's guard (TRUE = taken),
the OTHER arm (TRUE = taken), an IF condition."""


Key = tuple[str, int, int, int, int, str]
"""A coverage point: a sub-formula's span (file, line, col, end line, end col) and its kind."""

Noted = set[tuple[Key, bool]]


def key_of(node: A.Node, kind: str) -> Key:
    sp = node.span
    return (sp.file, sp.line, sp.col, sp.end_line, sp.end_col, kind)


class Coverer(Enabler):
    """Walks one action for one step and collects ``(point, value)`` pairs."""

    def __init__(self, comp: Compiler) -> None:
        super().__init__(comp)
        self.noted: Noted = set()

    def cover(
        self, node: A.Node, ns: Namespace, env: Env, state: Mapping[str, Any],
        next_state: Mapping[str, Any] | None,
    ) -> tuple[bool, Noted]:
        """Walk ``node`` for one step from ``state``; whether it holds (accepted: to
        ``next_state``; rejected, ``next_state`` None: is enabled) and what was noted.
        An evaluation error ends the walk; what was noted before it is kept."""
        self.noted = set()
        asg: Assignment = {} if next_state is None else dict(next_state)
        with self.in_state(state, NextState(asg)):
            try:
                held = next(iter(self.successors(node, ns, env, asg)), None) is not None
            except (Fail, RecursionError):
                held = False
        return held, self.noted

    def _note(self, node: A.Node, kind: str, value: bool) -> None:
        self.noted.add((key_of(node, kind), value))

    def _noting(self, node: A.Node, kind: str, it: Iterator[Assignment]) -> Iterator[Assignment]:
        """``it``, noting ``node`` TRUE at its first successor, FALSE if it has none."""
        found = False
        for a in it:
            if not found:
                found = True
                self._note(node, kind, True)
            yield a
        if not found:
            self._note(node, kind, False)

    # ------------------------------------------------- the action level

    def successors(
        self, node: A.Node, ns: Namespace, env: Env, asg: Assignment
    ) -> Iterator[Assignment]:
        if isinstance(node, A.Junction) or (
            isinstance(node, A.OpApp) and node.name in ("/\\", "\\/") and not node.module
        ):
            op = node.op if isinstance(node, A.Junction) else node.name
            items = node.items if isinstance(node, A.Junction) else node.args
            if op == "/\\":
                yield from self._cover_conj(items, 0, ns, env, asg)
            else:
                for item in items:
                    yield from self._noting(item, "disjunct", self.successors(item, ns, env, asg))
            return
        if isinstance(node, A.If):
            taken = self._test(node.cond, ns, env, asg)
            self._note(node.cond, "if", taken)
            yield from self.successors(node.then if taken else node.else_, ns, env, asg)
            return
        if isinstance(node, A.Case):
            for guard, arm in node.arms:
                taken = self._test(guard, ns, env, asg)
                self._note(guard, "case-arm", taken)
                if taken:
                    yield from self.successors(arm, ns, env, asg)
                    return
            if node.other is None:
                raise Fail("no CASE arm is TRUE (and there is no OTHER)", (), self.comp.sid(node))
            self._note(node.other, "other", True)
            yield from self.successors(node.other, ns, env, asg)
            return
        yield from super().successors(node, ns, env, asg)

    def _cover_conj(
        self, items: tuple[A.Expr, ...], i: int, ns: Namespace, env: Env, asg: Assignment
    ) -> Iterator[Assignment]:
        if i == len(items):
            yield asg
            return
        it = self.successors(items[i], ns, env, asg)
        for a in self._noting(items[i], "conjunct", it):
            yield from self._cover_conj(items, i + 1, ns, env, a)

    def _test(self, node: A.Node, ns: Namespace, env: Env, asg: Assignment) -> bool:
        self.N = NextState(asg)
        return self._value(node, ns, env)

    # ---------------------------------------------- inside a whole formula

    def _value(self, node: A.Node, ns: Namespace, env: Env) -> bool:
        """A boolean formula's value, walking (and noting) its structure as TLC evaluates."""
        if isinstance(node, A.Label):
            return self._value(node.expr, ns, env)
        if isinstance(node, A.Junction) or (
            isinstance(node, A.OpApp) and node.name in ("/\\", "\\/") and not node.module
        ):
            op = node.op if isinstance(node, A.Junction) else node.name
            items = node.items if isinstance(node, A.Junction) else node.args
            kind, stop = ("conjunct", False) if op == "/\\" else ("disjunct", True)
            for item in items:
                v = self._value(item, ns, env)
                self._note(item, kind, v)
                if v is stop:
                    return stop
            return not stop
        if isinstance(node, A.OpApp) and node.name == "=>" and not node.module:
            return not self._value(node.args[0], ns, env) or self._value(node.args[1], ns, env)
        if isinstance(node, A.OpApp) and node.name in ("~", "\\lnot", "\\neg") and not node.module:
            return not self._value(node.args[0], ns, env)
        if isinstance(node, A.Quant) and node.bounds and all(b.domain for b in node.bounds):
            want = node.kind == "E"
            for binding in self.bindings_of(node.bounds, ns, env, self.comp.sid(node)):
                if self._value(node.body, ns, env.extend(*binding)) is want:
                    return want
            return not want
        if isinstance(node, A.If):
            taken = self._value(node.cond, ns, env)
            self._note(node.cond, "if", taken)
            return self._value(node.then if taken else node.else_, ns, env)
        if isinstance(node, A.Case):
            for guard, arm in node.arms:
                taken = self._value(guard, ns, env)
                self._note(guard, "case-arm", taken)
                if taken:
                    return self._value(arm, ns, env)
            if node.other is None:
                raise Fail("no CASE arm is TRUE (and there is no OTHER)", (), self.comp.sid(node))
            self._note(node.other, "other", True)
            return self._value(node.other, ns, env)
        if isinstance(node, A.Let):
            return self._value(node.body, ns, self.bind_let(node, ns, env))
        if isinstance(node, A.Name | A.OpApp):
            called = self.call_target(node, ns, env, by_name=True)
            if called is not None:
                body, tns, tenv, _ = called
                return self._value(body, tns, tenv)
        return self.eval_bool(node, ns, env)


GUARD, STATE_GUARD, POINT = "guard", "state guard", "point"
"""Roles of a point: a guard that reads the step's params (the request), a guard that
reads only the state (it holds in every state the invariants allow, unless the spec is
stronger than them), any other point."""


def outline(
    comp: Compiler, node: A.Node, ns: Namespace, params: tuple[str, ...]
) -> dict[Key, str]:
    """Every point of an action (``node``, its body, with parameters ``params``), through
    the operators it calls, with its role.  A guard is a conjunct in positive position
    (its being FALSE makes that branch of the action FALSE) that does not read the next
    state.  Points come in the order a walk meets them; a point met in several roles
    keeps the first."""
    no_next: dict[Key, bool] = {}
    no_params: dict[Key, bool] = {}
    _Outline(comp, no_next, False).visit(
        node, ns, frozenset(params), frozenset(), {}, set(), True)
    _Outline(comp, no_params, True).visit(
        node, ns, frozenset(params), frozenset(params), {}, set(), True)
    return {k: (POINT if not g else STATE_GUARD if no_params.get(k) else GUARD)
            for k, g in no_next.items()}


class _Outline:
    """The static walk behind :func:`outline`: it descends where :class:`Coverer` does and
    notes each conjunct as positive and not reading what ``primed`` marks."""

    def __init__(self, comp: Compiler, out: dict[Key, bool], params_mode: bool) -> None:
        self.comp = comp
        self.out = out
        self.params_mode = params_mode
        """False: ``primed`` holds the names bound to next-state expressions; True: the
        names bound to expressions that read the action's params."""

    def reads(self, node: A.Node, ns: Namespace, bound: frozenset[str],
                   primed: frozenset[str]) -> bool:
        from tlaconf.evaluate.compiler import free_names

        if not self.params_mode and self.comp.node_is_action(node, ns, set(bound)):
            return True
        return any(n in primed for n, m in free_names(node, set()) if not m)

    def add(self, node: A.Node, kind: str, guard: bool) -> None:
        self.out.setdefault(key_of(node, kind), guard)

    def visit(
        self, node: A.Node, ns: Namespace, bound: frozenset[str], primed: frozenset[str],
        lets: dict[str, tuple[A.OpDef, Namespace, frozenset[str], frozenset[str]]],
        active: set[tuple[int, frozenset[str], bool]], positive: bool,
    ) -> None:
        """``positive``: the node being FALSE makes the action FALSE on that branch (not
        under a ``=>`` premise, a ``~``, an IF condition or a CASE guard)."""

        def go(n: A.Node, b: frozenset[str] = bound, pos: bool = positive) -> None:
            self.visit(n, ns, b, primed, lets, active, pos)

        if isinstance(node, A.Label):
            go(node.expr)
        elif isinstance(node, A.Junction) or (
            isinstance(node, A.OpApp) and node.name in ("/\\", "\\/") and not node.module
        ):
            op = node.op if isinstance(node, A.Junction) else node.name
            items = node.items if isinstance(node, A.Junction) else node.args
            for item in items:
                if op == "/\\":
                    self.add(item, "conjunct",
                             positive and not self.reads(item, ns, bound, primed))
                else:
                    self.add(item, "disjunct", False)
                go(item)
        elif isinstance(node, A.OpApp) and node.name == "=>" and not node.module:
            go(node.args[0], pos=False)
            go(node.args[1])
        elif isinstance(node, A.OpApp) and node.name == "~" and not node.module:
            go(node.args[0], pos=False)
        elif isinstance(node, A.Quant):
            names = frozenset(n for b in node.bounds for n in b.names)
            go(node.body, bound | names)
        elif isinstance(node, A.If):
            self.add(node.cond, "if", False)
            go(node.cond, pos=False)
            go(node.then)
            go(node.else_)
        elif isinstance(node, A.Case):
            for guard, arm in node.arms:
                self.add(guard, "case-arm", False)
                go(guard, pos=False)
                go(arm)
            if node.other is not None:
                self.add(node.other, "other", False)
                go(node.other)
        elif isinstance(node, A.Let):
            inner = dict(lets)
            names = bound | {d.name for d in node.defs if isinstance(d, A.OpDef | A.FnDef)}
            for d in node.defs:
                if isinstance(d, A.OpDef):
                    inner[d.name] = (d, ns, names, primed)
            self.visit(node.body, ns, names, primed, inner, active, positive)
        elif isinstance(node, A.ActionBox):
            go(node.action)
        elif isinstance(node, A.Name | A.OpApp):
            self.call(node, ns, bound, primed, lets, active, positive)

    def call(
        self, node: A.Name | A.OpApp, ns: Namespace, bound: frozenset[str],
        primed: frozenset[str],
        lets: dict[str, tuple[A.OpDef, Namespace, frozenset[str], frozenset[str]]],
        active: set[tuple[int, frozenset[str], bool]], positive: bool,
    ) -> None:
        args = getattr(node, "args", ())
        target: tuple[A.Node, Namespace, tuple[A.Param, ...], frozenset[str],
                      frozenset[str]] | None = None
        if not node.module and node.name in lets:
            d, dns, dbound, dprimed = lets[node.name]
            target = d.body, dns, d.params, dbound, dprimed
        elif not node.module and node.name in bound:
            return
        else:
            entry = self.comp.resolve_entry(ns, node.name, node.module)
            if entry is None or entry.ns is None or entry.ns.inst_params:
                return
            if entry.kind == "subst":
                target = entry.node, entry.ns, (), frozenset(), frozenset()
            elif entry.kind == "op":
                target = entry.node.body, entry.ns, entry.node.params, frozenset(), frozenset()
        if target is None:
            return
        body, tns, params, tbound, tprimed = target
        if len(params) != len(args):
            return
        new_primed = tprimed | {p.name for p, a in zip(params, args, strict=True)
                                if not p.arity and self.reads(a, ns, bound, primed)}
        key = (id(body), new_primed, positive)
        if key in active:
            return
        active.add(key)
        self.visit(body, tns, tbound | {p.name for p in params}, new_primed,
                   lets if tns is ns else {}, active, positive)
        active.discard(key)


class CoverageProbe:
    """Coverage of one loaded module's actions: :meth:`points` and :meth:`step`."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._coverer = Coverer(ctx.compiler)

    def points(self, action: str) -> dict[Key, str]:
        """The action's points (see :func:`outline`)."""
        entry = self.ctx._entry(action)
        node = entry.node
        params = tuple(p.name for p in getattr(node, "params", ()))
        return outline(self.ctx.compiler, node.body, entry.ns or self.ctx.ns, params)

    def step(
        self, action: str, args: tuple[Any, ...], state: Mapping[str, Any],
        next_state: Mapping[str, Any] | None,
    ) -> tuple[bool, Noted]:
        """Walk ``action(args)`` for one step (``next_state`` None: a rejected step)."""
        body, env = self.ctx._call_node(action, args)
        entry = self.ctx._entry(action)
        return self._coverer.cover(body, entry.ns or self.ctx.ns, env, state, next_state)
