"""TargetChoice scenarios: board moves, target-choice views, action enumeration (refused when
a cap truncates), and choices (listed, legal but unlisted, illegal)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from harness.composition.targets import (
    ActionDefinition,
    ConcreteAction,
    TargetChoices,
    Targets,
    TargetSpec,
    enumerate_actions,
    is_target_tuple,
    target_choices,
)
from harness.scenarios.composition.common import (
    Golden,
    Move,
    Request,
    Script,
    keep,
    record_walk,
)
from harness.zones import Transfer, ZoneCollection, ZoneError, define_zones, hand, transfer
from tlaconf.values import from_python

ZONES = ("SideA.Field", "SideB.Field", "Reserve")
SPECS = {
    "foe": TargetSpec("foe", ("SideB.Field",), 1, cap=4),
    "pair": TargetSpec("pair", ("SideA.Field", "SideB.Field"), 2, cap=6),
    "any2": TargetSpec("any2", ("SideA.Field", "SideB.Field"), 2, distinct=False, cap=30),
}
DEFINITIONS = (
    ActionDefinition("pass"),
    ActionDefinition("strike", "targets", "foe"),
    ActionDefinition("swap", "targets", "pair"),
    ActionDefinition("fling", "targets", "any2"),
)


def board() -> ZoneCollection:
    return define_zones({"SideA.Field": hand("SideA"), "SideB.Field": hand("SideB"),
                         "Reserve": hand("SideB")},
                        {"SideA.Field": [1, 2], "SideB.Field": [4], "Reserve": [5, 6, 7, 8]})


@dataclass(frozen=True)
class View:
    """``TurnView.targetChoices`` as the library enumerated it."""

    choices: dict[str, TargetChoices]
    label = "View"

    def params(self) -> dict[str, Any]:
        return {"targetChoices": {k: v.value() for k, v in self.choices.items()}}


@dataclass(frozen=True)
class Enumerate:
    """The generic action enumeration's answer: refused, or the concrete actions."""

    refused: bool
    actions: frozenset[ConcreteAction]
    label = "Enumerate"

    def params(self) -> dict[str, Any]:
        return {"refused": self.refused,
                "actions": {from_python(a.value()) for a in self.actions}}


@dataclass(frozen=True)
class Choose:
    action: str
    targets: Targets
    label = "Choose"

    def params(self) -> dict[str, Any]:
        return {"action": self.action, "targets": list(self.targets)}


TargetRequest = Move | View | Enumerate | Choose


@dataclass
class TargetMachine:
    """``TargetChoice``: the board (zone transfers) and the accepted choices."""

    zones: ZoneCollection = field(default_factory=board)
    chosen: tuple[ConcreteAction, ...] = ()
    module = "TargetChoice"
    constants: ClassVar[dict[str, Any]] = {
        "TargetSpecs": {k: s.value() for k, s in SPECS.items()},
        "ActionDefinitions": {from_python(d.value()) for d in DEFINITIONS},
    }

    def view(self) -> View:
        return View(target_choices(SPECS, self.zones))

    def enumerate(self) -> Enumerate:
        try:
            return Enumerate(False, enumerate_actions(DEFINITIONS, self.view().choices))
        except ZoneError:
            return Enumerate(True, frozenset())

    def legal(self, r: Choose) -> bool:
        d = next((d for d in DEFINITIONS if d.id == r.action), None)
        if d is None:
            return False
        if d.params == "none":
            return r.targets == ()
        return is_target_tuple(SPECS[d.target_spec_id], self.zones, r.targets)

    def apply(self, r: TargetRequest) -> bool:
        match r:
            case Move():
                try:
                    self.zones = transfer(self.zones, Transfer((r.entry,), r.source,
                                                               r.destination))
                except ZoneError:
                    return False
            case Choose():
                if not self.legal(r):
                    return False
                self.chosen = (*self.chosen, ConcreteAction(r.action, r.targets))
        return True

    def variables(self) -> dict[str, Any]:
        return {"board": {z: set(self.zones.zone(z).members) for z in ZONES},
                "chosen": [c.value() for c in self.chosen]}


def _choice(rng: random.Random, m: TargetMachine) -> Choose:
    d = rng.choice(DEFINITIONS)
    if d.params == "none":
        return Choose(d.id, () if rng.random() < 0.8 else (1,))
    spec = SPECS[d.target_spec_id]
    listed = m.view().choices[spec.id].choices
    roll = rng.random()
    if roll < 0.5 and listed:
        return Choose(d.id, rng.choice(listed))
    entries = sorted(e for z in ZONES for e in m.zones.zone(z).members)
    size = spec.count if roll < 0.9 else spec.count + 1
    return Choose(d.id if rng.random() < 0.95 else "unknown",
                  tuple(rng.choice(entries) for _ in range(size)))


#: illegal requests every walk makes first, one per refusal guard: a move from an unknown
#: zone, to an unknown zone, within one zone, of an entry not in the source; a choice of
#: an unknown action, of targets not legal, of targets for an action that takes none
SITUATIONS: tuple[TargetRequest, ...] = (
    Move(1, "Limbo", "Reserve"), Move(1, "SideA.Field", "Limbo"),
    Move(1, "SideA.Field", "SideA.Field"), Move(4, "SideA.Field", "Reserve"),
    Choose("unknown", ()), Choose("strike", (1,)), Choose("pass", (4,)),
)


def requests(rng: random.Random, m: TargetMachine, steps: int) -> Iterator[Request]:
    """The situations, then moves (some from the wrong zone), views, enumerations and
    choices."""
    yield from SITUATIONS
    for _ in range(steps):
        roll = rng.random()
        if roll < 0.3:
            entry = rng.randint(1, 8)
            where = m.zones.location(entry)
            source = where if where is not None and rng.random() < 0.85 else rng.choice(ZONES)
            zones = (*ZONES, "Limbo") if rng.random() < 0.1 else ZONES
            yield Move(entry, source if rng.random() < 0.95 else "Limbo", rng.choice(zones))
            yield m.view()
            yield m.enumerate()
        else:
            yield _choice(rng, m)


def walk(rng: random.Random) -> tuple[TargetMachine, Iterator[Request]]:
    m = TargetMachine()
    return m, requests(rng, m, 50)


def generate(out_dir: Path, seed: int) -> list[Path]:
    """This helper's scenario trace for ``seed``."""
    return [record_walk(out_dir, "targets", seed, walk)]


def _grown() -> tuple[Script, TargetMachine]:
    """5 and 6 move to SideB.Field: foe has 3 choices, pair 12 (cap 6: truncated)."""
    m = TargetMachine()
    s = Script(m).do(Move(5, "Reserve", "SideB.Field")).do(Move(6, "Reserve", "SideB.Field"))
    return s, m


def _view_with(m: TargetMachine, spec: str, choices: list[Targets],
               truncated: bool | None = None) -> View:
    honest = m.view().choices
    old = honest[spec]
    flag = old.truncated if truncated is None else truncated
    return View({**honest, spec: TargetChoices(tuple(choices), flag)})


#: the innermost failing part when two tuples are out of canonical order
LEX = "\\E i \\in 1..Len(a) : a[i] < b[i] /\\ \\A j \\in 1..(i - 1) : a[j] = b[j]"


def golden() -> Golden:
    """A conforming trace; one violation per truncation, order, cap and refusal rule."""
    out: Golden = {}
    s, m = _grown()
    s.do(m.view()).do(m.enumerate()).do(Choose("strike", (5,)))
    s.do(Choose("swap", (6, 5))).do(Choose("swap", (5, 5))).do(Choose("strike", (1,)))
    s.do(Move(6, "SideB.Field", "Reserve")).do(Move(6, "SideB.Field", "Reserve"))
    s.do(Move(2, "SideA.Field", "SideB.Field")).do(Move(2, "SideB.Field", "SideB.Field"))
    s.do(Move(5, "SideB.Field", "Reserve")).do(m.view()).do(m.enumerate())
    s.do(Choose("pass", ())).do(Choose("pass", (1,))).do(Choose("nope", ()))
    out["targets-conforming.trace.jsonl"] = (s, None, "")
    s, m = _grown()
    pair = list(m.view().choices["pair"].choices)
    step = s.bug(_view_with(m, "pair", pair, truncated=False), "accepted", keep)
    out["targets-truncation-hidden.trace.jsonl"] = (
        s, step, "view.truncated <=> CappedCount(spec, board) > spec.cap")
    s, m = _grown()
    step = s.bug(_view_with(m, "pair", [*pair, (5, 6)]), "accepted", keep)
    out["targets-over-the-cap.trace.jsonl"] = (
        s, step, "Len(view.choices) = IF CappedCount(spec, board) > spec.cap THEN spec.cap "
        "ELSE CappedCount(spec, board)")
    s, m = _grown()
    step = s.bug(_view_with(m, "pair", [*pair[:-1], (1, 9)]), "accepted", keep)
    out["targets-illegal-tuple-listed.trace.jsonl"] = (s, step, "t[i] \\in Candidates(spec, board)")
    s, m = _grown()
    step = s.bug(_view_with(m, "pair", [*pair[:-1], (2,)]), "accepted", keep)
    out["targets-short-tuple-listed.trace.jsonl"] = (s, step, "Len(t) = spec.count")
    s, m = _grown()
    step = s.bug(_view_with(m, "pair", [*pair[:-1], (5, 5)]), "accepted", keep)
    out["targets-repeated-target-listed.trace.jsonl"] = (
        s, step, "t[i] # t[j]")
    s, m = _grown()
    step = s.bug(_view_with(m, "pair", [pair[1], pair[0], *pair[2:]]), "accepted", keep)
    out["targets-not-canonical-order.trace.jsonl"] = (
        s, step, LEX)
    s, m = _grown()
    step = s.bug(_view_with(m, "pair", [*pair[:-1], (6, 5)]), "accepted", keep)
    out["targets-skips-a-choice.trace.jsonl"] = (s, step, LEX)
    s, m = _grown()
    step = s.bug(_view_with(m, "pair", [*pair[:3], pair[4], pair[3], pair[5]]), "accepted", keep)
    out["targets-ordered-by-the-second-target.trace.jsonl"] = (s, step, LEX)
    s, m = _grown()
    step = s.bug(View({k: v for k, v in m.view().choices.items() if k != "any2"}), "accepted",
                 keep)
    out["targets-spec-missing-from-view.trace.jsonl"] = (
        s, step, "DOMAIN p.targetChoices = DOMAIN TargetSpecs")
    s, m = _grown()
    step = s.bug(Enumerate(True, frozenset({ConcreteAction("pass")})), "accepted", keep)
    out["targets-refused-with-actions.trace.jsonl"] = (
        s, step, "result.actions = {}")
    s, m = _grown()
    view = m.view().choices
    partial = frozenset(ConcreteAction("swap", t) for t in view["pair"].choices)
    step = s.bug(Enumerate(False, partial), "accepted", keep)
    out["targets-partial-surface-enumerated.trace.jsonl"] = (
        s, step, "result.refused <=> TruncatedFor(defs, specs, board) # {}")
    m = TargetMachine()
    s = Script(m)
    honest = m.enumerate()
    step = s.bug(Enumerate(False, honest.actions - {ConcreteAction("pass")}), "accepted", keep)
    out["targets-action-missing.trace.jsonl"] = (
        s, step, "result.actions = ActionSurface(defs, specs, board)")
    s, m = _grown()
    step = s.bug(Choose("swap", (5, 5)), "accepted",
                 lambda st: st.update(chosen=[{"action": "swap", "targets": [5, 5]}]))
    out["targets-repeated-target-accepted.trace.jsonl"] = (
        s, step, "p.targets \\in TargetTuples(TargetSpecs[Definition(p.action).targetSpecId], "
        "board)")
    s, m = _grown()
    step = s.bug(Choose("swap", (6, 5)), "rejected", keep)            # legal, beyond the cap
    out["targets-legal-unlisted-refused.trace.jsonl"] = (s, step, None)
    return out
