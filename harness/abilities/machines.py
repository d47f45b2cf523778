"""Requests and state machines: what the trace recorder drives, per conformance module.

Each request has the trace ``label`` of its conformance-module action and the
``params`` record it is recorded with; a machine applies a request (accepted or
rejected) and projects its state onto the module's variables.  A rejected
request never changes the machine's state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.abilities.activity import ActivityContext, ability_active, may_choose, public_view
from harness.abilities.definitions import NO_OBJECT, AbilityDefinition, AbilityError, ObjectRef
from harness.abilities.engine import AbilityEngine
from harness.abilities.instances import Receipt
from harness.abilities.recognition import ConditionResult
from harness.abilities.use import UseEvent, UseLedger
from tlaconf.values import from_python

# --- AbilityResolution / AbilityLifecycle requests ---------------------------------


@dataclass(frozen=True)
class Recognize:
    instance: int
    checkpoint: int
    result: ConditionResult
    caller: str
    source_zone: str
    label = "Recognize"

    def params(self) -> dict[str, Any]:
        return {"instance": self.instance, "checkpoint": self.checkpoint,
                "result": self.result.value(), "caller": self.caller,
                "sourceZone": self.source_zone}


@dataclass(frozen=True)
class Begin:
    instance: int
    window: int
    source_now: ObjectRef | None
    source_zone_now: str
    scheduling_ok: bool = True
    interrupt_boundary_passed: bool = True
    label = "Begin"

    def params(self) -> dict[str, Any]:
        return {"instance": self.instance, "window": self.window,
                "sourceNow": (dict(NO_OBJECT) if self.source_now is None
                              else self.source_now.value()),
                "sourceZoneNow": self.source_zone_now, "schedulingOk": self.scheduling_ok,
                "interruptBoundaryPassed": self.interrupt_boundary_passed}


@dataclass(frozen=True)
class Finish:
    instance: int
    receipt: Receipt
    label = "Finish"

    def params(self) -> dict[str, Any]:
        return {"instance": self.instance, "receipt": self.receipt.value()}


@dataclass(frozen=True)
class Advance:
    instance: int
    checkpoint_and_chains_complete: bool
    label = "Advance"

    def params(self) -> dict[str, Any]:
        return {"instance": self.instance,
                "checkpointAndChainsComplete": self.checkpoint_and_chains_complete}


@dataclass(frozen=True)
class Return:
    instance: int
    final_checkpoint_and_chains_complete: bool
    caller: str
    label = "Return"

    def params(self) -> dict[str, Any]:
        return {"instance": self.instance,
                "actualFinalCheckpointAndChainsComplete":
                    self.final_checkpoint_and_chains_complete,
                "caller": self.caller}


@dataclass(frozen=True)
class Withdraw:
    definition: str
    label = "Withdraw"

    def params(self) -> dict[str, Any]:
        return {"definition": self.definition}


@dataclass(frozen=True)
class Restore:
    definition: str
    label = "Restore"

    def params(self) -> dict[str, Any]:
        return {"definition": self.definition}


@dataclass(frozen=True)
class Depart:
    object: ObjectRef
    label = "Depart"

    def params(self) -> dict[str, Any]:
        return {"object": self.object.value()}


ResolutionRequest = Recognize | Begin | Finish | Advance | Return | Withdraw | Restore | Depart
LifecycleRequest = Finish | Advance | Return


class ResolutionMachine:
    """``AbilityResolution``: the engine with variables ``definitions`` and ``instances``."""

    module = "AbilityResolution"

    def __init__(self, engine: AbilityEngine) -> None:
        self.engine = engine

    def apply(self, r: ResolutionRequest) -> bool:
        e = self.engine
        match r:
            case Recognize():
                return e.recognize(r.checkpoint, r.result, r.instance, r.caller, r.source_zone)
            case Begin():
                return e.begin(r.instance, r.window, r.source_now, r.source_zone_now,
                               r.scheduling_ok, r.interrupt_boundary_passed)
            case Finish():
                return e.finish(r.instance, r.receipt)
            case Advance():
                return e.advance(r.instance, r.checkpoint_and_chains_complete)
            case Return():
                return e.return_(r.instance, r.final_checkpoint_and_chains_complete, r.caller)
            case Withdraw():
                return e.withdraw(r.definition)
            case Restore():
                return e.restore(r.definition)
            case Depart():
                return e.depart(r.object)
        raise AbilityError(f"not a resolution request: {r!r}")

    def variables(self) -> dict[str, Any]:
        s = self.engine.state
        return {
            "definitions": {k: v.value() for k, v in sorted(s.registry.items())},
            "instances": {k: v.value() for k, v in sorted(s.instances.items())},
        }


class LifecycleMachine(ResolutionMachine):
    """``AbilityLifecycle``: started instances only (variable ``instances``)."""

    module = "AbilityLifecycle"

    def apply(self, r: ResolutionRequest) -> bool:
        if not isinstance(r, Finish | Advance | Return):
            raise AbilityError(f"AbilityLifecycle has no action {r.label}")
        return super().apply(r)

    def variables(self) -> dict[str, Any]:
        return {"instances": super().variables()["instances"]}


# --- AbilityActivity -----------------------------------------------------------------


@dataclass(frozen=True)
class Observe:
    context: ActivityContext
    label = "Observe"

    def params(self) -> dict[str, Any]:
        return {"context": self.context.value()}


@dataclass(frozen=True)
class Choose:
    ability: str
    chooser: str
    timing_ok: bool = True
    targets_ok: bool = True
    affordable: bool = True
    label = "Choose"

    def params(self) -> dict[str, Any]:
        return {"ability": self.ability, "chooser": self.chooser, "timingOk": self.timing_ok,
                "targetsOk": self.targets_ok, "affordable": self.affordable}


@dataclass(frozen=True)
class View:
    """Ask what ``viewer`` is shown of an ability (the shown view is added to the params)."""

    ability: str
    viewer: str
    shown: dict[str, Any] = field(default_factory=dict)
    label = "View"

    def params(self) -> dict[str, Any]:
        return {"ability": self.ability, "viewer": self.viewer, "view": self.shown}


ActivityRequest = Observe | Choose | View


@dataclass
class ActivityMachine:
    """``AbilityActivity``: abilities, the current context, the active ids and choices."""

    abilities: dict[str, AbilityDefinition]
    context: ActivityContext = field(default_factory=ActivityContext)
    chosen: frozenset[tuple[str, str]] = frozenset()
    module = "AbilityActivity"

    def active(self) -> frozenset[str]:
        return frozenset(a for a, d in self.abilities.items() if ability_active(d, self.context))

    def show(self, r: View) -> View:
        """``r`` with the view the viewer is shown (nothing for an unknown ability)."""
        d = self.abilities.get(r.ability)
        return r if d is None else View(r.ability, r.viewer,
                                        public_view(d, self.context, r.viewer))

    def apply(self, r: ActivityRequest) -> bool:
        if isinstance(r, Observe):
            self.context = r.context
            return True
        if isinstance(r, View):
            return r.ability in self.abilities
        d = self.abilities.get(r.ability)
        if d is None or not may_choose(d, self.context, r.chooser, r.timing_ok, r.targets_ok,
                                       r.affordable):
            return False
        self.chosen = self.chosen | {(r.ability, r.chooser)}
        return True

    def variables(self) -> dict[str, Any]:
        return {
            "abilities": {k: v.value() for k, v in sorted(self.abilities.items())},
            "context": self.context.value(),
            "active": set(self.active()),
            "chosen": {from_python({"ability": a, "chooser": c}) for a, c in self.chosen},
        }


# --- AbilityUse ----------------------------------------------------------------------


@dataclass(frozen=True)
class Select:
    definition: AbilityDefinition
    label = "Select"

    def params(self) -> dict[str, Any]:
        return {"definition": self.definition.value()}


@dataclass(frozen=True)
class BoundaryReached:
    definition: AbilityDefinition
    instance: int
    event: UseEvent
    label = "Boundary"

    def params(self) -> dict[str, Any]:
        return {"definition": self.definition.value(), "instance": self.instance,
                "event": self.event.value()}


@dataclass(frozen=True)
class EndTurn:
    next: int
    label = "EndTurn"

    def params(self) -> dict[str, Any]:
        return {"next": self.next}


UseRequest = Select | BoundaryReached | EndTurn


@dataclass
class UseMachine:
    """``AbilityUse``: the use ledger (turn and history)."""

    ledger: UseLedger = field(default_factory=UseLedger)
    module = "AbilityUse"

    def apply(self, r: UseRequest) -> bool:
        match r:
            case Select():
                return self.ledger.may_select(r.definition, r.definition.source)
            case BoundaryReached():
                after = self.ledger.boundary(r.definition, r.definition.source, r.instance,
                                             r.event)
                if after is None:
                    return False
                self.ledger = after
                return True
            case EndTurn():
                if r.next != self.ledger.turn + 1:
                    return False
                self.ledger = self.ledger.end_turn()
                return True
        raise AbilityError(f"not a use request: {r!r}")

    def variables(self) -> dict[str, Any]:
        return self.ledger.value()
