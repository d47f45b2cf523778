"""The zone-library scenario family (``ZoneLibrary``): it conforms, and it catches the bugs
the two-seat profile cannot show (access, insertion order, capacity, custody, stale plans)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import harness.zones.collection as coll
from harness.scenarios import library
from tlaconf.replay import replay_trace
from tlaconf.replay.backend import get_backend

SPEC = Path(__file__).resolve().parents[2] / "spec"


def _replay(path: Path) -> Any:
    return replay_trace(path, SPEC, get_backend("embedded"))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_scenarios_conform(tmp_path: Path, seed: int) -> None:
    (path,) = library.generate(tmp_path, seed)
    result = _replay(path)
    assert result.verdict == "conforms", result.failure
    assert result.steps > 60


def _lifo_any(zone: Any, entries: tuple[Any, ...]) -> None:
    for e in entries:
        if e not in zone.members:
            raise coll.ZoneError("not_in_source", "missing")


def _capacity_off_by_one(original: Callable[..., Any]) -> Callable[..., Any]:
    def add(zone: Any, t: Any) -> Any:
        spec = zone.spec
        if spec.capacity is not None and zone.count + len(t.entries) == spec.capacity + 1:
            return original(coll.replace(zone, spec=spec.with_(capacity=None)), t)
        return original(zone, t)
    return add


def _top_not_reversed(original: Callable[..., Any]) -> Callable[..., Any]:
    def add(zone: Any, t: Any) -> Any:
        if t.insert == "top" and len(t.entries) > 1:
            t = coll.replace(t, entries=tuple(reversed(t.entries)))
        return original(zone, t)
    return add


def _no_stale_check(collection: Any, plan: Any, arrive: Any = None) -> Any:
    return plan.result


BUGS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "access ignored": ("_taken", lambda orig: _lifo_any),
    "capacity off by one": ("_add", _capacity_off_by_one),
    "top insertion not reversed": ("_add", _top_not_reversed),
    "stale plan committed": ("commit_transfer", lambda orig: _no_stale_check),
}


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_a_planted_bug_is_a_violation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      bug: str) -> None:
    name, make = BUGS[bug]
    target = library if name == "commit_transfer" else coll
    monkeypatch.setattr(target, name, make(getattr(target, name)))
    (path,) = library.generate(tmp_path, 1)
    assert _replay(path).verdict == "violation"
