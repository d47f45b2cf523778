"""Structural sharing between consecutive states: the same values as decoding each state
on its own (``true`` never taken for ``1``), unchanged parts the previous state's very
objects, and a bad value after good ones located as before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.replay import SPEC
from tlaconf.replay import get_backend, replay_trace
from tlaconf.trace import TraceFormatError, open_trace
from tlaconf.trace.sharing import SharedStates, count_booleans
from tlaconf.values import Fn, ITFDecodeError, decode, encode

HEADER = {"format": "tlaconf-trace", "version": 1, "module": "ZoneMembership",
          "revision": "2", "constants": {"Seats4": {"#set": ["SideA", "SideB"]}}}


def exact(v: Any) -> str:
    """The value as JSON text: ``true`` and ``1``, ``{1}`` and ``<<1>>`` differ."""
    return json.dumps(encode(v), sort_keys=True)


def decoded(states: list[Any], exact: bool | None = None) -> list[Any]:
    """Each state decoded against the previous one (an error as its message); ``exact``
    None: as the reader says it, for a state without booleans."""
    shared = SharedStates()
    out: list[Any] = []
    for s in states:
        try:
            flag = count_booleans(s) == 0 if exact is None else exact
            out.append(shared.decode({"x": s}, exact=flag)["x"])
        except ITFDecodeError as err:
            out.append(str(err))
    return out


def alone(s: Any) -> Any:
    try:
        return decode(s, "state.x")
    except ITFDecodeError as err:
        return str(err)


NUMBERS = st.one_of(st.integers(-3, 3), st.sampled_from([1.0, 0.0, -0.0, 1.5]))


def json_of(scalars: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(st.sampled_from(["a", "b", "c", "#set"]), inner, max_size=3),
            st.builds(lambda xs: {"#set": xs}, st.lists(inner, max_size=3)),
            st.builds(lambda xs: {"#tup": xs}, st.lists(inner, max_size=3)),
        ),
        max_leaves=8,
    )


def _check(states: list[Any], exact_path: bool | None) -> None:
    for got, s in zip(decoded(states, exact_path), states, strict=True):
        want = alone(s)
        assert (got if isinstance(got, str) else exact(got)) == (
            want if isinstance(want, str) else exact(want))


@settings(max_examples=300, deadline=None)
@given(st.lists(json_of(st.one_of(st.booleans(), NUMBERS, st.sampled_from(["a", "b"]))),
                min_size=2, max_size=4))
def test_sharing_decodes_as_each_state_alone(states: list[Any]) -> None:
    _check(states, exact_path=False)
    _check(states, exact_path=None)


@settings(max_examples=300, deadline=None)
@given(st.lists(json_of(st.one_of(NUMBERS, st.sampled_from(["a", "b"]))), min_size=2,
                max_size=4))
def test_sharing_without_booleans_compares_at_once(states: list[Any]) -> None:
    """The reader's ``exact`` path: JSON without booleans, where ``==`` is exact."""
    _check(states, exact_path=True)


@pytest.mark.parametrize(("before", "after", "value"), [
    ([1, 0], [True, False], (True, False)),
    ({"#set": [1, 2]}, {"#set": [True, False]}, frozenset({True, False})),
    ({"a": 1, "b": {"#set": [0]}}, {"a": True, "b": {"#set": [False]}},
     Fn({"a": True, "b": frozenset({False})})),
    ({"#tup": [[1]]}, {"#tup": [[True]]}, ((True,),)),
])
def test_a_boolean_is_never_taken_for_an_equal_integer(before: Any, after: Any,
                                                       value: Any) -> None:
    assert exact(decoded([before, after])[1]) == exact(value)


@pytest.mark.parametrize("params", [{"flag": True}, {"note": "true"}, {"n": 1}])
def test_a_boolean_in_a_state_is_read_whatever_the_params_hold(tmp_path: Path,
                                                              params: Any) -> None:
    step = {"action": "Move", "params": params, "outcome": "accepted"}
    lines = [{"state": {"x": [1, 0]}}, {**step, "state": {"x": [1, 0]}},
             {**step, "state": {"x": [True, False]}}, {**step, "state": {"x": [1, 0]}}]
    with open_trace(_write(tmp_path, lines)) as t:
        got = [t.initial["x"], *(s.state["x"] for s in t.steps())]
    assert [exact(x) for x in got] == [exact(x) for x in [(1, 0), (1, 0), (True, False),
                                                          (1, 0)]]


def test_unchanged_parts_are_the_previous_objects() -> None:
    occ = {z: {"#set": [i]} for i, z in enumerate(["Bank", "Play", "Deck"], start=1)}
    moved = {**occ, "Bank": {"#set": []}, "Play": {"#set": [1, 2]}}
    shared = SharedStates()
    s0 = shared.decode({"ids": {"#set": [1, 2, 3]}, "occ": occ})
    s1 = shared.decode(json.loads(json.dumps({"ids": {"#set": [1, 2, 3]}, "occ": moved})))
    assert s1["ids"] is s0["ids"]
    assert s1["occ"] is not s0["occ"]
    assert s1["occ"]["Deck"] is s0["occ"]["Deck"]
    assert s1["occ"] == Fn({"Bank": frozenset(), "Play": frozenset({1, 2}),
                            "Deck": frozenset({3})})
    s2 = shared.decode(json.loads(json.dumps({"ids": {"#set": [1, 2, 3]}, "occ": moved})))
    assert s2["occ"] is s1["occ"]


def _write(tmp_path: Path, lines: list[dict[str, Any]]) -> Path:
    path = tmp_path / "t.trace.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in [HEADER, *lines]))
    return path


def test_a_bad_value_after_shared_states_is_located(tmp_path: Path) -> None:
    state = {"inGameIds": {"#set": [1]}, "occupants": {"Play": {"#set": [1]}}}
    bad = {"inGameIds": {"#set": [1]}, "occupants": {"Play": {"#set": [1, "a"]}}}
    step = {"action": "Move", "params": {"id": 1}, "outcome": "accepted"}
    messages = []
    for lines in ([{"state": bad}], [{"state": state}, {**step, "state": state},
                                     {**step, "state": bad}]):
        with open_trace(_write(tmp_path, lines)) as t, pytest.raises(TraceFormatError) as err:
            list(t.steps())
        assert err.value.line == len(lines) + 1
        messages.append(err.value.message)
    assert messages[1] == messages[0]
    assert messages[0].startswith("state.occupants.Play: a set")


ZONES = ["SideA.Deck", "SideA.Hand", "SideA.Discard", "SideA.Objective", "SideB.Deck",
         "SideB.Hand", "SideB.Discard", "SideB.Objective", "Play", "Bank", "SetAside",
         "Removed"]


def _zones(where: dict[int, str]) -> dict[str, Any]:
    return {z: {"#set": sorted(i for i, w in where.items() if w == z)} for z in ZONES}


def test_a_step_breaking_the_partition_with_unchanged_ids_is_caught(tmp_path: Path) -> None:
    """The ids are one shared object throughout, so the partition of the states before
    is found again by the operators' memo; the bad step's own state is still checked."""
    where = {1: "Play", 2: "Bank"}
    params = {"id": 1, "source": "Play", "destination": "Bank", "movementAuthorized": True,
              "revealRequired": False, "revealedBeforeMove": True}
    ids = {"#set": [1, 2]}
    lines: list[dict[str, Any]] = [{"state": {"inGameIds": ids, "occupants": _zones(where)}}]
    for k in range(4):
        source, destination = ("Play", "Bank") if k % 2 == 0 else ("Bank", "Play")
        where[1] = destination
        occ = _zones(where)
        if k == 2:
            occ["Removed"] = {"#set": [1]}  # 1 in two zones: not a move, not a partition
        lines.append({"action": "Move", "outcome": "accepted",
                      "params": {**params, "source": source, "destination": destination},
                      "state": {"inGameIds": ids, "occupants": occ}})
    result = replay_trace(_write(tmp_path, lines), SPEC, get_backend("embedded"))
    assert result.verdict == "violation"
    assert result.failure is not None and result.failure.step == 3


def test_a_long_line_is_not_kept_for_the_next(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A state on a line longer than the bound is decoded alone and not kept: a large
    state is held once, not twice (as JSON and as values)."""
    from tlaconf.trace import reader

    step = {"action": "Move", "params": {"n": 1}, "outcome": "accepted"}
    state = {"big": {"#set": list(range(50))}, "small": 1}
    lines = [{"state": state}, {**step, "state": state}, {**step, "state": state}]
    path = _write(tmp_path, lines)
    for bound, shared in ((1 << 20, True), (100, False)):
        monkeypatch.setattr(reader, "_SHARED_LINE", bound)
        with open_trace(path) as t:
            got = [t.initial, *(s.state for s in t.steps())]
        assert all(g == {"big": frozenset(range(50)), "small": 1} for g in got)
        assert (got[1]["big"] is got[0]["big"] is got[2]["big"]) is shared
