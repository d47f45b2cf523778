"""Strongly connected components, iteratively (Tarjan's algorithm without recursion)."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def components(nodes: Iterable[int], succ: Callable[[int], Iterable[int]],
               inside: Callable[[int], bool]) -> list[list[int]]:
    """The strongly connected components of the subgraph of the nodes for which
    ``inside`` holds, reached from ``nodes``; each in no particular order."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    out: list[list[int]] = []
    for root in nodes:
        if root in index or not inside(root):
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(succ(root)))]
        while work:
            v, it = work[-1]
            pushed = False
            for w in it:
                if not inside(w):
                    continue
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(succ(w))))
                    pushed = True
                    break
                if w in on_stack and index[w] < low[v]:
                    low[v] = index[w]
            if pushed:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                if low[v] < low[parent]:
                    low[parent] = low[v]
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out
