"""Write the golden ability traces of ``traces/abilities/`` (deterministic).

Conforming traces drive the harness; violating traces take a conforming prefix
and then record one step as an implementation with a specific bug would (an
accepted step that the specification forbids, or a wrong successor state).
``expected.json`` names, per trace, the step and the conjunct that must be
blamed (its source text).  Run ``python -m harness.scenarios.golden_abilities``.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.abilities.activity import ActivityContext, ObjectData
from harness.abilities.definitions import ObjectSource
from harness.abilities.engine import AbilityEngine
from harness.abilities.instances import Receipt
from harness.abilities.machines import (
    ActivityMachine,
    Advance,
    Begin,
    BoundaryReached,
    Choose,
    Depart,
    Finish,
    LifecycleMachine,
    Observe,
    Recognize,
    ResolutionMachine,
    Restore,
    Return,
    Select,
    UseMachine,
    Withdraw,
)
from harness.abilities.recognition import ConditionResult
from harness.abilities.use import UseEvent
from harness.scenarios.abilities import CATALOG, OBJ11, OBJ12, OBJ13, REVISION, Machine, Request
from tlaconf.trace.writer import TraceWriter, write_expected
from tlaconf.values import from_python

BY_ID = {d.id: d for d in CATALOG}
META = {"generator": "harness.scenarios.golden_abilities"}
Mutation = Callable[[dict[str, Any]], None]


class Script:
    """A trace under construction: conforming steps through a machine, then maybe a bug."""

    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        self.initial = machine.variables()
        self.steps: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = []

    def do(self, r: Request) -> Script:
        ok = self.machine.apply(r)
        self.steps.append((r.label, r.params(), "accepted" if ok else "rejected",
                           self.machine.variables()))
        return self

    def bug(self, r: Request, outcome: str, mutate: Mutation) -> int:
        """Record ``r`` with a wrong outcome/state; returns the step number (1-based)."""
        state = copy.deepcopy(self.machine.variables())
        mutate(state)
        self.steps.append((r.label, r.params(), outcome, state))
        return len(self.steps)

    def write(self, path: Path, scenario: str) -> None:
        Recorded(self.machine.module, self.initial, self.steps).write(path, scenario)


@dataclass
class Recorded:
    """A trace given state by state, as an implementation outside this harness records it."""

    module: str
    initial: dict[str, Any]
    steps: list[tuple[str, dict[str, Any], str, dict[str, Any]]]

    def write(self, path: Path, scenario: str) -> None:
        with TraceWriter(path, self.module, REVISION, {}, {**META, "scenario": scenario}) as w:
            w.init(self.initial)
            for label, params, outcome, state in self.steps:
                w.step(label, params, outcome, state)  # type: ignore[arg-type]


def _ward_result(occ: str, checkpoint: int = 1) -> ConditionResult:
    return ConditionResult("ward", checkpoint, occ, pattern_matched=True, stipulation_met=True)


def _echo_result(occ: str, checkpoint: int = 1) -> ConditionResult:
    return ConditionResult("echo", checkpoint, occ, pattern_matched=True, stipulation_met=True)


def started() -> LifecycleMachine:
    """Two started instances: 101 of "ward" (<<41, 42>>, SideA), 102 of "echo" (SideB)."""
    engine = AbilityEngine(CATALOG)
    ok = (engine.recognize(1, _ward_result("occ1"), 101, "SideA", "Play")
          and engine.recognize(1, _echo_result("occ2"), 102, "SideB", "SideB.Discard")
          and engine.begin(101, 1, OBJ12, "Play", True, True)
          and engine.begin(102, 1, OBJ13, "SideB.Discard", True, True))
    if not ok:
        raise AssertionError("the golden start must recognize and begin")
    return LifecycleMachine(engine)


def complete_ward(s: Script) -> Script:
    """Finish 41, advance after the checkpoint, finish 42: instance 101 is complete."""
    return (s.do(Finish(101, Receipt(101, 41))).do(Advance(101, True))
            .do(Finish(101, Receipt(101, 42))))


def _set(path: tuple[Any, ...], value: Any) -> Mutation:
    def mutate(state: dict[str, Any]) -> None:
        target = state
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


def lifecycle_traces() -> dict[str, tuple[Script, int | None, str | None]]:
    """AbilityLifecycle: a conforming trace and one violation per ReturnAbility9 conjunct."""
    out: dict[str, tuple[Script, int | None, str | None]] = {}
    ok = complete_ward(Script(started()))
    ok.do(Finish(101, Receipt(101, 42)))                      # finishing again: rejected
    ok.do(Return(101, False, "SideA"))                        # chains open: rejected
    ok.do(Return(101, True, "SideB"))                         # wrong caller: rejected
    ok.do(Return(101, True, "SideA")).do(Return(101, True, "SideA"))  # twice: 2nd rejected
    ok.do(Finish(102, Receipt(101, 61)))                      # another instance's receipt
    ok.do(Finish(102, Receipt(102, 62)))                      # out of order
    ok.do(Finish(102, Receipt(102, 61, complete=False)))      # incomplete receipt
    ok.do(Finish(102, Receipt(102, 61)))
    out["lifecycle-conforming.trace.jsonl"] = (ok, None, "")

    s = Script(started()).do(Finish(101, Receipt(101, 41)))
    step = s.bug(Return(101, True, "SideA"), "accepted", _set(("instances", 101, "returned"), True))
    out["return-not-complete.trace.jsonl"] = (s, step, "before.complete")

    s = complete_ward(Script(started())).do(Return(101, True, "SideA"))
    step = s.bug(Return(101, True, "SideA"), "accepted", lambda st: None)
    out["return-twice.trace.jsonl"] = (s, step, "~before.returned")

    s = complete_ward(Script(started()))
    step = s.bug(Return(101, False, "SideA"), "accepted",
                 _set(("instances", 101, "returned"), True))
    out["return-chains-open.trace.jsonl"] = (s, step, "actualFinalCheckpointAndChainsComplete")

    s = complete_ward(Script(started()))
    step = s.bug(Return(101, True, "SideB"), "accepted",
                 _set(("instances", 101, "returned"), True))
    out["return-wrong-caller.trace.jsonl"] = (s, step, "caller = before.caller")

    def returned_and_recalled(st: dict[str, Any]) -> None:
        st["instances"][101]["returned"] = True
        st["instances"][101]["caller"] = "SideB"
    s = complete_ward(Script(started()))
    step = s.bug(Return(101, True, "SideA"), "accepted", returned_and_recalled)
    out["return-after-not-except.trace.jsonl"] = (
        s, step, "instances' = [instances EXCEPT ![p.instance].returned = TRUE]")

    # The seed's example: a receipt for instruction 42 cannot complete cursor one of <<41, 42>>.
    s = Script(started())
    step = s.bug(Finish(101, Receipt(101, 42)), "accepted", _finished_first())
    out["finish-wrong-instruction.trace.jsonl"] = (
        s, step, "receipt.instruction = before.instructions[before.cursor]")

    s = Script(started())
    step = s.bug(Finish(101, Receipt(102, 41)), "accepted", _finished_first())
    out["finish-other-instance.trace.jsonl"] = (s, step, "receipt.instance = before.id")

    s = Script(started()).do(Finish(101, Receipt(101, 41)))
    step = s.bug(Advance(101, False), "accepted", _set(("instances", 101, "imminent"), True))
    out["advance-chains-open.trace.jsonl"] = (s, step, "checkpointAndChainsComplete")

    # The bug: a legal return refused (the specification offers a successor).
    s = complete_ward(Script(started()))
    step = s.bug(Return(101, True, "SideA"), "rejected", lambda st: None)
    out["return-legal-refused.trace.jsonl"] = (s, step, None)  # no blame: ENABLED
    return out


def _finished_first() -> Mutation:
    """Instance 101 after its first instruction finished (cursor 2, not imminent)."""
    def mutate(st: dict[str, Any]) -> None:
        st["instances"][101]["cursor"] = 2
        st["instances"][101]["imminent"] = False
    return mutate


def resolution_traces() -> dict[str, tuple[Script, int | None, str | None]]:
    """AbilityResolution: a conforming life cycle and its identity/epoch violations."""
    out: dict[str, tuple[Script, int | None, str | None]] = {}
    s = Script(ResolutionMachine(AbilityEngine(CATALOG)))
    s.do(Recognize(101, 1, _ward_result("occ1"), "SideA", "Play"))
    s.do(Recognize(102, 1, _ward_result("occ1"), "SideA", "Play"))      # same occurrence
    s.do(Recognize(102, 1, _ward_result("occ2", checkpoint=0), "SideA", "Play"))  # stale
    s.do(Recognize(102, 2, ConditionResult("rally", 2, "occ3", primary_holds=True,
                                           throttled=True), "SideA", "Play"))  # throttled
    s.do(Recognize(102, 2, ConditionResult("rally", 2, "occ3", primary_holds=True),
                   "SideA", "Play"))
    s.do(Begin(101, 2, OBJ12, "Play"))                                   # wrong window
    s.do(Begin(101, 1, OBJ12, "Play"))
    s.do(Begin(102, 2, OBJ12, "Play", interrupt_boundary_passed=False))  # interrupt first
    s.do(Begin(102, 2, OBJ12, "Play"))
    s.do(Finish(101, Receipt(101, 41))).do(Advance(101, True)).do(Finish(101, Receipt(101, 42)))
    s.do(Return(101, True, "SideA"))
    s.do(Recognize(103, 3, _echo_result("occ4", 3), "SideB", "SideB.Discard"))
    s.do(Withdraw("echo"))                                               # 103 is lost
    s.do(Restore("echo"))                                                # ... and stays lost
    s.do(Begin(103, 3, OBJ13, "SideB.Discard"))                          # rejected
    s.do(Depart(OBJ12))                                                  # 102 detaches
    s.do(Finish(102, Receipt(102, 51)))                                  # it continues
    s.do(Recognize(104, 4, _ward_result("occ5", 4), "SideA", "Play"))
    s.do(Begin(104, 4, OBJ12.renewed(), "Play"))                         # renewed: no
    out["resolution-conforming.trace.jsonl"] = (s, None, "")

    s = Script(ResolutionMachine(AbilityEngine(CATALOG)))
    s.do(Recognize(101, 1, _ward_result("occ1"), "SideA", "Play"))
    s.do(Withdraw("ward")).do(Restore("ward"))
    step = s.bug(Begin(101, 1, OBJ12, "Play"), "accepted", _begun(101))
    out["begin-lost-offer.trace.jsonl"] = (s, step, 'instances[p.instance].phase = "Pending"')

    s = Script(ResolutionMachine(AbilityEngine(CATALOG)))
    s.do(Recognize(101, 1, _ward_result("occ1"), "SideA", "Play"))
    step = s.bug(Begin(101, 1, OBJ12.renewed(), "Play"), "accepted", _begun(101))
    out["begin-renewed-source.trace.jsonl"] = (
        s, step, "p.sourceNow = inst.definition.source.object")

    s = Script(ResolutionMachine(AbilityEngine(CATALOG)))
    s.do(Recognize(101, 1, _echo_result("occ1"), "SideB", "SideB.Discard"))
    s.do(Withdraw("echo"))

    def revive(st: dict[str, Any]) -> None:
        st["definitions"]["echo"]["present"] = True
        st["definitions"]["echo"]["epoch"] = 2
        st["instances"][101]["phase"] = "Pending"
    step = s.bug(Restore("echo"), "accepted", revive)
    out["restore-revives-lost-offer.trace.jsonl"] = (s, step, "UNCHANGED instances")

    # The bug: a stale pending offer kept across a restore (the invariant fails first).
    m = ResolutionMachine(AbilityEngine(CATALOG))
    m.apply(Recognize(101, 1, _echo_result("occ1"), "SideB", "SideB.Discard"))
    s = Script(m)
    s.initial["definitions"]["echo"]["epoch"] = 2
    s.do(Depart(OBJ11))
    out["stale-pending-offer.trace.jsonl"] = (
        s, 0, "definitions[instances[i].definition.id].epoch = instances[i].epoch")
    return out


def _begun(iid: int) -> Mutation:
    def mutate(st: dict[str, Any]) -> None:
        st["instances"][iid]["phase"] = "Resolving"
        st["instances"][iid]["imminent"] = True
    return mutate


def _context(face_up: bool, rules: frozenset[str]) -> ActivityContext:
    return ActivityContext(
        present=frozenset(BY_ID),
        permitted_rules=rules,
        objects={OBJ11: ObjectData("Play", True, "SideA"),
                 OBJ12: ObjectData("Play", face_up, "SideA"),
                 OBJ13: ObjectData("SideB.Discard", face_up, "SideB")},
        departure_holds=frozenset({("ward", OBJ12)}),
    )


def activity_traces() -> dict[str, tuple[Script, int | None, str | None]]:
    """AbilityActivity: observation and choice, and two implementation bugs."""
    out: dict[str, tuple[Script, int | None, str | None]] = {}
    s = Script(ActivityMachine(dict(BY_ID)))
    s.do(Observe(_context(True, frozenset({"Upkeep"}))))
    s.do(Choose("ward", "SideA")).do(Choose("ward", "SideB"))            # wrong chooser
    s.do(Choose("echo", "SideB", timing_ok=False))                       # timing
    s.do(Observe(_context(False, frozenset())))
    s.do(Choose("upkeep", "SideA"))                                      # rule not permitted
    s.do(Choose("strike", "SideB"))                                      # facedown SideB
    s.do(Choose("ward", "SideA"))                                        # departure hold
    out["activity-conforming.trace.jsonl"] = (s, None, "")

    s = Script(ActivityMachine(dict(BY_ID)))
    ctx = _context(False, frozenset())
    step = s.bug(Observe(ctx), "accepted", _observed_face_up_only(ctx))
    out["activity-face-up-only.trace.jsonl"] = (s, step, "active' = ActiveIn(p.context)")

    s = Script(ActivityMachine(dict(BY_ID)))
    s.do(Observe(_context(True, frozenset({"Upkeep"}))))

    def chose(st: dict[str, Any]) -> None:
        st["chosen"] = {from_python({"ability": "ward", "chooser": "SideB"})}
    step = s.bug(Choose("ward", "SideB"), "accepted", chose)
    out["choose-wrong-controller.trace.jsonl"] = (s, step, "chooser = ability.controller")
    return out


def _observed_face_up_only(ctx: ActivityContext) -> Mutation:
    """The bug: activity derived from the face-up flag (ignores rule permission, holds)."""
    def mutate(st: dict[str, Any]) -> None:
        st["context"] = ctx.value()
        st["active"] = {d.id for d in CATALOG if isinstance(d.source, ObjectSource)
                        and (data := ctx.objects.get(d.source.object)) is not None
                        and data.face_up}
    return mutate


def use_traces() -> dict[str, tuple[Script, int | None, str | None]]:
    """AbilityUse: use records at their own boundaries, once per turn from history."""
    out: dict[str, tuple[Script, int | None, str | None]] = {}
    ward, rally = BY_ID["ward"], BY_ID["rally"]
    s = Script(UseMachine())
    s.do(Select(ward)).do(BoundaryReached(ward, 201, UseEvent("Recognition", True)))
    s.do(BoundaryReached(ward, 201, UseEvent("Payment", True)))
    s.do(Select(ward))                                                   # once per turn
    s.do(Select(rally)).do(BoundaryReached(rally, 202, UseEvent("OptionalExecution", False)))
    out["use-conforming.trace.jsonl"] = (s, None, "")

    s = Script(UseMachine())
    s.do(Select(ward))

    def used_on_recognition(st: dict[str, Any]) -> None:
        st["uses"] = {from_python({"definition": "ward", "source": ward.source.value(), "turn": 1,
                                "instance": 201, "oncePerTurn": True})}
    step = s.bug(BoundaryReached(ward, 201, UseEvent("Recognition", True)), "accepted",
                 used_on_recognition)
    out["use-on-recognition.trace.jsonl"] = (
        s, step,
        "uses' = IF AbilityUseDue9(p.definition, p.event) THEN uses \\cup {UseRecord(p)} ELSE uses")

    s = Script(UseMachine())
    s.do(Select(ward)).do(BoundaryReached(ward, 201, UseEvent("Payment", True)))
    step = s.bug(Select(ward), "accepted", lambda st: None)
    out["once-per-turn-reselected.trace.jsonl"] = (
        s, step,
        "~\\E u \\in history : u.definition = definitionId /\\ u.source = source /\\ u.turn = turn")
    return out


def _contract(**records: tuple[str, bool, bool]) -> dict[str, Any]:
    """AbilityLifecycle's ``instances`` with only the contract's fields, by instance id."""
    return {"instances": {int(i.removeprefix("i")): {"caller": c, "complete": done,
                                                     "returned": back}
                          for i, (c, done, back) in records.items()}}


def contract_traces() -> dict[str, tuple[Recorded, int | None, str | None]]:
    """AbilityLifecycle traces whose records have only ``caller``, ``complete``, ``returned``."""
    out: dict[str, tuple[Recorded, int | None, str | None]] = {}
    start = _contract(i1=("SideA", True, False), i2=("SideB", False, False))
    one_back = _contract(i1=("SideA", True, True), i2=("SideB", False, False))
    ret = Return(1, True, "SideA").params()
    out["contract-conforming.trace.jsonl"] = (Recorded("AbilityLifecycle", start, [
        ("Return", Return(2, True, "SideB").params(), "rejected", start),  # not complete
        ("Return", ret, "accepted", one_back),
        ("Return", ret, "rejected", one_back),  # returned already
    ]), None, None)
    out["contract-wrong-caller.trace.jsonl"] = (Recorded("AbilityLifecycle", start, [
        ("Return", Return(1, True, "SideB").params(), "accepted", one_back),
    ]), 1, "caller = before.caller")
    out["contract-not-returned.trace.jsonl"] = (Recorded("AbilityLifecycle", start, [
        ("Return", ret, "accepted", start),
    ]), 1, "instances' = [instances EXCEPT ![p.instance].returned = TRUE]")
    out["contract-returned-incomplete.trace.jsonl"] = (Recorded(
        "AbilityLifecycle", _contract(i1=("SideA", False, True)),
        [("Return", ret, "rejected", _contract(i1=("SideA", False, True)))],
    ), 0, "instances[i].complete")
    return out


Golden = Callable[[], dict[str, tuple[Any, int | None, str | None]]]
"""A group of golden traces: file name -> (recorded script, failing step, blamed conjunct)."""


def write_groups(out_dir: Path, groups: Iterable[Golden]) -> list[Path]:
    """Write every trace of ``groups`` and their ``expected.json``; returns the trace paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    expected: dict[str, dict[str, Any]] = {}
    paths = []
    for group in groups:
        for name, (script, step, conjunct) in group().items():
            script.write(out_dir / name, name.removesuffix(".trace.jsonl"))
            paths.append(out_dir / name)
            expected[name] = {"verdict": "conforms"} if step is None else (
                {"verdict": "violation", "step": step}
                | ({} if conjunct is None else {"conjunct": conjunct}))
    write_expected(out_dir / "expected.json", expected)
    return paths


def write_all(out_dir: Path) -> list[Path]:
    """Write every golden trace and ``expected.json``; returns the trace paths."""
    return write_groups(out_dir, (lifecycle_traces, resolution_traces, activity_traces,
                                  use_traces, contract_traces))


if __name__ == "__main__":
    write_all(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("traces/abilities"))
