"""Set constructs, lazy (infinite) sets and their enumeration errors."""

import pytest

from tests.evaluate.tlahelp import ev, fails, module, show
from tlaconf.evaluate import EvalError


def test_set_operators() -> None:
    assert show("{1, 2} \\cup {3}") == "{1, 2, 3}"
    assert show("{1, 2} \\union {2}") == "{1, 2}"
    assert show("{1, 2} \\cap {2, 3}") == "{2}"
    assert show("{1, 2} \\ {2}") == "{1}"
    assert ev("{1} \\subseteq {1, 2}") is True
    assert ev("{1, 3} \\subseteq {1, 2}") is False
    assert show("UNION {{1}, {2, 3}}") == "{1, 2, 3}"
    assert ev("Cardinality(SUBSET (1..4))") == 16
    assert show("{1, 2} \\X {\"a\"}") == '{<<1, "a">>, <<2, "a">>}'
    assert ev("<<1, 2, 3>> \\in (1..2) \\X (1..2) \\X (1..3)") is True


def test_set_constructors() -> None:
    assert show("{x * 2 : x \\in 1..3}") == "{2, 4, 6}"
    assert show("{x + y : x \\in 1..2, y \\in {10, 20}}") == "{11, 12, 21, 22}"
    assert show("{x \\in 1..10 : x % 4 = 0}") == "{4, 8}"
    assert show("{<<a, b>> \\in {1, 2} \\X {1, 2} : a < b}") == "{<<1, 2>>}"
    assert show("{a + b : <<a, b>> \\in {<<1, 2>>, <<3, 4>>}}") == "{3, 7}"


def test_infinite_sets_are_membership_only() -> None:
    assert ev("3 \\in {n \\in Nat : n % 3 = 0}") is True
    assert ev('"x" \\in STRING') is True
    assert ev("<<1, 2>> \\in Seq(Nat)") is True
    assert ev("<<1, -2>> \\in Seq(Nat)") is False
    assert ev("[n \\in 1..2 |-> n] \\in [1..2 -> Nat]") is True
    assert ev("[a |-> 1] \\in [a : Nat]") is True
    assert ev("{1, 2} \\in SUBSET Nat") is True
    assert ev("-1 \\in Nat \\cup {-1}") is True
    fails("\\A n \\in Nat : n >= 0", "cannot enumerate the infinite set Nat")
    fails("Cardinality(Int)", "cannot enumerate the infinite set Int")
    fails("{s \\in STRING : s = \"a\"} = {\"a\"}", "cannot enumerate the infinite set")


def test_boolean_is_finite() -> None:
    assert show("BOOLEAN") == "{FALSE, TRUE}"
    assert ev("\\A b \\in BOOLEAN : b \\/ ~b") is True


def test_function_sets_enumerate_when_finite() -> None:
    assert ev("Cardinality([1..2 -> {\"a\", \"b\"}])") == 4
    assert ev("Cardinality([a : {1, 2}, b : {3}])") == 2


def test_cardinality_and_finiteness() -> None:
    assert ev("IsFiniteSet({1, 2})") is True
    assert ev("IsFiniteSet(Nat)") is False
    fails("Cardinality(3)", "expects a set")


def test_disjointness() -> None:
    """``S \\cap T = {}`` is compiled as a disjointness test; lazy sets and errors still
    behave as the definition."""
    assert ev("{1, 2} \\cap {3} = {}") is True
    assert ev("{1, 2} \\cap {2} # {}") is True
    assert ev("{1} \\cap Nat = {}") is False
    assert ev("{-1} \\cap Nat = {}") is True
    assert ev("LET S == {{1}, {2}} IN \\A a, b \\in S : a # b => a \\cap b = {}") is True
    fails("1 \\cap {2} = {}", "expects a set")


def test_comparison_with_the_empty_set_is_a_boolean() -> None:
    """``S # {}`` / ``S = {}`` on a computed set give TRUE/FALSE, never the set itself
    (regression: the inlined fast path returned ``S`` for ``S # {}``)."""
    m = module(
        "EXTENDS Naturals\nNonEmpty(S) == (S # {}) <=> TRUE\nEmpty(S) == (S = {}) <=> TRUE\n"
        "VARIABLE x\nA(p) == /\\ {m \\in 1..3 : m > p} # {}\n        /\\ x' = x + 1\n"
    )
    assert m.holds("NonEmpty", (frozenset({1}),), {}) is True
    assert m.holds("NonEmpty", (frozenset(),), {}) is False
    assert m.holds("Empty", (frozenset(),), {}) is True
    assert m.holds("Empty", (frozenset({2}),), {}) is False
    assert m.enabled("A", (1,), {"x": 0}) is True
    assert m.enabled("A", (5,), {"x": 0}) is False


def test_set_operations_never_merge_a_boolean_with_an_integer() -> None:
    """Python's ``{0} | {False}`` is ``{0}``: ``\\cup``, ``\\cap``, ``\\``, UNION and the
    disjointness test refuse such sets instead of answering (regression: ``{0} \\cup {FALSE}``
    was ``{0}`` and ``{0} \\cap {FALSE} = {}`` was FALSE)."""
    fails("{0} \\cup {FALSE}", "TLC cannot compare")
    fails("{2} \\cup {TRUE}", "cannot compare")
    fails("{<<1>>} \\cup {<<TRUE>>}", "TLC cannot compare")
    fails("{0} \\cap {FALSE}", "TLC cannot compare")
    fails("{<<0>>} \\ {<<FALSE>>}", "TLC cannot compare")
    fails("UNION {{<<1>>}, {<<TRUE>>}}", "TLC cannot compare")
    fails("{0} \\cap {FALSE} = {}", "TLC cannot compare")
    assert show("{<<1>>, <<2>>} \\cap {<<1>>}") == "{<<1>>}"
    assert show("{<<1>>, <<2>>} \\ {<<1>>}") == "{<<2>>}"
    m = module("Disjoint(S, T) == S \\cap T = {}\nCup(S, T) == S \\cup T\n")
    with pytest.raises(EvalError, match="TLC cannot compare"):
        m.holds("Disjoint", (frozenset({(1,)}), frozenset({(True,)})), {})
    assert m.holds("Disjoint", (frozenset({(1,)}), frozenset({(2,)})), {}) is True
    assert m.holds("Disjoint", (frozenset({(1,)}), frozenset({(1,)})), {}) is False
    with pytest.raises(EvalError, match="TLC cannot compare"):
        m.value("Cup", (frozenset({(0,)}), frozenset({(False,)})))


def test_a_lazy_set_inside_a_value_compares_by_content() -> None:
    """``SUBSET S`` and ``[S -> T]`` stay lazy; inside a tuple, record or set they compare
    by their elements (regression: by identity, so ``<<SUBSET {1}>> # <<SUBSET {1}>>`` was
    TRUE)."""
    assert ev("<<SUBSET {1}>> = <<SUBSET {1}>>") is True
    assert ev("<<SUBSET {1}>> # <<SUBSET {1}>>") is False
    assert ev("{SUBSET {1}} = {SUBSET {1}}") is True
    assert ev("(SUBSET {}) \\in {SUBSET {}}") is True
    assert ev("[a |-> [{1} -> {2}]] = [a |-> {(1 :> 2)}]") is True
    assert ev("<<SUBSET {1}>> = <<SUBSET {2}>>") is False
    fails("<<SUBSET {1}>> = <<SUBSET {TRUE}>>", "compare the integer 1 with the boolean")
    m = module("VARIABLE v\nA(S) == /\\ v' = SUBSET S\n        /\\ v' \\in {SUBSET S}\n")
    assert m.enabled("A", (frozenset({1}),), {"v": 0}) is True


def test_a_set_may_hold_a_lazy_set_too_large_to_enumerate() -> None:
    assert ev("Cardinality({SUBSET (1..30), {1}})") == 2
    assert ev("{1} \\in {SUBSET (1..30), {1}}") is True


def test_a_lazy_set_member_is_compared_by_content_or_refused() -> None:
    """A member test never answers FALSE for an equal set it could not hash: a lazy set is
    compared by content, a failure inside it is the failure (as TLC), and a set too large
    to enumerate is refused rather than missed."""
    assert ev("{t \\in SUBSET (1..3) : FALSE} \\in {{}}") is True
    assert ev("SUBSET (1..3) \\in {SUBSET (1..3), {}}") is True
    assert ev("{1} \\in {SUBSET (1..30)}") is False
    fails("{t \\in SUBSET {1} : CASE FALSE -> FALSE} \\in {{}}", "no CASE arm is TRUE")
    fails("{t \\in SUBSET (1..30) : FALSE} \\in {{}}", "refusing to enumerate SUBSET 1..30")
    fails("SUBSET (1..30) \\in {SUBSET (1..30)}", "refusing to enumerate SUBSET 1..30")
