"""What every composition scenario shares: requests, machines, recording, golden scripts."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from harness.scenarios.abilities import Machine, Request, record
from harness.scenarios.golden_abilities import Mutation, Script

#: A golden trace: its script, the failing step (None: conforms) and the blamed conjunct.
Golden = dict[str, tuple[Script, int | None, str]]
Walk = Callable[[random.Random], tuple[Machine, Iterator[Request]]]

__all__ = ["Golden", "Machine", "Mutation", "Request", "Script", "Walk", "keep", "put",
           "record_walk"]


def keep(state: dict[str, Any]) -> None:
    """No change: the bug is in what the step claims (its params) or in its outcome."""


def put(name: str, value: Any) -> Mutation:
    """Replace variable ``name`` by ``value`` (a wrong successor state)."""
    def mutate(state: dict[str, Any]) -> None:
        state[name] = copy.deepcopy(value)
    return mutate


def record_walk(out_dir: Path, name: str, seed: int, walk: Walk) -> Path:
    """Record the seeded walk ``walk`` as ``composition-<name>-<seed>.trace.jsonl``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    machine, requests = walk(random.Random(f"{name}-{seed}"))
    meta = {"seed": seed, "generator": "harness.scenarios.composition", "scenario": name}
    return record(out_dir / f"composition-{name}-{seed}.trace.jsonl", machine, requests, meta)
