"""The liveness checker against the definition of LTL on lassos, on random graphs.

A random graph (every state also stutters), random state atoms, random actions (never
taken by a stuttering step, as ``<<A>>_v``) and random formulas: every counterexample the
checker gives must be a behaviour of the graph that satisfies the fairness conditions and
falsifies the formula, evaluated directly; and whenever some short lasso of the graph is
such a behaviour (found by enumerating them), the checker must find one.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tlaconf.explore.temporal.classify import Fair
from tlaconf.explore.temporal.formula import (
    FALSE,
    TRUE,
    Formula,
    always,
    conj,
    disj,
    eventually,
    lit,
    negate,
)
from tlaconf.explore.temporal.graph import StateGraph
from tlaconf.explore.temporal.liveness import Facts, counterexample

N_STATE_ATOMS = 2
N_ACTIONS = 2


@dataclass(frozen=True)
class _Atom:
    action: bool
    node: object = None


class _Decider:
    """Atoms 0..1 are state predicates, 2..3 actions, 4..5 their ENABLED."""

    def __init__(self, n: int, rows: list[list[bool]], steps: dict[tuple[int, int, int], bool],
                 graph: StateGraph) -> None:
        self.atoms = [_Atom(False)] * N_STATE_ATOMS + [_Atom(True)] * N_ACTIONS \
            + [_Atom(False)] * N_ACTIONS
        self.rows, self.steps, self.graph = rows, steps, graph

    def holds(self, k: int, state: dict[str, Any], nxt: dict[str, Any] | None = None) -> bool:
        u = state["n"]
        if k < N_STATE_ATOMS:
            return self.rows[u][k]
        if k < N_STATE_ATOMS + N_ACTIONS:
            assert nxt is not None
            return self.steps.get((k, u, nxt["n"]), False)
        a = k - N_ACTIONS
        return any(self.steps.get((a, u, v), False) for v in self.graph.succ[u])


def _formulas() -> st.SearchStrategy[Formula]:
    leaves = st.sampled_from([lit(0), lit(1), negate(lit(0)), TRUE, FALSE,
                              eventually(lit(2)), always(eventually(lit(3)))])

    def extend(f: st.SearchStrategy[Formula]) -> st.SearchStrategy[Formula]:
        return st.one_of(
            st.builds(conj, f, f), st.builds(disj, f, f), st.builds(negate, f),
            st.builds(always, f), st.builds(eventually, f),
            st.builds(lambda a, b: always(disj(negate(a), eventually(b))), f, f),
            st.builds(lambda a, b: ("U", a, b), f, f))

    return st.recursive(leaves, extend, max_leaves=5)


@st.composite
def _cases(draw: st.DrawFn) -> tuple[StateGraph, _Decider, Formula, list[Fair]]:
    n = draw(st.integers(1, 4))
    g = StateGraph()
    for u in range(n):
        g.add(u, {"n": u}, -1 if u == 0 else draw(st.integers(0, u - 1)))
    for u in range(1, n):
        g.succ[g.parent[u]].add(u)
    for _ in range(draw(st.integers(0, 5))):
        g.succ[draw(st.integers(0, n - 1))].add(draw(st.integers(0, n - 1)))
    rows = [[draw(st.booleans()) for _ in range(N_STATE_ATOMS)] for _ in range(n)]
    steps = {(k, u, v): draw(st.booleans()) for u in range(n) for v in g.succ[u] if v != u
             for k in range(N_STATE_ATOMS, N_STATE_ATOMS + N_ACTIONS)}
    fair = [Fair(draw(st.booleans()), k + N_ACTIONS, k, "")
            for k in range(N_STATE_ATOMS, N_STATE_ATOMS + N_ACTIONS) if draw(st.booleans())]
    return g, _Decider(n, rows, steps, g), draw(_formulas()), fair


def _value(f: Formula, d: _Decider, states: list[int], loop: int) -> list[bool]:
    """The truth of ``f`` at each position of the lasso (LTL on ultimately periodic
    words: least fixpoint for until, greatest for release)."""
    n = len(states)
    nxt = [*range(1, n), loop]
    op = f[0]
    if op in ("true", "false"):
        return [op == "true"] * n
    if op == "lit":
        k, pos = f[1], f[2]
        if d.atoms[k].action:
            return [d.holds(k, {"n": states[i]}, {"n": states[nxt[i]]}) == pos for i in range(n)]
        return [d.holds(k, {"n": s}) == pos for s in states]
    a, b = _value(f[1], d, states, loop), _value(f[2], d, states, loop)
    if op == "and":
        return [x and y for x, y in zip(a, b, strict=True)]
    if op == "or":
        return [x or y for x, y in zip(a, b, strict=True)]
    until = op == "U"
    v = [not until] * n
    for _ in range(n + 1):
        v = [(b[i] or (a[i] and v[nxt[i]])) if until else (b[i] and (a[i] or v[nxt[i]]))
             for i in range(n)]
    return v


def _fair(d: _Decider, states: list[int], loop: int, fairness: list[Fair]) -> bool:
    cycle = states[loop:]
    edges = [*pairwise(cycle), (cycle[-1], cycle[0])]
    for f in fairness:
        taken = any(d.holds(f.action, {"n": u}, {"n": v}) for u, v in edges)
        enabled = [d.holds(f.enabled, {"n": u}) for u in cycle]
        if not (taken or (not any(enabled) if f.strong else not all(enabled))):
            return False
    return True


def _lassos(g: StateGraph, length: int) -> list[tuple[list[int], int]]:
    out = []
    paths = [[u] for u in g.initial]
    for _ in range(length):
        for p in paths:
            for loop, s in enumerate(p):
                if s == p[-1] or s in g.succ[p[-1]]:
                    out.append((p, loop))
        paths = [[*p, v] for p in paths for v in g.succ[p[-1]] if v != p[-1]]
    return out


@settings(max_examples=300, deadline=None)
@given(_cases())
def test_counterexamples_are_exact(case: tuple[StateGraph, _Decider, Formula, list[Fair]]) -> None:
    g, d, f, fairness = case
    found = counterexample(g, Facts(g, d), f, fairness)  # type: ignore[arg-type]
    if found is not None:
        states, loop = list(found.states), found.loop
        assert states[0] in g.initial
        for u, v in pairwise(states):
            assert v in g.succ[u]
        assert states[loop] == states[-1] or states[loop] in g.succ[states[-1]]
        assert _fair(d, states, loop, fairness)
        assert not _value(f, d, states, loop)[0]
        return
    for states, loop in _lassos(g, 5):
        assert not (_fair(d, states, loop, fairness) and not _value(f, d, states, loop)[0]), (
            states, loop)
