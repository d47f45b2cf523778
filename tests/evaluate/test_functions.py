"""Functions, records, EXCEPT, and the TLC module's :> and @@."""

from tests.evaluate.tlahelp import ev, fails, module, show


def test_construction_and_application() -> None:
    assert show("[x \\in 1..3 |-> x * x]") == "<<1, 4, 9>>"
    assert ev("[x \\in {\"a\"} |-> 1][\"a\"]") == 1
    assert ev("[x, y \\in 1..2 |-> x + y][2, 1]") == 3
    assert ev("[<<x, y>> \\in {<<1, 2>>} |-> x * y][<<1, 2>>]") == 2
    assert ev("[n \\in Nat |-> n + 1][41]") == 42  # a function on an infinite domain
    assert show("DOMAIN [a |-> 1, b |-> 2]") == '{"a", "b"}'


def test_application_outside_the_domain() -> None:
    fails("<<1, 2>>[3]", "not in its domain")
    fails("[a |-> 1].b", "has no field b")
    fails("[x \\in 1..2 |-> x][\"a\"]", "not in its domain")
    fails("3[1]", "is not a function")
    fails("[n \\in Nat |-> n][-1]", "not in its domain")


def test_records() -> None:
    assert ev("[a |-> 1, b |-> \"x\"].b") == "x"
    assert show("[a : {1, 2}, b : {TRUE}]") == "{[a |-> 1, b |-> TRUE], [a |-> 2, b |-> TRUE]}"


def test_except() -> None:
    """Specifying Systems 16.1.7: ``@`` is the old value at the path."""
    assert show("[<<1, 2, 3>> EXCEPT ![2] = @ * 10]") == "<<1, 20, 3>>"
    assert show("[[a |-> [b |-> 1]] EXCEPT !.a.b = @ + 1]") == "[a |-> [b |-> 2]]"
    assert show("[[a |-> 1, b |-> 2] EXCEPT !.a = 5, !.b = @ + @]") == "[a |-> 5, b |-> 4]"
    assert show("[[x \\in 1..2 |-> <<0, 0>>] EXCEPT ![1][2] = 7]") == "<<<<0, 7>>, <<0, 0>>>>"
    assert show("[[a |-> 1] EXCEPT !.c = 2]") == "[a |-> 1]"  # outside the domain: unchanged


def test_colon_greater_and_double_at() -> None:
    assert show('1 :> "a" @@ 2 :> "b"') == '<<"a", "b">>'
    assert show('(1 :> "a") @@ (1 :> "b")') == '<<"a">>'  # the left function wins
    assert show('"k" :> 0') == "[k |-> 0]"


def test_recursive_function_definition() -> None:
    m = module("EXTENDS Naturals\nfact[n \\in Nat] == IF n = 0 THEN 1 ELSE n * fact[n - 1]\n"
               "Sum[s \\in SUBSET (1..5)] == IF s = {} THEN 0 ELSE "
               "LET x == CHOOSE y \\in s : TRUE IN x + Sum[s \\ {x}]")
    assert m.evaluate("fact[20]") == 2432902008176640000
    assert m.evaluate("Sum[{1, 2, 5}]") == 8


def test_at_at_never_merges_a_boolean_key_with_an_integer_key() -> None:
    """Python's ``{1: ..} | {True: ..}`` has one key (regression: ``(TRUE :> 1) @@ (1 :> 2)``
    was ``<<1>>``)."""
    fails("(TRUE :> 1) @@ (1 :> 2)", "TLC cannot compare")
    fails("(<<0>> :> 1) @@ (<<FALSE>> :> 2)", "TLC cannot compare")
    assert show("(1 :> 1) @@ (1 :> 2)") == "<<1>>"
    assert show("(2 :> 1) @@ <<5>>") == "<<5, 1>>"
