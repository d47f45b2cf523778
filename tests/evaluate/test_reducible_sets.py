"""Sets TLC builds at once and sets it keeps lazy, and what that changes.

TLC holds an interval and an enumerated set as ``Reducible`` values (``Tool.evalAppl``):

* ``{x \\in S : P}`` over one is built at once, so ``P`` is evaluated on every element
  (an error anywhere is an error, even in ``e \\in {x \\in S : P}``); over another set
  it stays a ``SetPredValue`` whose membership asks ``P`` of that element only;
* ``S \\cap T`` enumerates whichever side is one (the left first) and asks membership of
  the other; otherwise ``SetCapValue`` enumerates its first set unless TLC cannot
  (``Nat``, ``Int``, ``STRING``, ``Seq(S)``), else its second;
* ``S \\cup T`` asks membership of the one first, and ``{} \\cup T`` is ``T``.

The answers below are TLC 1.8.0's (``PrintT``); with ``TLC_JAR`` set, the last tests ask
TLC again.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.evaluate.tlahelp import context
from tlaconf.evaluate import EvalError
from tlaconf.values import to_tla

CASES = [
    ("{j \\in Nat : j < 2} \\cap (0..9)", "{0, 1}"),
    ("Cardinality((0..9) \\cap {j \\in Nat : j < 3})", "3"),
    ("Cardinality(Nat \\cap (0..3))", "4"),
    ("\\A x \\in Nat \\cap (0..3) : x < 4", "TRUE"),
    ("CHOOSE x \\in Nat \\cap (2..3) : TRUE", "2"),
    ("{x \\in Nat \\cap (0..3) : TRUE}", "{0, 1, 2, 3}"),
    ("Cardinality({j \\in Nat : j < 2} \\cap {j \\in Int : j > -3} \\cap (0..9))", "2"),
    ("{Cardinality({j \\in Nat : j < i} \\cap (0..9)) : i \\in 1..3}", "{1, 2, 3}"),
    ("Cardinality(Nat \\cap {j \\in 0..5 : j > 2})", "3"),
    ("(0..4) \\ {j \\in Nat : j < 2}", "{2, 3, 4}"),
    ("(0..10) \\cap (5..7)", "{5, 6, 7}"),
    ("\"a\" \\in Nat \\cup {\"a\"}", "TRUE"),
    ("2 \\in {y \\in Nat : 1 \\div (y - 1) = 1}", "TRUE"),
    ("{x \\in Nat : x > 1} \\cap {x \\in 1..3 : TRUE}", "{2, 3}"),
]

ERRORS = [
    "Cardinality({j \\in Nat : j < 2} \\cap {j \\in Int : j > -3})",  # both filters of Nat, Int
    "Cardinality({j \\in Nat : j < 2} \\ (0..0))",  # S \ T enumerates S
    "Cardinality(Nat \\cap Int)",
    # the filter over an enumerated set or an interval is built, every element asked
    "2 \\in {y \\in {1, 2, 3} : 1 \\div (y - 1) = 1}",
    "2 \\in {y \\in 1..3 : 1 \\div (y - 1) = 1}",
    "7 \\notin {y \\in 1..3 : 1 \\div (y - 1) = 1}",
    "2 \\in {y \\in 1..3 : y = 2 \\/ \"a\"}",
    "Len(<<{x \\in 1..2 : x \\div 0 = 1}, 1>>)",
    "DOMAIN [a |-> {x \\in 1..2 : x \\div 0 = 1}, b |-> 1]",
    "1 \\in Nat \\cup {\"a\"}",  # {"a"} is asked first: 1 = "a" is an error
    "\"a\" \\in STRING \\cup (1..2)",  # so is 1..2: "a" in an interval is an error
]


def _show(v: object) -> str:
    return to_tla(v)


@pytest.mark.parametrize("expr,expected", CASES)
def test_the_enumerable_side_is_enumerated(expr: str, expected: str) -> None:
    assert _show(context().evaluate(expr)) == expected


@pytest.mark.parametrize("expr", ERRORS)
def test_what_tlc_refuses_is_an_error(expr: str) -> None:
    with pytest.raises(EvalError):
        context().evaluate(expr)


def test_toString_of_an_intersection_of_intervals_is_a_set() -> None:
    """TLC's ``IntervalValue.cap`` gives an enumerated set, which prints as one."""
    assert context().evaluate('ToString((0..10) \\cap (5..7))') == "{5, 6, 7}"


def _tlc(folder: Path, exprs: list[str]) -> list[str]:
    """What TLC prints for ``ASSUME PrintT(e)`` of each of ``exprs`` (until one fails)."""
    lines = [f"ASSUME PrintT({e})" for e in exprs]
    (folder / "Sets.tla").write_text(
        "---- MODULE Sets ----\nEXTENDS Naturals, Integers, FiniteSets, Sequences, TLC\n"
        + "\n".join(lines) + "\n====\n", encoding="utf-8")
    (folder / "Sets.cfg").write_text("", encoding="utf-8")
    out = subprocess.run(
        ["java", "-cp", os.environ["TLC_JAR"], "tlc2.TLC", "-noGenerateSpecTE", "Sets"],
        cwd=folder, capture_output=True, text=True, timeout=300, check=False).stdout
    printed = out.splitlines()
    start = next(i for i, line in enumerate(printed) if line.startswith("Starting..."))
    return printed[start + 1 : start + 1 + len(exprs)]


TLC = pytest.mark.skipif(not os.environ.get("TLC_JAR"), reason="set TLC_JAR to ask TLC itself")


@TLC
def test_tlc_gives_these_answers(tmp_path: Path) -> None:
    assert _tlc(tmp_path, [e for e, _ in CASES]) == [want for _, want in CASES]


@TLC
@pytest.mark.parametrize("expr", ERRORS)
def test_tlc_refuses_these(tmp_path: Path, expr: str) -> None:
    assert _tlc(tmp_path, [expr])[0].startswith("Error:")
