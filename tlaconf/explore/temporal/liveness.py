"""Liveness as TLC checks it: a behaviour of the graph that satisfies the
specification's fairness and the negation of the property, or None.

The tableau of the negated formula is multiplied with the behaviour graph (every state
with its stuttering self-loop); a counterexample is a reachable strongly connected
component of the product, with at least one step, that meets every acceptance set of
the tableau and every fairness condition:

* ``WF_v(A)``: ``<<A>>_v`` is taken on a step of the component, or ``ENABLED <<A>>_v``
  is FALSE in one of its states;
* ``SF_v(A)``: ``<<A>>_v`` is taken in it, or it is enabled in none of its states; a
  component where it is neither is searched again without its enabled states
  (the components of what remains).

A behaviour looping through all of such a component forever satisfies both; the lasso
returned is a stem from an initial state and a cycle through the component that visits
one witness of each condition.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from tlaconf.explore.temporal.classify import Fair
from tlaconf.explore.temporal.decide import Decider
from tlaconf.explore.temporal.formula import FALSE, TRUE, Formula, negate
from tlaconf.explore.temporal.graph import StateGraph
from tlaconf.explore.temporal.scc import components
from tlaconf.explore.temporal.tableau import Tableau, tableau
from tlaconf.tla import ast as A


@dataclass(frozen=True)
class Lasso:
    """A behaviour: ``states`` (graph numbers) and the index its cycle goes back to."""

    states: tuple[int, ...]
    loop: int


class Facts:
    """Atoms decided on the graph's states and steps, each once (a state's may be
    decided as it is found: :meth:`note`)."""

    def __init__(self, graph: StateGraph, decider: Decider) -> None:
        self.g = graph
        self.d = decider
        self._state: dict[tuple[int, int], bool] = {}
        self._step: dict[tuple[int, int, int], bool] = {}
        self._stutter = [_on_stutter(a.node) for a in decider.atoms]
        self._succ: list[list[int]] = []

    def successors(self, u: int) -> list[int]:
        """``u``'s successors in the graph, itself first (computed once, when the search
        has ended)."""
        if len(self._succ) < len(self.g.succ):
            self._succ = [self.g.successors(v) for v in range(len(self.g.succ))]
        return self._succ[u]

    def note(self, atoms: list[int], u: int) -> None:
        """Decide the state atoms ``atoms`` on ``u`` now (they may read registers that
        change as the search goes, ``TLCGet("queue")``, as TLC evaluates them)."""
        for k in atoms:
            self.state(k, u)

    def state(self, k: int, u: int) -> bool:
        hit = self._state.get((k, u))
        if hit is None:
            hit = self._state[(k, u)] = self.d.holds(k, self.g.states[u])
        return hit

    def step(self, k: int, u: int, v: int) -> bool:
        if u == v and self._stutter[k] is not None:
            return self._stutter[k]  # type: ignore[return-value]
        hit = self._step.get((k, u, v))
        if hit is None:
            hit = self._step[(k, u, v)] = self.d.holds(k, self.g.states[u], self.g.states[v])
        return hit


class _Product:
    """The reachable product of the graph and a tableau; node ``n`` pairs the state
    ``state[n]`` with the tableau node ``node[n]``."""

    def __init__(self, graph: StateGraph, t: Tableau, facts: Facts) -> None:
        atoms = facts.d.atoms
        self.t = t
        slits = [[(k, pos) for k, pos in lits if not atoms[k].action] for lits in t.literals]
        alits = [[(k, pos) for k, pos in lits if atoms[k].action] for lits in t.literals]
        self.state: list[int] = []
        self.node: list[int] = []
        self.succ: list[list[int]] = []
        self.parent: list[int] = []
        self.accepting: list[Callable[[int], bool]] = [self._in(acc) for acc in t.accepting]
        """Per acceptance set: whether a product node is in it."""
        self.nodes: set[int] = set()
        code: dict[tuple[int, int], int] = {}

        state = facts.state
        step = facts.step

        def ok(u: int, q: int) -> bool:
            return all(state(k, u) == pos for k, pos in slits[q])

        def add(u: int, q: int, parent: int) -> int:
            n = code.get((u, q))
            if n is None:
                n = code[(u, q)] = len(self.state)
                self.state.append(u)
                self.node.append(q)
                self.succ.append([])
                self.parent.append(parent)
                todo.append(n)
            return n

        todo: deque[int] = deque()
        for u in graph.initial:
            for q in t.initial:
                if ok(u, q):
                    add(u, q, -1)
        succs = facts.successors
        while todo:
            n = todo.popleft()
            u, q = self.state[n], self.node[n]
            acts, nexts, out = alits[q], t.succ[q], self.succ[n]
            for v in succs(u):
                if acts and not all(step(k, u, v) == pos for k, pos in acts):
                    continue
                for q2 in nexts:
                    if not slits[q2] or ok(v, q2):
                        out.append(add(v, q2, n))
        self.nodes = set(range(len(self.state)))

    def _in(self, acc: frozenset[int]) -> Callable[[int], bool]:
        return lambda n: self.node[n] in acc


class _Restricted:
    """The product for ``<>[]l`` or ``[]<>l`` (``l`` a literal), without a tableau: the
    graph's own states and steps, each state its own node.  ``<>[]l``: the steps on
    which ``l`` holds, between states where it holds (for a state literal); the stem
    is any path.  ``[]<>l``: every step, and a cycle must meet ``l`` (acceptance)."""

    def __init__(self, graph: StateGraph, facts: Facts, k: int, pos: bool, always: bool
                 ) -> None:
        n = len(graph.states)
        self.state = list(range(n))
        self.parent = graph.parent
        action = facts.d.atoms[k].action
        succs = [facts.successors(u) for u in range(n)]
        self.accepting: list[Callable[[int], bool]] = []
        if not always:
            self.succ = succs
            self.nodes = set(range(n))
            if action:  # a cycle must take a step where l holds: a node per such step
                raise _Tableau
            self.accepting = [lambda u: facts.state(k, u) == pos]
        elif action:
            self.succ = [[v for v in succs[u] if facts.step(k, u, v) == pos] for u in range(n)]
            self.nodes = set(range(n))
        else:
            self.nodes = {u for u in range(n) if facts.state(k, u) == pos}
            self.succ = [[v for v in succs[u] if v in self.nodes] if u in self.nodes else []
                         for u in range(n)]


class _Tableau(Exception):
    """The formula needs the tableau product."""


def _on_stutter(node: object) -> bool | None:
    """The value of an atom on a stuttering step when it does not depend on the state:
    ``<<A>>_v`` is FALSE there (``v`` is unchanged), ``[A]_v`` TRUE."""
    if isinstance(node, A.ActionBox):
        return not node.angle
    return None


def counterexample(graph: StateGraph, facts: Facts, prop: Formula,
                   fairness: list[Fair]) -> Lasso | None:
    """A fair behaviour of ``graph`` violating ``prop``, or None when there is none."""
    neg = negate(prop)
    p: _Product | _Restricted
    try:
        p = _restricted(graph, facts, neg)
    except _Tableau:
        p = _Product(graph, tableau(neg), facts)
    best: tuple[set[int], list[Witness]] | None = None
    todo = [set(p.nodes)]
    while todo:
        alive = todo.pop()
        for comp in components(sorted(alive), p.succ.__getitem__, alive.__contains__):
            if best is not None and min(comp) > min(best[0]):
                continue
            found = _judge(p, facts, fairness, set(comp))
            if isinstance(found, list):
                best = (set(comp), found)
            elif found is not None:
                todo.append(found)
    return None if best is None else _lasso(p, *best)


def _restricted(graph: StateGraph, facts: Facts, f: Formula) -> _Restricted:
    """The product of ``f`` when it is ``<>[]l`` or ``[]<>l`` (most liveness conjuncts:
    ``[]<>P`` and ``<>[]P`` negated), else :class:`_Tableau`."""
    if f[0] == "U" and f[1] == TRUE and f[2][0] == "R" and f[2][1] == FALSE \
            and f[2][2][0] == "lit":
        return _Restricted(graph, facts, f[2][2][1], f[2][2][2], True)
    if f[0] == "R" and f[1] == FALSE and f[2][0] == "U" and f[2][1] == TRUE \
            and f[2][2][0] == "lit":
        return _Restricted(graph, facts, f[2][2][1], f[2][2][2], False)
    raise _Tableau


Witness = tuple[int, int]
"""A node ``(n, -1)`` or a step ``(n, m)`` of the product a fair cycle must visit."""


def _judge(p: _Product | _Restricted, facts: Facts, fairness: list[Fair],
           comp: set[int]) -> list[Witness] | set[int] | None:
    """The witnesses when ``comp`` is fair and accepting; the part of it to search again
    (an SF condition is enabled in it but never taken); None when nothing of it can be."""
    steps = [(n, m) for n in comp for m in p.succ[n] if m in comp]
    if not steps:
        return None
    witnesses: list[Witness] = []
    for accepts in p.accepting:
        hit = next((n for n in comp if accepts(n)), None)
        if hit is None:
            return None
        witnesses.append((hit, -1))
    drop: set[int] = set()
    for f in fairness:
        taken = next(((n, m) for n, m in steps
                      if facts.step(f.action, p.state[n], p.state[m])), None)
        if taken is not None:
            witnesses.append(taken)
            continue
        if not f.strong:
            off = next((n for n in comp if not facts.state(f.enabled, p.state[n])), None)
            if off is None:
                return None
            witnesses.append((off, -1))
        else:
            drop |= {n for n in comp if facts.state(f.enabled, p.state[n])}
    if drop:
        rest = comp - drop
        return rest or None
    return witnesses


def _lasso(p: _Product | _Restricted, comp: set[int], witnesses: list[Witness]) -> Lasso:
    entry = min(comp)  # product nodes are numbered breadth first: the shortest stem
    stem = []
    n = entry
    while n >= 0:
        stem.append(n)
        n = p.parent[n]
    stem.reverse()
    cycle = [entry]
    for a, b in witnesses:
        cycle += _walk(p, comp, cycle[-1], a)[1:]
        if b >= 0:
            cycle.append(b)
    back = _walk(p, comp, cycle[-1], entry, len(cycle) == 1)
    cycle += back[1:]
    states = [p.state[n] for n in stem] + [p.state[n] for n in cycle[1:-1]]
    loop = len(stem) - 1
    return _collapse(states, loop)


def _walk(p: _Product | _Restricted, comp: set[int], src: int, dst: int, nonempty: bool = False
          ) -> list[int]:
    """A shortest path inside ``comp`` from ``src`` to ``dst`` (with at least one step
    when ``nonempty``)."""
    if src == dst and not nonempty:
        return [src]
    prev: dict[int, int] = {}
    todo = deque([src])
    while todo:
        n = todo.popleft()
        for m in p.succ[n]:
            if m in comp and m not in prev:
                prev[m] = n
                if m == dst:
                    out = [dst]
                    while out[-1] != src or len(out) == 1:
                        out.append(prev[out[-1]])
                    return out[::-1]
                todo.append(m)
    raise AssertionError("a strongly connected component is connected")


def _collapse(states: list[int], loop: int) -> Lasso:
    """The lasso without repeated consecutive states (stuttering steps, which a
    stuttering-invariant property does not see); a cycle of one state stutters."""
    out: list[int] = []
    new_loop = 0
    for i, s in enumerate(states):
        if i == loop:
            new_loop = len(out) - 1 if out and out[-1] == s else len(out)
        if out and out[-1] == s:
            continue
        out.append(s)
    if len(out) - 1 > new_loop and out[-1] == out[new_loop]:
        out.pop()
    return Lasso(tuple(out), new_loop)
