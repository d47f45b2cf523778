"""What an exploration found: counts, and the violation with the path to it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from tlaconf.explore.adapter import Label
from tlaconf.explore.identity import collision_probability

State = dict[str, Any]
Outcome = Literal["success", "violation", "deadlock"]


@dataclass(frozen=True)
class Step:
    """One state of a path: the action that reached it (None for an initial state)."""

    label: Label | None
    state: State


@dataclass(frozen=True)
class Violation:
    """What ended the search: an invariant FALSE in the path's last state (``kind``
    ``"invariant"``, ``invariant`` names it), a deadlock there (``"deadlock"``,
    ``invariant`` None), or what a hook of the search found (``kind`` as it says, e.g.
    ``"property"``, ``invariant`` the property's name).  ``loop``: the index in ``path``
    where a lasso's cycle starts (None: a finite prefix); ``detail``: free text."""

    invariant: str | None
    path: tuple[Step, ...]
    kind: str = "invariant"
    loop: int | None = None
    detail: str = ""


@dataclass
class Result:
    """Counts as TLC reports them: ``distinct_states`` (found, after ``VIEW`` and
    ``SYMMETRY``), ``total_states`` (generated, duplicates included), ``depth`` (levels of
    the search, an initial state at level 1)."""

    result: Outcome = "success"
    distinct_states: int = 0
    total_states: int = 0
    depth: int = 0
    seconds: float = 0.0
    violation: Violation | None = None
    complete: bool = True
    """False when a bound or the walks left states unexplored."""
    bound: str | None = None
    """The bound that cut the search: ``"states"`` or ``"seconds"`` (None: none did)."""
    bound_level: int = 0
    """The level the search was at when ``bound`` cut it."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def states_per_second(self) -> float:
        return self.total_states / self.seconds if self.seconds > 0 else 0.0

    def collision_probability(self) -> float:
        """TLC's optimistic estimate ("calculated (optimistic)") of the probability that
        two distinct states met share a 64-bit fingerprint, for these counts."""
        return collision_probability(self.distinct_states, self.total_states)
