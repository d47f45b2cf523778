"""The behaviour graph a search found, as liveness checking reads it: every state once,
its successors (those the constraints keep), and, as in TLC, an implicit stuttering step
from every state to itself (a state with no successor stutters forever)."""

from __future__ import annotations

from typing import Any

from tlaconf.explore.hooks import StateId

State = dict[str, Any]


class StateGraph:
    """States numbered densely in the order they were found, with their edges and the
    state each was first reached from (``parent``: -1 for an initial state)."""

    def __init__(self) -> None:
        self.index: dict[StateId, int] = {}
        self.ids: list[StateId] = []
        self.states: list[State] = []
        self.succ: list[set[int]] = []
        self.parent: list[int] = []
        self.initial: list[int] = []

    def add(self, sid: StateId, state: State, parent: int) -> int:
        """The number of ``sid``, added when new (reached first from ``parent``)."""
        at = self.index.get(sid)
        if at is None:
            at = len(self.ids)
            self.index[sid] = at
            self.ids.append(sid)
            self.states.append(state)
            self.succ.append(set())
            self.parent.append(parent)
            if parent < 0:
                self.initial.append(at)
        return at

    def path(self, u: int) -> list[int]:
        """The states from an initial state to ``u``, along first discoveries."""
        out = []
        while u >= 0:
            out.append(u)
            u = self.parent[u]
        return out[::-1]

    def successors(self, u: int) -> list[int]:
        """``u``'s successors, itself (stuttering) first."""
        return [u, *sorted(self.succ[u] - {u})]
