"""Connectives: booleans only, short-circuit left to right as TLC."""

from tlahelp import ev, fails


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
