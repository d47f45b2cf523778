"""KeywordLayering scenarios: registrations, acquisitions (together and apart), losses, resolves."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.composition.errors import CompositionError
from harness.composition.keywords import KeywordEffect, KeywordState, LayeredEffect
from harness.scenarios.composition.common import Golden, Request, Script, keep, record_walk
from tlaconf.values import from_python

CATALOG: dict[str, tuple[KeywordEffect, ...]] = {
    "ward": (KeywordEffect("shield", 2), KeywordEffect("mark", 1)),
    "haste": (KeywordEffect("speed", 1),),
    "aura": (KeywordEffect("glow", 3), KeywordEffect("buff", 2), KeywordEffect("tag", 2)),
    "echo": (KeywordEffect("copy", 2),),
}
OBJECTS = (11, 12, 13, 14)


@dataclass(frozen=True)
class Register:
    keyword: str
    effects: tuple[KeywordEffect, ...]
    label = "Register"

    def params(self) -> dict[str, Any]:
        return {"keyword": self.keyword, "effects": [e.value() for e in self.effects]}


@dataclass(frozen=True)
class Acquire:
    keyword: str
    sources: frozenset[int]
    label = "Acquire"

    def params(self) -> dict[str, Any]:
        return {"keyword": self.keyword, "sources": set(self.sources)}


@dataclass(frozen=True)
class Lose:
    keyword: str
    source: int
    label = "Lose"

    def params(self) -> dict[str, Any]:
        return {"keyword": self.keyword, "source": self.source}


@dataclass(frozen=True)
class Resolve:
    """The product asks for the layered order; ``order`` is what the registry answered."""

    order: tuple[LayeredEffect, ...]
    label = "Resolve"

    def params(self) -> dict[str, Any]:
        return {"order": [e.value() for e in self.order]}


KeywordRequest = Register | Acquire | Lose | Resolve


@dataclass
class KeywordMachine:
    """``KeywordLayering``: the registry, the grants and the acquisition clock."""

    state: KeywordState = field(default_factory=KeywordState)
    module = "KeywordLayering"

    def apply(self, r: KeywordRequest) -> bool:
        try:
            match r:
                case Register():
                    self.state = self.state.register(r.keyword, r.effects)
                case Acquire():
                    self.state = self.state.acquire(r.keyword, r.sources)
                case Lose():
                    self.state = self.state.lose(r.keyword, r.source)
                case Resolve():
                    pass
        except CompositionError:
            return False
        return True

    def resolve(self) -> Resolve:
        return Resolve(self.state.resolve())

    def variables(self) -> dict[str, Any]:
        return {"registry": self.state.registry.value(),
                "grants": {from_python(g.value()) for g in self.state.grants},
                "clock": self.state.clock}


#: the requests every walk makes first, one per refusal guard: an acquisition of a keyword
#: not registered, a second registration, an acquisition by nobody, one by a holder, a loss
#: of a keyword not held (then a legal one)
SITUATIONS: tuple[KeywordRequest, ...] = (
    Acquire("ward", frozenset({11})), Register("ward", CATALOG["ward"]),
    Register("ward", CATALOG["ward"]), Acquire("ward", frozenset()),
    Acquire("ward", frozenset({11})), Acquire("ward", frozenset({11, 12})), Lose("ward", 12),
    Lose("ward", 11),
)


def requests(rng: random.Random, m: KeywordMachine, steps: int) -> Iterator[Request]:
    """The situations, then registrations (some twice), acquisitions (some by holders, of
    unknown keywords, by nobody), losses (some of keywords not held) and a resolve after
    most steps."""
    yield from SITUATIONS
    names = list(CATALOG)
    for _ in range(steps):
        roll = rng.random()
        if roll < 0.2:
            name = rng.choice(names)
            yield Register(name, CATALOG[name])
        elif roll < 0.65:
            sources = frozenset(o for o in OBJECTS if rng.random() < 0.4)
            yield Acquire(rng.choice(names), sources)
        else:
            yield Lose(rng.choice(names), rng.choice(OBJECTS))
        if rng.random() < 0.7:
            yield m.resolve()


def walk(rng: random.Random) -> tuple[KeywordMachine, Iterator[Request]]:
    m = KeywordMachine()
    return m, requests(rng, m, 40)


def _ties() -> tuple[Script, KeywordMachine]:
    """A, B, C registered; A acquired by 11 and 12 together, then by 13; B, C by 11."""
    m = KeywordMachine()
    s = Script(m)
    s.do(Register("A", (KeywordEffect("a1", 1), KeywordEffect("a2", 1))))
    s.do(Register("B", (KeywordEffect("b1", 1),)))
    s.do(Register("C", (KeywordEffect("c1", 2),)))
    s.do(Acquire("A", frozenset({11, 12}))).do(Acquire("A", frozenset({13})))
    s.do(Acquire("B", frozenset({11}))).do(Acquire("C", frozenset({11})))
    return s, m


def _swapped(m: KeywordMachine, i: int) -> Resolve:
    order = list(m.state.resolve())
    order[i], order[i + 1] = order[i + 1], order[i]
    return Resolve(tuple(order))


def golden() -> Golden:
    """A conforming trace and one violation per ordering key and per registry rule."""
    out: Golden = {}
    s, m = _ties()
    s.do(m.resolve()).do(Register("A", ()))                      # registered twice: rejected
    s.do(Acquire("A", frozenset({12, 14})))                      # 12 holds A: rejected
    s.do(Acquire("Z", frozenset({11}))).do(Acquire("B", frozenset()))  # unknown, nobody
    s.do(Lose("B", 12)).do(Lose("A", 12)).do(m.resolve())
    out["keywords-conforming.trace.jsonl"] = (s, None, "")
    # The resolved order of _ties(): A/11/a1 A/11/a2 A/12/a1 A/12/a2 A/13/a1 A/13/a2 B C.
    for name, i, conjunct in (
        ("keywords-active-order", 0, "a.activeOrder < b.activeOrder"),
        ("keywords-source-id", 1, "a.source <= b.source"),
        ("keywords-acquisition-time", 3, "a.acquired <= b.acquired"),
        ("keywords-registration-order", 5, "a.registration <= b.registration"),
        ("keywords-layer", 6, "a.layer <= b.layer"),
    ):
        s, m = _ties()
        out[f"{name}.trace.jsonl"] = (s, s.bug(_swapped(m, i), "accepted", keep), conjunct)
    s, m = _ties()
    step = s.bug(Resolve(m.state.resolve()[:-1]), "accepted", keep)
    out["keywords-effect-missing.trace.jsonl"] = (
        s, step, "Len(order) = Cardinality(GrantedEffects(registry, grants))")
    s, m = _ties()
    resolved = m.state.resolve()
    step = s.bug(Resolve((*resolved[:-1], resolved[-2])), "accepted", keep)
    out["keywords-effect-listed-twice.trace.jsonl"] = (
        s, step, "{order[i] : i \\in 1..Len(order)} = GrantedEffects(registry, grants)")
    s, m = _ties()

    def regranted(state: dict[str, Any]) -> None:
        state["clock"] = 5
        state["grants"] = state["grants"] | {from_python(
            {"keyword": "A", "source": 11, "acquired": 5})}
    step = s.bug(Acquire("A", frozenset({11})), "accepted", regranted)
    out["keywords-acquired-twice.trace.jsonl"] = (
        s, step, "~Held(p.keyword, s)")
    s, m = _ties()
    step = s.bug(Acquire("B", frozenset({12})), "rejected", keep)
    out["keywords-legal-acquire-refused.trace.jsonl"] = (s, step, None)
    return out




def generate(out_dir: Path, seed: int) -> list[Path]:
    """This helper's scenario trace for ``seed``."""
    return [record_walk(out_dir, "keywords", seed, walk)]
