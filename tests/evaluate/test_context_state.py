"""Evaluation state is explicit: nothing about a state, a register or a limit is global."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tlaconf.evaluate import EvalError, load_text

SRC = """---- MODULE R ----
EXTENDS Naturals, TLC
VARIABLE x
Count == TLCSet(1, TLCGet(1) + 1) /\\ x' = TLCGet(1)
Start == TLCSet(1, 0)
Get == TLCGet(1)
Twice == x' = 2 * x
Flag == TLCGet("-Dtlc2.tool.impl.Tool.cdot")
Stats == TLCGet("distinct")
====
"""


def test_tlcset_registers_belong_to_one_context() -> None:
    a, b = load_text(SRC), load_text(SRC)
    assert a.holds("Start", (), {"x": 0})
    assert a.holds("Count", (), {"x": 0}, {"x": 1})
    assert a.value("Get") == 1
    with pytest.raises(EvalError, match="register was never set"):
        b.value("Get")
    a.reset()
    with pytest.raises(EvalError, match="register was never set"):
        a.value("Get")


def test_tlcget_of_a_system_property_is_tlcs_unset_answer() -> None:
    """TLC gives ``TLCGet("-Dname")`` the JVM's property ``name``, or the string itself
    when it is not set (tlaconf runs no JVM); its statistics are not kept here."""
    ctx = load_text(SRC)
    assert ctx.value("Flag") == "-Dtlc2.tool.impl.Tool.cdot"
    with pytest.raises(EvalError, match="statistics are not kept here"):
        ctx.value("Stats")


def test_tlcget_is_never_folded_into_a_constant() -> None:
    ctx = load_text(SRC)
    assert ctx.holds("Start", (), {"x": 0})
    assert ctx.value("Get") == 0
    assert ctx.holds("Count", (), {"x": 0}, {"x": 1})
    assert ctx.value("Get") == 1


def test_the_state_is_an_argument_not_a_global() -> None:
    ctx = load_text(SRC)
    assert ctx.holds("Twice", (), {"x": 2}, {"x": 4})
    assert not ctx.holds("Twice", (), {"x": 3}, {"x": 4})
    assert "_S" not in ctx.compiler.G and "_N" not in ctx.compiler.G
    assert all(src.startswith(("def ", "\n")) and "(_S, _N" in src.split("\n")[0]
               for src in ctx.compiler.sources)


def test_importing_tlaconf_leaves_the_recursion_limit_alone() -> None:
    code = ("import sys; before = sys.getrecursionlimit(); "
            "import tlaconf.evaluate, tlaconf.cli.main, tlaconf.replay; "
            "assert sys.getrecursionlimit() == before, sys.getrecursionlimit()")
    subprocess.run([sys.executable, "-c", code], check=True)


DEEP = """---- MODULE D ----
EXTENDS Naturals
RECURSIVE Sum(_)
Sum(n) == IF n = 0 THEN 0 ELSE n + Sum(n - 1)
====
"""


def test_the_recursion_limit_is_raised_only_while_evaluating() -> None:
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        ctx = load_text(DEEP)
        assert sys.getrecursionlimit() == 1000
        assert ctx.evaluate("Sum(3000)") == 3000 * 3001 // 2  # deeper than 1000 frames
        assert sys.getrecursionlimit() == 1000
    finally:
        sys.setrecursionlimit(before)


def test_a_theorem_name_is_its_statement() -> None:
    """As TLC reads ``ASSUME T1`` for ``THEOREM T1 == e`` (Examples' sums_even)."""
    ctx = load_text("---- MODULE Th ----\nEXTENDS Naturals\nTHEOREM T1 == \\A x \\in 1..3 : x > 0\n"
                    "THEOREM T2 == 1 > 2\nBoth == T1 /\\ ~T2\n====\n")
    assert ctx.value("Both") is True
