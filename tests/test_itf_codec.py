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


@pytest.mark.parametrize("key", ["#set", "#tup"])
@pytest.mark.parametrize("body", [[1, 2**53], [3, -(2**53)], [1, 2.5], ["a", None]])
def test_plain_arrays_still_refuse_bad_elements(key: str, body: list[object]) -> None:
    """Arrays of strings or of safe integers decode as they are; any other element is
    decoded, and refused, with its path."""
    with pytest.raises(ITFDecodeError, match=rf"^s\.x{key}\[1\]: "):
        decode({key: body}, "s.x")


@pytest.mark.parametrize("body", [[1, "a"], ["a", True], [0, False]])
def test_mixed_arrays_are_sets_only_when_comparable(body: list[object]) -> None:
    with pytest.raises(ITFDecodeError, match=r"^s\.x: .*cannot compare"):
        decode({"#set": body}, "s.x")
    assert decode({"#tup": body}) == tuple(body)
    assert [type(x) for x in decode({"#tup": body})] == [type(x) for x in body]


def test_plain_arrays_decode_as_they_are() -> None:
    edge = [1, -(2**53 - 1), 2**53 - 1]
    assert decode({"#set": edge}) == frozenset(edge)
    assert decode({"#tup": ["b", "a", "b"]}) == ("b", "a", "b")
    assert decode({"#set": ["b", "a", "b"]}) == frozenset({"a", "b"})


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


@pytest.mark.parametrize("digits", [4300, 4301, 12_345])
def test_bigints_of_any_length_round_trip(digits: int) -> None:
    n = -(10 ** (digits - 1)) - 7
    text = "-1" + "0" * (digits - 2) + "7"
    assert encode(n) == {"#bigint": text}
    assert decode({"#bigint": text}) == n
    assert to_tla(n) == text


@pytest.mark.parametrize("body", ["+1", " 1", "1 ", "1_000", "\u0663", "0x10", "", "-", "1\n", 7])
def test_bigint_accepts_only_decimal_digits(body: object) -> None:
    with pytest.raises(ITFDecodeError, match="is not a decimal integer"):
        decode({"#bigint": body})


def test_duplicate_keys_name_the_line() -> None:
    from tlaconf.values.strict_json import DuplicateKeyError, loads

    assert loads('{"a": {"b": 1}, "b": 2}') == {"a": {"b": 1}, "b": 2}
    with pytest.raises(DuplicateKeyError) as info:
        loads('{\n  "x": [\n    {"k": 1,\n     "k": 2}]}')
    assert (info.value.key, info.value.line) == ("k", 3)


@pytest.mark.parametrize(("text", "key", "line"), [
    ('{"a": 1,\n "a": 2}', "a", 1),
    ('{"a": 1,\n "b": {\n  "c": 1, "\\u0063": 2}, "a": 3}', "c", 2),  # the inner one closes first
    ('[1,\n {"s": "}{\\"", \n  "s": 0}]', "s", 2),  # braces and quotes inside strings
    ('{"k" : 1, "k"\n : 2}', "k", 1),
])
def test_duplicate_keys_in_nested_objects(text: str, key: str, line: int) -> None:
    from tlaconf.values.strict_json import DuplicateKeyError, loads

    with pytest.raises(DuplicateKeyError) as info:
        loads(text)
    assert (info.value.key, info.value.line) == (key, line)
