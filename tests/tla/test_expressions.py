"""Expressions: precedence per TLA+'s operator table and every expression construct."""

from __future__ import annotations

import re

import pytest

from tlaconf.tla import ast
from tlaconf.tla.errors import ParseError
from tlaconf.tla.parser import parse_expression

from .helpers import tree

PRECEDENCE = [
    (r"a \in S /\ b", r"AND[\in(a, S), b]"),
    (r"a \notin S \/ b \subseteq T", r"OR[\notin(a, S), \subseteq(b, T)]"),
    (r"a => (b => c)", "=>(a, =>(b, c))"),
    ("a = ~b", "=(a, ~(b))"),
    ("x' = ~x", "=(x', ~(x))"),
    ("a * ~b", "*(a, ~(b))"),
    (r"a <=> b => c", "=>(<=>(a, b), c)"),
    (r"a \equiv b", "<=>(a, b)"),
    (r"a /\ b => c \/ d", "=>(AND[a, b], OR[c, d])"),
    (r"~ a = b", "~(=(a, b))"),
    (r"~a /\ b", "AND[~(a), b]"),
    (r"(\lnot a \land \neg b) \lor c", "OR[AND[~(a), ~(b)], c]"),
    (r"a = b /\ c # d /\ e /= f", "AND[=(a, b), /=(c, d), /=(e, f)]"),
    (
        r"a =< b /\ a \leq b /\ a <= b /\ a >= b /\ a \geq b",
        "AND[<=(a, b), <=(a, b), <=(a, b), >=(a, b), >=(a, b)]",
    ),
    (r"(a \cup b) \cap c", r"\cap(\cup(a, b), c)"),
    (r"((a \union b) \intersect c) \ d", r"\(\cap(\cup(a, b), c), d)"),
    (r"a \union b \cup c", r"\cup(\cup(a, b), c)"),
    (r"x \in a \cup b", r"\in(x, \cup(a, b))"),
    ("1..n+1", "..(1, +(n, 1))"),
    ("a + b * c ^ d", "+(a, *(b, ^(c, d)))"),
    ("a - b - c", "-(-(a, b), c)"),
    ("-a + b", "+(-.(a), b)"),
    ("a - -b", "-(a, -.(b))"),
    ("- a ^ 2", "-.(^(a, 2))"),
    (r"(a % b) + c \div d", r"+(%(a, b), \div(c, d))"),
    ("a + -b", "+(a, -.(b))"),
    ("x' = x + 1", "=(x', +(x, 1))"),
    ("f[x].a'", "f[x].a'"),
    ("f[x][y]", "f[x][y]"),
    ("f[x, y]", "f[x, y]"),
    ("DOMAIN f = S", "=(DOMAIN(f), S)"),
    (r"SUBSET (S \X T)", r"SUBSET(\X(S, T))"),
    (r"UNION S \cup T", r"\cup(UNION(S), T)"),
    (r"A \X B \X C", r"\X(A, B, C)"),
    (r"A \times B", r"\X(A, B)"),
    (r"(A \X B) \X C", r"\X(\X(A, B), C)"),
    (r"a \o b \circ c", r"\o(\o(a, b), c)"),
    ("s :> 1 @@ t :> 2", "@@(:>(s, 1), :>(t, 2))"),
    (r"a (+) b \oplus c", "(+)((+)(a, b), c)"),
    (r"a \prec b /\ a \preceq b", r"AND[\prec(a, b), \preceq(a, b)]"),
    (r"a ++ b ** c", "++(a, **(b, c))"),
    ("a^+ = b^*", "=(^+(a), ^*(b))"),
    ("[]P => <>Q", "=>([](P), <>(Q))"),
    ("[][Next]_vars", "[]([Next]_vars)"),
    ("P ~> Q", "~>(P, Q)"),
    ("P -+-> Q", "-+->(P, Q)"),
    (r"A \cdot B", r"\cdot(A, B)"),
    ("UNCHANGED <<x, y>> /\\ z' = 1", "AND[UNCHANGED <<x, y>>, =(z', 1)]"),
    ("ENABLED A /\\ B", "AND[ENABLED A, B]"),
    ("a /\\ b /\\ (c /\\ d)", "AND[a, b, AND[c, d]]"),
]


@pytest.mark.parametrize(("text", "expected"), PRECEDENCE)
def test_precedence(text: str, expected: str) -> None:
    assert tree(text) == expected


SANY_REJECTS = [
    (r"7 \div -2", 8, r"'\div' and '-'"), ("2 * -1", 5, "'*' and '-'"),
    ("2 ^ -1", 5, "'^' and '-'"),
    ("a => b => c", 8, "'=>' cannot be chained"), (r"SUBSET S \X T", 10, r"'SUBSET' and '\X'"),
    (r"8 \div 2 \div 2", 10, r"'\div' cannot be chained"), ("[]x' = x", 4, "between '[]' and '''"),
    ("1 .. 2 .. 3", 8, "'..' cannot be chained"), (r"a \cup b \cap c", 10, r"'\cup' and '\cap'"),
    ("a % b + c", 7, "'%' and '+'"), ("a \\ b \\ c", 7, "'\\' cannot be chained"),
    ("[a |-> 1, a |-> 2]", 11, "field a appears twice"),
    ("[a : {1}, a : {2}]", 11, "field a appears twice"),
]


@pytest.mark.parametrize(("text", "col", "message"), SANY_REJECTS)
def test_text_sany_rejects_is_rejected_with_its_location(text: str, col: int,
                                                          message: str) -> None:
    with pytest.raises(ParseError, match=re.escape(message)) as info:
        parse_expression(text)
    assert f":1:{col}:" in str(info.value)


CONSTRUCTS = [
    # quantifiers, CHOOSE
    (r"\A x \in S : P /\ Q", r"\A x \in S : AND[P, Q]"),
    (r"\E x, y \in S, z \in T : P", r"\E x, y \in S, z \in T : P"),
    (r"\A x, y : P", r"\A x, y : P"),
    (r"\E <<x, y>> \in S \X T : x = y", r"\E <<x, y>> \in \X(S, T) : =(x, y)"),
    (r"a /\ \E x : P /\ Q", r"AND[a, \E x : AND[P, Q]]"),
    (r"CHOOSE x \in S : x > 0", r"CHOOSE x \in S : >(x, 0)"),
    (r"CHOOSE x : TRUE", "CHOOSE x : TRUE"),
    (r"CHOOSE <<a, b>> \in S : a", r"CHOOSE <<a, b>> \in S : a"),
    (r"\AA x : P", r"\AA x : P"),
    (r"\EE x, y : P", r"\EE x, y : P"),
    # sets
    ("{}", "{}"),
    ("{1, 2, 3}", "{1, 2, 3}"),
    (r"{x \in S : x > 1}", r"{x \in S : >(x, 1)}"),
    (r"{<<x, y>> \in S : x = y}", r"{<<x, y>> \in S : =(x, y)}"),
    (r"{x + 1 : x \in S}", r"{+(x, 1) : x \in S}"),
    (r"{x + y : x, y \in S, z \in T}", r"{+(x, y) : x, y \in S, z \in T}"),
    (r"{f(x) \in S : x \in T}", r"{\in(f(x), S) : x \in T}"),
    (r"{x \in S : y \in T, z \in U}", r"{\in(x, S) : y \in T, z \in U}"),
    # functions, records, tuples
    (r"[x \in S |-> x + 1]", r"[x \in S |-> +(x, 1)]"),
    (r"[x, y \in S, z \in T |-> 0]", r"[x, y \in S, z \in T |-> 0]"),
    ("[S -> T]", "[S -> T]"),
    ("[a |-> 1, b |-> TRUE]", "[a |-> 1, b |-> TRUE]"),
    ("[a : S, b : BOOLEAN]", "[a : S, b : BOOLEAN]"),
    ("<<>>", "<<>>"),
    ("<<1, <<2>>>>", "<<1, <<2>>>>"),
    ("r.a.b", "r.a.b"),
    ("[f EXCEPT ![1] = 2]", "[f EXCEPT ![1] = 2]"),
    ("[f EXCEPT !.a[1].b = @ + 1, ![x, y] = @]", "[f EXCEPT !.a[1].b = +(@, 1), ![x, y] = @]"),
    ("[before EXCEPT !.returned = TRUE]", "[before EXCEPT !.returned = TRUE]"),
    # IF, CASE, LET, LAMBDA
    ("IF a THEN b ELSE c /\\ d", "IF(a, b, AND[c, d])"),
    ("IF a THEN b ELSE IF c THEN d ELSE e", "IF(a, b, IF(c, d, e))"),
    ("CASE a -> 1 [] b -> 2", "CASE(a -> 1; b -> 2)"),
    ("CASE a -> 1 [] OTHER -> 3", "CASE(a -> 1; OTHER -> 3)"),
    ("CASE a -> []P [] b -> <>Q", "CASE(a -> [](P); b -> <>(Q))"),
    ("LET x == 1 y(a) == a IN x + y(2)", "LET x, y IN +(x, y(2))"),
    ("LET f[i \\in S] == i RECURSIVE g(_) g(n) == n IN f[1]", "LET f, ?, g IN f[1]"),
    ("F(LAMBDA x, y : x + y, 1)", "F(LAMBDA x, y : +(x, y), 1)"),
    # operators as arguments, qualified names
    ("F(+, \\cup, -)", r"F(+, \cup, -)"),
    ("M!Op", "M!Op"),
    ("M!Op(1, 2)", "M!Op(1, 2)"),
    ("M!N!x", "M!N!x"),
    ("I(x)!Op(y)", "I!Op(y)"),
    ("R!+(a, b)", "R!+(a, b)"),
    ("Inv!2", "Inv!2"),
    ("Def!:", "Def!:"),
    # literals
    ("42", "42"),
    (r"\b1010 + \o17 + \h1F + \B11 + \O7 + \HfF", "+(+(+(+(+(10, 15), 31), 3), 7), 255)"),
    ("1.5", "/(15, 10)"),
    (r'"a\"b\\c\n\t"', repr('a"b\\c\n\t')),
    ("TRUE /\\ FALSE", "AND[TRUE, FALSE]"),
    ("BOOLEAN \\cup STRING", r"\cup(BOOLEAN, STRING)"),
    # actions and temporal operators
    ("[Next]_<<x, y>>", "[Next]_<<x, y>>"),
    ("<<A>>_vars", "<<A>>_vars"),
    ("[][TRUE]_<<>>", "[]([TRUE]_<<>>)"),
    ("WF_vars(Next) /\\ SF_<<x>>(A)", "AND[WF_vars(Next), SF_<<x>>(A)]"),
    ("WF_M!vars(A)", "WF_M!vars(A)"),
    # labels
    ("L :: x = 1", "L :: =(x, 1)"),
    ("L(a, b) :: a", "L(a, b) :: a"),
]


@pytest.mark.parametrize(("text", "expected"), CONSTRUCTS)
def test_construct(text: str, expected: str) -> None:
    assert tree(text) == expected


def test_case_separator_is_not_box() -> None:
    e = parse_expression("CASE x = 1 -> []P\n  [] OTHER -> Q")
    assert isinstance(e, ast.Case) and len(e.arms) == 1 and e.other == ast.Name("Q")


def test_parameterized_instance_arguments_are_kept() -> None:
    e = parse_expression("I(x, 1)!Op(y)")
    assert isinstance(e, ast.OpApp) and e.module == ("I",)
    assert e.module_args == ((ast.Name("x"), ast.Num(1)),)


def test_spans_cover_the_whole_expression() -> None:
    e = parse_expression("  a + f(b,\n   c)", "f.tla")
    assert e.span == ast.Span("f.tla", 1, 3, 2, 5)
    assert isinstance(e, ast.OpApp)
    assert e.args[1].span == ast.Span("f.tla", 1, 7, 2, 5)


def test_tuple_and_record_spans_include_brackets() -> None:
    e = parse_expression("<<1, 2>>")
    assert (e.span.col, e.span.end_col) == (1, 8)


@pytest.mark.parametrize(
    ("unicode", "ascii_"),
    [
        ("∀ x ∈ S : x ≠ 1 ∧ ¬(x ≤ 2)", r"\A x \in S : x /= 1 /\ ~(x <= 2)"),
        ("∃ ⟨a, b⟩ ∈ S × T : a ∉ (b ∪ c) ∩ d",
         r"\E <<a, b>> \in S \X T : a \notin (b \cup c) \cap d"),
        ("□[Next]_⟨x⟩ ∨ ◇⟨A⟩_v", r"[][Next]_<<x>> \/ <><<A>>_v"),
        ("[f EXCEPT ![1] = [k ↦ 2]] ∈ [S → T]", r"[f EXCEPT ![1] = [k |-> 2]] \in [S -> T]"),
        ("P ⇒ (Q ≡ R) ↝ S", r"P => (Q \equiv R) ~> S"),
        ("a ⊆ b ⇔ s ∘ t ⊕ u", r"a \subseteq b <=> s \o t (+) u"),
    ],
)
def test_unicode_symbols(unicode: str, ascii_: str) -> None:
    assert tree(unicode) == tree(ascii_)


def test_unicode_definition() -> None:
    from tlaconf.tla.parser import parse_units

    (d,) = parse_units("Op(a) ≜\n  ∧ a ≥ 1\n  ∧ a ∈ Nat", "u")
    assert isinstance(d, ast.OpDef) and d.name == "Op"
    assert isinstance(d.body, ast.Junction) and d.body.bulleted and len(d.body.items) == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("+(4, 6)", "+(4, 6)"),
        (r"\union({1}, S)", r"\cup({1}, S)"),
        (r"..(1, n) \cup {2}", r"\cup(..(1, n), {2})"),
        ("-(a) + 1", "+(-.(a), 1)"),
        ("-.(a) + ^+(b)", "+(-.(a), ^+(b))"),
        (r"\forall x \in S : x", r"\A x \in S : x"),
        (r"\exists x \in S : x", r"\E x \in S : x"),
    ],
)
def test_sany_spellings(text: str, expected: str) -> None:
    """An infix or postfix operator applied in prefix form (``+(4, 6)``, ``^+(4)``, as in
    TLC's test204) and the ``\\forall``/``\\exists`` spellings of ``\\A``/``\\E``."""
    assert tree(text) == expected
