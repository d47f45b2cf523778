"""The tableau of a temporal formula: a generalized Büchi automaton accepting exactly the
behaviours that satisfy it (the construction of Gerth, Peled, Vardi and Wolper,
"Simple on-the-fly automatic verification of linear temporal logic", 1995).

Each node carries the literals that must hold where a run is in it: a state literal on
the state, an action literal on the step that leaves it.  A run is accepted when, for
every until-formula ``a U b``, it is infinitely often in a node that does not promise
``a U b`` or that has ``b``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tlaconf.explore.temporal.formula import FALSE, Formula

Literal = tuple[int, bool]


@dataclass(frozen=True)
class Tableau:
    """``succ[q]``: the nodes after ``q``; ``initial``: the nodes a run starts in;
    ``literals[q]``: what holds in ``q``; ``accepting``: one set of nodes per until."""

    literals: tuple[tuple[Literal, ...], ...]
    succ: tuple[tuple[int, ...], ...]
    initial: tuple[int, ...]
    accepting: tuple[frozenset[int], ...]


@dataclass
class _Node:
    incoming: set[int]
    new: set[Formula]
    old: set[Formula]
    next: set[Formula]


_INIT = -1


def tableau(f: Formula) -> Tableau:
    """The automaton of ``f`` (in negation normal form)."""
    done: list[_Node] = []
    index: dict[tuple[frozenset[Formula], frozenset[Formula]], int] = {}
    todo = [_Node({_INIT}, {f}, set(), set())]
    while todo:
        node = todo.pop()
        if not node.new:
            key = (frozenset(node.old), frozenset(node.next))
            at = index.get(key)
            if at is not None:
                done[at].incoming |= node.incoming
                continue
            index[key] = len(done)
            done.append(node)
            todo.append(_Node({len(done) - 1}, set(node.next), set(), set()))
            continue
        g = node.new.pop()
        if g in node.old:
            todo.append(node)
            continue
        op = g[0]
        if op in ("true", "false", "lit"):
            if g == FALSE or (op == "lit" and ("lit", g[1], not g[2]) in node.old):
                continue
            node.old.add(g)
            todo.append(node)
        elif op == "and":
            node.old.add(g)
            node.new |= {g[1], g[2]} - node.old
            todo.append(node)
        elif op == "or":
            todo.append(_split(node, g, {g[1]}, set()))
            todo.append(_split(node, g, {g[2]}, set()))
        elif op == "U":
            todo.append(_split(node, g, {g[1]}, {g}))
            todo.append(_split(node, g, {g[2]}, set()))
        else:  # R
            todo.append(_split(node, g, {g[2]}, {g}))
            todo.append(_split(node, g, {g[1], g[2]}, set()))
    succ: list[list[int]] = [[] for _ in done]
    initial = []
    for q, n in enumerate(done):
        for p in n.incoming:
            if p == _INIT:
                initial.append(q)
            else:
                succ[p].append(q)
    untils = sorted({g for n in done for g in n.old if g[0] == "U"}, key=repr)
    accepting = tuple(frozenset(q for q, n in enumerate(done)
                                if u not in n.old or u[2] in n.old) for u in untils)
    literals = tuple(tuple(sorted((g[1], g[2]) for g in n.old if g[0] == "lit"))
                     for n in done)
    return Tableau(literals, tuple(tuple(sorted(s)) for s in succ), tuple(sorted(initial)),
                   accepting)


def _split(node: _Node, g: Formula, new: set[Formula], nxt: set[Formula]) -> _Node:
    old = node.old | {g}
    return _Node(set(node.incoming), node.new | (new - old), old, node.next | nxt)

