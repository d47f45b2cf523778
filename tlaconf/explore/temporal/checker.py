"""The property checker: a :class:`~tlaconf.explore.hooks.Hooks` that any search can
carry (``tlaconf explore``, a trace spec's search).

Safety conjuncts are checked as the search goes, as TLC checks them: a state predicate
on every initial state, ``[]P`` on every state found, ``[][A]_v`` on every step (to a
new state or not); a violation stops the search with the behaviour up to it.  Liveness
is checked when the search has finished, on the whole graph (:mod:`.liveness`); a
violation stops it with a lasso.  A search cut short by a bound leaves liveness
unchecked (:attr:`PropertyChecker.unchecked`).
"""

from __future__ import annotations

from pathlib import Path

from tlaconf.evaluate import Context
from tlaconf.explore.adapter import Label
from tlaconf.explore.hooks import Hooks, State, StateId, Stop
from tlaconf.explore.temporal.classify import Properties, Property
from tlaconf.explore.temporal.decide import Decider
from tlaconf.explore.temporal.formula import Formula
from tlaconf.explore.temporal.graph import StateGraph
from tlaconf.explore.temporal.liveness import Facts, counterexample
from tlaconf.tla import ast as A


class PropertyChecker(Hooks):
    """Checks ``props`` (read by :func:`~.classify.read_properties`) on one search."""

    def __init__(self, ctx: Context, props: Properties) -> None:
        self.props = props
        self.decider = Decider(ctx, props.atoms)
        self.graph = StateGraph()
        self.facts = Facts(self.graph, self.decider)
        self._eager = sorted({k for p in props.properties for f, _ in p.liveness
                              for k in _state_atoms(f)
                              if not props.atoms[k].action
                              and not isinstance(props.atoms[k].node, A.Enabled)})
        """The state atoms of liveness formulas, decided on each state as it is expanded
        (as TLC does: ``TLCGet("queue")`` is then its search queue, the state's new
        successors included)."""
        self.unchecked: tuple[str, ...] = ()
        """The liveness conjuncts left unchecked (the search was not complete)."""

    def initial(self, sid: StateId, state: State) -> None:
        u = self.graph.add(sid, state, -1)
        for p in self.props.properties:
            for k in p.inits:
                self._check(p, k, "initial predicate", state, None, u)
            for k in p.invariants:
                self._check(p, k, "[]", state, None, u)

    def transition(self, src: StateId, src_state: State, label: Label,
                   dst: StateId, dst_state: State, new: bool) -> None:
        g = self.graph
        u = g.index[src]
        if not g.succ[u]:
            self.facts.note(self._eager, u)  # u is being expanded
        v = g.add(dst, dst_state, u)
        g.succ[u].add(v)
        for p in self.props.properties:
            if new:
                for k in p.invariants:
                    self._check(p, k, "[]", dst_state, None, v)
            for k in p.actions:
                self._check(p, k, "[]", src_state, dst_state, u, v)

    def dead_end(self, sid: StateId, state: State) -> None:
        self.facts.note(self._eager, self.graph.index[sid])

    def finished(self, complete: bool) -> None:
        pending = [(p, f, text) for p in self.props.properties for f, text in p.liveness]
        if not complete:
            self.unchecked = tuple(f"PROPERTY {p.name}: {text}" for p, _, text in pending)
            return
        for p, f, text in pending:
            lasso = counterexample(self.graph, self.facts, f, self.props.fairness)
            if lasso is not None:
                ids = tuple(self.graph.ids[u] for u in lasso.states)
                raise Stop("property", p.name, ids, lasso.loop,
                           f"the liveness conjunct {text} is FALSE of this behaviour "
                           "(a lasso: it loops forever)")

    def _check(self, p: Property, k: int, how: str, state: State, nxt: State | None,
               u: int, v: int | None = None) -> None:
        if self.decider.holds(k, state, nxt):
            return
        path = self.graph.path(u) + ([] if v is None else [v])
        atom = self.props.atoms[k]
        sp = atom.span
        what = f"{atom.text} ({Path(sp.file).name}:{sp.line}:{sp.col})"
        if how != "[]":
            what = f"the {how} {what}"
        blame = self.decider.explain(k, state, nxt).render(1)
        raise Stop("property", p.name, tuple(self.graph.ids[i] for i in path), None,
                   f"{what} is FALSE\n{blame}")


def _state_atoms(f: Formula) -> set[int]:
    """The atoms of ``f``'s literals."""
    if f[0] == "lit":
        return {f[1]}
    return set().union(*(_state_atoms(g) for g in f[1:] if isinstance(g, tuple)))
