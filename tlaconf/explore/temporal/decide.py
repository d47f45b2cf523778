"""Deciding atoms on states and steps with the evaluator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tlaconf.evaluate import Blame, Context, EvalError, budget
from tlaconf.evaluate.blame import Blamer
from tlaconf.evaluate.enabled import Enabler
from tlaconf.evaluate.runtime import NO_NEXT
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

    def holds(self, k: int, state: State, nxt: State | None = None) -> bool:
        """Atom ``k`` in ``state`` (a state predicate) or on the step ``state -> nxt``."""
        a = self.atoms[k]
        w = self._w
        try:
            with budget.limit(a.node.span):
                if isinstance(a.node, A.Enabled):
                    return self._enabled(a.node.expr, a, state)
                with w.in_state(state, NO_NEXT if nxt is None else nxt):
                    return w.eval_bool(a.node, a.ns, a.env)
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
        value: it is not required)."""
        return self._w.first(action, a.ns, a.env, state) is not None

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
