"""The Sequences module."""

from tests.evaluate.tlahelp import ev, fails, show


def test_sequence_operators() -> None:
    assert ev("Len(<<1, 2, 3>>)") == 3
    assert show("<<1>> \\o <<2, 3>>") == "<<1, 2, 3>>"
    assert show("Append(<<>>, 1)") == "<<1>>"
    assert ev("Head(<<4, 5>>)") == 4
    assert show("Tail(<<4, 5>>)") == "<<5>>"
    assert show("SubSeq(<<1, 2, 3, 4>>, 2, 3)") == "<<2, 3>>"
    assert show("SubSeq(<<1, 2>>, 2, 1)") == "<<>>"
    assert show("SelectSeq(<<1, 2, 3, 4>>, LAMBDA x : x % 2 = 0)") == "<<2, 4>>"
    assert ev('"ab" \\o "cd"') == "abcd"


def test_sequence_errors() -> None:
    fails("Head(<<>>)", "Head of the empty sequence")
    fails("Tail(<<>>)", "Tail of the empty sequence")
    fails("Len({1})", "expects a sequence")
    fails("SubSeq(<<1>>, 1, 3)", "out of")


def test_seq_set() -> None:
    assert ev("<<>> \\in Seq({1})") is True
    assert ev("<<1, 1>> \\in Seq({1})") is True
    assert ev("<<2>> \\in Seq({1})") is False
    fails("Cardinality(Seq({1}))", "cannot enumerate")
