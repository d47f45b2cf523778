"""Trace <-> ITF conversion: lossless round trip, Quint MBT conventions, located errors, CLI."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tlaconf.errors import UserError
from tlaconf.trace import TraceWriter, open_trace
from tlaconf.trace.itf import is_trace_file, itf_to_trace, trace_to_itf
from tlaconf.values import Fn, ModelValue, make_fn

idents = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,6}", fullmatch=True)
scalars = st.one_of(
    st.booleans(),
    st.integers(),
    st.text(max_size=5),
    st.builds(ModelValue, idents),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.frozensets(st.integers(-5, 5), max_size=4),
        st.frozensets(st.text(max_size=3), max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.text(min_size=1, max_size=3), inner, min_size=1, max_size=3).map(
            make_fn
        ),
        st.dictionaries(st.integers(-3, 3), inner, max_size=3).map(make_fn),
    ),
    max_leaves=8,
)
json_meta = st.dictionaries(
    st.text(max_size=4),
    st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=4)),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)
        ),
        max_leaves=5,
    ),
    max_size=3,
)


@st.composite
def traces(draw: st.DrawFn) -> dict[str, Any]:
    variables = draw(st.lists(idents, min_size=1, max_size=3, unique=True))
    states = st.fixed_dictionaries({v: values for v in variables})
    return {
        "module": draw(idents),
        "revision": draw(st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,4}", fullmatch=True)),
        "constants": draw(st.dictionaries(idents, values, max_size=2)),
        "meta": draw(json_meta),
        "init": draw(states),
        "steps": draw(
            st.lists(
                st.tuples(
                    idents,
                    st.dictionaries(
                        st.one_of(st.text(min_size=1, max_size=4), st.just("#set")),
                        values,
                        max_size=3,
                    ),
                    st.sampled_from(["accepted", "rejected"]),
                    states,
                ),
                max_size=4,
            )
        ),
    }


def write_trace(path: Path, t: dict[str, Any]) -> None:
    with TraceWriter(path, t["module"], t["revision"], t["constants"], t["meta"]) as w:
        w.init(t["init"])
        for action, params, outcome, state in t["steps"]:
            w.step(action, params, outcome, state)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(traces())
def test_trace_to_itf_to_trace_is_byte_identical(t: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as d:
        src, itf, back = Path(d, "a.trace.jsonl"), Path(d, "a.itf.json"), Path(d, "b.trace.jsonl")
        write_trace(src, t)
        assert trace_to_itf(src, itf) == len(t["steps"])
        assert itf_to_trace(itf, back) == len(t["steps"])
        assert back.read_bytes() == src.read_bytes()


def sample_trace(tmp_path: Path) -> Path:
    path = tmp_path / "s.trace.jsonl"
    with TraceWriter(path, "ZoneMembership", "2", {"Seats4": {"SideA", "SideB"}}, {"seed": 3}) as w:
        w.init({"inGameIds": {11}, "occupants": {"Play": {11}, "Bank": set()}})
        w.step("Move", {"id": 11, "source": "Play", "destination": "Bank"}, "accepted",
               {"inGameIds": {11}, "occupants": {"Play": set(), "Bank": {11}}})
        w.step("Move", {"id": 12, "source": "Play", "destination": "Bank"}, "rejected",
               {"inGameIds": {11}, "occupants": {"Play": set(), "Bank": {11}}})
    return path


def test_itf_follows_the_quint_mbt_conventions(tmp_path: Path) -> None:
    itf = tmp_path / "s.itf.json"
    trace_to_itf(sample_trace(tmp_path), itf)
    doc = json.loads(itf.read_text())
    assert doc["#meta"]["format"] == "ITF"
    assert doc["#meta"]["tlaconf::header"]["module"] == "ZoneMembership"
    assert doc["#meta"]["tlaconf::header"]["constants"] == {"Seats4": {"#set": ["SideA", "SideB"]}}
    assert doc["vars"] == ["inGameIds", "occupants", "mbt::actionTaken", "mbt::nondetPicks",
                           "tlaconf::outcome"]
    s0, s1, s2 = doc["states"]
    assert (s0["mbt::actionTaken"], s0["mbt::nondetPicks"], s0["tlaconf::outcome"]) == (
        "init", {}, "init")
    assert s1["mbt::actionTaken"] == "Move"
    assert s1["mbt::nondetPicks"]["id"] == {"tag": "Some", "value": 11}
    assert s2["tlaconf::outcome"] == "rejected"
    assert [s["#meta"]["index"] for s in doc["states"]] == [0, 1, 2]


QUINT_ITF = {
    "#meta": {"format": "ITF", "source": "counter.qnt", "status": "ok"},
    "vars": ["count", "mbt::actionTaken", "mbt::nondetPicks", "mbt::actionTaken"],
    "states": [
        {"#meta": {"index": 0}, "count": {"#bigint": "0"}, "mbt::actionTaken": "init",
         "mbt::nondetPicks": {"n": {"tag": "None", "value": {"#tup": []}}}},
        {"#meta": {"index": 1}, "count": {"#bigint": "3"}, "mbt::actionTaken": "add",
         "mbt::nondetPicks": {"n": {"tag": "Some", "value": {"#bigint": "3"}},
                              "m": {"tag": "None", "value": {"#tup": []}}}},
    ],
}


def test_reads_itf_written_by_quint(tmp_path: Path) -> None:
    src, dst = tmp_path / "q.itf.json", tmp_path / "q.trace.jsonl"
    src.write_text(json.dumps(QUINT_ITF))
    with pytest.raises(UserError, match="--module and --revision"):
        itf_to_trace(src, dst)
    assert itf_to_trace(src, dst, "Counter", "2") == 1
    with open_trace(dst) as t:
        assert t.header.module == "Counter"
        assert t.header.meta == {"itf": QUINT_ITF["#meta"]}
        assert t.initial == {"count": 0}
        (step,) = t.steps()
    assert (step.action, step.params, step.outcome) == ("add", Fn({"n": 3}), "accepted")
    assert step.state == {"count": 3}


def _mutate(doc: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    doc = json.loads(json.dumps(doc))
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (_mutate(QUINT_ITF, ["loop"], 0), "loop: lasso traces"),
        (_mutate(QUINT_ITF, ["states"], []), "states: an ITF trace needs a non-empty array"),
        (_mutate(QUINT_ITF, ["states", 1, "mbt::nondetPicks", "n"], 3),
         r"states\[1\]: pick 'n' must be a Quint Option variant"),
        (_mutate(QUINT_ITF, ["states", 1, "tlaconf::outcome"], "maybe"),
         r"states\[1\]: outcome must be 'accepted' or 'rejected'"),
        (_mutate(QUINT_ITF, ["states", 1, "count"], {"#wat": 1}),
         r"states\[1\]: state.count: unknown value encoding '#wat'"),
        (_mutate(QUINT_ITF, ["states", 0, "mbt::actionTaken"], "add"),
         r"states\[0\]: state 0 is the initial state"),
        (_mutate(QUINT_ITF, ["states", 1, "mbt::actionTaken"], None),
         r"states\[1\]: a step state needs mbt::actionTaken"),
        (_mutate(QUINT_ITF, ["states", 1, "mbt::actionTaken"], 7),
         r"states\[1\]: action must be a string, not a number"),
        ([1, 2], "an ITF trace is a JSON object, not an array"),
    ],
)
def test_bad_itf_is_a_located_user_error(tmp_path: Path, doc: Any, message: str) -> None:
    src, dst = tmp_path / "bad.itf.json", tmp_path / "bad.trace.jsonl"
    src.write_text(json.dumps(doc))
    with pytest.raises(UserError, match=message):
        itf_to_trace(src, dst, "Counter", "2")
    assert not dst.exists()
    assert not dst.with_name(dst.name + ".part").exists()


def test_a_header_in_itf_conflicts_with_flags(tmp_path: Path) -> None:
    itf = tmp_path / "s.itf.json"
    trace_to_itf(sample_trace(tmp_path), itf)
    with pytest.raises(UserError, match="drop --module/--revision"):
        itf_to_trace(itf, tmp_path / "x.trace.jsonl", "M", "2")


def test_bad_trace_input_leaves_no_output(tmp_path: Path) -> None:
    src = sample_trace(tmp_path)
    src.write_text(src.read_text() + "{broken\n")
    dst = tmp_path / "s.itf.json"
    with pytest.raises(UserError, match=r":5: invalid JSON"):
        trace_to_itf(src, dst)
    assert not dst.exists() and not dst.with_name(dst.name + ".part").exists()


def test_sniffing(tmp_path: Path) -> None:
    assert is_trace_file(sample_trace(tmp_path))
    other = tmp_path / "q.itf.json"
    other.write_text(json.dumps(QUINT_ITF))
    assert not is_trace_file(other)


def tlaconf(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tlaconf.cli.main", *args], capture_output=True, text=True
    )


def test_cli_round_trip(tmp_path: Path) -> None:
    src = sample_trace(tmp_path)
    itf, back = tmp_path / "s.itf.json", tmp_path / "b.trace.jsonl"
    r = tlaconf("convert", str(src), str(itf))
    assert r.returncode == 0, r.stderr
    assert "ITF, 2 steps" in r.stdout
    r = tlaconf("convert", str(itf), str(back))
    assert r.returncode == 0, r.stderr
    assert back.read_bytes() == src.read_bytes()


def test_cli_bad_input_exits_2(tmp_path: Path) -> None:
    src = sample_trace(tmp_path)
    cases = [
        (["convert", str(tmp_path / "missing.jsonl"), str(tmp_path / "o.itf.json")],
         "no such file"),
        (["convert", str(src), str(tmp_path / "o.trace.jsonl")], "should be ITF"),
        (["convert", str(src), str(src)], "same file"),
        (["convert", str(src)], "usage:"),
    ]
    cases.append((["convert", str(src), str(tmp_path / "no" / "o.itf.json")], "cannot write"))
    garbage = tmp_path / "g.itf.json"
    garbage.write_text("{not json")
    cases.append((["convert", str(garbage), str(tmp_path / "g.trace.jsonl")],
                  "neither a tlaconf trace nor ITF JSON"))
    for args, message in cases:
        r = tlaconf(*args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert message in r.stderr
        assert "Traceback" not in r.stderr


garbage = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=4)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.one_of(st.sampled_from(["#set", "#map", "tag", "value", "count",
                                       "mbt::actionTaken", "mbt::nondetPicks",
                                       "tlaconf::outcome"]), st.text(max_size=3)),
            inner, max_size=4,
        ),
    ),
    max_leaves=10,
)  # fmt: skip


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(garbage, min_size=1, max_size=3))
def test_any_itf_garbage_is_a_user_error_or_a_trace(states: list[Any]) -> None:
    with tempfile.TemporaryDirectory() as d:
        src, dst = Path(d, "g.itf.json"), Path(d, "g.trace.jsonl")
        src.write_text(json.dumps({"vars": ["count"], "states": states}))
        try:
            itf_to_trace(src, dst, "Counter", "2")
        except UserError:
            assert not dst.exists()
