"""Where tlaconf once differed from TLC (checked against TLC's sources, tlc2/value/impl
and tlc2/module): each case is TLC's answer, an error where TLC raises one."""

from __future__ import annotations

import pytest

from tests.evaluate.tlahelp import ev, fails, module
from tlaconf.evaluate import EvalError


@pytest.mark.parametrize("text", [
    "{} \\in Nat", "{} \\notin Nat", '"a" \\in Nat', "<<>> \\in Int", "1 \\in STRING",
    '<<1, "a">> \\in Seq(Nat)', '"a" \\in BOOLEAN', '"a" \\in 1..3',
])
def test_membership_of_another_kind_is_an_error(text: str) -> None:
    fails(text, "attempted to check whether")


def test_membership_of_the_right_kind() -> None:
    assert ev("3 \\in Nat") is True
    assert ev("-3 \\notin Nat") is True
    assert ev('"a" \\in STRING') is True
    assert ev("<<1, 2>> \\in Seq(Nat)") is True
    assert ev('"a" \\in 1..0') is False  # TLC: an empty interval holds nothing


@pytest.mark.parametrize("text", [
    "{<<>>, 0}", '{"a", {}}', '{1, "a"}', "{TRUE, 1}", "{<<1>>, <<TRUE>>}", '{{1}, {"a"}}',
    '{"b"} \\ {TRUE}', '{1} \\cup {"a"}', '{1, 2} \\cap {"a"}', 'Cardinality({1, "a"})',
    'UNION {{1}, {"a"}}', '(1 :> 2) @@ ("a" :> 3)', '{x : x \\in {1, "a"}}',
    '{[a |-> 1], <<1>>}',
])
def test_sets_tlc_cannot_sort_are_errors(text: str) -> None:
    fails(text, "TLC cannot compare")


def test_sets_tlc_can_sort() -> None:
    assert ev('Cardinality({{1}, {"a", "b"}})') == 2  # sizes differ: never compared
    assert ev('{} \\cup {"a"}') == frozenset({"a"})
    assert ev('{1} \\ {}') == frozenset({1})
    assert ev('Cardinality({<<1, "a">>, <<2, 3>>})') == 2  # 1 < 2 decides


@pytest.mark.parametrize("text", [
    '{1} = {"a"}', "<<1>> = <<TRUE>>", '<<1, "a">> = <<1, 2>>', "[a |-> 1] = [a |-> TRUE]",
    "[a |-> 1] = <<1>>", '<<1>> \\in {<<"a">>}', '{1} \\in {{"a"}}', '1 = "a"',
    "STRING = Nat", "Nat = {1}",
])
def test_comparison_of_different_kinds_at_any_depth_is_an_error(text: str) -> None:
    fails(text, "compare|cannot enumerate")


def test_comparison_stops_at_the_first_difference() -> None:
    assert ev('{1} = {"a", "b"}') is False  # sizes differ
    assert ev('<<1, 2>> = <<2, "a">>') is False
    assert ev('<<1>> = <<1, "a">>') is False
    assert ev("Nat = Nat") is True
    assert ev("Int = Int") is True
    assert ev("STRING = STRING") is True
    assert ev("Nat = Int") is False


def test_except_with_a_key_of_another_kind_is_an_error() -> None:
    fails("[(0 :> 0) EXCEPT ![{}] = 0]", "cannot be compared")
    fails('[<<1, 2>> EXCEPT !["a"] = 0]', "cannot be compared")
    fails("[[a |-> 1] EXCEPT ![1] = 0]", "cannot be compared")
    assert ev("[<<1, 2>> EXCEPT ![3] = 0]") == (1, 2)  # outside the domain: unchanged
    assert ev("[[a |-> 1] EXCEPT !.b = 0] = [a |-> 1]") is True
    assert ev('[<<>> EXCEPT !["a"] = 0]') == ()


def test_operator_arguments_are_evaluated_only_where_used() -> None:
    m = module("EXTENDS Integers, Sequences\n"
               "G(x, y) == IF x > 0 THEN y ELSE 0\n"
               "H(x) == G(0, x)\n"
               "Both(x, y) == x /\\ y\n"
               "VARIABLE v\n"
               "A == G(0, 1 \\div 0) = 0 /\\ v' = 1\n")
    assert m.evaluate("LET F(x) == TRUE IN F(1 \\div 0)") is True
    assert m.evaluate("G(0, 1 \\div 0)") == 0
    assert m.evaluate("H(<<>>[1])") == 0
    assert m.evaluate("Both(FALSE, <<>>[1])") is False
    assert m.evaluate("LET F(x, y) == x \\/ y IN F(TRUE, 1 \\div 0)") is True
    assert m.enabled("A", (), {"v": 0}) is True
    with pytest.raises(EvalError, match="division by zero"):
        m.evaluate("G(1, 1 \\div 0)")
    with pytest.raises(EvalError, match="division by zero"):
        m.evaluate("LET F(x) == x + 1 IN F(1 \\div 0)")
    with pytest.raises(EvalError, match="not in its domain"):
        m.evaluate("Both(TRUE, <<>>[1])")


def test_functions_are_evaluated_only_where_applied() -> None:
    assert ev("[n \\in 0..3 |-> 10 \\div n][2]") == 5
    assert ev("LET S == {0, 1} IN [n \\in S |-> 10 \\div n][1]") == 10
    assert ev("[n \\in {0, 1}, m \\in {1} |-> 10 \\div n][1, 1]") == 10
    assert ev("DOMAIN [n \\in 0..3 |-> 10 \\div n]") == frozenset(range(4))
    fails("[n \\in 0..3 |-> 10 \\div n][0]", "division by zero")
    fails("[n \\in 0..3 |-> 10 \\div n] = [n \\in 0..3 |-> 1]", "division by zero")
    fails("[n \\in 0..3 |-> 10 \\div n]", "division by zero")


def test_strings_as_sequences() -> None:
    assert ev('Tail("abc")') == "bc"
    assert ev('Len("abc")') == 3
    fails('Tail("")', "Tail of the empty")
    fails('Head("abc")', "expects a sequence")


def test_choose_follows_tlcs_order_where_it_is_fixed() -> None:
    assert ev("CHOOSE x \\in {<<2>>, <<1, 1>>} : TRUE") == (2,)  # shorter tuples first
    assert ev("CHOOSE x \\in {{5}, {1, 2}} : TRUE") == frozenset({5})  # smaller sets first
    assert ev("CHOOSE x \\in {3, 1, 2} : TRUE") == 1
    assert ev("CHOOSE x \\in {[a |-> 2], [a |-> 1, b |-> 0]} : TRUE") == ev("[a |-> 2]")


@pytest.mark.parametrize(("text", "expected"), [
    ("BagIn(1, (1 :> 0))", False),  # TLC: a count must be positive (Bags.tla says TRUE)
    ("BagIn(1, (1 :> 2))", True),
    ("BagIn(3, (1 :> 2))", False),
    ("CopiesIn(1, (1 :> -1))", -1),
    ("CopiesIn(3, (1 :> 2))", 0),
    ("IsABag({1})", False),  # not a function: FALSE, not an error
    ("IsABag((1 :> 0))", False),
    ("IsABag(<<>>)", True),
    ("(1 :> 3) (-) (1 :> 1 @@ 2 :> 5)", (2,)),
    ("(1 :> 1) (-) (1 :> 3)", ()),
    ("(1 :> 1) \\sqsubseteq (1 :> 3)", True),
    ("(1 :> 4) \\sqsubseteq (1 :> 3)", False),
    ("BagUnion({(1 :> 0)})", (0,)),  # one bag: returned as it is
    ("BagUnion({(1 :> 1), (1 :> 2 @@ 2 :> 1)})", (3, 1)),
    ("BagOfAll(LAMBDA x : x % 2, (1 :> 1 @@ 3 :> 2 @@ 4 :> 1))", None),
])
def test_bags_as_tlcs_built_in_operators(text: str, expected: object) -> None:
    if expected is None:
        assert ev(text) == ev("(0 :> 1 @@ 1 :> 3)")
    else:
        assert ev(text) == expected


@pytest.mark.parametrize("text", [
    'BagIn("a", (1 :> 1))', "BagIn(1, {1})", 'CopiesIn("a", <<1>>)', "(1 :> 0) (+) (1 :> 1)",
    "BagCardinality((1 :> 0))", 'BagCardinality((1 :> "a"))', 'BagIn(1, (1 :> "a"))',
    "BagToSet({1})",
])
def test_bags_errors_as_tlc(text: str) -> None:
    with pytest.raises(EvalError):
        ev(text)


@pytest.mark.parametrize(("text", "printed"), [
    ("1..3", "1..3"), ("{1, 2, 3}", "{1, 2, 3}"), ("1..0", "{}"), ("DOMAIN <<5, 6>>", "1..2"),
    ("(1..3) \\cup {}", "{1, 2, 3}"), ("{1..2}", "{1..2}"),
    ("{<<1, 2>>, <<3>>}", "{<<3>>, <<1, 2>>}"),
    ("{{1, 2}, {3}}", "{{3}, {1, 2}}"), ("SUBSET {1, 2}", "{{}, {1}, {2}, {1, 2}}"),
    ("SUBSET (1..7)", "SUBSET (1..7)"), ("[{1, 2} -> {3}]", "{<<3, 3>>}"),
    ("[a : {1, 2}]", "{[a |-> 1], [a |-> 2]}"), ("{1, 2} \\X {3}", "{<<1, 3>>, <<2, 3>>}"),
    ("Nat", "Nat"), ("STRING", "STRING"), ("Seq({1})", "Seq({1})"),
    ('"a\\nb"', '"a\\nb"'), ("-3", "-3"), ("(1 :> 2 @@ 3 :> 4)", "(1 :> 2 @@ 3 :> 4)"),
    ("[x \\in {} |-> 1]", "<<>>"), ("[n \\in 1..2 |-> n]", "<<1, 2>>"),
    ("[b |-> 1, a |-> 2]", "[a |-> 2, b |-> 1]"), ('("a b" :> 1)', "[a b |-> 1]"),
])
def test_to_string_prints_as_tlc(text: str, printed: str) -> None:
    assert ev(f"ToString({text})") == printed


def test_to_string_of_an_interval_is_not_that_of_a_set() -> None:
    assert ev("ToString(1..2) = ToString({1, 2})") is False
    assert ev("1..2 = {1, 2}") is True
    fails("ToString({n \\in Nat : n > 2})", "infinite set")


def test_infinite_sets_inside_values_compare_as_tlc() -> None:
    """TLC compares Nat, Int, STRING and Seq(S) by name (and range); any other infinite
    set it cannot compare, even with itself."""
    assert ev("<<Seq({1})>> = <<Seq({1})>>") is True
    assert ev("Seq({1}) = Seq({2})") is False
    assert ev("<<Nat>> = <<Int>>") is False
    assert ev("Nat \\in {Nat}") is True
    for text in ("<<S>> = <<S>>", "{S} = {S}", "[a |-> S] = [a |-> S]", "S \\in {S}",
                 "<<S>> \\in {<<S>>}", "S = S"):
        fails(f"LET S == {{n \\in Nat : n > 1}} IN {text}", "compare|enumerate")
