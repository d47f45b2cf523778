"""An ability library: definitions, sources, activity, recognition, instances, use records.

It follows the reference profile's seed 003 (``AbilityShape9``, ``AbilitySource9``,
``AbilityActive9``, ``CheckpointCandidates96``, ``FinishAbilityInstruction9``,
``AbilityUseDue9``, ``ReturnAbility9``).  It never imports the checker.
"""

from harness.abilities.activity import ActivityContext, ObjectData, ability_active, may_choose
from harness.abilities.definitions import (
    ABILITY_KINDS,
    AbilityDefinition,
    AbilityError,
    ObjectRef,
    ObjectSource,
    RuleSource,
    ability_source,
    shape_ok,
)
from harness.abilities.engine import AbilityEngine, AbilityState, Registered
from harness.abilities.instances import AbilityInstance, Receipt, finish_ok, return_ok
from harness.abilities.recognition import Candidate, ConditionResult, checkpoint_candidates
from harness.abilities.use import UseEvent, UseLedger, UseRecord, use_due

__all__ = [
    "ABILITY_KINDS",
    "AbilityDefinition",
    "AbilityEngine",
    "AbilityError",
    "AbilityInstance",
    "AbilityState",
    "ActivityContext",
    "Candidate",
    "ConditionResult",
    "ObjectData",
    "ObjectRef",
    "ObjectSource",
    "Receipt",
    "Registered",
    "RuleSource",
    "UseEvent",
    "UseLedger",
    "UseRecord",
    "ability_active",
    "ability_source",
    "checkpoint_candidates",
    "finish_ok",
    "may_choose",
    "return_ok",
    "shape_ok",
    "use_due",
]
