"""The one generic traversal of the AST: every analysis that walks nodes it does not
special-case goes through :func:`children` (as Lark's ``Tree.iter_subtrees`` and mypy's
``TraverserVisitor`` serve every pass of those tools).

* :func:`children` — the direct sub-nodes of a node, in field order (expressions,
  bounds, units, EXCEPT steps; tuples of them flattened, ``span`` skipped);
* :func:`iter_nodes` — a node and all its descendants, pre-order;
* :func:`used_names` — every unqualified name a node refers to;
* :func:`free_names` — the names a node uses and does not bind itself (the binding
  structure of quantifiers, comprehensions, ``CHOOSE``, ``LAMBDA`` and ``LET``).
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
    out: set[FreeName] = set()
    _free(node, frozenset(bound), out)
    return out


def _free(node: A.Node, bound: frozenset[str], out: set[FreeName]) -> None:
    if isinstance(node, A.Name | A.OpApp):
        if node.module or node.name not in bound:
            out.add((node.name, node.module))
        for a in getattr(node, "args", ()):
            _free(a, bound, out)
        return
    if isinstance(node, A.Quant | A.SetMap | A.FnCons):
        inner = bound
        for b in node.bounds:
            if b.domain is not None:
                _free(b.domain, bound, out)
            inner = inner | set(b.names)
        _free(node.expr if isinstance(node, A.SetMap) else node.body, inner, out)
        return
    if isinstance(node, A.Choose | A.SetFilter):
        b = node.bound
        if b.domain is not None:
            _free(b.domain, bound, out)
        _free(node.body if isinstance(node, A.Choose) else node.pred, bound | set(b.names), out)
        return
    if isinstance(node, A.Lambda):
        _free(node.body, bound | set(node.params), out)
        return
    if isinstance(node, A.Let):
        inner = bound | {d.name for d in node.defs if isinstance(d, A.OpDef | A.FnDef)}
        for d in node.defs:
            if isinstance(d, A.OpDef):
                _free(d.body, inner | {p.name for p in d.params}, out)
            elif isinstance(d, A.FnDef):
                for b in d.bounds:
                    if b.domain is not None:
                        _free(b.domain, inner, out)
                _free(d.body, inner | {n for b in d.bounds for n in b.names}, out)
        _free(node.body, inner, out)
        return
    for ch in children(node):
        _free(ch, bound, out)
