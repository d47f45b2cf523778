"""The usual recursive sum over a set, at 1,200 and 12,000 elements (beyond loading the
module): ``SumOver(f, S) == IF S = {} THEN 0 ELSE LET x == CHOOSE y \\in S : TRUE IN
f[x] + SumOver(f, S \\ {x})``, which tlaconf runs as a loop; and, for comparison, the same
recursion written so that it is not taken for that idiom (``CHOOSE y \\in S : y = y``),
evaluated as a recursion, at 1,200 elements (12,000 would be too deep)."""

from __future__ import annotations

import time

MODULE = """---- MODULE SumBench ----
EXTENDS Naturals, FiniteSets
RECURSIVE SumOver(_, _)
SumOver(f, S) == IF S = {{}} THEN 0 ELSE LET x == CHOOSE y \\in S : {pick} IN
    f[x] + SumOver(f, S \\ {{x}})
F == [i \\in 1..{n} |-> i]
Total == SumOver(F, DOMAIN F)
====
"""


def seconds(n: int, pick: str) -> float:
    """CPU seconds to evaluate the sum over ``n`` elements (the module loaded before; CPU
    time, as a loaded machine's wall clock is mostly other processes' at this scale)."""
    from tlaconf.evaluate import budget, load_text

    ctx = load_text(MODULE.format(n=n, pick=pick), filename="SumBench.tla")
    with budget.run(0):
        ctx.value("F")
        start = time.process_time()
        total = ctx.value("Total")
        took = time.process_time() - start
    if total != n * (n + 1) // 2:
        raise AssertionError(f"SumOver gave {total} for n = {n}")
    return took


def main() -> None:
    small, large = seconds(1_200, "TRUE"), seconds(12_000, "TRUE")
    recursion = seconds(1_200, "y = y")
    print(f"recursive sum over a set (CPU): 1,200 elements {small * 1000:.1f} ms, 12,000 elements "
          f"{large * 1000:.1f} ms ({large / small:.1f}x for 10x the elements)")
    print(f"the same sum evaluated as a recursion, 1,200 elements: {recursion:.2f} s "
          f"({recursion / small:,.0f}x the loop)")


if __name__ == "__main__":
    main()
