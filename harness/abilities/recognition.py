"""Recognition of conditional occurrences at one checkpoint (``CheckpointCandidates96``).

Recognition consumes *supplied* condition results tied to a definition and a
checkpoint snapshot; it does not evaluate requirements itself.  The
trigger-pattern branch (pattern matched and stipulations met) is kept apart from
the state-based primary branch (primary holds, no sibling instance pending, not
throttled).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from harness.abilities.definitions import AbilityDefinition


@dataclass(frozen=True)
class ConditionResult:
    """One supplied condition result for ``definition`` at ``checkpoint``."""

    definition: str
    checkpoint: int
    occurrence: str
    pattern_matched: bool = False
    stipulation_met: bool = False
    primary_holds: bool = False
    sibling_pending: bool = False
    throttled: bool = False

    def value(self) -> dict[str, Any]:
        return {
            "definition": self.definition,
            "checkpoint": self.checkpoint,
            "occurrence": self.occurrence,
            "patternMatched": self.pattern_matched,
            "stipulationMet": self.stipulation_met,
            "primaryHolds": self.primary_holds,
            "siblingPending": self.sibling_pending,
            "throttled": self.throttled,
        }


@dataclass(frozen=True)
class Candidate:
    """A recognized occurrence, not yet an instance."""

    definition: str
    occurrence: str
    checkpoint: int
    branch: Literal["Trigger", "State"]

    def value(self) -> dict[str, Any]:
        return {
            "definition": self.definition,
            "occurrence": self.occurrence,
            "checkpoint": self.checkpoint,
            "branch": self.branch,
        }


def trigger_hit(definition: AbilityDefinition, result: ConditionResult) -> bool:
    """The trigger-pattern/stipulation branch."""
    return (
        definition.condition == "Trigger" and result.pattern_matched and result.stipulation_met
    )


def state_hit(definition: AbilityDefinition, result: ConditionResult) -> bool:
    """The state-based primary branch with its sibling and throttle guards."""
    return (
        definition.condition == "State"
        and result.primary_holds
        and not result.sibling_pending
        and not result.throttled
    )


def checkpoint_candidates(
    definitions: Mapping[str, AbilityDefinition],
    checkpoint: int,
    results: Iterable[ConditionResult],
) -> list[Candidate]:
    """``CheckpointCandidates96``: the occurrences recognized at ``checkpoint``.

    A result for another checkpoint or for an unknown definition never counts.
    """
    found: set[Candidate] = set()
    for r in results:
        d = definitions.get(r.definition)
        if d is None or r.checkpoint != checkpoint:
            continue
        if trigger_hit(d, r):
            found.add(Candidate(r.definition, r.occurrence, checkpoint, "Trigger"))
        elif state_hit(d, r):
            found.add(Candidate(r.definition, r.occurrence, checkpoint, "State"))
    return sorted(found, key=lambda c: (c.definition, c.occurrence, c.branch))
