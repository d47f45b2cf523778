"""Seat views (``SeatViews``): the scenarios conform, and the bugs that the set-level
``Observation`` mapping hid are violations: a revelation kept across a deal or a draw,
order shown where it is hidden, an unidentified entry named in a layout, and a leak
check that skips a world class, forgets faces or does not report a leak."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import harness.profile as profile
import harness.zones.observation as observation
from harness.scenarios import golden_views, views
from harness.seat_views import LeakCheck, apply_view_request, ordered_view
from tlaconf.replay import replay_trace
from tlaconf.replay.backend import get_backend

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"


def _verdicts(paths: list[Path]) -> list[str]:
    return [replay_trace(p, SPEC, get_backend("embedded")).verdict for p in paths]


def test_the_scenarios_conform(tmp_path: Path) -> None:
    paths = views.generate(tmp_path, 2)
    assert _verdicts(paths) == ["conforms", "conforms"]


def test_a_leak_check_records_every_world_and_its_verdict() -> None:
    state = views.endgame()
    _, out = apply_view_request(state, LeakCheck("SideA"))
    # two deck cards, SideB's deck card and hand card hidden: SideA's deck order, then all
    # 4! - 1 relabellings of the hidden identities
    assert out.accepted and out.params["verdict"] == "none"
    assert len(out.params["worlds"]) == 1 + 23
    assert all(w["view"] == out.params["view"] for w in out.params["worlds"])
    _, leaky = apply_view_request(state, LeakCheck("SideA", view=views.storage_order_view,
                                                   actions=views.peeking_actions))
    assert leaky.params["verdict"] == "leak" and leaky.params["observer"] == "projection"
    _, refused = apply_view_request(state, LeakCheck("SideC"))
    assert not refused.accepted


def test_a_view_masks_unidentified_entries_in_a_shown_layout() -> None:
    state = views.endgame()
    state, _ = profile.apply(state, profile.Flip(12, "Down"))
    assert ordered_view(state, "SideB")["Play"] == {
        "count": 1, "ids": set(), "listed": [], "shown": True, "layout": [0]}
    assert ordered_view(state, "SideA")["SideA.Deck"]["shown"] is False
    objective = ordered_view(state, "SideA")["SideA.Objective"]
    assert objective["shown"] and set(objective["layout"]) == {-1}


def _keep_reveals_on_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    original = profile._apply

    def apply(state: Any, r: Any) -> Any:
        new, extra, result = original(state, r)
        if isinstance(r, profile.Deal):
            new = profile.replace(new, revealed=state.revealed)
        return new, extra, result
    monkeypatch.setattr(profile, "_apply", apply)


def _keep_reveals_on_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    original = profile._move

    def move(state: Any, t: Any) -> Any:
        return profile.replace(original(state, t), revealed=state.revealed)
    monkeypatch.setattr(profile, "_move", move)


def _order_unmasked(monkeypatch: pytest.MonkeyPatch) -> None:
    original = observation.observe

    def observe(collection: Any, seat: str, revelations: Any = ()) -> Any:
        views = dict(original(collection, seat, revelations))
        for name, v in views.items():
            if v.order is not None:
                views[name] = observation.replace(v, order=collection.zones[name].top_first)
        return views
    monkeypatch.setattr(observation, "observe", observe)
    import harness.seat_views as seat_views
    monkeypatch.setattr(seat_views, "observe", observe)


def _bag_order_not_permuted(monkeypatch: pytest.MonkeyPatch) -> None:
    original = observation._hidden_order_variants

    def variants(collection: Any, seat: str, rng: Any) -> Any:
        return ((w, c) for w, c in original(collection, seat, rng) if not w.startswith("bag"))
    monkeypatch.setattr(observation, "_hidden_order_variants", variants)


def _faces_not_relabelled(monkeypatch: pytest.MonkeyPatch) -> None:
    original = observation._relabel
    monkeypatch.setattr(observation, "_relabel", lambda c, pi: observation.replace(
        original(c, pi), faces=c.faces))


def _leaks_never_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    original = observation.assert_no_information_leak

    def check(*args: Any, **kwargs: Any) -> int:
        try:
            return original(*args, **kwargs)
        except observation.InformationLeak:
            return 0
    import harness.seat_views as seat_views
    monkeypatch.setattr(seat_views, "assert_no_information_leak", check)


BUGS: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "a revelation kept across a deal": _keep_reveals_on_deal,
    "a revelation kept across a draw or move": _keep_reveals_on_draw,
    "an unidentified entry named in a shown order": _order_unmasked,
    "the leak check skips bag order": _bag_order_not_permuted,
    "the leak check forgets faces when it relabels": _faces_not_relabelled,
    "the leak check never reports a leak": _leaks_never_raised,
}


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_a_planted_bug_is_a_violation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      bug: str) -> None:
    BUGS[bug](monkeypatch)
    assert "violation" in _verdicts(views.generate(tmp_path, 1))


def test_golden_traces_are_up_to_date(tmp_path: Path) -> None:
    written = golden_views.write_golden(tmp_path)
    folder = ROOT / "traces" / "views"
    names = {p.name for p in written} | {"expected.json"}
    assert names == {p.name for p in folder.iterdir()}
    for name in names:
        assert (tmp_path / "views" / name).read_bytes() == (folder / name).read_bytes(), name
    expected = json.loads((folder / "expected.json").read_text())
    assert {v["verdict"] for v in expected.values()} == {"conforms", "violation"}
