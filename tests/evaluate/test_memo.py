"""An operator of its arguments only is evaluated once for the same argument objects
(replay asks ``P(after)`` at one step and ``P(before)`` at the next); one that reads the
state, the registers or prints is evaluated every time."""

from __future__ import annotations

import pytest

from tlaconf.evaluate import load_text
from tlaconf.values import Fn

MODULE = """---- MODULE Memo ----
EXTENDS Naturals, TLC
VARIABLE x
Count(s) == TLCSet(1, TLCGet(1) + 1) /\\ s # {}
Pure(s) == \\A e \\in s : e > 0
Calls == TLCGet(1)
Loud(s) == PrintT(s) /\\ Pure(s)
OfState(s) == Pure(s) /\\ x > 0
====
"""


@pytest.fixture
def ctx():  # type: ignore[no-untyped-def]
    c = load_text(MODULE)
    c.evaluate("TLCSet(1, 0)")
    return c


def test_the_same_arguments_are_not_evaluated_again(ctx) -> None:  # type: ignore[no-untyped-def]
    a, b = frozenset({1, 2}), frozenset({3})
    calls: list[object] = []
    general = ctx.compiler.G[ctx.compiler.def_fn(ctx._entry("Pure"))]
    name = next(k for k, v in ctx.compiler.G.items() if v is general)
    real = ctx.compiler.G[f"G{name}"]
    ctx.compiler.G[f"G{name}"] = lambda *args: calls.append(args[-1]) or real(*args)
    for s in (a, b, a, b, frozenset({1, 2}), frozenset({-1})):
        assert ctx.holds("Pure", (s,), {}) is (s != frozenset({-1}))
    assert len(calls) == 4  # a, b, then an equal but distinct set, and {-1}


def test_registers_printing_and_the_state_are_evaluated_every_time(
        ctx, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    s = frozenset({1})
    for _ in range(3):
        assert ctx.holds("Count", (s,), {})
        assert ctx.holds("Loud", (s,), {})
    assert ctx.evaluate("Calls") == 3
    assert capsys.readouterr().err.count("{1}") == 3
    assert ctx.holds("OfState", (s,), {"x": 1}) is True
    assert ctx.holds("OfState", (s,), {"x": 0}) is False


KINDS = """---- MODULE MemoKinds ----
EXTENDS Integers, FiniteSets
VARIABLE v
Wrap(x) == <<x>>
Size(S) == Cardinality(S)
Disjoint(f, D) == \\A a, b \\in D : a # b => f[a] \\cap f[b] = {}
"""


@pytest.fixture(scope="module")
def kinds():  # type: ignore[no-untyped-def]
    return load_text(KINDS + "====\n")


def test_an_equal_argument_of_another_kind_is_not_found(kinds) -> None:  # type: ignore[no-untyped-def]
    answers = [kinds.value("Wrap", (x,), {})[0] for x in (1, True, 1, False, 0)]
    assert [(type(a), a) for a in answers] == [(int, 1), (bool, True), (int, 1), (bool, False),
                                               (int, 0)]


def test_three_arguments_in_turn_outlive_the_two_entries(kinds) -> None:  # type: ignore[no-untyped-def]
    sets = [frozenset(range(n)) for n in (3, 5, 7)]
    assert [kinds.value("Size", (sets[k % 3],), {}) for k in range(9)] == [3, 5, 7] * 3


def test_a_changed_function_is_decided_again(kinds) -> None:  # type: ignore[no-untyped-def]
    dom = frozenset({"a", "b"})
    ok = Fn({"a": frozenset({1}), "b": frozenset({2})})
    bad = Fn({"a": frozenset({1}), "b": frozenset({1})})
    answers = [kinds.value("Disjoint", (f, dom), {}) for f in (ok, bad, ok, bad)]
    assert answers == [True, False, True, False]
