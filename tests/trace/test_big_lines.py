"""Large states: a set of flat records decoded in a few C-speed passes gives what decoding
each element gives (values and errors), also when it takes elements from the set decoded
before it; a large JSON document parsed without a hook per object gives what parsing it
object by object gives; the collector is paused only while a line over 1 MiB is parsed
and decoded."""

from __future__ import annotations

import gc
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tlaconf.trace import open_trace
from tlaconf.trace import reader as reader_module
from tlaconf.values import itf, records, strict_json
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
    one_shape = records.decode_set(body)
    if one_shape is not None:
        assert one_shape == frozenset(one_by_one(body))
    got = outcome({"#set": body})
    try:
        items = one_by_one(body)
    except ITFDecodeError:
        assert got[0] == "error"
        return
    if got[0] == "value":
        assert got[1] == frozenset(items)


cards = st.lists(st.tuples(st.integers(0, 40), st.sampled_from(["hand", "deck"])),
                min_size=9, max_size=60)


@settings(max_examples=300, deadline=None)
@given(cards, cards, st.randoms(use_true_random=False), st.booleans())
def test_a_set_taking_elements_from_the_last_one_is_the_same_set(
        old: list[tuple[int, str]], new: list[tuple[int, str]], rnd: Any, scramble: bool) -> None:
    """Whatever the last set held and wherever its elements are matched (even at the wrong
    places, as a hash shared by two records would), the new set is the one its elements
    make, and the elements it shares with a set of no element twice are the same objects."""
    before = [{"id": i, "zone": z} for i, z in old]
    after = [{"id": i, "zone": z} for i, z in rnd.sample(old, rnd.randint(0, len(old)))] \
        + [{"id": i, "zone": z} for i, z in new]
    rnd.shuffle(after)
    expected = frozenset(one_by_one(after))
    records._last.clear()
    first = records.decode_set(before)
    assert first == frozenset(one_by_one(before))
    if scramble:
        real = records._places
        wrong = lambda o, n: [rnd.randint(0, len(o)) for _ in n]  # noqa: E731
        records._places = wrong  # type: ignore[assignment]
        try:
            second = records.decode_set(after)
        finally:
            records._places = real  # type: ignore[assignment]
    else:
        second = records.decode_set(after)
    assert second == expected
    if len(after) > records.SMALL and not scramble and len(first or ()) == len(before):
        shared = {id(x) for x in first} & {id(x) for x in second}  # type: ignore[union-attr]
        assert len(shared) == len(first & second)  # type: ignore[operator]


def test_records_of_another_shape_do_not_share() -> None:
    records._last.clear()
    ints = [{"id": i, "zone": "hand"} for i in range(20)]
    strs = [{"id": str(i), "zone": "hand"} for i in range(20)]
    assert records.decode_set(ints) is not None
    got = records.decode_set(strs)
    assert got == frozenset(one_by_one(strs)) and not got & frozenset(one_by_one(ints))


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


json_text = st.recursive(
    st.one_of(st.integers(-5, 5), st.booleans(), st.none(),
              st.text(alphabet='ab:[]{}"\\', max_size=4)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(["a", "b", "c:", "[d"]), inner,
                                            max_size=3)),
    max_leaves=20).map(json.dumps)


def _mangled(text: str, cut: int, dup: bool) -> str:
    if dup and '{"' in text:
        at = text.index('{"')
        key = text[at + 1:text.index('":', at) + 2] if '":' in text[at:] else '"a":'
        return text[:at + 1] + key + " 0, " + text[at + 1:]
    return text[: cut % (len(text) + 1)] if cut % 3 == 0 else text


def _outcome(parse: Any, text: str) -> tuple[str, Any]:
    try:
        return "value", json.dumps(parse(text))
    except strict_json.DuplicateKeyError as err:
        return "duplicate", (err.key, err.line)
    except ValueError as err:
        return type(err).__name__, str(err)


def _by_object_with_depth(text: str) -> Any:
    strict_json._locate(text)
    return strict_json._by_object(text)


@settings(max_examples=500, deadline=None)
@given(json_text, st.integers(0, 200), st.booleans())
def test_a_large_document_parses_as_object_by_object(text: str, cut: int, dup: bool) -> None:
    """Without a hook per object, a document gives the same value, the same duplicate key
    and line, the same depth error and the same parse error (the depth limit is 3 here)."""
    doc = _mangled(text, cut, dup)
    real = strict_json.LARGE, strict_json.MAX_DEPTH
    strict_json.LARGE, strict_json.MAX_DEPTH = 0, 3
    try:
        assert _outcome(strict_json.loads, doc) == _outcome(_by_object_with_depth, doc)
    finally:
        strict_json.LARGE, strict_json.MAX_DEPTH = real


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet='ab:[]{}"\\\n\u00e9', max_size=30))
def test_the_structure_of_any_text_is_what_regular_expressions_find(text: str) -> None:
    """Brackets and colons outside strings, found in bytes, as the slow way finds them:
    escapes out, then strings (quote to next quote), then everything else."""
    slow = re.sub(r'"[^"]*"', "", re.sub(r"\\.", "", text, flags=re.S))
    assert strict_json._structure(text) == re.sub(r"[^\[\]{}:]", "", slow).encode()


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
    frozen = gc.get_freeze_count()
    assert gc.isenabled()
    with open_trace(_trace(tmp_path / "t.trace.jsonl", cards)) as t:
        steps = list(t.steps())
    assert len(steps) == 1 and len(steps[0].state["s"]) == cards
    assert seen[1:] == [not paused, not paused]  # line 1 is the header
    assert gc.isenabled() and gc.get_freeze_count() == frozen  # nothing frozen, collector on


def test_a_command_lets_go_of_the_large_values_it_kept(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """What the value caches keep for the last large sets (their shape, the records the
    next state shares) is let go when a command ends, so the process's exit does not walk
    it again (the collector's passes over a 50 MB state doubled its CPU time)."""
    from tlaconf.cli.main import main
    from tlaconf.values import recent, records, shape

    body = [{"id": i, "zone": "hand"} for i in range(shape.LARGE * 4)]
    kept = records.decode_set(body)
    assert kept is not None and shape.of_set(kept) is not None
    assert records._last and any(s is kept for s, _ in shape._SEEN._entries.values())
    recent.forget()
    assert not records._last and not shape._SEEN._entries
    records.decode_set(body)
    assert records._last and shape._SEEN._entries
    assert main(["eval", "1 + 1"]) == 0 and capsys.readouterr().out.strip() == "2"
    assert not records._last and not shape._SEEN._entries
