"""Large states: a set of flat records decoded in a few C-speed passes gives what decoding
each element gives (values and errors), and the collector is paused only while a line over
1 MiB is parsed and decoded."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tlaconf.trace import open_trace
from tlaconf.trace import reader as reader_module
from tlaconf.values import itf
from tlaconf.values.itf import ITFDecodeError, decode

fields = st.sampled_from(["id", "zone", "#set", "ok", "n"])
scalar = st.one_of(st.booleans(), st.integers(-3, 3), st.sampled_from(["a", "b"]),
                   st.sampled_from([2**53, -(2**53)]), st.just(1.5), st.just(None),
                   st.just([1]), st.just({"#set": [1]}))
record = st.dictionaries(fields, scalar, max_size=3)
flat = st.dictionaries(st.sampled_from(["id", "zone"]), st.one_of(st.integers(0, 3),
                       st.sampled_from(["a", "b"]), st.booleans()), min_size=1, max_size=2)


def one_by_one(body: list[Any]) -> Any:
    """What the element-by-element decoder answers for ``{"#set": body}``."""
    return itf._items(body, "#set[")


def outcome(doc: Any) -> tuple[str, Any]:
    try:
        return "value", decode(doc)
    except ITFDecodeError as err:
        return "error", str(err)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(flat, flat, record), min_size=9, max_size=14))
def test_the_records_fast_path_agrees_with_decoding_each_element(body: list[Any]) -> None:
    fast = itf._flat_records(body)
    if fast is not None:
        assert fast == one_by_one(body)
    got = outcome({"#set": body})
    try:
        items = one_by_one(body)
    except ITFDecodeError:
        assert got[0] == "error"
        return
    if got[0] == "value":
        assert got[1] == frozenset(items)


def test_records_where_true_meets_1_are_still_refused() -> None:
    body = [{"id": i, "ok": True} for i in range(12)] + [{"id": 3, "ok": 1}]
    assert itf._flat_records(body) is not None  # the fast path is taken
    with pytest.raises(ITFDecodeError, match="cannot compare"):
        decode({"#set": body})


@pytest.mark.parametrize("odd, message", [
    ({"id": 2**53}, "not safe"),
    ({"#set": [1], "id": 1}, "exactly one key"),
    ({}, None),
])
def test_a_record_the_fast_path_cannot_take_is_decoded_as_before(odd: dict[str, Any],
                                                                  message: str | None) -> None:
    body = [{"id": i} for i in range(12)] + [odd]
    assert itf._flat_records(body) is None
    if message is None:
        assert () in decode({"#set": body})  # the empty record is <<>>
    else:
        with pytest.raises(ITFDecodeError, match=message):
            decode({"#set": body})


def _trace(path: Path, cards: int) -> Path:
    header = {"format": "tlaconf-trace", "version": 1, "module": "M", "revision": "1",
              "constants": {}}
    state = {"s": {"#set": [{"id": i, "zone": "hand"} for i in range(cards)]}}
    step = {"action": "A", "params": {}, "outcome": "accepted", "state": state}
    lines = [json.dumps(header), json.dumps({"state": state}), json.dumps(step)]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("cards, paused", [(40_000, True), (10, False)])
def test_the_collector_is_paused_while_a_large_line_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cards: int, paused: bool) -> None:
    seen: list[bool] = []
    real = reader_module.strict_json.loads

    def loads(text: str) -> Any:
        seen.append(gc.isenabled())
        return real(text)

    monkeypatch.setattr(reader_module.strict_json, "loads", loads)
    assert gc.isenabled()
    with open_trace(_trace(tmp_path / "t.trace.jsonl", cards)) as t:
        steps = list(t.steps())
    assert len(steps) == 1 and len(steps[0].state["s"]) == cards
    assert seen[1:] == [not paused, not paused]  # line 1 is the header
    assert gc.isenabled()  # and switched on again after each line
