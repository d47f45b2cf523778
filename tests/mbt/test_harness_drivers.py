"""The harness drivers of the zone library, the seat views and the composition helpers:
each conforms on a short seeded run, and a bug planted in the code it drives is found."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import harness.composition.durations as durations
import harness.library_driver as library_driver
import harness.seat_views as seat_views
import harness.zones.collection as collection
from harness import composition_drivers, drivers
from harness.zones import Access
from tlaconf.hypothesis import Driver, Options, run
from tlaconf.replay import get_backend, replay_trace

SPEC = Path(__file__).resolve().parents[2] / "spec"
NEW: dict[str, Callable[[], Driver]] = {
    "views": drivers.views,
    "library": library_driver.library,
    **{name: getattr(composition_drivers, name) for name in (
        "phase_runner", "duration_clock", "keyword_layering", "response_window",
        "costs_and_drafts", "deck_validation", "target_choice", "turn_observation")},
}


def _options(tmp: Path, **kw: Any) -> Options:
    return Options(**{"steps": 6, "examples": 2, "out_dir": tmp / "out", "database": None,
                      "shrink": False, **kw})


@pytest.mark.parametrize("name", sorted(NEW))
def test_each_driver_conforms_on_a_short_run(name: str, tmp_path: Path) -> None:
    outcome = run(NEW[name](), SPEC, _options(tmp_path))
    assert outcome.found is None, outcome.found
    assert outcome.steps > 0


def _found(driver: Driver, tmp: Path, **kw: Any) -> str:
    """The failing conjunct's reason (replayed from the written trace)."""
    outcome = run(driver, SPEC, _options(tmp, **kw))
    assert outcome.found is not None, "the planted bug was not found"
    again = replay_trace(outcome.found.trace, SPEC, get_backend("embedded"))
    assert again.verdict == "violation" and again.failure is not None
    return again.failure.reason


def test_a_library_that_draws_the_top_of_a_fifo_zone_is_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    real = collection.drawable

    def top_always(c: Any, source: str, count: int, seed: int | None) -> Any:
        taken = real(c, source, count, seed)
        zone = c.zone(source)
        return zone.top_first[:count] if zone.spec.access is Access.FIFO else taken

    monkeypatch.setattr(collection, "drawable", top_always)
    reason = _found(library_driver.library(), tmp_path, examples=40, steps=8)
    assert "Draw" in reason or "Deal" in reason  # deals draw through it too


def test_a_seat_view_that_hides_slot_layouts_is_found(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    real = seat_views.ordered_view

    def no_slots(state: Any, seat: str) -> dict[str, dict[str, Any]]:
        view = real(state, seat)
        for v in view.values():
            if v["layout"] and -1 in v["layout"]:
                v["shown"], v["layout"] = False, []
        return view

    monkeypatch.setattr(seat_views, "ordered_view", no_slots)
    reason = _found(drivers.views(), tmp_path, examples=30, steps=6)
    assert "Observe(p)" in reason or "LeakCheck(p)" in reason


def test_a_duration_clock_that_reuses_an_active_id_is_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    def add(self: Any, d: Any) -> Any:
        if d.unit not in durations.UNITS or d.remaining < 1:
            raise durations.CompositionError("refused", "refused")
        kept = frozenset(a for a in self.active if a.id != d.id)
        return durations.Durations(kept | {dataclasses.replace(d, created=self.added + 1)},
                                   self.added + 1)

    monkeypatch.setattr(durations.Durations, "add", add)
    reason = _found(composition_drivers.duration_clock(), tmp_path, examples=40, steps=8)
    assert "Add" in reason
