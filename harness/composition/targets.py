"""``TargetSpec``, ``enumerateTargetChoices`` and generic action enumeration.

A target spec says where candidates come from (zones of a zone collection), how
many targets a choice has and whether they must be distinct; the product's
``cap`` bounds how many concrete tuples are enumerated.  Choices come in canonical
order (candidates sorted, tuples lexicographic) and say explicitly whether the cap
truncated them.  An ``ActionDefinition`` whose ``params`` is ``"targets"`` names a
``target_spec_id``; generic action enumeration lists one concrete action per
choice and refuses (``truncated_targets``) when any choice list is truncated,
because a partial legal surface must never pass for the complete one.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from harness.composition.errors import CompositionError
from harness.zones import EntryId, ZoneCollection

Targets = tuple[EntryId, ...]
Admit = Callable[[EntryId], bool]


@dataclass(frozen=True)
class TargetSpec:
    """Candidates: the entries of ``zones``; a choice is ``count`` of them (``distinct``)."""

    id: str
    zones: tuple[str, ...]
    count: int
    distinct: bool = True
    cap: int = 16

    def __post_init__(self) -> None:
        if self.count < 1 or self.cap < 0:
            raise CompositionError("invalid_target_spec", "count >= 1 and cap >= 0 required",
                                   spec=self.id)

    def value(self) -> dict[str, Any]:
        return {"id": self.id, "zones": set(self.zones), "count": self.count,
                "distinct": self.distinct, "cap": self.cap}


@dataclass(frozen=True)
class TargetChoices:
    """The enumerated target tuples (canonical order) and whether the cap truncated them."""

    choices: tuple[Targets, ...]
    truncated: bool

    def value(self) -> dict[str, Any]:
        return {"choices": [list(c) for c in self.choices], "truncated": self.truncated}


def candidates(spec: TargetSpec, zones: ZoneCollection,
               admit: Admit | None = None) -> tuple[EntryId, ...]:
    """The candidate entries (those ``admit`` lets through, if given), in canonical order."""
    return tuple(sorted({e for z in spec.zones for e in zones.zone(z).members
                         if admit is None or admit(e)},
                        key=lambda e: (type(e).__name__, e)))


def _tuples(spec: TargetSpec, zones: ZoneCollection, admit: Admit | None) -> Iterator[Targets]:
    pool = candidates(spec, zones, admit)
    for t in itertools.product(pool, repeat=spec.count):
        if not spec.distinct or len(set(t)) == len(t):
            yield t


def is_target_tuple(spec: TargetSpec, zones: ZoneCollection, targets: Targets) -> bool:
    """Whether ``targets`` is a legal choice (whether or not the cap listed it)."""
    pool = set(candidates(spec, zones))
    return (len(targets) == spec.count and all(t in pool for t in targets)
            and (not spec.distinct or len(set(targets)) == len(targets)))


def enumerate_target_choices(spec: TargetSpec, zones: ZoneCollection,
                             admit: Admit | None = None) -> TargetChoices:
    """At most ``spec.cap`` target tuples, the first in canonical order; truncation explicit.

    ``admit`` restricts the candidates (a seat's view admits what it may identify).
    """
    first = tuple(itertools.islice(_tuples(spec, zones, admit), spec.cap + 1))
    return TargetChoices(first[:spec.cap], len(first) > spec.cap)


@dataclass(frozen=True)
class ActionDefinition:
    """A product action; ``params="targets"`` takes a choice of ``target_spec_id``."""

    id: str
    params: Literal["none", "targets"] = "none"
    target_spec_id: str = ""

    def value(self) -> dict[str, Any]:
        return {"id": self.id, "params": self.params, "targetSpecId": self.target_spec_id}


@dataclass(frozen=True, order=True)
class ConcreteAction:
    """An action with its parameters filled in (no targets: an empty tuple)."""

    action: str
    targets: Targets = ()

    def value(self) -> dict[str, Any]:
        return {"action": self.action, "targets": list(self.targets)}


def target_choices(specs: Mapping[str, TargetSpec], zones: ZoneCollection,
                   admit: Admit | None = None) -> dict[str, TargetChoices]:
    """``TurnView.targetChoices``: every spec's enumerated choices."""
    return {k: enumerate_target_choices(s, zones, admit) for k, s in specs.items()}


def enumerate_actions(definitions: tuple[ActionDefinition, ...],
                      choices: Mapping[str, TargetChoices]) -> frozenset[ConcreteAction]:
    """Every concrete action; refuses when a targets action's choices were truncated."""
    out: set[ConcreteAction] = set()
    for d in definitions:
        if d.params == "none":
            out.add(ConcreteAction(d.id))
            continue
        listed = choices[d.target_spec_id]
        if listed.truncated:
            raise CompositionError(
                "truncated_targets",
                f"{d.id}: the choices of {d.target_spec_id!r} were truncated by the cap",
                action=d.id, spec=d.target_spec_id)
        out.update(ConcreteAction(d.id, t) for t in listed.choices)
    return frozenset(out)
