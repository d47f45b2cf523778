"""Name resolution: scopes, EXTENDS/INSTANCE on a search path, standard modules, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from tlaconf.tla.parser import parse_module
from tlaconf.tla.resolve import STANDARD_MODULES, ResolveErrors, load, resolve


def _resolve(body: str, search: list[Path] | None = None, extends: str = "Naturals"):
    text = f"---- MODULE M ----\nEXTENDS {extends}\n{body}\n===="
    return resolve(parse_module(text, "M.tla"), search or [], file="M.tla", text=text)


def _errors(body: str, search: list[Path] | None = None, extends: str = "Naturals") -> list[str]:
    with pytest.raises(ResolveErrors) as info:
        _resolve(body, search, extends)
    return [f"{e.location}: {e.message}" for e in info.value.errors]


def test_every_kind_of_binder_resolves() -> None:
    rm = _resolve(
        r"""
CONSTANT N, F(_)
VARIABLE x, r
Op(a, G(_)) == G(a) + F(a) + N
Fn[i \in 1..N] == IF i = 0 THEN 0 ELSE Fn[i - 1]
RECURSIVE R(_)
R(n) == IF n = 0 THEN 0 ELSE R(n - 1)
Q == \A i \in 1..N : \E <<a, b>> \in {<<1, 2>>} : a + b + i > 0
S == {y \in 1..N : y > 1} \cup {y * 2 : y \in 1..N}
T == [k \in 1..N |-> k] /\ [r EXCEPT !.a = @ + 1] /\ CHOOSE c \in 1..N : c > 0
U == LET A == 1 B(z) == z + A RECURSIVE C(_) C(z) == C(z) IN B(A) + C(1)
V == Op(1, LAMBDA t : t) + Op(2, F)
W == x' = x /\ UNCHANGED x /\ [][x' > x]_x /\ WF_x(x' = 1) /\ ENABLED (x' = 2)
X == Lbl :: \E d \in BOOLEAN : d \in {TRUE} /\ "s" \in STRING
THEOREM Thm == ASSUME NEW e \in Nat, NEW H(_) PROVE H(e) = H(e)
Y == Thm /\ Q!1
"""
    )
    assert rm.name == "M"
    assert ("Op", 2) in rm.operators() and ("Fn", 0) in rm.operators()
    assert rm.symbols["+"].kind == "builtin" and rm.symbols["x"].kind == "variable"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("A == b + 1", "M.tla:3:6: undefined name b"),
        ("A == Foo(1)", "M.tla:3:6: undefined operator Foo"),
        ("B(x) == x\nA == B(1, 2)", "M.tla:4:6: operator B takes 1 argument(s), given 2"),
        (
            "B(x) == x\nA == B",
            "M.tla:4:6: operator B takes 1 argument(s) but is used without arguments",
        ),
        (
            "B(F(_)) == F(1)\nC(x, y) == x\nA == B(C)",
            "M.tla:5:8: operator C takes 2 argument(s); an operator with 1 is expected here",
        ),
        (
            "A == 1\nA == 2",
            "M.tla:4:1: duplicate definition of A (first defined in M at M.tla:3:1)",
        ),
        ("Nat == 1", "M.tla:3:1: duplicate definition of Nat (first defined in Naturals at "),
        ("A == \\A x \\in {} : x\nB == x", "M.tla:4:6: undefined name x"),
        ("A == LET B == 1 IN B\nC == B", "M.tla:4:6: undefined name B"),
        ("A == A", "M.tla:3:6: A is used in its own definition, but it is not declared RECURSIVE"),
        ("A(n) == LET B(m) == B(m - 1) IN B(n)", "M.tla:3:21: B is used in its own definition"),
        ("A == Len(<<>>)", "M.tla:3:6: undefined operator Len"),
        ("A(x, x) == x", "M.tla:3:6: duplicate parameter x"),
        ("A == I!B", "M.tla:3:6: undefined name I"),
    ],
)
def test_errors(body: str, expected: str) -> None:
    assert _errors(body)[0].startswith(expected)


def test_error_detail_has_a_caret() -> None:
    with pytest.raises(ResolveErrors) as info:
        _resolve("A == 1 + undefinedThing")
    assert (
        str(info.value) == "M.tla:3:10: undefined name undefinedThing\nA == 1 + undefinedThing\n"
        "         ^"
    )


def test_all_errors_are_collected() -> None:
    assert len(_errors("A == a\nB == b\nC == c")) == 3


def test_integers_needed_for_unary_minus() -> None:
    assert _errors("A == -1")[0].endswith("undefined operator -.")
    _resolve("A == -1 + Cardinality({}) + Len(<<>>)", extends="Integers, FiniteSets, Sequences")


@pytest.mark.parametrize("name", STANDARD_MODULES)
def test_standard_modules_resolve(name: str) -> None:
    _resolve("", extends=name)


def _write(d: Path, name: str, body: str) -> Path:
    p = d / f"{name}.tla"
    p.write_text(f"---- MODULE {name} ----\n{body}\n====\n", encoding="utf-8")
    return p


def test_extends_and_instances_on_a_search_path(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    _write(
        lib, "Base", "EXTENDS Naturals\nCONSTANT K\nVARIABLE v\nInc(a) == a + K\nLOCAL Secret == 0"
    )
    main = _write(
        tmp_path,
        "Main",
        "EXTENDS Base\nCONSTANT C\nA == Inc(1)\nI == INSTANCE Base WITH K <- 2\n"
        "P(c) == INSTANCE Base WITH K <- c, v <- 3\nB == I!Inc(2) + P(1)!Inc(3)",
    )
    rm = load(main, [lib])
    assert [m.name for m in rm.extends] == ["Base"]
    assert "Inc" in rm.symbols and "Secret" not in rm.symbols
    assert rm.instances["I"].name == "Base"
    assert set(rm.graph.modules) >= {"Main", "Base", "Naturals"}


def test_instance_errors(tmp_path: Path) -> None:
    _write(tmp_path, "Base", "CONSTANT K\nInc(a) == a\nLOCAL Secret == 0")
    main = _write(
        tmp_path,
        "Main",
        "I == INSTANCE Base WITH K <- 1, Q <- 2\nJ == INSTANCE Base\n"
        "P(c) == INSTANCE Base WITH K <- c\nA == I!Nope \\cup P!Inc(1) \\cup I!Secret",
    )
    with pytest.raises(ResolveErrors) as info:
        load(main, [])
    messages = [e.message for e in info.value.errors]
    assert messages == [
        "module Base has no CONSTANT or VARIABLE Q",
        "INSTANCE Base: no substitution for K and no K defined here",
        "module Base (instance I) has no definition Nope",
        "instance P takes 1 argument(s), given 0",
        "module Base (instance I) has no definition Secret",
    ]


def test_missing_module_and_cycle(tmp_path: Path) -> None:
    _write(tmp_path, "A", "EXTENDS B")
    _write(tmp_path, "B", "EXTENDS A")
    with pytest.raises(ResolveErrors, match="circular dependency"):
        load(tmp_path / "A.tla", [])
    _write(tmp_path, "C", "EXTENDS Nowhere")
    with pytest.raises(ResolveErrors, match="module Nowhere not found"):
        load(tmp_path / "C.tla", [])


def test_identical_definition_through_instance_is_allowed(tmp_path: Path) -> None:
    _write(tmp_path, "Base", "ToSet(s) == {s[i] : i \\in DOMAIN s}")
    main = _write(tmp_path, "Main", "ToSet(s) == {s[i] : i \\in DOMAIN s}\nINSTANCE Base")
    load(main, [])
    clash = _write(tmp_path, "Clash", "ToSet(s) == {}\nINSTANCE Base")
    with pytest.raises(ResolveErrors, match="ToSet is defined both in Clash and in Base"):
        load(clash, [])


def test_sibling_and_nested_modules(tmp_path: Path) -> None:
    p = tmp_path / "Two.tla"
    p.write_text(
        "---- MODULE Two ----\nEXTENDS Helper\nA == H + 1\n"
        "---- MODULE Inner ----\nB == A\n====\nI == INSTANCE Inner\nC == I!B\n====\n"
        "---- MODULE Helper ----\nEXTENDS Naturals\nH == 1\n====\n",
        encoding="utf-8",
    )
    rm = load(p, [])
    assert "Inner" in rm.graph.modules and "Helper" in rm.graph.modules


def test_very_deep_expression_is_a_user_error_at_its_definition() -> None:
    deep = " + ".join(["1"] * 30000)
    errors = _errors(f"A == 1\nB == {deep}\nC == B + Z")
    assert errors[0].startswith("M.tla:4:1: the definition of B is an expression nested too deeply")
    assert errors[1:] == ["M.tla:5:10: undefined name Z"]  # B is still defined: no cascade
    _resolve(" + ".join(["A == 1"] + ["1"] * 2000))


def test_infix_operator_errors_point_at_the_operator() -> None:
    errors = _errors("A == (1 +  2) \\prec 3\nB == {} \\sqcup\t{}", extends="Naturals")
    assert errors[0].startswith("M.tla:3:15: undefined operator \\prec")
    assert errors[1].startswith("M.tla:4:9: undefined operator \\sqcup")


def test_caret_under_tabbed_source() -> None:
    with pytest.raises(ResolveErrors) as info:
        _resolve("A ==\t\tzz")
    assert str(info.value).endswith("A ==            zz\n                ^")


def test_modules_nested_deeply_resolve(tmp_path: Path) -> None:
    p = tmp_path / "M.tla"
    p.write_text("---- MODULE M ----\n" + "".join(f"---- MODULE N{i} ----\n" for i in range(3000))
                 + "X == 1\n" + "====\n" * 3000 + "I == INSTANCE N2999\nY == I!X\n====\n",
                 encoding="utf-8")
    rm = load(p, [])
    assert "N2999" in rm.graph.modules


def test_many_errors_print_the_first_fifty_and_a_count() -> None:
    body = "\n".join(f"D{i} == U{i}" for i in range(120))
    with pytest.raises(ResolveErrors) as info:
        _resolve(body)
    assert len(info.value.errors) == 120
    text = str(info.value)
    assert "undefined name U49" in text and "undefined name U50" not in text
    assert text.endswith("(and 70 more errors)")
