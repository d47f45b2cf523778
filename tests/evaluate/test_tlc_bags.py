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


def test_bags_of_messages_add_and_compare_keys_as_tlc() -> None:
    """(+) on bags of records (a protocol's messages): counts summed, a key equal to one
    of the bag's found again, and a key TLC cannot compare with the bag's keys an error,
    as when each new key is looked up in the keys before it (also for a bag whose keys
    were checked by an earlier (+))."""
    msgs = ('LET m1 == [type |-> "req", to |-> 1, entries |-> <<[t |-> 1]>>] '
            'm2 == [type |-> "req", to |-> 2, entries |-> <<[t |-> 1]>>] '
            'b == SetToBag({m1}) (+) SetToBag({m2}) IN ')
    assert ev(msgs + "BagCardinality(b (+) SetToBag({m1}))") == 3
    assert ev(msgs + "CopiesIn(m1, (b (+) SetToBag({m1})) (+) SetToBag({m2}))") == 2
    assert ev(msgs + "DOMAIN (b (+) SetToBag({m2})) = {m1, m2}") is True
    # TLC orders records field by field (entries, to, type): a shorter entries decides
    # before the string to is met; the same entries meet it
    other = '[type |-> "req", to |-> "x", entries |-> <<%s>>]'
    assert ev(msgs + f"BagCardinality(b (+) SetToBag({{{other % ''}}}))") == 3
    fails(msgs + f"b (+) SetToBag({{{other % '[t |-> 1]'}}})",
          'cannot compare the string "x" with the integer')
    fails(msgs + f"(b (+) SetToBag({{m1}})) (+) SetToBag({{{other % '[t |-> 1]'}}})",
          'cannot compare the string "x" with the integer')
    fails('SetToBag({<<1>>}) (+) SetToBag({<<"a">>})', "cannot compare")
    # a record of other fields (a response among requests) is decided on its fields, a
    # tuple of another length on its length: no value of theirs is compared
    resp = '[type |-> "resp", to |-> "x", ok |-> TRUE]'
    assert ev(msgs + f"BagCardinality(b (+) SetToBag({{{resp}}}))") == 3
    assert ev('BagCardinality(SetToBag({<<1>>}) (+) SetToBag({<<"a", 2>>}))') == 2
