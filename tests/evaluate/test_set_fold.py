"""The recursive fold over a set (``IF S = {} THEN b ELSE LET x == CHOOSE y \\in S : TRUE IN
E(x) (+) Op(S \\ {x})``) runs as a loop: the same values and the same errors as the
recursion (written with ``CHOOSE y \\in S : y = y``, which the compiler does not take for
the idiom), and no recursion at all (a set whose recursion would be too deep)."""

from __future__ import annotations

import pytest

from tlaconf.evaluate import EvalError, budget, load_text

MODULE = """---- MODULE Fold ----
EXTENDS Naturals, Sequences, FiniteSets
RECURSIVE Sum(_, _), RSum(_, _), Cat(_), RCat(_), Diff(_), UsesS(_), Union(_, _)
Sum(f, S) == IF S = {{}} THEN 0 ELSE LET x == CHOOSE y \\in S : {pick} IN
    f[x] + Sum(f, S \\ {{x}})
RSum(f, S) == IF {{}} = S THEN 0 ELSE LET x == CHOOSE y \\in S : {pick} IN
    RSum(f, S \\ {{x}}) + f[x]
Cat(S) == IF S = {{}} THEN <<>> ELSE LET x == CHOOSE y \\in S : {pick} IN
    <<x>> \\o Cat(S \\ {{x}})
RCat(S) == IF S = {{}} THEN <<"end">> ELSE LET x == CHOOSE y \\in S : {pick} IN
    RCat(S \\ {{x}}) \\o <<x>>
Diff(S) == IF S = {{}} THEN 100 ELSE LET x == CHOOSE y \\in S : {pick} IN
    x - Diff(S \\ {{x}})
UsesS(S) == IF S = {{}} THEN 0 ELSE LET x == CHOOSE y \\in S : {pick} IN
    Cardinality(S) + UsesS(S \\ {{x}})
Union(f, S) == IF S = {{}} THEN {{}} ELSE LET x == CHOOSE y \\in S : {pick} IN
    f[x] \\cup Union(f, S \\ {{x}})
====
"""

CASES = [
    "Sum([i \\in 1..30 |-> i * i], 1..30)",
    "Sum([i \\in 1..30 |-> i * i], {3, 1, 29})",
    "RSum([i \\in 1..9 |-> i], 1..9)",
    "Cat({\"b\", \"a\", \"c\"})",
    "RCat({3, 1, 2})",
    "Diff(1..7)",
    "UsesS(1..6)",
    "Union([i \\in 1..4 |-> {i, i + 1}], 1..4)",
    "Sum([i \\in 1..3 |-> i], {})",
    "Sum([i \\in 1..3 |-> i], 1..4)",            # f[4]: not in the domain
    "RSum([i \\in 1..3 |-> i], 0..3)",           # f[0], reached last
    "Sum([i \\in 1..3 |-> IF i = 2 THEN \"two\" ELSE i], 1..3)",  # + of a string
    "RSum([i \\in 1..3 |-> IF i = 2 THEN \"two\" ELSE i], 1..3)",
    "Sum([i \\in 1..3 |-> i], 7)",               # not a set
    "Sum([i \\in 1..3 |-> i], Nat)",             # infinite
    "Union([i \\in 1..2 |-> {i}], {1, 2} \\cup {3})",
]


def _answer(ctx: object, expr: str) -> object:
    try:
        return ("value", ctx.evaluate(expr))  # type: ignore[attr-defined]
    except EvalError as err:
        return ("error", str(err))


@pytest.fixture(scope="module")
def contexts() -> tuple[object, object]:
    fold = load_text(MODULE.format(pick="TRUE"), filename="Fold.tla")
    recursion = load_text(MODULE.format(pick="y=y "), filename="Fold.tla")  # same columns
    return fold, recursion


@pytest.mark.parametrize("expr", CASES)
def test_the_loop_gives_what_the_recursion_gives(expr: str, contexts: tuple[object, object]
                                                 ) -> None:
    fold, recursion = contexts
    assert _answer(fold, expr) == _answer(recursion, expr)


def test_a_fold_over_more_elements_than_the_recursion_limit() -> None:
    fold = load_text(MODULE.format(pick="TRUE"))
    with budget.run(10):  # the recursion would be too deep (and quadratic)
        assert fold.evaluate("Sum([i \\in 1..50000 |-> 1], 1..50000)") == 50000
