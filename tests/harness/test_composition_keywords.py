"""KeywordRegistry / resolveKeywordLayers: every ordering key, the registry rules, the spec."""

from __future__ import annotations

import random

import pytest

from harness.composition.errors import CompositionError
from harness.composition.keywords import (
    Grant,
    KeywordEffect,
    KeywordRegistry,
    KeywordState,
    resolve_keyword_layers,
)
from harness.scenarios.composition.keywords import CATALOG, OBJECTS
from tests.harness.composition_helpers import holds, load
from tlaconf.values import from_python

E = KeywordEffect


def names(order: tuple) -> list[str]:
    return [f"{e.keyword}/{e.source}/{e.effect}" for e in order]


def registry(*kws: tuple[str, tuple[KeywordEffect, ...]]) -> KeywordRegistry:
    r = KeywordRegistry()
    for name, effects in kws:
        r = r.register(name, effects)
    return r


def test_layer_decides_first() -> None:
    r = registry(("A", (E("a", 2),)), ("B", (E("b", 1),)))
    assert names(resolve_keyword_layers(r, frozenset({Grant("A", 1, 1), Grant("B", 2, 2)}))) \
        == ["B/2/b", "A/1/a"]


def test_registration_order_before_acquisition_time() -> None:
    r = registry(("A", (E("a", 1),)), ("B", (E("b", 1),)))
    got = resolve_keyword_layers(r, frozenset({Grant("B", 1, 1), Grant("A", 1, 2)}))
    assert names(got) == ["A/1/a", "B/1/b"]


def test_acquisition_time_before_source_id() -> None:
    r = registry(("A", (E("a", 1),)))
    got = resolve_keyword_layers(r, frozenset({Grant("A", 9, 1), Grant("A", 3, 2)}))
    assert names(got) == ["A/9/a", "A/3/a"]


def test_source_id_then_authored_active_order() -> None:
    r = registry(("A", (E("z", 1), E("y", 1))))
    got = resolve_keyword_layers(r, frozenset({Grant("A", 12, 1), Grant("A", 11, 1)}))
    assert names(got) == ["A/11/z", "A/11/y", "A/12/z", "A/12/y"]
    assert [e.active_order for e in got] == [1, 2, 1, 2]


def test_registry_refuses_twice_and_unknown() -> None:
    r = registry(("A", ()))
    with pytest.raises(CompositionError) as err:
        r.register("A", ())
    assert err.value.code == "duplicate_keyword"
    with pytest.raises(CompositionError) as err:
        r.registration("B")
    assert err.value.code == "unknown_keyword"


def test_acquire_and_lose_rules() -> None:
    s = KeywordState().register("A", (E("a", 1),)).acquire("A", frozenset({1, 2}))
    assert {g.acquired for g in s.grants} == {1} and s.clock == 1
    for bad, code in ((lambda: s.acquire("A", frozenset({2, 3})), "already_held"),
                      (lambda: s.acquire("A", frozenset()), "no_sources"),
                      (lambda: s.acquire("B", frozenset({1})), "unknown_keyword"),
                      (lambda: s.lose("A", 3), "not_held")):
        with pytest.raises(CompositionError) as err:
            bad()
        assert err.value.code == code
    assert {g.source for g in s.lose("A", 1).grants} == {2}


def _random_state(rng: random.Random) -> KeywordState:
    s = KeywordState()
    for name in rng.sample(sorted(CATALOG), len(CATALOG)):
        s = s.register(name, CATALOG[name])
    for _ in range(5):
        name = rng.choice(sorted(CATALOG))
        free = [o for o in OBJECTS if all(g.source != o or g.keyword != name for g in s.grants)]
        if free:
            s = s.acquire(name, frozenset(rng.sample(free, rng.randint(1, len(free)))))
    return s


@pytest.mark.parametrize("seed", range(6))
def test_spec_accepts_the_resolution_and_refuses_any_swap(seed: int) -> None:
    ctx = load("KeywordLayers")
    s = _random_state(random.Random(seed))
    order = [e.value() for e in s.resolve()]
    reg = s.registry.value()
    grants = {from_python(g.value()) for g in s.grants}
    assert holds(ctx, "ResolvedKeywordLayers", order, reg, grants)
    for i in range(len(order) - 1):
        swapped = [*order[:i], order[i + 1], order[i], *order[i + 2:]]
        assert not holds(ctx, "ResolvedKeywordLayers", swapped, reg, grants)
    assert not holds(ctx, "ResolvedKeywordLayers", order[1:], reg, grants)
    assert not holds(ctx, "ResolvedKeywordLayers", order + order[:1], reg, grants)
