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
from tlaconf.replay.determinism import seed_independence

SPEC = Path(__file__).resolve().parents[2] / "spec"


def _replay(path: Path) -> Any:
    return replay_trace(path, SPEC, get_backend("embedded"))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_scenarios_conform(tmp_path: Path, seed: int) -> None:
    path, seeded = library.generate(tmp_path, seed)
    result = _replay(path)
    assert result.verdict == "conforms", result.failure
    assert result.steps > 60
    assert _replay(seeded).verdict == "conforms"


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


def _bag_without_seed(original: Callable[..., Any]) -> Callable[..., Any]:
    def drawable(c: Any, source: str, count: int, seed: Any) -> Any:
        return original(c, source, count, 0 if seed is None else seed)
    return drawable


def _bool_is_a_depth(original: Callable[..., Any]) -> Callable[..., Any]:
    def add(zone: Any, t: Any) -> Any:
        return original(zone, coll.replace(t, insert=1) if t.insert is True else t)
    return add


def _deal_unshuffled(original: Callable[..., Any]) -> Callable[..., Any]:
    def deal(c: Any, source: str, destinations: Any, per: int, **kw: Any) -> Any:
        return original(c, source, destinations, per, face=kw.get("face"))
    return deal


def _batches_one_at_a_time(original: Callable[..., Any]) -> Callable[..., Any]:
    return lambda c, source, destinations, batch, **kw: coll.deal_round_robin(
        c, source, destinations, batch, **kw)


BUGS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "access ignored": ("_taken", lambda orig: _lifo_any),
    "capacity off by one": ("_add", _capacity_off_by_one),
    "top insertion not reversed": ("_add", _top_not_reversed),
    "stale plan committed": ("commit_transfer", lambda orig: _no_stale_check),
    "a bag drawn from without a seed": ("drawable", _bag_without_seed),
    "a bool insert taken for a depth": ("_add", _bool_is_a_depth),
    "a seeded deal that does not shuffle": ("deal_round_robin", _deal_unshuffled),
    "batches dealt one entry at a time": ("deal_batches", _batches_one_at_a_time),
}


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_a_planted_bug_is_a_violation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      bug: str) -> None:
    name, make = BUGS[bug]
    target = library if name in ("commit_transfer", "deal_round_robin", "deal_batches") else coll
    monkeypatch.setattr(target, name, make(getattr(target, name)))
    path, _ = library.generate(tmp_path, 1)
    assert _replay(path).verdict == "violation"


def test_a_bag_sample_that_ignores_its_seed_is_a_determinism_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def seeded(seeds: range) -> list[Path]:
        return [library.seeded(tmp_path / f"s-{s}.trace.jsonl", s) for s in seeds]

    assert seed_independence(seeded(range(1, 4))) == []
    original = coll.drawable
    monkeypatch.setattr(coll, "drawable", lambda c, source, count, seed: original(
        c, source, count, None if seed is None else 0))
    (finding,) = seed_independence(seeded(range(1, 4)))
    assert finding.startswith("ZoneLibrary.Draw: 3 different seeds gave the same result")
