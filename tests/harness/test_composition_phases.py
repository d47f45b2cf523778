"""The phase runner: exit, cycle-complete and enter in deterministic order, and the reading."""

from __future__ import annotations

import pytest

from harness.composition.errors import CompositionError
from harness.composition.phases import PhaseEvent, PhaseRunner
from tests.harness.composition_helpers import holds, load

PHASES = ("Ready", "Draw", "Main", "End")


def kinds(events: tuple[PhaseEvent, ...]) -> list[tuple[str, str, int]]:
    return [(e.kind, e.phase, e.cycle) for e in events]


def test_start_then_next_phases_then_the_wrap() -> None:
    r, events = PhaseRunner(PHASES).start()
    assert kinds(events) == [("enter", "Ready", 1)]
    r, events = r.advance()
    assert kinds(events) == [("exit", "Ready", 1), ("enter", "Draw", 1)]
    r, _ = r.advance("End")                       # Main is skipped: no events for it
    r, events = r.advance()
    assert kinds(events) == [("exit", "End", 1), ("cycleComplete", "", 1),
                             ("enter", "Ready", 2)]
    assert (r.current, r.cycle) == ("Ready", 2)


def test_moving_back_or_to_the_same_phase_completes_the_cycle() -> None:
    r = PhaseRunner(PHASES).start()[0].advance("Main")[0]
    r2, events = r.advance("Draw")
    assert kinds(events)[1] == ("cycleComplete", "", 1) and r2.cycle == 2
    r3, events = r.advance("Main")
    assert [e.kind for e in events] == ["exit", "cycleComplete", "enter"] and r3.cycle == 2


@pytest.mark.parametrize(("run", "code"), [
    (lambda: PhaseRunner(PHASES).advance(), "not_started"),
    (lambda: PhaseRunner(PHASES).start()[0].start(), "started"),
    (lambda: PhaseRunner(PHASES).start()[0].advance("Combat"), "unknown_phase"),
])
def test_refused_requests(run: object, code: str) -> None:
    with pytest.raises(CompositionError) as err:
        run()  # type: ignore[operator]
    assert err.value.code == code


def test_the_reading_of_transition_events() -> None:
    ctx = load("PhaseCycle")
    runner = PhaseRunner(PHASES).start()[0].advance("End")[0]
    for to in PHASES:
        events = [e.value() for e in runner.advance(to)[1]]
        assert holds(ctx, "TransitionEvents", list(PHASES), "End", 1, to, events)
        assert not holds(ctx, "TransitionEvents", list(PHASES), "End", 1, to, events[::-1])
        assert not holds(ctx, "TransitionEvents", list(PHASES), "End", 1, to, events[:-1])
