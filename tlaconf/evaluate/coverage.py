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
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple, TypeAlias

from tlaconf.evaluate import budget
from tlaconf.evaluate.actionwalk import ActionVisitor, taken_arm
from tlaconf.evaluate.compiler import Compiler
from tlaconf.evaluate.enabled import Assignment, Enabler, Frame
from tlaconf.evaluate.fail import Fail
from tlaconf.evaluate.namespace import Namespace
from tlaconf.evaluate.runtime import NextState
from tlaconf.evaluate.walk import Env
from tlaconf.tla import ast as A
from tlaconf.tla.visit import free_names

if TYPE_CHECKING:
    from tlaconf.evaluate.context import Context

PointKind: TypeAlias = Literal["conjunct", "disjunct", "case-arm", "other", "if"]
"""Point kinds: an item of ``/\\``, an item of ``\\/``, a CASE arm's guard (TRUE = taken),
the OTHER arm (TRUE = taken), an IF condition."""

Key = tuple[str, int, int, int, int, PointKind]
"""A coverage point: a sub-formula's span (file, line, col, end line, end col) and its kind."""

Noted = set[tuple[Key, bool]]


def key_of(node: A.Node, kind: PointKind) -> Key:
    sp = node.span
    return (sp.file, sp.line, sp.col, sp.end_line, sp.end_col, kind)


class Coverer(Enabler):
    """Walks one action for one step and collects ``(point, value)`` pairs."""

    def __init__(self, comp: Compiler) -> None:
        super().__init__(comp)
        self.noted: Noted = set()
        self.through = False
        """Walk on past a FALSE conjunct (as if it were TRUE): what every other guard
        would be (for spec-driven testing's near misses; never for coverage itself)."""
        self.focus: frozenset[Key] | None = None
        """Only these points wanted (None: all), given with the call sites through which
        they are reached (:func:`outline`'s ``leads``): a sub-formula holding none of them
        is evaluated as a whole, not walked (much cheaper; for spec-driven testing)."""
        self._holds: dict[tuple[int, frozenset[Key]], bool] = {}
        self._valuer = _Valuer(self)

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

    def _note(self, node: A.Node, kind: PointKind, value: bool) -> None:
        self.noted.add((key_of(node, kind), value))

    def _noting(self, node: A.Node, kind: PointKind, it: Iterator[Assignment]
                ) -> Iterator[Assignment]:
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

    def conj(self, node: A.Junction, c: Frame) -> Iterator[Assignment]:
        yield from self._cover_conj(node.items, 0, *c)

    def disj(self, node: A.Junction, c: Frame) -> Iterator[Assignment]:
        ns, env, asg = c
        for item in node.items:
            yield from self._noting(item, "disjunct", self.successors(item, ns, env, asg))

    def if_(self, node: A.If, c: Frame) -> Iterator[Assignment]:
        ns, env, asg = c
        taken = self._test(node.cond, ns, env, asg)
        self._note(node.cond, "if", taken)
        yield from self.successors(node.then if taken else node.else_, ns, env, asg)

    def case(self, node: A.Case, c: Frame) -> Iterator[Assignment]:
        ns, env, asg = c
        yield from self.successors(self._valuer.arm(node, (ns, env), asg), ns, env, asg)

    def _cover_conj(
        self, items: tuple[A.Expr, ...], i: int, ns: Namespace, env: Env, asg: Assignment
    ) -> Iterator[Assignment]:
        if i == len(items):
            yield asg
            return
        it = self.successors(items[i], ns, env, asg)
        found = False
        for a in self._noting(items[i], "conjunct", it):
            found = True
            yield from self._cover_conj(items, i + 1, ns, env, a)
        if not found and self.through:
            yield from self._cover_conj(items, i + 1, ns, env, asg)

    def _test(self, node: A.Node, ns: Namespace, env: Env, asg: Assignment) -> bool:
        self.N = NextState(asg)
        if not self.wanted(node):
            return self.eval_bool(node, ns, env)
        return self._valuer.visit(node, (ns, env))

    def wanted(self, node: A.Node) -> bool:
        """Whether ``node`` may hold a point of :attr:`focus`."""
        focus = self.focus
        if focus is None:
            return True
        key = (id(node), focus)
        found = self._holds.get(key)
        if found is None:
            sp = node.span
            found = self._holds[key] = any(
                k[0] == sp.file and (sp.line, sp.col) <= (k[1], k[2])
                and (k[3], k[4]) <= (sp.end_line, sp.end_col) for k in focus)
        return found


Site = tuple[Namespace, Env]


class _Valuer(ActionVisitor[Site, bool]):
    """A boolean formula's value inside a coverage walk, walking (and noting) its
    structure as TLC evaluates it, with the walk's state."""

    def __init__(self, w: Coverer) -> None:
        self.w = w

    def arm(self, node: A.Case, c: Site, asg: Assignment | None = None) -> A.Expr:
        """The arm ``node`` takes, each guard tested noted (with ``asg``: the primed
        variables assigned so far)."""

        def test(guard: A.Expr) -> bool:
            if asg is not None:
                self.w.N = NextState(asg)
            taken = self.visit(guard, c)
            self.w._note(guard, "case-arm", taken)
            return taken

        arm = taken_arm(node, test, self.w.comp.sid(node))
        if arm is node.other:
            self.w._note(arm, "other", True)
        return arm

    def other(self, node: A.Node, c: Site) -> bool:
        return self.w.eval_bool(node, *c)

    def _junction(self, node: A.Junction, c: Site, kind: PointKind, stop: bool) -> bool:
        result = not stop
        for item in node.items:
            v = self.visit(item, c)
            self.w._note(item, kind, v)
            if v is stop:
                result = stop
                if not self.w.through:
                    break
        return result

    def conj(self, node: A.Junction, c: Site) -> bool:
        return self._junction(node, c, "conjunct", False)

    def disj(self, node: A.Junction, c: Site) -> bool:
        return self._junction(node, c, "disjunct", True)

    def implies(self, node: A.OpApp, c: Site) -> bool:
        return not self.visit(node.args[0], c) or self.visit(node.args[1], c)

    def negation(self, node: A.OpApp, c: Site) -> bool:
        return not self.visit(node.args[0], c)

    def _quant(self, node: A.Quant, c: Site) -> bool:
        if not node.bounds or not all(b.domain for b in node.bounds) or not self.w.wanted(node):
            return self.other(node, c)
        ns, env = c
        want = node.kind == "E"
        for binding in self.w.bindings_of(node.bounds, ns, env, self.w.comp.sid(node)):
            if self.visit(node.body, (ns, env.extend(*binding))) is want:
                return want
        return not want

    forall = exists = _quant

    def if_(self, node: A.If, c: Site) -> bool:
        taken = self.visit(node.cond, c)
        self.w._note(node.cond, "if", taken)
        return self.visit(node.then if taken else node.else_, c)

    def case(self, node: A.Case, c: Site) -> bool:
        return self.visit(self.arm(node, c), c)

    def let(self, node: A.Let, c: Site) -> bool:
        ns, env = c
        return self.visit(node.body, (ns, self.w.bind_let(node, ns, env)))

    def call(self, node: A.Name | A.OpApp, c: Site) -> bool:
        called = self.w.call_target(node, *c, by_name=True)
        if called is None or not self.w.wanted(called[0]):
            return self.other(node, c)
        body, tns, tenv, _ = called
        return self.visit(body, (tns, tenv))


Role: TypeAlias = Literal["guard", "state guard", "point"]
"""Roles of a point: a guard that reads the step's params (the request), a guard that
reads only the state (it holds in every state the invariants allow, unless the spec is
stronger than them), any other point."""

GUARD: Final = "guard"
STATE_GUARD: Final = "state guard"
POINT: Final = "point"


def outline(
    comp: Compiler, node: A.Node, ns: Namespace, params: tuple[str, ...],
    leads: set[Key] | None = None,
) -> dict[Key, Role]:
    """Every point of an action (``node``, its body, with parameters ``params``), through
    the operators it calls, with its role.  A guard is a conjunct in positive position
    (its being FALSE makes that branch of the action FALSE) that does not read the next
    state.  Points come in the order a walk meets them; a point met in several roles
    keeps the first.  ``leads``, when given, gets the spans of the call sites through which
    a point lies in a called operator (a walk that wants those points must go through
    them)."""
    no_next: dict[Key, bool] = {}
    no_params: dict[Key, bool] = {}
    first = _Outline(comp, no_next, False)
    first.visit(node, _Where(ns, frozenset(params), frozenset(), {}, True))
    if leads is not None:
        leads |= first.leads
    _Outline(comp, no_params, True).visit(
        node, _Where(ns, frozenset(params), frozenset(params), {}, True))
    return {k: (POINT if not g else STATE_GUARD if no_params.get(k) else GUARD)
            for k, g in no_next.items()}


Lets = Mapping[str, tuple[A.OpDef, Namespace, frozenset[str], frozenset[str]]]


class _Where(NamedTuple):
    """Where :class:`_Outline` is: the namespace, the names bound, those of them that
    read what the outline looks for, the LET operators in scope and whether the node
    is in positive position (its being FALSE makes that branch of the action FALSE:
    not under a ``=>`` premise, a ``~``, an IF condition or a CASE guard)."""

    ns: Namespace
    bound: frozenset[str]
    primed: frozenset[str]
    lets: Lets
    positive: bool

    def negative(self) -> _Where:
        return self._replace(positive=False)


class _Outline(ActionVisitor[_Where, None]):
    """The static walk behind :func:`outline`: it descends where :class:`Coverer` does and
    notes each conjunct as positive and not reading what ``primed`` marks."""

    def __init__(self, comp: Compiler, out: dict[Key, bool], params_mode: bool) -> None:
        self.comp = comp
        self.out = out
        self.params_mode = params_mode
        """False: ``primed`` holds the names bound to next-state expressions; True: the
        names bound to expressions that read the action's params."""
        self.active: set[tuple[int, frozenset[str], bool]] = set()
        self.calls: list[Key] = []
        """The call sites the walk is inside (a LET's body included)."""
        self.leads: set[Key] = set()
        """Call sites through which some point was reached (see :func:`outline`)."""

    def reads(self, node: A.Node, w: _Where) -> bool:
        if not self.params_mode and self.comp.node_is_action(node, w.ns, set(w.bound)):
            return True
        return any(n in w.primed for n, m in free_names(node) if not m)

    def add(self, node: A.Node, kind: PointKind, guard: bool) -> None:
        self.out.setdefault(key_of(node, kind), guard)
        self.leads.update(self.calls)

    def other(self, node: A.Node, c: _Where) -> None:
        return None

    def conj(self, node: A.Junction, c: _Where) -> None:
        for item in node.items:
            self.add(item, "conjunct", c.positive and not self.reads(item, c))
            self.visit(item, c)

    def disj(self, node: A.Junction, c: _Where) -> None:
        for item in node.items:
            self.add(item, "disjunct", False)
            self.visit(item, c)

    def implies(self, node: A.OpApp, c: _Where) -> None:
        self.visit(node.args[0], c.negative())
        self.visit(node.args[1], c)

    def negation(self, node: A.OpApp, c: _Where) -> None:
        self.visit(node.args[0], c.negative())

    def _quant(self, node: A.Quant, c: _Where) -> None:
        names = frozenset(n for b in node.bounds for n in b.names)
        self.visit(node.body, c._replace(bound=c.bound | names))

    forall = exists = _quant

    def if_(self, node: A.If, c: _Where) -> None:
        self.add(node.cond, "if", False)
        self.visit(node.cond, c.negative())
        self.visit(node.then, c)
        self.visit(node.else_, c)

    def case(self, node: A.Case, c: _Where) -> None:
        for guard, arm in node.arms:
            self.add(guard, "case-arm", False)
            self.visit(guard, c.negative())
            self.visit(arm, c)
        if node.other is not None:
            self.add(node.other, "other", False)
            self.visit(node.other, c)

    def let(self, node: A.Let, c: _Where) -> None:
        inner = dict(c.lets)
        names = c.bound | {d.name for d in node.defs if isinstance(d, A.OpDef | A.FnDef)}
        for d in node.defs:
            if isinstance(d, A.OpDef):
                inner[d.name] = (d, c.ns, names, c.primed)
        self.visit(node.body, c._replace(bound=names, lets=inner))

    def box(self, node: A.ActionBox, c: _Where) -> None:
        self.visit(node.action, c)

    def call(self, node: A.Name | A.OpApp, c: _Where) -> None:
        args = getattr(node, "args", ())
        target: tuple[A.Node, Namespace, tuple[A.Param, ...], frozenset[str],
                      frozenset[str]] | None = None
        if not node.module and node.name in c.lets:
            d, dns, dbound, dprimed = c.lets[node.name]
            target = d.body, dns, d.params, dbound, dprimed
        elif not node.module and node.name in c.bound:
            return
        else:
            entry = self.comp.resolve_entry(c.ns, node.name, node.module)
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
                                if not p.arity and self.reads(a, c)}
        key = (id(body), new_primed, c.positive)
        if key in self.active:
            return
        self.active.add(key)
        self.calls.append(key_of(node, "other"))
        self.visit(body, _Where(tns, tbound | {p.name for p in params}, new_primed,
                                c.lets if tns is c.ns else {}, c.positive))
        self.calls.pop()
        self.active.discard(key)


class CoverageProbe:
    """Coverage of one loaded module's actions: :meth:`points` and :meth:`step`."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._coverer = Coverer(ctx.compiler)

    def points(self, action: str, leads: set[Key] | None = None) -> dict[Key, Role]:
        """The action's points (see :func:`outline`; ``leads`` gets the call sites through
        which they are reached)."""
        entry = self.ctx._entry(action)
        node = entry.node
        params = tuple(p.name for p in getattr(node, "params", ()))
        with budget.deep():
            return outline(self.ctx.compiler, node.body, entry.ns or self.ctx.ns, params,
                           leads)

    def step(
        self, action: str, args: tuple[Any, ...], state: Mapping[str, Any],
        next_state: Mapping[str, Any] | None, through: bool = False,
        focus: frozenset[Key] | None = None,
    ) -> tuple[bool, Noted]:
        """Walk ``action(args)`` for one step (``next_state`` None: a rejected step);
        ``through``: on past FALSE conjuncts (see :attr:`Coverer.through`; what it says
        holds is then meaningless); ``focus``: only these points wanted
        (:attr:`Coverer.focus`)."""
        body, env = self.ctx.call_node(action, args)
        entry = self.ctx._entry(action)
        w = self._coverer
        w.through, w.focus = through, focus
        try:
            with budget.deep():
                return w.cover(body, entry.ns or self.ctx.ns, env, state, next_state)
        finally:
            w.through, w.focus = False, None
