"""Seeded ability scenarios, recorded as ``tlaconf-trace`` v1 (one trace per conformance module).

Every walk mixes legal requests with illegal ones (wrong caller, wrong receipt,
receipts of another instance, returning twice, returning with chains open,
finishing out of order, stale windows, renewed source objects, lost offers)
and records rejected requests as ``rejected`` steps with the unchanged state.
The same seed gives byte-identical traces.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from harness.abilities.activity import ActivityContext, ObjectData
from harness.abilities.definitions import AbilityDefinition, ObjectRef, ObjectSource, Provenance
from harness.abilities.engine import AbilityEngine
from harness.abilities.instances import AbilityInstance, Receipt
from harness.abilities.machines import (
    ActivityMachine,
    Advance,
    Begin,
    BoundaryReached,
    Choose,
    Depart,
    EndTurn,
    Finish,
    LifecycleMachine,
    Observe,
    Recognize,
    ResolutionMachine,
    Restore,
    Return,
    Select,
    UseMachine,
    View,
    Withdraw,
)
from harness.abilities.recognition import ConditionResult
from harness.abilities.use import Boundary, UseEvent
from harness.scenarios import situations
from tlaconf.trace.writer import TraceWriter

REVISION = "2"
SEATS = ("SideA", "SideB")
OBJ11, OBJ12, OBJ13 = ObjectRef(11, 1), ObjectRef(12, 1), ObjectRef(13, 1)

#: The sample library the scenarios drive (every origin, kind, condition and use basis).
CATALOG: tuple[AbilityDefinition, ...] = (
    AbilityDefinition("ward", "Conditional", (41, 42), "Printed", Provenance(printed_object=OBJ12),
                      "SideA", {"label": "Ward"}, condition="Trigger", use_basis="Payment",
                      once_per_turn=True),
    AbilityDefinition("rally", "Conditional", (51,), "Granted",
                      Provenance(recipient=OBJ12, effect_creator=OBJ11), "SideA",
                      condition="State", use_basis="OptionalEffect", interrupt=True),
    AbilityDefinition("echo", "Conditional", (61, 62, 63), "Lingering",
                      Provenance(effect_creator=OBJ13), "SideB", condition="Trigger",
                      use_basis="Choice", active_zones=frozenset({"Play", "SideB.Discard"})),
    AbilityDefinition("upkeep", "Conditional", (71,), "Rule", Provenance(rule="Upkeep"),
                      "SideA", condition="State", use_basis="Payment", once_per_turn=True),
    AbilityDefinition("guard", "Static", (), "Printed", Provenance(printed_object=OBJ11),
                      "SideA", active_facedown=True),
    AbilityDefinition("strike", "Activated", (81, 82), "Printed",
                      Provenance(printed_object=OBJ13), "SideB", once_per_turn=True,
                      use_basis="Choice", active_facedown=True),
)
CONDITIONAL = tuple(d for d in CATALOG if d.kind == "Conditional")
ZONES = ("Play", "SideA.Hand", "SideB.Hand", "SideB.Discard", "SetAside")


class Request(Protocol):
    label: str

    def params(self) -> dict[str, Any]: ...


class Machine(Protocol):
    module: str

    def apply(self, r: Any) -> bool: ...

    def variables(self) -> dict[str, Any]: ...


def record(path: Path, machine: Machine, requests: Iterable[Request],
           meta: dict[str, Any], constants: Mapping[str, Any] | None = None) -> Path:
    """Record the initial state, then apply and record every request (lazily generated)."""
    with TraceWriter(path, machine.module, REVISION, constants or {}, meta) as w:
        w.init(machine.variables())
        for r in requests:
            before = machine.variables()
            ok = machine.apply(r)
            after = machine.variables()
            if not ok and after != before:
                raise AssertionError(f"rejected {r.label} changed the state")
            w.step(r.label, r.params(), "accepted" if ok else "rejected", after)
    return path


@dataclass
class World:
    """Where source objects are and which lifetime they are in (the scenario's game)."""

    current: dict[int, ObjectRef] = field(
        default_factory=lambda: {11: OBJ11, 12: OBJ12, 13: OBJ13})
    zone: dict[int, str] = field(
        default_factory=lambda: {11: "Play", 12: "Play", 13: "SideB.Discard"})
    checkpoint: int = 1
    next_instance: int = 101
    next_occurrence: int = 1


def _source_id(d: AbilityDefinition) -> int | None:
    src = d.source
    return src.object.id if isinstance(src, ObjectSource) else None


def _zone_of(world: World, d: AbilityDefinition) -> str:
    sid = _source_id(d)
    return "None" if sid is None else world.zone[sid]


def _result(rng: random.Random, world: World, d: AbilityDefinition) -> ConditionResult:
    """A supplied condition result: usually a hit at this checkpoint, sometimes not."""
    occ = f"occ{world.next_occurrence}"
    world.next_occurrence += 1
    hit = rng.random() < 0.75
    checkpoint = world.checkpoint if rng.random() < 0.85 else world.checkpoint - 1
    if d.condition == "Trigger":
        return ConditionResult(d.id, checkpoint, occ, pattern_matched=hit,
                               stipulation_met=hit or rng.random() < 0.5)
    return ConditionResult(d.id, checkpoint, occ, primary_holds=True,
                           sibling_pending=not hit and rng.random() < 0.5,
                           throttled=not hit)


def _receipt(rng: random.Random, inst: AbilityInstance, others: list[int]) -> Receipt:
    """The matching receipt, or one for another instruction, another instance, or incomplete."""
    cursor = inst.instructions[min(inst.cursor, len(inst.instructions)) - 1]
    roll = rng.random()
    if roll < 0.6:
        return Receipt(inst.id, cursor)
    if roll < 0.75:
        wrong = [i for i in inst.instructions if i != cursor] or [cursor + 1]
        return Receipt(inst.id, rng.choice(wrong))
    if roll < 0.9 and others:
        return Receipt(rng.choice(others), cursor)
    return Receipt(inst.id, cursor, complete=False)


def _natural(rng: random.Random, world: World, inst: AbilityInstance,
             others: list[int]) -> Request:
    """The request that moves ``inst`` on (with the right parameters)."""
    if inst.phase == "Pending":
        sid = _source_id(inst.definition)
        return Begin(inst.id, inst.checkpoint, None if sid is None else world.current[sid],
                     _zone_of(world, inst.definition))
    if inst.complete:
        return Return(inst.id, True, inst.caller)
    if inst.imminent:
        return Finish(inst.id, Receipt(inst.id, inst.instructions[inst.cursor - 1]))
    return Advance(inst.id, True)


def _illegal(rng: random.Random, world: World, inst: AbilityInstance, others: list[int],
             kinds: tuple[str, ...]) -> Request:
    """Any request for ``inst``, parameters possibly wrong (receipts, callers, chains...)."""
    kind = rng.choice(kinds)
    if kind == "begin":
        sid = _source_id(inst.definition)
        window = inst.checkpoint if rng.random() < 0.5 else inst.checkpoint + 1
        return Begin(inst.id, window, None if sid is None else world.current[sid],
                     _zone_of(world, inst.definition), rng.random() < 0.7, rng.random() < 0.6)
    if kind == "finish":
        return Finish(inst.id, _receipt(rng, inst, others))
    if kind == "advance":
        return Advance(inst.id, rng.random() < 0.5)
    caller = inst.caller if rng.random() < 0.5 else rng.choice(SEATS)
    return Return(inst.id, rng.random() < 0.5, caller)


def _instance_request(rng: random.Random, world: World, machine: ResolutionMachine,
                      kinds: tuple[str, ...] = ("begin", "finish", "advance", "return"),
                      ) -> Request:
    state = machine.engine.state
    ids = sorted(state.instances)
    live = [i for i in ids if not state.instances[i].returned
            and state.instances[i].phase != "Lost"]
    inst = state.instances[rng.choice(live if live and rng.random() < 0.85 else ids)]
    others = [i for i in ids if i != inst.id]
    if inst.id in live and rng.random() < 0.6:
        return _natural(rng, world, inst, others)
    return _illegal(rng, world, inst, others, kinds)


def resolution_requests(rng: random.Random, machine: ResolutionMachine, world: World,
                        steps: int) -> Iterator[Request]:
    """A state-aware random walk through recognition, start, instructions and return."""
    for _ in range(steps):
        state = machine.engine.state
        live = [i for i in state.instances.values() if not i.returned and i.phase != "Lost"]
        roll = rng.random()
        if roll < 0.06:
            d = rng.choice(CONDITIONAL)
            yield Withdraw(d.id) if rng.random() < 0.6 else Restore(d.id)
        elif roll < 0.07:
            oid = rng.choice(sorted(world.current))
            yield Depart(world.current[oid])
            world.current[oid] = world.current[oid].renewed()
            world.zone[oid] = rng.choice(ZONES)
        elif roll < 0.1 or (len(live) < 2 and roll < 0.4):
            d = rng.choice(CONDITIONAL)
            world.checkpoint += int(rng.random() < 0.5)
            ids = sorted(state.instances)
            iid = world.next_instance if rng.random() < 0.9 or not ids else rng.choice(ids)
            if iid == world.next_instance:
                world.next_instance += 1
            caller = d.controller if rng.random() < 0.8 else rng.choice(SEATS)
            yield Recognize(iid, world.checkpoint, _result(rng, world, d), caller,
                            _zone_of(world, d))
        elif state.instances:
            yield _instance_request(rng, world, machine)


def started_engine(rng: random.Random, count: int) -> AbilityEngine:
    """An engine with ``count`` instances recognized and begun (the AbilityLifecycle start)."""
    engine = AbilityEngine(CATALOG)
    world = World()
    for n in range(count):
        d = rng.choice(CONDITIONAL)
        iid = 101 + n
        result = ConditionResult(d.id, 1, f"occ{n + 1}", pattern_matched=True,
                                 stipulation_met=True, primary_holds=True)
        sid = _source_id(d)
        zone = _zone_of(world, d)
        if not (engine.recognize(1, result, iid, d.controller, zone)
                and engine.begin(iid, 1, None if sid is None else world.current[sid], zone,
                                 True, True)):
            raise AssertionError("the lifecycle start must recognize and begin")
    return engine


def lifecycle_requests(rng: random.Random, machine: LifecycleMachine,
                       steps: int) -> Iterator[Request]:
    """Finish/Advance/Return attempts, legal and illegal, on started instances."""
    world = World()
    for _ in range(steps):
        yield _instance_request(rng, world, machine, ("finish", "advance", "return"))


def random_context(rng: random.Random) -> ActivityContext:
    """A random observation: presence, rule permission, object data (lifetimes may renew)."""
    ids = [d.id for d in CATALOG]
    objects: dict[ObjectRef, ObjectData] = {}
    for obj in (OBJ11, OBJ12, OBJ13):
        if rng.random() < 0.85:
            ref = obj if rng.random() < 0.8 else obj.renewed()
            objects[ref] = ObjectData(rng.choice(ZONES), rng.random() < 0.6, rng.choice(SEATS))
    pairs = [(a, o) for a in ids for o in (OBJ11, OBJ12, OBJ13)]
    return ActivityContext(
        present=frozenset(a for a in ids if rng.random() < 0.8),
        permitted_rules=frozenset({"Upkeep"}) if rng.random() < 0.5 else frozenset(),
        objects=objects,
        departure_holds=frozenset(p for p in pairs if rng.random() < 0.08),
        persistent_membership=frozenset(p for p in pairs if rng.random() < 0.08),
    )


def activity_requests(rng: random.Random, steps: int) -> Iterator[Request]:
    """Observations interleaved with choice attempts (right and wrong chooser, guards) and
    views of an ability by either seat."""
    for n in range(steps):
        if n % 4 == 0:
            yield Observe(random_context(rng))
            continue
        if n % 4 == 1:
            yield View(rng.choice(CATALOG).id, rng.choice(SEATS))
            continue
        d = rng.choice(CATALOG)
        chooser = d.controller if rng.random() < 0.8 else rng.choice(SEATS)
        yield Choose(d.id, chooser, rng.random() < 0.85, rng.random() < 0.9,
                     rng.random() < 0.9)


def shown(machine: ActivityMachine, requests: Iterator[Request]) -> Iterator[Request]:
    """``requests`` with every View carrying what ``machine`` shows (in its context then)."""
    for r in requests:
        yield machine.show(r) if isinstance(r, View) else r


def use_requests(rng: random.Random, machine: UseMachine, steps: int) -> Iterator[Request]:
    """Activations (selection, then boundary events actual or not) and turn ends."""
    boundaries: tuple[Boundary, ...] = ("Recognition", "Selection", "Payment",
                                        "OptionalExecution")
    instance = 200
    emitted = 0
    while emitted < steps:
        if rng.random() < 0.12:
            turn = machine.ledger.turn
            yield EndTurn(turn + 1 if rng.random() < 0.85 else turn)
            emitted += 1
            continue
        d = rng.choice(CATALOG)
        yield Select(d)
        emitted += 1
        if not machine.ledger.may_select(d, d.source):
            continue
        instance += 1
        for b in boundaries:
            yield BoundaryReached(d, instance, UseEvent(b, rng.random() < 0.7))
            emitted += 1


def _paths(out_dir: Path, seed: int) -> dict[str, Path]:
    return {k: out_dir / f"abilities-{k}-{seed}.trace.jsonl"
            for k in ("resolution", "lifecycle", "activity", "use")}


def generate(out_dir: Path, seed: int) -> list[Path]:
    """Write the four ability scenario traces for ``seed`` and return their paths; each
    starts with the scripted :mod:`~harness.scenarios.situations`."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = _paths(out_dir, seed)
    rng = random.Random(seed)

    def meta(name: str) -> dict[str, Any]:
        return {"seed": seed, "generator": "harness.scenarios.abilities", "scenario": name}

    walks: list[tuple[str, Machine, Callable[[Any], Iterator[Request]]]] = []
    res = ResolutionMachine(AbilityEngine(CATALOG))
    world = World()
    walks.append(("resolution", res, lambda m: itertools.chain(
        situations.resolution(world), resolution_requests(rng, m, world, 80))))
    life = LifecycleMachine(started_engine(rng, 6))
    walks.append(("lifecycle", life, lambda m: itertools.chain(
        situations.lifecycle(m), lifecycle_requests(rng, m, 50))))
    act = ActivityMachine({d.id: d for d in CATALOG})
    walks.append(("activity", act, lambda m: shown(m, itertools.chain(
        situations.activity(CATALOG), activity_requests(rng, 40)))))
    use = UseMachine()
    walks.append(("use", use, lambda m: itertools.chain(
        situations.use(CATALOG), use_requests(rng, m, 50))))
    return [record(paths[name], m, gen(m), meta(name)) for name, m, gen in walks]
