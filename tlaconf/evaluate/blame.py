"""Blame: why a boolean formula is FALSE, as a tree down to the innermost failing part.

Computed only on failure, by walking the formula's AST again with the same state:
a conjunction blames its first FALSE conjunct, a disjunction every disjunct, an
implication its conclusion, ``\\A`` its first counterexample (in canonical
order), IF the branch taken, CASE the arm taken, LET its body, and an
application of a defined operator that operator's body.  Each node carries the
source text and span of its sub-formula and the values of the names it uses.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any

from tlaconf.evaluate.actionwalk import ActionVisitor, taken_arm
from tlaconf.evaluate.enabled import Assignment, Enabler, Frame
from tlaconf.evaluate.fail import Fail
from tlaconf.evaluate.fail import show as _show
from tlaconf.evaluate.levels import has_stateful
from tlaconf.evaluate.namespace import Namespace
from tlaconf.evaluate.runtime import NextState
from tlaconf.evaluate.walk import Env, Walker
from tlaconf.tla import ast as A
from tlaconf.tla.visit import free_names, iter_nodes

Site = tuple[Namespace, Env]
NO_WITNESS = "no witness for \\E"
NO_DISJUNCT = "no disjunct holds"
WITNESS = "under this witness"
"""The reason of a node holding one witness of a FALSE ``\\E`` (its bindings) above the
body's blame (:class:`Disabled`)."""
GUARD = " (a guard)"
"""Added after "conjunct i of n" when that conjunct reads no next state and every
conjunct before it does neither (the branch's guards: in a trace spec, the tests of the
logged event that select the branch); only when a walk is asked to mark them."""
_WITNESSES = 32
"""At most this many witnesses of a FALSE ``\\E`` are blamed one by one."""


@dataclass(frozen=True)
class Blame:
    text: str
    span: A.Span
    reason: str
    bindings: tuple[tuple[str, str], ...]
    children: tuple[Blame, ...] = ()

    def innermost(self) -> Blame:
        """Follows the first child down to a leaf."""
        node = self
        while node.children:
            node = node.children[0]
        return node

    def render(self, indent: int = 0) -> str:
        """The tree as indented text."""
        pad = "  " * indent
        lines = [f"{pad}{self.span}: {self.text}  -- {self.reason}"]
        lines += [f"{pad}    {n} = {v}" for n, v in self.bindings]
        lines += [c.render(indent + 1) for c in self.children]
        return "\n".join(lines)


class Blamer(Walker["Site", Blame]):
    """The blame walk; with ``guards`` (a trace spec's diagnosis), a conjunction says
    when the conjunct that failed is a guard (:data:`GUARD`) and a leaf shows the values
    of the state definitions it reads (``logline == TraceLog[l]``)."""

    def __init__(self, comp: Any, texts: Mapping[str, str], guards: bool = False) -> None:
        super().__init__(comp)
        self.texts = texts
        self.witnesses = False
        self.guards = guards

    def text(self, node: A.Node) -> str:
        sp = node.span
        src = self.texts.get(sp.file)
        if src is None or sp.line <= 0:
            return type(node).__name__
        lines = src.splitlines()[sp.line - 1 : sp.end_line]
        if not lines:
            return type(node).__name__
        if len(lines) == 1:
            lines[0] = lines[0][sp.col - 1 : sp.end_col]
        else:
            lines[0] = lines[0][sp.col - 1 :]
            lines[-1] = lines[-1][: sp.end_col]
        return " ".join(" ".join(x.split()) for x in lines).strip()

    def bindings(self, node: A.Node, ns: Namespace, env: Env) -> tuple[tuple[str, str], ...]:
        """The names ``node`` uses (bound names, constants, variables, primed variables)."""
        out: dict[str, str] = {}
        state, nxt = self.S, self.N
        primed = _primed_names(node)
        for name, module in sorted(free_names(node, set())):
            if module:
                continue
            b = env.get(name)
            if b is not None:
                if b.kind == "val":
                    out[name] = show(b.value)
                elif b.kind == "lazy":
                    try:
                        out[name] = show(b.value())
                    except Exception:  # a value that fails is shown as such
                        out[name] = "(cannot be evaluated)"
                continue
            entry = self.comp.resolve_entry(ns, name, ())
            if entry is None:
                continue
            if entry.kind == "const":
                out[name] = show(entry.value)
            elif self.guards and self._state_definition(entry):
                try:  # a definition of the state (logline == TraceLog[l]): its value
                    out[name] = show(self.eval(A.Name(name, span=node.span), ns, env))
                except Fail:
                    out[name] = "(cannot be evaluated)"
            var = self.entry_var(entry)
            if var is not None:
                if var in state:
                    out[name] = show(state[var])
                if name in primed and _has(nxt, var):
                    out[f"{name}'"] = show(nxt[var])
        return tuple(out.items())

    def _state_definition(self, entry: Any) -> bool:
        """A definition without parameters that reads the state but no next state."""
        return (entry.kind == "op" and isinstance(entry.node, A.OpDef)
                and not entry.node.params and not self.comp.levels.entry_is_const(entry)
                and not self.comp.entry_is_action(entry))

    def leaf(self, node: A.Node, ns: Namespace, env: Env, reason: str) -> Blame:
        return Blame(self.text(node), node.span, reason, self.bindings(node, ns, env))

    def explain(self, node: A.Node, ns: Namespace, env: Env, state: Any, nxt: Any,
                witnesses: bool = False) -> Blame:
        """Why ``node`` (known to be FALSE from ``state`` to ``nxt``) is FALSE; with
        ``witnesses``, a FALSE ``\\E`` is blamed for each of its first witnesses (for
        a search that picks the nearest), else it is a leaf."""
        self.witnesses = witnesses
        try:
            with self.in_state(state, nxt):
                return self.blame(node, ns, env)
        finally:
            self.witnesses = False

    def blame(self, node: A.Node, ns: Namespace, env: Env) -> Blame:
        """The explanation of why ``node`` (known to be FALSE) is FALSE."""
        while isinstance(node, A.Label):
            node = node.expr
        try:
            return self.visit(node, (ns, env))
        except Fail as err:
            return self.leaf(node, ns, env, f"cannot be evaluated: {err.message}")

    def other(self, node: A.Node, c: Site) -> Blame:
        return self.leaf(node, *c, "is FALSE")

    def conj(self, node: A.Junction, c: Site) -> Blame:
        ns, env = c
        for i, item in enumerate(node.items, 1):
            if not self.eval_bool(item, ns, env):
                child = self.blame(item, ns, env)
                mark = self.guards and guarded(self.comp, node.items[:i], ns, env)
                return Blame(self.text(node), node.span, conjunct(i, len(node.items), mark),
                             (), (child,))
        return self.other(node, c)

    def disj(self, node: A.Junction, c: Site) -> Blame:
        kids = tuple(self.blame(item, *c) for item in node.items)
        return Blame(self.text(node), node.span, NO_DISJUNCT, (), kids)

    def implies(self, node: A.OpApp, c: Site) -> Blame:
        child = self.blame(node.args[1], *c)
        return Blame(self.text(node), node.span, "the premise holds, the conclusion is FALSE",
                     (), (child,))

    def forall(self, node: A.Quant, c: Site) -> Blame:
        ns, env = c
        sid = self.comp.sid(node)
        for binding in self.bindings_of(node.bounds, ns, env, sid):
            inner = env.extend(*binding)
            if not self.eval_bool(node.body, ns, inner):
                child = self.blame(node.body, ns, inner)
                return Blame(self.text(node), node.span, "counterexample for \\A",
                             tuple((b.name, show(b.value)) for b in binding), (child,))
        return self.other(node, c)

    def exists(self, node: A.Quant, c: Site) -> Blame:
        """No witness: the body's blame for each of the first witnesses (as a
        disjunction's for each disjunct) when asked; a leaf when the domain is empty or
        large, or not asked."""
        ns, env = c
        if not self.witnesses:
            return self.leaf(node, ns, env, NO_WITNESS)
        sid = self.comp.sid(node)
        kids: list[Blame] = []
        for binding in self.bindings_of(node.bounds, ns, env, sid):
            if len(kids) == _WITNESSES:
                return self.leaf(node, ns, env, NO_WITNESS)
            child = self.blame(node.body, ns, env.extend(*binding))
            kids.append(Blame(child.text, child.span, child.reason,
                              tuple((b.name, show(b.value)) for b in binding) + child.bindings,
                              child.children))
        if not kids:
            return self.leaf(node, ns, env, NO_WITNESS)
        return Blame(self.text(node), node.span, NO_WITNESS, (), tuple(kids))

    def if_(self, node: A.If, c: Site) -> Blame:
        ns, env = c
        taken = self.eval_bool(node.cond, ns, env)
        child = self.blame(node.then if taken else node.else_, ns, env)
        if taken:
            reason = "the condition is TRUE; the THEN branch is FALSE"
        else:  # the part of the condition that decided, as the guard that failed
            decided = self.blame(node.cond, ns, env).innermost()
            because = "" if decided.span == node.cond.span else f" ({decided.text} is FALSE)"
            reason = f"the condition is FALSE{because}; the ELSE branch is FALSE"
        return Blame(self.text(node), node.span, reason,
                     self.bindings(node.cond, ns, env), (child,))

    def case(self, node: A.Case, c: Site) -> Blame:
        ns, env = c
        tested: list[A.Expr] = []

        def test(guard: A.Expr) -> bool:
            tested.append(guard)
            return self.eval_bool(guard, ns, env)

        arm = taken_arm(node, test, self.comp.sid(node))
        child = self.blame(arm, ns, env)
        if len(tested) == len(node.arms) and arm is node.other:
            return Blame(self.text(node), node.span, "the OTHER arm is taken and FALSE",
                         (), (child,))
        return Blame(self.text(node), node.span, f"CASE arm {len(tested)} is taken and FALSE",
                     self.bindings(tested[-1], ns, env), (child,))

    def let(self, node: A.Let, c: Site) -> Blame:
        ns, env = c
        return self.blame(node.body, ns, self.bind_let(node, ns, env))

    def call(self, node: A.Name | A.OpApp, c: Site) -> Blame:
        called = self.call_target(node, *c)
        if called is None:
            return self.other(node, c)
        body, tns, tenv, name = called
        child = self.blame(body, tns, tenv)
        params = tuple((b.name, show(b.value)) for b in tenv.bindings if b.kind == "val")
        return Blame(self.text(node), node.span, f"{name} is FALSE", params, (child,))


class Disabled(Enabler):
    """Why an action allows no successor of a state (its ``ENABLED`` is FALSE): the walk
    ENABLED takes (:class:`~tlaconf.evaluate.enabled.Enabler`), blamed.  A conjunction
    blames the first conjunct that no assignment of the primed variables reaching it gets
    past, under the assignment that came nearest (guards marked, :data:`GUARD`); a
    disjunction every disjunct; ``\\E`` each of its first witnesses; a call the called
    body; a leaf is blamed as :class:`Blamer` blames it, with the primed variables
    assigned so far.  An evaluation error is the leaf where it happened ("cannot be
    evaluated"), under the disjuncts and witnesses that led there."""

    def __init__(self, comp: Any, texts: Mapping[str, str], witnesses: int = 64,
                 assignments: int = 64) -> None:
        super().__init__(comp)
        self.leaves = Blamer(comp, texts, guards=True)
        self.limit, self.assignments = witnesses, assignments
        self._why = _Why(self)

    def explain_disabled(self, node: A.Node, ns: Namespace, env: Env, state: Any) -> Blame:
        """Why ``node`` allows no successor of ``state``."""
        with self.in_state(state, NextState({})):
            return self.why(node, ns, env, {})

    def test(self, node: A.Node, ns: Namespace, env: Env, asg: Assignment) -> bool:
        """``node`` evaluated with the primed variables ``asg`` assigns."""
        return self._test(node, ns, env, asg)

    def why(self, node: A.Node, ns: Namespace, env: Env, asg: Assignment) -> Blame:
        while isinstance(node, A.Label):
            node = node.expr
        try:
            return self._why.visit(node, (ns, env, asg))
        except Fail as err:
            return self.leaf(node, ns, env, asg, f"cannot be evaluated: {err.message}")

    def leaf(self, node: A.Node, ns: Namespace, env: Env, asg: Assignment,
             reason: str | None = None) -> Blame:
        """``node`` blamed as a formula (``reason``: as a leaf with that reason)."""
        self.N = NextState(asg)
        b = self.leaves
        if reason is None:
            try:
                self.test(node, ns, env, asg)
            except Fail as err:
                reason = f"cannot be evaluated: {err.message}"
        with b.in_state(self.S, self.N):
            if reason is not None:
                return b.leaf(node, ns, env, reason)
            b.witnesses = True
            try:
                return b.blame(node, ns, env)
            finally:
                b.witnesses = False


class _Why(ActionVisitor[Frame, Blame]):
    """The dispatch of :class:`Disabled` (its own methods are ENABLED's)."""

    def __init__(self, d: Disabled) -> None:
        self.d = d

    def other(self, node: A.Node, c: Frame) -> Blame:
        return self.d.leaf(node, *c)

    def conj(self, node: A.Junction, c: Frame) -> Blame:
        d = self.d
        ns, env, asg = c
        reach = [asg]
        for i, item in enumerate(node.items, 1):
            after: list[Assignment] = []
            for a in reach:
                try:
                    after += islice(d.successors(item, ns, env, a), d.assignments - len(after))
                except Fail:  # where, and under which disjuncts and witnesses
                    return Blame(d.leaves.text(node), node.span,
                                 f"conjunct {i} of {len(node.items)} cannot be evaluated", (),
                                 (d.why(item, ns, env, a),))
                if len(after) >= d.assignments:
                    break
            if not after:
                kids = [d.why(item, ns, env, a) for a in reach]
                mark = guarded(d.comp, node.items[:i], ns, env)
                return Blame(d.leaves.text(node), node.span,
                             conjunct(i, len(node.items), mark), (),
                             (max(kids, key=progress),))
            reach = after
        return d.leaf(node, *c)

    def disj(self, node: A.Junction, c: Frame) -> Blame:
        kids = tuple(self.d.why(item, *c) for item in node.items)
        return Blame(self.d.leaves.text(node), node.span, NO_DISJUNCT, (), kids)

    def relation(self, node: A.OpApp, c: Frame) -> Blame:
        d = self.d
        ns, env, asg = c
        var = d.primed_var(node.args[0], ns, env)
        if var is None or var in asg:
            return self.call(node, c)
        return d.leaf(node.args[1], ns, env, asg,  # x' \in S with S empty
                      f"{var}' has no value to take: the set is empty")

    def exists(self, node: A.Quant, c: Frame) -> Blame:
        d = self.d
        ns, env, asg = c
        kids: list[Blame] = []
        for binding in islice(d.bindings_of(node.bounds, ns, env, d.comp.sid(node)), d.limit):
            child = d.why(node.body, ns, env.extend(*binding), asg)
            kids.append(Blame(child.text, child.span, WITNESS,
                              tuple((b.name, show(b.value)) for b in binding), (child,)))
        if not kids:
            return d.leaf(node, ns, env, asg, NO_WITNESS + " (the domain is empty)")
        return Blame(d.leaves.text(node), node.span, NO_WITNESS, (), tuple(kids))

    def if_(self, node: A.If, c: Frame) -> Blame:
        d = self.d
        ns, env, asg = c
        taken = d.test(node.cond, ns, env, asg)
        child = d.why(node.then if taken else node.else_, ns, env, asg)
        reason = f"the condition is {'TRUE' if taken else 'FALSE'}; the " \
                 f"{'THEN' if taken else 'ELSE'} branch allows no step"
        with d.leaves.in_state(d.S, NextState(asg)):  # logline == Log[l] reads the state
            bindings = d.leaves.bindings(node.cond, ns, env)
        return Blame(d.leaves.text(node), node.span, reason, bindings, (child,))

    def case(self, node: A.Case, c: Frame) -> Blame:
        d = self.d
        ns, env, asg = c
        arm = taken_arm(node, lambda g: d.test(g, ns, env, asg), d.comp.sid(node))
        return Blame(d.leaves.text(node), node.span, "the CASE arm taken allows no step", (),
                     (d.why(arm, ns, env, asg),))

    def let(self, node: A.Let, c: Frame) -> Blame:
        d = self.d
        ns, env, asg = c
        d.N = NextState(asg)
        return d.why(node.body, ns, d.bind_let(node, ns, env), asg)

    def call(self, node: A.Name | A.OpApp, c: Frame) -> Blame:
        d = self.d
        ns, env, asg = c
        d.N = NextState(asg)
        walked = d.may_assign(node, ns, env, asg)  # else evaluated whole, as ENABLED does
        called = d.call_target(node, ns, env, by_name=True) if walked else None
        if called is None:
            return d.leaf(node, *c)
        body, tns, tenv, name = called
        params = tuple((b.name, show(b.value)) for b in tenv.bindings if b.kind == "val")
        return Blame(d.leaves.text(node), node.span, f"{name} is FALSE", params,
                     (d.why(body, tns, tenv, asg),))


def conjunct(i: int, n: int, guard: bool) -> str:
    """The reason of a conjunction whose conjunct ``i`` of ``n`` is FALSE."""
    return f"conjunct {i} of {n}{GUARD if guard else ''} is FALSE"


_CONJUNCT = re.compile(r"conjunct (\d+) of \d+(?: \(a guard\))? is FALSE")
_CHOICES = (NO_DISJUNCT, NO_WITNESS)


def is_guard_failure(b: Blame) -> bool:
    """Whether ``b`` is a conjunction blamed on one of its guards (:data:`GUARD`)."""
    return b.reason.endswith(GUARD + " is FALSE")


def progress(b: Blame) -> int:
    """How many conjuncts held before ``b`` failed (best disjunct at a disjunction, best
    witness at ``\\E``)."""
    if b.reason in _CHOICES and b.children:
        return max(progress(c) for c in b.children)
    m = _CONJUNCT.fullmatch(b.reason)
    passed = int(m.group(1)) - 1 if m else 0
    return passed + sum(progress(c) for c in b.children[:1])


def guarded(comp: Any, items: tuple[A.Expr, ...], ns: Namespace, env: Env) -> bool:
    """Whether every one of ``items`` reads no next state (no prime, UNCHANGED, ENABLED,
    action, or argument passed by name that holds one)."""
    bound = {b.name for b in env.bindings}
    primed = {b.name for b in env.bindings if b.expr is not None and has_stateful(b.expr[0])}
    for item in items:
        if comp.node_is_action(item, ns, bound):
            return False
        if primed and primed & {n for n, _ in free_names(item, set())}:
            return False
    return True


def show(v: Any) -> str:
    """A value in TLA+ syntax, in full up to a generous limit."""
    return _show(v, 20_000)


def _has(m: Any, key: str) -> bool:
    try:
        m[key]
    except Exception:  # NextState/NoNext raise on missing keys
        return False
    return True


def _primed_names(node: A.Node) -> set[str]:
    """The names used under a prime or UNCHANGED in ``node``."""
    return {n.name for p in iter_nodes(node) if isinstance(p, A.Prime | A.Unchanged)
            for n in iter_nodes(p.expr) if isinstance(n, A.Name | A.OpApp)}
