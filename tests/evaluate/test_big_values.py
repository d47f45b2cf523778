"""Large sets and records (past the size where their shape is remembered) keep TLC's
semantics: equality, membership, union and difference of sets of records, tuples and
sets, where TRUE meets 1 (an error in TLC, equal for Python) as where it does not."""

from __future__ import annotations

import pytest

from tests.evaluate.tlahelp import ev, fails
from tlaconf.values import Fn, shape

N = 400  # past shape.LARGE
CARDS = f"{{[id |-> i, zone |-> \"hand\"] : i \\in 1..{N}}}"
FLAGS = f"{{[id |-> i, zone |-> i = 1] : i \\in 1..{N}}}"  # zone: TRUE once, else FALSE


def test_the_size_is_past_what_is_remembered() -> None:
    assert shape.LARGE < N


@pytest.mark.parametrize(("expr", "value"), [
    (f"{CARDS} = {CARDS}", True),
    (f"{CARDS} = {CARDS} \\cup {{[id |-> 1, zone |-> \"hand\"]}}", True),
    (f"{CARDS} = {CARDS} \\cup {{[id |-> 0, zone |-> \"hand\"]}}", False),
    (f"{CARDS} \\ {{[id |-> 1, zone |-> \"hand\"]}} = {CARDS}", False),
    (f"Cardinality({CARDS} \\ {{[id |-> 1, zone |-> \"hand\"]}})", N - 1),
    (f"[id |-> 7, zone |-> \"hand\"] \\in {CARDS}", True),
    (f"[id |-> 7, zone |-> \"deck\"] \\in {CARDS}", False),
    (f"{{<<i, \"a\">> : i \\in 1..{N}}} = {{<<i, \"a\">> : i \\in 1..{N}}}", True),
    (f"{{{{i}} : i \\in 1..{N}}} = {{{{i}} : i \\in 1..{N}}}", True),
    (f"[i \\in 1..{N} |-> i] = [i \\in 1..{N} |-> i]", True),
    (f"[k \\in {{\"f\" \\o ToString(i) : i \\in 1..{N}}} |-> 1] = "
     f"[k \\in {{\"f\" \\o ToString(i) : i \\in 1..{N}}} |-> 1]", True),
    (f"{FLAGS} = {FLAGS}", True),
])  # fmt: skip
def test_values(expr: str, value: object) -> None:
    assert ev(expr) == value
    assert type(ev(expr)) is type(value)


@pytest.mark.parametrize(("expr", "match"), [
    # TRUE meets 1 at a record field: Python says equal, TLC cannot compare them
    (f"{{[id |-> i, zone |-> 1] : i \\in 1..{N}}} = {{[id |-> i, zone |-> TRUE] : i \\in "
     f"1..{N}}}", "compare"),
    (f"[id |-> 3, zone |-> TRUE] \\in {{[id |-> i, zone |-> 1] : i \\in 1..{N}}}", "compare"),
    (f"{{<<i, 1>> : i \\in 1..{N}}} = {{<<i, TRUE>> : i \\in 1..{N}}}", "compare"),
    (f"{{{{1}}, {{2}}}} \\cup {{{{i}} : i \\in 3..{N}}} = {{{{TRUE}}}} \\cup {{{{i}} : i "
     f"\\in 3..{N + 1}}}", "compare"),
    # a record of many fields: 1 at one field against TRUE
    (f"[k \\in {{\"f\" \\o ToString(i) : i \\in 1..{N}}} |-> 1] = "
     f"[k \\in {{\"f\" \\o ToString(i) : i \\in 1..{N}}} |-> IF k = \"f3\" THEN TRUE ELSE 1]",
     "compare"),
    (f"{CARDS} = {{[id |-> i, zone |-> TRUE] : i \\in 1..{N}}}", "compare"),
])  # fmt: skip
def test_errors_where_tlc_cannot_compare(expr: str, match: str) -> None:
    fails(expr, match)


def test_shapes() -> None:
    cards = frozenset(Fn({"id": i, "zone": "hand"}) for i in range(N))
    assert shape.of_set(cards) == (Fn, (("id", int), ("zone", str)))
    assert shape.of_set(cards) is shape.of_set(cards)  # remembered
    mixed = cards | {Fn({"id": 0, "zone": True})}
    assert shape.of_set(mixed) is None
    assert shape.of_set(frozenset({(1, "a"), (2, "b")})) == (tuple, (int, str))
    assert shape.of_set(frozenset({(1, "a"), (2,)})) is None
    assert shape.of_set(frozenset({frozenset({1}), frozenset()})) == (frozenset, int)
    assert shape.of_set(frozenset()) is None
    assert shape.same(cards, frozenset({Fn({"id": 1, "zone": "x"})})) is not None
    assert shape.same(cards, frozenset({Fn({"id": 1, "zone": 2})})) is None


@pytest.fixture
def small_plus(monkeypatch: pytest.MonkeyPatch) -> None:
    """``S \\cup {x}`` kept apart from a set of 100 elements on (not 100,000)."""
    from tlaconf.evaluate import builtins

    monkeypatch.setattr(builtins, "PLUS_FROM", 100)


@pytest.mark.parametrize(("expr", "value"), [
    (f"{CARDS} \\cup {{[id |-> 0, zone |-> \"x\"]}} = {CARDS} \\cup {{[id |-> 0, zone |-> "
     "\"x\"]}", True),
    (f"{CARDS} \\cup {{[id |-> 0, zone |-> \"x\"]}} = {CARDS}", False),
    (f"{CARDS} = {CARDS} \\cup {{[id |-> 0, zone |-> \"x\"]}}", False),
    (f"{CARDS} \\cup {{[id |-> 1, zone |-> \"hand\"]}} = {CARDS}", True),
    (f"Cardinality({CARDS} \\cup {{[id |-> 0, zone |-> \"x\"]}})", N + 1),
    (f"[id |-> 0, zone |-> \"x\"] \\in {CARDS} \\cup {{[id |-> 0, zone |-> \"x\"]}}", True),
    (f"(1..{N}) \\cup {{0}} = 0..{N}", True),
    (f"{{i : i \\in 1..{N}}} \\cup {{0}} = {{i : i \\in 0..{N}}}", True),
    (f"{{i : i \\in 1..{N}}} \\cup {{0}} = {{i : i \\in 1..{N + 1}}}", False),
    (f"({{i : i \\in 1..{N}}} \\cup {{0}}) \\cup {{-1}} = {{i : i \\in -1..{N}}}", True),
    (f"({{i : i \\in 1..{N}}} \\cup {{0}}) \\ {{0}} = {{i : i \\in 1..{N}}}", True),
])  # fmt: skip
def test_a_large_set_and_a_few_elements(small_plus: None, expr: str, value: object) -> None:
    assert ev(expr) == value


@pytest.mark.parametrize("expr", [
    f"{{[id |-> i, zone |-> 1] : i \\in 1..{N}}} \\cup {{[id |-> 0, zone |-> 1]}} = "
    f"{{[id |-> i, zone |-> 1] : i \\in 1..{N}}} \\cup {{[id |-> 0, zone |-> TRUE]}}",
    f"{{i : i \\in 1..{N}}} \\cup {{0}} = {{ToString(i) : i \\in 0..{N}}}",
])  # fmt: skip
def test_a_large_set_and_a_few_elements_errors(small_plus: None, expr: str) -> None:
    fails(expr, "compare")


def test_integers_past_pythons_digit_limit_print_everywhere() -> None:
    """Python refuses ``str`` of an integer of more than 4,300 digits: ToString, an
    interval's description and TLCGet's message were internal errors."""
    assert ev("Len(ToString(10^5000))") == 5001
    assert ev("ToString(-(10^5000)) = \"-\" \\o ToString(10^5000)") is True
    fails("(1..(10^5000)) \\cup {0} = {}", "refusing to enumerate 1..1000")
    fails("TLCGet(10^5000)", "TLCGet\\(1000")


@pytest.mark.parametrize("n", [4, 40])
def test_the_element_equal_in_tla_is_found_in_small_and_large_sets(n: int) -> None:
    from tlaconf.evaluate.semantics import NONE, partner

    ints = frozenset((i, 1) for i in range(n))
    bools = frozenset((i, True) for i in range(n))
    assert partner((3, 1), ints) == (3, 1) and partner((3, True), bools) == (3, True)
    assert partner((3, True), ints) is NONE and partner((3, 1), bools) is NONE
    assert partner((n + 1, 1), ints) is NONE
