"""IF, CASE, LET, CHOOSE, quantifiers, LAMBDA, higher-order and recursive operators."""

from tests.evaluate.tlahelp import ev, fails, module, show


def test_if_and_case() -> None:
    assert ev("IF 1 < 2 THEN \"y\" ELSE \"n\"") == "y"
    assert ev("CASE 1 = 2 -> 1 [] 2 = 2 -> 2 [] OTHER -> 3") == 2
    assert ev("CASE FALSE -> 1 [] OTHER -> 3") == 3
    fails("CASE 1 = 2 -> 1 [] 2 = 3 -> 2", "no CASE arm is TRUE")
    fails("IF 1 THEN 2 ELSE 3", "expected a boolean, got the integer 1")


def test_let() -> None:
    assert ev("LET x == 2 y == x + 1 IN x * y") == 6
    assert ev("LET F(a, b) == a - b IN F(5, 3)") == 2
    # LET definitions are evaluated lazily (TLC): an unused failing definition is harmless
    assert ev("LET bad == 1 \\div 0 IN 7") == 7
    assert ev("LET f[n \\in 0..5] == IF n = 0 THEN 0 ELSE n + f[n - 1] IN f[5]") == 15


def test_choose_is_deterministic() -> None:
    """TLC's CHOOSE picks the same element every time; we pick the first in canonical order."""
    assert ev("CHOOSE x \\in {3, 1, 2} : TRUE") == 1
    assert ev("CHOOSE x \\in 1..10 : x > 3") == 4
    assert ev("CHOOSE <<a, b>> \\in {<<1, 2>>, <<2, 2>>} : a = b") == (2, 2)
    fails("CHOOSE x \\in 1..3 : x > 5", "CHOOSE found no element")
    fails("CHOOSE x : x = 1", "unbounded")


def test_quantifiers() -> None:
    assert ev("\\A x \\in {} : FALSE") is True
    assert ev("\\E x \\in {} : TRUE") is False
    assert ev("\\A x, y \\in 1..3 : x + y >= 2") is True
    assert ev("\\E x \\in 1..3, y \\in {10} : x + y = 12") is True
    assert ev("\\E <<x, y>> \\in {<<1, 2>>, <<3, 4>>} : x + y = 7") is True
    assert ev("\\A <<x, y>> \\in (1..2) \\X (1..2) : x * y <= 4") is True
    fails("\\A x \\in 1..2 : x", "expected a boolean")
    fails("\\E x : x = 1", "unbounded")
    fails("\\E <<x, y>> \\in {1} : TRUE", "tuple pattern")


def test_higher_order_operators_and_lambda() -> None:
    m = module("EXTENDS Naturals, Sequences\n"
               "Twice(F(_), x) == F(F(x))\n"
               "Inc(x) == x + 1\n"
               "Map(F(_), s) == [i \\in DOMAIN s |-> F(s[i])]\n"
               "Fold(Op(_, _), s, z) == LET RECURSIVE G(_) G(i) == IF i = 0 THEN z "
               "ELSE Op(s[i], G(i - 1)) IN G(Len(s))")
    assert m.evaluate("Twice(Inc, 1)") == 3
    assert m.evaluate("Twice(LAMBDA y : y * 10, 2)") == 200
    assert m.evaluate("Map(Inc, <<1, 2>>)") == (2, 3)
    assert m.evaluate("Fold(+, <<1, 2, 3>>, 0)") == 6
    assert m.evaluate("Fold(LAMBDA a, b : a * b, <<2, 3, 4>>, 1)") == 24


def test_recursive_operators() -> None:
    m = module("EXTENDS Naturals\nRECURSIVE Fib(_)\n"
               "Fib(n) == IF n < 2 THEN n ELSE Fib(n - 1) + Fib(n - 2)\n"
               "RECURSIVE Loop(_)\nLoop(n) == Loop(n + 1)")
    assert m.evaluate("Fib(15)") == 610
    err = None
    try:
        m.evaluate("Loop(0)")
    except Exception as e:  # must be an EvalError, never a RecursionError
        err = e
    assert type(err).__name__ == "EvalError" and "recursion too deep" in str(err)


def test_strings_and_tuples() -> None:
    assert show('<<"a", 1, {2}>>') == '<<"a", 1, {2}>>'
    assert ev('"a" \\o "b" = "ab"') is True
