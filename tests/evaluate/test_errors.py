"""Evaluation errors carry file, line, column and the values involved; no Python
exception escapes."""

import pytest

from tests.evaluate.tlahelp import fails, module
from tlaconf.evaluate import EvalError
from tlaconf.values import Fn


def test_error_location() -> None:
    m = module("EXTENDS Naturals\nF(x) ==\n    x + 1 \\div (x - x)")
    with pytest.raises(EvalError) as info:
        m.evaluate("F(3)")
    err = info.value
    assert err.span.file == "M.tla" and err.span.line == 4 and err.span.col == 9
    assert str(err).startswith("M.tla:4:9: division by zero")


def test_function_application_error_names_the_values() -> None:
    m = module("VARIABLE f\nG == f[3] = 1")
    with pytest.raises(EvalError, match="function applied to 3") as info:
        m.holds("G", (), {"f": Fn({"a": 1})})
    assert info.value.span.line == 3
    assert ("f", '[a |-> 1]') in info.value.values


def test_unknown_names() -> None:
    fails("Nope + 1", "unknown operator or name Nope")


def test_deep_recursion_is_an_eval_error() -> None:
    m = module("EXTENDS Naturals\nRECURSIVE R(_)\nR(n) == IF n = 0 THEN 0 ELSE 1 + R(n - 1)")
    assert m.evaluate("R(500)") == 500
    with pytest.raises(EvalError, match="recursion too deep"):
        m.evaluate("R(10 ^ 6)")


def test_temporal_formulas_are_refused() -> None:
    m = module("VARIABLE x\nF == WF_x(x' = x)")
    with pytest.raises(EvalError, match="temporal"):
        m.holds("F", (), {"x": 1})
