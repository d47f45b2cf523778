"""TLC's order (``tlaconf.values.order.compare``) on the shapes it compares without
walking domains (tuples of one length, records of the same fields, a value with itself)
gives what the walk gives, errors included; and a function's key kept by identity
(``sort_key``) is the key computed again."""

import pytest

from tlaconf.values import Fn, sort_key
from tlaconf.values.core import _fn_key
from tlaconf.values.order import Incomparable, compare


def rec(**fields: object) -> Fn:
    return Fn(dict(fields))


def test_tuples_of_one_length_compare_by_values() -> None:
    assert compare((1, 2), (1, 3)) < 0 < compare((1, 3), (1, 2))
    assert compare((1, "a"), (1, "a")) == 0
    assert compare((1,), (1, 2)) < 0  # by length first
    with pytest.raises(Incomparable):
        compare((1,), ("a",))


def test_records_of_the_same_fields_compare_field_by_field_in_tlc_order() -> None:
    # fields in TLC's order: a, b; b is not reached when a differs
    assert compare(rec(b="x", a=1), rec(b=2, a=2)) < 0
    with pytest.raises(Incomparable):
        compare(rec(a=1, b="x"), rec(a=1, b=2))
    with pytest.raises(Incomparable):  # a record with a function that is not one
        compare(rec(a=1), Fn({1: 1}))
    assert compare(rec(a=1), rec(b=1)) < 0  # other fields: by domain


def test_a_value_is_its_own_equal() -> None:
    v = rec(a=(1, rec(t=2)), b=frozenset({1, 2}))
    assert compare(v, v) == 0


def test_a_kept_key_is_the_key() -> None:
    m = rec(mtype="req", mterm=1, mentries=(rec(term=1, value=frozenset({"a"})),),
            msource="1", mdest="2", mcommit=0)
    assert sort_key(m) == _fn_key(m) == sort_key(m)
    shorter = rec(mtype="req", mterm=1, mentries=(), msource="1", mdest="2", mcommit=0)
    assert (sort_key(shorter) < sort_key(m)) == (compare(shorter, m) < 0)
