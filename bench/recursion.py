"""Recursion over a set, at 1,200 and 12,000 elements (CPU beyond loading the module):
the usual recursive sum ``SumOver(f, S) == IF S = {} THEN 0 ELSE LET x == CHOOSE y \\in S :
TRUE IN f[x] + SumOver(f, S \\ {x})``, which tlaconf runs as a loop, and recursions it does
not take for that idiom (evaluated as recursions: ``S \\ {x}`` is a view of ``S``, CHOOSE
walks an order sorted once, and past Python's usual depth the evaluation runs again on a
deep stack): a CHOOSE with a predicate, two accumulators, ``S \\ {x}`` through a helper
operator, a CHOOSE whose predicate is not TRUE for the least element, and recursions
building a sequence and a set (these copy what they build, as TLC does); 24,000 too, to
show the growth past the depth where the evaluation moves to a deep stack."""

from __future__ import annotations

import time

MODULE = """---- MODULE SumBench ----
EXTENDS Naturals, Sequences, FiniteSets
RECURSIVE SumOver(_, _), Pick(_), Acc(_, _, _), ViaHelper(_), Late(_), Cat(_), Up(_)
SumOver(f, S) == IF S = {{}} THEN 0 ELSE LET x == CHOOSE y \\in S : TRUE IN
    f[x] + SumOver(f, S \\ {{x}})
Pick(S) == IF S = {{}} THEN 0 ELSE LET x == CHOOSE y \\in S : y = y IN x + Pick(S \\ {{x}})
Acc(S, a, b) == IF S = {{}} THEN a + b ELSE LET x == CHOOSE y \\in S : TRUE IN
    Acc(S \\ {{x}}, a + x, b + 1)
Rest(S, x) == S \\ {{x}}
ViaHelper(S) == IF Cardinality(S) = 0 THEN 0 ELSE LET x == CHOOSE y \\in S : TRUE IN
    x + ViaHelper(Rest(S, x))
Late(S) == IF S = {{}} THEN 0 ELSE LET x == CHOOSE y \\in S : y > 5 \\/ Cardinality(S) <= 5 IN
    x + Late(S \\ {{x}})
Cat(S) == IF S = {{}} THEN <<>> ELSE LET x == CHOOSE y \\in S : y = y IN
    <<x>> \\o Cat(S \\ {{x}})
Up(S) == IF S = {{}} THEN {{}} ELSE LET x == CHOOSE y \\in S : y = y IN
    {{x + 1}} \\cup Up(S \\ {{x}})
F == [i \\in 1..{n} |-> i]
====
"""
SHAPES = [  # (what, expression, its value for n)
    ("the recursive sum (the fold idiom, a loop)", "SumOver(F, DOMAIN F)",
     lambda n: n * (n + 1) // 2),
    ("CHOOSE y \\in S : y = y", "Pick(DOMAIN F)", lambda n: n * (n + 1) // 2),
    ("two accumulators", "Acc(DOMAIN F, 0, 0)", lambda n: n * (n + 1) // 2 + n),
    ("S \\ {x} through a helper", "ViaHelper({i : i \\in DOMAIN F})",
     lambda n: n * (n + 1) // 2),
    ("CHOOSE not of the least", "Late(DOMAIN F)", lambda n: n * (n + 1) // 2),
    ("a sequence built", "Len(Cat(DOMAIN F))", lambda n: n),
    ("a set built", "Cardinality(Up(DOMAIN F))", lambda n: n),
]


def seconds(n: int, expr: str, expected: int) -> float:
    """CPU seconds to evaluate ``expr`` over ``n`` elements (the module loaded before; CPU
    time, as a loaded machine's wall clock is mostly other processes' at this scale)."""
    from tlaconf.evaluate import budget, load_text

    ctx = load_text(MODULE.format(n=n), filename="SumBench.tla")
    with budget.run(0):
        ctx.value("F")
        start = time.process_time()
        got = ctx.evaluate(expr)
        took = time.process_time() - start
    if got != expected:
        raise AssertionError(f"{expr} gave {got} for n = {n}, not {expected}")
    return took


def main() -> None:
    for what, expr, value in SHAPES:
        small, large, larger = (seconds(n, expr, value(n)) for n in (1_200, 12_000, 24_000))
        print(f"recursion over a set (CPU), {what}: 1,200 elements {small * 1000:.1f} ms, "
              f"12,000 elements {large * 1000:.1f} ms ({large / small:.1f}x for 10x the "
              f"elements), 24,000 {larger * 1000:.1f} ms ({larger / large:.1f}x for 2x)",
              flush=True)
    print("(past about 10,000 levels a recursion is evaluated again on a deep stack: "
          "12,000 includes the first, too deep, attempt)")


if __name__ == "__main__":
    main()
