"""The comparison ``test_constants_tlc.py`` applies to TLC's and tlaconf's answers (runs
everywhere: no checkout, no Java)."""

from __future__ import annotations

from pathlib import Path

from tlaconf.tla.resolve import load

from .constants import closed_definitions, compare


def test_the_same_value_in_another_string_order_is_not_a_difference() -> None:
    tlc = ("value", '[s3 |-> [s1 |-> <<1, 2>>, I |-> 2], b |-> {"x", "a"}]')
    assert compare(tlc, ("value", '[b |-> {"a", "x"}, s3 |-> [I |-> 2, s1 |-> <<1, 2>>]]')) \
        == "order"
    assert compare(tlc, tlc) == "agree"


def test_a_different_value_or_class_is_a_difference() -> None:
    assert compare(("value", "<<1, 2>>"), ("value", "<<2, 1>>")) == "differ"
    assert compare(("value", "[S -> T]"), ("value", "[T -> S]")) == "differ"
    assert compare(("value", "{1, 2}"), ("value", "{1, 3}")) == "differ"
    assert compare(("value", "1"), ("error", "division by zero")) == "differ"
    assert compare(("error", "The second argument of \\div is 0."), ("value", "0")) == "differ"
    assert compare(("error", "x"), ("error", "y")) == "agree"
    assert compare(("value", "[a : STRING]"), ("error", "ToString of the infinite set")) \
        == "declined"


def test_closed_definitions_depend_on_no_constant_or_variable(tmp_path: Path) -> None:
    (tmp_path / "Lib.tla").write_text("---- MODULE Lib ----\nCONSTANT K\nL == K\nM == 2\n====\n")
    main = tmp_path / "Main.tla"
    main.write_text("---- MODULE Main ----\nEXTENDS Naturals, Lib\nCONSTANT N\nVARIABLE x\n"
                    "A == 1 + M\nB == N\nC == A + B\nD == LET N2 == 3 IN \\A y \\in {N2} : y > 0\n"
                    "E == L\nF == x'\nG[i \\in 1..2] == i + A\nH(p) == p\nLOCAL J == 1\n"
                    "Sq == {x2 * x2 : x2 \\in 1..3}\nT == []TRUE\n====\n")
    assert closed_definitions(load(main)) == ["A", "D", "G", "Sq"]
