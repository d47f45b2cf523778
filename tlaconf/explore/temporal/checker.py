"""The property checker: a :class:`~tlaconf.explore.hooks.Hooks` that any search can
carry (``tlaconf explore``, a trace spec's search).

Safety conjuncts are checked as the search goes, as TLC checks them: a state predicate
on every initial state, ``[]P`` on every state found, ``[][A]_v`` on every step (to a
new state or not); a violation stops the search with the behaviour up to it.  Liveness
is checked when the search has finished, on the whole graph (:mod:`.liveness`); a
violation stops it with a lasso.  A search cut short by a bound leaves liveness
unchecked (:attr:`PropertyChecker.unchecked`).

``TLCGet("queue")`` and ``TLCGet("level")`` read in a property have TLC's values in a
breadth-first search (one worker): TLC checks a state predicate of a property (``P`` and
``[]P``) and an action property (``[][A]_v``) on each successor before enqueueing it,
so there ``"queue"`` is the states found and not yet expanded, the state being expanded
excluded; the state atoms of a liveness formula are decided once the state's successors
are enqueued; ``"level"`` is the level of the state evaluated (of the state expanded, for
an action).  Decided later (``ENABLED``, the actions of a liveness formula), they are
not defined: reading them is an error.
"""

from __future__ import annotations

import re
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from tlaconf.evaluate import Context
from tlaconf.explore.adapter import Label
from tlaconf.explore.errors import Unsupported
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
        self._registers = ctx.compiler.registers
        self._reads = any(_SEARCH_REGISTER.search(t) for t in ctx.loader.texts.values())
        """Whether a module reads ``TLCGet("queue")`` or ``TLCGet("level")``."""
        self._levels: list[int] = []
        self._expanded = 0
        self._queued = 0
        self._bfs = False

    def initial(self, sid: StateId, state: State) -> None:
        u = self._add(sid, state, -1)
        with self._at(len(self.graph.ids), 1):  # TLC enqueues an initial state, then checks
            for p in self.props.properties:
                for k in p.inits:
                    self._check(p, k, "initial predicate", state, None, u)
                for k in p.invariants:
                    self._check(p, k, "[]", state, None, u)

    def level_begins(self, level: int, size: int) -> None:
        self._bfs = True

    def expanding(self, sid: StateId, state: State, queued: int) -> None:
        if self._reads and not self._bfs:
            raise Unsupported('TLCGet("queue") and TLCGet("level") in a property have TLC\'s '
                              "meaning in a breadth-first search only (TLC's depth-first "
                              "search has no queue): use the breadth-first search")
        self._expanded += 1
        self._queued = queued

    def transition(self, src: StateId, src_state: State, label: Label,
                   dst: StateId, dst_state: State, new: bool) -> None:
        g = self.graph
        u = g.index[src]
        queue = len(g.ids) - self._expanded  # TLC checks a successor before enqueueing it
        if not g.succ[u]:
            with self._at(self._queued, self._levels[u]):
                self.facts.note(self._eager, u)  # u is being expanded
        v = self._add(dst, dst_state, u)
        g.succ[u].add(v)
        for p in self.props.properties:
            if new and p.invariants:
                with self._at(queue, self._levels[v]):
                    for k in p.invariants:
                        self._check(p, k, "[]", dst_state, None, v)
            if p.actions:
                with self._at(queue, self._levels[u]):
                    for k in p.actions:
                        self._check(p, k, "[]", src_state, dst_state, u, v)

    def excluded(self, src: StateId | None, src_state: State | None, label: Label | None,
                 dst: StateId, dst_state: State) -> None:
        """A state the constraints exclude: TLC checks ``[]P`` (and an initial state's
        predicates) in it and ``[][A]_v`` on the step to it, though it keeps it out of
        the graph."""
        g = self.graph
        u = None if src is None else g.index[src]
        ids = (() if u is None else tuple(g.ids[i] for i in g.path(u))) + (dst,)
        queue = len(g.ids) - self._expanded
        for p in self.props.properties:
            with self._at(queue, 1 if u is None else self._levels[u] + 1):
                for k in p.inits if u is None else ():
                    self._check_excluded(p, k, "initial predicate", dst_state, None, ids)
                for k in p.invariants:
                    self._check_excluded(p, k, "[]", dst_state, None, ids)
            if u is not None and p.actions:
                with self._at(queue, self._levels[u]):
                    for k in p.actions:
                        self._check_excluded(p, k, "[]", src_state or {}, dst_state, ids)

    def dead_end(self, sid: StateId, state: State) -> None:
        u = self.graph.index[sid]
        with self._at(self._queued, self._levels[u]):
            self.facts.note(self._eager, u)

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
        self._stop(p, k, how, state, nxt, tuple(self.graph.ids[i] for i in path))

    def _check_excluded(self, p: Property, k: int, how: str, state: State,
                        nxt: State | None, ids: tuple[StateId, ...]) -> None:
        """As :meth:`_check`, on a behaviour ending in a state the graph does not keep."""
        if not self.decider.holds(k, state, nxt):
            self._stop(p, k, how, state, nxt, ids)

    def _stop(self, p: Property, k: int, how: str, state: State, nxt: State | None,
              ids: tuple[StateId, ...]) -> None:
        """Stop with the behaviour ``ids``: the safety atom ``k`` is FALSE at its end."""
        atom = self.props.atoms[k]
        sp = atom.span
        what = f"{atom.text} ({Path(sp.file).name}:{sp.line}:{sp.col})"
        if how != "[]":
            what = f"the {how} {what}"
        blame = self.decider.explain(k, state, nxt).render(1)
        raise Stop("property", p.name, ids, None, f"{what} is FALSE\n{blame}")

    def _add(self, sid: StateId, state: State, parent: int) -> int:
        u = self.graph.add(sid, state, parent)
        if u == len(self._levels):
            self._levels.append(1 if parent < 0 else self._levels[parent] + 1)
        return u

    def _at(self, queue: int, level: int) -> _Registers | nullcontext[None]:
        """TLC's ``"queue"`` and ``"level"`` registers while a property is evaluated."""
        return _Registers(self._registers, queue, level) if self._reads else nullcontext()


class _Registers:
    """Sets ``"queue"`` and ``"level"`` for a ``with`` block; those a caller keeps
    (``tlaconf validate``'s) are put back afterwards."""

    def __init__(self, regs: dict[Any, Any], queue: int, level: int) -> None:
        self.regs, self.values = regs, {"queue": queue, "level": level}
        self.saved: dict[Any, Any] = {}

    def __enter__(self) -> None:
        self.saved = {k: self.regs[k] for k in _SEARCH if k in self.regs}
        self.regs.update(self.values)

    def __exit__(self, *exc: object) -> None:
        for k in _SEARCH:
            self.regs.pop(k, None)
        self.regs.update(self.saved)


_SEARCH = ("queue", "level")
_SEARCH_REGISTER = re.compile(r'TLCGet\s*\(\s*"(?:queue|level)"')


def _state_atoms(f: Formula) -> set[int]:
    """The atoms of ``f``'s literals."""
    if f[0] == "lit":
        return {f[1]}
    return set().union(*(_state_atoms(g) for g in f[1:] if isinstance(g, tuple)))
