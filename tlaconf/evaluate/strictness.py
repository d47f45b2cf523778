"""Which parameters an operator surely evaluates (its *strict* parameters).

TLC passes operator arguments unevaluated and evaluates one only where the body uses
it: ``LET F(x) == TRUE IN F(1 \\div 0)`` is TRUE.  A strict parameter (one every
evaluation of the body reads, such as ``x`` in ``x + 1`` or in the first conjunct of a
conjunction) can be evaluated by the caller without changing any result, which is
what the compiled code does; an argument for any other parameter is evaluated at the
call, and an error it raises is kept and raised only where the parameter is used.
"""

from __future__ import annotations

from collections.abc import Callable

from tlaconf.tla import ast as A

_FIRST_ONLY = frozenset({"/\\", "\\/", "=>"})


def strict_names(node: A.Node, is_builtin: Callable[[str, tuple[str, ...]], bool]
                 ) -> frozenset[str]:
    """Names that every evaluation of ``node`` reads (free names only).  ``is_builtin``
    says whether an applied operator is a built-in one (whose arguments are all
    evaluated) rather than a user definition (whose arguments may not be)."""
    s = lambda n: strict_names(n, is_builtin)  # noqa: E731
    if isinstance(node, A.Name):
        return frozenset() if node.module else frozenset({node.name})
    if isinstance(node, A.OpApp):
        if not node.args or not is_builtin(node.name, node.module):
            return frozenset()
        if node.name in _FIRST_ONLY and not node.module:
            return s(node.args[0])
        return frozenset().union(*(s(a) for a in node.args))
    if isinstance(node, A.Junction):
        return s(node.items[0]) if node.items else frozenset()
    if isinstance(node, A.If):
        return s(node.cond) | (s(node.then) & s(node.else_))
    if isinstance(node, A.Case):
        return s(node.arms[0][0]) if node.arms else frozenset()
    if isinstance(node, A.FnApp):
        return s(node.fn).union(*(s(a) for a in node.args))
    if isinstance(node, A.Dot | A.Label):
        return s(node.expr)
    if isinstance(node, A.SetEnum | A.Tuple):
        return frozenset().union(*(s(e) for e in node.elems))
    if isinstance(node, A.Record):
        return frozenset().union(*(s(v) for _, v in node.fields))
    if isinstance(node, A.Let):
        defined = {d.name for d in node.defs if isinstance(d, A.OpDef | A.FnDef)}
        return s(node.body) - defined
    if isinstance(node, A.Quant | A.SetMap | A.FnCons):
        return frozenset().union(*(s(b.domain) for b in node.bounds if b.domain is not None))
    if isinstance(node, A.Choose | A.SetFilter):
        return s(node.bound.domain) if node.bound.domain is not None else frozenset()
    if isinstance(node, A.Except):
        return s(node.fn)
    return frozenset()
