"""``tlaconf export``: the trace as a TLA+ module + TLC cfg that reproduces replay's verdict."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tlaconf import evaluate
from tlaconf.errors import UserError
from tlaconf.spec.lookup import module_spec
from tlaconf.tla.parser import parse_module
from tlaconf.trace import TraceWriter
from tlaconf.trace.export import ModuleFacts, export_trace

SPEC = Path(__file__).parents[1] / "replay" / "spec"

Steps = list[tuple[str | None, dict[str, Any], str, dict[str, Any]]]


def st(count: int, a: int = 0, b: int = 0) -> dict[str, Any]:
    return {"count": count, "tally": {"a": a, "b": b}}


GOOD: Steps = [
    ("Inc", {"by": 2, "who": "a"}, "accepted", st(2, a=2)),
    ("Reset", {"atLeast": 5}, "rejected", st(2, a=2)),
    ("Inc", {"by": 3, "who": "b"}, "accepted", st(5, a=2, b=3)),
    ("Reset", {"atLeast": 5}, "accepted", st(0)),
]


def write(tmp_path: Path, steps: Steps, limit: int | None = None) -> Path:
    path = tmp_path / "c.trace.jsonl"
    constants = {} if limit is None else {"Limit": limit}
    with TraceWriter(path, "Counter", "1", constants) as w:
        w.init(st(0))
        for action, params, outcome, state in steps:
            if action is None:
                w.unlabeled_step(state, outcome)  # type: ignore[arg-type]
            else:
                w.step(action, params, outcome, state)  # type: ignore[arg-type]
    return path


FACTS = ModuleFacts(frozenset({"count", "tally"}), frozenset({"Inc", "Reset"}),
                    frozenset({"Limit"}), has_next=True)  # fmt: skip


def export(tmp_path: Path, steps: Steps, limit: int | None = None) -> tuple[Path, Any]:
    spec = module_spec(SPEC, "Counter", "1", {} if limit is None else {"Limit": limit})
    out = tmp_path / "CounterTrace.tla"
    cfg, n = export_trace(write(tmp_path, steps, limit), out, spec, "1", FACTS)
    assert n == len(steps)
    assert cfg == tmp_path / "CounterTrace.cfg"
    return out, spec


def test_module_and_cfg_shape(tmp_path: Path) -> None:
    out, _ = export(tmp_path, GOOD, limit=7)
    text = out.read_text()
    assert text.startswith("-") and "MODULE CounterTrace" in text.splitlines()[0]
    assert "EXTENDS Counter, Integers, Sequences, TLC" in text
    assert "TraceConst_Limit == 7" in text
    assert text.count('[action |-> "') == 4
    assert 'TraceSteps[k].action = "Inc" -> Inc(TraceSteps[k].params)' in text
    assert 'TraceSteps[k].action = "Reset" -> Reset(TraceSteps[k].params)' in text
    assert "/\\ tally' = TraceSteps[trace_step + 1].state.tally" in text
    assert text.rstrip().endswith("=" * 10)
    cfg = out.with_suffix(".cfg").read_text()
    assert "INIT TraceInit\nNEXT TraceNextOrDone\n" in cfg
    assert "Limit <- TraceConst_Limit" in cfg
    assert "INVARIANTS\n    Bounded" in cfg


def test_the_header_command_is_the_one_tlc_wants(tmp_path: Path) -> None:
    out, _ = export(tmp_path, GOOD)
    assert "java -XX:+UseParallelGC -DTLA-Library=" in out.read_text()


def test_a_trace_without_steps_is_refused(tmp_path: Path) -> None:
    spec = module_spec(SPEC, "Counter", "1", {})
    out = tmp_path / "CounterTrace.tla"
    with pytest.raises(UserError, match="no steps: TLC would pass"):
        export_trace(write(tmp_path, []), out, spec, "1", FACTS)
    assert list(tmp_path.iterdir()) == [tmp_path / "c.trace.jsonl"]


def test_an_unknown_action_label_is_refused(tmp_path: Path) -> None:
    spec = module_spec(SPEC, "Counter", "1", {})
    trace = write(tmp_path, [*GOOD, ("Teleport", {"to": 1}, "accepted", st(1))])
    with pytest.raises(UserError, match=r"c.trace.jsonl:7: unknown action label 'Teleport'"):
        export_trace(trace, tmp_path / "CounterTrace.tla", spec, "1", FACTS)
    assert not (tmp_path / "CounterTrace.tla").exists()
    assert not (tmp_path / "CounterTrace.cfg").exists()


def test_a_step_without_a_label_needs_next(tmp_path: Path) -> None:
    spec = module_spec(SPEC, "Counter", "1", {})
    path = tmp_path / "c.trace.jsonl"
    with TraceWriter(path, "Counter", "1") as w:
        w.init(st(0))
        w.unlabeled_step(st(2, a=2))
    facts = ModuleFacts(FACTS.variables, FACTS.actions, FACTS.constants, has_next=False)
    with pytest.raises(UserError, match=r"c\.trace\.jsonl:3: the step has no action label"):
        export_trace(path, tmp_path / "CounterTrace.tla", spec, "1", facts)
    assert not (tmp_path / "CounterTrace.tla").exists()


def test_only_declared_constants_are_bound(tmp_path: Path) -> None:
    spec = module_spec(SPEC, "Counter", "1", {"Seats4": frozenset({"SideA"})})
    out = tmp_path / "CounterTrace.tla"
    export_trace(write(tmp_path, GOOD), out, spec, "1", FACTS)
    cfg = out.with_suffix(".cfg").read_text()
    assert "Limit <- TraceConst_Limit" in cfg and "Seats4" not in cfg
    assert "Seats4" not in out.read_text()


def test_bad_output_names(tmp_path: Path) -> None:
    spec = module_spec(SPEC, "Counter", "1", {})
    trace = write(tmp_path, GOOD)
    for out, message in [
        (tmp_path / "bad-name.tla", r"TLA\+ identifier"),
        (tmp_path / "X.txt", "NAME.tla"),
        (tmp_path / "Counter.tla", "cannot be named like"),
    ]:
        with pytest.raises(UserError, match=message):
            export_trace(trace, out, spec, "1", FACTS)
    assert not (tmp_path / "bad-name.tla").exists()


def test_a_name_clash_with_the_module_is_refused(tmp_path: Path) -> None:
    spec_dir = tmp_path / "spec"
    (spec_dir / "conformance").mkdir(parents=True)
    (spec_dir / "reference-profile" / "rev1").mkdir(parents=True)
    (spec_dir / "conformance" / "Counter.tla").write_text(
        "---- MODULE Counter ----\nVARIABLE count, tally\nTraceInit == TRUE\n====\n"
    )
    spec = module_spec(spec_dir, "Counter", "1", {})
    with pytest.raises(UserError, match="uses the name TraceInit"):
        export_trace(write(tmp_path, GOOD), tmp_path / "T.tla", spec, "1", FACTS)


def tlaconf(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tlaconf.cli.main", *args], capture_output=True, text=True
    )


def test_cli(tmp_path: Path) -> None:
    trace = write(tmp_path, GOOD)
    out = tmp_path / "T.tla"
    r = tlaconf("export", str(trace), "-o", str(out), "--spec", str(SPEC))
    assert r.returncode == 0, r.stderr
    assert out.is_file() and out.with_suffix(".cfg").is_file()
    (tmp_path / "empty").mkdir()
    empty = write(tmp_path / "empty", [])
    for args, message in [
        (["export", str(trace), "-o", str(out), "--spec", str(tmp_path / "nope")],
         "does not exist"),
        (["export", str(tmp_path / "missing.jsonl"), "-o", str(out), "--spec", str(SPEC)],
         "cannot read trace"),
        (["export", str(trace)], "required: -o"),
        (["export", str(trace), "-o", str(trace / "T.tla"), "--spec", str(SPEC)],
         "is a file, not a directory"),
        (["export", str(empty), "-o", str(out), "--spec", str(SPEC)],
         "the trace has no steps"),
    ]:
        r = tlaconf(*args)
        assert r.returncode == 2, (args, r.stderr)
        assert message in r.stderr and "Traceback" not in r.stderr


def test_exported_module_parses(tmp_path: Path) -> None:
    out, _ = export(tmp_path, GOOD)
    module = parse_module(out.read_text(), str(out))
    names = set(module.definitions())
    assert module.extends[0] == "Counter" and module.variables() == ("trace_step",)
    assert {"TraceInit", "TraceNext", "TraceSteps", "TraceAction", "TraceSpec"} <= names


def with_step(state: dict[str, Any], k: int) -> dict[str, Any]:
    from tlaconf.values import from_python

    return {**{v: from_python(x) for v, x in state.items()}, "trace_step": k}


@pytest.mark.parametrize(
    ("steps", "verdicts"),
    [
        (GOOD, [True, True, True, True]),
        ([("Inc", {"by": 0, "who": "a"}, "accepted", st(0))], [False]),
        ([("Inc", {"by": 2, "who": "a"}, "accepted", st(3, a=3))], [False]),
        ([("Inc", {"by": 1, "who": "a"}, "rejected", st(0))], [False]),
        ([("Reset", {"atLeast": 1}, "rejected", st(0))], [True]),
        ([("Reset", {"atLeast": 1}, "rejected", st(1))], [False]),
        ([(None, {}, "accepted", st(2, a=2)), (None, {}, "accepted", st(0))], [True, True]),
        ([(None, {}, "accepted", st(2, a=1))], [False]),
        ([(None, {}, "rejected", st(0))], [True]),
        ([(None, {}, "rejected", st(1, a=1))], [False]),
    ],
)
def test_exported_module_evaluates_like_replay(
    tmp_path: Path, steps: Steps, verdicts: list[bool]
) -> None:
    out, spec = export(tmp_path, steps)
    ctx = evaluate.load_module(out, (tmp_path, *spec.search_path), spec.constants)
    assert ctx.holds("TraceInit", (), with_step(st(0), 0))
    states = [st(0), *(s for _, _, _, s in steps)]
    got = [
        ctx.holds("TraceNext", (), with_step(states[k - 1], k - 1), with_step(states[k], k))
        for k in range(1, len(states))
    ]
    assert got == verdicts


def test_values_that_need_integers_and_tlc(tmp_path: Path) -> None:
    path = tmp_path / "c.trace.jsonl"
    s0 = {"count": 0, "tally": {"side.A": 0, "b": 0}}
    s1 = {"count": 2, "tally": {"side.A": 2, "b": 0}}
    with TraceWriter(path, "Counter", "1") as w:
        w.init(s0)
        w.step("Inc", {"by": 2, "who": "side.A"}, "accepted", s1)
        w.step("Reset", {"atLeast": -1}, "accepted", {"count": 0, "tally": {"side.A": 0, "b": 0}})
    spec = module_spec(SPEC, "Counter", "1", {})
    out = tmp_path / "T.tla"
    export_trace(path, out, spec, "1", FACTS)
    text = out.read_text()
    assert '"side.A" :> 2' in text and "atLeast |-> -1" in text
    ctx = evaluate.load_module(out, (tmp_path, *spec.search_path), spec.constants)
    s2 = {"count": 0, "tally": {"side.A": 0, "b": 0}}
    assert ctx.holds("TraceNext", (), with_step(s0, 0), with_step(s1, 1))
    assert ctx.holds("TraceNext", (), with_step(s1, 1), with_step(s2, 2))
