"""Resolution instances, instruction receipts, ``FinishAbilityInstruction9`` and ``ReturnAbility9``.

An instance binds one recognized occurrence to a definition copy, an activity
epoch, an instruction cursor, a source zone, a caller and a phase:

* ``Pending``   a pending offer (not started; lost if its source or definition goes);
* ``Resolving`` started instruction work;
* ``Detached``  an already-started procedure whose source departed: it continues,
                with current target/effect checks still in force;
* ``Lost``      a pending offer that was lost; restoring its definition never revives it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from harness.abilities.definitions import AbilityDefinition

Phase = Literal["Pending", "Resolving", "Detached", "Lost"]


@dataclass(frozen=True)
class AbilityInstance:
    """One resolution instance (immutable; every transition returns a new value)."""

    id: int
    definition: AbilityDefinition
    occurrence: str
    checkpoint: int
    epoch: int
    source_zone: str
    caller: str
    phase: Phase = "Pending"
    cursor: int = 1
    imminent: bool = False
    complete: bool = False
    returned: bool = False

    @property
    def instructions(self) -> tuple[int, ...]:
        return self.definition.instructions

    def value(self) -> dict[str, Any]:
        """The instance as a TLA+ record."""
        return {
            "id": self.id,
            "definition": self.definition.value(),
            "occurrence": self.occurrence,
            "checkpoint": self.checkpoint,
            "epoch": self.epoch,
            "instructions": list(self.instructions),
            "cursor": self.cursor,
            "sourceZone": self.source_zone,
            "caller": self.caller,
            "phase": self.phase,
            "imminent": self.imminent,
            "complete": self.complete,
            "returned": self.returned,
        }


@dataclass(frozen=True)
class Receipt:
    """A receipt that ``instruction`` of ``instance`` finished (``complete`` when fully done)."""

    instance: int
    instruction: int
    complete: bool = True

    def value(self) -> dict[str, Any]:
        return {"instance": self.instance, "instruction": self.instruction,
                "complete": self.complete}


def finish_ok(inst: AbilityInstance, receipt: Receipt) -> bool:
    """``FinishAbilityInstruction9`` guard: a complete receipt for this instance and cursor.

    Matching stage names is not enough: the receipt must name this instance's
    identity and the instruction at the current cursor.
    """
    return (
        inst.phase in ("Resolving", "Detached")
        and inst.imminent
        and not inst.complete
        and receipt.complete
        and receipt.instance == inst.id
        and 1 <= inst.cursor <= len(inst.instructions)
        and receipt.instruction == inst.instructions[inst.cursor - 1]
    )


def finished(inst: AbilityInstance) -> AbilityInstance:
    """The frame after finishing the instruction at the cursor (other fields preserved)."""
    if inst.cursor == len(inst.instructions):
        return replace(inst, imminent=False, complete=True)
    return replace(inst, imminent=False, cursor=inst.cursor + 1)


def advance_ok(inst: AbilityInstance, checkpoint_and_chains_complete: bool) -> bool:
    """Between instructions the next one becomes imminent only after the checkpoint and chains."""
    return (
        inst.phase in ("Resolving", "Detached")
        and not inst.imminent
        and not inst.complete
        and checkpoint_and_chains_complete
    )


def return_ok(inst: AbilityInstance, final_checkpoint_and_chains_complete: bool,
              caller: str) -> bool:
    """``ReturnAbility9`` guard: complete, not yet returned, final checkpoint and chains, caller."""
    return (
        inst.complete
        and not inst.returned
        and final_checkpoint_and_chains_complete
        and caller == inst.caller
    )
