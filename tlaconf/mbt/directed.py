"""Directed requests: for each action and each of its guards, an allowed request and a
near miss, found in the reachable states and driven into the implementation.

:func:`survey` walks the states the requests reach (breadth first, up to ``depth``
requests and :data:`MAX_STATES` states) and asks the solver, in each, for the guards
still without an allowed request or a near miss; it stops when every guard has both,
or when :data:`PATIENCE` states in a row taught it nothing new of the guards left.
:func:`sweep` then drives the implementation to each target's state (a reset, then the
shortest path of requests the survey found) and sends the target request; every step
is checked as any other.  Besides, for each guard that an integer field of the request
moves across a line, the survey keeps the requests at the edge (both sides of the line,
from an allowed request: :mod:`tlaconf.mbt.boundary`), sent the same way.  A failure
is as short as the model allows: the shortest path to the state, then the request.
The targets also join Hypothesis' draws afterwards (in a state the survey looked at, a
step may draw one), whose failures are shrunk.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from tlaconf.evaluate.coverage import Key
from tlaconf.explore import Successors
from tlaconf.mbt.boundary import Edge
from tlaconf.mbt.domains import Request
from tlaconf.mbt.machine import Session, State
from tlaconf.mbt.memo import value_key
from tlaconf.mbt.online import Taken
from tlaconf.mbt.reach import Node, reachable
from tlaconf.mbt.solver import NOT_ASKED, SEEDS, Solution, Solver
from tlaconf.values import Fn

MAX_STATES = 100
"""Reachable states a survey looks at, at most."""

PATIENCE = 5
"""An action is looked at no more once this many states in a row taught nothing new of
its open guards."""

Want = Literal["allowed", "near miss", "miss", "closest miss"]


@dataclass
class Facts:
    """What the survey learnt of one guard over the states it looked at."""

    states: int = 0
    """Reachable states in which it was looked for."""
    reached: bool = False
    true: bool = False
    targets: dict[Want, tuple[Node, Fn]] = field(default_factory=dict)
    too_large: int = 0
    """The largest params domain (requests) of a state neither enumerated nor settled by a
    symbolic solver (0: none)."""
    settled: int = 0
    """States in which its domain was examined whole (enumerated, or settled by a
    symbolic solver)."""
    undecided: str | None = None
    """Why the symbolic solver did not settle it (in the first state where it was asked
    and did not)."""
    solved: dict[Want, tuple[int, float]] = field(default_factory=dict)
    """The targets a symbolic solver found: their domain's size and the seconds it took."""
    edges: dict[tuple[str, tuple[int, int]], tuple[Node, Edge, tuple[bool, ...]]] = field(
        default_factory=dict)
    """Per integer field and line along which the guard changes value (in the first state
    where it was found to): the edge, that state, and whether each of its requests is
    allowed there."""


@dataclass
class Survey:
    """The reachable states looked at and the directed requests found in them."""

    depth: int
    states: int = 0
    truncated: bool = False
    """:data:`MAX_STATES` stopped it before the depth was exhausted."""
    facts: dict[tuple[str, Key], Facts] = field(default_factory=dict)
    solver: str = ""
    diverged: int = 0
    """Targets not sent: on the way to their state the implementation took another
    successor than the one the path expects (allowed by the spec too)."""
    unreached: set[int] = field(default_factory=set)
    """The keys of the states those targets were in."""
    rewritten: set[tuple[str, int]] = field(default_factory=set)
    """(action, encoded params) of the requests sent whose fields the implementation
    filled in with other values (so the request recorded is not the one aimed)."""
    solver_seconds: float = 0.0
    """Time the symbolic solver took (0 with enumeration alone)."""

    def solved(self) -> list[tuple[str, Key, Want, int, float]]:
        """(action, guard, kind, domain size, seconds) of each target a symbolic solver found."""
        return [(a, g, want, size, seconds) for (a, g), f in self.facts.items()
                for want, (size, seconds) in f.solved.items()]

    def undecided(self) -> int:
        """Guards the symbolic solver left undecided in some state."""
        return sum(f.undecided is not None for f in self.facts.values())

    def to_json(self) -> dict[str, Any]:
        return {"states": self.states, "depth": self.depth, "truncated": self.truncated,
                "solver": self.solver, "diverged": self.diverged,
                "solver_seconds": round(self.solver_seconds, 3),
                "solved": [{"action": a, "guard": list(g[:5]), "kind": want, "domain": size,
                            "seconds": round(seconds, 3)}
                           for a, g, want, size, seconds in self.solved()],
                "undecided": self.undecided(),
                "edges": [{"action": a, "guard": list(g[:5]), "field": e.field,
                           "line": list(e.line), "values": list(e.values)}
                          for a, g, e in self.edges()]}

    def open(self, action: str, guards: Iterable[Key]) -> frozenset[Key]:
        """The guards of ``action`` still without an allowed request or a near miss."""
        return frozenset(g for g in guards
                         if {"allowed", "near miss"} - self.facts[(action, g)].targets.keys())

    def targets(self) -> list[tuple[Node, Request]]:
        """Every distinct request to send (the guards' targets, then their edges), by
        depth of their state."""
        out: dict[tuple[int, str, int], tuple[Node, Request]] = {}
        for (action, _), facts in self.facts.items():
            want: Want
            for want in ("allowed", "near miss", "miss", "closest miss"):
                if want in ("miss", "closest miss") and "near miss" in facts.targets:
                    continue
                found = facts.targets.get(want)
                if found is not None:
                    node, params = found
                    out.setdefault((node.key, action, value_key(params)),
                                   (node, Request(action, params, want == "allowed")))
        for (action, _), facts in self.facts.items():
            for node, edge, allowed in facts.edges.values():
                for params, ok in zip(edge.requests, allowed, strict=True):
                    out.setdefault((node.key, action, value_key(params)),
                                   (node, Request(action, params, ok)))
        return sorted(out.values(), key=lambda t: t[0].depth)

    def edges(self) -> list[tuple[str, Key, Edge]]:
        """(action, guard, edge) of every boundary found."""
        return [(a, g, edge) for (a, g), f in self.facts.items()
                for _, edge, _ in f.edges.values()]


def survey(session: Session, solver: Solver, succ: Successors, initial: State,
           depth: int, max_states: int = MAX_STATES) -> Survey:  # fmt: skip
    """Directed requests for every guard of every requested action (see the module
    docstring)."""
    out = Survey(depth, solver=solver.name)
    actions = session.domains.actions
    guards = {a: solver.guards(a) for a in actions}
    for a in actions:
        for g in guards[a]:
            out.facts[(a, g)] = Facts()
    solved: dict[tuple[int, str], Solution] = {}

    def allowed(node: Node) -> list[tuple[str, Fn]]:
        found = []
        for a in actions:
            sol = solved.get((node.key, a))
            if sol is None:
                sol = solver.solve(a, node.state, node.key, frozenset())
            found += [(a, p) for p in sol.enabled]
        return found

    idle = dict.fromkeys(actions, 0)
    for node in reachable(initial, depth, succ, allowed):
        if out.states >= max_states:
            out.truncated = True
            break
        out.states += 1
        for a in actions:
            wanted = out.open(a, guards[a])
            lines = frozenset(g for g in guards[a] if not out.facts[(a, g)].edges)
            if not (wanted or lines) or idle[a] >= PATIENCE:
                continue
            progress = False
            if wanted:
                sol = solved[(node.key, a)] = solver.solve(a, node.state, node.key, wanted)
                out.solver_seconds += sol.solver_seconds
                progress = _learn(out, a, wanted, node, sol)
            sol = solved.get((node.key, a)) or solver.solve(a, node.state, node.key, frozenset())
            solved[(node.key, a)] = sol
            if lines and sol.enabled:
                progress |= _edges(out, session, solver, a, node, sol.enabled[:SEEDS], lines)
            idle[a] = 0 if progress else idle[a] + 1
        if all(idle[a] >= PATIENCE or not (out.open(a, guards[a]) or any(
                not out.facts[(a, g)].edges for g in guards[a])) for a in actions):
            break
    return out


def _edges(out: Survey, session: Session, solver: Solver, action: str, node: Node,
           seeds: list[Fn], lines: frozenset[Key]) -> bool:  # fmt: skip
    """Add the edges ``solver`` finds in ``node``'s state along fields not yet seen for
    each guard; whether it found any."""
    progress = False
    for edge in solver.edges(action, node.state, node.key, seeds, lines):
        facts = out.facts[(action, edge.guard)]
        if (edge.field, edge.line) in facts.edges:
            continue
        ok = tuple(session.domains.allowed(action, p, node.state, node.key)
                   for p in edge.requests)
        facts.edges[(edge.field, edge.line)] = (node, edge, ok)
        progress = True
    return progress


def _learn(out: Survey, action: str, guards: Iterable[Key], node: Node, sol: Solution) -> bool:
    """Add what ``sol`` found to ``out``; whether it found anything new."""
    progress = False
    for g in guards:
        facts = out.facts[(action, g)]
        facts.states += 1
        before = (facts.reached, facts.true, len(facts.targets))
        facts.reached |= g in sol.reached
        facts.true |= g in sol.true
        if not sol.complete and g not in sol.decided:
            facts.too_large = max(facts.too_large, sol.domain)
        else:
            facts.settled += 1
        if g in sol.undecided and (facts.undecided is None
                                   or facts.undecided.startswith(NOT_ASKED)):  # fmt: skip
            facts.undecided = sol.undecided[g]
        for want, table in (("allowed", sol.allowed), ("near miss", sol.near_miss),
                            ("miss", sol.miss), ("closest miss", sol.closest)):
            if g in table and want not in facts.targets:
                facts.targets[want] = (node, table[g])  # type: ignore[index]
                if (g, want) in sol.solved:
                    facts.solved[want] = (sol.domain, sol.solver_seconds)  # type: ignore[index]
        progress |= before != (facts.reached, facts.true, len(facts.targets))
    return progress


def sweep(session: Session, plan: Survey) -> None:
    """Send every target of ``plan`` (see the module docstring); StepFailed at the first
    step that does not conform."""
    unsent = drive(session, plan.targets())
    plan.diverged += len(unsent)
    plan.unreached |= {node.key for node, _ in unsent}
    plan.rewritten |= session.rewritten


def drive(session: Session, requests: Sequence[tuple[Node, Request]]
          ) -> list[tuple[Node, Request]]:  # fmt: skip
    """Send each request from its state (reached by a reset and the state's path):
    forbidden requests leave the state as it is, so those of one state go in one
    behaviour; each allowed one from a fresh walk.  StepFailed at the first step that
    does not conform; the requests not sent because the implementation went elsewhere
    on the way (to another successor the spec allows)."""
    by_node: dict[int, list[tuple[Node, Request]]] = {}
    for item in requests:
        by_node.setdefault(item[0].key, []).append(item)
    missed: list[tuple[Node, Request]] = []
    for group in by_node.values():
        node = group[0][0]
        forbidden = [r for _, r in group if not r.allowed]
        batches = ([forbidden] if forbidden else []) + [[r] for _, r in group if r.allowed]
        for batch in batches:
            reached = _walk_to(session, node)
            if reached is None:
                missed += [(node, r) for r in batch]
                continue
            initial, steps, state = reached
            for request in batch:
                state = session.apply(initial, steps, state, request)
    return missed


def _walk_to(session: Session, node: Node
             ) -> tuple[State, list[Taken], State] | None:  # fmt: skip
    """Reset the implementation and send the path's requests; the initial state, the
    steps and the state reached, or None when the implementation went elsewhere."""
    initial = state = session.start()
    steps: list[Taken] = []
    for hop in node.path:
        state = session.apply(initial, steps, state, Request(hop.action, hop.params, True))
        if session.key(state) != hop.after:
            return None
    return initial, steps, state

