"""Deciding atoms on states and steps with the evaluator."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tlaconf.evaluate import Blame, Context, EvalError, budget
from tlaconf.evaluate.actions import ActionCompiler, Uncompiled
from tlaconf.evaluate.blame import Blamer
from tlaconf.evaluate.enabled import Enabler
from tlaconf.evaluate.runtime import NO_NEXT, NextState
from tlaconf.evaluate.semantics import as_bool
from tlaconf.evaluate.walk import Binding, Env
from tlaconf.explore.errors import Unsupported
from tlaconf.explore.temporal.formula import Atom
from tlaconf.tla import ast as A

State = Mapping[str, Any]


class Decider:
    """Evaluates the atoms of one :class:`~.classify.Properties` table."""

    def __init__(self, ctx: Context, atoms: list[Atom]) -> None:
        self.ctx = ctx
        self.atoms = atoms
        self._w = Enabler(ctx.compiler)
        self._ac = ActionCompiler(ctx.compiler)
        self._compiled: dict[int, Callable[[State], bool] | None] = {}
        """Each ENABLED atom's action compiled into successor code (None: walked)."""
        self._snippets: dict[int, Callable[[State, Any], bool]] = {}
        """Each other atom compiled, with its bound values."""

    def holds(self, k: int, state: State, nxt: State | None = None) -> bool:
        """Atom ``k`` in ``state`` (a state predicate) or on the step ``state -> nxt``."""
        a = self.atoms[k]
        try:
            with budget.limit(a.node.span):
                if isinstance(a.node, A.Enabled):
                    return self._enabled(a.node.expr, a, state)
                fn = self._snippets.get(k)
                if fn is None:
                    fn = self._snippets[k] = self._snippet(a)
                return fn(state, NO_NEXT if nxt is None else nxt)
        except Exception as exc:
            err = self.ctx.evaluation_error(exc, a.node)
            if isinstance(a.node, A.Enabled) and isinstance(err, EvalError) \
                    and "read before the action assigns it" in err.message:
                sp = a.span
                raise Unsupported(
                    f"{a.text}: deciding it reads a primed variable the action has not "
                    f"assigned ({err.message}), where TLC stops with an error too: an "
                    "action that leaves a variable of the subscript unassigned, or one of "
                    "an instantiated module whose variable is substituted by an expression "
                    "and primed before the variables of that expression are assigned "
                    "(not checked)",
                    f"{sp.file}:{sp.line}:{sp.col}") from None
            raise err from None

    def _enabled(self, action: A.Node, a: Atom, state: State) -> bool:
        """``ENABLED action`` as TLC decides it: some assignment of the primed variables
        the action determines satisfies it (a variable it leaves unassigned may take any
        value: it is not required).  The action runs as the explorer's compiled successor
        code, which computes what the tree walk computes, stopping at the first
        successor; an action that does not compile is walked."""
        ns, state, _ = self._w.detach(a.ns, state, ())
        key = id(a)
        if key not in self._compiled:
            self._compiled[key] = self._compile(action, ns, a.env)
        fn = self._compiled[key]
        if fn is None:
            return self._w.first(action, a.ns, a.env, state) is not None
        return fn(state)

    def _snippet(self, a: Atom) -> Callable[[State, Any], bool]:
        """Atom ``a`` (not ENABLED) as a function of the state and the next state (what
        the walker evaluates, without its per-call look-ups)."""
        comp = self.ctx.compiler
        vis = a.env.visible()
        fn = comp.snippet(a.node, a.ns, tuple((n, b.kind, b.arity) for n, b in vis.items()))
        values = tuple(b.value for b in vis.values())
        sid = comp.sid(a.node)

        def holds(state: State, nxt: Any) -> bool:
            return as_bool(fn(state, nxt, *values), sid)

        return holds

    def _compile(self, action: A.Node, ns: Any, env: Env) -> Callable[[State], bool] | None:
        ac = self._ac
        names = tuple(Binding(b.name, b.kind, b.arity, None) for b in env.bindings)
        sc = ac.scope(ns, Env(names), tuple(range(len(names))), len(names))
        try:
            run = ac.action(action, sc, _found)
        except (Uncompiled, RecursionError):
            return None
        values = tuple(b.value for b in env.bindings)

        def enabled(state: State) -> bool:
            try:
                run(state, NextState({}), values)
            except _Found:
                return True
            return False

        return enabled

    def explain(self, k: int, state: State, nxt: State | None = None) -> Blame:
        """Why atom ``k`` is FALSE there."""
        a = self.atoms[k]
        blamer = Blamer(self.ctx.compiler, self.ctx.loader.texts)
        try:
            with budget.limit(a.node.span):
                return blamer.explain(a.node, a.ns, a.env, state,
                                      NO_NEXT if nxt is None else nxt)
        except Exception as exc:
            raise self.ctx.evaluation_error(exc, a.node) from None


class _Found(Exception):
    """The first successor of an ENABLED action was found."""


def _found(S: Any, a: NextState, e: tuple[Any, ...]) -> None:
    raise _Found
