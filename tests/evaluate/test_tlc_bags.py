"""The TLC and Bags modules."""

from tests.evaluate.tlahelp import ev, fails, show


def test_tlc_operators() -> None:
    assert ev("Print(1, 2)") == 2
    assert ev("PrintT(\"x\")") is True
    assert ev("Assert(TRUE, \"never\")") is True
    fails('Assert(1 = 2, "boom")', "Assert failed: boom")
    assert ev('ToString(<<1, "a">>)') == '<<1, "a">>'
    assert ev("Cardinality(Permutations({1, 2, 3}))") == 6
    assert show("SortSeq(<<3, 1, 2>>, LAMBDA a, b : a > b)") == "<<3, 2, 1>>"


def test_random_element_is_deterministic() -> None:
    """Nondeterministic in TLC; here always the first element in canonical order."""
    assert ev("RandomElement({5, 3, 9})") == 3
    fails("RandomElement({})", "empty set")


def test_bags() -> None:
    assert show("SetToBag({\"a\", \"b\"})") == "[a |-> 1, b |-> 1]"
    assert show('SetToBag({"a"}) (+) SetToBag({"a", "b"})') == "[a |-> 2, b |-> 1]"
    assert show('(SetToBag({"a"}) (+) SetToBag({"a"})) (-) SetToBag({"a"})') == "[a |-> 1]"
    assert ev('BagIn("a", SetToBag({"a"}))') is True
    assert ev('CopiesIn("z", SetToBag({"a"}))') == 0
    assert ev('BagCardinality(SetToBag({"a"}) (+) SetToBag({"a"}))') == 2
    assert ev('SetToBag({"a"}) \\sqsubseteq SetToBag({"a", "b"})') is True
    assert show('BagToSet(SetToBag({1, 2}))') == "{1, 2}"
    assert ev("IsABag(<<1, 2>>) /\\ ~IsABag(<<0>>)") is True
    assert ev("EmptyBag = <<>>") is True
    assert ev("Cardinality(SubBag(SetToBag({1, 2})))") == 4


def test_to_string_of_bags_as_tlc_prints_them() -> None:
    """What real TLC (cc6b616) printed for each: a record only when every element is an
    identifier string."""
    assert ev('ToString(SetToBag({""}))') == '("" :> 1)'
    assert ev('ToString(SetToBag({"a", "b"}))') == "[a |-> 1, b |-> 1]"
    assert ev('ToString(("" :> 1) @@ ("a" :> 2))') == '("" :> 1 @@ "a" :> 2)'
    assert ev('ToString("a b" :> 1)') == '("a b" :> 1)'
    assert ev('ToString("1" :> 1)') == '("1" :> 1)'
    assert ev('ToString("1a" :> 1)') == "[1a |-> 1]"
    assert ev('ToString("_x" :> 1)') == "[_x |-> 1]"
    assert ev("ToString(SetToBag({<<>>}))") == "(<<>> :> 1)"
