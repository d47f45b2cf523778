"""Values, equality and membership as TLC: kinds never silently compare."""

import pytest

from tests.evaluate.tlahelp import ev, fails, module, show
from tlaconf.evaluate import EvalError
from tlaconf.values import Fn


def test_unbounded_integers() -> None:
    assert ev("2^100") == 2**100
    assert ev("2^100 - 2^100 + 1") == 1
    assert show("-(2^70)") == "-1180591620717411303424"


def test_strings() -> None:
    assert ev('"abc" = "abc"') is True
    assert ev('"a" # "b"') is True
    assert show('"x\\"y"') == '"x\\"y"'


def test_cross_kind_equality_is_an_error() -> None:
    """TLC: 'Attempted to check equality of string "a" with non-string 1'."""
    fails('"a" = 1', "compare the string")
    fails("{1} = 1", "compare the")
    fails("TRUE = 1", "compare the boolean")
    fails('<<1>> # "a"', "compare the")


def test_cross_kind_membership_is_an_error() -> None:
    fails('"a" \\in {1, 2}', "is in a set of integers")
    fails("1 \\in {TRUE}", "is in a set of booleans")
    assert ev('"a" \\in {}') is False
    fails("1 \\in 2", "is not a set")


def test_tuples_are_functions_on_1_n() -> None:
    """Specifying Systems 16.1.9: a tuple is a function with domain 1..n."""
    assert ev("<<1, 2>> = [i \\in 1..2 |-> i]") is True
    assert ev("<<>> = [x \\in {} |-> 1]") is True
    assert ev("DOMAIN <<5, 6, 7>> = 1..3") is True
    assert ev('<<"a">> = (1 :> "a")') is True


def test_records_are_functions_on_strings() -> None:
    assert ev('[a |-> 1, b |-> 2] = [x \\in {"a", "b"} |-> IF x = "a" THEN 1 ELSE 2]') is True
    assert ev("[a |-> 1] # [a |-> 2]") is True
    assert ev("[a |-> 1]") == Fn({"a": 1})
    fails('[a |-> 1] = <<1>>', "compare")  # TLC: a record with a non-record


def test_sets_compare_by_content() -> None:
    assert ev("{1, 2} = {2, 1, 1}") is True
    assert ev("{{1}, {2}} = {{2}, {1}}") is True
    assert ev("1..3 = {1, 2, 3}") is True
    assert ev("SUBSET {1} = {{}, {1}}") is True


def test_set_mixing_booleans_and_integers_is_refused() -> None:
    fails("{TRUE, 1}", "cannot compare")


def test_printing() -> None:
    assert show("{2, 1}") == "{1, 2}"
    assert show('<<1, "a">>') == '<<1, "a">>'
    assert show("[b |-> 1, a |-> 2]") == "[a |-> 2, b |-> 1]"
    assert show('(1 :> "a" @@ 3 :> "b")') == '(1 :> "a" @@ 3 :> "b")'
    assert show("SUBSET {1, 2}") == "{{}, {1}, {2}, {1, 2}}"


def test_a_boolean_never_equals_an_integer_inside_a_value() -> None:
    """Python's ``True == 1`` must not leak: comparing a boolean with an integer at any
    depth is an error, as in TLC (regression: ``<<TRUE>> = <<1>>`` was TRUE, then FALSE)."""
    for text in ("<<0>> = <<FALSE>>", "<<1>> # <<TRUE>>", "{<<1>>} = {<<TRUE>>}",
                 "[a |-> 1] = [a |-> TRUE]", "<<1>> \\in {<<TRUE>>}",
                 "<<1>> \\notin {<<TRUE>>, <<FALSE>>}", "<<<<1>>>> = <<<<TRUE>>>>"):
        fails(text, "compare")
    assert ev("<<1, 2>> = <<1, 2>>") is True
    assert ev("<<1, 2>> = <<2, TRUE>>") is False  # TLC stops at the first difference
    fails("(<<TRUE>> :> 5)[<<1>>]", "not in its domain")
    fails("[(<<TRUE>> :> 5) EXCEPT ![<<1>>] = 6]", "cannot be compared")
    fails("{<<1>>, <<TRUE>>}", "cannot compare")
    m = module("Eq(a, b) == a = b\nIn(a, S) == a \\in S\n"
               "Lazy(a) == LET f[n \\in {<<1>>, <<2>>}] == n IN f[a] = a\n")
    for op, args in (("Eq", ((1,), (True,))), ("Eq", (Fn({"a": 0}), Fn({"a": False}))),
                     ("In", ((True,), frozenset({(1,)})))):
        with pytest.raises(EvalError, match="compare"):
            m.holds(op, args, {})
    assert m.holds("Lazy", ((1,),), {}) is True
    with pytest.raises(EvalError, match="not in its domain"):
        m.holds("Lazy", ((True,),), {})
