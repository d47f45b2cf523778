"""Loading modules: EXTENDS, INSTANCE ... WITH, CONSTANTS, ASSUME."""

from pathlib import Path

import pytest

from tlaconf.errors import UserError
from tlaconf.evaluate import Override, load_module


def write(tmp: Path, name: str, body: str) -> Path:
    p = tmp / f"{name}.tla"
    p.write_text(f"---- MODULE {name} ----\n{body}\n====\n")
    return p


def test_extends_instance_and_constants(tmp_path: Path) -> None:
    write(tmp_path, "Base", "EXTENDS Naturals\nCONSTANT N\nDouble(x) == 2 * x\nTop == N + 1")
    write(tmp_path, "Counter", "EXTENDS Naturals\nCONSTANT Limit\nVARIABLE c\n"
                               "Next == c < Limit /\\ c' = c + 1\nAtLimit == c = Limit")
    main = write(tmp_path, "Main", "EXTENDS Base\nVARIABLE count\n"
                                   "C == INSTANCE Counter WITH Limit <- N * 10, c <- count\n"
                                   "Step == C!Next\nDone == C!AtLimit\nT == Top + Double(3)")
    ctx = load_module(main, [], {"N": 2})
    assert ctx.evaluate("T") == 9
    assert ctx.holds("Step", (), {"count": 3}, {"count": 4}) is True
    assert ctx.holds("Done", (), {"count": 20}) is True
    assert ctx.enabled("Step", (), {"count": 20}) is False
    assert ctx.enabled("Step", (), {"count": 19}) is True


def test_unnamed_instance(tmp_path: Path) -> None:
    write(tmp_path, "Lib", "EXTENDS Naturals\nCONSTANT K\nPlusK(x) == x + K")
    main = write(tmp_path, "M2", "EXTENDS Naturals\nINSTANCE Lib WITH K <- 5\nR == PlusK(1)")
    assert load_module(main, [], {}).evaluate("R") == 6


def test_missing_constant_is_named(tmp_path: Path) -> None:
    main = write(tmp_path, "NeedsC", "CONSTANTS Alpha, Beta\nX == Alpha")
    with pytest.raises(UserError, match="no value for CONSTANT Beta"):
        load_module(main, [], {"Alpha": 1})


def test_missing_module(tmp_path: Path) -> None:
    main = write(tmp_path, "Ext", "EXTENDS Nowhere")
    with pytest.raises(UserError, match="module Nowhere not found"):
        load_module(main, [], {})


def test_assumptions(tmp_path: Path) -> None:
    main = write(tmp_path, "As",
                 "EXTENDS Naturals\nASSUME 1 + 1 = 2\nASSUME 1 = 2\nASSUME 1 \\div 0 = 0")
    got = [r for _, r in load_module(main, [], {}).assumptions()]
    assert got[0] is True and got[1] is False
    assert "division by zero" in str(got[2])


def test_constant_bound_to_a_definition(tmp_path: Path) -> None:
    """As ``CONSTANT N <- Three`` / ``Op <- Double`` in a TLC .cfg."""
    main = write(tmp_path, "Ov", "EXTENDS Naturals\nCONSTANTS N, Op(_)\nThree == 3\n"
                                 "Double(x) == 2 * x\nR == Op(N)")
    ctx = load_module(main, [], {"N": Override("Three"), "Op": Override("Double")})
    assert ctx.evaluate("R") == 6


def test_parameterized_instance(tmp_path: Path) -> None:
    write(tmp_path, "Shift", "EXTENDS Naturals\nCONSTANT K\nVARIABLE v\n"
                             "Add(x) == x + K\nBig == v > K\nBump == v' = v + K")
    main = write(tmp_path, "P", "EXTENDS Naturals\nVARIABLE w\n"
                                "S(k) == INSTANCE Shift WITH K <- k * 10, v <- w\n"
                                "R == S(2)!Add(1) + S(3)!Add(0)\nB == S(1)!Big\n"
                                "Step == S(1)!Bump")
    ctx = load_module(main, [], {})
    assert ctx.evaluate("R") == 51
    assert ctx.holds("B", (), {"w": 11}) is True
    assert ctx.holds("B", (), {"w": 10}) is False
    assert ctx.holds("Step", (), {"w": 1}, {"w": 11}) is True


def test_quantifier_in_a_parameterized_instance_sees_its_arguments(tmp_path: Path) -> None:
    """A quantifier is compiled to a helper function: it takes the instance's arguments
    too (``I(k)!All`` once failed with a NameError, an internal error)."""
    write(tmp_path, "Q", "EXTENDS Naturals\nCONSTANT K\nVARIABLE v\n"
                         "All(S) == \\A x \\in S : x + v < K\nSome == \\E x \\in 1..K : x = v")
    main = write(tmp_path, "QM", "EXTENDS Naturals\nVARIABLE w\n"
                                 "I(k) == INSTANCE Q WITH K <- k, v <- w\n"
                                 "A == I(10)!All({1, 2})\nB == I(3)!Some")
    ctx = load_module(main, [], {})
    assert ctx.holds("A", (), {"w": 7}) is True
    assert ctx.holds("A", (), {"w": 8}) is False
    assert ctx.holds("B", (), {"w": 3}) is True
    assert ctx.holds("B", (), {"w": 4}) is False


def test_instance_parameters_substitute_implicitly(tmp_path: Path) -> None:
    """Specifying Systems 11.1: ``Inner(mem) == INSTANCE InternalMemory`` substitutes the
    parameter ``mem`` for the module's ``mem``."""
    write(tmp_path, "Mem", "EXTENDS Naturals\nVARIABLE mem\nFull == mem > 2")
    main = write(tmp_path, "Outer", "VARIABLE m\nInner(mem) == INSTANCE Mem\nF == Inner(m)!Full")
    ctx = load_module(main, [], {})
    assert ctx.holds("F", (), {"m": 3}) is True
    assert ctx.holds("F", (), {"m": 1}) is False
