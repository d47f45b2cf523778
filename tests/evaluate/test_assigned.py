"""Actions that do not determine every variable: found statically, when the module loads.

Every construct of :mod:`tlaconf.evaluate.assigned`, then replay: a module with such an
action is a spec error for every trace (accepted and rejected steps alike), whether or not
a step reaches the bad branch, with the branch's file:line:col in the message.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tlaconf.evaluate import load_text
from tlaconf.replay import get_backend, replay_trace
from tlaconf.trace import TraceWriter

MODULE = """---- MODULE T ----
EXTENDS Naturals
VARIABLES x, y
vars == <<x, y>>
Set(a, b) == a = b
Both(p) == x' = p /\\ y' = p
Unch(p) == p > 0 /\\ UNCHANGED vars
Tuple(p) == UNCHANGED <<x, y>>
Box(p) == [x' = p /\\ y' = p]_vars
Angle(p) == <<x' = p /\\ y' = p>>_vars
Call(p) == Set(x', p) /\\ Set(y', p)
Nested(p) == Both(p)
Let(p) == LET s == x' = p IN s /\\ \\E v \\in {1, 2} : y' \\in {v}
IfBoth(p) == IF p > 0 THEN Both(p) ELSE UNCHANGED vars
CaseAll(p) == CASE p = 1 -> Both(p) [] OTHER -> UNCHANGED <<x, y>>
Mixed(p) == \\/ x' = 1 /\\ y' = 2
            \\/ y' = 1 /\\ x' = 2
OnlyX(p) == p > 0 /\\ x' = p
OrMissing(p) == \\/ Both(p)
                \\/ x' = 7
IfMissing(p) == IF p > 0 THEN Both(p) ELSE x' = 0
CaseMissing(p) == CASE p = 1 -> Both(p) [] OTHER -> UNCHANGED x
BoxMissing(p) == [x' = p]_vars
ReadOnly(p) == x' > p /\\ y' = p
Helper(r) == r + 1
Guard(r) == x > r
====
"""
COMPLETE = ["Both", "Unch", "Tuple", "Box", "Angle", "Call", "Nested", "Let", "IfBoth",
            "CaseAll", "Mixed"]  # fmt: skip


@pytest.fixture(scope="module")
def ctx():  # type: ignore[no-untyped-def]
    return load_text(MODULE, filename="T.tla")


@pytest.mark.parametrize("op", COMPLETE)
def test_actions_that_determine_every_variable(ctx, op: str) -> None:  # type: ignore[no-untyped-def]
    assert ctx.is_action(op)
    assert ctx.undetermined(op) is None


@pytest.mark.parametrize(
    ("op", "where", "var"),
    [
        ("OnlyX", "T.tla:18:1", "no conjunct assigns y'"),
        ("OrMissing", "T.tla:20:20", "the branch at T.tla:20:20 leaves y' unassigned"),
        ("IfMissing", "T.tla:21:44", "the branch at T.tla:21:44 leaves y' unassigned"),
        ("CaseMissing", "T.tla:22:53", "the branch at T.tla:22:53 leaves y' unassigned"),
        ("BoxMissing", "T.tla:23:19", "the branch at T.tla:23:19 leaves y' unassigned"),
        ("ReadOnly", "T.tla:24:1", "no conjunct assigns x'"),
    ],
)
def test_an_unassigned_variable_names_the_branch(  # type: ignore[no-untyped-def]
    ctx, op: str, where: str, var: str
) -> None:
    err = ctx.undetermined(op)
    assert err is not None
    assert err.location == where
    assert f"action {op} does not determine every variable" in err.message
    assert var in err.message


def test_helpers_are_not_actions(ctx) -> None:  # type: ignore[no-untyped-def]
    assert not ctx.is_action("Helper") and not ctx.is_action("Guard")


def test_enabled_expands_unchanged_through_a_definition(ctx) -> None:  # type: ignore[no-untyped-def]
    s = {"x": 0, "y": 0}
    assert ctx.enabled("Unch", (1,), s) is True
    assert ctx.enabled("Unch", (0,), s) is False


SPEC_MODULE = """---- MODULE Pair ----
EXTENDS Naturals
VARIABLES x, y
Step(p) ==
    /\\ x' = x + p.by
    /\\ \\/ p.by > 0 /\\ y' = y
       \\/ p.by > 100
Look(r) == x >= r
====
"""


def _spec(tmp_path: Path, text: str) -> Path:
    spec = tmp_path / "spec"
    (spec / "conformance").mkdir(parents=True)
    (spec / "reference-profile" / "rev1").mkdir(parents=True)
    (spec / "conformance" / "Pair.tla").write_text(text)
    return spec


def _trace(tmp_path: Path, steps: list[tuple[str, dict[str, int], str, dict[str, int]]]) -> Path:
    path = tmp_path / "t.trace.jsonl"
    with TraceWriter(path, "Pair", "1", {}, {}) as w:
        w.init({"x": 0, "y": 0})
        for step in steps:
            w.step(*step)  # type: ignore[arg-type]
    return path


@pytest.mark.parametrize("outcome", ["accepted", "rejected"])
def test_replay_refuses_the_module_even_if_no_step_takes_the_branch(
    tmp_path: Path, outcome: str
) -> None:
    spec = _spec(tmp_path, SPEC_MODULE)
    after = {"x": 1, "y": 0} if outcome == "accepted" else {"x": 0, "y": 0}
    result = replay_trace(_trace(tmp_path, [("Step", {"by": 1}, outcome, after)]), spec,
                          get_backend("embedded"))
    assert result.verdict == "error" and result.failure is not None
    assert "cannot load module 'Pair'" in result.failure.reason
    assert "Pair.tla:7:11: action Step does not determine every variable" in result.failure.reason
    assert "leaves y' unassigned" in result.failure.reason


def test_the_fixed_module_replays_and_a_state_predicate_is_no_action_label(
    tmp_path: Path,
) -> None:
    spec = _spec(tmp_path, SPEC_MODULE.replace("p.by > 100", "p.by > 100 /\\ y' = 0"))
    backend = get_backend("embedded")
    ok = replay_trace(_trace(tmp_path, [("Step", {"by": 1}, "accepted", {"x": 1, "y": 0})]),
                      spec, backend)
    assert ok.verdict == "conforms"
    bad = replay_trace(_trace(tmp_path, [("Look", {"by": 1}, "accepted", {"x": 1, "y": 9})]),
                       spec, backend)
    assert bad.verdict == "error" and bad.failure is not None
    assert "Look (defined at " in bad.failure.reason
    assert "Pair.tla:8:1) is not an action" in bad.failure.reason
    assert "leaves x', y' unassigned" in bad.failure.reason
    assert "the actions of module Pair: Step" in bad.failure.reason
