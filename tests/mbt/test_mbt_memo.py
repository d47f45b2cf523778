"""What a run memoizes is keyed by encoded values: TRUE is not 1, a set is not a sequence."""

from __future__ import annotations

from tlaconf.mbt.driver import plain
from tlaconf.mbt.memo import Memo, state_key, value_key
from tlaconf.values import Fn


def test_keys_tell_apart_what_python_equality_confuses() -> None:
    assert {"x": True} == {"x": 1}
    assert state_key({"x": True}) != state_key({"x": 1})
    assert value_key(frozenset({1, 2})) != value_key((1, 2))
    assert value_key(Fn({"a": 1})) == value_key({"a": 1})
    assert state_key({"b": 1, "a": 2}) == state_key({"a": 2, "b": 1})


def test_a_memo_computes_once_per_key() -> None:
    calls: list[str] = []
    memo: Memo[int] = Memo()

    def compute(k: str) -> int:
        calls.append(k)
        return len(calls)

    assert memo.get(state_key({"x": True}), lambda: compute("true")) == 1
    assert memo.get(state_key({"x": 1}), lambda: compute("one")) == 2
    assert memo.get(state_key({"x": True}), lambda: compute("again")) == 1
    assert calls == ["true", "one"] and memo.hits == 1


def test_a_set_of_records_is_plain_data_a_driver_can_hash() -> None:
    value = frozenset({Fn({"id": 1, "tags": frozenset({"a"})}), Fn({"id": 2, "tags": frozenset()})})
    out = plain(Fn({"actions": value, "seq": (Fn({"k": 1}),)}))
    assert out["seq"] == ({"k": 1},)
    assert {r["id"] for r in out["actions"]} == {1, 2}
    assert hash(out["actions"])
