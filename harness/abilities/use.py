"""Use records (``AbilityUseDue9``) and once-per-turn history.

Recognition, selection, payment and optional execution are different
boundaries; a definition's ``use_basis`` says which one records a use, and only
when it actually happened (paid, executed, chosen).  Once-per-turn is decided
from the recorded (definition, source, turn) history, never from a flag that a
new window clears.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from harness.abilities.definitions import AbilityDefinition, Source
from tlaconf.values import from_python

Boundary = Literal["Recognition", "Selection", "Payment", "OptionalExecution"]
_BOUNDARY_OF_BASIS = {"Payment": "Payment", "OptionalEffect": "OptionalExecution",
                      "Choice": "Selection"}


@dataclass(frozen=True)
class UseEvent:
    """A boundary reached by an instance; ``actual`` = it really happened (paid, executed...)."""

    boundary: Boundary
    actual: bool

    def value(self) -> dict[str, Any]:
        return {"boundary": self.boundary, "actual": self.actual}


@dataclass(frozen=True, order=True)
class UseRecord:
    """One recorded use of a definition from a source, in a turn, by an instance."""

    definition: str
    turn: int
    instance: int
    once_per_turn: bool
    source: Source

    def value(self) -> dict[str, Any]:
        return {"definition": self.definition, "source": self.source.value(), "turn": self.turn,
                "instance": self.instance, "oncePerTurn": self.once_per_turn}


def use_due(definition: AbilityDefinition, event: UseEvent) -> bool:
    """``AbilityUseDue9``: the definition's own boundary, actually reached."""
    return event.boundary == _BOUNDARY_OF_BASIS[definition.use_basis] and event.actual


def once_per_turn_open(definition: AbilityDefinition, source: Source, turn: int,
                       history: frozenset[UseRecord]) -> bool:
    """``OncePerTurnOpen9``: no use of this definition from this source in this turn."""
    return not any(
        u.definition == definition.id and u.source == source and u.turn == turn for u in history
    )


@dataclass(frozen=True)
class UseLedger:
    """The turn counter and the use history (immutable)."""

    turn: int = 1
    uses: frozenset[UseRecord] = frozenset()

    def may_select(self, definition: AbilityDefinition, source: Source) -> bool:
        return not definition.once_per_turn or once_per_turn_open(
            definition, source, self.turn, self.uses
        )

    def boundary(self, definition: AbilityDefinition, source: Source, instance: int,
                 event: UseEvent) -> UseLedger | None:
        """The ledger after ``event``: one more use record exactly when a use is due.

        ``None`` (refused) when the use would be a second once-per-turn use of the
        definition from that source in this turn.
        """
        if not use_due(definition, event):
            return self
        if not self.may_select(definition, source):
            return None
        rec = UseRecord(definition.id, self.turn, instance, definition.once_per_turn, source)
        return replace(self, uses=self.uses | {rec})

    def end_turn(self) -> UseLedger:
        """Next turn; the history is kept (it is what once-per-turn reads)."""
        return replace(self, turn=self.turn + 1)

    def value(self) -> dict[str, Any]:
        return {"turn": self.turn, "uses": {from_python(u.value()) for u in self.uses}}
