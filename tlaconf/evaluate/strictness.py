"""Which parameters an operator surely evaluates (its *strict* parameters).

TLC passes operator arguments unevaluated and evaluates one only where the body uses
it: ``LET F(x) == TRUE IN F(1 \\div 0)`` is TRUE.  A strict parameter (one every
evaluation of the body reads, such as ``x`` in ``x + 1`` or in the first conjunct of a
conjunction) can be evaluated by the caller without changing any result, which is
what the compiled code does; an argument for any other parameter is evaluated at the
call, and an error it raises is kept and raised only where the parameter is used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tlaconf.evaluate.actionwalk import ActionVisitor
from tlaconf.tla import ast as A

Builtin = Callable[[str, tuple[str, ...]], bool]


def strict_names(node: A.Node, is_builtin: Builtin) -> frozenset[str]:
    """Names that every evaluation of ``node`` reads (free names only).  ``is_builtin``
    says whether an applied operator is a built-in one (whose arguments are all
    evaluated) rather than a user definition (whose arguments may not be)."""
    return _Strict(is_builtin).visit(node, None)


class _Strict(ActionVisitor[None, frozenset[str]]):
    def __init__(self, is_builtin: Builtin) -> None:
        self.is_builtin = is_builtin

    def s(self, node: A.Node | None) -> frozenset[str]:
        return frozenset() if node is None else self.visit(node, None)

    def all(self, nodes: Iterable[A.Node | None]) -> frozenset[str]:
        return frozenset().union(*(self.s(n) for n in nodes))

    def _first(self, node: A.Junction, c: None) -> frozenset[str]:
        """Only the first item of a junction is surely evaluated (short-circuit)."""
        return self.s(node.items[0]) if node.items else frozenset()

    conj = disj = _first

    def implies(self, node: A.OpApp, c: None) -> frozenset[str]:
        if not self.is_builtin(node.name, node.module):
            return frozenset()
        return self.s(node.args[0])

    def call(self, node: A.Name | A.OpApp, c: None) -> frozenset[str]:
        if isinstance(node, A.Name):
            return frozenset() if node.module else frozenset({node.name})
        if not node.args or not self.is_builtin(node.name, node.module):
            return frozenset()
        return self.all(node.args)

    def if_(self, node: A.If, c: None) -> frozenset[str]:
        return self.s(node.cond) | (self.s(node.then) & self.s(node.else_))

    def case(self, node: A.Case, c: None) -> frozenset[str]:
        return self.s(node.arms[0][0]) if node.arms else frozenset()

    def let(self, node: A.Let, c: None) -> frozenset[str]:
        defined = {d.name for d in node.defs if isinstance(d, A.OpDef | A.FnDef)}
        return self.s(node.body) - defined

    def _bounded(self, node: A.Quant, c: None) -> frozenset[str]:
        return self.all(b.domain for b in node.bounds)

    forall = exists = _bounded

    def other(self, node: A.Node, c: None) -> frozenset[str]:
        if isinstance(node, A.FnApp):
            return self.s(node.fn) | self.all(node.args)
        if isinstance(node, A.Dot):
            return self.s(node.expr)
        if isinstance(node, A.SetEnum | A.Tuple):
            return self.all(node.elems)
        if isinstance(node, A.Record):
            return self.all(v for _, v in node.fields)
        if isinstance(node, A.SetMap | A.FnCons):
            return self.all(b.domain for b in node.bounds)
        if isinstance(node, A.Choose | A.SetFilter):
            return self.s(node.bound.domain)
        if isinstance(node, A.Except):
            return self.s(node.fn)
        return frozenset()
