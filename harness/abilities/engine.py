"""The ability engine: a definition registry plus resolution instances.

Every request either is accepted and replaces the state, or is rejected and
leaves the state object exactly as it was (states are immutable values).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from harness.abilities.definitions import AbilityDefinition, AbilityError, ObjectRef, ObjectSource
from harness.abilities.instances import (
    AbilityInstance,
    Receipt,
    advance_ok,
    finish_ok,
    finished,
    return_ok,
)
from harness.abilities.recognition import ConditionResult, checkpoint_candidates


@dataclass(frozen=True)
class Registered:
    """A definition in the registry: whether it is present, and its activity epoch."""

    definition: AbilityDefinition
    present: bool = True
    epoch: int = 1

    def value(self) -> dict[str, Any]:
        return {"definition": self.definition.value(), "present": self.present,
                "epoch": self.epoch}


def _frozen(d: dict[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(d)


@dataclass(frozen=True)
class AbilityState:
    """Registry and instances (immutable)."""

    registry: Mapping[str, Registered] = field(default_factory=lambda: _frozen({}))
    instances: Mapping[int, AbilityInstance] = field(default_factory=lambda: _frozen({}))

    def with_instance(self, inst: AbilityInstance) -> AbilityState:
        return replace(self, instances=_frozen({**self.instances, inst.id: inst}))

    def with_registered(self, reg: Registered) -> AbilityState:
        return replace(self, registry=_frozen({**self.registry, reg.definition.id: reg}))


def _source_object(inst: AbilityInstance) -> ObjectRef | None:
    src = inst.definition.source
    return src.object if isinstance(src, ObjectSource) else None


class AbilityEngine:
    """Recognize, begin, finish, advance, return, withdraw, restore and depart."""

    def __init__(self, definitions: tuple[AbilityDefinition, ...] = ()) -> None:
        self.state = AbilityState()
        for d in definitions:
            if d.id in self.state.registry:
                raise AbilityError(f"duplicate ability definition {d.id!r}")
            self.state = self.state.with_registered(Registered(d))

    def _instance(self, instance_id: int) -> AbilityInstance | None:
        return self.state.instances.get(instance_id)

    def recognize(
        self, checkpoint: int, result: ConditionResult, instance_id: int, caller: str,
        source_zone: str,
    ) -> bool:
        """Create a pending instance for a recognized occurrence of a present definition.

        The instance captures a copy of the definition, the occurrence identity
        and the definition's current activity epoch.  An occurrence already
        recognized for the definition is not recognized again.
        """
        reg = self.state.registry.get(result.definition)
        if instance_id in self.state.instances or reg is None or not reg.present:
            return False
        defs = {result.definition: reg.definition}
        if not checkpoint_candidates(defs, checkpoint, [result]):
            return False
        if any(
            i.definition.id == result.definition and i.occurrence == result.occurrence
            for i in self.state.instances.values()
        ):
            return False
        self.state = self.state.with_instance(
            AbilityInstance(
                id=instance_id, definition=reg.definition, occurrence=result.occurrence,
                checkpoint=checkpoint, epoch=reg.epoch, source_zone=source_zone, caller=caller,
            )
        )
        return True

    def begin(
        self, instance_id: int, window: int, source_now: ObjectRef | None, source_zone_now: str,
        scheduling_ok: bool, interrupt_boundary_passed: bool,
    ) -> bool:
        """Start a pending offer: still current (epoch, presence), in its window, under guards.

        For an object source the object at hand must be the very same identity
        (id and lifetime) in the instance's source zone.
        """
        inst = self._instance(instance_id)
        if inst is None or inst.phase != "Pending":
            return False
        reg = self.state.registry[inst.definition.id]
        src = _source_object(inst)
        ok = (
            reg.present
            and reg.epoch == inst.epoch
            and window == inst.checkpoint
            and scheduling_ok
            and (interrupt_boundary_passed or not inst.definition.interrupt)
            and (src is None or (source_now == src and source_zone_now == inst.source_zone))
        )
        if not ok:
            return False
        self.state = self.state.with_instance(replace(inst, phase="Resolving", imminent=True))
        return True

    def finish(self, instance_id: int, receipt: Receipt) -> bool:
        """``FinishAbilityInstruction9``: only a matching receipt finishes the cursor step."""
        inst = self._instance(instance_id)
        if inst is None or not finish_ok(inst, receipt):
            return False
        self.state = self.state.with_instance(finished(inst))
        return True

    def advance(self, instance_id: int, checkpoint_and_chains_complete: bool) -> bool:
        """Make the next instruction imminent once the checkpoint and newer chains are done."""
        inst = self._instance(instance_id)
        if inst is None or not advance_ok(inst, checkpoint_and_chains_complete):
            return False
        self.state = self.state.with_instance(replace(inst, imminent=True))
        return True

    def return_(self, instance_id: int, final_checkpoint_and_chains_complete: bool,
                caller: str) -> bool:
        """``ReturnAbility9``: return once, to the matching caller, after the final checkpoint."""
        inst = self._instance(instance_id)
        if inst is None or not return_ok(inst, final_checkpoint_and_chains_complete, caller):
            return False
        self.state = self.state.with_instance(replace(inst, returned=True))
        return True

    def withdraw(self, definition_id: str) -> bool:
        """Withdraw a present definition; its pending offers are lost."""
        reg = self.state.registry.get(definition_id)
        if reg is None or not reg.present:
            return False
        state = self.state.with_registered(replace(reg, present=False))
        for inst in self.state.instances.values():
            if inst.definition.id == definition_id and inst.phase == "Pending":
                state = state.with_instance(replace(inst, phase="Lost"))
        self.state = state
        return True

    def restore(self, definition_id: str) -> bool:
        """Restore a withdrawn definition under a new epoch; lost offers stay lost."""
        reg = self.state.registry.get(definition_id)
        if reg is None or reg.present:
            return False
        self.state = self.state.with_registered(replace(reg, present=True, epoch=reg.epoch + 1))
        return True

    def depart(self, obj: ObjectRef) -> bool:
        """The source object leaves: pending offers are lost, started procedures detach.

        Departure manufactures no receipt and no return.
        """
        state = self.state
        for inst in self.state.instances.values():
            if _source_object(inst) != obj:
                continue
            if inst.phase == "Pending":
                state = state.with_instance(replace(inst, phase="Lost"))
            elif inst.phase == "Resolving":
                state = state.with_instance(replace(inst, phase="Detached"))
        self.state = state
        return True
