"""What identifies one conformance module to load: file, search path, constants, invariants."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NEXT = "Next"
"""The operator a step without an action label is checked against."""


@dataclass(frozen=True)
class ModuleSpec:
    """Everything needed to load one conformance module."""

    name: str
    path: Path
    search_path: tuple[Path, ...]
    constants: Mapping[str, Any]
    invariants: tuple[str, ...]
    origins: Mapping[str, str] = field(default_factory=dict)
    """``file:line`` of the ``.cfg`` line naming each invariant or constant."""
