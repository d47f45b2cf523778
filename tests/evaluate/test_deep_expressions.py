"""Deeply nested expressions: evaluated, with the values TLA+ gives, in time linear in
their size.

The evaluator compiles an expression to Python source, which Python refuses once its
brackets nest 200 deep: ``x + 1 + ... + 1`` of 300 terms was an internal error.  Code
nested deeper than a bound now goes into helper functions that take the names in scope
(bound variables, operator parameters, instance arguments, a quantifier's values computed
at its entry); these cases put such names at every depth.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tlaconf.evaluate.context import load_text
from tlaconf.evaluate.errors import EvalError
from tlaconf.values.printing import to_tla

N = 400  # deeper than Python's limit of 200 nested brackets


def _chain(term: str, op: str, n: int = N) -> str:
    return f" {op} ".join([term] * n)


def _nested(open_: str, close: str, inner: str, n: int = N) -> str:
    return open_ * n + inner + close * n


CASES = {
    # a left-associated chain over a bound variable
    f"\\E x \\in {{1}} : x + {_chain('1', '+')} = {N + 1}": "TRUE",
    f"\\A x \\in {{2, 3}} : {_chain('x', '*', 10)} + {_chain('x', '-', N)} = x^10 + (2 - {N}) * x":
        "TRUE",
    f"{{{_chain('x', '+')} : x \\in 1..3}}": "{" + ", ".join(str(N * k) for k in (1, 2, 3)) + "}",
    # tuples and IFs nested around a bound variable
    f"\\E x \\in {{7}} : {_nested('<<', '>>', 'x')}" + "[1]" * N + " = 7": "TRUE",
    "\\A x \\in {0, 1} : (" + "IF x = 0 THEN " * N + "x" + " ELSE 1" * N + ") = x": "TRUE",
    # a LET and an operator parameter reached from the bottom of the chain
    f"LET F(p) == \\E y \\in {{p}} : {_chain('y', '+')} = {N} * p IN F(2) /\\ F(5)": "TRUE",
    # strings holding brackets do not hide the nesting
    "\\E s \\in {\"a)\"} : " + _nested("<<", ">>", "s") + " = " + _nested("<<", ">>", '"a)"'):
        "TRUE",
}


@pytest.mark.parametrize("expr", list(CASES), ids=range(len(CASES)))
def test_deep_expression_has_its_value(expr: str) -> None:
    ctx = load_text("---- MODULE D ----\nEXTENDS Naturals, Integers\n====\n")
    assert to_tla(ctx.evaluate(expr)) == CASES[expr]


def test_deep_definition_over_state_and_instance_arguments() -> None:
    """A definition of a parameterized instance, its body a deep chain over the
    instance's argument, an operator parameter and a state variable."""
    inner = (
        "---- MODULE Inner ----\nEXTENDS Naturals\nCONSTANT c\nVARIABLE v\n"
        f"Deep(p) == \\A z \\in {{v}} : {_chain('c', '+')} + {_chain('p', '+')} + "
        f"{_chain('z', '+')} = {N} * (c + p + v)\n"
        f"Wrong(p) == \\A z \\in {{v}} : {_chain('z', '+')} = {N} * v + p\n====\n"
    )
    outer = (
        "---- MODULE Outer ----\nEXTENDS Naturals\nVARIABLE w\n"
        "I(a) == INSTANCE Inner WITH c <- a, v <- w\n"
        "Check(p) == I(3)!Deep(p)\nBad(p) == I(3)!Wrong(p)\n====\n"
    )
    ctx = load_text(outer + inner)
    assert ctx.holds("Check", (2,), {"w": 5}) is True
    assert ctx.holds("Bad", (1,), {"w": 5}) is False
    assert ctx.holds("Bad", (0,), {"w": 5}) is True


def test_deep_expression_failure_is_located() -> None:
    ctx = load_text("---- MODULE D ----\nEXTENDS Naturals\n====\n")
    with pytest.raises(EvalError, match="string"):
        ctx.evaluate(f"\\E x \\in {{1}} : x + {_chain('1', '+')} + \"a\" = 0")


def test_long_constant_chain_is_folded() -> None:
    """Each sub-sum of a constant chain is constant: asking so of every one of them
    was quadratic (a 2,000-term sum took 12 s)."""
    ctx = load_text("---- MODULE D ----\nEXTENDS Naturals\n====\n")
    assert ctx.evaluate(_chain("1", "+", 2000)) == 2000


def test_chain_too_deep_to_compile_is_a_located_user_error() -> None:
    ctx = load_text("---- MODULE D ----\nEXTENDS Naturals\n====\n")
    with pytest.raises(EvalError, match="nested too deeply to compile") as info:
        ctx.evaluate(_chain("1", "+", 20000))
    assert info.value.location.endswith(":1:1")
    assert ctx.evaluate("1 + 1") == 2  # the context still evaluates


@pytest.mark.parametrize("arms", [3, 300])
def test_case_of_many_arms_takes_the_first_that_holds(arms: int) -> None:
    ctx = load_text("---- MODULE D ----\nEXTENDS Naturals\n====\n")
    case = " [] ".join(f"x = {i} -> {i * 10}" for i in range(arms))
    assert to_tla(ctx.evaluate(f"{{CASE {case} : x \\in 0..{arms - 1}}}")) == to_tla(
        frozenset(i * 10 for i in range(arms)))
    assert ctx.evaluate(f"\\E x \\in {{{arms - 1}}} : (CASE x > {arms} -> 0 [] {case} "
                        "[] OTHER -> 1) = 7") is False
    with pytest.raises(EvalError, match="no CASE arm is TRUE"):
        ctx.evaluate(f"\\E x \\in {{{arms}}} : (CASE {case}) = 0")


def test_deep_value_is_printed_or_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tlaconf.cli.main import main

    assert main(["eval", "{" * 3000 + "1" + "}" * 3000]) == 0
    assert capsys.readouterr().out == "{" * 3000 + "1" + "}" * 3000 + "\n"
    nest = tmp_path / "Nest.tla"
    nest.write_text("---- MODULE Nest ----\nEXTENDS Naturals\nRECURSIVE N(_)\n"
                    "N(k) == IF k = 0 THEN {} ELSE {N(k - 1)}\n====\n", encoding="utf-8")
    assert main(["eval", "-m", str(nest), "N(20000) # {}"]) == 0  # on a deep stack
    assert capsys.readouterr().out == "TRUE\n"
    assert main(["eval", "-m", str(nest), "N(8000)"]) == 2
    assert "the value is nested too deeply to print" in capsys.readouterr().err
    assert main(["eval", "-m", str(nest), "N(60000)"]) == 2
    assert "recursion too deep" in capsys.readouterr().err


@pytest.mark.parametrize("n", [12, 13, 40])
def test_quantifier_over_many_names(n: int) -> None:
    """One loop per bound name, past Python's 20 nested blocks: the outer names are
    merged into one loop over their product (25 names was an internal error)."""
    ctx = load_text("---- MODULE D ----\nEXTENDS Naturals\n====\n")
    names = ", ".join(f"x{i}" for i in range(n))
    assert ctx.evaluate(f"\\E {names} \\in {{1}}, y \\in {{1, 2}} : y + x0 = 3") is True
    assert ctx.evaluate(f"\\A {names} \\in {{1}}, y \\in {{1, 2}} : y + x{n - 1} = 3") is False
    assert ctx.evaluate(f"\\E <<a, b>> \\in {{<<1, 2>>}}, {names} \\in {{1}} : "
                        f"a + b + x0 + x{n - 1} = 5") is True
    with pytest.raises(EvalError, match="division by zero"):
        ctx.evaluate(f"\\A {names} \\in {{}}, y \\in {{1 \\div 0}} : TRUE")


def test_definition_too_deep_to_compile_fails_at_the_definition() -> None:
    """Reported where it is written (it was the expression that used it), when used,
    and the module's other definitions still evaluate."""
    text = ("---- MODULE Nest ----\nEXTENDS Naturals\nA == 1\nDeep == "
            + "{" * 9000 + "1" + "}" * 9000 + "\nB == Deep\n====\n")
    ctx = load_text(text, filename="Nest.tla")
    assert ctx.evaluate("A + 1") == 2
    with pytest.raises(EvalError, match="nested too deeply to compile") as info:
        ctx.evaluate("B # {}")
    assert info.value.location == "Nest.tla:4:1"
    assert ctx.evaluate("A + 2") == 3


def test_the_deep_threads_limit_is_raised_before_it_runs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A loaded machine may run the deep thread before the waiting thread raises the
    limit: the limit must already be raised when the thread starts."""
    import sys
    import threading
    import time

    from tlaconf.cli.main import main

    start = threading.Thread.start

    def late_start(self: threading.Thread) -> None:
        start(self)
        if self.name == "tlaconf-deep-evaluation":
            time.sleep(1.0)  # the waiting thread descheduled: the deep one runs alone

    monkeypatch.setattr(threading.Thread, "start", late_start)
    nest = tmp_path / "Nest.tla"
    nest.write_text("---- MODULE Nest ----\nEXTENDS Naturals\nRECURSIVE N(_)\n"
                    "N(k) == IF k = 0 THEN {} ELSE {N(k - 1)}\n====\n", encoding="utf-8")
    assert main(["eval", "-m", str(nest), "N(20000) # {}"]) == 0
    assert sys.getrecursionlimit() < 100_000
