"""A backend that accepts every step: the other side of a cross-check disagreement."""

from __future__ import annotations

from typing import Any

from tlaconf.replay.embedded import EmbeddedBackend
from tlaconf.spec.module_spec import ModuleSpec


class _All:
    def __init__(self, spec: ModuleSpec) -> None:
        inner = EmbeddedBackend().load(spec)
        self.name = inner.name
        self.variables = inner.variables
        self.actions = inner.actions
        self.has_next = inner.has_next

    def start_trace(self) -> None:
        return None

    def check_next(self, *args: Any) -> None:
        return None

    def check_action(self, *args: Any) -> None:
        return None

    def enabled(self, *args: Any) -> bool:
        return False

    def check_invariant(self, *args: Any) -> None:
        return None


class AcceptAll:
    name = "accept-all"

    def load(self, spec: ModuleSpec) -> _All:
        return _All(spec)
