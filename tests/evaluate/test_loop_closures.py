"""A lazy value made inside a comprehension keeps the bound variable's value of its element.

``{j \\in 1..3 : j <= i}`` over an interval is a lazy set (a filter evaluated when it is
used); made inside ``{... : i \\in 1..3}``, it is used after the comprehension has moved
on, and it once saw the last ``i`` for every element (``{{1, 2, 3}}`` for the set of
prefixes below).  The expected values are TLA+'s (and TLC's).
"""

from __future__ import annotations

import pytest

from tlaconf.evaluate.context import load_text
from tlaconf.values.printing import to_tla

CASES = {
    "{{j \\in 1..3 : j <= i} : i \\in 1..3}": "{{1}, {1, 2}, {1, 2, 3}}",
    "{<<i, {j \\in 1..3 : j < i}>> : i \\in 1..3}": "{<<1, {}>>, <<2, {1}>>, <<3, {1, 2}>>}",
    "{{j \\in 1..4 : j <= i + k} : i \\in 1..2, k \\in 0..1}": "{{1}, {1, 2}, {1, 2, 3}}",
    "{<<a, {j \\in 1..3 : j = a + b}>> : <<a, b>> \\in (1..2) \\X (0..1)}":
        "{<<1, {1}>>, <<1, {2}>>, <<2, {2}>>, <<2, {3}>>}",
    "[i \\in 1..3 |-> {j \\in 1..3 : j <= i}]": "<<{1}, {1, 2}, {1, 2, 3}>>",
    "{[k \\in 1..i |-> {j \\in 1..3 : j > k}] : i \\in 1..2}":
        "{<<{2, 3}>>, <<{2, 3}, {3}>>}",
    "{Cardinality({j \\in 1..i : j # i}) : i \\in 1..3}": "{0, 1, 2}",
}


@pytest.mark.parametrize("expr", list(CASES))
def test_each_element_keeps_its_own_bound_value(expr: str) -> None:
    ctx = load_text("---- MODULE L ----\nEXTENDS Naturals, FiniteSets\n====\n")
    assert to_tla(ctx.evaluate(expr)) == CASES[expr]
