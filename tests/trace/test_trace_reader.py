"""The streaming trace reader: valid traces, and a located error for every malformed input."""

from __future__ import annotations

import json
import tempfile
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tlaconf.errors import UserError
from tlaconf.trace import TraceFormatError, TraceWriter, open_trace
from tlaconf.values import Fn, ModelValue

HEADER = (
    '{"format": "tlaconf-trace", "version": 1, "module": "ZoneMembership", "revision": "2", '
    '"constants": {"Seats4": {"#set": ["SideA", "SideB"]}}, "meta": {"seed": 7}}'
)
INIT = '{"state": {"inGameIds": {"#set": [11]}, "occupants": {"Play": {"#set": [11]}}}}'
STEP = (
    '{"action": "Move", "params": {"id": 11, "source": "Play", "destination": "Bank"}, '
    '"outcome": "accepted", "state": {"inGameIds": {"#set": [11]}, '
    '"occupants": {"Play": {"#set": []}, "Bank": {"#set": [11]}}}}'
)


def write(tmp_path: Path, *lines: str, raw: bytes | None = None) -> Path:
    path = tmp_path / "t.trace.jsonl"
    path.write_bytes(raw if raw is not None else "".join(x + "\n" for x in lines).encode())
    return path


def read_all(path: Path) -> list[object]:
    with open_trace(path) as t:
        return [t.header, t.initial, *t.steps()]


def test_reads_header_initial_state_and_steps(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER, INIT, STEP, STEP.replace('"accepted"', '"rejected"'))
    with open_trace(path) as t:
        assert t.header.module == "ZoneMembership"
        assert t.header.revision == "2"
        assert t.header.constants == {"Seats4": frozenset({"SideA", "SideB"})}
        assert t.header.meta == {"seed": 7}
        assert t.initial == {
            "inGameIds": frozenset({11}),
            "occupants": Fn({"Play": frozenset({11})}),
        }
        steps = list(t.steps())
    assert [s.line for s in steps] == [3, 4]
    assert [s.outcome for s in steps] == ["accepted", "rejected"]
    assert steps[0].action == "Move"
    assert steps[0].params == Fn({"id": 11, "source": "Play", "destination": "Bank"})
    assert steps[0].state["occupants"] == Fn({"Play": frozenset(), "Bank": frozenset({11})})


def test_steps_without_an_action_label(tmp_path: Path) -> None:
    state = STEP[STEP.index('"state"'):-1]
    rejected = '{"outcome": "rejected", ' + state + "}"
    path = write(tmp_path, HEADER, INIT, "{" + state + "}", rejected)
    steps = read_all(path)[2:]
    assert [(s.action, s.params, s.outcome, s.line) for s in steps] == [  # type: ignore[attr-defined]
        (None, None, "accepted", 3), (None, None, "rejected", 4)]
    for bad, message in [
        ('{"params": {}, ' + state + "}", "missing field 'action'"),
        ('{"action": "Move", ' + state + "}", "missing field 'params'"),
        ('{"outcome": "maybe", ' + state + "}", "outcome must be 'accepted' or 'rejected'"),
        ('{"outcome": "accepted"}', "missing field 'state'"),
    ]:
        with pytest.raises(TraceFormatError, match=message) as err:
            read_all(write(tmp_path, HEADER, INIT, bad))
        assert err.value.line == 3


def test_writer_writes_steps_without_a_label(tmp_path: Path) -> None:
    path = tmp_path / "u.trace.jsonl"
    with TraceWriter(path, "ZoneMembership", "2") as w:
        w.init({"x": 1})
        w.unlabeled_step({"x": 2})
        w.unlabeled_step({"x": 2}, "rejected")
        with pytest.raises(ValueError, match="outcome"):
            w.unlabeled_step({"x": 2}, "maybe")  # type: ignore[arg-type]
    assert path.read_text().splitlines()[2:] == [
        '{"state": {"x": 2}}', '{"outcome": "rejected", "state": {"x": 2}}']


def test_constants_and_meta_default_to_empty_and_empty_params_is_the_empty_record(
    tmp_path: Path,
) -> None:
    header = '{"format": "tlaconf-trace", "version": 1, "module": "M", "revision": "2"}'
    step = '{"action": "Tick", "params": {}, "outcome": "accepted", "state": {"x": {}}}'
    init = '{"state": {"x": {"#unserializable": "m"}}}'
    with open_trace(write(tmp_path, header, init, step)) as t:
        assert (t.header.constants, t.header.meta) == ({}, {})
        assert t.initial == {"x": ModelValue("m")}
        (s,) = t.steps()
    assert s.params == () and s.state == {"x": ()}


def test_writer_output_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "w.trace.jsonl"
    with TraceWriter(path, "M", "2", {"N": 3}, {"gen": "test"}) as w:
        w.init({"x": [1, 2], "y": {"a": {1, 2}}})
        w.step("Push", {"v": 3}, "accepted", {"x": [1, 2, 3], "y": {"a": {1, 2}}})
    with open_trace(path) as t:
        assert t.header.constants == {"N": 3}
        assert t.initial == {"x": (1, 2), "y": Fn({"a": frozenset({1, 2})})}
        (s,) = t.steps()
    assert s.params == Fn({"v": 3}) and s.state["x"] == (1, 2, 3)


def test_an_empty_trace_has_no_steps(tmp_path: Path) -> None:
    with open_trace(write(tmp_path, HEADER, INIT)) as t:
        assert list(t.steps()) == []


def _replace(line: str, old: str, new: str) -> str:
    assert old in line
    return line.replace(old, new, 1)


BAD: list[tuple[str, list[str], int, str]] = [
    ("invalid JSON header", ['{"format": '], 1, "invalid JSON"),
    ("invalid JSON step", [HEADER, INIT, STEP[:-1]], 3, "invalid JSON"),
    ("not an object", ["[1, 2]"], 1, "must be a JSON object, not an array"),
    ("wrong format", [_replace(HEADER, "tlaconf-trace", "itf")], 1, "not a tlaconf-trace file"),
    ("wrong version", [_replace(HEADER, '"version": 1', '"version": 2')], 1, "version 2"),
    ("version as string", [_replace(HEADER, '"version": 1', '"version": "1"')], 1,
     "version must be an integer, not a string"),
    ("missing module", [_replace(HEADER, '"module": "ZoneMembership", ', "")], 1,
     "missing field 'module'"),
    ("module not identifier", [_replace(HEADER, '"ZoneMembership"', '"../x"')], 1,
     "not a TLA+ identifier"),
    ("revision with slash", [_replace(HEADER, '"revision": "2"', '"revision": "2/../3"')], 1,
     "not a revision name"),
    ("revision as number", [_replace(HEADER, '"revision": "2"', '"revision": 2')], 1,
     "revision must be a string, not a number"),
    ("unknown header field", [_replace(HEADER, '"meta"', '"mtea"')], 1, "unknown field 'mtea'"),
    ("bad constant value", [_replace(HEADER, '"#set"', '"#sett"')], 1,
     "constants.Seats4: unknown value encoding '#sett'"),
    ("meta not an object", [_replace(HEADER, '{"seed": 7}', "[]")], 1,
     "meta must be an object, not an array"),
    ("missing initial state", [HEADER], 2, "missing initial state"),
    ("step instead of initial state", [HEADER, STEP], 2, "missing initial state"),
    ("initial state not an object", [HEADER, '{"state": 3}'], 2,
     "state must be an object, not a number"),
    ("unknown encoding in state", [HEADER, _replace(INIT, '"#set": [11]}}}', '"#sat": [11]}}}')],
     2, "state.occupants.Play: unknown value encoding '#sat'"),
    ("null in state", [HEADER, INIT, _replace(STEP, '{"#set": []}', "null")], 3,
     "null is not a TLA+ value"),
    ("float in state", [HEADER, INIT, _replace(STEP, '"#set": [11]}}}', '"#set": [1.5]}}}')], 3,
     "not an integer"),
    ("bad outcome", [HEADER, INIT, _replace(STEP, '"accepted"', '"done"')], 3,
     "outcome must be 'accepted' or 'rejected', not 'done'"),
    ("missing outcome", [HEADER, INIT, _replace(STEP, '"outcome": "accepted", ', "")], 3,
     "missing field 'outcome'"),
    ("params a list", [HEADER, INIT, _replace(STEP, '{"id": 11, "source": "Play", '
                                               '"destination": "Bank"}', "[1]")], 3,
     "params must be a record (a JSON object), not an array"),
    ("params a set", [HEADER, INIT, _replace(STEP, '{"id": 11, "source": "Play", '
                                             '"destination": "Bank"}', '{"#set": [1]}')], 3,
     "params must be a record"),
    ("params null", [HEADER, INIT, _replace(STEP, '{"id": 11, "source": "Play", '
                                            '"destination": "Bank"}', "null")], 3,
     "params must be a record (a JSON object), not null"),
    ("bad value in params", [HEADER, INIT, _replace(STEP, '"id": 11', '"id": {"#bigint": "x"}')],
     3, "params.id: #bigint 'x' is not a decimal integer"),
    ("action not a string", [HEADER, INIT, _replace(STEP, '"Move"', "7")], 3,
     "action must be a string, not a number"),
    ("action not an identifier", [HEADER, INIT, _replace(STEP, '"Move"', '"Mo ve"')], 3,
     "action 'Mo ve' is not a TLA+ identifier"),
    ("unknown step field", [HEADER, INIT, _replace(STEP, '"outcome"', '"outcome2"')], 3,
     "unknown field 'outcome2'"),
    ("variable not an identifier", [HEADER, '{"state": {"in game": 1}}'], 2,
     "state name 'in game' is not a TLA+ identifier"),
    ("blank line", [HEADER, INIT, "", STEP], 3, "blank line"),
    ("bool-int mix", [HEADER, INIT, _replace(STEP, '"#set": [11]}}}', '"#set": [true, 1]}}}')],
     3, "cannot compare"),
    ("duplicate params key", [HEADER, INIT, _replace(STEP, '"id": 11', '"id": 11, "id": 12')], 3,
     "duplicate key 'id' in a JSON object"),
    ("duplicate state variable",
     [HEADER, _replace(INIT, '{"state": {', '{"state": {"x": 1, "x": 2, ')], 2,
     "duplicate key 'x'"),
    ("duplicate header key", [_replace(HEADER, '"version": 1', '"version": 1, "version": 1'), INIT],
     1, "duplicate key 'version'"),
    ("duplicate line key", [HEADER, INIT, _replace(STEP, '"outcome": "accepted"',
                                                   '"outcome": "accepted", "outcome": "rejected"')],
     3, "duplicate key 'outcome'"),
    ("bigint with a plus", [HEADER, INIT, _replace(STEP, '"id": 11', '"id": {"#bigint": "+11"}')],
     3, "#bigint '+11' is not a decimal integer"),
    ("bigint with spaces", [HEADER, INIT, _replace(STEP, '"id": 11', '"id": {"#bigint": " 11"}')],
     3, "#bigint ' 11' is not a decimal integer"),
    ("bigint with underscores", [HEADER, INIT,
                                 _replace(STEP, '"id": 11', '"id": {"#bigint": "1_1"}')],
     3, "#bigint '1_1' is not a decimal integer"),
    ("bigint with other digits", [HEADER, INIT,
                                  _replace(STEP, '"id": 11', '"id": {"#bigint": "\\u0663"}')],
     3, "is not a decimal integer"),
]


@pytest.mark.parametrize(("lines", "line", "message"), [b[1:] for b in BAD],
                         ids=[b[0] for b in BAD])
def test_malformed_input_names_path_and_line(
    tmp_path: Path, lines: list[str], line: int, message: str
) -> None:
    path = write(tmp_path, *lines)
    with pytest.raises(TraceFormatError) as info:
        read_all(path)
    err = info.value
    assert isinstance(err, UserError)
    assert err.line == line
    assert err.path == path
    assert message in str(err)
    assert str(err).startswith(f"{path}:{line}: ")


def test_not_utf8(tmp_path: Path) -> None:
    path = write(tmp_path, raw=(HEADER + "\n").encode() + b'{"state": {"x": "\xff"}}\n')
    with pytest.raises(TraceFormatError, match=r":2: not UTF-8"):
        read_all(path)


def test_empty_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(TraceFormatError, match=r":1: empty file"):
        read_all(write(tmp_path, raw=b""))
    with pytest.raises(TraceFormatError, match="cannot read trace") as info:
        open_trace(tmp_path / "nope.trace.jsonl")
    assert info.value.line is None


def test_deep_nesting_is_an_error_not_a_crash(tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(TraceFormatError, match=r":2: "):
        read_all(write(tmp_path, HEADER, '{"state": {"x": ' + deep + "}}"))


def test_steps_are_lazy(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER, INIT, STEP, STEP, "garbage")
    seen = []
    with open_trace(path) as t, pytest.raises(TraceFormatError, match=":5: invalid JSON"):
        for step in t.steps():
            seen.append(step.line)
    assert seen == [3, 4]


def _peak_while_reading(path: Path, keep: bool = False) -> int:
    tracemalloc.start()
    try:
        with open_trace(path) as t:
            kept = [step for step in t.steps() if keep]
        assert bool(kept) == keep
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_trace_length(tmp_path: Path) -> None:
    def make(n: int) -> Path:
        path = tmp_path / f"{n}.trace.jsonl"
        state = json.loads(INIT)["state"]
        step = STEP.replace("\n", "")
        path.write_text(HEADER + "\n" + json.dumps({"state": state}) + "\n" + (step + "\n") * n)
        return path

    small, large = _peak_while_reading(make(500)), _peak_while_reading(make(20_000))
    # Bounded caches that earlier tests of a full run left warm can add a few hundred KB,
    # which is not growth; a reader keeping its 20,000 steps would exceed the bound.
    bound = small * 1.5 + 1_000_000
    assert large < bound
    assert _peak_while_reading(make(20_000), keep=True) > bound


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.one_of(st.sampled_from(["#set", "#map", "#tup", "#bigint", "action", "params",
                                       "outcome", "state", "x"]), st.text(max_size=3)),
            inner, max_size=4,
        ),
    ),
    max_leaves=10,
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(json_values.map(json.dumps), st.text(max_size=20)), max_size=3))
def test_any_garbage_is_a_trace_format_error_or_a_trace(lines: list[str]) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d, "g.trace.jsonl")
        path.write_text("\n".join([HEADER, *lines]) + "\n", encoding="utf-8")
        physical = path.read_bytes().count(b"\n")
        try:
            read_all(path)
        except TraceFormatError as err:
            assert err.line is not None and 2 <= err.line <= max(physical, 2)


def test_a_bigint_of_any_length_is_read(tmp_path: Path) -> None:
    digits = "9" * 5000  # beyond Python's 4,300-digit limit on int(str)
    path = write(tmp_path, HEADER, INIT,
                 _replace(STEP, '"id": 11', f'"id": {{"#bigint": "-{digits}"}}'))
    with open_trace(path) as trace:
        (step,) = list(trace.steps())
    assert step.params["id"] == -(10**5000 - 1)
