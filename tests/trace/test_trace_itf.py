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
    assert s1["mbt::nondetPicks"] == {"destination": "Bank", "id": {"#bigint": "11"},
                                      "source": "Play"}
    assert s2["tlaconf::outcome"] == "rejected"
    assert [s["#meta"]["index"] for s in doc["states"]] == [0, 1, 2]


def test_itf_uses_the_adr_015_forms(tmp_path: Path) -> None:
    src, itf, back = tmp_path / "f.trace.jsonl", tmp_path / "f.itf.json", tmp_path / "b.trace.jsonl"
    big = 2**70
    with TraceWriter(src, "M", "2") as w:
        w.init({"n": big, "zones": {"Side.A": {1}}, "rec": {"a": (1, 2)}, "fn": {2: "x"}})
        w.unlabeled_step({"n": 1, "zones": {"Side.A": set()}, "rec": {"a": ()}, "fn": {}})
    trace_to_itf(src, itf)
    doc = json.loads(itf.read_text())
    assert doc["vars"] == ["fn", "n", "rec", "zones", "tlaconf::outcome"]
    s0, s1 = doc["states"]
    assert s0["n"] == {"#bigint": str(big)} and s1["n"] == {"#bigint": "1"}
    assert s0["zones"] == {"#map": [["Side.A", {"#set": [{"#bigint": "1"}]}]]}
    assert s0["rec"] == {"a": [{"#bigint": "1"}, {"#bigint": "2"}]}
    assert s0["fn"] == {"#map": [[{"#bigint": "2"}, "x"]]}
    assert "mbt::actionTaken" not in s1 and s1["tlaconf::outcome"] == "accepted"
    assert s1["rec"] == {"a": []} and s1["fn"] == {"#map": []}  # the form seen first
    itf_to_trace(itf, back)
    assert back.read_bytes() == src.read_bytes()


def test_the_first_form_seen_and_annotations_decide_between_two_forms(tmp_path: Path) -> None:
    src, itf = tmp_path / "t.trace.jsonl", tmp_path / "t.itf.json"
    src.write_text("\n".join(json.dumps(x) for x in [
        {"format": "tlaconf-trace", "version": 1, "module": "M", "revision": "2"},
        {"state": {"pair": {"#tup": [1, "a"]}, "seq": [1], "tally": {"#map": [["a", 1]]}}},
        {"action": "Put", "params": {"at": {"#tup": [1, 2]}, "to": [3]}, "outcome": "accepted",
         "state": {"pair": [2, "b"], "seq": [2, 3], "tally": {"a": 2}}},
        {"action": "Put", "params": {"at": [5, 6], "to": [4]}, "outcome": "accepted",
         "state": {"pair": [2, "b"], "seq": [2, 3], "tally": {"a": 2}}},
    ]) + "\n")
    trace_to_itf(src, itf)
    s = json.loads(itf.read_text())["states"]
    two = [{"#bigint": "2"}, "b"]
    assert (s[0]["pair"], s[1]["pair"]) == ({"#tup": [{"#bigint": "1"}, "a"]}, {"#tup": two})
    assert s[1]["seq"] == [{"#bigint": "2"}, {"#bigint": "3"}]
    assert s[1]["tally"] == {"#map": [["a", {"#bigint": "2"}]]}
    assert s[2]["mbt::nondetPicks"]["at"] == {"#tup": [{"#bigint": "5"}, {"#bigint": "6"}]}
    trace_to_itf(src, itf, {"pair": "Seq(Int)", "tally": "{a: Int}"})
    doc = json.loads(itf.read_text())
    s = doc["states"]
    assert s[1]["pair"] == two and s[1]["tally"] == {"a": {"#bigint": "2"}}
    assert "varTypes" not in doc["#meta"]  # seq has no annotation
    types = {"pair": "<<Int, Str>>", "tally": "{a: Int}", "seq": "Seq(Int)"}
    trace_to_itf(src, itf, types)
    assert json.loads(itf.read_text())["#meta"]["varTypes"] == types


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


def convert(tmp_path: Path, doc: Any, **kw: Any) -> list[Any]:
    src, dst = tmp_path / "q.itf.json", tmp_path / "q.trace.jsonl"
    src.write_text(json.dumps(doc))
    itf_to_trace(src, dst, kw.pop("module", "Counter"), kw.pop("revision", "2"), **kw)
    with open_trace(dst) as t:
        return [t.header, t.initial, *t.steps()]


def test_reads_itf_written_by_quint(tmp_path: Path) -> None:
    src, dst = tmp_path / "q.itf.json", tmp_path / "q.trace.jsonl"
    src.write_text(json.dumps(QUINT_ITF))
    with pytest.raises(UserError, match="--module and --revision"):
        itf_to_trace(src, dst)
    assert itf_to_trace(src, dst, "Counter", "2") == 1
    with open_trace(dst) as t:
        assert t.header.module == "Counter"
        assert t.header.meta == {"itf": QUINT_ITF["#meta"],
                                 "itf_states": [{"index": 0}, {"index": 1}]}
        assert t.initial == {"count": 0}
        (step,) = t.steps()
    assert (step.action, step.params, step.outcome) == ("add", Fn({"n": 3}), "accepted")
    assert step.state == {"count": 3}


def test_states_without_an_action_are_steps_without_a_label(tmp_path: Path) -> None:
    doc = {"vars": ["x"], "states": [{"x": 1}, {"x": {"#bigint": "2"}},
                                     {"x": 2, "tlaconf::outcome": "rejected"}]}
    _, initial, s1, s2 = convert(tmp_path, doc)
    assert initial == {"x": 1}
    assert (s1.action, s1.params, s1.outcome, s1.state) == (None, None, "accepted", {"x": 2})
    assert (s2.action, s2.outcome) == (None, "rejected")


def test_a_last_state_without_variables_is_a_failed_quint_action(tmp_path: Path) -> None:
    doc = {"vars": ["x"], "states": [{"x": 1}, {"x": 2}, {"#meta": {"index": 2}}]}
    header, _, *steps = convert(tmp_path, doc)
    assert [s.state for s in steps] == [{"x": 2}]
    assert header.meta["itf_failed_last_state"] == 2
    middle = {"vars": ["x"], "states": [{"x": 1}, {"#meta": {}}, {"x": 2}]}
    with pytest.raises(UserError, match=r"states\[1\]: the variable 'x' \(listed in vars\)"):
        convert(tmp_path, middle)


def test_params_become_constants(tmp_path: Path) -> None:
    doc = {"params": ["N"], "vars": ["x"],
           "states": [{"N": {"#bigint": "3"}, "x": 1}, {"x": 2}, {"N": 3, "x": 3}]}
    header, initial, *_ = convert(tmp_path, doc)
    assert header.constants == {"N": 3} and initial == {"x": 1}
    changed = _mutate(doc, ["states", 2, "N"], 4)
    with pytest.raises(UserError, match=r"states\[2\]\.N: the parameter 'N' changes value"):
        convert(tmp_path, changed)
    with pytest.raises(UserError, match=r"states\[0\].N: the parameter 'N' .* is not set"):
        convert(tmp_path, _mutate(doc, ["states", 0], {"x": 1}))


def test_a_lasso_gets_its_closing_step(tmp_path: Path) -> None:
    states = [{"x": 0}, {"x": 1}, {"x": 2}]
    header, _, *steps = convert(tmp_path, {"vars": ["x"], "states": states, "loop": 1})
    assert [s.state["x"] for s in steps] == [1, 2, 1]
    assert steps[-1].action is None and header.meta["itf_loop"] == 1
    closed = {"vars": ["x"], "states": [*states, {"x": 1}], "loop": {"#bigint": "1"}}
    _, _, *steps = convert(tmp_path, closed)
    assert [s.state["x"] for s in steps] == [1, 2, 1]
    _, _, *steps = convert(tmp_path, {"vars": ["x"], "states": states, "loop": None})
    assert [s.state["x"] for s in steps] == [1, 2]


def test_namespaced_names_and_renames(tmp_path: Path) -> None:
    doc = {"vars": ["zones::inGameIds", "zones::occupants"],
           "states": [{"zones::inGameIds": {"#set": []}, "zones::occupants": {"#map": []}},
                      {"zones::inGameIds": {"#set": []}, "zones::occupants": {"#map": []},
                       "mbt::actionTaken": "zones::Move", "mbt::nondetPicks": {}}]}
    _, initial, step = convert(tmp_path, doc)
    assert set(initial) == {"inGameIds", "occupants"} and step.action == "Move"
    _, initial, step = convert(tmp_path, doc, renames={"zones::occupants": "occ",
                                                       "zones::Move": "Go"})
    assert set(initial) == {"inGameIds", "occ"} and step.action == "Go"
    clash = {"vars": ["a::x", "b::x"], "states": [{"a::x": 1, "b::x": 2}]}
    with pytest.raises(UserError, match=r"'a::x' and 'b::x' both become 'x'.*--rename"):
        convert(tmp_path, clash)
    with pytest.raises(UserError, match=r"--rename nope=...: the file has no such name"):
        convert(tmp_path, doc, renames={"nope": "x"})


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
        (_mutate(QUINT_ITF, ["loop"], 5), r"loop: must be null or the index of a state \(0..1\)"),
        (_mutate(QUINT_ITF, ["loop"], "x"), "loop: must be null or the index of a state"),
        (_mutate(QUINT_ITF, ["states"], []), "states: an ITF trace needs a non-empty array"),
        (_mutate(QUINT_ITF, ["vars"], "count"), "vars: must be an array of names"),
        (_mutate(QUINT_ITF, ["states", 1, "mbt::nondetPicks"], 3),
         r"states\[1\].mbt::nondetPicks: must be a record, not a number"),
        (_mutate(QUINT_ITF, ["states", 1, "tlaconf::outcome"], "maybe"),
         r"states\[1\]: tlaconf::outcome must be 'accepted' or 'rejected'"),
        (_mutate(QUINT_ITF, ["states", 1, "count"], {"#wat": 1}),
         r"states\[1\]: state.count: unknown value encoding '#wat'"),
        (_mutate(QUINT_ITF, ["states", 1, "count"], {"#set": [{"#unserializable": "Int"}]}),
         r"states\[1\].count#set\[0\]: \{\"#unserializable\": \"Int\"\} is a value the tool"),
        (_mutate(QUINT_ITF, ["states", 1, "other"], 1),
         r"states\[1\].other: 'other' is not a variable listed in vars"),
        (_mutate(QUINT_ITF, ["states", 1], {"mbt::actionTaken": "add"}),
         r"states\[1\]: the variable 'count' \(listed in vars\) is not set"),
        (_mutate(QUINT_ITF, ["states", 0, "tlaconf::outcome"], "accepted"),
         r"states\[0\]: state 0 is the initial state"),
        (_mutate(QUINT_ITF, ["states", 1, "mbt::actionTaken"], 7),
         r"states\[1\]: mbt::actionTaken must be a string, not a number"),
        (_mutate(QUINT_ITF, ["states", 1, "mbt::actionTaken"], "a-b"),
         r"states\[1\]: action 'a-b' is not a TLA\+ identifier"),
        (_mutate(QUINT_ITF, ["states", 1], {"count": 1, "mbt::nondetPicks": {}}),
         r"states\[1\]: mbt::nondetPicks without mbt::actionTaken"),
        (_mutate(QUINT_ITF, ["states", 1, "#meta"], 3), r"states\[1\].#meta: must be an object"),
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
         "argument IN: " + str(tmp_path / "missing.jsonl") + " does not exist"),
        (["convert", str(src), str(tmp_path / "o.trace.jsonl")], "should be ITF"),
        (["convert", str(src), str(src)], "it is the input IN"),
        (["convert", str(src)], "usage:"),
    ]
    cases.append((["convert", str(src), str(src / "o.itf.json")], "is a file, not a directory"))
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


def test_a_duplicate_key_in_itf_names_its_line(tmp_path: Path) -> None:
    src, dst = tmp_path / "dup.itf.json", tmp_path / "dup.trace.jsonl"
    text = json.dumps(QUINT_ITF, indent=1)
    src.write_text(text.replace('"mbt::actionTaken": "init"',
                                '"mbt::actionTaken": "init", "mbt::actionTaken": "Inc"', 1))
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if '"init"' in ln)
    with pytest.raises(UserError) as info:
        itf_to_trace(src, dst, "Counter", "2")
    assert "duplicate key 'mbt::actionTaken'" in str(info.value)
    assert info.value.location is not None
    assert info.value.location.startswith(f"{src}:")
    assert int(info.value.location.rsplit(":", 1)[1]) <= line  # the object holding the key
    assert not dst.exists()


def test_cli_renames_and_annotations(tmp_path: Path) -> None:
    itf, out = tmp_path / "n.itf.json", tmp_path / "n.trace.jsonl"
    itf.write_text(json.dumps({"vars": ["m::x"], "states": [{"m::x": 1}, {"m::x": 2}]}))
    r = tlaconf("convert", str(itf), str(out), "--module", "M", "--revision", "2",
                "--rename", "m::x=y")
    assert r.returncode == 0, r.stderr
    with open_trace(out) as t:
        assert t.initial == {"y": 1}
    for bad, message in [(["--rename", "x"], "expected NAME=NEW"),
                         (["--rename", "q=y"], "--rename q=...: the file has no such name")]:
        r = tlaconf("convert", str(itf), str(tmp_path / "o.trace.jsonl"), "--module", "M",
                    "--revision", "2", *bad)
        assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr
    spec = tmp_path / "spec"
    (spec / "conformance").mkdir(parents=True)
    (spec / "reference-profile" / "rev2").mkdir(parents=True)
    (spec / "conformance" / "M.tla").write_text(
        "---- MODULE M ----\nVARIABLES\n  \\* @type: <<Int, Str>>;\n  pair,\n"
        "  \\* @type: Str -> Int;\n  tally\n====\n")
    src = tmp_path / "m.trace.jsonl"
    with TraceWriter(src, "M", "2") as w:
        w.init({"pair": (1, "a"), "tally": {"a": 1}})
        w.unlabeled_step({"pair": (2, "b"), "tally": {"a": 2}})
    r = tlaconf("convert", str(src), str(itf), "--spec", str(spec))
    assert r.returncode == 0, r.stderr
    doc = json.loads(itf.read_text())
    assert doc["#meta"]["varTypes"] == {"pair": "<<Int, Str>>", "tally": "Str -> Int"}
    s0 = doc["states"][0]
    assert s0["pair"] == {"#tup": [{"#bigint": "1"}, "a"]}
    assert s0["tally"] == {"#map": [["a", {"#bigint": "1"}]]}
    r = tlaconf("convert", str(src), str(itf), "--spec", str(tmp_path / "nope"))
    assert r.returncode == 2 and "does not exist" in r.stderr
    r = tlaconf("convert", str(itf), str(out), "--spec", str(spec))
    assert r.returncode == 2 and "--spec applies only" in r.stderr


def test_deep_values_are_an_error_not_a_crash(tmp_path: Path) -> None:
    src, dst = tmp_path / "deep.itf.json", tmp_path / "deep.trace.jsonl"
    deep = '{"#set": [' * 400 + "]}" * 400  # JSON reads it; decoding it needs more frames
    src.write_text('{"vars": ["x"], "states": [{"x": ' + deep + "}]}")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)  # loading a module raises the limit; this test needs Python's
    try:
        with pytest.raises(UserError, match=r"deep.itf.json:1:\d+: JSON nested deeper than 200"):
            itf_to_trace(src, dst, "M", "2")
    finally:
        sys.setrecursionlimit(limit)
    assert not dst.exists()
