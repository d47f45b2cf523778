"""What an exploration found: counts, and the violation with the path to it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from tlaconf.explore.adapter import Label

State = dict[str, Any]
Outcome = Literal["success", "violation", "deadlock"]


@dataclass(frozen=True)
class Step:
    """One state of a path: the action that reached it (None for an initial state)."""

    label: Label | None
    state: State


@dataclass(frozen=True)
class Violation:
    """An invariant FALSE in the path's last state (``invariant`` names it), or a
    deadlock there (``invariant`` is None); for ``kind="property"``, the ``PROPERTY``
    ``invariant`` names is FALSE of the path (``loop``: the index its last state goes
    back to, forever, for a liveness counterexample; ``detail``: why)."""

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
    """False when a depth limit or the walks left states unexplored."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def states_per_second(self) -> float:
        return self.total_states / self.seconds if self.seconds > 0 else 0.0

    def collision_probability(self) -> float:
        """TLC's optimistic estimate of a 64-bit fingerprint collision for these counts
        (tlaconf deduplicates on the full value, so it has none)."""
        n, m = self.distinct_states, self.total_states
        return n * (m - n) / 2.0**64
