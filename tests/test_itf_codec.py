"""The ITF value codec: lossless, kind-preserving, with located errors."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tlaconf.values import Fn, ITFDecodeError, ModelValue, decode, encode, make_fn, to_tla

scalars = st.one_of(st.booleans(), st.integers(), st.text(max_size=5))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.frozensets(st.integers(-5, 5), max_size=4),
        st.frozensets(st.text(max_size=3), max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(
            st.text(min_size=1, max_size=3).filter(lambda k: not k.startswith("#")),
            inner,
            min_size=1,
            max_size=3,
        ).map(Fn),
        st.dictionaries(st.integers(-3, 3), inner, max_size=3).map(make_fn),
    ),
    max_leaves=12,
)


@given(values)
def test_round_trip_is_lossless(v: object) -> None:
    assert decode(encode(v)) == v


def test_records_stay_functions_on_strings() -> None:
    v = decode({"a": 1, "b": {"#set": [1, 2]}})
    assert v == Fn({"a": 1, "b": frozenset({1, 2})})
    assert to_tla(v) == "[a |-> 1, b |-> {1, 2}]"


def test_bool_and_int_do_not_collapse() -> None:
    with pytest.raises(ITFDecodeError, match="cannot compare"):
        decode({"#set": [True, 1]})


def test_bigint_and_unknown_encoding() -> None:
    assert decode({"#bigint": str(2**100)}) == 2**100
    assert encode(2**100) == {"#bigint": str(2**100)}
    with pytest.raises(ITFDecodeError, match=r"state\.x: unknown value encoding '#foo'"):
        decode({"#foo": 1}, "state.x")


def test_function_on_one_to_n_is_a_sequence() -> None:
    assert make_fn({1: "a", 2: "b"}) == ("a", "b")
    assert decode({"#map": [[2, "b"], [1, "a"]]}) == ("a", "b")
    assert decode({"#tup": [1, 2]}) == decode([1, 2])


def test_printing() -> None:
    assert to_tla(make_fn({1: "a", 3: "b"})) == '(1 :> "a" @@ 3 :> "b")'
    assert to_tla(frozenset({2, 1})) == "{1, 2}"
    assert to_tla((1, "a")) == '<<1, "a">>'
    assert to_tla(ModelValue("m1")) == "m1"
    assert to_tla(-3) == "-3"
