"""Module syntax: header and footer, declarations, definitions, instances, theorems, proofs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tlaconf.errors import UserError
from tlaconf.tla import ast
from tlaconf.tla.errors import ParseError
from tlaconf.tla.parser import load_module_file, parse_module, parse_modules

from .helpers import show

FULL = r"""
Text before the header is ignored.
--------------------------- MODULE Full ---------------------------
EXTENDS Naturals, Sequences
(* a (* nested *) comment *)
CONSTANTS N, Op(_, _), _ \prec _
CONSTANT  Max
VARIABLES x, y
VARIABLE  z
ASSUME N \in Nat
ASSUMPTION Pos == N > 0
AXIOM Ax == TRUE
-----------------------------------------------------------------------
Init == x = 0 \* a line comment
Add(a, b) == a + b
Apply(F(_), v) == F(v)
a (+) b == a + b
a \oplus b == a
-. a == 0 - a
a^+ == a
f[i \in 1..N] == IF i = 1 THEN 1 ELSE i * f[i - 1]
g[i, j \in S, <<k, l>> \in T] == 0
RECURSIVE Fact(_)
Fact(n) == IF n = 0 THEN 1 ELSE n * Fact(n - 1)
LOCAL Hidden == 1
LOCAL INSTANCE TLC
INSTANCE Sequences
M == INSTANCE Other WITH p <- 1, q <- x
P(v) == INSTANCE Other WITH p <- v
THEOREM Spec => []Init
THEOREM Named == \A n \in Nat : n >= 0
  <1>1. TRUE
    OBVIOUS
  <1>2. QED
    BY <1>1 DEF Init
LEMMA ASSUME NEW k \in Nat, NEW G(_), k > 0 PROVE k >= 1
  PROOF OBVIOUS
USE DEF Init
\* nested module: may use the outer definitions above it
---- MODULE Inner ----
Q == Init
====
Last ==	x	+ 1
=======================================================================
Text after the footer is ignored: ( unbalanced
"""


def test_full_module() -> None:
    m = parse_module(FULL, "Full.tla")
    assert m.name == "Full" and m.extends == ("Naturals", "Sequences")
    consts = m.constants()
    assert [(p.name, p.arity) for p in consts] == [("N", 0), ("Op", 2), ("\\prec", 2), ("Max", 0)]
    assert m.variables() == ("x", "y", "z")
    defs = m.definitions()
    assert list(defs) == [
        "Init",
        "Add",
        "Apply",
        "(+)",
        "-.",
        "^+",
        "f",
        "g",
        "Fact",
        "Hidden",
        "M",
        "P",
        "Last",
    ]
    apply = defs["Apply"]
    assert isinstance(apply, ast.OpDef) and apply.params[0] == ast.Param("F", 1)
    assert isinstance(defs["Hidden"], ast.OpDef) and defs["Hidden"].local
    g = defs["g"]
    assert isinstance(g, ast.FnDef)
    assert [(b.names, b.tuple_pattern) for b in g.bounds] == [
        (("i", "j"), False),
        (("k", "l"), True),
    ]
    inst = defs["P"]
    assert isinstance(inst, ast.InstanceDef) and inst.instance.module == "Other"
    assert [n for n, _ in inst.instance.substitutions] == ["p"]
    kinds = [type(u).__name__ for u in m.units]
    assert kinds.count("Assume") == 3 and kinds.count("Theorem") == 3
    assert kinds.count("Separator") == 1 and kinds.count("Module") == 1
    assert kinds.count("Recursive") == 1 and kinds.count("Instance") == 2
    assumes = [u for u in m.units if isinstance(u, ast.Assume)]
    assert [a.name for a in assumes] == [None, "Pos", "Ax"]
    theorems = [u for u in m.units if isinstance(u, ast.Theorem)]
    assert theorems[1].name == "Named"
    lemma = theorems[2]
    assert show(lemma.expr) == ">=(k, 1)"
    assert [type(n).__name__ for n in lemma.new] == ["Bound", "Param"]
    assert [show(a) for a in lemma.assume] == [">(k, 0)"]
    inner = next(u for u in m.units if isinstance(u, ast.Module))
    assert inner.name == "Inner" and list(inner.definitions()) == ["Q"]
    last = defs["Last"]
    assert isinstance(last, ast.OpDef) and show(last.body) == "+(x, 1)"
    # tabs count to the next multiple of 8 for columns
    assert (last.body.span.line, last.body.span.col) == (43, 9)


def test_module_header_variants() -> None:
    m = parse_module("---- MODULE A\nX == 1\n====", "a")
    assert m.name == "A" and list(m.definitions()) == ["X"]
    m = parse_module("------ MODULE B ------\n=========", "b")
    assert m.units == ()


def test_several_modules_in_one_file() -> None:
    text = "---- MODULE A ----\nX == 1\n====\nbetween\n---- MODULE B ----\nY == 2\n===="
    assert [m.name for m in parse_modules(text, "f")] == ["A", "B"]
    assert parse_module(text, "f").name == "A"


def test_proof_with_steps_at_column_one_is_skipped() -> None:
    text = (
        "---- MODULE T ----\nTHEOREM T1 == TRUE\n<1>1. TRUE\n  BY DEF X\n<1>. QED\n"
        "  OBVIOUS\nNext == 1\n===="
    )
    m = parse_module(text, "t")
    assert list(m.definitions()) == ["Next"]


def test_definition_spans() -> None:
    m = parse_module("---- MODULE S ----\n  Foo(a) ==\n    a + 1\n====", "s.tla")
    (d,) = m.units
    assert d.span == ast.Span("s.tla", 2, 3, 3, 9)


def test_load_module_file(tmp_path: Path) -> None:
    p = tmp_path / "M.tla"
    p.write_text("---- MODULE M ----\nA == 1\n====\n", encoding="utf-8")
    assert load_module_file(p).definitions()["A"].span.file == str(p)


def test_load_missing_file_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"cannot read module .*nope\.tla: it does not exist"):
        load_module_file(tmp_path / "nope.tla")


def test_no_module_header() -> None:
    with pytest.raises(ParseError, match="no module header"):
        parse_module("X == 1", "x.tla")


TLAPS = r"""---- MODULE Proofs ----
EXTENDS Naturals
CONSTANT N
LEMMA L1 == ASSUME NEW S, NEW op(_, _), ASSUME NEW x PROVE x = x PROVE TRUE
PROOF
  <1> DEFINE P(n) == n \in Nat
  <1>1. SUFFICES ASSUME NEW n \in Nat, P(n)
                 PROVE  n >= 0
    BY DEF P
  <1>2. PICK m \in Nat : m = N
    OBVIOUS
  <1>3. CASE N = 0
    <2>1. HIDE DEF P
    <2>. QED  BY <1>1, <1>2 DEF P   \* comment with "string" and (* nested *)
  <1>4. WITNESS 0 \in Nat
  <1>q. QED
    PROOF OMITTED
USE DEF Foo
HIDE DEF Bar
THEOREM T2 == N \in Nat => TRUE
AfterProofs == 1
COROLLARY N = N
PROPOSITION TRUE
===="""


def test_tlaps_proofs_are_skipped() -> None:
    m = parse_module(TLAPS, "p.tla")
    assert [type(u).__name__ for u in m.units] == [
        "Constant",
        "Theorem",
        "Theorem",
        "OpDef",
        "Theorem",
        "Theorem",
    ]
    lemma = m.units[1]
    assert isinstance(lemma, ast.Theorem) and lemma.name == "L1"
    assert [getattr(n, "name", None) or n.names for n in lemma.new] == [("S",), "op"]
    inner = lemma.assume[0]  # a nested ASSUME ... PROVE: its NEW names are its own
    assert isinstance(inner, ast.Theorem) and [n.names for n in inner.new] == [("x",)]
