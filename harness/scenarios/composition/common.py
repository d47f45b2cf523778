"""What every composition scenario shares: requests, machines, recording, golden scripts.

A machine may have ``constants`` (the conformance module's CONSTANTS it was
run with); they go into the trace header.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.scenarios import golden_abilities
from harness.scenarios.abilities import REVISION, Machine, Request, record
from harness.scenarios.golden_abilities import Mutation
from tlaconf.trace.writer import TraceWriter

#: A golden trace: its script, the failing step (None: conforms) and the blamed conjunct.
Golden = dict[str, tuple["Script | Literal", int | None, str | None]]
Walk = Callable[[random.Random], tuple[Machine, Iterator[Request]]]
GENERATOR = "harness.scenarios.composition"

__all__ = ["Golden", "Literal", "Machine", "Mutation", "Request", "Script", "Walk", "assign",
           "keep", "record_walk"]


def constants_of(machine: Machine) -> Mapping[str, Any]:
    constants: Mapping[str, Any] = getattr(machine, "constants", {})
    return constants


@dataclass(frozen=True)
class Move:
    """A request to move ``entry`` from ``source`` to ``destination`` (TargetChoice and
    TurnObservation both record it as ``Move``)."""

    entry: int
    source: str
    destination: str
    label = "Move"

    def params(self) -> dict[str, Any]:
        return {"entry": self.entry, "source": self.source, "destination": self.destination}


class Script(golden_abilities.Script):
    """A golden trace under construction; its header carries the machine's constants."""

    def do(self, r: Request) -> Script:
        super().do(r)
        return self

    def write(self, path: Path, scenario: str) -> None:
        Literal(self.machine.module, dict(constants_of(self.machine)), self.initial,
                self.steps).write(path, scenario)


@dataclass
class Literal:
    """A trace written state by state, as the seed's text says each step must go, with no
    helper driving it (so it checks the reading against the seed, not the harness)."""

    module: str
    constants: dict[str, Any]
    initial: dict[str, Any]
    steps: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = field(default_factory=list)

    def step(self, label: str, params: dict[str, Any], outcome: str = "accepted",
             **changes: Any) -> int:
        """Record a step whose state is the last one with ``changes``; its number (1-based)."""
        last = self.steps[-1][3] if self.steps else self.initial
        self.steps.append((label, params, outcome, {**copy.deepcopy(last),
                                                    **copy.deepcopy(changes)}))
        return len(self.steps)

    def write(self, path: Path, scenario: str) -> None:
        with TraceWriter(path, self.module, REVISION, self.constants,
                         {"generator": GENERATOR, "scenario": scenario}) as w:
            w.init(self.initial)
            for label, params, outcome, state in self.steps:
                w.step(label, params, outcome, state)  # type: ignore[arg-type]


def keep(state: dict[str, Any]) -> None:
    """No change: the bug is in what the step claims (its params) or in its outcome."""


def assign(**values: Any) -> Mutation:
    """Replace variables by the given values (a wrong successor state)."""
    def mutate(state: dict[str, Any]) -> None:
        state.update(copy.deepcopy(values))
    return mutate


def record_walk(out_dir: Path, name: str, seed: int, walk: Walk) -> Path:
    """Record the seeded walk as ``composition-<name>-<seed>.trace.jsonl``; its path.

    Every request is applied and recorded as it comes (accepted or rejected); a
    rejected request that changed the machine's state is a harness bug.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    machine, requests = walk(random.Random(f"{name}-{seed}"))
    path = out_dir / f"composition-{name}-{seed}.trace.jsonl"
    meta = {"seed": seed, "generator": GENERATOR, "scenario": name}
    return record(path, machine, requests, meta, constants_of(machine))
