"""The readings the seed decides: a view with one field more than its reading names is a
violation (AbilityActivity's View, whose two view shapes keep it out of the golden corpus)."""

from __future__ import annotations

from pathlib import Path

from harness.abilities.machines import ActivityMachine, Observe, View
from harness.scenarios.golden_abilities import BY_ID, Script, _context
from tlaconf.replay import get_backend, replay_trace

ROOT = Path(__file__).resolve().parents[2]


def _viewed(tmp_path: Path, extra: dict[str, object]) -> str:
    m = ActivityMachine(dict(BY_ID))
    s = Script(m).do(Observe(_context(False, frozenset())))  # strike's source face down
    shown = m.show(View("strike", "SideA"))
    s.steps.append(("View", {**shown.params(), "view": {**shown.shown, **extra}}, "accepted",
                    m.variables()))
    path = tmp_path / "view.trace.jsonl"
    s.write(path, "view")
    return replay_trace(path, ROOT / "spec", get_backend("embedded")).verdict


def test_an_ability_view_that_leaks_through_an_extra_field_is_a_violation(
        tmp_path: Path) -> None:
    assert _viewed(tmp_path, {}) == "conforms"
    assert _viewed(tmp_path, {"metadata": {"cost": 3}}) == "violation"
    assert _viewed(tmp_path, {"hiddenInstructions": [81, 82]}) == "violation"
