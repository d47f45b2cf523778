"""The replay semantics of the README, on the test module Counter (Python and embedded backends)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.replay.counter_backend import SPEC, state
from tlaconf.replay import Backend, get_backend, replay_trace
from tlaconf.trace import TraceWriter

Trace = Callable[..., Path]

INC_A2 = ("Inc", {"by": 2, "who": "a"}, "accepted", state(2, a=2, b=0))


def test_conforming_trace_with_accepted_and_rejected_steps(trace: Trace, backend: Backend) -> None:
    path = trace(
        "ok",
        state(0),
        [
            INC_A2,
            ("Inc", {"by": 0, "who": "b"}, "rejected", state(2, a=2, b=0)),
            ("Reset", {"atLeast": 5}, "rejected", state(2, a=2, b=0)),
            ("Reset", {"atLeast": 1}, "accepted", state(0)),
        ],
    )
    r = replay_trace(path, SPEC, backend)
    assert (r.verdict, r.steps, r.failure, r.module) == ("conforms", 4, None, "Counter")


def test_trace_without_steps_is_vacuous(trace: Trace, backend: Backend) -> None:
    r = replay_trace(trace("empty", state(0)), SPEC, backend)
    assert r.verdict == "vacuous" and r.steps == 0
    assert r.failure is not None and "no steps" in r.failure.reason


def test_accepted_step_that_breaks_the_action(trace: Trace, backend: Backend) -> None:
    bad = ("Inc", {"by": 2, "who": "a"}, "accepted", state(3, a=4, b=0))
    r = replay_trace(trace("bad", state(0), [INC_A2, bad]), SPEC, backend)
    assert r.verdict == "violation" and r.steps == 2
    f = r.failure
    assert f is not None and (f.step, f.line, f.action) == (2, 4, "Inc")
    assert "accepted" in f.reason and f.blame is not None
    assert f.blame.innermost().text.startswith("count'")
    assert [c.path for c in f.diff] == ["count", 'tally["a"]']
    assert (f.diff[0].before, f.diff[0].after) == ("2", "3")


def test_accepted_step_whose_guard_is_false(trace: Trace, backend: Backend) -> None:
    bad = ("Inc", {"by": -1, "who": "a"}, "accepted", state(-1, a=-1, b=0))
    r = replay_trace(trace("guard", state(0), [bad]), SPEC, backend)
    assert r.verdict == "violation" and r.failure is not None
    assert r.failure.blame is not None and r.failure.blame.innermost().text == "p.by > 0"
    assert r.failure.blame.innermost().line == 8


def test_rejected_step_that_changed_the_state(trace: Trace, backend: Backend) -> None:
    bad = ("Inc", {"by": 0, "who": "a"}, "rejected", state(1, a=0, b=0))
    r = replay_trace(trace("partial", state(0), [bad]), SPEC, backend)
    assert r.verdict == "violation" and r.failure is not None
    assert r.failure.step == 1 and "changed" in r.failure.reason
    assert [(c.path, c.before, c.after) for c in r.failure.diff] == [("count", "0", "1")]


def test_rejected_step_that_the_spec_enables(trace: Trace, backend: Backend) -> None:
    bad = ("Inc", {"by": 1, "who": "a"}, "rejected", state(0))
    r = replay_trace(trace("enabled", state(0), [bad]), SPEC, backend)
    assert r.verdict == "violation" and r.failure is not None
    assert "ENABLED Inc(p) is TRUE" in r.failure.reason and r.failure.line == 3


def test_invariant_of_the_initial_state(trace: Trace, backend: Backend) -> None:
    r = replay_trace(trace("init", state(11), [INC_A2]), SPEC, backend)
    assert r.verdict == "violation" and r.failure is not None
    assert (r.failure.step, r.failure.line) == (0, 2)
    assert "invariant Bounded" in r.failure.reason and "initial state" in r.failure.reason
    assert r.failure.blame is not None and "count <= Limit" in r.failure.blame.innermost().text


def test_header_constants_override_the_cfg(trace: Trace, backend: Backend) -> None:
    steps = [("Inc", {"by": 5, "who": "a"}, "accepted", state(5, a=5, b=0))]
    assert replay_trace(trace("default", state(0), steps), SPEC, backend).verdict == "conforms"
    r = replay_trace(trace("low", state(0), steps, constants={"Limit": 3}), SPEC, backend)
    assert r.verdict == "violation" and r.failure is not None
    assert (r.failure.step, r.failure.action) == (1, "Inc")
    assert "after step 1" in r.failure.reason


def test_unknown_action_label(trace: Trace, backend: Backend) -> None:
    r = replay_trace(trace("label", state(0), [INC_A2, ("Dec", {}, "accepted", state(1))]),
                     SPEC, backend)  # fmt: skip
    assert r.verdict == "error" and r.failure is not None
    assert r.failure.reason.startswith("line 4: unknown action label 'Dec'")
    assert "Inc, Reset" in r.failure.reason


def test_missing_param_names_the_line_and_the_fields(trace: Trace, backend: Backend) -> None:
    r = replay_trace(trace("param", state(0), [("Inc", {"who": "a"}, "accepted", state(1))]),
                     SPEC, backend)  # fmt: skip
    assert r.verdict == "error" and r.failure is not None
    reason = r.failure.reason
    assert reason.startswith("line 3: cannot evaluate Inc(p)") and "by" in reason
    assert "params have fields: who" in reason


def test_missing_and_extra_variables(trace: Trace, backend: Backend) -> None:
    r = replay_trace(trace("missing", {"count": 0}, [INC_A2]), SPEC, backend)
    assert r.verdict == "error" and r.failure is not None
    assert r.failure.reason == "line 2: the state lacks variable(s) tally"
    extra = ("Inc", {"by": 1, "who": "a"}, "accepted", {**state(3, a=3, b=0), "zz": 1})
    r = replay_trace(trace("extra", state(0), [INC_A2, extra]), SPEC, backend)
    assert r.verdict == "error" and r.failure is not None
    assert r.failure.reason.startswith("line 4: the state has variable(s) zz not declared")


def test_unknown_module_and_revision(trace: Trace, backend: Backend) -> None:
    r = replay_trace(trace("mod", state(0), [INC_A2], module="Nope"), SPEC, backend)
    assert r.verdict == "error" and r.failure is not None and r.module == "Nope"
    assert r.failure.reason.startswith("line 1: ") and "unknown module 'Nope'" in r.failure.reason
    r = replay_trace(trace("rev", state(0), [INC_A2], revision="9"), SPEC, backend)
    assert r.verdict == "error" and r.failure is not None
    assert "line 1: " in r.failure.reason and "unknown revision '9'" in r.failure.reason


def test_malformed_lines_are_errors_with_their_line(trace: Trace, backend: Backend) -> None:
    path = trace("json", state(0), [INC_A2])
    with path.open("a", encoding="utf-8") as f:
        f.write('{"action": "Inc", "params": {"by": 1}, "outcome": "maybe", "state": {}}\n')
    r = replay_trace(path, SPEC, backend)
    assert r.verdict == "error" and r.failure is not None
    assert r.failure.reason.startswith("line 4: ") and r.failure.line == 4
    assert r.steps == 1
    r = replay_trace(trace("noinit", None), SPEC, backend)
    assert r.verdict == "error" and r.failure is not None
    assert r.failure.reason.startswith("line 2: missing initial state")


# ------------------------------------------------ steps without an action label (Next)


def test_unlabeled_steps_are_checked_against_next(trace: Trace, backend: Backend) -> None:
    path = trace("next", state(0), [
        (None, None, "accepted", state(2, a=2, b=0)),
        (None, None, "rejected", state(2, a=2, b=0)),
        ("Inc", {"by": 1, "who": "b"}, "accepted", state(3, a=2, b=1)),
        (None, None, "accepted", state(0)),
    ])  # fmt: skip
    r = replay_trace(path, SPEC, backend)
    assert (r.verdict, r.steps, r.failure) == ("conforms", 4, None)


def test_unlabeled_step_that_next_does_not_allow(trace: Trace, backend: Backend) -> None:
    bad = (None, None, "accepted", state(3, a=2, b=0))  # count and tally disagree
    r = replay_trace(trace("nonext", state(0), [bad]), SPEC, backend)
    assert r.verdict == "violation" and r.failure is not None
    f = r.failure
    assert (f.step, f.line, f.action, f.params, f.call) == (1, 3, "Next", None, "Next")
    assert f.reason == "the step has no action label and Next is FALSE from s to s'"
    assert f.blame is not None and [c.path for c in f.diff] == ["count", 'tally["a"]']


def test_unlabeled_stuttering_steps(trace: Trace, backend: Backend) -> None:
    r = replay_trace(trace("stutter", state(1, a=1, b=0), [(None, None, "accepted",
                                                           state(1, a=1, b=0))]), SPEC, backend)
    assert r.verdict == "violation" and r.failure is not None
    assert r.failure.reason.endswith("(s' = s: record a stuttering step as rejected)")
    moved = (None, None, "rejected", state(2, a=2, b=0))
    r = replay_trace(trace("moved", state(0), [moved]), SPEC, backend)
    assert r.verdict == "violation" and r.failure is not None
    assert "rejected but the state changed" in r.failure.reason and r.failure.action == "Next"


def test_unlabeled_step_invariants_are_checked(trace: Trace, backend: Backend) -> None:
    step = (None, None, "accepted", state(2, a=2, b=0))
    path = trace("inv", state(1, a=1, b=0), [step], constants={"Limit": 1})
    r = replay_trace(path, SPEC, backend)
    assert r.verdict == "violation" and r.failure is not None
    assert r.failure.reason == "invariant Bounded is FALSE in the state after step 1"


def test_unlabeled_step_of_a_module_without_next(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    (spec / "conformance").mkdir(parents=True)
    (spec / "reference-profile" / "rev1").mkdir(parents=True)
    (spec / "conformance" / "Plain.tla").write_text(
        "---- MODULE Plain ----\nVARIABLE x\nSet(p) == x' = p.to\n====\n", encoding="utf-8"
    )
    path = tmp_path / "plain.trace.jsonl"
    with TraceWriter(path, "Plain", "1") as w:
        w.init({"x": 0})
        w.step("Set", {"to": 1}, "accepted", {"x": 1})
        w.unlabeled_step({"x": 2})
    r = replay_trace(path, spec, get_backend("embedded"))
    assert r.verdict == "error" and r.failure is not None and r.failure.step == 2
    assert r.failure.reason == (
        "line 4: the step has no action label, so it is checked against Next, but module "
        "Plain defines no Next (label the step with an action, or define Next in the module)"
    )
