"""Guard coverage of the composition helpers' conformance modules (``tlaconf coverage``).

Every guard of a request (a refusal condition) must be FALSE on a rejected step of
the seeded scenarios and TRUE on an accepted one.  A guard that checks the helper's
answer (the params of a query, the granted intents of a draft, the events of a
phase change) cannot be refused; such a guard must instead be FALSE on a step of a
golden violation trace, so that a wrong answer is caught.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.composition.errors import CompositionError
from harness.scenarios import composition
from harness.scenarios.composition.turn_views import RULES, new_table
from tlaconf.evaluate.coverage import GUARD
from tlaconf.replay.coverage import Coverage, PointCoverage, cover_traces
from tlaconf.report.coverage import location, point_text

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "traces" / "composition"
PROFILE = "spec/reference-profile/"
MODULES = {"KeywordLayering", "DeckValidation", "DurationClock", "PhaseRunner", "TargetChoice",
           "CostsAndDrafts", "TurnObservation", "ResponseWindow"}
#: (module, action) -> the text that marks the conjunct checking the helper's answer
ANSWERS = {
    ("KeywordLayering", "Resolve"): "p.order",
    ("DeckValidation", "Validate"): "p.violations",
    ("DurationClock", "Boundary"): "p.expired",
    ("PhaseRunner", "Start"): "p.events",
    ("PhaseRunner", "Advance"): "p.events",
    ("TargetChoice", "View"): "p.targetChoices",
    ("TargetChoice", "Enumerate"): "ActionEnumerationOK(p,",
    ("CostsAndDrafts", "Draft"): "p.granted",
    ("TurnObservation", "Observe"): "p.view",
    ("TurnObservation", "LeakCheck"): ("p.worlds", "p.view"),
}


def guards(cov: Coverage) -> list[tuple[str, str, PointCoverage, bool]]:
    """(module, action, point, whether it checks the answer) for every guard of MODULES."""
    out = []
    for (module, action), ac in cov.actions.items():
        if module not in MODULES:
            continue
        markers = ANSWERS.get((module, action), ())
        markers = (markers,) if isinstance(markers, str) else markers
        for p in ac.points.values():
            if p.role == GUARD:
                out.append((module, action, p, bool(markers) and (
                    PROFILE in location(p.key)
                    or any(m in point_text(cov.texts, p.key) for m in markers))))
    return out


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Coverage:
    out = tmp_path_factory.mktemp("coverage")
    paths = [p for seed in (1, 2, 3) for p in composition.generate(out / str(seed), seed)]
    return cover_traces(paths, ROOT / "spec")


def test_every_refusal_guard_is_false_on_a_rejected_step_of_every_seed(tmp_path: Path) -> None:
    for seed in (1, 2, 3):
        cov = cover_traces(composition.generate(tmp_path / str(seed), seed), ROOT / "spec")
        holes = [f"{m}.{a} {location(p.key)} {point_text(cov.texts, p.key)}"
                 for m, a, p, answer in guards(cov) if not answer and not p.covered]
        assert not holes, (seed, holes)
        assert {m for m, _, _, _ in guards(cov)} == MODULES


def test_no_answer_guard_is_refused_and_every_one_is_checked(seeded: Coverage) -> None:
    """The scenarios never refuse a correct answer; every answer guard is reached."""
    answers = [(m, a, p) for m, a, p, answer in guards(seeded) if answer]
    assert {(m, a) for m, a, _ in answers} == set(ANSWERS)
    for m, a, p in answers:
        assert p.accepted_true > 0, (m, a, location(p.key))
        assert p.rejected_false == 0, (m, a, location(p.key))


def test_every_answer_guard_is_false_on_a_golden_violation() -> None:
    expected = json.loads((GOLDEN / "expected.json").read_text(encoding="utf-8"))
    violations = [GOLDEN / name for name, v in expected.items() if v["verdict"] == "violation"]
    cov = cover_traces(violations, ROOT / "spec")
    answers = [(m, a, p) for m, a, p, answer in guards(cov) if answer]
    # a conjunct of the reading two queries share (TurnViewOK: Observe and LeakCheck) is
    # shown catching a wrong answer once, whichever query gave it
    caught = {(m, location(p.key)) for m, _, p in answers if p.accepted_false}
    missed = [f"{m}.{a} {location(p.key)} {point_text(cov.texts, p.key)}"
              for m, a, p in answers if (m, location(p.key)) not in caught]
    assert not missed


def test_the_table_refuses_a_view_for_no_seat() -> None:
    table = new_table()
    assert table.turn_view("SideA", RULES).seat == "SideA"
    with pytest.raises(CompositionError) as err:
        table.turn_view("SideZ", RULES)
    assert err.value.code == "unknown_seat"
