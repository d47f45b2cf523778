"""Constructs that the tlaplus/Examples modules exercise, as small synthetic modules.

Each case stands for a pattern found while parsing the Examples repository (none of
its text is copied here): PlusCal translations, TLAPS proofs, operators passed as
arguments, positional sub-expression names, several modules in one file, ...
"""

from __future__ import annotations

import pytest

from tlaconf.tla import ast
from tlaconf.tla.parser import parse_module, parse_modules
from tlaconf.tla.resolve import resolve

PLUSCAL = r"""
---------------------------- MODULE Counter ----------------------------
EXTENDS Naturals, TLC
CONSTANT N
(* --fair algorithm counter {
   variables x = 0;
   process (p \in 1..N) { a: x := x + 1; }
} *)
\* BEGIN TRANSLATION (chksum(pcal) = "abc")
VARIABLES x, pc
vars == << x, pc >>
ProcSet == (1..N)
Init == (* Global variables *)
        /\ x = 0
        /\ pc = [self \in ProcSet |-> "a"]
a(self) == /\ pc[self] = "a"
           /\ x' = x + 1
           /\ pc' = [pc EXCEPT ![self] = "Done"]
p(self) == a(self)
Terminating == /\ \A self \in ProcSet: pc[self] = "Done"
               /\ UNCHANGED vars
Next == (\E self \in 1..N: p(self))
           \/ Terminating
Spec == /\ Init /\ [][Next]_vars
        /\ \A self \in 1..N : WF_vars(p(self))
Termination == <>(\A self \in ProcSet: pc[self] = "Done")
\* END TRANSLATION
=============================================================================
\* Modification History
\* Created by someone
"""

HIGHER_ORDER = r"""
---- MODULE Folds ----
EXTENDS Naturals, FiniteSets
RECURSIVE FoldSet(_, _, _)
FoldSet(Op(_, _), base, S) ==
    IF S = {} THEN base
    ELSE LET x == CHOOSE x \in S : TRUE IN Op(x, FoldSet(Op, base, S \ {x}))
Sum(S) == FoldSet(+, 0, S)
Inter(S) == FoldSet(\intersect, UNION S, S)
Max(S) == FoldSet(LAMBDA a, b : IF a > b THEN a ELSE b, 0, S)
Inv == /\ Sum({1, 2}) = 3
       /\ Max({1}) = 1
Second == Inv!2
Whole == Inv!:
====
"""

PROOFS = r"""
---- MODULE Proved ----
EXTENDS Naturals
CONSTANT N
ASSUME NAssump == N \in Nat \ {0}
Inv(i) == i \in 0..N
THEOREM TypeCorrect == \A i \in 0..N : Inv(i)
<1> SUFFICES ASSUME NEW i \in 0..N PROVE Inv(i)
  OBVIOUS
<1>1. i \in Nat
  BY NAssump
<1> QED
  BY <1>1 DEF Inv
LEMMA Trivial == ASSUME NEW P(_), NEW x, P(x) PROVE P(x)
  OBVIOUS
After == TypeCorrect
====
"""

TWO_MODULES = r"""
---- MODULE Main ----
EXTENDS Helper
Use == Twice(2)
====
---- MODULE Helper ----
EXTENDS Naturals
Twice(n) == 2 * n
====
"""

TEMPORAL = r"""
---- MODULE Temporal ----
VARIABLES x, y
vars == <<x, y>>
Hide == \EE h : x = h
All == \AA h : x = h
WhileP == (x = 1) -+-> (y = 1)
Comp == [x' = 1]_x \cdot [y' = 2]_y
Live == x = 1 ~> y = 1
Fair == SF_vars(x' = 2) /\ WF_<<x, y>>(<<x' = 1>>_x)
Step == Lbl :: x' = x
====
"""


@pytest.mark.parametrize(
    ("text", "names"),
    [
        (PLUSCAL, ["vars", "ProcSet", "Init", "a", "p", "Terminating", "Next", "Spec",
                   "Termination"]),
        (HIGHER_ORDER, ["FoldSet", "Sum", "Inter", "Max", "Inv", "Second", "Whole"]),
        (PROOFS, ["Inv", "After"]),
        (TEMPORAL, ["vars", "Hide", "All", "WhileP", "Comp", "Live", "Fair", "Step"]),
    ],
)  # fmt: skip
def test_pattern_parses_and_resolves(text: str, names: list[str]) -> None:
    m = parse_module(text, "x.tla")
    assert list(m.definitions()) == names
    resolve(m, [], file="x.tla", text=text)


def test_several_modules_resolve_against_each_other() -> None:
    main, helper = parse_modules(TWO_MODULES, "two.tla")
    rm = resolve(main, [], file="two.tla", text=TWO_MODULES, siblings=[helper])
    assert "Twice" in rm.symbols


def test_operator_arguments_are_names() -> None:
    m = parse_module(HIGHER_ORDER, "x.tla")
    s = m.definitions()["Sum"]
    assert isinstance(s, ast.OpDef) and isinstance(s.body, ast.OpApp)
    assert s.body.args[0] == ast.Name("+")
