"""Naturals and Integers."""

import pytest

from tests.evaluate.tlahelp import ev, fails, module


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ("1 + 2 * 3", 7),
        ("2 ^ 10", 1024),
        ("7 \\div 2", 3),
        ("(-7) \\div 2", -4),  # TLC rounds toward negative infinity
        ("-7 \\div 2", -3),  # prefix minus binds looser than \\div
        ("-7 % 2", 1),  # the result of % is in 0..b-1
        ("7 % 3", 1),
        ("-(5)", -5),
        ("3 - 5", -2),
        ("1 < 2", True),
        ("2 <= 2", True),
        ("3 >= 4", False),
        ("2 > 1", True),
        ("Cardinality(1..0)", 0),
        ("Cardinality(3..5)", 3),
    ],
)
def test_arithmetic(expr: str, value: object) -> None:
    assert ev(expr) == value


def test_division_by_zero() -> None:
    fails("1 \\div 0", "division by zero")
    fails("1 % 0", "modulus by a non-positive")


def test_arithmetic_on_non_integers() -> None:
    fails('1 + "a"', "expects integers")
    fails("TRUE + 1", "expects integers, got the boolean")
    fails("{1} < 2", "expects integers")


def test_nat_and_int_membership() -> None:
    assert ev("0 \\in Nat /\\ -1 \\notin Nat /\\ -1 \\in Int") is True
    assert ev("2^80 \\in Nat") is True


def test_huge_interval_is_lazy() -> None:
    assert ev("5 \\in 1..(2^40)") is True
    assert ev("Cardinality(1..(2^40))") == 2**40  # counted, not enumerated
    fails("\\A x \\in 1..(2^40) : x > 0", "refusing to enumerate")


def test_infix_operators_in_prefix_form() -> None:
    """``+(4, 6)`` applies ``+`` (a user's redefinition too, as in TLC's test204)."""
    assert ev("+(4, 6)") == 10
    assert ev("\\exists x \\in {1, 2} : \\forall y \\in {x} : y = 2") is True
    m = module("a + b == <<a, b>>\nX == +(4, 6)\n")
    assert m.value("X") == (4, 6)
