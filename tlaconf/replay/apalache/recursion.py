"""Recursive functions counted up from 0, written as Apalache's fold.

Apalache has no recursive operators or functions (since 0.23.1: "use folds").  A
function defined by recursion on ``0..E``, each value from the one before,

    F[x \\in 0..E] == IF x = 0 THEN B ELSE G       (F used in G only as F[x - 1])

is the fold of ``G`` (with ``F[x - 1]`` its accumulator) over ``1, ..., x``, started
from ``B``.  :func:`recursion` recognizes that shape; :mod:`~tlaconf.replay.apalache.sequences`
sends such a definition as

    F == LET tlaconf_fold_F(tlaconf_acc_F, x) == G' IN
         [tlaconf_n \\in 0..E |-> ApaFoldSeqLeft(tlaconf_fold_F, B,
                                   SubSeq(MkSeq(E, LAMBDA k: k + 0), 1, tlaconf_n))]

(``G'`` is ``G`` with ``tlaconf_acc_F`` for ``F[x - 1]``): the same function, for an
``E`` Apalache can take as a constant (``MkSeq``'s length).  Any other recursion is
sent as written (and Apalache refuses it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tlaconf.tla import ast
from tlaconf.tla.visit import iter_nodes


@dataclass(frozen=True)
class Recursion:
    """The parts of ``F[x \\in 0..E] == IF x = 0 THEN B ELSE G``."""

    name: str
    index: str
    bound: Any
    base: Any
    step: Any
    calls: tuple[ast.FnApp, ...]
    """The ``F[x - 1]`` of ``G``."""

    @property
    def accumulator(self) -> str:
        return f"tlaconf_acc_{self.name}"


def _is(node: Any, name: str) -> bool:
    return isinstance(node, ast.Name) and node.name == name and not node.module


def _is_num(node: Any, value: int) -> bool:
    return isinstance(node, ast.Num) and node.value == value


def _is_op(node: Any, op: str) -> bool:
    return (isinstance(node, ast.OpApp) and node.name == op and not node.module
            and len(node.args) == 2)


def _previous(node: Any, name: str, index: str) -> bool:
    """``node`` is ``F[x - 1]``."""
    if not (isinstance(node, ast.FnApp) and _is(node.fn, name) and len(node.args) == 1):
        return False
    arg: Any = node.args[0]
    return _is_op(arg, "-") and _is(arg.args[0], index) and _is_num(arg.args[1], 1)


def _mentions(node: Any, name: str) -> list[Any]:
    return [n for n in iter_nodes(node) if isinstance(n, ast.Name | ast.OpApp) and n.name == name]


def recursion(node: ast.Node) -> Recursion | None:
    """The parts of ``node`` when it is a function defined by recursion on ``0..E`` as
    above, else None."""
    if not (isinstance(node, ast.FnDef) and len(node.bounds) == 1):
        return None
    bound = node.bounds[0]
    if len(bound.names) != 1 or bound.tuple_pattern or not _is_op(bound.domain, ".."):
        return None
    domain: Any = bound.domain
    index, (low, high) = bound.names[0], domain.args
    body = node.body
    if not (_is_num(low, 0) and isinstance(body, ast.If) and _is_op(body.cond, "=")):
        return None
    cond: Any = body.cond
    if not (_is(cond.args[0], index) and _is_num(cond.args[1], 0)):
        return None
    if _mentions(high, node.name) or _mentions(body.then, node.name):
        return None
    if any(e.span.line != e.span.end_line for e in (high, body.then)):
        return None  # (copied after the step: it must not add a line)
    calls: list[Any] = [n for n in iter_nodes(body.else_) if _previous(n, node.name, index)]
    previous = {id(c.fn) for c in calls}
    if any(id(n) not in previous for n in _mentions(body.else_, node.name)):
        return None  # F used otherwise than as F[x - 1]
    return Recursion(node.name, index, high, body.then, body.else_, tuple(calls))
