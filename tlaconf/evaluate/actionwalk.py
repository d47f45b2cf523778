"""One dispatch over the structure of a formula as an action, for every analysis that
walks it: blame, ENABLED, coverage (its walk, its value walk and its static outline),
the assignment check and strictness.

:class:`ActionVisitor` recognises the forms (conjunction, disjunction, implication,
negation, ``=``/``\\in``, ``UNCHANGED``, ``\\A``, ``\\E``, ``IF``, ``CASE``, ``LET``,
``[A]_v``, an operator call, anything else) once; an analysis overrides the hooks of
the forms it treats and inherits the rest.  A hook that is not overridden treats its
node as the next more general form: an implication, a negation and ``=``/``\\in`` are
operator applications (:meth:`~ActionVisitor.call`), and a call, like every other form,
is :meth:`~ActionVisitor.other`.  A label is always transparent.  ``C`` is the
analysis's context (namespace, bound names, ...), ``T`` what it computes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from tlaconf.evaluate.fail import Fail
from tlaconf.tla import ast as A

C = TypeVar("C")
T = TypeVar("T")

NO_CASE_ARM = "no CASE arm is TRUE (and there is no OTHER)"


def no_case_arm(sid: int) -> Fail:
    """The error of a CASE whose guards are all FALSE and that has no OTHER arm."""
    return Fail(NO_CASE_ARM, (), sid)


def taken_arm(node: A.Case, test: Callable[[A.Expr], bool], sid: int) -> A.Expr:
    """The arm a CASE takes: the first whose guard ``test`` finds TRUE, else OTHER; the
    :func:`no_case_arm` error when there is neither."""
    for guard, arm in node.arms:
        if test(guard):
            return arm
    if node.other is None:
        raise no_case_arm(sid)
    return node.other


class ActionVisitor(Generic[C, T]):
    """The dispatch; subclasses override the hooks (each receives the node and ``C``)."""

    def visit(self, node: A.Node, c: C) -> T:
        while isinstance(node, A.Label):
            node = node.expr
        if isinstance(node, A.Junction):
            return self.conj(node, c) if node.op == "/\\" else self.disj(node, c)
        if isinstance(node, A.OpApp):
            if not node.module:
                name = node.name
                if name == "=" or name == "\\in":
                    return self.relation(node, c)
                if name == "=>":
                    return self.implies(node, c)
                if name == "~":
                    return self.negation(node, c)
            return self.call(node, c)
        if isinstance(node, A.Name):
            return self.call(node, c)
        if isinstance(node, A.Quant):
            return self.forall(node, c) if node.kind == "A" else self.exists(node, c)
        if isinstance(node, A.If):
            return self.if_(node, c)
        if isinstance(node, A.Case):
            return self.case(node, c)
        if isinstance(node, A.Let):
            return self.let(node, c)
        if isinstance(node, A.Unchanged):
            return self.unchanged(node, c)
        if isinstance(node, A.ActionBox):
            return self.box(node, c)
        return self.other(node, c)

    def other(self, node: A.Node, c: C) -> T:
        """Any form no other hook treats."""
        raise NotImplementedError

    def conj(self, node: A.Junction, c: C) -> T:
        """``/\\`` (infix or bulleted, any number of items)."""
        return self.other(node, c)

    def disj(self, node: A.Junction, c: C) -> T:
        """``\\/`` (infix or bulleted)."""
        return self.other(node, c)

    def call(self, node: A.Name | A.OpApp, c: C) -> T:
        """A name or an operator application (built-in or defined)."""
        return self.other(node, c)

    def relation(self, node: A.OpApp, c: C) -> T:
        """``a = b`` or ``a \\in S`` (an assignment when ``a`` is an unassigned ``x'``)."""
        return self.call(node, c)

    def implies(self, node: A.OpApp, c: C) -> T:
        return self.call(node, c)

    def negation(self, node: A.OpApp, c: C) -> T:
        return self.call(node, c)

    def forall(self, node: A.Quant, c: C) -> T:
        return self.other(node, c)

    def exists(self, node: A.Quant, c: C) -> T:
        return self.other(node, c)

    def if_(self, node: A.If, c: C) -> T:
        return self.other(node, c)

    def case(self, node: A.Case, c: C) -> T:
        return self.other(node, c)

    def let(self, node: A.Let, c: C) -> T:
        return self.other(node, c)

    def unchanged(self, node: A.Unchanged, c: C) -> T:
        return self.other(node, c)

    def box(self, node: A.ActionBox, c: C) -> T:
        """``[A]_v`` or ``<<A>>_v``."""
        return self.other(node, c)
