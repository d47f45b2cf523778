"""Temporal formulas in negation normal form, over atoms that the evaluator decides.

A formula is a hashable tuple: ``("true",)``, ``("false",)``, ``("lit", k, positive)``
(atom ``k`` of an :class:`Atoms` table, or its negation), ``("and", a, b)``,
``("or", a, b)``, ``("U", a, b)`` (``a`` until ``b``) and ``("R", a, b)`` (``a``
releases ``b``).  ``<>f`` is ``("U", TRUE, f)`` and ``[]f`` is ``("R", FALSE, f)``:
TLA+ has no next-time operator, and its formulas are invariant under stuttering.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tlaconf.evaluate.walk import Env
from tlaconf.explore.adapter import Namespace
from tlaconf.tla import ast as A

Formula = tuple[Any, ...]
TRUE: Formula = ("true",)
FALSE: Formula = ("false",)


@dataclass(frozen=True)
class Atom:
    """A formula without temporal operators: a state predicate, or an action (it reads
    the next state, ``action=True``), decided on a state or on a step."""

    node: A.Node
    ns: Namespace
    env: Env
    action: bool
    text: str
    span: A.Span
    """Where the formula it stands for is written (``[]P`` for an invariant ``P``)."""


def lit(k: int, positive: bool = True) -> Formula:
    return ("lit", k, positive)


def conj(a: Formula, b: Formula) -> Formula:
    if a == FALSE or b == FALSE:
        return FALSE
    if a == TRUE:
        return b
    return a if b == TRUE else ("and", a, b)


def disj(a: Formula, b: Formula) -> Formula:
    if a == TRUE or b == TRUE:
        return TRUE
    if a == FALSE:
        return b
    return a if b == FALSE else ("or", a, b)


def eventually(f: Formula) -> Formula:
    return ("U", TRUE, f)


def always(f: Formula) -> Formula:
    return ("R", FALSE, f)


def negate(f: Formula) -> Formula:
    """``~f`` in negation normal form."""
    op = f[0]
    if op == "true":
        return FALSE
    if op == "false":
        return TRUE
    if op == "lit":
        return ("lit", f[1], not f[2])
    if op == "and":
        return disj(negate(f[1]), negate(f[2]))
    if op == "or":
        return conj(negate(f[1]), negate(f[2]))
    if op == "U":
        return ("R", negate(f[1]), negate(f[2]))
    return ("U", negate(f[1]), negate(f[2]))
