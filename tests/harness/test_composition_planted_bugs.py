"""A planted bug per composition helper: ``tlaconf check`` on its scenarios reports it.

Each test first checks the helper's scenarios as they are (exit 0), then
monkeypatches one bug into the implementation and checks again (exit 1, a
violation in that helper's trace).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from harness.composition import (
    decks,
    durations,
    keywords,
    phases,
    responses,
    targets,
    transactions,
    turn_view,
)
from harness.composition.keywords import LayeredEffect
from harness.zones import ZoneCollection

ROOT = Path(__file__).resolve().parents[2]


def _keywords_by_source_before_time(mp: pytest.MonkeyPatch) -> None:
    def key(e: LayeredEffect) -> tuple[int, int, int, int, int]:
        return (e.layer, e.registration, e.source, e.acquired, e.active_order)
    mp.setattr(keywords, "layer_key", key)


def _responses_unwind_first_in_first_out(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(responses, "unwind", tuple)


def _targets_truncation_dropped(mp: pytest.MonkeyPatch) -> None:
    honest = targets.enumerate_target_choices

    def enumerate_target_choices(spec: targets.TargetSpec, zones: ZoneCollection,
                                 admit: targets.Admit | None = None) -> targets.TargetChoices:
        return targets.TargetChoices(honest(spec, zones, admit).choices, False)
    mp.setattr(targets, "enumerate_target_choices", enumerate_target_choices)


def _durations_expire_by_id(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(durations, "authored_key", lambda d: (d.id,))


def _phases_enter_before_cycle_complete(mp: pytest.MonkeyPatch) -> None:
    honest = phases.transition_events

    def transition_events(*args: Any) -> tuple[phases.PhaseEvent, ...]:
        events = honest(*args)
        return (events[0], events[-1], *events[1:-1])
    mp.setattr(phases, "transition_events", transition_events)


def _decks_copy_exemption_ignored(mp: pytest.MonkeyPatch) -> None:
    honest = decks.copy_violations

    def copy_violations(cards: Any, catalog: Any, rules: decks.DeckRules) -> Any:
        return honest(cards, catalog, replace(rules, copy_exempt=frozenset()))
    mp.setattr(decks, "copy_violations", copy_violations)


def _transactions_priority_reversed(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(transactions, "priority_winner",
               lambda claimants, priority: max(claimants, key=priority.index))


def _turn_view_targets_hidden_entries(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(turn_view, "seat_may_target", lambda *args: True)


BUGS: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "keywords": _keywords_by_source_before_time,
    "responses": _responses_unwind_first_in_first_out,
    "targets": _targets_truncation_dropped,
    "durations": _durations_expire_by_id,
    "phases": _phases_enter_before_cycle_complete,
    "decks": _decks_copy_exemption_ignored,
    "transactions": _transactions_priority_reversed,
    "turn_views": _turn_view_targets_hidden_entries,
}


def check(helper: str, out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    from tlaconf.cli.main import main
    code = main(["check", "--scenarios", f"harness.scenarios.composition.{helper}:generate",
                 "--seed", "1", "--seed", "2", "--seed", "3", "--out", str(out),
                 "--spec", str(ROOT / "spec"), "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("helper", sorted(BUGS))
def test_check_catches_the_planted_bug(helper: str, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, report = check(helper, tmp_path / "clean", capsys)
    assert code == 0, report
    BUGS[helper](monkeypatch)
    code, report = check(helper, tmp_path / "bug", capsys)
    assert code == 1
    verdicts = {t["verdict"] for t in report["traces"]}
    assert "violation" in verdicts and "error" not in verdicts
