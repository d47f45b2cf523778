"""The readings the seed decides: a view with one field more than its reading names is a
violation (AbilityActivity's View, whose two view shapes keep it out of the golden corpus)."""

from __future__ import annotations

import shutil
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


GOLDEN = ROOT / "traces"


def _old_spec(tmp_path: Path, file: str, *edits: tuple[str, str]) -> Path:
    """A copy of spec/ with ``file`` read as the earlier reading did (each edit must apply)."""
    spec = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", spec)
    path = spec / file
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return spec


def _verdicts(spec: Path, traces: dict[str, Path]) -> dict[str, tuple[str, int | None]]:
    out = {}
    for name, path in traces.items():
        r = replay_trace(path, spec, get_backend("embedded"))
        out[name] = (r.verdict, None if r.failure is None else r.failure.step)
    return out


def _golden(*names: str) -> dict[str, Path]:
    return {n: next(GOLDEN.glob(f"*/{n}.trace.jsonl")) for n in names}


def test_fifo_traces_fail_under_the_stack_reading(tmp_path: Path) -> None:
    traces = _golden("turn-views-fifo-conforming", "turn-views-fifo-read-as-a-stack")
    assert _verdicts(ROOT / "spec", traces) == {
        "turn-views-fifo-conforming": ("conforms", None),
        "turn-views-fifo-read-as-a-stack": ("violation", 1)}
    stack = _old_spec(tmp_path, "conformance/TurnObservation.tla", (
        "    /\\ Leaves(p.source, p.entry)\n",
        '    /\\ Policies[p.source].access \\in {"anyIndex", "slots"} '
        "\\/ zones[p.source][1] = p.entry\n"))
    assert _verdicts(stack, traces) == {"turn-views-fifo-conforming": ("violation", 1),
                                        "turn-views-fifo-read-as-a-stack": ("conforms", None)}


def test_extra_field_leaks_conform_without_the_exact_field_checks(tmp_path: Path) -> None:
    leaks = _golden("turn-views-deck-order-field-leak", "turn-views-zone-entries-field-leak",
                    "turn-views-slot-occupant-field-leak", "turn-views-target-choices-field-leak",
                    "stored-order-field-leak", "observe-contents-field-leak")
    assert {v for v, _ in _verdicts(ROOT / "spec", leaks).values()} == {"violation"}
    turn = _old_spec(tmp_path / "t", "conformance/TurnObservation.tla", *(
        (f"    /\\ {c}\n", "") for c in (
            "DOMAIN p.view = TurnViewFields",
            "\\A z \\in DOMAIN p.view.zones : DOMAIN p.view.zones[z] = ZoneViewFields",
            "\\A s \\in DOMAIN p.view.targetChoices : DOMAIN p.view.targetChoices[s] = "
            "ChoiceViewFields")), (
        "    /\\ \\A z \\in DOMAIN p.view.zones : \\A i \\in DOMAIN p.view.zones[z].slots :\n"
        "           DOMAIN p.view.zones[z].slots[i] = SlotViewFields\n", ""))
    seat = _old_spec(tmp_path / "s", "conformance/SeatViews.tla", (
        "    /\\ \\A z \\in ZoneInstances4 : DOMAIN p.view[z] = ZoneViewFields\n", ""))
    look = _old_spec(tmp_path / "o", "conformance/Observation.tla",
                     ("    /\\ \\A z \\in ZoneInstances4 : DOMAIN p.view[z] \\in ZoneViewFields\n",
                      ""))
    # the slot leak lists the slot row alone (one record type for every zone's slots, as a
    # typed checker wants), so the old reading refuses it too, for the missing zones
    turn_leaks = [n for n in leaks if n.startswith("turn-views") and "slot" not in n]
    for spec, names in ((turn, turn_leaks), (seat, ["stored-order-field-leak"]),
                        (look, ["observe-contents-field-leak"])):
        got = _verdicts(spec, {n: leaks[n] for n in names})
        assert set(got.values()) == {("conforms", None)}, got


def test_per_response_nesting_fails_under_either_constant(tmp_path: Path) -> None:
    trace = _golden("responses-nesting-decided-per-response")
    assert _verdicts(ROOT / "spec", trace) == {
        "responses-nesting-decided-per-response": ("conforms", None)}
    for constant, step in (("FALSE", 2), ("TRUE", 3)):
        spec = _old_spec(tmp_path / constant, "conformance/ResponseWindow.tla",
                         ("AfterResponse(SeatOrder, p.nested,",
                          f"AfterResponse(SeatOrder, {constant},"))
        assert _verdicts(spec, trace) == {"responses-nesting-decided-per-response":
                                          ("violation", step)}


def test_creation_order_traces_fail_under_the_id_reading(tmp_path: Path) -> None:
    traces = _golden("durations-tie-in-creation-order", "durations-tie-broken-by-id")
    assert _verdicts(ROOT / "spec", traces) == {
        "durations-tie-in-creation-order": ("conforms", None),
        "durations-tie-broken-by-id": ("violation", 3)}
    by_id = _old_spec(tmp_path, "reference-profile/rev2/Durations.tla",
                      ("a.order = b.order /\\ a.created < b.created",
                       "a.order = b.order /\\ a.id < b.id"))
    assert _verdicts(by_id, traces) == {"durations-tie-in-creation-order": ("violation", 3),
                                        "durations-tie-broken-by-id": ("conforms", None)}
