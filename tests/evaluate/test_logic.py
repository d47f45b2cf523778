"""Connectives: booleans only, short-circuit left to right as TLC."""

import pytest

from tests.evaluate.tlahelp import ev, fails, module, show
from tlaconf.evaluate import EvalError


def test_truth_tables() -> None:
    assert ev("TRUE /\\ FALSE") is False
    assert ev("TRUE \\/ FALSE") is True
    assert ev("FALSE => 1 = 2") is True
    assert ev("TRUE <=> FALSE") is False
    assert ev("~TRUE") is False
    assert ev("TRUE \\equiv TRUE") is True


def test_short_circuit() -> None:
    """TLC evaluates /\\, \\/ and => left to right and stops as soon as the value is known."""
    assert ev("FALSE /\\ 1 \\div 0 = 1") is False
    assert ev("TRUE \\/ 1 \\div 0 = 1") is True
    assert ev("FALSE => 1 \\div 0 = 1") is True
    assert ev("FALSE /\\ 7") is False
    fails("TRUE /\\ 1 \\div 0 = 1", "division by zero")


def test_non_boolean_operands() -> None:
    fails("TRUE /\\ 1", "expected a boolean, got the integer 1")
    fails("1 \\/ TRUE", "expected a boolean")
    fails("~{}", "expected a boolean, got the set")
    fails('TRUE => "x"', "expected a boolean, got the string")


def test_every_domain_of_a_quantifier_is_evaluated() -> None:
    """TLC evaluates every bound's domain, even after an empty one (regression: the inner
    domain was evaluated per element of the outer, so never when the outer was empty)."""
    fails("\\A i \\in {}, j \\in 1 \\div 0 : FALSE", "division by zero")
    fails("\\E i \\in {}, j \\in 1 \\div 0 : TRUE", "division by zero")
    fails("{i + j : i \\in {}, j \\in Head(<<>>)}", "empty sequence")
    assert ev("\\A i \\in {}, j \\in {1} : FALSE") is True
    assert ev("\\E i, j \\in {1, 2} : i + j = 4") is True
    assert show("{i + j : i \\in {1, 2}, j \\in {10}}") == "{11, 12}"
    m = module("EXTENDS Integers\nA(S, T) == \\A i \\in S, j \\in T : i < j\n"
               "M(S, T) == {i : i \\in S, j \\in T}\n")
    with pytest.raises(EvalError, match="expected a set"):
        m.holds("A", (frozenset(), 3), {})
    with pytest.raises(EvalError, match="expected a set"):
        m.value("M", (frozenset(), 3))
    assert m.holds("A", (frozenset({1}), frozenset({2, 3})), {}) is True
