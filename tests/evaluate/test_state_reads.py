"""A state predicate that reads only some variables (and no TLC register, and prints
nothing) is not evaluated again for a state holding the same values of them."""

from __future__ import annotations

import pytest

from tlaconf.evaluate import load_text

MODULE = r"""---- MODULE Reads ----
EXTENDS Naturals, TLC
VARIABLES log, other
Matching == \A n \in DOMAIN log : log[n] > 0
Level == TLCGet("level") < 3
Loud == PrintT("checked") /\ Len(log) >= 0
Both == Matching /\ other = 1
====
"""


@pytest.fixture
def ctx():  # type: ignore[no-untyped-def]
    return load_text(MODULE.replace("EXTENDS Naturals", "EXTENDS Naturals, Sequences"))


def test_what_each_predicate_reads(ctx) -> None:  # type: ignore[no-untyped-def]
    assert ctx._reads.of(ctx._entry("Matching")) == {"log"}
    assert ctx._reads.of(ctx._entry("Both")) == {"log", "other"}
    assert ctx._reads.of(ctx._entry("Level")) is None
    assert ctx._reads.of(ctx._entry("Loud")) is None


def test_the_same_values_give_the_same_answer_without_evaluating(ctx) -> None:  # type: ignore[no-untyped-def]
    log = tuple(range(1, 4))
    check = ctx.predicate("Matching")
    fn = ctx.compiler.G[ctx.compiler.def_fn(ctx._entry("Matching"))]
    name = next(k for k, v in ctx.compiler.G.items() if v is fn)
    calls: list[object] = []
    ctx.compiler.G[name] = lambda *a: calls.append(a) or fn(*a)
    ctx._fns.pop("Matching", None)
    check = ctx.predicate("Matching")
    for other in range(3):
        assert check({"log": log, "other": other}, None) is True
    assert check({"log": tuple([1, 2, 3]), "other": 0}, None) is True  # another object
    assert check({"log": (1, 0), "other": 0}, None) is False
    assert len(calls) == 3


def test_registers_and_prints_are_evaluated_every_time(
        ctx, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    log = (1,)
    level, loud = ctx.predicate("Level"), ctx.predicate("Loud")
    ctx.registers["level"] = 1
    assert level({"log": log, "other": 0}, None) is True
    ctx.registers["level"] = 5
    assert level({"log": log, "other": 0}, None) is False
    for _ in range(3):
        assert loud({"log": log, "other": 0}, None) is True
    assert capsys.readouterr().err.count("checked") == 3
