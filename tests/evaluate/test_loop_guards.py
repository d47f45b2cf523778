r"""An ``\E`` loop stops at the first binding where a conjunct that does not read the
bindings is FALSE, only where TLC's answer, errors and prints are the same."""

from __future__ import annotations

import pytest

from tlaconf.evaluate import EvalError, load_text

MODULE = r"""---- MODULE Guards ----
EXTENDS Naturals, TLC
VARIABLES st, y
Send(i, j, r) == /\ i /= j
                 /\ r[1] <= r[2]
                 /\ st[i] = "L"
                 /\ y' = y + r[2]
Relay(i, j, r) == Send(i, j, r)
Sends(i, j) == \E b, e \in 1..200 : Relay(i, j, <<b, e>>)
Loud == \E x \in 1..3 : PrintT("a") /\ y = 5
Fails == \E x \in 1..3 : 10 \div (2 - x) > 0 - 100 /\ y = 5
Late == \E x \in 1..3 : x >= 1 /\ 10 \div (y - y) = 1
====
"""


@pytest.fixture(scope="module")
def ctx():  # type: ignore[no-untyped-def]
    return load_text(MODULE)


def _guarded(ctx) -> list[str]:  # type: ignore[no-untyped-def]
    return [s for s in ctx.compiler.sources if "    return False\n" in s
            and "continue" in s]


def test_answers_with_the_next_state_given(ctx) -> None:  # type: ignore[no-untyped-def]
    st = ctx.evaluate('[k \\in 1..3 |-> IF k = 1 THEN "L" ELSE "F"]')
    assert ctx.holds("Sends", (1, 2), {"st": st, "y": 0}, {"st": st, "y": 7}) is True
    assert ctx.holds("Sends", (2, 1), {"st": st, "y": 0}, {"st": st, "y": 7}) is False
    assert ctx.holds("Sends", (1, 1), {"st": st, "y": 0}, {"st": st, "y": 7}) is False
    assert ctx.holds("Sends", (1, 2), {"st": st, "y": 0}, {"st": st, "y": 201}) is False


def test_the_loop_stops_on_a_conjunct_of_no_binding(ctx) -> None:  # type: ignore[no-untyped-def]
    st = ctx.evaluate('[k \\in 1..3 |-> "F"]')
    ctx.holds("Sends", (1, 2), {"st": st, "y": 0}, {"st": st, "y": 7})
    (loop,) = _guarded(ctx)
    # i /= j and st[i] = "L" stop the loop; b <= e (total) only skips a binding
    assert loop.count("return False") == 3 and loop.count("continue") == 1


def test_a_print_is_evaluated_at_every_binding(ctx, capsys: pytest.CaptureFixture[str]
                                               ) -> None:  # type: ignore[no-untyped-def]
    assert ctx.holds("Loud", (), {"st": 0, "y": 0}) is False
    assert capsys.readouterr().err.count('"a"') == 3  # TLC prints it three times


def test_an_error_of_a_later_binding_is_still_raised(ctx) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(EvalError, match=r"(?i)division|zero"):
        ctx.holds("Fails", (), {"st": 0, "y": 0})
    with pytest.raises(EvalError, match=r"(?i)division|zero"):
        ctx.holds("Late", (), {"st": 0, "y": 0})
