"""The one generic traversal of the AST: every analysis that walks nodes it does not
special-case goes through :func:`children` (as Lark's ``Tree.iter_subtrees`` and mypy's
``TraverserVisitor`` serve every pass of those tools).

* :func:`children` — the direct sub-nodes of a node, in field order (expressions,
  bounds, units, EXCEPT steps; tuples of them flattened, ``span`` skipped);
* :func:`iter_nodes` — a node and all its descendants, pre-order;
* :func:`used_names` — every unqualified name a node refers to;
* :func:`free_names` — the names a node uses and does not bind itself (the binding
  structure of quantifiers, comprehensions, ``CHOOSE``, ``LAMBDA`` and ``LET``);
* :class:`NodeFacts` — the same free names, and whether a node holds a node of some
  kinds, remembered per node: asked of every node of a deep tree, linear in its size.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Any

from tlaconf.tla import ast as A

FreeName = tuple[str, tuple[str, ...]]
"""A name and its instance path (``("x", ())``, ``("N", ("M",))`` for ``M!N``)."""


@cache
def _fields(cls: Any) -> tuple[str, ...]:
    """The names of a node class's fields that can hold sub-nodes (all but ``span``)."""
    return tuple(f.name for f in dataclasses.fields(cls) if f.name != "span")


def children(node: A.Node) -> Iterator[A.Node]:
    """The direct sub-nodes of ``node`` in field order."""
    cls: Any = type(node)
    for name in _fields(cls):
        yield from _nodes(getattr(node, name))


def _nodes(v: Any) -> Iterator[A.Node]:
    if isinstance(v, A.Node):
        yield v
    elif isinstance(v, tuple):
        for x in v:
            yield from _nodes(x)


def iter_nodes(root: A.Node | Iterable[A.Node],
               prune: Callable[[A.Node], bool] | None = None) -> Iterator[A.Node]:
    """``root`` (a node or several) and every node below it, pre-order.  With ``prune``,
    a node for which it is TRUE is yielded but its descendants are not."""
    stack: list[A.Node] = [root] if isinstance(root, A.Node) else list(root)[::-1]
    while stack:
        node = stack.pop()
        yield node
        if prune is None or not prune(node):
            stack.extend(reversed(tuple(children(node))))


def used_names(root: A.Node | Iterable[A.Node]) -> Iterator[str]:
    """Every unqualified name (``Name`` or applied operator) ``root`` refers to."""
    for n in iter_nodes(root):
        if isinstance(n, A.Name | A.OpApp) and not n.module:
            yield n.name


def free_names(node: A.Node, bound: Iterable[str] = ()) -> set[FreeName]:
    """Names (with instance path) used in ``node`` and bound neither inside it nor in
    ``bound``.  A qualified name (``M!x``) is always free."""
    return set(NodeFacts(_never).free(node, bound))


def _never(node: A.Node) -> bool:
    return False


def _unbound(names: frozenset[FreeName], bound: Iterable[str]) -> frozenset[FreeName]:
    """``names`` without the unqualified ones in ``bound``."""
    b = set(bound)
    if not b or not names:
        return names
    return frozenset(n for n in names if n[1] or n[0] not in b)


def _fill(root: A.Node, memo: dict[int, tuple[A.Node, Any]],
          compute: Callable[[A.Node], Any]) -> None:
    """``memo[id(n)] = (n, compute(n))`` for ``root`` and every node below it not there
    yet, children first, without recursion (so a chain of any depth is analysed)."""
    stack: list[tuple[A.Node, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        hit = memo.get(id(node))
        if hit is not None and hit[0] is node:
            continue
        if expanded:
            memo[id(node)] = (node, compute(node))
            continue
        stack.append((node, True))
        stack.extend((c, False) for c in children(node))


class NodeFacts:
    """:func:`free_names` and a "holds a node such that" test, each node's answer
    computed once from its children's (so asking them of every sub-node of a chain of
    ``n`` nodes costs ``O(n)``, not ``O(n^2)``).  ``holds`` is the test of one node."""

    def __init__(self, holds: Callable[[A.Node], bool]) -> None:
        self._holds = holds
        self._free: dict[int, tuple[A.Node, frozenset[FreeName]]] = {}
        self._has: dict[int, tuple[A.Node, bool]] = {}

    def has(self, node: A.Node) -> bool:
        """Whether ``node`` or a node below it passes ``holds``."""
        memo = self._has
        _fill(node, memo, lambda n: self._holds(n) or any(memo[id(c)][1] for c in children(n)))
        return memo[id(node)][1]

    def free(self, node: A.Node, bound: Iterable[str] = ()) -> frozenset[FreeName]:
        """:func:`free_names` of ``node``."""
        _fill(node, self._free, self._own_free)
        return _unbound(self._free[id(node)][1], bound)

    def _own_free(self, node: A.Node) -> frozenset[FreeName]:
        f = self.free
        parts: list[frozenset[FreeName]] = []
        if isinstance(node, A.Name | A.OpApp):
            parts = [frozenset({(node.name, node.module)}),
                     *(f(a) for a in getattr(node, "args", ()))]
        elif isinstance(node, A.Quant | A.SetMap | A.FnCons):
            parts = [f(b.domain) for b in node.bounds if b.domain is not None]
            body = node.expr if isinstance(node, A.SetMap) else node.body
            parts.append(f(body, [n for b in node.bounds for n in b.names]))
        elif isinstance(node, A.Choose | A.SetFilter):
            b = node.bound
            parts = [f(b.domain)] if b.domain is not None else []
            parts.append(f(node.body if isinstance(node, A.Choose) else node.pred, b.names))
        elif isinstance(node, A.Lambda):
            parts = [f(node.body, node.params)]
        elif isinstance(node, A.Let):
            inner = {d.name for d in node.defs if isinstance(d, A.OpDef | A.FnDef)}
            for d in node.defs:
                if isinstance(d, A.OpDef):
                    parts.append(f(d.body, inner | {p.name for p in d.params}))
                elif isinstance(d, A.FnDef):
                    parts += [f(b.domain, inner) for b in d.bounds if b.domain is not None]
                    parts.append(f(d.body, inner | {n for b in d.bounds for n in b.names}))
            parts.append(f(node.body, inner))
        else:
            parts = [f(c) for c in children(node)]
        if len(parts) == 1:
            return parts[0]
        return frozenset().union(*parts)
