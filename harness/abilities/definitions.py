"""Ability definitions: kind, structured instructions, source relation, controller, metadata.

A definition classifies work and identifies its source (``AbilityShape9``,
``AbilitySource9``).  It is never an instance: instances (``instances.py``)
capture a *copy* of a definition together with an occurrence identity.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from tlaconf.errors import UserError

#: ``AbilityKinds9``: the admitted categories.
ABILITY_KINDS: frozenset[str] = frozenset({"Static", "Activated", "Conditional"})
ConditionForm = Literal["None", "Trigger", "State"]
UseBasis = Literal["Payment", "OptionalEffect", "Choice"]
USE_BASES: frozenset[str] = frozenset({"Payment", "OptionalEffect", "Choice"})


class AbilityError(UserError):
    """A malformed ability definition or request (bad input, not a rejected step)."""


@dataclass(frozen=True, order=True)
class ObjectRef:
    """An object's identity: its id *and* its lifetime (incarnation).

    A renewed object keeps its physical id but gets a new ``life``; the two
    references are different, so an equal physical name never substitutes.
    """

    id: int
    life: int

    def renewed(self) -> ObjectRef:
        """The reference of the same physical object after renewal."""
        return ObjectRef(self.id, self.life + 1)

    def value(self) -> dict[str, int]:
        return {"id": self.id, "life": self.life}


@dataclass(frozen=True)
class ObjectSource:
    """``ObjectAbilitySource9(object)``: an ability sourced by an object."""

    object: ObjectRef

    def value(self) -> dict[str, Any]:
        return {"kind": "Object", "object": self.object.value(), "rule": ""}


@dataclass(frozen=True)
class RuleSource:
    """``RuleAbilitySource9(rule)``: an ability sourced by a game rule (kind ``Rule``, no object).

    Both sources have one record shape (``kind``, ``object``, ``rule``), so a
    model checker's type checker gives every trace variable one type.
    """

    rule: str

    def value(self) -> dict[str, Any]:
        return {"kind": "Rule", "object": dict(NO_OBJECT), "rule": self.rule}


Source = ObjectSource | RuleSource


def shape_ok(kind: str, instructions: tuple[int, ...]) -> bool:
    """``AbilityShape9``: an admitted kind; static has no instructions, the others have some."""
    if kind not in ABILITY_KINDS:
        return False
    return len(instructions) == 0 if kind == "Static" else len(instructions) > 0


def ability_source(
    origin: str,
    printed_object: ObjectRef | None = None,
    recipient: ObjectRef | None = None,
    effect_creator: ObjectRef | None = None,
    rule: str | None = None,
) -> Source:
    """``AbilitySource9``: the source relation of each origin.

    Granted abilities are sourced by their *recipient* (granted by 11 to 12: source 12),
    lingering ones by their effect creator, rule abilities by the rule.
    """
    chosen: ObjectRef | None
    if origin == "Printed":
        chosen = printed_object
    elif origin == "Granted":
        chosen = recipient
    elif origin == "Lingering":
        chosen = effect_creator
    elif origin == "Rule":
        if rule is None:
            raise AbilityError("a rule origin needs the rule")
        return RuleSource(rule)
    else:
        raise AbilityError(f"unknown ability origin {origin!r}")
    if chosen is None:
        raise AbilityError(f"a {origin.lower()} origin needs its object")
    return ObjectSource(chosen)


#: How a missing object is written in TLA+ records (object ids are positive).
NO_OBJECT: dict[str, int] = {"id": 0, "life": 0}


def _ref_value(obj: ObjectRef | None) -> dict[str, int]:
    return dict(NO_OBJECT) if obj is None else obj.value()


@dataclass(frozen=True)
class Provenance:
    """The inputs of ``AbilitySource9`` besides the origin (``None`` = not applicable)."""

    printed_object: ObjectRef | None = None
    recipient: ObjectRef | None = None
    effect_creator: ObjectRef | None = None
    rule: str | None = None

    def value(self) -> dict[str, Any]:
        return {
            "printedObject": _ref_value(self.printed_object),
            "recipient": _ref_value(self.recipient),
            "effectCreator": _ref_value(self.effect_creator),
            "rule": self.rule or "",
        }


@dataclass(frozen=True)
class AbilityDefinition:
    """A definition obeying ``AbilityShape9``, its source derived by ``AbilitySource9``.

    ``instructions`` are typed instruction identifiers (ints); ``metadata`` holds
    labels only (never parsed into behaviour).  ``condition`` says how a
    conditional definition is recognized (a trigger pattern with stipulations,
    or a state-based primary condition); ``use_basis`` says which boundary
    records a use; ``active_zones``/``active_facedown`` feed ``AbilityActive9``.
    """

    id: str
    kind: str
    instructions: tuple[int, ...]
    origin: str
    provenance: Provenance
    controller: str
    metadata: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    interrupt: bool = False
    condition: ConditionForm = "None"
    use_basis: UseBasis = "Payment"
    once_per_turn: bool = False
    active_zones: frozenset[str] = frozenset({"Play"})
    active_facedown: bool = False

    def __post_init__(self) -> None:
        if not shape_ok(self.kind, self.instructions):
            raise AbilityError(
                f"ability {self.id!r}: kind {self.kind!r} with {len(self.instructions)}"
                " instructions violates AbilityShape9"
            )
        if not all(type(i) is int for i in self.instructions):
            raise AbilityError(f"ability {self.id!r}: instruction identifiers must be integers")
        self.source  # noqa: B018 - AbilitySource9 must be defined for this origin
        if (self.kind == "Conditional") != (self.condition != "None"):
            raise AbilityError(
                f"ability {self.id!r}: exactly the conditional kind has a recognition condition"
            )
        if self.use_basis not in USE_BASES:
            raise AbilityError(f"ability {self.id!r}: unknown use basis {self.use_basis!r}")
        object.__setattr__(self, "metadata", MappingProxyType(dict(self.metadata)))

    @property
    def source(self) -> Source:
        """The source relation of this definition's origin."""
        p = self.provenance
        return ability_source(self.origin, p.printed_object, p.recipient, p.effect_creator, p.rule)

    def value(self) -> dict[str, Any]:
        """The definition as a TLA+ record (plain Python data)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "instructions": list(self.instructions),
            "origin": self.origin,
            "provenance": self.provenance.value(),
            "source": self.source.value(),
            "controller": self.controller,
            "metadata": dict(self.metadata),
            "interrupt": self.interrupt,
            "condition": self.condition,
            "useBasis": self.use_basis,
            "oncePerTurn": self.once_per_turn,
            "activeZones": set(self.active_zones),
            "activeFacedown": self.active_facedown,
        }
