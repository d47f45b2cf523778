"""``S \\cap T`` where a side is infinite: which side is enumerated, as TLC does.

TLC (``Tool.evalAppl``, ``OPCODE_cap``) enumerates an interval or an enumerated set on
either side (its ``Reducible`` values), the left one first, and tests membership in the
other; otherwise its ``SetCapValue`` enumerates the first set unless TLC cannot (``Nat``,
``Int``, ``STRING``, ``Seq(S)``), else the second.  The answers below are TLC 1.8.0's
(``PrintT``); with ``TLC_JAR`` set, the last test asks TLC again.
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
]

ERRORS = [
    "Cardinality({j \\in Nat : j < 2} \\cap {j \\in Int : j > -3})",  # both filters of Nat, Int
    "Cardinality({j \\in Nat : j < 2} \\ (0..0))",  # S \ T enumerates S
    "Cardinality(Nat \\cap Int)",
]


def _show(v: object) -> str:
    return to_tla(v)


@pytest.mark.parametrize("expr,expected", CASES)
def test_the_enumerable_side_is_enumerated(expr: str, expected: str) -> None:
    assert _show(context().evaluate(expr)) == expected


@pytest.mark.parametrize("expr", ERRORS)
def test_neither_side_enumerable_is_an_error(expr: str) -> None:
    with pytest.raises(EvalError, match="enumerat"):
        context().evaluate(expr)


def test_toString_of_an_intersection_of_intervals_is_a_set() -> None:
    """TLC's ``IntervalValue.cap`` gives an enumerated set, which prints as one."""
    assert context().evaluate('ToString((0..10) \\cap (5..7))') == "{5, 6, 7}"


@pytest.mark.skipif(not os.environ.get("TLC_JAR"), reason="set TLC_JAR to ask TLC itself")
def test_tlc_gives_these_answers(tmp_path: Path) -> None:
    lines = [f"ASSUME PrintT({e})" for e, _ in CASES]
    (tmp_path / "Cap.tla").write_text(
        "---- MODULE Cap ----\nEXTENDS Naturals, Integers, FiniteSets, TLC\n"
        + "\n".join(lines) + "\n====\n", encoding="utf-8")
    (tmp_path / "Cap.cfg").write_text("", encoding="utf-8")
    out = subprocess.run(
        ["java", "-cp", os.environ["TLC_JAR"], "tlc2.TLC", "-noGenerateSpecTE", "Cap"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False).stdout
    printed = out.splitlines()
    start = next(i for i, line in enumerate(printed) if line.startswith("Starting..."))
    assert printed[start + 1 : start + 1 + len(CASES)] == [want for _, want in CASES]
