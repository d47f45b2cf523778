"""Presence, activity (``AbilityActive9``) and permission to choose: three separate predicates.

Presence is whether the ability is effectively on its provider at all; activity
applies the provider/source branches with their explicit exceptions; permission
to choose additionally needs timing, controller, targets and affordability.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from harness.abilities.definitions import AbilityDefinition, ObjectRef, ObjectSource, RuleSource
from tlaconf.values import from_python


@dataclass(frozen=True)
class ObjectData:
    """Current data of an object (for the object's *current* lifetime only)."""

    zone: str
    face_up: bool
    controller: str

    def value(self) -> dict[str, Any]:
        return {"zone": self.zone, "faceUp": self.face_up, "controller": self.controller}


@dataclass(frozen=True)
class ActivityContext:
    """What activity is computed from.

    ``present``: ids of abilities effectively present; ``permitted_rules``: rules
    currently granting permission; ``objects``: current data keyed by identity
    (a renewed object appears under its new ``life`` only);
    ``facedown_restricted_seats``: controllers whose face-down objects have no
    active abilities (the seed's SideB restriction); ``departure_holds`` and
    ``persistent_membership``: specific (ability id, object) context records.
    """

    present: frozenset[str] = frozenset()
    permitted_rules: frozenset[str] = frozenset()
    objects: Mapping[ObjectRef, ObjectData] = field(default_factory=dict)
    facedown_restricted_seats: frozenset[str] = frozenset({"SideB"})
    departure_holds: frozenset[tuple[str, ObjectRef]] = frozenset()
    persistent_membership: frozenset[tuple[str, ObjectRef]] = frozenset()

    def value(self) -> dict[str, Any]:
        """The context as a TLA+ record."""
        return {
            "present": set(self.present),
            "permittedRules": set(self.permitted_rules),
            "objects": {_key(o): d.value() for o, d in sorted(self.objects.items())},
            "facedownRestricted": set(self.facedown_restricted_seats),
            "departureHolds": {_pair(a, o) for a, o in self.departure_holds},
            "persistentMembership": {_pair(a, o) for a, o in self.persistent_membership},
        }


def _key(obj: ObjectRef) -> Any:
    """An object identity as a hashable TLA+ record (a function key or set element)."""
    return from_python(obj.value())


def _pair(ability: str, obj: ObjectRef) -> Any:
    return from_python({"ability": ability, "object": obj.value()})


def ability_active(definition: AbilityDefinition, ctx: ActivityContext) -> bool:
    """``AbilityActive9``: effective presence first, then the source branches.

    Departure holds and persistent membership count only for the exact
    (ability, object identity) they record; they are not blanket permissions.
    """
    if definition.id not in ctx.present:
        return False
    source = definition.source
    if isinstance(source, RuleSource):
        return source.rule in ctx.permitted_rules
    assert isinstance(source, ObjectSource)
    obj = source.object
    data = ctx.objects.get(obj)
    if data is not None and data.zone in definition.active_zones:
        if data.face_up:
            return True
        if definition.active_facedown and data.controller not in ctx.facedown_restricted_seats:
            return True
    if (definition.id, obj) in ctx.departure_holds:
        return True
    return definition.origin == "Lingering" and (definition.id, obj) in ctx.persistent_membership


def may_choose(
    definition: AbilityDefinition,
    ctx: ActivityContext,
    chooser: str,
    timing_ok: bool,
    targets_ok: bool,
    affordable: bool,
) -> bool:
    """``AbilityChoosable9``: activity is necessary, never sufficient, for choosing."""
    return (
        ability_active(definition, ctx)
        and timing_ok
        and chooser == definition.controller
        and targets_ok
        and affordable
    )


def public_view(
    definition: AbilityDefinition, ctx: ActivityContext, viewer: str
) -> dict[str, Any]:
    """What ``viewer`` may see of an ability: activity grants no right to hidden metadata.

    Metadata of an ability whose source object is face down is shown only to its
    controller; everyone else sees the ability id alone.
    """
    source = definition.source
    hidden = (
        isinstance(source, ObjectSource)
        and (data := ctx.objects.get(source.object)) is not None
        and not data.face_up
        and viewer != data.controller
    )
    if hidden:
        return {"id": definition.id}
    return {"id": definition.id, "kind": definition.kind, "metadata": dict(definition.metadata)}
