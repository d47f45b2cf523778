"""``S \\ {x}`` of a large set is a view sharing the set (no copy per recursion step), and
CHOOSE walks a set's order sorted once: the same values and the same errors as plain
sets, whatever is removed in whatever order (branches included)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.evaluate.tlahelp import ev, fails, module
from tlaconf.evaluate import builtins as B
from tlaconf.evaluate import choice
from tlaconf.evaluate.fail import Fail
from tlaconf.evaluate.lazysets import VIEW_FROM, Interval, Without, set_size
from tlaconf.evaluate.semantics import equal, member
from tlaconf.values import Fn, canonical

N = 3 * VIEW_FROM


def test_a_large_set_less_one_element_is_a_view() -> None:
    s = frozenset(range(N))
    view = B.setminus(-1, s, frozenset({5}))
    assert type(view) is Without and view.log.base is s
    assert type(B.setminus(-1, frozenset(range(VIEW_FROM - 1)), frozenset({5}))) is frozenset
    assert type(B.setminus(-1, Interval(1, N), frozenset({5}))) is Without


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(-2, N + 2)), max_size=60),
       st.sampled_from(["ints", "records", "interval"]))
def test_views_are_the_sets_they_stand_for(steps: list[tuple[int, int]], kind: str) -> None:
    """A chain of removals, each from any earlier set (a branch copies): every set equals
    the frozenset it stands for, in size, membership, CHOOSE and equality."""
    def value(i: int) -> object:
        return Fn({"id": i, "zone": "hand"}) if kind == "records" else i

    start = Interval(0, N - 1) if kind == "interval" else frozenset(map(value, range(N)))
    sets = [start]
    plain = [frozenset(map(value, range(N)))]
    for pick, x in steps:
        i = pick % len(sets)
        sets.append(B.setminus(-1, sets[i], frozenset({value(x)})))
        plain.append(plain[i] - {value(x)})
    for s, p in zip(sets, plain, strict=True):
        assert set_size(s, -1) == len(p)
        assert equal(s, p, -1) and equal(p, s, -1)
        assert not equal(s, p | {value(-5)}, -1)
        assert equal(s, frozenset(), -1) is (not p)
        for probe in (value(0), value(7), value(N - 1), value(-1)):
            assert member(probe, s, -1) is (probe in p)
        if p:
            assert choice.first(s, lambda _: True, 0, -1) == canonical(p)[0]
            evens = [y for y in canonical(p) if (y["id"] if kind == "records" else y) % 2 == 0]
            pred = (lambda y: y["id"] % 2 == 0) if kind == "records" else (lambda y: y % 2 == 0)
            if evens:
                assert choice.first(s, pred, 0, -1) == evens[0]
            else:
                with pytest.raises(Fail, match="CHOOSE found no element"):
                    choice.first(s, pred, 0, -1)
        assert list(choice.in_order(s, -1)) == canonical(p)


def test_removing_what_tlc_cannot_compare_is_an_error() -> None:
    fails(f"(1..{N}) \\ {{\"a\"}} = {{}}", "compare|string")
    fails(f"{{i : i \\in 1..{N}}} \\ {{\"a\"}}", "compare|string")
    fails(f"({{i : i \\in 1..{N}}} \\ {{3}}) \\ {{\"a\"}}", "compare|string")


RECURSIONS = """
RECURSIVE Pick(_), Acc(_, _, _), ViaHelper(_), Odd(_), Order(_), Both(_), Thirds(_)
Pick(S) == IF S = {} THEN 0 ELSE LET x == CHOOSE y \\in S : y = y IN x + Pick(S \\ {x})
Acc(S, a, b) == IF S = {} THEN <<a, b>> ELSE LET x == CHOOSE y \\in S : TRUE IN
    Acc(S \\ {x}, a + x, b + 1)
Rest(S, x) == S \\ {x}
ViaHelper(S) == IF Cardinality(S) = 0 THEN 0 ELSE LET x == CHOOSE y \\in S : TRUE IN
    x + ViaHelper(Rest(S, x))
Odd(S) == IF S = {} THEN 0 ELSE LET x == CHOOSE y \\in S : y % 2 = 1 \\/ \\A z \\in S : z % 2 = 0
    IN x + Odd(S \\ {x})
Order(S) == IF S = {} THEN <<>> ELSE LET x == CHOOSE y \\in S : y > 3 \\/ Cardinality(S) <= 3
    IN <<x>> \\o Order(S \\ {x})
Thirds(S) == IF S = {} THEN <<>> ELSE LET x == CHOOSE y \\in S :
    (y % 3 = 0 /\\ Cardinality(S \\ {y}) >= 0) \\/ \\A z \\in S : z % 3 # 0
    IN <<x>> \\o Thirds(S \\ {x})
Both(S) == IF S = {} THEN 0 ELSE LET x == CHOOSE y \\in S : TRUE IN
    Cardinality(S \\ {x}) + Both(S \\ {x})
"""


@pytest.mark.parametrize(("expr", "expected"), [
    ("Pick(1..500)", sum(range(1, 501))),
    ("Pick({i * 3 : i \\in 1..500})", 3 * sum(range(1, 501))),
    ("Acc(1..500, 0, 0)", (sum(range(1, 501)), 500)),
    ("ViaHelper({i : i \\in 1..500})", sum(range(1, 501))),
    ("Odd(1..150)", sum(range(1, 151))),
    ("Both(1..200)", sum(range(200))),
])  # fmt: skip
def test_recursions_over_large_sets(expr: str, expected: object) -> None:
    ctx = module(f"EXTENDS Naturals, Sequences, FiniteSets\n{RECURSIONS}")
    assert ctx.evaluate(expr) == expected


def test_the_order_chosen_is_tlc_s() -> None:
    ctx = module(f"EXTENDS Naturals, Sequences, FiniteSets\n{RECURSIONS}")
    got = ctx.evaluate("Order(1..100)")
    # y > 3 first (4, 5, ..., 100 in order), then 1, 2, 3
    expected: list[int] = []
    left = set(range(1, 101))
    while left:
        x = next(y for y in sorted(left) if y > 3 or len(left) <= 3)
        expected.append(x)
        left.remove(x)
    assert got == tuple(expected)
    thirds = [*range(3, 301, 3), *(i for i in range(1, 301) if i % 3)]  # the predicate
    assert ctx.evaluate("Thirds(1..300)") == tuple(thirds)  # removes from S as it runs
    assert ev(f"CHOOSE x \\in (1..{N}) \\ {{1, 2}} : TRUE") == 3


def test_a_deep_recursion_runs_and_leaves_the_limit_as_it_was() -> None:
    """12,000 levels (past Python's usual limit, not the fold idiom): evaluated on a deep
    stack, TLCSet registers counted once (the first, too deep, attempt is undone)."""
    import sys

    ctx = module("EXTENDS Naturals, TLC\nRECURSIVE R(_)\nR(S) == IF S = {} THEN 0 ELSE "
                 "LET x == CHOOSE y \\in S : y = y IN IF TLCSet(1, TLCGet(1) + 1) THEN "
                 "x + R(S \\ {x}) ELSE 0")
    limit = sys.getrecursionlimit()
    ctx.registers[1] = 0
    assert ctx.evaluate("R(1..12000)") == sum(range(1, 12_001))
    assert ctx.registers[1] == 12_000
    assert sys.getrecursionlimit() == limit


def test_recent_values_are_found_by_identity_and_the_oldest_go() -> None:
    from tlaconf.values.recent import Recent

    calls: list[frozenset[int]] = []
    table: Recent[int] = Recent(2)

    def size(s: frozenset[int]) -> int:
        calls.append(s)
        return len(s)

    a, b, c = frozenset(range(300)), frozenset(range(5)), frozenset(range(7))
    assert table.get(a, size) == 300 and table.get(a, size) == 300
    assert len(calls) == 1  # the second ask is the kept value
    assert table.get(frozenset(range(300)), size) == 300 and len(calls) == 2  # equal, not it
    table.get(b, size), table.get(c, size)  # a is now the oldest of three: gone
    table.get(a, size)
    assert len(calls) == 5
